"""Schema versions 10 and 11: a database of schema 9 reads as before, the schema
holds no list of endings (the code's Termination is the one list), and every
move stored before version 11 reads as a player's own (``autopilot`` false).

``tests/data/schema-9.sqlite`` was written by the store of schema 9 (the code
before issue 26) with ``tests/data/make_schema_9_db.py``, which says how; the
same script wrote ``schema-9.reads.jsonl``, what every reader of that store gave
back from it, one ``repr`` a line.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from types import ModuleType
from typing import Any

import asyncpg
import pytest
from services import PostgresServer

from boardroom.server.core.players import PlayerId, PlayerRecord
from boardroom.server.core.records import (
    GameState,
    PlayerKind,
    SeatRecord,
    Termination,
    record_to_json,
    record_to_text,
)
from boardroom.server.store import (
    SCHEMA_VERSION,
    GameStore,
    InvalidRecordError,
    PostgresGameStore,
    Store,
    StudentRecord,
    StudentResults,
    UnreadableRecordError,
)
from boardroom.server.store.postgres.schema import _MIGRATIONS as _POSTGRES_MIGRATIONS
from boardroom.shared.games import Player

DATA = Path(__file__).parents[3] / "data"
T0 = 1_746_100_800.0


def _fixture_script() -> ModuleType:
    """tests/data/make_schema_9_db.py: the reads the test repeats are its own."""
    spec = importlib.util.spec_from_file_location("make_schema_9_db", DATA / "make_schema_9_db.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _without_autopilot(line: str) -> str:
    """A read of today's store as the store of schema 9 gave it: each move's
    ``autopilot`` (version 11's) must be false, and a tournament's (version
    12's) ``off``, as the games of a tournament stored before it were: both are
    left out."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            if "autopilot" in value and "ply" in value:
                assert value.pop("autopilot") is False, value
            if "autopilot" in value and "no_show_seconds" in value:
                assert value.pop("autopilot") == "off", value
            return {key: strip(item) for key, item in value.items()}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return json.dumps(strip(json.loads(line)), sort_keys=True)


def _schema(path: Path) -> dict[str, str | None]:
    with closing(sqlite3.connect(path)) as db:
        return dict(
            db.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        )


async def test_a_database_of_the_previous_schema_reads_as_before(tmp_path: Path) -> None:
    """The file of schema 9, opened by today's store, is migrated to today's version
    and every reader gives back what the store of schema 9 gave (each move marked
    as its player's own, not the autopilot's): games in every state
    with their seats (sessions too) and moves, players, the class, its code and
    tournament, the ratings' games, the analysis and hints, a setting. The games
    table keeps its ids, its AUTOINCREMENT high-water mark, its indexes and every
    CHECK but the list of endings; the other tables, indexes and triggers are as
    they were; the foreign keys hold."""
    path = tmp_path / "old.sqlite"
    shutil.copyfile(DATA / "schema-9.sqlite", path)
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (9,)
        # As if games 7 to 40 had been made and purged: their ids stay used.
        db.execute("UPDATE sqlite_sequence SET seq = 40 WHERE name = 'games'")
        db.commit()
    before = _schema(path)
    script = _fixture_script()
    expected = (DATA / "schema-9.reads.jsonl").read_text().splitlines()

    async with GameStore(path) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION == 12
        reads = await script.reads(store, [1, 2, 3, 4, 5, 6])
        assert [_without_autopilot(line) for line in reads] == expected
        first = await store.get_game(1)
        assert [seat.session for seat in first.seats if seat] == ["sess-a", "sess-b"]
        assert (await store.create_game("NEW", "tictactoe", at=T0)) == 41

    after = _schema(path)
    assert set(after) == set(before)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"games", "moves", "tournaments"}
    assert "autopilot INTEGER NOT NULL DEFAULT 0" in str(after["moves"])
    assert "autopilot TEXT NOT NULL DEFAULT 'off'" in str(after["tournaments"])
    old_games, new_games = str(before["games"]), str(after["games"])
    assert "'full_board'" in old_games and "'full_board'" not in new_games
    assert "CHECK (termination <> '')" in new_games
    for kept in (
        "AUTOINCREMENT",
        "CHECK (state IN ('waiting', 'playing', 'finished'))",
        "CHECK (winner IN (0, 1))",
        "CHECK (number >= 1)",
        "CHECK ((state = 'finished') = (termination IS NOT NULL AND finished_at IS NOT NULL))",
        "CHECK (state <> 'playing' OR started_at IS NOT NULL)",
        "CHECK (winner IS NULL OR state = 'finished')",
    ):
        assert kept in new_games
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


async def test_the_migrated_tables_still_refuse_what_they_refused(tmp_path: Path) -> None:
    """After the rebuild, the games table's CHECKs, the foreign keys and the moves'
    append-only triggers still refuse a bad write."""
    path = tmp_path / "old.sqlite"
    shutil.copyfile(DATA / "schema-9.sqlite", path)
    async with GameStore(path):
        pass

    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA foreign_keys = ON")
        for bad in (
            "UPDATE games SET state = 'lost' WHERE id = 6",
            "UPDATE games SET termination = '' WHERE id = 1",
            "UPDATE games SET winner = 2 WHERE id = 1",
            "UPDATE games SET termination = NULL WHERE id = 1",
            "INSERT INTO seats (game_id, side, name, kind) VALUES (99, 0, 'x', 'human')",
            "UPDATE moves SET move = 'b3' WHERE game_id = 1 AND ply = 0",
            "DELETE FROM moves WHERE game_id = 1",
            "INSERT INTO moves (game_id, ply, move, at) VALUES (1, 5, 'c1', 0)",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                db.execute(bad)


async def _execute(database: str, sql: str) -> None:
    """Run ``sql`` on ``database`` (a SQLite file or a PostgreSQL URL) from a
    connection of the test's own, as another writer (the shell, psql) would."""
    if database.startswith("postgresql://"):
        other = await asyncpg.connect(database)
        try:
            await other.execute(sql)
        finally:
            await other.close()
    else:
        with closing(sqlite3.connect(database)) as db:
            db.execute(sql)
            db.commit()


async def _finished_by_sql(store: Store, database: str, termination: str) -> int:
    """A game started through the store, then finished with ``termination`` by SQL."""
    game_id = await store.create_game("R", "tictactoe", (SeatRecord("a"), SeatRecord("b")), at=T0)
    await store.start_game(game_id, T0 + 1)
    await _execute(
        database,
        "UPDATE games SET state = 'finished', winner = 0,"
        f" termination = '{termination}', finished_at = {T0 + 2} WHERE id = {game_id}",
    )
    return game_id


async def test_the_schema_takes_an_ending_it_does_not_list(store: Store, database: str) -> None:
    """A new game's ending (Othello's 'count') needs no migration: the schema takes
    any non-empty termination, on both backends, and refuses an empty one."""
    game_id = await _finished_by_sql(store, database, "count")

    if "count" in {termination.value for termination in Termination}:
        assert (await store.get_game(game_id)).termination is Termination("count")
    refusals: tuple[type[Exception], ...] = (sqlite3.IntegrityError, asyncpg.CheckViolationError)
    with pytest.raises(refusals):
        await _finished_by_sql(store, database, "")


async def test_an_ending_this_code_does_not_know_is_refused_by_name(
    store: Store, database: str
) -> None:
    """A game stored with an ending only a newer Boardroom knows: reading it raises
    UnreadableRecordError naming the game and the ending (not a bare ValueError),
    and the store goes on: the other games, the restore list and the ratings'
    games read as ever."""
    other = await store.create_game("R", "tictactoe", (SeatRecord("a"), SeatRecord("b")), at=T0)
    game_id = await _finished_by_sql(store, database, "by_a_newer_boardroom")

    with pytest.raises(
        UnreadableRecordError, match=f"game {game_id} ended by 'by_a_newer_boardroom'"
    ):
        await store.get_game(game_id)

    assert (await store.get_game(other)).state is GameState.WAITING
    assert [record.id for record in await store.unfinished_games()] == [other]
    assert [result for _, _, _, result, _ in await store.games_with_result()] == ["1-0"]


async def test_a_class_counts_a_won_count_as_won_and_an_equal_one_as_drawn(
    store: Store, database: str
) -> None:
    """A count (Othello's ending) may have a winner or be a draw: the class's
    results count it by the winner, as a draw only without one."""
    players = [PlayerRecord(PlayerId(f"p{c * 16}"), c, PlayerKind.HUMAN, T0) for c in "ab"]
    await store.enrol(
        [
            (
                player,
                f"{n}" * 64,
                StudentRecord(f"s{n}", "7B", player.id, player.name, player.kind, T0),
            )
            for n, player in enumerate(players, start=1)
        ]
    )
    seats = [SeatRecord(player.name, player=player.id) for player in players]
    for winner in ("0", "NULL"):
        game_id = await store.create_game("R", "tictactoe", seats, at=T0, started_at=T0 + 1)
        await _execute(
            database,
            f"UPDATE games SET state = 'finished', winner = {winner}, termination = 'count',"
            f" finished_at = {T0 + 2} WHERE id = {game_id}",
        )

    results = await store.class_results("7B")

    assert results["s1"] == StudentResults(played=2, won=1, drawn=int(_count_may_draw()), lost=0)
    assert results["s2"] == StudentResults(played=2, won=0, drawn=int(_count_may_draw()), lost=1)


def _count_may_draw() -> bool:
    """Whether this code knows 'count' as an ending that may be a draw (Othello's
    rules, once they are in)."""
    known = {termination.value: termination for termination in Termination}
    return "count" in known and known["count"].is_draw


async def _postgres_at_version_9(url: str) -> None:
    """The PostgreSQL schema as version 9 left it, built by the frozen steps."""
    db = await asyncpg.connect(url)
    try:
        async with db.transaction():
            for target, statements in _POSTGRES_MIGRATIONS:
                if target > 9:
                    break
                for statement in statements:
                    await db.execute(statement)
            await db.execute("INSERT INTO schema_version (version) VALUES (9)")
            await db.execute(
                "INSERT INTO games (room, game, options, state, winner, termination,"
                " created_at, started_at, finished_at) VALUES"
                " ('R', 'tictactoe', '{}', 'finished', 1, 'line', 1, 2, 3)"
            )
    finally:
        await db.close()


async def test_a_postgres_database_of_the_previous_schema_is_migrated(
    postgres_server: PostgresServer,
) -> None:
    """A PostgreSQL database at version 9 opens at today's version: its game reads back,
    the list of endings is gone (a new ending is taken) and the CHECK that replaces
    it still refuses an empty one."""
    url = postgres_server.new_database()
    await _postgres_at_version_9(url)
    with pytest.raises(asyncpg.CheckViolationError):
        await _execute(url, "UPDATE games SET termination = 'count' WHERE id = 1")

    async with PostgresGameStore(url) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION == 12
        record = await store.get_game(1)
        assert (record.winner, record.termination) == (Player.SECOND, Termination.LINE)

    await _execute(url, "UPDATE games SET termination = 'count' WHERE id = 1")
    with pytest.raises(asyncpg.CheckViolationError):
        await _execute(url, "UPDATE games SET termination = '' WHERE id = 1")


async def test_a_move_the_autopilot_made_reads_back_flagged(store: Store) -> None:
    """Version 11: each move keeps whether the server's engine made it for an
    absent player, on both backends; a move appended without saying is a player's
    own. Anything but a bool is refused before it is stored."""
    game_id = await store.create_game("R", "tictactoe", (SeatRecord("a"), SeatRecord("b")), at=T0)
    await store.start_game(game_id, T0 + 1)
    await store.append_move(game_id, 0, "b2", T0 + 2)
    await store.append_move(game_id, 1, "a1", T0 + 3, autopilot=True)
    record = await store.get_game(game_id)
    assert [(move.move, move.autopilot) for move in record.moves] == [("b2", False), ("a1", True)]
    assert [move["autopilot"] for move in record_to_json(record)["moves"]] == [False, True]
    assert "a1 (1.0s, played by the engine)" in record_to_text(record)
    with pytest.raises(InvalidRecordError):
        await store.append_move(game_id, 2, "c3", T0 + 4, autopilot=1)  # type: ignore[arg-type]


async def test_a_game_with_an_autopilot_move_is_rated_only_if_asked(store: Store) -> None:
    """games_with_result leaves out a finished game with a move the autopilot
    made (unless ``with_autopilot``), on both backends; a game without one is in."""
    seats = (SeatRecord("a"), SeatRecord("b"))
    for number, autopilot in enumerate((False, True), start=1):
        game_id = await store.create_game("R", "tictactoe", seats, at=T0, number=number)
        await store.start_game(game_id, T0 + 1)
        await store.append_move(game_id, 0, "b2", T0 + 2)
        await store.append_move(game_id, 1, "a1", T0 + 3, autopilot=autopilot)
        await store.finish_game(game_id, Player.FIRST, Termination.RESIGNATION, T0 + 4)
    assert len(await store.games_with_result()) == 1
    assert len(await store.games_with_result(with_autopilot=True)) == 2
