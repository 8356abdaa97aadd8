"""Serve the browser client: ``/`` is the page, ``/static/NAME`` its files.

Files are read from ``static/`` beside this module on every request (they are
small, and a changed file is picked up without a restart), with
``Cache-Control: no-cache``: browsers keep a copy but ask again each time,
getting ``304 Not Modified`` from the ETag while the file is unchanged, so a
new server version's client is never mixed with an old one's modules.
"""

from __future__ import annotations

import re
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


def add_web_routes(app: web.Application) -> None:
    """Route ``GET /`` and ``GET /static/{name}`` on ``app``."""
    app.router.add_get("/", _index)
    app.router.add_get("/static/{name}", _static_file)


async def _index(request: web.Request) -> web.StreamResponse:
    response = _file_response(STATIC_DIR / "index.html")
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


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
