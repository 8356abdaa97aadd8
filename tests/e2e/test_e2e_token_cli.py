"""``boardroom token``, end to end: real ``python -m boardroom.client.cli token ...``
processes on a database, and a real server on it with real WebSocket clients.

``new-bot`` prints a token that is one bot player across runs; ``revoke``
makes a running server refuse that token at its next hello (close code 4004).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from harness import CliRun, Player, run_boardroom, running_server
from services import PostgresServer
from websockets.exceptions import ConnectionClosed

from boardroom.server.store import open_store
from boardroom.shared.protocol.close_codes import CLOSE_TOKEN_REVOKED


async def boardroom_token(*argv: str) -> CliRun:
    """Run ``boardroom token ARGV`` to its end, as a child process."""
    return await run_boardroom("token", *argv)


async def bot_run(url: str, token: str) -> dict[str, Any]:
    """One run of a bot that keeps its token: hello with it, a game against the
    server's AI started (and so stored), then gone. Returns the welcome."""
    bot = await Player.connect(url)
    hello = {"type": "hello", "name": "mybot", "version": 2, "client": "bot"}
    welcome = await bot.request({**hello, "player_token": token})
    assert welcome["type"] == "welcome", welcome
    await bot.request({"type": "create_room", "game": "tictactoe", "ai_level": "random"})
    started = await bot.expect("state")
    assert started["room"]["status"] == "playing", started
    await bot.close()
    return welcome


async def test_a_new_bots_token_is_one_player_across_runs(tmp_path: Path) -> None:
    """new-bot prints the token alone on stdout and the player id on stderr;
    two runs of a bot with that token are that one player, in both records."""
    database = tmp_path / "games.db"
    made = await boardroom_token("new-bot", "mybot", "--db", str(database))
    assert made.status == 0, made
    token = made.out.strip()
    assert re.fullmatch(r"bp_[A-Za-z0-9_-]{43}", token), made.out
    match = re.search(r"bot player (p[0-9a-f]{16}) \(mybot\)", made.err)
    assert match is not None, made.err
    player_id = match.group(1)
    assert "BOARDROOM_BOT_TOKEN" in made.err and token not in made.err

    async with running_server(database) as server:
        welcomes = [await bot_run(server.ws_url, token) for _ in range(2)]
        records = [await server.get_json(f"/api/games/{game}") for game in (1, 2)]

    assert [w["player_id"] for w in welcomes] == [player_id, player_id]
    assert not any(w.get("new_player") for w in welcomes)
    bots = [p for record in records for p in record["players"] if p["kind"] == "bot"]
    assert [p["player_id"] for p in bots] == [player_id, player_id]


async def test_boardroom_bot_runs_with_a_new_bots_token_are_one_player(tmp_path: Path) -> None:
    """The token new-bot prints works in ``boardroom bot``, by --token and by
    BOARDROOM_BOT_TOKEN: both runs are the bot player it made, in both records.
    (``boardroom bot --token`` is the client's: this holds the two together.)"""
    database = tmp_path / "games.db"
    made = await boardroom_token("new-bot", "mybot", "--db", str(database))
    assert made.status == 0, made
    token = made.out.strip()
    player_id = re.search(r"bot player (p[0-9a-f]{16})", made.err)
    assert player_id is not None, made.err

    async with running_server(database) as server:
        play = ("bot", "--server", server.ws_url, "--engine", "random", "--name", "mybot")
        play += ("--create", "tictactoe", "--ai", "random")
        by_flag = await run_boardroom(*play, "--token", token)
        by_env = await run_boardroom(*play, env={"BOARDROOM_BOT_TOKEN": token})
        records = [await server.get_json(f"/api/games/{game}") for game in (1, 2)]

    assert (by_flag.status, by_env.status) == (0, 0), (by_flag, by_env)
    for run in (by_flag, by_env):
        assert token not in run.out + run.err
    bots = [p for record in records for p in record["players"] if p["kind"] == "bot"]
    assert [p["player_id"] for p in bots] == [player_id.group(1)] * 2


async def test_revoking_while_the_server_runs_refuses_the_next_hello(tmp_path: Path) -> None:
    """revoke, beside a running server, answers with the player; that player's
    next hello gets player_token_revoked and close code 4004."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann = await Player.connect(server.ws_url)
        welcome = await ann.request({"type": "hello", "name": "ann", "version": 2})
        revoked = await boardroom_token("revoke", welcome["player_id"], "--db", str(database))
        assert revoked.status == 0, revoked
        assert f"player {welcome['player_id']} (ann) revoked" in revoked.out

        again = await Player.connect(server.ws_url)
        hello = {"type": "hello", "name": "ann", "version": 2}
        reply = await again.request({**hello, "player_token": welcome["player_token"]})
        assert reply["code"] == "player_token_revoked", reply
        with pytest.raises(ConnectionClosed):
            await again.recv()
        assert again.ws.close_code == CLOSE_TOKEN_REVOKED


async def test_revoking_while_the_server_runs_ends_resume_as_the_admin_api_does(
    tmp_path: Path,
) -> None:
    """Bob plays Ann; revoke (the CLI, beside the running server) revokes Bob;
    his connection drops; his hello with his resume token alone, the session's
    key, is refused as his player token would be (player_token_revoked, 4004),
    and his session ends as the admin API's revoke ends it: Ann's game is
    over, Bob gone from it. (It was welcomed back into his game, issue 28.)"""
    database = tmp_path / "games.db"
    async with running_server(database, grace_seconds=60.0) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        bob_id = next(m for m in bob.seen if m["type"] == "welcome")["player_id"]
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        joined = await bob.request({"type": "join", "code": created["room"]["code"]})
        assert joined["room"]["status"] == "playing", joined

        revoked = await boardroom_token("revoke", bob_id, "--db", str(database))
        assert revoked.status == 0, revoked
        await bob.close()

        again = await Player.connect(server.ws_url)
        hello = {"type": "hello", "name": "bob", "version": 2, "resume_token": bob.token}
        reply = await again.request(hello)
        assert reply["type"] == "error" and reply["code"] == "player_token_revoked", reply
        with pytest.raises(ConnectionClosed):
            await again.recv()
        assert again.ws.close_code == CLOSE_TOKEN_REVOKED

        # Bob's seat given up, as on the API's revoke (no move yet: aborted).
        ended = await ann.expect("game_over")
        assert ended["result"]["reason"] == "aborted", ended
        retry = await Player.connect(server.ws_url)  # the resume token opens nothing now
        refused = await retry.request(hello)
        assert refused["type"] == "error" and refused["code"] == "bad_token", refused


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (("new-bot", "bad\nname"), 2, "control"),
        (("new-bot", ""), 2, "empty"),
        (("revoke", "p0000000000000000"), 1, "no player 'p0000000000000000'"),
        (("revoke", "p0000000000000000", "--db", "missing.db"), 1, "no database at missing.db"),
    ],
)
async def test_bad_names_unknown_players_and_missing_files_are_refused(
    tmp_path: Path, argv: tuple[str, ...], status: int, words: str
) -> None:
    """A bad name exits 2, an unknown player or a missing file 1, each saying
    why on stderr and printing no token."""
    database = tmp_path / "games.db"
    async with running_server(database):
        pass  # a database to refuse things in
    if "--db" not in argv:
        argv = (*argv, "--db", str(database))
    run = await boardroom_token(*argv)
    assert (run.status, run.out) == (status, ""), run
    assert words in run.err


async def test_bot_runs_with_one_token_have_one_rating_and_without_two(tmp_path: Path) -> None:
    """Two ``boardroom bot --token`` runs with new-bot's token (each a rated game
    against the AI) are one leaderboard row with two games, under its player id;
    two runs with no token are two new players, two rows both shown as "mybot"."""
    database = tmp_path / "games.db"
    made = await boardroom_token("new-bot", "mybot", "--db", str(database))
    assert made.status == 0, made
    token = made.out.strip()
    player_id = re.search(r"bot player (p[0-9a-f]{16})", made.err)
    assert player_id is not None, made.err

    async with running_server(database) as server:
        play = ("bot", "--server", server.ws_url, "--engine", "random", "--name", "mybot")
        play += ("--create", "tictactoe", "--ai", "random")
        kept = [await run_boardroom(*play, "--token", token) for _ in range(2)]
        (board,) = (await server.get_json("/api/leaderboard?game=tictactoe"))["games"]
        one = [
            (row["player_id"], row["games"]) for row in board["rows"] if row["player"] == "mybot"
        ]
        new = [await run_boardroom(*play) for _ in range(2)]
        (board,) = (await server.get_json("/api/leaderboard?game=tictactoe"))["games"]
        records = [await server.get_json(f"/api/games/{game}") for game in (3, 4)]

    assert [run.status for run in kept + new] == [0] * 4, kept + new
    assert one == [(player_id.group(1), 2)]
    minted = {p["player_id"] for record in records for p in record["players"] if p["kind"] == "bot"}
    assert len(minted) == 2 and player_id.group(1) not in minted
    mybots = {row["player_id"]: row["games"] for row in board["rows"] if row["player"] == "mybot"}
    assert mybots == {player_id.group(1): 2, **dict.fromkeys(minted, 1)}


async def test_tokens_are_made_and_revoked_in_a_postgres_database(
    postgres_server: PostgresServer,
) -> None:
    """With a postgresql:// URL for --db, new-bot makes the player in that database
    (printing its URL, less any password) and revoke finds it there."""
    url = postgres_server.new_database()
    made = await boardroom_token("new-bot", "mybot", "--db", url)
    assert made.status == 0, made
    match = re.search(r"bot player (p[0-9a-f]{16}) \(mybot\) made in (\S+)\.", made.err)
    assert match is not None, made.err
    assert match.group(2) == url

    revoked = await boardroom_token("revoke", match.group(1), "--db", url)
    assert revoked.status == 0, revoked
    async with open_store(url) as store:
        assert (await store.get_player(match.group(1))).revoked
