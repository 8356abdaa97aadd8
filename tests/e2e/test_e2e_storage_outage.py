"""A database that cannot be written for a while pauses games; it does not end them.

Pins docs/operations.md ("When the database is down") and docs/protocol.md's
``storage_unavailable``: a move the store refuses for now is refused with that code
and ``retry_after``, changes nothing (the room is as before it, nobody is told of
it) and is accepted when sent again once the store is back; the room is never
closed for it, and the record ends with every acknowledged move.

SQLite: another connection holds the write lock (as the ``sqlite3`` shell or a
backup would) past the store's busy timeout. PostgreSQL: its server is stopped
(SIGSTOP of the postmaster and every backend) for 10 s mid-game, and the
players are the real client sessions (:class:`boardroom.client.session.Session`),
which send refused moves again by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
from pathlib import Path
from subprocess import DEVNULL
from typing import Any

import aiohttp
import pytest
from harness import Player, running_server, wait_until
from services import start_postgres
from terminal_helpers import client_process

from boardroom.client.session import Session
from boardroom.server.core.records import GameState
from boardroom.server.store import GameStore, PostgresGameStore
from boardroom.server.store.sqlite import base as sqlite_base
from boardroom.shared.protocol.messages import (
    CreateRoom,
    Error,
    Join,
    MakeMove,
    Moved,
    RoomClosed,
    State,
)


async def start_game(url: str, **options: Any) -> tuple[Player, Player, str]:
    """Ann opens a tic-tac-toe room (with ``options``), Bob joins; Ann moves first."""
    ann = await Player.join_server(url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe", **options})
    code = created["room"]["code"]
    bob = await Player.join_server(url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing"
    await ann.expect("state")
    return ann, bob, code


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite waits 0.3 s for a lock held elsewhere, not the 5 s it waits in use:
    the same refusal, sooner."""
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)


@pytest.mark.usefixtures("short_busy_timeout")
async def test_a_move_refused_by_a_locked_sqlite_database_changes_nothing_and_goes_through_later(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, bob, code = await start_game(server.ws_url)
        first = await ann.request({"type": "move", "room": code, "move": "a1"})
        assert first["type"] == "moved", first
        await bob.expect("moved", ply=0)

        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held past the busy timeout
        try:
            refused = await bob.request({"type": "move", "room": code, "move": "b2", "ply": 1})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert refused["type"] == "error", refused
        assert refused["code"] == "storage_unavailable", refused
        assert refused["retry_after"] > 0

        # Nothing changed: the same move, at the same ply, sent again after
        # retry_after as the protocol asks, is accepted, and Ann hears of it once.
        await asyncio.sleep(refused["retry_after"])
        again = await bob.request({"type": "move", "room": code, "move": "b2", "ply": 1})
        assert again["type"] == "moved" and again["ply"] == 1, again
        seen = await ann.expect("moved", ply=1)
        assert seen["move"] == "b2"
        for mover, move in ((ann, "a2"), (bob, "c3"), (ann, "a3")):
            reply = await mover.request({"type": "move", "room": code, "move": move})
            assert reply["type"] == "moved", reply
        over = await bob.expect("game_over")
        game_id = over["game_id"]
        assert not any(m.get("type") == "room_closed" for m in ann.seen + bob.seen)
        assert [m for m in ann.seen + bob.seen if m.get("code") == "internal_error"] == []
        for player in (ann, bob):
            await player.close()

    async with GameStore(database) as store:
        record = await store.get_game(game_id)
    assert record.state is GameState.FINISHED
    assert [move.move for move in record.moves] == ["a1", "b2", "a2", "c3", "a3"]


@pytest.mark.usefixtures("short_busy_timeout")
async def test_a_room_unsaved_past_the_limit_is_closed_with_storage_lost(tmp_path: Path) -> None:
    """Refusals for longer than ``storage_outage_limit`` close the room: the move
    that finds it so is refused ``storage_lost`` (with its id), the opponent is
    told ``storage_lost`` too, both are sent ``room_closed`` (``kind``
    ``storage_lost``) and the room is gone: it takes nothing more. What was
    stored stays stored, in play."""
    database = tmp_path / "games.db"
    async with running_server(database, storage_outage_limit=0.5) as server:
        ann, bob, code = await start_game(server.ws_url)
        assert (await ann.request({"type": "move", "room": code, "move": "a1"}))["type"] == "moved"
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            move = {"type": "move", "room": code, "move": "b2", "ply": 1}
            first = await bob.request(move)
            assert first["code"] == "storage_unavailable", first
            await asyncio.sleep(0.6)
            lost = await bob.request(move)
            assert lost["code"] == "storage_lost", lost
            told = await ann.expect("error", code="storage_lost")
            assert "could not save" in told["message"]
            for player in (ann, bob):
                closed = await player.expect("room_closed", room=code)
                assert closed["kind"] == "storage_lost", closed
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        after = await bob.request(move)
        assert after["code"] == "unknown_room", after
        for player in (ann, bob):
            await player.close()
    async with GameStore(database) as store:
        (record,) = await store.unfinished_games()
    assert [m.move for m in record.moves] == ["a1"]


@pytest.mark.usefixtures("short_busy_timeout")
async def test_the_clock_stands_still_while_a_move_waits_to_be_saved(tmp_path: Path) -> None:
    """Bob has 3 s a move; his move is refused for a locked file and the lock
    lasts longer than his time. His clock stands from the refusal until a move
    is stored, so the move, sent again once the lock is gone, is played and
    the game goes on: nobody loses on time to the database."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, bob, code = await start_game(server.ws_url, clock={"kind": "per_move", "per_move": 3})
        assert (await ann.request({"type": "move", "room": code, "move": "a1"}))["type"] == "moved"
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            move = {"type": "move", "room": code, "move": "b2", "ply": 1}
            refused = await bob.request(move)
            assert refused["code"] == "storage_unavailable", refused
            # Both are told, so that their clocks stop too: Bob's time stands, not running.
            for player in (ann, bob):
                told = (await player.expect("state"))["room"]
                assert told["saving_paused"] and told["clocks"]["running"] is None, told
                assert 0 < told["clocks"]["second_ms"] <= 3000
            await asyncio.sleep(3.5)  # past Bob's 3 s
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        await asyncio.sleep(refused["retry_after"])
        played = await bob.request(move)
        assert played["type"] == "moved", played
        for player in (ann, bob):  # saved again: the state without the pause, Ann's clock running
            resumed = (await player.expect("state"))["room"]
            assert "saving_paused" not in resumed and resumed["clocks"]["running"] == "first"
        assert (await ann.request({"type": "move", "room": code, "move": "a2"}))["type"] == "moved"
        assert not [m for m in ann.seen + bob.seen if m.get("type") == "game_over"]
        for player in (ann, bob):
            await player.close()


@pytest.mark.usefixtures("short_busy_timeout")
async def test_the_terminal_says_saving_is_paused_and_shows_the_clock_standing(
    tmp_path: Path,
) -> None:
    """``boardroom play`` (ann, 60 s a move) plays Bob, whose move is refused
    while the file is locked: her terminal says saving is paused, its status line
    shows Bob's clock as the server holds it, not running, and says why; Bob's
    move, sent again once the lock goes, is played, and it says saving works again."""
    database = tmp_path / "games.db"
    async with (
        running_server(database) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path / "ann"
        ) as ann,
    ):
        ann.send("new tictactoe clock=60s")
        code = (await ann.expect(r"^Others can join it with: join (\w+)$")).group(1)
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        await ann.expect(r"^Game 1 starts: X ann vs O bob")
        ann.send("b2")
        await bob.expect("moved", ply=0)
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            move = {"type": "move", "room": code, "move": "a1", "ply": 1}
            refused = await bob.request(move)
            assert refused["code"] == "storage_unavailable", refused
            told = (await bob.expect("state"))["room"]  # what the server holds
            assert told["saving_paused"] and told["clocks"]["running"] is None, told
            await ann.expect(r"^Saving is paused: the server cannot save this game for now\.")
            status = await ann.expect(r"^Tic-tac-toe, room \w+ \| .* \| O bob (\d+:\d\d) \|.*")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        await asyncio.sleep(refused["retry_after"])
        assert (await bob.request(move))["type"] == "moved"
        await ann.expect(r"^Saving works again: the game goes on, the clocks run on\.$")
        await bob.request({"type": "resign", "room": code})
        ann.close_input()
        assert await ann.finish() == 0
        await bob.close()
    seconds = told["clocks"]["second_ms"] // 1000
    assert status.group(1) == f"{seconds // 60}:{seconds % 60:02d}"
    assert status.group(0).endswith("| O to move (saving is paused: the clocks are stopped)")


@pytest.mark.usefixtures("short_busy_timeout")
async def test_the_ai_sits_down_once_its_game_can_be_stored(tmp_path: Path) -> None:
    """A room opened with the AI while the file is locked: the creator has the
    room (nothing of it needs storing yet), then a state saying saving is
    paused; the AI's seat, which starts the game, is taken once the lock goes
    (a state without the pause), and the game is played."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            created = await ann.request(
                {"type": "create_room", "game": "tictactoe", "ai_level": "easy"}
            )
            assert created["type"] == "state" and created["room"]["status"] == "waiting"
            paused = await ann.expect("state")  # the AI's seat refused
            assert paused["room"]["saving_paused"] and paused["room"]["status"] == "waiting"
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        started = await ann.expect("state", timeout=30)
        assert started["room"]["status"] == "playing", started
        assert "saving_paused" not in started["room"]
        code = created["room"]["code"]
        assert (await ann.request({"type": "move", "room": code, "move": "b2"}))["type"] == "moved"
        await ann.expect("moved", ply=1, timeout=30)  # the AI's answer
        await ann.close()


@pytest.mark.usefixtures("short_busy_timeout")
async def test_the_client_session_sends_a_refused_move_again_by_itself(tmp_path: Path) -> None:
    """:class:`boardroom.client.session.Session` (the terminal's and the bot SDK's)
    meets ``storage_unavailable``: it says so (``on_saving_paused``) and sends the
    move again until it is played; the caller just gets the ``moved``."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, bob, code = await start_game(server.ws_url)
        await ann.close()
        assert ann.token is not None
        waits: list[float] = []
        async with Session(server.ws_url, "ann", resume_token=ann.token, pace=None) as session:
            session.on_saving_paused = waits.append
            await wait_until(lambda: code in session.rooms)
            holder = sqlite3.connect(database, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            try:
                move = asyncio.ensure_future(session.request(MakeMove(room=code, move="a1", ply=0)))
                await wait_until(lambda: waits)
                assert not move.done()
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            reply = await asyncio.wait_for(move, 30)
            assert isinstance(reply, Moved) and reply.ply == 0
            assert (await bob.expect("moved", ply=0))["move"] == "a1"
            assert all(wait >= 2.0 for wait in waits), waits  # the server's retry_after
        await bob.close()


# -- PostgreSQL restarted, then stopped for 10 s, mid-game -------------------------------


def _family(pid: int) -> list[int]:
    """``pid`` and every process under it (the postmaster and its backends)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def _signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


async def _get(url: str) -> tuple[int, dict[str, str], Any]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, dict(response.headers), await response.json()


OUTAGE_SECONDS = 10.0
"""How long PostgreSQL is stopped: the issue's figure."""


def _postmaster(data: Path) -> int:
    return int((data / "postmaster.pid").read_text().split()[0])


async def test_postgresql_restarted_then_stopped_10_s_pauses_the_game_and_loses_no_move() -> None:
    """Two players mid-game on a server on PostgreSQL, which goes twice:

    1. restarted (a fast shutdown: every connection closed, then refused, then
       a new server on the same files), as the issue found it closing every room;
    2. stopped with SIGSTOP for 10 s (the postmaster and every backend: it
       neither answers nor refuses, the worst case).

    Each time the move made meanwhile is refused as ``storage_unavailable`` and
    sent again by the player's own client session until it is stored. During the
    stop a ``hello`` is refused and said again the same way, and the HTTP API
    answers 503 with ``Retry-After``. Then the game finishes, the room never
    closed, nobody got another error, and the record holds every move."""
    with start_postgres() as postgres:
        url = postgres.new_database()
        # PostgreSQL's command line, to start it again on the same files.
        command = Path(f"/proc/{postgres.process.pid}/cmdline").read_text().split("\0")[:-1]
        data = Path(command[command.index("-D") + 1])
        process = postgres.process
        try:
            async with running_server(url) as server:  # type: ignore[arg-type]
                ann = Session(server.ws_url, "ann", pace=None)
                bob = Session(server.ws_url, "bob", pace=None)
                await ann.start()
                await bob.start()
                paused: dict[str, list[float]] = {"ann": [], "bob": [], "cy": []}
                ann.on_saving_paused = paused["ann"].append
                bob.on_saving_paused = paused["bob"].append
                events = [ann.subscribe(), bob.subscribe()]
                created = await ann.request(CreateRoom(game="tictactoe"))
                assert isinstance(created, State)
                code = created.room.code
                await bob.request(Join(code=code))

                async def play(session: Session, move: str, ply: int) -> None:
                    await wait_until(lambda: session.rooms[code].state.ply == ply)
                    reply = await session.request(MakeMove(room=code, move=move, ply=ply))
                    assert isinstance(reply, Moved) and reply.ply == ply, reply

                await play(ann, "a1", 0)

                # 1. A restart: Bob's move while it is down.
                os.kill(_postmaster(data), signal.SIGINT)  # fast shutdown
                process.wait(30)
                during = asyncio.ensure_future(play(bob, "b1", 1))
                await wait_until(lambda: paused["bob"], timeout=30)
                process = subprocess.Popen(command, stdout=DEVNULL, stderr=DEVNULL)
                await asyncio.wait_for(during, 60)  # stored once PostgreSQL is back

                # 2. SIGSTOP for 10 s: Ann's move, a new player's hello, a read.
                family = _family(process.pid)
                loop = asyncio.get_running_loop()
                stopped_at = loop.time()
                _signal_all(family, signal.SIGSTOP)
                try:
                    during = asyncio.ensure_future(play(ann, "a2", 2))
                    cy = Session(server.ws_url, "cy", pace=None)
                    cy.on_saving_paused = paused["cy"].append
                    hello = asyncio.ensure_future(cy.start())
                    record_url = server.http_url(f"/api/games/{ann.rooms[code].state.game_id}")
                    read = asyncio.ensure_future(_get(record_url))
                    # Each refused at least once (the store gives up on a silent
                    # server after 5 s, and writes go one at a time), then the
                    # rest of the outage.
                    await wait_until(lambda: paused["ann"] and paused["cy"], timeout=40)
                    await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (loop.time() - stopped_at)))
                    assert not during.done() and not hello.done()
                finally:
                    _signal_all(family, signal.SIGCONT)
                status, headers, body = await read
                assert status == 503, body
                assert body["error"] == "storage_unavailable" and body["retry_after"] > 0
                assert int(headers["Retry-After"]) >= 1

                await asyncio.wait_for(during, 60)  # stored once PostgreSQL is back
                welcome = await asyncio.wait_for(hello, 60)
                assert welcome.name == "cy"
                await cy.close()
                await play(bob, "b2", 3)
                await play(ann, "a3", 4)
                over = await wait_until(lambda: ann.rooms[code].state.result, timeout=30)
                assert over.winner == "first"
                game_id = ann.rooms[code].state.game_id
                seen = [queue.get_nowait() for queue in events for _ in range(queue.qsize())]
                assert not [e for e in seen if isinstance(e, RoomClosed)], seen
                errors = [e for e in seen if isinstance(e, Error)]
                assert [e.code for e in errors if e.code != "storage_unavailable"] == [], errors
                await ann.close()
                await bob.close()

            async with PostgresGameStore(url) as store:
                assert game_id is not None
                record = await store.get_game(game_id)
        finally:
            if process is not postgres.process and process.poll() is None:
                # The PostgreSQL started here is this test's to stop (immediately:
                # its folder goes next), the first one start_postgres's.
                with contextlib.suppress(OSError, ValueError):
                    os.kill(_postmaster(data), signal.SIGQUIT)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    _signal_all(_family(process.pid), signal.SIGKILL)
                    process.wait(10)
    assert record.state is GameState.FINISHED
    assert [move.move for move in record.moves] == ["a1", "b1", "a2", "b2", "a3"]
