"""``GET /api/i18n``: the browser's catalogue, in the language its page speaks.

A real server in-process on a real SQLite file, asked over real HTTP. The rule
(server/web/i18n_routes.py, docs/protocol.md "HTTP"): a page that follows the
server (the wall, the cards) speaks ``serve --lang``; any other page the reader's
choice, then the server's language, then the browser's, then English; unknown
codes are passed over, never refused; the answer revalidates by its ETag.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import RunningServer, running_server

from boardroom.shared.i18n import LANGUAGES, browser_catalogue


async def catalogue(
    server: RunningServer, headers: dict[str, str] | None = None, **query: str
) -> tuple[int, Any, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(server.http_url("/api/i18n"), params=query, headers=headers) as response,
    ):
        text = await response.text()
        return response.status, response.headers.copy(), json.loads(text) if text else None


async def test_a_reader_s_page_speaks_their_choice_then_their_browser_s_language(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "i18n.db") as server:
        status, headers, body = await catalogue(server, accept="fr-FR,es-MX,en")
        assert status == 200
        assert body["language"] == "es" and headers["Content-Language"] == "es"
        assert body["server_language"] is None
        assert body["languages"] == [{"code": each.code, "name": each.name} for each in LANGUAGES]
        spanish = browser_catalogue("es")
        assert body["messages"] == spanish["messages"] and body["plurals"] == spanish["plurals"]

        _, _, body = await catalogue(server, chosen="en", accept="es-ES")
        assert body["language"] == "en" and body["messages"] == {}
        _, _, body = await catalogue(server, chosen="klingon", accept="de,zz")
        assert body["language"] == "en"  # nothing we speak: English, not a refusal
        _, _, body = await catalogue(server)
        assert body["language"] == "en"


async def test_a_class_s_language_is_the_wall_s_and_every_page_s_first_choice(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "i18n.db", language="es") as server:
        _, _, body = await catalogue(server, accept="en-US", follows="reader")
        assert (body["language"], body["server_language"]) == ("es", "es")
        _, _, body = await catalogue(server, chosen="en", accept="en-US", follows="reader")
        assert body["language"] == "en"  # a student who chose English keeps it
        _, _, body = await catalogue(server, chosen="en", accept="en-US", follows="server")
        assert body["language"] == "es"  # the wall speaks to the class


async def test_the_catalogue_revalidates_by_its_etag(tmp_path: Path) -> None:
    async with running_server(tmp_path / "i18n.db") as server:
        _, headers, _ = await catalogue(server, chosen="es")
        assert headers["Cache-Control"] == "no-cache"
        etag = headers["ETag"]
        status, _, body = await catalogue(server, {"If-None-Match": etag}, chosen="es")
        assert (status, body) == (304, None)
        status, _, _ = await catalogue(server, {"If-None-Match": etag}, chosen="en")
        assert status == 200  # another language is another catalogue


@pytest.mark.parametrize("language", ["fr", "ES ", "../es"])
def test_serve_refuses_a_language_it_has_no_catalogue_for(language: str, tmp_path: Path) -> None:
    from harness import test_config

    with pytest.raises(ValueError, match="language="):
        test_config(tmp_path / "x.db", language=language)
