"""The browser client: static files served at ``/`` by the game server.

The client itself is plain HTML, CSS and JavaScript modules in ``static/``
(no build step, nothing fetched from elsewhere); :mod:`boardroom.server.web.routes` serves
them. It speaks the same WebSocket protocol as every other client
(``docs/protocol.md``).
"""
