"""The game store on a real SQLite file and on a real PostgreSQL database (each test
that takes ``store`` or ``database`` runs on both): records, durability, refusals,
exports. What only one of them has (SQLite's file and pragmas, PostgreSQL's
settings and version table) is tested on that one."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import sys
import time
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import asyncpg
import pytest
from repo_paths import REPO_ROOT
from services import PostgresServer, free_port

from boardroom.server.core.records import (
    GameRecord,
    GameState,
    MoveRecord,
    PlayerKind,
    SeatRecord,
    Termination,
    record_to_json,
    record_to_text,
)
from boardroom.server.store import (
    SCHEMA_VERSION,
    GameNotFoundError,
    GameStateError,
    GameStore,
    InvalidRecordError,
    PostgresGameStore,
    SchemaVersionError,
    StaleWriteError,
    StorageFailedError,
    StoreClosedError,
    StoreError,
    open_store,
)
from boardroom.server.store.sqlite.schema import _MIGRATIONS
from boardroom.shared.games import Player, get_game

T0 = 1_746_100_800.0  # 2025-05-01 12:00:00 UTC
ADA = SeatRecord("ada")
BOB = SeatRecord("bob", PlayerKind.BOT)
AI = SeatRecord("Boardroom AI", PlayerKind.AI, "perfect")


async def started_game(store: GameStore, game: str = "tictactoe", room: str = "ROOM") -> int:
    """A game with both seats taken, started at T0 + 1."""
    game_id = await store.create_game(room, game, (ADA, BOB), at=T0)
    await store.start_game(game_id, T0 + 1)
    return game_id


# -- the whole record --------------------------------------------------------------------


async def test_a_full_game_round_trips_through_the_store(store: GameStore) -> None:
    """Created with one seat, joined by the AI, started, played and won: get_game
    gives back every field as written."""
    options = {"public": False, "first": "random", "clock": {"initial": 60, "increment": 2}}
    game_id = await store.create_game("K3F9", "tictactoe", (ADA, None), options=options, at=T0)
    await store.update_seat(game_id, Player.SECOND, AI)
    await store.start_game(game_id, T0 + 5)
    plays = [("a1", 6.2, 58_800), ("a2", 6.5, 61_700), ("b2", 11.5, 57_000)]
    plays += [("a3", 11.75, 61_450), ("c3", 14.65, 55_100)]
    for ply, (move, offset, clock_ms) in enumerate(plays):
        await store.append_move(game_id, ply, move, T0 + offset, clock_ms)
    await store.finish_game(game_id, Player.FIRST, Termination.LINE, T0 + 15)

    assert await store.get_game(game_id) == GameRecord(
        id=game_id,
        room="K3F9",
        game="tictactoe",
        options=options,
        seats=(ADA, AI),
        moves=tuple(
            MoveRecord(ply, move, T0 + offset, clock_ms)
            for ply, (move, offset, clock_ms) in enumerate(plays)
        ),
        state=GameState.FINISHED,
        winner=Player.FIRST,
        termination=Termination.LINE,
        created_at=T0,
        started_at=T0 + 5,
        finished_at=T0 + 15,
    )


async def test_the_json_export_has_players_moves_result_termination_and_board(
    store: GameStore,
) -> None:
    """record_to_json gives stable keys that survive a JSON round trip, with the
    moves in order, the PGN-style result, how it ended and the final board."""
    game_id = await started_game(store, "connect4")
    for ply, move in enumerate("4455667"):
        await store.append_move(game_id, ply, move, T0 + 2 + ply, None)
    await store.finish_game(game_id, Player.FIRST, Termination.LINE, T0 + 10)

    exported = json.loads(json.dumps(record_to_json(await store.get_game(game_id))))

    assert list(exported) == [
        "record_format", "id", "room", "number", "game", "title", "options", "state", "players",
        "moves",
        "move_string", "board", "result", "winner", "termination",
        "created_at", "started_at", "finished_at",
    ]  # fmt: skip
    assert exported["record_format"] == 1
    assert (exported["game"], exported["title"], exported["room"]) == (
        "connect4",
        "Connect Four",
        "ROOM",
    )
    assert [p["name"] for p in exported["players"]] == ["ada", "bob"]
    assert exported["players"][1] == {
        "side": "second", "symbol": "O", "name": "bob", "kind": "bot", "ai_level": None,
        "player_id": None,
    }  # fmt: skip
    assert [m["move"] for m in exported["moves"]] == list("4455667")
    assert exported["moves"][1] == {
        "ply": 1, "side": "second", "move": "4", "at": "2025-05-01T12:00:03.000Z", "clock_ms": None,
        "autopilot": False,
    }  # fmt: skip
    assert exported["move_string"] == "4455667"
    assert (exported["result"], exported["winner"], exported["termination"]) == (
        "1-0",
        "first",
        "line",
    )
    assert exported["board"] == get_game("connect4").render(
        get_game("connect4").from_moves("4455667")
    )
    assert exported["state"] == "finished"
    assert exported["started_at"] == "2025-05-01T12:00:01.000Z"
    assert exported["finished_at"] == "2025-05-01T12:00:10.000Z"


async def test_the_text_export_reads_as_header_board_and_numbered_moves(store: GameStore) -> None:
    """record_to_text shows the game, players, times, result and ending, the final
    board diagram and the move list numbered by pairs with each move's time."""
    game_id = await store.create_game(
        "K3F9", "tictactoe", (ADA, AI), options={"public": True}, at=T0
    )
    await store.start_game(game_id, T0 + 5)
    for ply, (move, offset) in enumerate([("b2", 7.5), ("a1", 7.8), ("c3", 70), ("a3", 71)]):
        await store.append_move(game_id, ply, move, T0 + offset, 4_000 if ply == 3 else None)
    await store.finish_game(game_id, Player.SECOND, Termination.RESIGNATION, T0 + 80)

    assert record_to_text(await store.get_game(game_id)) == (
        "Tic-tac-toe (tictactoe), game 1 in room K3F9\n"
        "X         ada (human)\n"
        "O         Boardroom AI (ai, perfect)\n"
        'Options   {"public": true}\n'
        "Created   2025-05-01 12:00:00 UTC\n"
        "Started   2025-05-01 12:00:05 UTC\n"
        "Finished  2025-05-01 12:01:20 UTC\n"
        "Result    0-1, O (Boardroom AI) wins as X (ada) resigned\n"
        "\n"
        "3 O . X\n"
        "2 . X .\n"
        "1 O . .\n"
        "  a b c\n"
        "\n"
        "1. b2 (2.5s)  a1 (0.3s)\n"
        "2. c3 (1m02s)  a3 (1.0s, 4.0s left)\n"
    )


async def test_the_text_export_writes_times_as_told_and_marks_hinted_moves(
    store: GameStore,
) -> None:
    """With a ``time_text`` (the class export's: ISO 8601 in the server's zone)
    the header's times are written by it; with ``hints`` the header counts each
    side's and each move played after one says what it was."""
    game_id = await store.create_game(
        "K3F9", "tictactoe", (ADA, AI), options={"public": True}, at=T0
    )
    await store.start_game(game_id, T0 + 5)
    for ply, (move, offset) in enumerate([("b2", 7.5), ("a1", 7.8), ("c3", 70)]):
        await store.append_move(game_id, ply, move, T0 + offset)
    zone = timezone(timedelta(hours=2))
    text = record_to_text(
        await store.get_game(game_id),
        time_text=lambda at: datetime.fromtimestamp(at, zone).isoformat(timespec="seconds"),
        hints={0: "b2", 2: "a3"},
    )
    assert "Created   2025-05-01T14:00:00+02:00\n" in text
    assert "Started   2025-05-01T14:00:05+02:00\n" in text
    assert "Hints     X (ada) 2, O (Boardroom AI) 0\n" in text
    assert text.endswith("1. b2 (2.5s, hint b2)  a1 (0.3s)\n2. c3 (1m02s, hint a3)\n")


async def test_the_text_export_of_a_game_in_progress_says_who_is_to_move(
    store: GameStore,
) -> None:
    """An unfinished record exports too, with result ``*`` and the player to move."""
    game_id = await started_game(store, "mnk-5-5-4")
    await store.append_move(game_id, 0, "c3", T0 + 2)

    text = record_to_text(await store.get_game(game_id))

    assert "mnk-5-5-4" in text
    assert "Result    *, in progress, O (bob) to move" in text
    assert "\n1. c3 (1.0s)\n" in text
    assert record_to_json(await store.get_game(game_id))["result"] == "*"


# -- durability ----------------------------------------------------------------------------

# Appends the moves given on the command line and prints "ok" after each one
# append_move acknowledged, then waits to be killed.
CHILD = """
import asyncio, sys, time
from boardroom.server.core.records import SeatRecord
from boardroom.server.store import open_store

async def main(database, moves):
    store = open_store(database)
    await store.open()
    seats = (SeatRecord("a"), SeatRecord("b"))
    game_id = await store.create_game("KILL", "gomoku", seats, at=time.time())
    await store.start_game(game_id, time.time())
    for ply, move in enumerate(moves):
        await store.append_move(game_id, ply, move, time.time())
        print("ok", ply, flush=True)
    await asyncio.sleep(3600)  # the subject: alive until the test kills it

asyncio.run(main(sys.argv[1], sys.argv[2].split()))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_every_acknowledged_move_survives_a_sigkill(database: str) -> None:
    """A process killed with SIGKILL while appending loses none of the moves it
    had acknowledged; reopened, the game is among the unfinished ones."""
    gomoku = get_game("gomoku")
    moves = [gomoku.format_move(cell) for cell in random.Random(7).sample(range(225), 225)]
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, database, " ".join(moves),
        cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdout is not None and child.stderr is not None
    acknowledged = 0
    try:
        while acknowledged < 40:
            line = await asyncio.wait_for(child.stdout.readline(), timeout=30)
            assert line, f"the child died: {(await child.stderr.read()).decode()}"
            acknowledged += 1
    finally:
        child.send_signal(signal.SIGKILL)
        await child.wait()
    # Acknowledgements printed before the kill, still in the pipe, count too.
    acknowledged += (await child.stdout.read()).count(b"ok")
    assert child.returncode == -signal.SIGKILL

    async with open_store(database) as store:
        [record] = await store.unfinished_games()
        assert record.state is GameState.PLAYING
        assert record.next_ply >= acknowledged
        assert [move.move for move in record.moves] == moves[: record.next_ply]
        assert [move.ply for move in record.moves] == list(range(record.next_ply))


async def test_the_database_runs_in_wal_mode_with_full_sync(
    sqlite_store: GameStore, db_path: Path
) -> None:
    """The store reads back journal_mode=wal and synchronous=FULL from SQLite, and
    the file itself is in WAL mode for any other reader."""
    info = await sqlite_store.info()

    assert (info.journal_mode, info.synchronous) == ("wal", "FULL")
    assert info.schema_version == SCHEMA_VERSION == 12
    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_reopening_a_database_keeps_the_schema_version_and_the_data(
    database: str,
) -> None:
    """Closing and opening the same database again migrates nothing and loses nothing."""
    async with open_store(database) as store:
        game_id = await started_game(store)
        await store.append_move(game_id, 0, "b2", T0 + 2, 1_000)
        before = await store.get_game(game_id)

    async with open_store(database) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION
        assert await store.get_game(game_id) == before
        await store.append_move(game_id, 1, "a1", T0 + 3)
        assert (await store.get_game(game_id)).next_ply == 2

    if isinstance(store, GameStore):
        with closing(sqlite3.connect(database)) as other:
            assert other.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    else:
        assert await _postgres_value(database, "SELECT version FROM schema_version") == 12


async def test_a_file_from_a_newer_schema_is_refused_and_left_alone(db_path: Path) -> None:
    """A database whose user_version is above SCHEMA_VERSION raises
    SchemaVersionError on open, and the store does not write to it."""
    with closing(sqlite3.connect(db_path)) as other:
        other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store = GameStore(db_path)

    with pytest.raises(SchemaVersionError, match="newer than this Boardroom"):
        await store.open()

    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
        assert other.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
    with pytest.raises(StoreClosedError):
        await store.get_game(1)


async def _postgres_value(url: str, query: str) -> object:
    """One value of ``query`` on the PostgreSQL database ``url``, from a connection
    of the test's own (another client than the store)."""
    other = await asyncpg.connect(url)
    try:
        return await other.fetchval(query)
    finally:
        await other.close()


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> str:
    """A new empty database of the session's PostgreSQL server."""
    return postgres_server.new_database()


async def test_postgres_commits_are_durable_and_the_schema_is_current(
    postgres_database: str,
) -> None:
    """The PostgreSQL store reads back synchronous_commit = on and its schema
    version, kept in the schema_version table, and hides the URL's password."""
    async with PostgresGameStore(postgres_database) as store:
        info = await store.info()

    assert (info.journal_mode, info.synchronous) == ("wal", "on")
    assert info.schema_version == SCHEMA_VERSION
    assert await _postgres_value(postgres_database, "SELECT version FROM schema_version") == 12
    hidden = PostgresGameStore(postgres_database.replace("@", ":secret@", 1))
    assert "secret" not in hidden.path and ":***@" in hidden.path


async def test_a_postgres_connection_goes_back_to_the_pool_without_a_transaction_left_open(
    postgres_database: str,
) -> None:
    """The pool gives a connection back without asyncpg's reset query (one round
    trip a transaction saved, issue 29), but a transaction whose body raised is
    still rolled back: nothing of it stays, and no connection of the store is left
    idle in a transaction."""

    async def fails_half_way(db: asyncpg.Connection) -> None:
        await db.execute("CREATE TABLE probe (x int)")
        await db.execute("INSERT INTO probe VALUES (1)")
        raise RuntimeError("the body fails after its writes")

    async def probe_table(db: asyncpg.Connection) -> object:
        return await db.fetchval("SELECT to_regclass('probe')")

    async with PostgresGameStore(postgres_database) as store:
        for _ in range(3):
            with pytest.raises(RuntimeError, match="after its writes"):
                await store._transaction(fails_half_way, write=True, what="probing")
        assert await store._transaction(probe_table, write=False, what="probing") is None
        left_open = await _postgres_value(
            postgres_database,
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
        )
        assert left_open == 0


async def test_a_postgres_that_can_lose_commits_is_refused(
    postgres_server: PostgresServer,
) -> None:
    """With synchronous_commit off (here for the database; the server's setting is
    read the same way) a commit returns before it is on disk: the store refuses to
    open, names the setting, and creates nothing."""
    postgres_database = postgres_server.new_whole_database()  # its setting is changed
    name = postgres_database.rsplit("/", 1)[1]
    other = await asyncpg.connect(postgres_database)
    try:
        await other.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    finally:
        await other.close()
    store = PostgresGameStore(postgres_database)

    with pytest.raises(StorageFailedError, match="synchronous_commit = off"):
        await store.open()

    assert await _postgres_value(postgres_database, "SELECT to_regclass('schema_version')") is None
    with pytest.raises(StoreClosedError):
        await store.get_game(1)


async def test_a_postgres_server_that_cannot_be_reached_fails_the_open_clearly() -> None:
    """Nothing listening at the URL's port: open raises StorageFailedError naming
    the database (without the password), and the store stays closed."""
    store = PostgresGameStore(f"postgresql://boardroom:secret@127.0.0.1:{free_port()}/games")

    with pytest.raises(StorageFailedError, match="cannot open the database") as caught:
        await store.open()

    assert "secret" not in str(caught.value) and ":***@127.0.0.1" in str(caught.value)
    with pytest.raises(StoreClosedError):
        await store.games_by_state()


async def test_a_postgres_database_from_a_newer_schema_is_refused_and_left_alone(
    postgres_database: str,
) -> None:
    """A database whose schema_version is above SCHEMA_VERSION raises
    SchemaVersionError on open, and the store writes nothing to it."""
    async with PostgresGameStore(postgres_database):
        pass
    other = await asyncpg.connect(postgres_database)
    try:
        await other.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 1)
    finally:
        await other.close()
    store = PostgresGameStore(postgres_database)

    with pytest.raises(SchemaVersionError, match="newer than this Boardroom"):
        await store.open()

    version = await _postgres_value(postgres_database, "SELECT version FROM schema_version")
    assert version == SCHEMA_VERSION + 1
    with pytest.raises(StoreClosedError):
        await store.get_game(1)


async def test_a_postgres_connection_never_given_back_is_cut_at_close(
    postgres_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """asyncpg's pool waits without end for every connection to be given back;
    the store's close waits 5 s, then cuts such a connection off (logged), so a
    stopping server never hangs on one. What was written before stays written."""
    store = PostgresGameStore(postgres_database)
    await store.open()
    game_id = await started_game(store)
    await store.append_move(game_id, 0, "b2", T0 + 2)
    assert store._handle is not None
    held = await store._handle.acquire()  # as a leak would hold it (a private handle, on purpose)
    await store.close()
    assert "did not close in time" in caplog.text
    with pytest.raises(asyncpg.InterfaceError):  # cut off from its server
        await held.fetchval("SELECT 1")
    async with PostgresGameStore(postgres_database) as again:
        (unfinished,) = await again.unfinished_games()
    assert [m.move for m in unfinished.moves] == ["b2"]


async def test_two_stores_opening_one_new_postgres_database_at_once_both_work(
    postgres_database: str,
) -> None:
    """Two servers of a cluster starting together on an empty database: one
    creates the tables, the other waits for it and finds them."""
    first, second = PostgresGameStore(postgres_database), PostgresGameStore(postgres_database)
    await asyncio.gather(first.open(), second.open())
    try:
        game_id = await started_game(first)
        await second.append_move(game_id, 0, "b2", T0 + 2)
        assert (await first.get_game(game_id)).next_ply == 1
    finally:
        await asyncio.gather(first.close(), second.close())


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("ply", [0, 1, 3, 7])
async def test_a_move_with_a_wrong_ply_is_refused_and_changes_nothing(
    store: GameStore, ply: int
) -> None:
    """With two moves stored, a move for ply 0 or 1 (a duplicate) or beyond 2 (a
    gap) raises StaleWriteError naming the expected ply, and the record stays as it was."""
    game_id = await started_game(store)
    await store.append_move(game_id, 0, "b2", T0 + 2)
    await store.append_move(game_id, 1, "a1", T0 + 3)
    before = await store.get_game(game_id)

    with pytest.raises(StaleWriteError, match="must have ply 2") as caught:
        await store.append_move(game_id, ply, "c3", T0 + 4)

    assert (caught.value.ply, caught.value.expected_ply) == (ply, 2)
    assert isinstance(caught.value, ValueError)
    assert await store.get_game(game_id) == before


async def test_two_writes_racing_for_the_same_ply_store_only_one(store: GameStore) -> None:
    """Concurrent appends of the same ply: the first wins, the second is stale."""
    game_id = await started_game(store)

    results = await asyncio.gather(
        store.append_move(game_id, 0, "b2", T0 + 2),
        store.append_move(game_id, 0, "c3", T0 + 2),
        return_exceptions=True,
    )

    assert results[0] is None and isinstance(results[1], StaleWriteError)
    assert [move.move for move in (await store.get_game(game_id)).moves] == ["b2"]


async def test_an_unknown_game_raises_game_not_found(store: GameStore) -> None:
    """Every operation on a game id that does not exist raises GameNotFoundError
    (also a LookupError) naming the id."""
    await started_game(store)
    calls = [
        store.get_game(99),
        store.append_move(99, 0, "b2", T0),
        store.start_game(99, T0),
        store.update_seat(99, Player.FIRST, ADA),
        store.finish_game(99, None, Termination.ABORTED, T0),
    ]
    for call in calls:
        with pytest.raises(GameNotFoundError, match="no game with id 99"):
            await call
    assert issubclass(GameNotFoundError, LookupError)


async def test_writes_that_the_game_state_forbids_are_refused(store: GameStore) -> None:
    """Moves before the start or after the end, a start with an empty seat or a
    second start, seat changes once started, a never-started game ending other than
    aborted, and a second finish all raise GameStateError and change nothing."""
    waiting = await store.create_game("W", "tictactoe", (ADA, None), at=T0)
    with pytest.raises(GameStateError, match="in play"):
        await store.append_move(waiting, 0, "b2", T0 + 1)
    with pytest.raises(GameStateError, match="empty seat"):
        await store.start_game(waiting, T0 + 1)
    with pytest.raises(GameStateError, match="only as aborted"):
        await store.finish_game(waiting, None, Termination.AGREEMENT, T0 + 1)

    playing = await started_game(store)
    with pytest.raises(GameStateError, match="cannot start again"):
        await store.start_game(playing, T0 + 2)
    with pytest.raises(GameStateError, match="before it starts"):
        await store.update_seat(playing, Player.SECOND, AI)
    await store.finish_game(playing, Player.SECOND, Termination.TIMEOUT, T0 + 3)
    finished = await store.get_game(playing)
    with pytest.raises(GameStateError, match="in play"):
        await store.append_move(playing, 0, "b2", T0 + 4)
    with pytest.raises(GameStateError, match="already finished"):
        await store.finish_game(playing, None, Termination.AGREEMENT, T0 + 4)

    assert await store.get_game(playing) == finished
    assert (await store.get_game(waiting)).state is GameState.WAITING


@pytest.mark.parametrize(
    ("winner", "termination"),
    [
        (None, Termination.LINE),
        (None, Termination.RESIGNATION),
        (None, Termination.TIMEOUT),
        (Player.FIRST, Termination.FULL_BOARD),
        (Player.SECOND, Termination.AGREEMENT),
        (Player.FIRST, Termination.ABORTED),
    ],
)
async def test_a_winner_that_does_not_fit_the_ending_is_refused(
    store: GameStore, winner: Player | None, termination: Termination
) -> None:
    """A decisive ending needs a winner, a draw or an abort has none: otherwise
    InvalidRecordError, and the game stays in play."""
    game_id = await started_game(store)

    with pytest.raises(InvalidRecordError, match=termination.value):
        await store.finish_game(game_id, winner, termination, T0 + 2)

    assert (await store.get_game(game_id)).state is GameState.PLAYING


async def test_every_termination_can_be_stored_with_its_result(store: GameStore) -> None:
    """Each Termination value is stored and reads back with the right PGN-style
    result (the table has the endings of the games to come, count and no_moves,
    too; one it lacks fails here until given its result)."""
    expected = {
        "line": "1-0",
        "count": "1-0",
        "no_moves": "1-0",
        "full_board": "1/2-1/2",
        "resignation": "1-0",
        "agreement": "1/2-1/2",
        "timeout": "1-0",
        "abandonment": "1-0",
        "aborted": "*",
    }
    assert {termination.value for termination in Termination} <= set(expected)
    for termination in Termination:
        result = expected[termination.value]
        game_id = await started_game(store)
        winner = Player.FIRST if termination.allows(Player.FIRST) else None
        await store.finish_game(game_id, winner, termination, T0 + 2)
        record = await store.get_game(game_id)
        assert (record.termination, record.result) == (termination, result)
        assert f"Result    {result}, " in record_to_text(record)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "mnk-2-2-9"}, "winning line"),
        ({"room": ""}, "room"),
        ({"seats": (ADA,)}, "two entries"),
        ({"seats": (SeatRecord("x", PlayerKind.AI), None)}, "AI seat needs its level"),
        ({"seats": (SeatRecord("x", PlayerKind.HUMAN, "easy"), None)}, "AI seat"),
        ({"seats": (SeatRecord(" "), None)}, "name"),
        ({"options": {"clock": float("nan")}}, "JSON"),
        ({"options": {"when": object()}}, "JSON"),
        ({"at": float("inf")}, "Unix seconds"),
        ({"at": -1.0}, "Unix seconds"),
    ],
)
async def test_a_game_described_wrongly_is_refused_at_creation(
    store: GameStore, arguments: dict[str, object], message: str
) -> None:
    """create_game raises InvalidRecordError, naming what is wrong, for an unknown
    game, bad seats, options that are not JSON or a time that is not one; nothing
    is stored."""
    call: dict[str, object] = {"room": "R", "game": "tictactoe", "seats": (None, None), "at": T0}
    call |= arguments

    with pytest.raises(InvalidRecordError, match=message):
        await store.create_game(**call)  # type: ignore[arg-type]

    assert await store.games_by_state() == dict.fromkeys(GameState, 0)


async def test_a_move_described_wrongly_is_refused(store: GameStore) -> None:
    """append_move refuses an empty or spaced move, a negative ply or clock, and a
    time that is not finite, with InvalidRecordError and nothing stored."""
    game_id = await started_game(store)
    for ply, move, at, clock_ms in [
        (0, "", T0, None),
        (0, "b2 c3", T0, None),
        (-1, "b2", T0, None),
        (0, "b2", float("nan"), None),
        (0, "b2", T0, -5),
    ]:
        with pytest.raises(InvalidRecordError):
            await store.append_move(game_id, ply, move, at, clock_ms)
    assert (await store.get_game(game_id)).moves == ()


async def test_game_names_are_stored_in_their_canonical_form(store: GameStore) -> None:
    """mnk sizes that match a preset are stored by the preset's name; others keep
    their sizes in the name."""
    preset = await store.create_game("R", "mnk-3-3-3", at=T0)
    sized = await store.create_game("R", "mnk-5-5-4", at=T0)

    assert (await store.get_game(preset)).game == "tictactoe"
    assert (await store.get_game(sized)).game == "mnk-5-5-4"


async def test_moves_cannot_be_rewritten_even_from_outside_the_store(
    sqlite_store: GameStore, db_path: Path
) -> None:
    """The schema's triggers refuse to update, delete or insert out of order, so a
    second writer (the sqlite3 shell) cannot corrupt a record either."""
    store = sqlite_store
    game_id = await started_game(store)
    await store.append_move(game_id, 0, "b2", T0 + 2)

    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        for statement in [
            "UPDATE moves SET move = 'a1'",
            "DELETE FROM moves",
            f"INSERT INTO moves (game_id, ply, move, at) VALUES ({game_id}, 5, 'c3', 0)",
            f"INSERT INTO moves (game_id, ply, move, at) VALUES ({game_id}, 0, 'c3', 0)",
        ]:
            with pytest.raises(sqlite3.IntegrityError):
                other.execute(statement)

    assert [move.move for move in (await store.get_game(game_id)).moves] == ["b2"]


async def test_moves_cannot_be_rewritten_even_from_outside_the_postgres_store(
    postgres_database: str,
) -> None:
    """On PostgreSQL the same rules are PL/pgSQL triggers: psql (another client)
    cannot update, delete, truncate or insert a move out of order, nor add one to
    a finished game, nor change a tournament result once stored."""
    async with PostgresGameStore(postgres_database) as store:
        game_id = await started_game(store)
        await store.append_move(game_id, 0, "b2", T0 + 2)
        done = await started_game(store)
        await store.finish_game(done, None, Termination.AGREEMENT, T0 + 3)

        other = await asyncpg.connect(postgres_database)
        try:
            for statement in [
                "UPDATE moves SET move = 'a1'",
                "DELETE FROM moves",
                "TRUNCATE moves",
                f"INSERT INTO moves (game_id, ply, move, at) VALUES ({game_id}, 5, 'c3', 0)",
                f"INSERT INTO moves (game_id, ply, move, at) VALUES ({game_id}, 0, 'c3', 0)",
                f"INSERT INTO moves (game_id, ply, move, at) VALUES ({done}, 0, 'c3', 0)",
            ]:
                with pytest.raises(asyncpg.IntegrityConstraintViolationError):
                    await other.execute(statement)
        finally:
            await other.close()

        assert [move.move for move in (await store.get_game(game_id)).moves] == ["b2"]


# -- schema 2: sessions, game numbers, private codes ----------------------------------------

ANN = SeatRecord("ann", session="ann-session-id")
BOT = SeatRecord("bob", PlayerKind.BOT, session="bob-session-id")


async def test_sessions_and_game_numbers_round_trip(store: GameStore) -> None:
    """create_game with number and started_at stores a game already in play, in
    one step, and get_game gives back its number and each seat's session; a seat
    set later keeps its session too."""
    started = await store.create_game(
        "K3F9", "tictactoe", (ANN, AI), number=3, at=T0, started_at=T0 + 1
    )
    await store.append_move(started, 0, "b2", T0 + 2, 1_000)
    waiting = await store.create_game("W", "connect4", (None, None), at=T0)
    await store.update_seat(waiting, Player.FIRST, BOT)

    record = await store.get_game(started)
    assert (record.number, record.state, record.seats) == (3, GameState.PLAYING, (ANN, AI))
    assert (record.created_at, record.started_at) == (T0, T0 + 1)
    assert record.moves == (MoveRecord(0, "b2", T0 + 2, 1_000),)
    assert (await store.get_game(waiting)).seats == (BOT, None)
    assert (await store.get_game(waiting)).number == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seats": (ANN, None), "started_at": T0}, "both seats"),
        ({"started_at": float("nan")}, "started_at"),
        ({"number": 0}, "number"),
        ({"number": True}, "number"),
        ({"seats": (SeatRecord("AI", PlayerKind.AI, "easy", session="s"), None)}, "AI seat"),
        ({"seats": (SeatRecord("ann", session=""), None)}, "session"),
    ],
)
async def test_a_started_or_numbered_game_described_wrongly_is_refused(
    store: GameStore, arguments: dict[str, object], message: str
) -> None:
    """A game created started needs both seats; numbers start at 1; the AI has no
    session and a session is never empty. Nothing is stored."""
    call: dict[str, object] = {"room": "R", "game": "tictactoe", "seats": (ANN, BOT), "at": T0}
    call |= arguments

    with pytest.raises(InvalidRecordError, match=message):
        await store.create_game(**call)  # type: ignore[arg-type]

    assert await store.games_by_state() == dict.fromkeys(GameState, 0)


async def test_a_version_1_file_is_migrated_and_keeps_its_games(db_path: Path) -> None:
    """A file written at schema version 1 opens at the current version: its games read back
    as game 1 of their room with no sessions, and take new writes with them."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as v1:
        for statement in _MIGRATIONS[0]:
            v1.execute(statement)
        v1.execute("PRAGMA user_version = 1")
        v1.execute(
            "INSERT INTO games (room, game, options, state, created_at, started_at)"
            " VALUES ('OLD', 'tictactoe', '{}', 'playing', ?, ?)",
            (T0, T0 + 1),
        )
        v1.execute(
            "INSERT INTO seats (game_id, side, name, kind, ai_level)"
            " VALUES (1, 0, 'ada', 'human', NULL), (1, 1, 'AI', 'ai', 'easy')"
        )
        v1.execute("INSERT INTO moves (game_id, ply, move, at) VALUES (1, 0, 'b2', ?)", (T0 + 2,))

    async with GameStore(db_path) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION
        [old] = await store.unfinished_games()
        assert (old.id, old.room, old.number) == (1, "OLD", 1)
        ada, ai = old.seats
        assert ai == SeatRecord("AI", PlayerKind.AI, "easy")
        assert ada is not None and ada.name == "ada" and ada.session is None
        assert ada.player is not None  # a name seen once is a player (version 5)
        assert old.moves == (MoveRecord(0, "b2", T0 + 2),)
        await store.append_move(old.id, 1, "a1", T0 + 3)
        new = await store.create_game("NEW", "tictactoe", (ANN, BOT), number=2, at=T0)
        assert (await store.get_game(new)).seats == (ANN, BOT)
        assert (await store.get_game(new)).number == 2

    with closing(sqlite3.connect(db_path)) as other:
        assert other.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


async def test_the_exports_leave_out_sessions_and_private_codes(store: GameStore) -> None:
    """record_to_json and record_to_text, the public bodies of a game, show neither
    the seats' sessions nor the room's join and watch codes; the other options stay.
    A record's repr leaves the sessions out too."""
    options = {"public": False, "join_code": "JOIN-SECRET", "watch_code": "WATCH-SECRET"}
    game_id = await store.create_game(
        "K3F9", "tictactoe", (ANN, BOT), options=options, number=2, at=T0, started_at=T0
    )
    await store.append_move(game_id, 0, "b2", T0 + 1)
    record = await store.get_game(game_id)
    assert record.options == options and record.seats == (ANN, BOT)  # kept in the store

    exported = record_to_json(record)
    text = record_to_text(record)

    assert exported["options"] == {"public": False}
    assert exported["number"] == 2
    assert 'Options   {"public": false}' in text
    for public in (json.dumps(exported), text):
        for secret in ("JOIN-SECRET", "WATCH-SECRET", "join_code", "watch_code"):
            assert secret not in public
        for seat in (ANN, BOT):
            assert seat.session is not None and seat.session not in public
    for seat in (ANN, BOT):  # records end up in logs
        assert seat.session is not None and seat.session not in repr(record)


# -- restart and metrics ---------------------------------------------------------------------


async def test_unfinished_games_returns_waiting_and_playing_games_whole(store: GameStore) -> None:
    """unfinished_games gives every waiting or playing game, oldest first, with its
    seats, options and moves; games_by_state counts every state."""
    waiting = await store.create_game("A", "connect4", (None, BOB), options={"public": True}, at=T0)
    playing = await started_game(store, "gomoku", room="B")
    for ply, move in enumerate(["h8", "h9", "i9"]):
        await store.append_move(playing, ply, move, T0 + 2 + ply, 9_000 - ply)
    finished = await started_game(store, room="C")
    await store.finish_game(finished, None, Termination.AGREEMENT, T0 + 5)

    restored = await store.unfinished_games()

    assert restored == [await store.get_game(waiting), await store.get_game(playing)]
    assert restored[0].seats == (None, BOB) and restored[0].options == {"public": True}
    assert [move.move for move in restored[1].moves] == ["h8", "h9", "i9"]
    assert restored[1].moves[2] == MoveRecord(2, "i9", T0 + 4, 8_998)
    assert await store.games_by_state() == {
        GameState.WAITING: 1,
        GameState.PLAYING: 1,
        GameState.FINISHED: 1,
    }


async def test_a_seat_can_be_filled_changed_and_emptied_before_the_start(store: GameStore) -> None:
    """update_seat puts a player in a seat, replaces one, or empties it, while waiting."""
    game_id = await store.create_game("R", "tictactoe", (ADA, None), at=T0)

    await store.update_seat(game_id, Player.SECOND, BOB)
    await store.update_seat(game_id, Player.SECOND, AI)
    await store.update_seat(game_id, Player.FIRST, None)

    assert (await store.get_game(game_id)).seats == (None, AI)


# -- life cycle and cancellation ---------------------------------------------------------------


async def test_a_cancelled_append_still_ends_its_transaction(store: GameStore) -> None:
    """Cancelling the caller of append_move does not leave the connection inside a
    transaction: the move is either stored or not, and the store goes on working."""
    game_id = await started_game(store)
    task = asyncio.create_task(store.append_move(game_id, 0, "b2", T0 + 2))
    await asyncio.sleep(0)  # one turn of the loop: the append is under way when cancelled
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    record = await store.get_game(game_id)
    assert [move.move for move in record.moves] in (["b2"], [])
    await store.append_move(game_id, record.next_ply, "c3", T0 + 3)
    assert (await store.get_game(game_id)).moves[-1].move == "c3"


async def test_a_closed_store_refuses_every_operation(database: str) -> None:
    """Before open and after close, operations raise StoreClosedError; close is
    idempotent; a store cannot be opened twice."""
    store = open_store(database)
    with pytest.raises(StoreClosedError):
        await store.games_by_state()
    await store.open()
    with pytest.raises(StoreError, match="already open"):
        await store.open()
    await store.close()
    await store.close()
    with pytest.raises(StoreClosedError, match="not open"):
        await store.get_game(1)


async def test_close_waits_for_the_writes_under_way(database: str) -> None:
    """Writes started before close are on disk once close returns."""
    store = open_store(database)
    await store.open()
    game_id = await started_game(store)
    writes = [
        asyncio.create_task(store.append_move(game_id, ply, move, time.time()))
        for ply, move in enumerate(["a1", "b1", "c1"])
    ]
    await asyncio.sleep(0)  # one turn of the loop: the writes are under way when close comes
    await store.close()
    await asyncio.gather(*writes)

    async with open_store(database) as reopened:
        assert (await reopened.get_game(game_id)).next_ply == 3


async def test_moves_appended_together_are_committed_together_and_all_stored(
    database: str,
) -> None:
    """Group commit: appends made while a transaction runs share the next one; each
    returns once its own move is stored, and every one is there on reopening."""
    async with open_store(database) as store:
        games = [await started_game(store) for _ in range(20)]

        async def play(game_id: int) -> None:
            for ply, move in enumerate(["a1", "b1", "c1", "a2"]):
                await store.append_move(game_id, ply, move, time.time())

        await asyncio.gather(*(play(game_id) for game_id in games))
    async with open_store(database) as reopened:
        for game_id in games:
            assert (await reopened.get_game(game_id)).next_ply == 4


async def test_a_refused_move_in_a_batch_fails_alone(database: str) -> None:
    async with open_store(database) as store:
        first, second = await started_game(store), await started_game(store)
        results = await asyncio.gather(
            store.append_move(first, 0, "a1", time.time()),
            store.append_move(second, 5, "a1", time.time()),  # stale: ply 0 is next
            store.append_move(second, 0, "b1", time.time()),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StaleWriteError)
        assert (await store.get_game(first)).next_ply == 1
        assert (await store.get_game(second)).next_ply == 1


async def test_operations_take_effect_in_the_order_they_were_called(store: GameStore) -> None:
    """Writes started without waiting for each other land in call order, and a read
    called after them sees them all (on PostgreSQL too, whose reads run side by side)."""
    game_id = await store.create_game("R", "tictactoe", (ADA, None), at=T0)
    writes = [
        asyncio.create_task(store.update_seat(game_id, Player.SECOND, BOB)),
        asyncio.create_task(store.start_game(game_id, T0 + 1)),
        asyncio.create_task(store.append_move(game_id, 0, "b2", T0 + 2)),
        asyncio.create_task(
            store.finish_game(game_id, Player.FIRST, Termination.RESIGNATION, T0 + 3)
        ),
    ]
    await asyncio.sleep(0)  # one turn of the loop: every write is under way
    read = asyncio.create_task(store.get_game(game_id))

    await asyncio.gather(*writes)
    record = await read
    assert (record.state, record.seats, record.next_ply) == (GameState.FINISHED, (ADA, BOB), 1)
