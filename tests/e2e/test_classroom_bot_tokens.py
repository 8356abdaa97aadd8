"""The teacher's bot tokens and revocations, end to end on a real class server.

``POST /api/admin/bots`` makes a bot player and shows its token once (never in
the server's log); that token is one player across connections.
``POST /api/admin/players/{id}/revoke`` refuses the token from the next hello
on and closes the player's open connections with 4004 at once, leaving other
players be. Each refusal is typed and changes no stored player.
(The refusals every admin route shares, and the bad bodies, are in
test_classroom_admin_checks.py, which checks that they store no player.)
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from classroom_helpers import NO_TOKEN, Teacher
from harness import Player, RunningServer, assert_alive, running_server

from boardroom.server.core.sessions import Session
from boardroom.server.lifecycle import HUB
from boardroom.shared.protocol.close_codes import CLOSE_TOKEN_REVOKED


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    async with running_server(tmp_path / "games.db", class_name="7B", http_rate=0) as running:
        yield running


def player_rows(server: RunningServer) -> list[tuple[Any, ...]]:
    """Every stored player: (id, name, kind, revoked_at, token_hash)."""
    with closing(sqlite3.connect(server.config.database)) as db:
        return db.execute(
            "SELECT id, name, kind, revoked_at, token_hash FROM players ORDER BY id"
        ).fetchall()


async def new_bot(teacher: Teacher, name: str) -> dict[str, Any]:
    """The teacher makes a bot player called ``name``: the 201 answer."""
    status, answer, _ = await teacher.call("POST", "/api/admin/bots", {"name": name})
    assert status == 201, answer
    return dict(answer)


async def say_hello(server: RunningServer, name: str, **fields: Any) -> tuple[Player, Any]:
    """A new connection saying a version-2 hello as a bot with ``fields``; the reply."""
    player = await Player.connect(server.ws_url)
    hello = {"type": "hello", "name": name, "version": 2, "client": "bot", **fields}
    return player, await player.request(hello)


async def room_status(teacher: Teacher, code: str) -> str:
    """The room's status as the teacher's room list shows it."""
    rooms = (await teacher.get("/api/admin/rooms"))["rooms"]
    (room,) = [room for room in rooms if room["code"] == code]
    return str(room["status"])


async def test_the_teacher_gets_a_bot_token_that_is_one_player_on_every_connection(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    """201 with the player id, the name and the token (shaped as every player
    token, its id derived from it); the store keeps its hash only; two hellos
    with it are that one bot player, not new; the token is in no log line."""
    for name in (
        "boardroom.server",
        "aiohttp",
    ):  # the server's logs (the test's own client logs frames)
        caplog.set_level(logging.DEBUG, logger=name)
    made = await new_bot(Teacher(server), "mybot")
    token = made["token"]
    assert set(made) == {"player_id", "name", "token"} and made["name"] == "mybot"
    assert re.fullmatch(r"bp_[A-Za-z0-9_-]{43}", token), token
    digest = hashlib.sha256(token.encode()).hexdigest()
    assert made["player_id"] == "p" + digest[:16]
    assert player_rows(server) == [(made["player_id"], "mybot", "bot", None, digest)]

    for _ in range(2):
        bot, welcome = await say_hello(server, "mybot", player_token=token)
        assert welcome["type"] == "welcome", welcome
        # new_player is left out when false (a default), as player_token is.
        assert (welcome["player_id"], welcome.get("new_player")) == (made["player_id"], None)
        assert welcome.get("player_token") is None
        await bot.close()
    assert len(player_rows(server)) == 1
    # The server's own loggers (the test's websockets client logs what it sends).
    served = [r for r in caplog.records if r.name.startswith(("boardroom.server", "aiohttp"))]
    made_lines = [r for r in served if r.getMessage() == "the teacher made a bot player"]
    assert [r.__dict__["player"] for r in made_lines] == [made["player_id"]]
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in served)
    assert token not in logged and token[-12:] not in logged


async def test_revoking_closes_every_open_connection_of_the_player_with_4004(
    server: RunningServer,
) -> None:
    """The bot is connected twice, one connection playing ann: revoking answers
    how many connections closed, both close with 4004 now, its game ends, ann's
    connection stays; the token and the old resume token open nothing after."""
    teacher = Teacher(server)
    made = await new_bot(teacher, "mybot")
    first, welcome = await say_hello(server, "mybot", player_token=made["token"])
    second, _ = await say_hello(server, "mybot", player_token=made["token"])
    created = await first.request({"type": "create_room", "game": "tictactoe"})
    room = created["room"]["code"]
    ann = await Player.join_server(server.ws_url, "ann")
    await ann.request({"type": "join", "code": room})
    assert await room_status(teacher, room) == "playing"

    answer = await teacher.post(f"/api/admin/players/{made['player_id']}/revoke")
    assert answer == {
        "revoked": made["player_id"],
        "name": "mybot",
        "kind": "bot",
        "sessions_ended": 2,
    }
    assert await first.closed() == CLOSE_TOKEN_REVOKED
    assert await second.closed() == CLOSE_TOKEN_REVOKED
    assert await room_status(teacher, room) == "finished"  # resigned, as a removal does
    await assert_alive(ann)
    ((_, _, _, revoked_at, _),) = [r for r in player_rows(server) if r[0] == made["player_id"]]
    assert revoked_at is not None

    again, refused = await say_hello(server, "mybot", player_token=made["token"])
    assert (refused["type"], refused["code"]) == ("error", "player_token_revoked"), refused
    assert await again.closed() == CLOSE_TOKEN_REVOKED
    resumer, refused = await say_hello(server, "mybot", resume_token=welcome["resume_token"])
    assert (refused["type"], refused["code"]) == ("error", "bad_token"), refused
    await resumer.close()
    await ann.close()


async def test_revoking_a_persons_token_closes_their_connection_only(
    server: RunningServer,
) -> None:
    """A student's player (made by their first hello) is revoked the same way;
    another student with the same kind of session is untouched."""
    ann = await Player.connect(server.ws_url)
    welcome = await ann.request({"type": "hello", "name": "ann", "version": 2})
    bob = await Player.join_server(server.ws_url, "bob")
    answer = await Teacher(server).post(f"/api/admin/players/{welcome['player_id']}/revoke")
    assert (answer["kind"], answer["sessions_ended"]) == ("human", 1)
    assert await ann.closed() == CLOSE_TOKEN_REVOKED
    await assert_alive(bob)
    await bob.close()


async def test_revoking_twice_an_unknown_id_or_without_the_token_changes_nothing(
    server: RunningServer,
) -> None:
    """409 already_revoked (the first revocation's time kept), 404 unknown_player,
    401 unauthorized for both routes without the teacher's token: typed JSON,
    and the stored players as they were."""
    teacher = Teacher(server)
    made = await new_bot(teacher, "mybot")
    path = f"/api/admin/players/{made['player_id']}/revoke"
    await teacher.post(path)
    before = player_rows(server)

    status, answer, _ = await teacher.call("POST", path)
    assert (status, answer["error"]) == (409, "already_revoked"), answer
    assert made["player_id"] in answer["message"]
    status, answer, _ = await teacher.call("POST", "/api/admin/players/pffffffffffffffff/revoke")
    assert (status, answer["error"]) == (404, "unknown_player"), answer
    for route, body in (("/api/admin/bots", {"name": "eve"}), (path, None)):
        status, answer, _ = await teacher.call("POST", route, body, token=NO_TOKEN)
        assert (status, answer["error"]) == (401, "unauthorized"), answer
    assert player_rows(server) == before


async def test_a_hello_under_way_when_the_token_is_revoked_is_refused(
    server: RunningServer,
) -> None:
    """The bot's hello has passed the token's lookup and waits in a hello check
    when the teacher revokes: it is refused with player_token_revoked and 4004,
    not welcomed into a session that was ended."""
    teacher = Teacher(server)
    made = await new_bot(teacher, "mybot")
    entered, release = asyncio.Event(), asyncio.Event()

    async def held(session: Session) -> None:
        if session.player == made["player_id"]:
            entered.set()
            await release.wait()

    hub = server.app[HUB]
    hub.add_hello_check(held)
    bot = await Player.connect(server.ws_url)
    hello = {"type": "hello", "name": "mybot", "version": 2, "client": "bot"}
    await bot.send({**hello, "player_token": made["token"], "id": 1})
    await entered.wait()
    await teacher.post(f"/api/admin/players/{made['player_id']}/revoke")
    release.set()
    reply = await bot.recv()
    assert (reply["type"], reply.get("code")) == ("error", "player_token_revoked"), reply
    assert await bot.closed() == CLOSE_TOKEN_REVOKED
    hub.remove_hello_check(held)
    summary = await teacher.get("/api/admin/class")
    assert summary["connected"] == 0
