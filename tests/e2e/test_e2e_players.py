"""Durable players, end to end: the version negotiation, player tokens in
``hello`` and ``welcome``, refusals (unknown, revoked, guessed), the name clash
rule, the records' player ids, and no token in the logs.

Each test runs the real server on a free port and talks to it over real
WebSockets as plain JSON (``docs/protocol.md``, "Versions" and "Players").
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from harness import Player, RunningServer, assert_alive, running_server
from websockets.exceptions import ConnectionClosed

from boardroom.server.core.limits import DEFAULT_TOKEN_GUESSES
from boardroom.server.core.sessions import Session
from boardroom.server.lifecycle import HUB
from boardroom.server.store import GameStore
from boardroom.shared.protocol.close_codes import CLOSE_TOKEN_REVOKED


async def hello(player: Player, name: str, **fields: Any) -> dict[str, Any]:
    """Say a version-2 hello with ``fields``; the reply."""
    return await player.request({"type": "hello", "name": name, "version": 2, **fields})


async def newcomer(
    server: RunningServer, name: str, **fields: Any
) -> tuple[Player, dict[str, Any]]:
    """A new connection that says hello; the player and the welcome."""
    player = await Player.connect(server.ws_url)
    welcome = await hello(player, name, **fields)
    assert welcome["type"] == "welcome", welcome
    return player, welcome


def player_rows(database: Path) -> list[tuple[Any, ...]]:
    """Every stored player, as (id, name, kind, created_at, last_seen, revoked_at)."""
    with closing(sqlite3.connect(database)) as db:
        return db.execute(
            "SELECT id, name, kind, created_at, last_seen, revoked_at FROM players ORDER BY id"
        ).fetchall()


@pytest.mark.parametrize("version", [1, 2])
async def test_the_welcome_answers_in_the_clients_own_version(tmp_path: Path, version: int) -> None:
    """Versions 1 and 2 are both spoken: each is welcomed in its own version."""
    async with running_server(tmp_path / "games.db") as server:
        player = await Player.connect(server.ws_url)
        welcome = await player.request({"type": "hello", "name": "ann", "version": version})
        assert welcome["type"] == "welcome", welcome
        assert welcome["version"] == version
        await player.close()


async def test_a_hello_without_a_token_makes_a_player_and_says_its_token_once(
    tmp_path: Path,
) -> None:
    """The welcome says new_player, the id (p and the first 16 hex digits of the
    token's SHA-256) and the token (bp_ and 43 characters); a second hello on the
    connection says the same id, and neither new_player nor the token again.
    The store has the player, and only the hash of its token."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, welcome = await newcomer(server, "ann")
        token = welcome["player_token"]
        assert welcome["new_player"] is True
        assert token.startswith("bp_") and len(token) == 46
        digest = hashlib.sha256(token.encode()).hexdigest()
        assert welcome["player_id"] == "p" + digest[:16]

        again = await hello(ann, "ann")
        assert again["player_id"] == welcome["player_id"]
        assert "new_player" not in again and "player_token" not in again

        [(player_id, name, kind, *_)] = player_rows(database)
        assert (player_id, name, kind) == (welcome["player_id"], "ann", "human")
        with closing(sqlite3.connect(database)) as db:
            assert db.execute("SELECT token_hash FROM players").fetchone() == (digest,)


async def test_version_1_clients_are_a_new_player_at_each_hello(tmp_path: Path) -> None:
    """A version-1 client sends no player token: each of its hellos makes a new
    player (it ignores the fields it does not know)."""
    async with running_server(tmp_path / "games.db") as server:
        first = await Player.join_server(server.ws_url, "mybot", client="bot")
        second = await Player.join_server(server.ws_url, "mybot", client="bot")
        ids = {player.seen[0]["player_id"] for player in (first, second)}
        assert len(ids) == 2 and all(player.seen[0]["new_player"] for player in (first, second))


async def test_the_token_is_the_same_player_across_connections_restarts_and_records(
    tmp_path: Path,
) -> None:
    """Ann keeps her token: a later connection, and one after a server restart,
    are the same player; the records of her games carry her player id."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, welcome = await newcomer(server, "ann")
        player_id, token = welcome["player_id"], welcome["player_token"]
        await ann.close()
        ann, again = await newcomer(server, "ann", player_token=token)
        assert again["player_id"] == player_id and "player_token" not in again
        created = await ann.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "random"}
        )
        assert created["type"] == "state", created
        started = await ann.expect("state")  # the game is stored before this is sent
        assert started["room"]["status"] == "playing", started
    async with running_server(database) as server:
        ann, after = await newcomer(server, "ann", player_token=token)
        assert after["player_id"] == player_id and "new_player" not in after
        record = await server.get_json("/api/games/1")
        assert [p["player_id"] for p in record["players"]] == [player_id, None]
    assert len(player_rows(database)) == 1


async def test_an_unknown_player_token_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    """A made-up token, one of the wrong shape, and a resume token in its place
    each get bad_player_token: no player is made, the connection stays open, and
    a hello without a token then makes a new player."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        player = await Player.connect(server.ws_url)
        for token in ("bp_" + "A" * 43, "not-a-token", "x" * 200):
            reply = await hello(player, "mallory", player_token=token)
            assert reply["type"] == "error" and reply["code"] == "bad_player_token", reply
            assert "without player_token" in reply["message"]
        assert player_rows(database) == []
        await assert_alive(player)
        welcome = await hello(player, "mallory")
        assert welcome["type"] == "welcome" and welcome["new_player"] is True
        assert len(player_rows(database)) == 1


async def test_a_revoked_token_is_refused_and_the_connection_closed_with_4004(
    tmp_path: Path,
) -> None:
    """Once revoked (here through the store, as ``boardroom token revoke`` does,
    while the server runs), the token gets player_token_revoked and then close
    code 4004; a hello without it still makes a new player."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        _, welcome = await newcomer(server, "ann")
        async with GameStore(database) as store:
            await store.revoke_player(welcome["player_id"], at=1_800_000_000.0)

        player = await Player.connect(server.ws_url)
        reply = await hello(player, "ann", player_token=welcome["player_token"])
        assert reply["type"] == "error" and reply["code"] == "player_token_revoked", reply
        with pytest.raises(ConnectionClosed):
            await player.recv()
        assert player.ws.close_code == CLOSE_TOKEN_REVOKED

        _, fresh = await newcomer(server, "ann")
        assert fresh["new_player"] is True and fresh["player_id"] != welcome["player_id"]


async def test_a_valid_token_gets_in_at_once_while_its_address_guesses(tmp_path: Path) -> None:
    """Ten refused tokens from one address are answered at once; the next
    refusal is answered late (the guesser's connection waits, reading nothing
    else), and meanwhile a good token from the same address (a classmate behind
    the school's NAT) is looked up and welcomed at once, as is a hello without
    a token; the late refusal then comes, still bad_player_token."""
    async with running_server(tmp_path / "games.db") as server:
        _, owner = await newcomer(server, "ann")
        good = owner["player_token"]
        guesser = await Player.connect(server.ws_url, source="127.0.0.2")
        for guess in range(DEFAULT_TOKEN_GUESSES):
            reply = await hello(guesser, "eve", player_token=f"bp_{guess:043d}")
            assert reply["code"] == "bad_player_token", (guess, reply)
        late = asyncio.create_task(hello(guesser, "eve", player_token=f"bp_{99:043d}"))

        for _ in range(3):  # the guesses go on: a valid token is never held up
            classmate = await Player.connect(server.ws_url, source="127.0.0.2")
            welcome = await hello(classmate, "ann", player_token=good)
            assert welcome["type"] == "welcome", welcome
            assert welcome["player_id"] == owner["player_id"]
            await classmate.close()
        assert not late.done(), "the 11th refusal came at once: guessing is not slowed"
        newcomer_there = await Player.connect(server.ws_url, source="127.0.0.2")
        fresh = await hello(newcomer_there, "bob")
        assert fresh["type"] == "welcome" and fresh["new_player"] is True

        refused = await late
        assert refused["type"] == "error" and refused["code"] == "bad_player_token", refused


async def test_two_people_are_never_online_under_one_name(tmp_path: Path) -> None:
    """Ann is online: another person saying hello as ANN is welcomed as "ANN 2",
    a third as "ann 3"; a bot keeps "ann"; Ann herself on a second connection
    keeps "ann". Rooms show the numbered name."""
    async with running_server(tmp_path / "games.db") as server:
        _, ann = await newcomer(server, "ann")
        second, other = await newcomer(server, "ANN")
        _, third = await newcomer(server, "ann")
        _, bot = await newcomer(server, "ann", client="bot")
        _, herself = await newcomer(server, "ann", player_token=ann["player_token"])

        assert [w["name"] for w in (ann, other, third, bot, herself)] == [
            "ann", "ANN 2", "ann 3", "ann", "ann"
        ]  # fmt: skip
        assert herself["player_id"] == ann["player_id"]
        created = await second.request({"type": "create_room", "game": "tictactoe"})
        assert created["room"]["seats"][0]["name"] == "ANN 2"


async def test_the_stored_name_follows_the_last_hello_and_last_seen_waits_a_minute(
    tmp_path: Path,
) -> None:
    """A player who says hello as another name is stored under it (an online
    clash numbers only the name shown); a hello within the minute under the same
    name writes nothing (last_seen stays)."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        _, ann = await newcomer(server, "ann")
        [(_, _, _, created, seen, _)] = player_rows(database)
        assert seen == created
        await newcomer(server, "ann", player_token=ann["player_token"])
        assert player_rows(database)[0][3:5] == (created, created)

        _, renamed = await newcomer(server, "Ann B", player_token=ann["player_token"])
        assert renamed["name"] == "Ann B"
        [(player_id, name, *_)] = player_rows(database)
        assert (player_id, name) == (ann["player_id"], "Ann B")


async def test_a_resume_token_and_a_player_token_must_be_of_one_player(tmp_path: Path) -> None:
    """A hello with both tokens resumes the session only if it is that player's:
    Bob's player token with Ann's resume token is bad_token; Ann's own resumes."""
    async with running_server(tmp_path / "games.db") as server:
        ann, welcome = await newcomer(server, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]
        _, bob = await newcomer(server, "bob")
        await ann.close()

        thief = await Player.connect(server.ws_url)
        both = {"resume_token": welcome["resume_token"], "player_token": bob["player_token"]}
        refused = await hello(thief, "bob", **both)
        assert refused["type"] == "error" and refused["code"] == "bad_token", refused

        both["player_token"] = welcome["player_token"]
        resumed = await hello(thief, "ann", **both)
        assert resumed["type"] == "welcome" and resumed["resumed_rooms"] == [code]
        assert resumed["player_id"] == welcome["player_id"]


async def test_seats_restored_after_a_restart_keep_their_player(tmp_path: Path) -> None:
    """Ann and Bob play; the server restarts; Ann comes back with both tokens and
    is the same player in the same seat, and the record still names them both."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, anns = await newcomer(server, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]
        bob, bobs = await newcomer(server, "bob")
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["status"] == "playing"
    async with running_server(database) as server:
        _, welcome = await newcomer(
            server,
            "ann",
            resume_token=anns["resume_token"],
            player_token=anns["player_token"],
        )
        assert welcome["resumed_rooms"] == [code]
        assert welcome["player_id"] == anns["player_id"]
        record = await server.get_json("/api/games/1")
        ids = [player["player_id"] for player in record["players"]]
        assert ids == [anns["player_id"], bobs["player_id"]]


async def test_no_token_reaches_the_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Every kind of hello with tokens, a refused one, a revoked one, and one
    that fails inside the server (which logs the message it was handling):
    neither a player token nor a resume token is in any log record, fields
    included."""
    for name in (
        "boardroom.server",
        "aiohttp",
    ):  # the server's logs (the test's own client logs frames)
        caplog.set_level(logging.DEBUG, logger=name)
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        _, welcome = await newcomer(server, "ann")
        tokens = [welcome["player_token"], welcome["resume_token"]]
        await newcomer(server, "ann", player_token=welcome["player_token"])
        refused = await Player.connect(server.ws_url)
        await hello(refused, "eve", player_token="bp_" + "B" * 43)
        tokens.append("bp_" + "B" * 43)

        async def failing(session: Session) -> None:
            raise RuntimeError("a fault in a hello check")

        hub = server.app[HUB]
        hub.add_hello_check(failing)
        broken = await Player.connect(server.ws_url)
        both = {"resume_token": welcome["resume_token"], "player_token": welcome["player_token"]}
        reply = await hello(broken, "ann", **both)
        assert reply["code"] == "internal_error", reply
        hub.remove_hello_check(failing)

        _, other = await newcomer(server, "bob")
        tokens.append(other["player_token"])
        async with GameStore(database) as store:
            await store.revoke_player(other["player_id"], at=1_800_000_000.0)
        revoked = await Player.connect(server.ws_url)
        await hello(revoked, "bob", player_token=other["player_token"])

    records = [r for r in caplog.records if r.name.startswith(("boardroom.server", "aiohttp"))]
    failures = [r for r in records if r.getMessage() == "handling a message failed"]
    assert failures and "<hidden>" in str(failures[0].__dict__)
    assert any(r.getMessage() == "a revoked player token was refused" for r in records)
    logged = "\n".join(f"{r.__dict__} {r.getMessage()} {r.exc_text}" for r in records)
    for token in tokens:
        assert token not in logged
