"""Connections that drop, servers that die: seats, moves and clocks survive.

Pins the contracts of ``docs/protocol.md`` ("Sessions") and the design's
durability promise: a move the server has broadcast survives a SIGKILL, games in
progress come back on restart with their clocks paused while down, and players
reclaim their seats with the resume tokens they already hold.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import pytest
from harness import Player, ServerProcess, raw_upgrade, running_server
from websockets.exceptions import ConnectionClosed

from boardroom.server.core.records import GameState
from boardroom.server.stop_deadline import EXIT_STOP_OVERRAN
from boardroom.server.store import GameStore, open_store


async def start_game(
    url: str, game: str = "tictactoe", **options: Any
) -> tuple[Player, Player, str]:
    """Ann creates a public room, Bob joins it; returns both (Ann moves first) and the code."""
    ann = await Player.join_server(url, "ann")
    created = await ann.request({"type": "create_room", "game": game, **options})
    code = created["room"]["code"]
    bob = await Player.join_server(url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing"
    await ann.expect("state")
    return ann, bob, code


async def play(mover: Player, other: Player, code: str, move: str) -> dict[str, Any]:
    """``mover`` plays ``move``; both must see it. Returns the mover's ``moved``."""
    reply = await mover.request({"type": "move", "room": code, "move": move})
    assert reply["type"] == "moved", reply
    seen = await other.expect("moved", ply=reply["ply"])
    assert seen["move"] == move
    return reply


# -- reconnecting -----------------------------------------------------------------------


async def test_a_player_who_drops_gets_the_seat_back_with_the_token(tmp_path: Path) -> None:
    """Bob drops: Ann hears at once that he is gone and until when; Bob's token
    gives him his seat and the whole state back; Ann hears he is back."""
    async with running_server(tmp_path / "games.db", grace_seconds=30) as server:
        ann, bob, code = await start_game(server.ws_url)
        await play(ann, bob, code, "b2")
        await bob.close()
        gone = await ann.expect("player_status", side="second", connected=False)
        assert gone["gone_until"] > 0
        state = await ann.request({"type": "get_state", "room": code})
        held = state["room"]["seats"][1]
        assert held["name"] == "bob" and "connected" not in held  # false: left out as a default
        assert held["gone_until"] == gone["gone_until"]

        back = await Player.join_server(server.ws_url, "bob", token=bob.token)
        assert back.token == bob.token
        welcome = back.seen[0]
        assert welcome["resumed_rooms"] == [code]
        resumed = await back.expect("state")
        assert resumed["room"]["moves"] == "b2" and resumed["room"]["you"] == "second"
        await ann.expect("player_status", side="second", connected=True)
        await play(back, ann, code, "a1")


async def test_a_seat_not_reclaimed_in_time_loses_the_game_by_abandonment(tmp_path: Path) -> None:
    """After the grace window the game ends, the waiting side wins, and a late
    return finds no seat (the token may still open a session, with no rooms)."""
    async with running_server(tmp_path / "games.db", grace_seconds=0.5) as server:
        ann, bob, code = await start_game(server.ws_url)
        await play(ann, bob, code, "b2")
        await bob.close()
        over = await ann.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "abandonment"}
        late = await Player.connect(server.ws_url)
        reply = await late.request(
            {"type": "hello", "name": "bob", "version": 1, "resume_token": bob.token}
        )
        assert reply["type"] == "welcome" and "resumed_rooms" not in reply, reply  # none: omitted
        record = await server.get_json("/api/games/1")
        assert record["termination"] == "abandonment" and record["result"] == "1-0"


async def test_resuming_on_a_second_connection_closes_the_first(tmp_path: Path) -> None:
    """One session, one connection: the old one is closed with code 4000."""
    async with running_server(tmp_path / "games.db") as server:
        ann, bob, code = await start_game(server.ws_url)
        again = await Player.join_server(server.ws_url, "ann", token=ann.token)
        await again.expect("state")
        with pytest.raises(ConnectionClosed):
            while True:
                await ann.ws.recv()
        assert ann.ws.close_code == 4000
        await play(again, bob, code, "a1")


# -- crashes and restarts ---------------------------------------------------------------------


async def test_sigkill_loses_no_acknowledged_move_and_players_resume(database: str) -> None:
    """Kill -9 mid-game; restart on the same database (a SQLite file, then a
    PostgreSQL database): every move either player saw is there, both reclaim
    their seats with their tokens and finish the game."""
    first = await ServerProcess.start(database)
    try:
        ann, bob, code = await start_game(first.ws_url)
        for mover, other, move in [(ann, bob, "b2"), (bob, ann, "a1"), (ann, bob, "c3")]:
            await play(mover, other, code, move)
    finally:
        await first.stop(signal.SIGKILL)

    second = await ServerProcess.start(database)
    try:
        ann = await Player.join_server(second.ws_url, "ann", token=ann.token)
        bob = await Player.join_server(second.ws_url, "bob", token=bob.token)
        for player in (ann, bob):
            state = await player.expect("state")
            assert state["room"]["moves"] == "b2 a1 c3"
            assert state["room"]["status"] == "playing"
        await play(bob, ann, code, "a3")
        await play(ann, bob, code, "a2")
        await play(bob, ann, code, "c1")
        await ann.request({"type": "move", "room": code, "move": "b1"})
        await play(bob, ann, code, "b3")
        reply = await ann.request({"type": "move", "room": code, "move": "c2"})
        assert reply["type"] == "moved"
        over = await bob.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "line", "line": ["a2", "b2", "c2"]}
    finally:
        assert await second.stop() == 0
    async with open_store(database) as store:
        record = await store.get_game(1)
    assert [m.move for m in record.moves] == ["b2", "a1", "c3", "a3", "a2", "c1", "b1", "b3", "c2"]
    assert record.state is GameState.FINISHED and record.result == "1-0"


async def test_clocks_are_paused_while_the_server_is_down(tmp_path: Path) -> None:
    """The time the server is down is nobody's: the side to move has, after the
    restart, what it had when the server died (within the time to restart)."""
    database = tmp_path / "games.db"
    clock = {"kind": "increment", "initial": 60, "increment": 0}
    first = await ServerProcess.start(database)
    try:
        ann, bob, code = await start_game(first.ws_url, "connect4", clock=clock)
        moved = await play(ann, bob, code, "4")
        before_ms = moved["clocks"]["second_ms"]
    finally:
        await first.stop(signal.SIGKILL)
    await asyncio.sleep(2.0)  # the downtime that must not be charged to bob
    second = await ServerProcess.start(database)
    try:
        bob = await Player.join_server(second.ws_url, "bob", token=bob.token)
        state = (await bob.expect("state"))["room"]
        assert state["clocks"]["running"] == "second"
        charged = before_ms - state["clocks"]["second_ms"]
        # Charged: only the moments before the kill and after the restart, not the 2 s down.
        assert charged < 1500, f"{charged} ms charged while the server was down"
    finally:
        await second.stop()


async def test_sigterm_tells_clients_and_exits_cleanly(tmp_path: Path) -> None:
    """SIGTERM: clients get close code 1001, the process exits 0, the game is
    still in play in the database and comes back on the next start."""
    database = tmp_path / "games.db"
    server = await ServerProcess.start(database)
    ann, bob, code = await start_game(server.ws_url)
    await play(ann, bob, code, "b2")
    assert await server.stop(signal.SIGTERM) == 0
    for player in (ann, bob):
        with pytest.raises(ConnectionClosed):
            while True:
                await asyncio.wait_for(player.ws.recv(), 10)
        assert player.ws.close_code == 1001
    async with GameStore(database) as store:
        (unfinished,) = await store.unfinished_games()
    assert [m.move for m in unfinished.moves] == ["b2"]


async def test_a_second_signal_while_stopping_exits_at_once(tmp_path: Path) -> None:
    """A client that never answers the close holds the graceful stop for its
    grace (3 s); Ctrl-C during it exits at once, with status 70 and a log line
    saying so, and the game is still in the database for the next start."""
    database = tmp_path / "games.db"
    server = await ServerProcess.start(database)
    ann, bob, code = await start_game(server.ws_url)
    await play(ann, bob, code, "b2")
    reader, writer = await raw_upgrade(server.port)
    assert (await asyncio.wait_for(reader.read(4096), 10)).startswith(b"HTTP/1.1 101 ")

    server.process.send_signal(signal.SIGTERM)
    assert server.process.stdout is not None
    while b"Shutting down" not in await asyncio.wait_for(server.process.stdout.readline(), 10):
        pass
    assert await server.stop(signal.SIGINT) == EXIT_STOP_OVERRAN
    assert "a second signal while stopping" in server.last_log, server.last_log
    writer.close()
    async with GameStore(database) as store:
        (unfinished,) = await store.unfinished_games()
    assert [m.move for m in unfinished.moves] == ["b2"]


async def test_a_second_server_on_the_same_database_refuses_to_start(tmp_path: Path) -> None:
    """Two servers on one file would both restore and write the same games:
    the second exits at once with a message naming the file; the first serves on."""
    database = tmp_path / "games.db"
    first = await ServerProcess.start(database)
    try:
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "boardroom.server", "--port", "0", "--database", str(database),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, stderr = await asyncio.wait_for(second.communicate(), 60)
        assert second.returncode == 1
        assert f"another Boardroom server is using {database}" in stderr.decode()
        player = await Player.join_server(first.ws_url, "ann")
        assert (await player.request({"type": "ping"}))["type"] == "pong"
    finally:
        assert await first.stop() == 0


async def test_a_port_in_use_stops_the_start_before_the_database_is_touched(
    tmp_path: Path,
) -> None:
    """``serve`` binds first: on a busy port it exits without creating the file."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "boardroom.server", "--host", "127.0.0.1", "--port", str(port),
            "--database", str(tmp_path / "games.db"),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in stderr.decode()
    assert not (tmp_path / "games.db").exists()
