"""The group commit of the games (server/store/games.py), on a real SQLite file and
a real PostgreSQL database: a game's creation and its end share one transaction
with the moves written at the same time, each write of a batch refused or failed
alone, and every acknowledged creation and end survives a SIGKILL; a game's last
move and its end are one write (one transaction, both or neither, after a SIGKILL too)."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import sys
from collections.abc import Awaitable
from contextlib import closing
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.server.core.records import GameState, PlayerKind, SeatRecord, Termination
from boardroom.server.core.room import ClientId, GameFinished, MoveMade, Room, RoomOptions
from boardroom.server.recorder import GameRecorder
from boardroom.server.store import (
    GameStateError,
    GameStore,
    StaleWriteError,
    StorageFailedError,
    StorageUnavailableError,
    Store,
    open_store,
)
from boardroom.server.store.sqlite import base as sqlite_base
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import MakeMove

T0 = 1_746_100_800.0
ADA = SeatRecord("ada")
BOB = SeatRecord("bob", PlayerKind.BOT)
NOBODY = SeatRecord("eve", PlayerKind.HUMAN, player="p9999999999999999")
"""A seat whose player was never stored: the database refuses it (a foreign key)."""


async def playing(store: GameStore, room: str) -> int:
    return await store.create_game(room, "tictactoe", (ADA, BOB), at=T0, started_at=T0 + 1)


async def test_a_refused_write_fails_alone_and_the_rest_of_its_batch_is_stored(
    store: GameStore,
) -> None:
    """One batch: a move, a new game, an end refused by its check (the game is over),
    a new game refused by the database (a savepoint around it), an end that fits.
    The three that fit are stored; the two refusals change nothing."""
    moving, over, ending = [await playing(store, room) for room in ("MOVE", "OVER", "END")]
    await store.finish_game(over, Player.FIRST, Termination.RESIGNATION, T0 + 2)

    results = await asyncio.gather(
        store.append_move(moving, 0, "b2", T0 + 3),
        store.create_game("NEW", "tictactoe", (ADA, BOB), at=T0 + 3, started_at=T0 + 3),
        store.finish_game(over, None, Termination.ABORTED, T0 + 3),
        store.create_game("BAD", "tictactoe", (ADA, NOBODY), at=T0 + 3, started_at=T0 + 3),
        store.finish_game(ending, Player.SECOND, Termination.TIMEOUT, T0 + 3),
        return_exceptions=True,
    )

    stored_move, new_id, refused_end, refused_game, stored_end = results
    assert stored_move is None
    assert isinstance(refused_end, GameStateError)
    assert isinstance(refused_game, StorageFailedError)
    assert stored_end is None
    assert [move.move for move in (await store.get_game(moving)).moves] == ["b2"]
    assert isinstance(new_id, int)
    new = await store.get_game(new_id)
    assert (new.room, new.state, new.seats) == ("NEW", GameState.PLAYING, (ADA, BOB))
    assert (await store.get_game(over)).termination is Termination.RESIGNATION
    assert (await store.get_game(ending)).termination is Termination.TIMEOUT
    rooms = {record.room for record in await store.unfinished_games()}
    assert rooms == {"MOVE", "NEW"}  # nothing of BAD


async def test_a_new_game_a_move_and_an_end_made_together_share_one_transaction(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made in the same turn of the loop, they go in one transaction: with the file
    locked by another program, that one transaction is refused, and all three
    callers hear of the same batch of three."""
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.2)
    async with GameStore(db_path) as store:
        moving, ending = await playing(store, "MOVE"), await playing(store, "END")
        with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            results = await asyncio.gather(
                store.create_game("NEW", "tictactoe", (ADA, BOB), at=T0, started_at=T0),
                store.append_move(moving, 0, "a1", T0 + 2),
                store.finish_game(ending, None, Termination.ABORTED, T0 + 2),
                return_exceptions=True,
            )
            other.execute("ROLLBACK")
        for result in results:
            assert isinstance(result, StorageUnavailableError), result
            assert "storing 1 move, 1 new game, 1 game's end failed" in str(result)
        assert {record.room for record in await store.unfinished_games()} == {"MOVE", "END"}


CHILD = """
import asyncio, sys, time
from boardroom.server.core.records import SeatRecord, Termination
from boardroom.server.store import open_store

async def main(database):
    store = open_store(database)
    await store.open()
    seats = (SeatRecord("a"), SeatRecord("b"))
    number = 0
    while True:  # until the test kills it
        number += 1
        game_id = await store.create_game(
            f"R{number}", "tictactoe", seats, at=time.time(), started_at=time.time()
        )
        print("created", game_id, flush=True)
        for ply, move in enumerate(["a1", "a2", "b1"]):
            await store.append_move(game_id, ply, move, time.time())
        if number % 2:
            await store.finish_game(game_id, None, Termination.ABORTED, time.time())
            print("finished", game_id, flush=True)

asyncio.run(main(sys.argv[1]))
"""


async def acknowledged_before_a_sigkill(
    script: str, database: str, finished_at_least: int
) -> tuple[set[int], set[int]]:
    """Run ``script`` on ``database`` in a child process, which prints
    ``created ID`` and ``finished ID`` as the store acknowledges each; kill it with
    SIGKILL once ``finished_at_least`` games are finished: the games it was told
    were created, and those it was told were finished (the pipe read to its end)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, database,
        cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdout is not None and child.stderr is not None
    created: set[int] = set()
    finished: set[int] = set()

    def take(line: bytes) -> None:
        what, game_id = line.split()
        (created if what == b"created" else finished).add(int(game_id))

    try:
        while len(finished) < finished_at_least:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=30)
            assert line, f"the child died: {(await child.stderr.read()).decode()}"
            take(line)
    finally:
        child.send_signal(signal.SIGKILL)
        await child.wait()
    for line in (await child.stdout.read()).splitlines():
        take(line)  # acknowledged before the kill, still in the pipe
    assert child.returncode == -signal.SIGKILL
    return created, finished


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_every_acknowledged_new_game_and_end_survives_a_sigkill(database: str) -> None:
    """A process creating, playing and ending games is killed with SIGKILL: every
    game it was told was created is there, and every one it was told was ended is
    finished."""
    created, finished = await acknowledged_before_a_sigkill(CHILD, database, 10)

    async with open_store(database) as store:
        for game_id in created:
            record = await store.get_game(game_id)
            assert record.state is (
                GameState.FINISHED if game_id in finished else GameState.PLAYING
            )


# -- a game's last move and its end: one write ---------------------------------------------


async def statements_during(store: GameStore, work: Awaitable[object]) -> list[str]:
    """The statements the store's SQLite connection ran while ``work`` ran (traced
    on the store's own thread), upper-cased."""
    statements: list[str] = []
    thread = store._handle
    assert thread is not None
    await thread.call(lambda db: db.set_trace_callback(statements.append))
    try:
        await work
    finally:
        await thread.call(lambda db: db.set_trace_callback(None))
    return [statement.strip().upper() for statement in statements]


async def commits_during(store: GameStore, work: Awaitable[object]) -> int:
    """How many transactions the SQLite file committed while ``work`` ran."""
    return (await statements_during(store, work)).count("COMMIT")


async def test_a_batch_of_moves_costs_one_statement_a_move(db_path: Path) -> None:
    """Moves stored together: BEGIN, one INSERT a move (the schema's trigger checks
    the game and the ply; no read before it, issue 29), COMMIT; only a stale move
    in the batch has its game read back, to name its refusal."""
    async with GameStore(db_path) as store:
        games = [await playing(store, f"R{number}") for number in range(3)]
        await store.append_move(games[0], 0, "a1", T0 + 2)
        writes = asyncio.gather(
            store.append_move(games[0], 1, "b1", T0 + 3),
            store.append_move(games[1], 0, "a1", T0 + 3),
            store.append_move(games[2], 0, "a1", T0 + 3),
            store.append_move(games[0], 1, "c1", T0 + 3),  # ply 1 is b1's: stale
            return_exceptions=True,
        )
        statements = await statements_during(store, writes)
        results = await writes
        assert results[:3] == [None, None, None]
        assert isinstance(results[3], StaleWriteError)
        # SQLite traces an insert again as its trigger runs: each counted once.
        inserts = list(dict.fromkeys(s for s in statements if s.startswith("INSERT")))
        assert len(inserts) == 4
        assert (statements[0], statements[-1]) == ("BEGIN IMMEDIATE", "COMMIT")
        assert sum(statement.startswith("SELECT") for statement in statements) == 1
        record = await store.get_game(games[0])
        assert [move.move for move in record.moves] == ["a1", "b1"]


async def test_a_game_ending_move_and_its_end_cost_one_transaction(db_path: Path) -> None:
    """The move that wins a room's game and the game's end, as the room gives them
    (one output) and the server's recorder stores them: one COMMIT (one fsync) for
    both, and the record has the move and the end."""
    async with GameStore(db_path) as store:
        recorder = GameRecorder(store)
        room = Room("WIN1", "tictactoe", options=RoomOptions(), rng=random.Random(1), now=T0)
        started = room.seat(ClientId("ann"), "ann", PlayerKind.HUMAN, now=T0)
        started = room.seat(ClientId("bob"), "bob", PlayerKind.HUMAN, now=T0)
        await recorder.persist(room.options, started.events)
        for ply, text in enumerate(["a1", "b1", "a2", "b2"]):
            mover = ClientId(("ann", "bob")[ply % 2])
            output = room.handle(mover, MakeMove(room="WIN1", move=text, ply=ply), now=T0 + ply)
            await recorder.persist(room.options, output.events)
        game_id = recorder.game_id("WIN1", 1)
        assert game_id is not None

        winning = room.handle(ClientId("ann"), MakeMove(room="WIN1", move="a3", ply=4), now=T0 + 9)
        assert [type(event) for event in winning.events] == [MoveMade, GameFinished]
        assert await commits_during(store, recorder.persist(room.options, winning.events)) == 1

        record = await store.get_game(game_id)
        assert [move.move for move in record.moves] == ["a1", "b1", "a2", "b2", "a3"]
        assert (record.state, record.winner, record.termination) == (
            GameState.FINISHED,
            Player.FIRST,
            Termination.LINE,
        )


async def test_a_refused_last_move_writes_nothing_of_its_end(store: Store) -> None:
    """A last move refused (stale: its ply is taken) leaves the game in play, its end
    not written either, and a refused end (the game is over) leaves its move out."""
    game_id = await playing(store, "STALE")  # type: ignore[arg-type]
    await store.append_move(game_id, 0, "a1", T0 + 2)
    with pytest.raises(StaleWriteError):
        await store.append_final_move(
            game_id, 0, "b2", T0 + 3,
            winner=Player.FIRST, termination=Termination.LINE, finished_at=T0 + 3,
        )  # fmt: skip
    record = await store.get_game(game_id)
    assert (record.state, [move.move for move in record.moves]) == (GameState.PLAYING, ["a1"])

    await store.append_final_move(
        game_id, 1, "b2", T0 + 4, winner=None, termination=Termination.AGREEMENT, finished_at=T0 + 4
    )
    with pytest.raises(GameStateError):
        await store.append_final_move(
            game_id, 2, "c3", T0 + 5,
            winner=None, termination=Termination.AGREEMENT, finished_at=T0 + 5,
        )  # fmt: skip
    record = await store.get_game(game_id)
    assert [move.move for move in record.moves] == ["a1", "b2"]
    assert (record.state, record.termination) == (GameState.FINISHED, Termination.AGREEMENT)


FINAL_MOVES_CHILD = """
import asyncio, sys, time
from boardroom.server.core.records import SeatRecord, Termination
from boardroom.server.store import open_store

async def main(database):
    store = open_store(database)
    await store.open()
    seats = (SeatRecord("a"), SeatRecord("b"))
    number = 0
    while True:  # until the test kills it
        number += 1
        game_id = await store.create_game(
            f"R{number}", "tictactoe", seats, at=time.time(), started_at=time.time()
        )
        await store.append_move(game_id, 0, "a1", time.time())
        print("created", game_id, flush=True)
        await store.append_final_move(
            game_id, 1, "b2", time.time(),
            winner=None, termination=Termination.ABORTED, finished_at=time.time(),
        )
        print("finished", game_id, flush=True)

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_a_sigkill_leaves_a_last_move_and_its_end_both_or_neither(database: str) -> None:
    """A process writing games' last moves with their ends is killed with SIGKILL:
    every game it was told was ended has its last move and its end; every other
    game has both or neither, never one without the other."""
    created, finished = await acknowledged_before_a_sigkill(FINAL_MOVES_CHILD, database, 20)

    async with open_store(database) as store:
        for game_id in created:
            record = await store.get_game(game_id)
            moves = [move.move for move in record.moves]
            if record.state is GameState.FINISHED:
                assert moves == ["a1", "b2"]
            else:
                assert game_id not in finished
                assert (record.state, moves) == (GameState.PLAYING, ["a1"])


async def test_a_cancelled_caller_does_not_cut_its_batch_short(store: Store) -> None:
    """The caller of a last move is cancelled while its batch is under way: it
    stops waiting, its move and end are stored both or neither, and the other
    move of the batch is stored and its caller told."""
    ending, moving = await playing(store, "CUT"), await playing(store, "GOES")  # type: ignore[arg-type]
    cancelled = asyncio.create_task(
        store.append_final_move(
            ending, 0, "a1", T0 + 2,
            winner=None, termination=Termination.ABORTED, finished_at=T0 + 2,
        )
    )  # fmt: skip
    other = asyncio.create_task(store.append_move(moving, 0, "b2", T0 + 2))
    await asyncio.sleep(0)  # both queued, their batch under way
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await other is None

    cut = await store.get_game(ending)
    assert (cut.state, [move.move for move in cut.moves]) in (
        (GameState.FINISHED, ["a1"]),
        (GameState.PLAYING, []),
    )
    assert [move.move for move in (await store.get_game(moving)).moves] == ["b2"]
