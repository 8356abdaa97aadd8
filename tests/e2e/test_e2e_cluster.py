"""End to end: two server processes as one cluster, on a real Redis and PostgreSQL.

Each test starts two servers (``--cluster`` on the test process's own Redis,
``--database`` on a new PostgreSQL database of its own, a cluster name of its
own) and plays through both: a room lives in one process, and clients
connected to the other reach it through Redis (server/cluster). The servers run
in this process (:func:`harness.running_server`), except where a process must
die: those are real ``boardroom serve`` children, killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from classroom_helpers import Teacher
from harness import Player, RunningServer, ServerProcess, running_server, wait_until
from services import PostgresServer, RedisServer, start_redis
from tournament_helpers import (
    WAIT,
    check_standings,
    every_pair,
    in_process_bots,
    meetings,
    results_from_records,
    tournament,
)

from boardroom.server.classroom.class_mode import teacher_token
from boardroom.server.store import open_store
from boardroom.shared.protocol.messages import Announcement

LINE_GAME = ("a1", "a2", "b1", "b2", "c1")
"""X wins along the bottom row."""


@asynccontextmanager
async def cluster(
    redis_server: RedisServer, postgres_server: PostgresServer, size: int = 2
) -> AsyncIterator[list[RunningServer]]:
    """``size`` servers of one new cluster, on one new database."""
    settings: dict[str, Any] = {
        "cluster": redis_server.url,
        "cluster_name": f"test-{secrets.token_hex(4)}",
        "grace_seconds": 30.0,
    }
    database = postgres_server.new_database()
    async with AsyncExitStack() as stack:
        servers = [
            # A URL, not a path: Path() would fold its "//".
            await stack.enter_async_context(running_server(database, **settings))  # type: ignore[arg-type]
            for _ in range(size)
        ]
        yield servers


@pytest.fixture
async def pair(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> AsyncIterator[list[RunningServer]]:
    async with cluster(redis_server, postgres_server) as servers:
        yield servers


async def play(players: tuple[Player, Player], code: str, moves: tuple[str, ...]) -> None:
    """Each move by the side to move, answered ``moved``."""
    for ply, move in enumerate(moves):
        reply = await players[ply % 2].request({"type": "move", "room": code, "move": move})
        assert reply["type"] == "moved", reply


async def seated(
    ann_url: str, bob_url: str, moves: tuple[str, ...] = ()
) -> tuple[Player, Player, str]:
    """Ann opens a tic-tac-toe room through ``ann_url``, Bob joins it through
    ``bob_url`` and they play ``moves``: (ann, bob, the room's code)."""
    ann = await Player.join_server(ann_url, "ann")
    code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
    bob = await Player.join_server(bob_url, "bob")
    await bob.request({"type": "join", "code": code})
    await play((ann, bob), code, moves)
    return ann, bob, code


async def test_two_players_on_two_processes_play_a_whole_game(pair: list[RunningServer]) -> None:
    """Ann's room lives in process A; Bob, connected to B, finds it in the lobby,
    joins it, and they play to the end; a spectator on B sees every move."""
    a, b = pair
    ann = await Player.join_server(a.ws_url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]

    bob = await Player.join_server(b.ws_url, "bob")
    listed = await bob.request({"type": "list_rooms"})
    assert [room["code"] for room in listed["rooms"]] == [code]
    assert (await b.get_json("/api/rooms"))["rooms"] == listed["rooms"]
    joined = await bob.request({"type": "join", "code": code})
    assert joined["type"] == "state", joined
    assert joined["room"]["you"] == "second"
    carl = await Player.join_server(b.ws_url, "carl", client="spectator")
    watching = await carl.request({"type": "watch", "code": code})
    assert watching["type"] == "state", watching
    assert watching["room"]["seats"] == joined["room"]["seats"]

    await play((ann, bob), code, LINE_GAME)
    for player in (ann, bob, carl):
        over = await player.expect("game_over")
        assert over["result"]["winner"] == "first"
        assert over["moves"] == " ".join(LINE_GAME)
    status, _, body = await b.get(f"/api/games/{over['game_id']}")
    assert status == 200, body  # the record is in the one database, read from either process


async def test_a_private_room_opens_by_its_codes_from_the_other_process(
    pair: list[RunningServer],
) -> None:
    """A private room is not listed anywhere; its join and watch codes open it
    from the other process, its room code does not, and a wrong code is the
    same typed refusal as on a server alone."""
    a, b = pair
    ann = await Player.join_server(a.ws_url, "ann")
    room = (await ann.request({"type": "create_room", "game": "tictactoe", "public": False}))[
        "room"
    ]
    bob = await Player.join_server(b.ws_url, "bob")
    assert (await bob.request({"type": "list_rooms"}))["rooms"] == []
    for code in (room["code"], "NOSUCHCODE"):
        refused = await bob.request({"type": "join", "code": code})
        assert refused["type"] == "error" and refused["code"] == "unknown_room", refused
    carl = await Player.join_server(b.ws_url, "carl", client="spectator")
    watching = await carl.request({"type": "watch", "code": room["watch_code"]})
    assert watching["type"] == "state", watching
    joined = await bob.request({"type": "join", "code": room["join_code"]})
    assert joined["type"] == "state", joined
    await play((ann, bob), room["code"], LINE_GAME)
    await carl.expect("game_over")


async def test_quick_match_pairs_players_of_two_processes(pair: list[RunningServer]) -> None:
    a, b = pair
    ann = await Player.join_server(a.ws_url, "ann")
    waiting = await ann.request({"type": "quick_match", "game": "tictactoe"})
    assert waiting["type"] == "state", waiting
    bob = await Player.join_server(b.ws_url, "bob")
    matched = await bob.request({"type": "quick_match", "game": "tictactoe"})
    assert matched["type"] == "state", matched
    assert matched["room"]["code"] == waiting["room"]["code"]


async def test_a_move_refused_in_another_process_is_refused_alike(
    pair: list[RunningServer],
) -> None:
    """Bob's move out of turn and a move for a room that exists nowhere: typed
    errors, and the game goes on as if they had not been sent."""
    a, b = pair
    ann = await Player.join_server(a.ws_url, "ann")
    code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
    bob = await Player.join_server(b.ws_url, "bob")
    await bob.request({"type": "join", "code": code})
    refused = await bob.request({"type": "move", "room": code, "move": "a1"})
    assert refused["type"] == "error" and refused["code"] == "not_your_turn", refused
    refused = await bob.request({"type": "move", "room": "ZZZZZZ", "move": "a1"})
    assert refused["type"] == "error" and refused["code"] == "unknown_room", refused
    await play((ann, bob), code, LINE_GAME)


async def test_a_player_resumes_through_the_other_process(pair: list[RunningServer]) -> None:
    """Bob, seated in A's room through B, drops and comes back through A with his
    token: the welcome names the room, its state follows, and the game goes on."""
    a, b = pair
    ann, bob, code = await seated(a.ws_url, b.ws_url, LINE_GAME[:2])
    token = bob.token
    await bob.close()
    await ann.expect("player_status", timeout=10, connected=False)

    back = await Player.connect(a.ws_url)
    welcome = await back.request(
        {"type": "hello", "name": "bob", "version": 1, "resume_token": token}
    )
    assert welcome["type"] == "welcome", welcome
    assert welcome["resumed_rooms"] == [code]
    state = await back.expect("state")
    assert state["room"]["code"] == code
    await play((ann, back), code, LINE_GAME[2:])
    await back.expect("game_over")


@asynccontextmanager
async def two_processes(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> AsyncIterator[tuple[ServerProcess, ServerProcess]]:
    """Two ``boardroom serve`` children of one new cluster, on one new database."""
    name = f"test-{secrets.token_hex(4)}"
    database = postgres_server.new_database()
    flags = ("--cluster", redis_server.url, "--cluster-name", name, "--engine", "python")
    first = await ServerProcess.start(database, *flags)  # type: ignore[arg-type]
    second = await ServerProcess.start(database, *flags)  # type: ignore[arg-type]
    try:
        yield first, second
    finally:
        for process in (first, second):
            await process.stop(signal.SIGKILL)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
async def test_a_dead_process_s_rooms_come_back_in_the_other(
    redis_server: RedisServer, postgres_server: PostgresServer, how: signal.Signals
) -> None:
    """The process holding a game in play is killed (SIGKILL) or stopped
    (SIGTERM). The other one takes its room over from the store within
    seconds: a player who was connected to the dead process resumes through
    the live one with his token, one who was connected to the live one is
    re-attached by it, and the game ends with every move made before."""
    async with two_processes(redis_server, postgres_server) as (owner, survivor):
        ann, bob, code = await seated(owner.ws_url, survivor.ws_url, LINE_GAME[:3])

        killed_at = time.monotonic()
        status = await owner.stop(how)
        if how is signal.SIGTERM:  # a clean stop: Redis and PostgreSQL let go in time
            assert status == 0, owner.last_log[-6000:]
        state = await bob.expect("state", timeout=20)  # re-attached to the new owner
        # Seen with pytest -s: the takeover's delay (at most the heartbeat's TTL, 3 s,
        # and a beat after a SIGKILL; a beat after a SIGTERM).
        print(f"room back {time.monotonic() - killed_at:.1f} s after {how.name}")
        assert state["room"]["moves"] == " ".join(LINE_GAME[:3])

        back = await Player.connect(survivor.ws_url)
        welcome = await back.request(
            {"type": "hello", "name": "ann", "version": 1, "resume_token": ann.token}
        )
        assert welcome["resumed_rooms"] == [code], welcome
        await back.expect("state")
        await play((bob, back), code, LINE_GAME[3:])  # bob's move, then ann's
        over = await bob.expect("game_over")
        assert over["moves"] == " ".join(LINE_GAME)


async def test_when_a_gateway_dies_its_players_are_away_in_the_other_s_rooms(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """Bob plays in A's room through B, and B is killed: A holds his seat as for
    any dropped player (Ann is told), and Bob comes back through A and plays on."""
    async with two_processes(redis_server, postgres_server) as (owner, gateway):
        ann, bob, code = await seated(owner.ws_url, gateway.ws_url, LINE_GAME[:2])
        await gateway.stop(signal.SIGKILL)
        away = await ann.expect("player_status", timeout=20, connected=False)
        assert away["side"] == "second"
        back = await Player.connect(owner.ws_url)
        welcome = await back.request(
            {"type": "hello", "name": "bob", "version": 1, "resume_token": bob.token}
        )
        assert welcome["resumed_rooms"] == [code], welcome
        await ann.expect("player_status", connected=True)
        await play((ann, back), code, LINE_GAME[2:])
        assert (await back.expect("game_over"))["result"]["winner"] == "first"


async def test_a_process_whose_redis_stops_answering_still_stops_cleanly(
    postgres_server: PostgresServer,
) -> None:
    """Redis freezes (SIGSTOP: connections stay open, nothing answers) while a
    process serves a game; SIGTERM stops it all the same, within its deadline
    and with status 0 (leaving the directory is given up on after 2 s), and the
    game is in PostgreSQL for the next start."""
    with start_redis() as frozen:
        database = postgres_server.new_database()
        flags = ("--cluster", frozen.url, "--cluster-name", "frozen", "--engine", "python")
        server = await ServerProcess.start(database, *flags)  # type: ignore[arg-type]
        try:
            await seated(server.ws_url, server.ws_url, LINE_GAME[:2])
            frozen.process.send_signal(signal.SIGSTOP)
            try:
                assert await server.stop(signal.SIGTERM) == 0, server.last_log[-6000:]
            finally:
                frozen.process.send_signal(signal.SIGCONT)
        finally:
            await server.stop(signal.SIGKILL)
    async with open_store(database) as store:
        (unfinished,) = await store.unfinished_games()
    assert [m.move for m in unfinished.moves] == list(LINE_GAME[:2])


async def test_a_cluster_needs_postgresql_and_redis(tmp_path: Path) -> None:
    """``--cluster`` with a SQLite file, or an address that is not Redis's, is a
    usage error that names the cure."""
    with pytest.raises(ValueError, match="PostgreSQL"):
        async with running_server(tmp_path / "x.db", cluster="redis://127.0.0.1:1/0"):
            pass
    with pytest.raises(ValueError, match="Redis URL"):
        async with running_server(
            "postgresql://nobody@127.0.0.1:1/x",  # type: ignore[arg-type]
            cluster="http://127.0.0.1:1",
        ):
            pass
    await asyncio.sleep(0)


# -- a class on a cluster ------------------------------------------------------------------

BOTS = ["ada", "bob", "cy", "dan", "eve", "fay"]


async def test_a_class_runs_a_tournament_on_a_two_process_cluster(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """A class whose home is one process, half its students (bots) connected to
    the other: the teacher, also through the other process, sees the whole
    roster, runs a round robin to the end, and the standings are those of the
    stored games."""
    settings: dict[str, Any] = {
        "cluster": redis_server.url,
        "cluster_name": f"test-{secrets.token_hex(4)}",
    }
    database = postgres_server.new_database()
    async with (
        running_server(database, class_name="7B", **settings) as home,  # type: ignore[arg-type]
        running_server(database, **settings) as other,  # type: ignore[arg-type]
        in_process_bots(home.ws_url, BOTS[:3]) as at_home,
        in_process_bots(other.ws_url, BOTS[3:]) as carried,
    ):
        teacher = Teacher(other, token=teacher_token(home.app))
        roster = await wait_until(
            lambda: teacher.get("/api/admin/roster"),
            lambda body: {s["name"] for s in body["students"]} == set(BOTS),
            timeout=WAIT,
        )
        entrants = [f"student:{s['id']}" for s in roster["students"]]
        status, answer, _ = await teacher.call(
            "POST",
            "/api/admin/tournaments",
            {"name": "Cluster cup", "game": "tictactoe", "format": "round_robin",
             "entrants": entrants},
        )  # fmt: skip
        assert status == 201, answer
        base = other.http_url("")
        shown = await wait_until(
            lambda: tournament(base, answer["tournament"]["id"]),
            lambda t: t["status"] == "finished",
            timeout=WAIT * 2,
        )
        assert sorted(meetings(shown), key=sorted) == sorted(every_pair(entrants), key=sorted)
        check_standings(shown, await results_from_records(base, shown))
        # The winner is announced to the whole class, on both processes.
        for bot in (at_home[0], carried[0]):
            said = await wait_until(lambda bot=bot: bot.received(Announcement), bool, timeout=WAIT)
            assert "Cluster cup" in said[-1].text
        status, csv, _ = await teacher.call("GET", "/api/admin/export/results.csv")
        # One line a game, every game of the tournament among them.
        assert status == 200 and len(csv.decode().strip().splitlines()) == 1 + len(meetings(shown))
        # The other process's own health is its own; the class's pages are the home's.
        assert (await other.get_json("/healthz"))["status"] == "ok"


async def test_with_its_home_away_a_class_s_cluster_refuses_rather_than_serve_outside_it(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """The home is killed: the other process closes the connections it carried
    there (1012, clients reconnect), refuses new ones (1013: try again) and the
    class's HTTP (503 with Retry-After) instead of serving play outside the
    class; once a home is back, a student comes back to her seat through it."""
    name = f"test-{secrets.token_hex(4)}"
    database = postgres_server.new_database()
    flags = ("--cluster", redis_server.url, "--cluster-name", name, "--engine", "python")
    home = await ServerProcess.start(database, *flags, "--class", "7B")  # type: ignore[arg-type]
    other = await ServerProcess.start(database, *flags)  # type: ignore[arg-type]
    try:
        ann, _, code = await seated(other.ws_url, home.ws_url, LINE_GAME[:2])

        await home.stop(signal.SIGKILL)
        assert await ann.closed(timeout=20) == 1012
        refused = await Player.connect(other.ws_url)
        assert await refused.closed() == 1013
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{other.port}/api/rooms") as response,
        ):
            assert response.status == 503
            assert response.headers["Retry-After"] == "2"

        home = await ServerProcess.start(database, *flags, "--class", "7B")  # type: ignore[arg-type]
        back = await wait_until(
            lambda: _hello_again(other.ws_url, "ann", ann.token), lambda p: p is not None
        )
        assert back is not None
        welcome_rooms = back.seen[-1]
        assert welcome_rooms["resumed_rooms"] == [code], welcome_rooms
        await back.expect("state")
    finally:
        for process in (home, other):
            await process.stop(signal.SIGKILL)


async def _hello_again(url: str, name: str, token: str | None) -> Player | None:
    """A player resuming with ``token``, or None while the cluster refuses connections."""
    try:
        player = await Player.connect(url)
        welcome = await player.request(
            {"type": "hello", "name": name, "version": 1, "resume_token": token}
        )
    except Exception:
        return None
    return player if welcome.get("type") == "welcome" else None
