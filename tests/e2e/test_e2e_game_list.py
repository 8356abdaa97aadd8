"""``GET /api/games``: the games a server offers, as the registry describes them.

A real server in-process (:func:`harness.running_server`), requests over real HTTP
and a real WebSocket client. docs/protocol.md, "HTTP", is the contract: the list
is every :class:`~boardroom.shared.games.spec.GameSpec` in menu order, each as
``describe()`` gives it; a browser caches it and revalidates with its ETag; and
``/api/games/`` and ``/api/games/{id}`` stay a stored game's record, as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import Player, RunningServer, running_server
from multidict import CIMultiDict

from boardroom.shared.games import default_game, game_specs, get_game


async def get(
    server: RunningServer, path: str, **headers: str
) -> tuple[int, CIMultiDict[str], Any]:
    """GET ``path``: (status, headers, body as JSON if it is JSON, else text)."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(server.http_url(path), headers=headers) as response,
    ):
        text = await response.text()
        body = json.loads(text) if response.content_type == "application/json" else text
        return response.status, response.headers.copy(), body


async def test_the_list_is_every_registered_game_and_each_can_be_played(tmp_path: Path) -> None:
    async with running_server(tmp_path / "games.db") as server:
        status, headers, body = await get(server, "/api/games")
        assert status == 200, body
        assert headers["Content-Type"].startswith("application/json")
        assert body == {
            "games": [spec.describe() for spec in game_specs()],
            "default": default_game().name,
        }
        listed = {game["name"]: game for game in body["games"]}
        assert {"tictactoe", "connect4", "mnk"} <= listed.keys()
        connect4 = listed["connect4"]
        assert connect4["title"] == "Connect Four"
        assert connect4["board"] == "columns"
        assert connect4["moves_help"] == "a column, 1 to 7"
        assert connect4["endings"] == ["line", "full_board"]
        assert connect4["sizes"] == []
        assert [size["name"] for size in listed["mnk"]["sizes"]] == ["m", "n", "k"]
        assert "aliases" not in connect4  # aliases are for people typing, never the wire

        # Every name listed opens a room (a family with its sizes, as the browser sends them).
        ann = await Player.join_server(server.ws_url, "ann")
        for game in body["games"]:
            sizes = {size["name"]: size["min"] + 2 for size in game["sizes"]}
            reply = await ann.request({"type": "create_room", "game": game["name"], **sizes})
            assert reply["type"] == "state", reply
            assert reply["room"]["game"] == get_game(game["name"], **sizes).name, reply
            left = await ann.request({"type": "leave", "room": reply["room"]["code"]})
            assert left["type"] == "left", left


async def test_the_list_is_revalidated_by_its_etag(tmp_path: Path) -> None:
    async with running_server(tmp_path / "games.db") as server:
        status, headers, first = await get(server, "/api/games")
        assert status == 200
        assert headers["Cache-Control"] == "no-cache"
        etag = headers["ETag"]
        status, again, body = await get(server, "/api/games", **{"If-None-Match": etag})
        assert (status, body) == (304, "")
        assert again["ETag"] == etag
        status, _, body = await get(server, "/api/games", **{"If-None-Match": '"stale"'})
        assert (status, body) == (200, first)


async def test_the_default_game_is_connect_four_by_the_registry_s_flag(tmp_path: Path) -> None:
    """The game offered when nobody chose is the spec flagged ``default`` (Connect
    Four, as quick match offered before the registry), not the first of the menu
    (tic-tac-toe, the smallest board)."""
    flagged = [spec.name for spec in game_specs() if spec.default]
    assert flagged == [default_game().name] == ["connect4"]
    assert game_specs()[0].name != default_game().name  # the flag, not the order, decides
    async with running_server(tmp_path / "games.db") as server:
        _, _, body = await get(server, "/api/games")
    assert body["default"] == "connect4"
    assert body["default"] in [game["name"] for game in body["games"]]


@pytest.mark.parametrize("path", ["/api/games/", "/api/games/999", "/api/games/othello"])
async def test_a_path_below_the_list_is_still_a_stored_games_record(
    tmp_path: Path, path: str
) -> None:
    async with running_server(tmp_path / "games.db") as server:
        status, _, body = await get(server, path)
        assert status == 404, body
        assert body["error"] == "unknown_game_record", body
