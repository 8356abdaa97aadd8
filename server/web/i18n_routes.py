"""``GET /api/i18n``: the browser's catalogue in the language its reader gets.

The browser's ``i18n.js`` asks once per page, before it shows a word::

    GET /api/i18n?chosen=es&accept=es-ES,en&follows=reader

- ``chosen``: the language the reader picked with the page's switch (or empty);
- ``accept``: ``navigator.languages``, most wanted first;
- ``follows``: ``server`` for a page that speaks to the class (the wall, the
  cards), whose language is the server's (``serve --lang``) before the reader's
  choice; ``reader`` (the default) for the others.

The language is, first that applies: the server's for a ``follows=server`` page;
the reader's choice; the server's; the first of ``accept`` that Boardroom
speaks; English. Unknown codes are passed over, never refused: a page always
gets a catalogue. The answer (``Cache-Control: no-cache`` with an ETag)::

    {"language": "es", "server_language": "es" or null,
     "languages": [{"code": "en", "name": "English"}, ...],
     "messages": {...}, "plurals": {...}}

``messages`` and ``plurals`` are :func:`~boardroom.shared.i18n.browser_catalogue`'s.
"""

from __future__ import annotations

import functools
import hashlib

import msgspec
from aiohttp import web

from boardroom.server.http_api import revalidated_json
from boardroom.server.lifecycle import CONFIG
from boardroom.shared.i18n import LANGUAGES, browser_catalogue, negotiate

MAX_WISHES = 16
"""``accept`` tags read at most (a browser lists a handful)."""


def add_i18n_routes(app: web.Application) -> None:
    """Route ``GET /api/i18n`` on ``app``."""
    app.router.add_get("/api/i18n", _catalogue)


def page_language(server: str, chosen: str, accept: list[str], follows: str) -> str:
    """The language a page speaks (the rule in this module's docstring).

    >>> page_language("es", "en", ["en"], "server")
    'es'
    >>> page_language("es", "en", ["es"], "reader")
    'en'
    >>> page_language("", "", ["de-DE", "es-MX"], "reader")
    'es'
    >>> page_language("", "xx", [], "reader")
    'en'
    """
    wishes = [server] if server and follows == "server" else []
    wishes += [chosen, server, *accept]
    return negotiate(wish for wish in wishes if wish)


@functools.cache
def _answer(language: str, server: str) -> tuple[bytes, str]:
    """The body and ETag for ``language`` on a server whose own is ``server``
    (fixed for the process's life: the catalogues are read once)."""
    body = msgspec.json.encode(
        {
            "language": language,
            "server_language": server or None,
            "languages": [{"code": each.code, "name": each.name} for each in LANGUAGES],
            **{
                key: value
                for key, value in browser_catalogue(language).items()
                if key != "language"
            },
        }
    )
    return body, hashlib.sha256(body).hexdigest()[:32]


async def _catalogue(request: web.Request) -> web.Response:
    server = request.app[CONFIG].language
    accept = [tag for tag in request.query.get("accept", "").split(",")[:MAX_WISHES] if tag]
    language = page_language(
        server, request.query.get("chosen", ""), accept, request.query.get("follows", "reader")
    )
    body, etag = _answer(language, server)
    return revalidated_json(request, body, etag, {"Content-Language": language})
