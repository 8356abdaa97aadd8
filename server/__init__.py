"""The Boardroom game server (aiohttp): rooms, seats, clocks, persistence, engine pool.

Start at :mod:`boardroom.server.app` (the routes), :mod:`boardroom.server.lifecycle` (the start-up
and shutdown, a resource at a time) and :mod:`boardroom.server.hub` (the rooms and the lobby
behind ``/ws``). A room is a sans-I/O state machine
(:mod:`boardroom.server.core.room`, with :mod:`boardroom.server.core.room_output` and
:mod:`boardroom.server.core.clock`) run on the loop by :mod:`boardroom.server.room_host`. Games are
stored by :mod:`boardroom.server.store` (SQLite in WAL mode on its own thread,
:mod:`boardroom.server.sqlite_thread`) through
:mod:`boardroom.server.recorder`; :mod:`boardroom.server.core.records` holds the records and their
exports. The AI searches in :mod:`boardroom.server.engine_pool` (a warmed, bounded process pool).
"""
