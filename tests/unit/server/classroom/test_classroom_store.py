"""What class mode keeps in the store: a setting made once, the students (one
per player), their results, class accounts made in bulk, and merged entries."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from boardroom.server.core.players import (
    PlayerId,
    PlayerRecord,
    new_player_token,
    player_id_for,
    token_hash,
)
from boardroom.server.core.records import PlayerKind, SeatRecord, Termination
from boardroom.server.store import (
    ClassCodeRecord,
    ClassCodeTakenError,
    EntrantRecord,
    GameStore,
    InvalidRecordError,
    StudentNotFoundError,
    StudentRecord,
    StudentResults,
)
from boardroom.shared.games import Player

T0 = 1_746_100_800.0


def player_id(tag: str) -> PlayerId:
    """A player id for a short tag ("ann" -> p + the tag's hex, padded)."""
    return PlayerId("p" + tag.encode().hex().ljust(16, "0")[:16])


async def add_player(store: GameStore, tag: str) -> PlayerId:
    player = PlayerRecord(player_id(tag), tag, PlayerKind.HUMAN, created_at=T0)
    await store.add_player(player, None)
    return player.id


def student(student_id: str, tag: str, name: str, class_name: str = "7B") -> StudentRecord:
    return StudentRecord(
        student_id, class_name, player_id(tag), name, PlayerKind.HUMAN, T0, session=f"s-{tag}"
    )


async def finished_game(
    store: GameStore,
    first: str | None,
    second: str | None,
    winner: Player | None,
    termination: Termination,
) -> int:
    """A game between two players (by tag; None: the AI) that ended as told."""
    seats = tuple(
        SeatRecord("AI", PlayerKind.AI, "easy")
        if tag is None
        else SeatRecord(tag, session=f"s-{tag}", player=player_id(tag))
        for tag in (first, second)
    )
    game_id = await store.create_game("ROOM", "tictactoe", seats, at=T0, started_at=T0)
    await store.append_move(game_id, 0, "b2", T0 + 1)
    await store.finish_game(game_id, winner, termination, T0 + 2)
    return game_id


@pytest.fixture
async def players(store: GameStore) -> None:
    for tag in ("ann", "bob", "cy", "dan", "eve"):
        await add_player(store, tag)


async def test_a_setting_keeps_the_first_value_stored(store: GameStore) -> None:
    assert await store.setting("admin_token", "first") == "first"
    assert await store.setting("admin_token", "second") == "first"


async def test_a_changed_setting_replaces_the_value_stored(store: GameStore) -> None:
    """The class's autopilot: the teacher changes it, the next read has the new
    value; a setting not stored yet is stored by the change."""
    await store.change_setting("class_autopilot:7B", "easy")
    assert await store.setting("class_autopilot:7B", "") == "easy"
    await store.change_setting("class_autopilot:7B", "off")
    assert await store.setting("class_autopilot:7B", "") == "off"
    assert await store.setting("class_autopilot:7C", "") == ""
    with pytest.raises(InvalidRecordError):
        await store.change_setting("", "easy")
    assert await store.setting("class_autopilot:7B", "") == "off"


async def test_a_tournament_keeps_its_autopilot(store: GameStore) -> None:
    """Version 12: a tournament's autopilot is stored and read back; one created
    without saying has none (``off``), as those stored before the version."""
    made = {}
    for name, autopilot in (("Cup", "easy"), ("Plate", None)):
        chosen = {} if autopilot is None else {"autopilot": autopilot}
        record = await store.create_tournament(
            class_name="7B",
            name=name,
            game="tictactoe",
            format="swiss",
            rounds=1,
            double=False,
            clock={"kind": "none"},
            no_show_seconds=60.0,
            entrants=[EntrantRecord("ai:easy", "easy AI", PlayerKind.AI)],
            at=T0,
            **chosen,
        )
        made[name] = record.autopilot
        await store.end_tournament(record.id, "finished", T0 + 1)
    assert made == {"Cup": "easy", "Plate": "off"}
    stored = {t.name: t.autopilot for t in await store.tournaments("7B")}
    assert stored == made


@pytest.mark.usefixtures("players")
async def test_students_are_stored_changed_and_read_back_by_class(store: GameStore) -> None:
    await store.add_student(student("a1", "ann", "ann"))
    await store.add_student(student("b2", "bob", "bob"))
    await store.add_student(student("c3", "ann", "ann", class_name="8C"))  # another class
    await store.update_student("b2", name="Robert", kind=PlayerKind.BOT, removed=True)
    seven_b = await store.students("7B")
    # Both first seen at T0: by name, "R" before "a".
    assert [(s.id, s.player, s.name, s.kind, s.removed) for s in seven_b] == [
        ("b2", player_id("bob"), "Robert", PlayerKind.BOT, True),
        ("a1", player_id("ann"), "ann", PlayerKind.HUMAN, False),
    ]
    assert seven_b[1].session == "s-ann"
    assert "s-ann" not in repr(seven_b[1])  # the session is private
    assert [s.id for s in await store.students("8C")] == ["c3"]


@pytest.mark.usefixtures("players")
async def test_students_come_back_first_seen_first_then_by_name(store: GameStore) -> None:
    """The order is the same on every read: by first-seen time, and students
    seen at the same time by name (code point order, on both backends), never
    by their random ids."""
    later = replace(student("a1", "ann", "Ann"), first_seen=T0 + 1)
    await store.add_student(later)
    for student_id, tag, name in [("f9", "bob", "Zoë"), ("e0", "cy", "Zoe"), ("0d", "dan", "bob")]:
        await store.add_student(student(student_id, tag, name))  # all at T0
    assert [s.name for s in await store.students("7B")] == ["Zoe", "Zoë", "bob", "Ann"]


@pytest.mark.usefixtures("players")
@pytest.mark.parametrize(
    "bad",
    [
        student("a1", "bob", "again"),  # the id is taken
        student("z9", "ann", "ann"),  # the player is on the class's roster already
        StudentRecord("z9", "7B", player_id("zed"), "zed", PlayerKind.HUMAN, T0),  # no such player
        StudentRecord("z9", "7B", player_id("cy"), "cy", PlayerKind.AI, T0),
        student("z9", "cy", "  "),
    ],
    ids=["same id", "same player", "unknown player", "an AI", "blank name"],
)
async def test_a_bad_student_is_refused_and_nothing_is_stored(
    store: GameStore, bad: StudentRecord
) -> None:
    await store.add_student(student("a1", "ann", "ann"))
    with pytest.raises(InvalidRecordError):
        await store.add_student(bad)
    assert [s.id for s in await store.students("7B")] == ["a1"]


@pytest.mark.usefixtures("players")
async def test_updating_an_unknown_student_or_to_a_bad_value_is_refused(
    store: GameStore,
) -> None:
    with pytest.raises(StudentNotFoundError):
        await store.update_student("nobody", name="x")
    await store.add_student(student("a1", "ann", "ann"))
    with pytest.raises(InvalidRecordError):
        await store.update_student("a1", name=" ")
    with pytest.raises(InvalidRecordError):
        await store.update_student("a1", kind=PlayerKind.AI)
    assert (await store.students("7B"))[0].name == "ann"


@pytest.mark.usefixtures("players")
async def test_results_and_games_are_found_through_the_students_players(
    store: GameStore,
) -> None:
    """Wins, draws, losses and no results per student; the class's games are
    those where one of its students' players sat, and no others."""
    await store.add_student(student("a1", "ann", "ann"))
    await store.add_student(student("b2", "bob", "bob"))
    won = await finished_game(store, "ann", "bob", Player.FIRST, Termination.LINE)
    drawn = await finished_game(store, "bob", "ann", None, Termination.AGREEMENT)
    lost = await finished_game(store, "ann", None, Player.SECOND, Termination.RESIGNATION)
    nothing = await finished_game(store, "ann", None, None, Termination.ABORTED)
    await finished_game(store, "eve", "dan", Player.FIRST, Termination.LINE)  # not ours

    assert await store.class_results("7B") == {
        "a1": StudentResults(played=4, won=1, drawn=1, lost=1),
        "b2": StudentResults(played=2, won=0, drawn=1, lost=1),
    }
    assert [g.id for g in await store.class_games("7B")] == [won, drawn, lost, nothing]
    assert await store.class_games("8C") == []


def account(name: str, student_id: str) -> tuple[PlayerRecord, str, StudentRecord]:
    token = new_player_token()
    player = PlayerRecord(player_id_for(token), name, PlayerKind.HUMAN, created_at=T0)
    return (
        player,
        token_hash(token),
        StudentRecord(student_id, "7B", player.id, name, PlayerKind.HUMAN, T0),
    )


async def test_class_accounts_are_stored_together_or_not_at_all(store: GameStore) -> None:
    """enrol stores each player with its token's hash and its student in one
    transaction; one refused account (an id taken) leaves no player nor student."""
    ann, bob = account("Ann", "a1"), account("Bob", "b2")
    await store.enrol([ann, bob])
    assert [(s.id, s.name, s.player, s.session) for s in await store.students("7B")] == [
        ("a1", "Ann", ann[0].id, None),
        ("b2", "Bob", bob[0].id, None),
    ]
    assert await store.player_by_token_hash(ann[1]) == ann[0]

    cy, clash = account("Cy", "c3"), account("Dan", "a1")
    with pytest.raises(InvalidRecordError):
        await store.enrol([cy, clash])
    assert [s.id for s in await store.students("7B")] == ["a1", "b2"]
    assert await store.player_by_token_hash(cy[1]) is None


def code(student_id: str, tag: str) -> ClassCodeRecord:
    """A class code's record for a student (its lookup: 64 hex digits from ``tag``)."""
    return ClassCodeRecord(student_id, tag.encode().hex().ljust(64, "0")[:64], f"sealed-{tag}")


async def test_class_codes_are_stored_with_their_accounts_and_renewed(store: GameStore) -> None:
    """enrol stores each account's class code with it; a code is found by its
    lookup, and renewed (set_class_code) the old one finds nothing. A code that
    another student has (ClassCodeTakenError), or of no student, is refused,
    and the enrolment with it stores nothing."""
    ann, bob = account("Ann", "a1"), account("Bob", "b2")
    await store.enrol([ann, bob], [code("a1", "ann"), code("b2", "bob")])
    assert await store.class_code(code("a1", "ann").lookup) == code("a1", "ann")
    assert await store.class_code(code("a1", "zed").lookup) is None

    await store.set_class_code(code("a1", "ann2"))
    assert await store.class_code(code("a1", "ann").lookup) is None
    assert await store.class_code(code("a1", "ann2").lookup) == code("a1", "ann2")
    with pytest.raises(ClassCodeTakenError):
        await store.set_class_code(code("a1", "bob"))  # Bob's
    assert await store.class_code(code("a1", "ann2").lookup) == code("a1", "ann2")
    with pytest.raises(StudentNotFoundError):
        await store.set_class_code(code("zz", "zed"))

    cy, dan = account("Cy", "c3"), account("Dan", "d4")
    with pytest.raises(ClassCodeTakenError):
        await store.enrol([cy, dan], [code("c3", "cy"), code("d4", "bob")])
    with pytest.raises(InvalidRecordError):
        await store.enrol([cy], [code("a1", "cy")])  # not a student enrolled with it
    assert [s.id for s in await store.students("7B")] == ["a1", "b2"]
    assert await store.player_by_token_hash(cy[1]) is None
    assert await store.class_code(code("c3", "cy").lookup) is None


@pytest.mark.usefixtures("players")
async def test_a_merged_entry_leaves_the_roster_and_its_games_count_for_the_other(
    store: GameStore,
) -> None:
    """cy joined twice (two players); merged, her games are one record, her
    second player's token opens the first, and a later merge of the one she
    was merged into carries both along."""
    await store.add_student(student("c1", "cy", "cy"))
    await store.add_student(student("c2", "dan", "cy 2"))
    await store.add_student(student("b2", "bob", "bob"))
    await finished_game(store, "cy", "bob", Player.FIRST, Termination.LINE)
    await finished_game(store, "bob", "dan", Player.FIRST, Termination.LINE)

    await store.merge_students("c2", "c1")

    entries = {s.id: s.merged_into for s in await store.students("7B")}
    assert entries == {"c1": None, "c2": "c1", "b2": None}
    assert (await store.class_results("7B"))["c1"] == StudentResults(played=2, won=1, lost=1)
    assert await store.player_aliases() == {player_id("dan"): player_id("cy")}

    await store.merge_students("c1", "b2")
    entries = {s.id: s.merged_into for s in await store.students("7B")}
    assert entries == {"c1": "b2", "c2": "b2", "b2": None}
    assert await store.player_aliases() == {
        player_id("dan"): player_id("bob"),
        player_id("cy"): player_id("bob"),
    }


@pytest.mark.usefixtures("players")
@pytest.mark.parametrize(
    ("merged", "into", "error"),
    [
        ("c1", "c1", InvalidRecordError),
        ("c1", "nobody", StudentNotFoundError),
        ("c2", "c1", StudentNotFoundError),  # merged already: off the roster
        ("c1", "x8", InvalidRecordError),  # another class
    ],
)
async def test_a_bad_merge_is_refused_and_changes_nothing(
    store: GameStore, merged: str, into: str, error: type[Exception]
) -> None:
    await store.add_student(student("c1", "cy", "cy"))
    await store.add_student(student("c2", "dan", "cy 2"))
    await store.add_student(student("x8", "eve", "eve", class_name="8C"))
    await store.merge_students("c2", "c1")
    before = (await store.students("7B"), await store.player_aliases())

    with pytest.raises(error):
        await store.merge_students(merged, into)

    assert (await store.students("7B"), await store.player_aliases()) == before


def version_5_file(path: Path) -> None:
    """A class as schema version 5 kept it: a student a row per session, so ann,
    who joined three times with one token (once removed), has three rows; an old
    student without a player who sat in a game, and one who never did."""
    from boardroom.server.store.sqlite.schema import _MIGRATIONS

    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for step in _MIGRATIONS[:5]:
            for statement in step:
                if isinstance(statement, str):
                    db.execute(statement)
                else:
                    statement(db)
        db.execute("PRAGMA user_version = 5")
        for tag in ("ann", "old"):
            db.execute(
                "INSERT INTO players (id, name, kind, created_at) VALUES (?, ?, 'human', ?)",
                (player_id(tag), tag, T0),
            )
        db.execute(
            "INSERT INTO games (room, game, options, state, created_at) VALUES"
            " ('R', 'tictactoe', '{}', 'waiting', ?)",
            (T0,),
        )
        db.execute(
            "INSERT INTO seats (game_id, side, name, kind, session, player)"
            " VALUES (1, 0, 'old', 'human', 's-old', ?)",
            (player_id("old"),),
        )
        rows = [
            ("a1", "s-a1", "ann", 1, T0, player_id("ann")),
            ("a2", "s-a2", "ann", 0, T0 + 1, player_id("ann")),
            ("a3", "s-a3", "Ann", 0, T0 + 2, player_id("ann")),
            ("o1", "s-old", "old", 0, T0 + 3, None),
            ("n1", "s-new", "never", 0, T0 + 4, None),
        ]
        for row in rows:
            db.execute(
                "INSERT INTO students (id, class, session, name, kind, removed, first_seen,"
                " player) VALUES (?, '7B', ?, ?, 'human', ?, ?, ?)",
                (row[0], row[1], row[2], row[3], row[4], row[5]),
            )


async def test_a_version_5_class_upgrades_to_one_student_per_player(db_path: Path) -> None:
    """Ann's three rows become one entry (her latest row not removed) with the
    other two merged into it; the old student takes the player of his seat; the
    one who never sat gets a player of his own, with no token."""
    version_5_file(db_path)

    async with GameStore(db_path) as store:
        students = {s.id: s for s in await store.students("7B")}
        never = await store.get_player(students["n1"].player)

    assert {s.id: s.merged_into for s in students.values()} == {
        "a1": "a3",
        "a2": "a3",
        "a3": None,
        "o1": None,
        "n1": None,
    }
    assert students["a3"].player == students["a1"].player == player_id("ann")
    assert students["o1"].player == player_id("old")
    assert (never.name, never.has_token) == ("never", False)
    assert students["a2"].session == "s-a2"
    with closing(sqlite3.connect(db_path)) as db, pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO students (id, class, player, name, kind, first_seen)"
            " VALUES ('a9', '7B', ?, 'ann', 'human', 0)",
            (player_id("ann"),),
        )  # one entry per player and class on the roster
