"""Write ``schema-9.sqlite`` and ``schema-9.reads.jsonl`` with the store of schema
version 9 (the code before issue 26), for test_a_database_of_the_previous_schema_reads_as_before.

Run once, from a checkout of that code (not this one: this one writes the
current schema), and commit both files::

    git archive 6343b2d | tar -x -C /tmp/v9
    cd /tmp/v9 && python tests/data/make_schema_9_db.py OUT_DIR

It fills a file through the public store API with one of everything the store
keeps: players, games in every state (seats, moves with and without a clock, a
win, a draw, an abort), a class with its students, a class code and a
tournament, an analysis with hints; then writes, one line per read, what every
reader of the store returns as plain JSON (:func:`plain`: records as their
fields, private ones included, enums as their values, so a renamed class or
enum changes nothing), which the test compares with what today's store reads
from the migrated copy.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
import sys
from pathlib import Path
from typing import Any

from boardroom.server.core.players import PlayerId, PlayerRecord
from boardroom.server.core.records import PlayerKind, SeatRecord, Termination
from boardroom.server.store import (
    ClassCodeRecord,
    EntrantRecord,
    GameStore,
    PairingRecord,
    StudentRecord,
)
from boardroom.shared.games import Player

T0 = 1_700_000_000.0
ADA = PlayerRecord(PlayerId("p" + "a" * 16), "ada", PlayerKind.HUMAN, T0)
BOB = PlayerRecord(PlayerId("p" + "b" * 16), "bob", PlayerKind.BOT, T0)
HASH_ADA, HASH_BOB = "1" * 64, "2" * 64


async def fill(store: GameStore) -> list[int]:
    """One of everything; the ids of the games."""
    await store.enrol(
        [
            (ADA, HASH_ADA, StudentRecord("s1", "maths", ADA.id, "ada", PlayerKind.HUMAN, T0)),
            (BOB, HASH_BOB, StudentRecord("s2", "maths", BOB.id, "bob", PlayerKind.BOT, T0)),
        ],
        [ClassCodeRecord("s1", "3" * 64, "ab" * 16)],
    )
    await store.player_seen(ADA.id, name="Ada", at=T0 + 5)
    seats = (
        SeatRecord("Ada", PlayerKind.HUMAN, None, "sess-a", ADA.id),
        SeatRecord("bob", PlayerKind.BOT, None, "sess-b", BOB.id),
    )
    ai = SeatRecord("AI", PlayerKind.AI, "easy")
    games = []
    # A win by a line, with clocks.
    clock = {"clock": {"initial": 60}}
    won = await store.create_game(
        "ROOM1", "tictactoe", seats, options=clock, at=T0 + 10, started_at=T0 + 11
    )
    for ply, move in enumerate(["a1", "b1", "a2", "b2", "a3"]):
        await store.append_move(won, ply, move, T0 + 12 + ply, 60_000 - ply * 100)
    await store.finish_game(won, Player.FIRST, Termination.LINE, T0 + 20)
    games.append(won)
    # A draw by agreement, against the AI, on Connect Four; the rematch of room 1.
    drawn = await store.create_game(
        "ROOM1", "connect4", (seats[1], ai), at=T0 + 30, number=2, started_at=T0 + 31
    )
    for ply, move in enumerate(["4", "4", "3"]):
        await store.append_move(drawn, ply, move, T0 + 32 + ply)
    await store.finish_game(drawn, None, Termination.AGREEMENT, T0 + 40)
    games.append(drawn)
    # Resigned by the second player.
    resigned = await store.create_game("ROOM2", "tictactoe", (seats[1], seats[0]), at=T0 + 50)
    await store.start_game(resigned, T0 + 51)
    await store.append_move(resigned, 0, "a1", T0 + 52)
    await store.finish_game(resigned, Player.FIRST, Termination.RESIGNATION, T0 + 53)
    games.append(resigned)
    # Aborted before it started.
    aborted = await store.create_game("ROOM3", "gomoku", (seats[0], None), at=T0 + 60)
    await store.finish_game(aborted, None, Termination.ABORTED, T0 + 61)
    games.append(aborted)
    # In play, and waiting: what a restart restores.
    playing = await store.create_game("ROOM4", "mnk-4-4-3", (seats[0], ai), at=T0 + 70)
    await store.start_game(playing, T0 + 71)
    await store.append_move(playing, 0, "a1", T0 + 72, 5_000)
    games.append(playing)
    waiting = await store.create_game("ROOM5", "tictactoe", (None, seats[1]), at=T0 + 80)
    games.append(waiting)
    # An analysis, complete, and hints.
    for ply in range(5):
        await store.add_review(won, ply, f'{{"ply": {ply}, "judgement": "good"}}', rules=2)
    await store.finish_analysis(won, seconds_per_position=0.5, at=T0 + 90, rules=2)
    await store.add_hint(won, 2, "a2", T0 + 13)
    # A tournament of the class, one round paired, one result.
    tournament = await store.create_tournament(
        class_name="maths",
        name="Friday",
        game="tictactoe",
        format="round_robin",
        rounds=1,
        double=False,
        clock={"initial": 60, "increment": 0},
        no_show_seconds=120.0,
        entrants=[
            EntrantRecord("student:s1", "Ada", PlayerKind.HUMAN),
            EntrantRecord("student:s2", "bob", PlayerKind.BOT),
            EntrantRecord("ai:easy", "AI (easy)", PlayerKind.AI),
        ],
        at=T0 + 100,
        hints=True,
    )
    await store.open_round(
        tournament.id,
        1,
        "ai:easy",
        [PairingRecord(1, 1, "student:s1", "student:s2", "ROOM1", won, T0 + 200, "1-0")],
        T0 + 101,
    )
    await store.setting("admin_token", "t0ken")
    return games


def plain(value: Any) -> Any:
    """``value`` as JSON takes it: a record as its fields by name, an enum as its
    value (a side its number), a mapping as ``[key, value]`` pairs in key order, a
    tuple as a list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Player):
        # A side as the store keeps it, 0 or 1 (Player's value until it became the
        # wire's word in issue 26; the stored column never changed).
        return list(Player).index(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return sorted([plain(key), plain(item)] for key, item in value.items())
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


async def reads(store: GameStore, games: list[int]) -> list[str]:
    """What every reader returns, one JSON text a line (the same calls as the test's)."""
    results: list[Any] = [await store.get_game(game_id) for game_id in games]
    results += [
        await store.unfinished_games(),
        await store.games_by_state(),
        await store.get_player(ADA.id),
        await store.player_by_token_hash(HASH_BOB),
        await store.player_aliases(),
        await store.students("maths"),
        await store.class_code("3" * 64),
        await store.class_results("maths"),
        await store.class_games("maths"),
        await store.tournaments("maths"),
        await store.games_with_result(),
        await store.player_names([ADA.id, BOB.id]),
        await store.analysis(games[0], rules=2),
        await store.hints(games[0]),
        await store.analyses_of(games, rules=2),
        await store.unanalysed_games(since=T0, limit=10, rules=2),
        await store.setting("admin_token", "other"),
    ]
    return [json.dumps(plain(result), sort_keys=True) for result in results]


async def main(out: Path) -> None:
    database = out / "schema-9.sqlite"
    async with GameStore(database) as store:
        assert (await store.info()).schema_version == 9, "run this with the code of schema 9"
        games = await fill(store)
        lines = await reads(store, games)
    (out / "schema-9.reads.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
