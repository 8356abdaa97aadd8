"""The Boardroom game server (aiohttp): rooms, seats, clocks, persistence, engine pool.

Lands with the server issue; until then this package is empty on purpose."""
