"""The Boardroom game server (aiohttp): rooms, seats, clocks, persistence, engine pool.

Start at :mod:`server.app` (the routes), :mod:`server.lifecycle` (the start-up
and shutdown, a resource at a time) and :mod:`server.hub` (the rooms and the lobby
behind ``/ws``). A room is a sans-I/O state machine
(:mod:`server.core.room`, with :mod:`server.core.room_output` and :mod:`server.core.clock`) run on
the loop by :mod:`server.room_host`. Games are stored by :mod:`server.store`
(SQLite in WAL mode on its own thread, :mod:`server.sqlite_thread`) through
:mod:`server.recorder`; :mod:`server.core.records` holds the records and their exports.
The AI searches in :mod:`server.engine_pool` (a warmed, bounded process pool).
"""
