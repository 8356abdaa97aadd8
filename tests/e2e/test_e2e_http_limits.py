"""The HTTP API's rate limit per address, end to end.

Pins docs/protocol.md ("HTTP") and docs/operations.md ("Limits for a
classroom"): over ``--http-rate`` an address gets 429 with the API's JSON error
and a ``Retry-After`` header, while other addresses (127.0.0.2: loopback answers
from all of 127.0.0.0/8), the pages, ``/healthz`` and the WebSocket are served;
the teacher's page, the wall and a class's leaderboards from one address never
meet the default limit.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
from harness import Player, RunningServer, running_server, source_connector

from boardroom.server.classroom.class_mode import teacher_token

OTHER_ADDRESS = "127.0.0.2"


async def fetch(
    session: aiohttp.ClientSession, server: RunningServer, path: str, **headers: str
) -> tuple[int, dict[str, str], Any]:
    """GET ``path`` on ``session`` (kept alive between calls): (status, headers,
    body as JSON if it is JSON, else text)."""
    async with session.get(server.http_url(path), headers=headers) as response:
        text = await response.text()
        body = json.loads(text) if response.content_type == "application/json" else text
        return response.status, dict(response.headers), body


async def test_an_address_flooding_the_api_gets_429_and_everyone_else_is_served(
    tmp_path: Path,
) -> None:
    """Five requests a burst, then one every 100 s: the sixth API request from
    the address is 429 with ``rate_limited``, the limit and the delay in words,
    ``retry_after`` in the body and ``Retry-After`` in whole seconds; so is
    ``/metrics``. The pages, ``/healthz`` and the WebSocket still answer that
    address, and another address gets its 200."""
    async with running_server(tmp_path / "games.db", http_rate=0.01, http_burst=5) as server:
        async with aiohttp.ClientSession() as session:
            for _ in range(5):
                status, _, body = await fetch(session, server, "/api/rooms")
                assert status == 200, body
            status, headers, body = await fetch(session, server, "/api/rooms")
            assert status == 429, body
            assert body["error"] == "rate_limited", body
            assert "at most 0.01 a second" in body["message"], body
            assert "retry in" in body["message"] and 0 < body["retry_after"] <= 100, body
            retry_after = headers["Retry-After"]
            assert retry_after.isdigit() and int(retry_after) >= body["retry_after"], headers
            for limited in ("/api/games/1", "/api/leaderboard", "/metrics"):
                status, headers, body = await fetch(session, server, limited)
                assert status == 429 and "Retry-After" in headers, (limited, body)
            for free in ("/healthz", "/", "/static/main.js", "/leaderboard"):
                status, _, body = await fetch(session, server, free)
                assert status == 200, (free, body)
        player = await Player.join_server(server.ws_url, "ann")
        rooms = await player.request({"type": "list_rooms"})
        assert rooms["type"] == "rooms", rooms

        async with aiohttp.ClientSession(connector=source_connector(OTHER_ADDRESS)) as other:
            status, _, body = await fetch(other, server, "/api/rooms")
            assert status == 200 and body["rooms"] == [], body
            status, _, metrics = await fetch(other, server, "/metrics")
            assert status == 200
            assert "boardroom_http_rate_limited_total 4.0" in metrics


async def test_the_teacher_the_wall_and_a_class_opening_pages_stay_under_the_default_limit(
    tmp_path: Path,
) -> None:
    """A class behind one address, at the default limit: the teacher's page and
    the wall open and poll (ten wall polls back to back, faster than the real
    one a second), while thirty students open the leaderboard (its page, its
    files and its API call) at the same moment. Nothing is refused: the pages'
    files are not counted, and the API calls fit in the burst. (That the
    sustained polling rates fit is shown without waiting, in
    test_server_limits.py, over ten simulated minutes.)"""
    # A class behind one address runs with the connection cap docs/classroom.md
    # gives for it (every page load's connections count against it).
    async with running_server(
        tmp_path / "games.db", class_name="7B", max_connections_per_address=250
    ) as server:
        auth = {"Authorization": f"Bearer {teacher_token(server.app)}"}
        teacher = ["/api/admin/class", "/api/admin/roster", "/api/admin/rooms"]
        teacher += ["/api/admin/tournaments"]
        wall = ["/api/admin/class", "/api/admin/rooms", "/api/tournaments/current"]
        student = ["/leaderboard", "/static/leaderboard.js", "/static/leaderboard.css"]
        student += ["/api/leaderboard"]
        async with aiohttp.ClientSession() as session:
            opening = [fetch(session, server, path, **auth) for path in ["/teacher", *teacher]]
            opening += [fetch(session, server, path, **auth) for path in ["/wall", *wall]]
            opening += [fetch(session, server, path) for _ in range(30) for path in student]
            answers = await asyncio.gather(*opening)
            polls = [fetch(session, server, path, **auth) for _ in range(10) for path in wall[:2]]
            answers += await asyncio.gather(*polls)
        statuses = [status for status, _, _ in answers]
        assert set(statuses) == {200}, statuses  # no tournament yet is a null one, not a 404


async def test_http_rate_zero_turns_the_limit_off(tmp_path: Path) -> None:
    """``--http-rate 0``: no request is ever refused, whatever the burst."""
    async with (
        running_server(tmp_path / "games.db", http_rate=0.0, http_burst=1) as server,
        aiohttp.ClientSession() as session,
    ):
        for _ in range(5):
            status, _, body = await fetch(session, server, "/api/rooms")
            assert status == 200, body
