"""The analyses' rows and the rules version they were made by (schema 9): an
analysis stored under older rules reads as not made under newer ones, and is
replaced review by review when made again, never mixed with new reviews. Each
test of ``store`` runs on SQLite and on PostgreSQL; the upgrade from a version 8
file on a real SQLite file."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from boardroom.server.core.records import SeatRecord, Termination
from boardroom.server.store import SCHEMA_VERSION, GameStore, Store
from boardroom.server.store.sqlite.schema import _MIGRATIONS
from boardroom.shared.games import Player

T0 = 1_746_100_800.0
OLD, NEW = 1, 2


async def finished_game(store: Store) -> int:
    game_id = await store.create_game(
        "ROOM", "tictactoe", (SeatRecord("ada"), SeatRecord("bob")), at=T0
    )
    await store.start_game(game_id, T0 + 1)
    for ply, move in enumerate(["b2", "a2", "a1", "c3", "c1", "b1", "a3"]):
        await store.append_move(game_id, ply, move, T0 + 2 + ply, None)
    await store.finish_game(game_id, Player.FIRST, Termination.LINE, T0 + 10)
    return game_id


def review(ply: int, judgement: str) -> str:
    return f'{{"ply": {ply}, "judgement": "{judgement}"}}'


async def test_an_analysis_of_older_rules_reads_as_not_made_and_is_replaced(store: Store) -> None:
    game_id = await finished_game(store)
    for ply in range(2):
        await store.add_review(game_id, ply, review(ply, "mistake"), rules=OLD)
    await store.finish_analysis(game_id, seconds_per_position=0.2, at=T0 + 20, rules=OLD)
    assert await store.analysis(game_id, rules=OLD) == (
        [review(0, "mistake"), review(1, "mistake")],
        True,
    )
    assert await store.analysis(game_id, rules=NEW) == ([], False)
    assert await store.unanalysed_games(since=T0, limit=5, rules=NEW) == [game_id]
    assert await store.unanalysed_games(since=T0, limit=5, rules=OLD) == []
    assert (await store.analyses_of([game_id], rules=NEW))[game_id][0] == []

    # Made again under the new rules: each review replaces the old one as it comes.
    await store.add_review(game_id, 0, review(0, "blunder"), rules=NEW)
    assert await store.analysis(game_id, rules=NEW) == ([review(0, "blunder")], False)
    assert await store.analysis(game_id, rules=OLD) == ([], False)  # its first move is gone
    await store.add_review(game_id, 0, review(0, "best"), rules=NEW)  # the first one stands
    await store.add_review(game_id, 1, review(1, "best"), rules=NEW)
    await store.add_review(game_id, 1, review(1, "mistake"), rules=OLD)  # older: never over newer
    await store.finish_analysis(game_id, seconds_per_position=0.5, at=T0 + 30, rules=NEW)
    await store.finish_analysis(game_id, seconds_per_position=0.2, at=T0 + 40, rules=OLD)
    done = ([review(0, "blunder"), review(1, "best")], True)
    assert await store.analysis(game_id, rules=NEW) == done
    assert await store.unanalysed_games(since=T0, limit=5, rules=NEW) == []
    assert (await store.analyses_of([game_id], rules=NEW))[game_id][0] == done[0]


def version_8_file(path: Path) -> None:
    """A file as issue 24's release wrote it (schema 8), with a finished game and
    its complete analysis under the old rules."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for step in _MIGRATIONS[:8]:
            for statement in step:
                if isinstance(statement, str):
                    db.execute(statement)
                else:
                    statement(db)
        db.execute("PRAGMA user_version = 8")
        db.execute(
            "INSERT INTO games (room, game, options, state, winner, termination,"
            " created_at, started_at, finished_at)"
            " VALUES ('OLD', 'tictactoe', '{}', 'finished', 0, 'resignation', ?, ?, ?)",
            (T0, T0, T0 + 5),
        )
        db.execute(
            "INSERT INTO analysis_moves (game_id, ply, review) VALUES (1, 0, ?)",
            (review(0, "mistake"),),
        )
        db.execute(
            "INSERT INTO analyses (game_id, seconds_per_position, finished_at) VALUES (1, 0.2, ?)",
            (T0 + 6,),
        )


async def test_a_version_8_file_keeps_its_analyses_as_made_by_the_first_rules(
    db_path: Path,
) -> None:
    """Upgraded in place: the stored analysis is rules version 1, complete under
    those, not made under newer ones (so the next view makes it again)."""
    version_8_file(db_path)

    async with GameStore(db_path) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION == 12
        assert await store.analysis(1, rules=OLD) == ([review(0, "mistake")], True)
        assert await store.analysis(1, rules=NEW) == ([], False)
        assert await store.unanalysed_games(since=T0, limit=5, rules=NEW) == [1]
    with closing(sqlite3.connect(db_path)) as db:
        assert db.execute("SELECT rules_version FROM analysis_moves").fetchall() == [(1,)]
        assert db.execute("SELECT rules_version FROM analyses").fetchall() == [(1,)]
