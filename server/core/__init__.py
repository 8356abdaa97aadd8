"""The server's sans-I/O core: rooms, seats, clocks, the lobby, sessions, limits, records.

Everything here is a pure state machine or pure bookkeeping. Time is passed in,
randomness is injected, and nothing touches a socket, a file, a thread or the
event loop: :mod:`boardroom.server.core.room` is the model (every input returns an
``Output``, a refused request changes nothing). The adapters around the core
live one level up in :mod:`server` (the hub, the room host, the store, the
app), and the features (:mod:`boardroom.server.classroom`, :mod:`boardroom.server.tournaments`,
:mod:`boardroom.server.ratings`) build on both.

The rule is enforced by the import contracts in ``pyproject.toml`` (checked by
``tests/test_layers.py``): a module in this package imports only the standard
library's pure parts, :mod:`shared`, third-party data libraries, and other
modules of this package; never ``asyncio``, ``aiohttp``, ``sqlite3``, ``time``,
or the rest of :mod:`server`.
"""
