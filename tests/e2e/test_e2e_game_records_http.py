"""``GET /api/games/{id}``: who may read a game record, and which ids name one.

A real server in-process (:func:`harness.running_server`), players over real
WebSockets, requests over real HTTP. docs/protocol.md, "HTTP", is the contract:
a private room's game in progress is answered as an unknown id unless the
request carries the room's join or watch code (or the teacher's token);
once over it is public; an id is ASCII digits within SQLite's range, and
anything else is a 404 ``unknown_game_record``, never a 500 or a traceback.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import pytest_asyncio
from classroom_helpers import Teacher
from harness import Player, RunningServer, play_out, running_server

pytestmark = pytest.mark.asyncio(loop_scope="module")


def game_id(server: RunningServer, room: str) -> int:
    """The id of the newest game stored for ``room`` (read from the database)."""
    with closing(sqlite3.connect(server.config.database)) as db:
        (found,) = db.execute("SELECT max(id) FROM games WHERE room = ?", (room,)).fetchone()
    assert isinstance(found, int), room
    return found


async def get(server: RunningServer, path: str, **headers: str) -> tuple[int, str, Any]:
    """GET ``path``: (status, content type, body as JSON if it is JSON, else text)."""
    status, content_type, body = await server.get(path, **headers)
    if content_type == "application/json":
        return status, content_type, json.loads(body)
    return status, content_type, body


def no_traceback_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], [r.getMessage() for r in errors]


@dataclass
class PrivateGame:
    room: str
    join_code: str
    watch_code: str
    id: int
    first: Player
    second: Player


async def private_game(server: RunningServer, first: str, second: str) -> PrivateGame:
    """``first`` opens a private tic-tac-toe room, ``second`` joins by the join
    code and ``first`` plays b2: a private game in progress."""
    ann = await Player.join_server(server.ws_url, first)
    created = await ann.request({"type": "create_room", "game": "tictactoe", "public": False})
    room = created["room"]
    bob = await Player.join_server(server.ws_url, second)
    joined = await bob.request({"type": "join", "code": room["join_code"]})
    assert joined["room"]["status"] == "playing", joined
    moved = await ann.request({"type": "move", "room": room["code"], "move": "b2", "ply": 0})
    assert moved["type"] == "moved", moved
    game = game_id(server, room["code"])
    return PrivateGame(room["code"], room["join_code"], room["watch_code"], game, ann, bob)


async def game_against_the_ai(server: RunningServer, name: str) -> tuple[Player, str, int]:
    """``name`` opens a public room with the AI opposite: a public game in progress
    (the AI waits for the first move). The player, the room code and the game id."""
    player = await Player.join_server(server.ws_url, name)
    created = await player.request({"type": "create_room", "game": "tictactoe", "ai_level": "easy"})
    room = created["room"]["code"]
    while created["room"]["status"] != "playing":
        created = await player.expect("state")
    return player, room, game_id(server, room)


@dataclass
class Games:
    """A server with game 1 public, game 2 private and game 3 public, all in progress."""

    server: RunningServer
    public_room: str
    private: PrivateGame


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def games(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Games]:
    async with running_server(tmp_path_factory.mktemp("records") / "games.db") as server:
        cy, public_room, first = await game_against_the_ai(server, "cy")
        private = await private_game(server, "ann", "bob")
        dee, _, third = await game_against_the_ai(server, "dee")
        assert (first, private.id, third) == (1, 2, 3)
        yield Games(server, public_room, private)
        for player in (cy, dee, private.first, private.second):
            await player.close()


def unknown_message(game: int) -> str:
    return (
        f"no game {game} (a private room's game in progress shows only with "
        "?code= its join or watch code)"
    )


# -- a private game in progress -----------------------------------------------------------


async def test_a_public_game_in_progress_is_readable_by_anyone(games: Games) -> None:
    """Public rooms' games are followed live, as before."""
    record = await games.server.get_json("/api/games/1")
    assert (record["room"], record["state"]) == (games.public_room, "playing")


async def test_a_private_game_in_progress_is_answered_as_an_unknown_id(
    games: Games, caplog: pytest.LogCaptureFixture
) -> None:
    """Without a code the answer is word for word that for an id that names no
    game (JSON or text asked): stepping through ids tells nobody it exists.
    The room code, a wrong code and another room's code open nothing."""
    server, private = games.server, games.private
    unknown = await get(server, "/api/games/99")
    assert unknown[0] == 404
    assert unknown[2] == {"error": "unknown_game_record", "message": unknown_message(99)}
    hidden = {"error": "unknown_game_record", "message": unknown_message(private.id)}
    for query in (
        "",
        "?format=text",
        f"?code={private.room}",
        "?code=ABCDEFGH",
        "?code=",
        f"?code={games.public_room}",
        "?code=%C3%A9%FF",
    ):
        assert await get(server, f"/api/games/{private.id}{query}") == (
            404,
            "application/json",
            hidden,
        ), query
    answer = await get(server, f"/api/games/{private.id}", Accept="text/plain")
    assert answer == (404, "application/json", hidden)
    no_traceback_logged(caplog)


async def test_its_join_code_or_watch_code_opens_it(games: Games) -> None:
    """Either code, in any case, as JSON or text; the codes are not in the record."""
    server, private = games.server, games.private
    for code in (private.join_code, private.watch_code.lower(), f" {private.watch_code} "):
        record = await server.get_json(f"/api/games/{private.id}?code={quote(code)}")
        assert (record["room"], record["state"], record["move_string"]) == (
            private.room,
            "playing",
            "b2",
        )
        assert private.join_code not in str(record) and private.watch_code not in str(record)
    status, content_type, text = await server.get(
        f"/api/games/{private.id}?format=text&code={private.watch_code}"
    )
    assert (status, content_type) == (200, "text/plain")
    assert f"game {private.id} in room {private.room}" in text


async def test_no_list_shows_a_private_game_or_its_codes(games: Games) -> None:
    """GET /api/rooms and /api/leaderboard name neither the private room nor its codes."""
    private = games.private
    for path in ("/api/rooms", "/api/leaderboard"):
        status, _, body = await games.server.get(path)
        assert status == 200
        for secret in (private.room, private.join_code, private.watch_code):
            assert secret not in body, (path, secret)


async def test_a_private_game_is_public_once_it_is_over(games: Games) -> None:
    """After the game ends its record is public without a code (still without the codes)."""
    server = games.server
    game = await private_game(server, "eve", "fay")
    status, _, _ = await server.get(f"/api/games/{game.id}")
    assert status == 404
    resigned = await game.second.request({"type": "resign", "room": game.room})
    assert resigned["type"] == "game_over", resigned
    await game.first.expect("game_over", room=game.room)
    record = await server.get_json(f"/api/games/{game.id}")
    assert (record["room"], record["state"], record["termination"]) == (
        game.room,
        "finished",
        "resignation",
    )
    assert game.join_code not in str(record) and game.watch_code not in str(record)
    await game.first.close()
    await game.second.close()


async def test_the_teacher_reads_a_private_game_in_progress_with_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """In class mode the teacher's token opens it too; a wrong token (or one in
    bytes that are not UTF-8) opens nothing, and is no error either."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        game = await private_game(server, "ann", "bob")
        token = Teacher(server).token
        assert token is not None
        path = f"/api/games/{game.id}"
        status, _, record = await get(server, path, Authorization=f"Bearer {token}")
        assert (status, record["room"], record["state"]) == (200, game.room, "playing")
        status, _, _ = await get(server, path, Authorization="Bearer not-the-token")
        assert status == 404
        status, _, answer = await server.raw_http(
            "GET", path, b"Authorization: Bearer " + token.encode() + b"\xe9\r\n"
        )
        assert (status, answer) == (
            404,
            {"error": "unknown_game_record", "message": unknown_message(game.id)},
        )
        await game.first.close()
        await game.second.close()
    no_traceback_logged(caplog)


# -- ids ----------------------------------------------------------------------------------


BAD_IDS = {
    "2**63": str(2**63),
    "5,000 digits": "1" * 5000,
    "superscript two": "\u00b2",
    "circled one": "\u2460",
    "arabic-indic three": "\u0663",
    "fullwidth three": "\uff13",
    "negative": "-1",
    "leading plus": "+1",
    "leading space": " 3",
    "underscore": "1_0",
    "a decimal point": "3.0",
    "hexadecimal": "0x3",
    "empty": "",
}


@pytest.mark.parametrize("raw", BAD_IDS.values(), ids=BAD_IDS)
async def test_an_id_that_is_not_ascii_digits_in_range_is_a_404(
    games: Games, raw: str, caplog: pytest.LogCaptureFixture
) -> None:
    """404 ``unknown_game_record`` saying ids are numbers; never a 500, never
    another game (game 3 exists and is public: '٣' must not read it), and no
    traceback in the server's log."""
    assert (await games.server.get_json("/api/games/3"))["id"] == 3
    status, kind, answer = await get(games.server, f"/api/games/{quote(raw, safe='+')}")
    assert (status, kind, answer["error"]) == (404, "application/json", "unknown_game_record")
    assert "ids are numbers" in answer["message"]
    assert len(answer["message"]) < 100  # a long id is not echoed whole
    no_traceback_logged(caplog)


@pytest.mark.parametrize("raw", [str(2**63 - 1), "0", "00099"])
async def test_an_id_in_range_that_names_no_game_is_unknown(
    games: Games, raw: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The largest id SQLite holds, 0, and leading zeros are read as ids: no such game."""
    status, _, answer = await get(games.server, f"/api/games/{raw}")
    assert (status, answer) == (
        404,
        {"error": "unknown_game_record", "message": unknown_message(int(raw))},
    )
    no_traceback_logged(caplog)


# -- a record a newer Boardroom wrote -------------------------------------------------------


async def test_a_game_ended_in_a_way_this_server_does_not_know_is_a_409(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A game whose stored ending only a newer Boardroom knows (written into the
    real SQLite file, as that Boardroom would): its record, as JSON or text, and
    its analysis answer 409 ``unreadable_record`` naming the game and the ending,
    not a 500; the other games read as ever, and no traceback is logged."""
    async with running_server(tmp_path / "games.db") as server:
        newer = await play_out(server.ws_url, "tictactoe", ["a1", "b1", "a2", "b2", "a3"])
        other = await play_out(server.ws_url, "tictactoe", ["a1", "b1", "a2", "b2", "a3"])
        with closing(sqlite3.connect(server.config.database)) as db, db:
            db.execute(
                "UPDATE games SET termination = 'by_a_newer_boardroom' WHERE id = ?", (newer,)
            )
        for path in (f"/api/games/{newer}", f"/api/games/{newer}?format=text",
                     f"/api/games/{newer}/analysis"):  # fmt: skip
            status, kind, answer = await get(server, path)
            assert (status, kind, answer["error"]) == (
                409,
                "application/json",
                "unreadable_record",
            ), (path, answer)
            assert f"game {newer} ended by 'by_a_newer_boardroom'" in answer["message"], answer
            assert "upgrade Boardroom" in answer["message"], answer
        assert (await server.get_json(f"/api/games/{other}"))["termination"] == "line"
    no_traceback_logged(caplog)
