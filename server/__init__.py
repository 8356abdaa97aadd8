"""The Boardroom game server (aiohttp): rooms, seats, clocks, persistence, engine pool.

Being built (issue 3). Modules so far: :mod:`server.records` (game records and
their exports, no I/O), :mod:`server.store` (SQLite in WAL mode through
aiosqlite), :mod:`server.engine_pool` (searches in a warmed, bounded process
pool), :mod:`server.room` (a room as a sans-I/O state machine) with
:mod:`server.room_output` and :mod:`server.clock`."""
