"""What the server and its clients share: game rules (:mod:`shared.games`), the
minimax engine (:mod:`shared.engine`) and, later, the wire message types.

Pure: no I/O, no network library, no global state beyond caches of immutable
objects; safe to import in a worker process.
"""
