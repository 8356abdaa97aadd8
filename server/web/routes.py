"""Serve the browser pages: ``/`` is the client, ``/static/NAME`` the pages' files.

Pages, each one HTML file in ``static/`` (:data:`PAGES`)::

    GET /              the browser client (index.html)
    GET /teacher       the teacher's page, class mode (teacher.html)
    GET /wall          the projector wall, class mode (wall.html)
    GET /leaderboard   the ratings, game by game (leaderboard.html)

The teacher's page and the wall hold no secret: they read the admin token from
the URL's fragment and send it with each request, and the API refuses without it.

``GET /static/looks.js`` is written, not read: the games with a board of their
own look (a module ``look-NAME.js`` in ``static/``, NAME the game's name), as
``export const LOOKS = ["NAME", ...];`` for the client's ``board.js``, so that a
game's look is added by adding its module alone.

Files are read from ``static/`` beside this module on every request (they are
small, and a changed file is picked up without a restart), with
``Cache-Control: no-cache``: browsers keep a copy but ask again each time,
getting ``304 Not Modified`` from the ETag while the file is unchanged, so a
new server version's client is never mixed with an old one's modules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

STATIC_DIR = Path(__file__).parent / "static"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",  # module scripts need a JavaScript type
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
"""Set here rather than guessed: a system's mime.types can map ``.js`` to a type
that browsers refuse for module scripts."""

_FILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.(?:html|js|css|svg)")
"""The names ``/static/`` serves: flat lower-case names, so no path leaves the folder."""

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "connect-src 'self'",  # the WebSocket at /ws, same origin
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The page may load and connect to nothing but this server."""


PAGES = {
    "/": "index.html",
    "/teacher": "teacher.html",
    "/wall": "wall.html",
    "/leaderboard": "leaderboard.html",
}
"""Each page's path and its file in ``static/``."""


def add_web_routes(app: web.Application) -> None:
    """Route the :data:`PAGES` and ``GET /static/{name}`` on ``app``."""
    for path, file_name in PAGES.items():
        app.router.add_get(path, _page(file_name))
    app.router.add_get("/static/looks.js", _looks)  # before /static/{name}: written here
    app.router.add_get("/static/{name}", _static_file)


def _page(file_name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def serve_page(request: web.Request) -> web.StreamResponse:
        path = STATIC_DIR / file_name
        if not path.is_file():
            raise web.HTTPNotFound(text=f"no page {request.path!r} in this Boardroom\n")
        response = _file_response(path)
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response

    return serve_page


_LOOK = re.compile(r"look-([a-z0-9][a-z0-9-]*)\.js")

WRITTEN_MODULES = frozenset({"looks.js"})
"""The client's modules that this module writes rather than reads from ``static/``."""


async def _looks(request: web.Request) -> web.Response:
    names = sorted(
        match.group(1)
        for path in STATIC_DIR.glob("look-*.js")
        if (match := _LOOK.fullmatch(path.name)) is not None
    )
    return web.Response(
        text=f"export const LOOKS = {json.dumps(names)};\n",
        headers={
            "Content-Type": CONTENT_TYPES[".js"],
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        },
    )


async def _static_file(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    path = STATIC_DIR / name
    if not _FILE_NAME.fullmatch(name) or not path.is_file():
        raise web.HTTPNotFound(text=f"no file {name!r} in the web client\n")
    return _file_response(path)


def _file_response(path: Path) -> web.FileResponse:
    return web.FileResponse(
        path,
        headers={
            "Content-Type": CONTENT_TYPES[path.suffix],
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        },
    )
