"""What the server and its clients share: game rules (:mod:`boardroom.shared.games`), the
minimax engine (:mod:`boardroom.shared.engine`) and, later, the wire message types.

Pure: no I/O, no network library, no global state beyond caches of immutable
objects; safe to import in a worker process.
"""
