"""What class mode keeps in the store: a setting made once, the students, their results."""

from __future__ import annotations

import pytest

from server.core.records import PlayerKind, SeatRecord, Termination
from server.store import (
    GameStore,
    InvalidRecordError,
    StudentNotFoundError,
    StudentRecord,
    StudentResults,
)
from shared.games import Player

T0 = 1_746_100_800.0


def student(student_id: str, session: str, name: str, class_name: str = "7B") -> StudentRecord:
    return StudentRecord(student_id, class_name, session, name, PlayerKind.HUMAN, T0)


async def finished_game(
    store: GameStore,
    first: str | None,
    second: str | None,
    winner: Player | None,
    termination: Termination,
) -> int:
    """A game between two sessions (None: the AI) that ended as told."""
    seats = tuple(
        SeatRecord("AI", PlayerKind.AI, "easy") if s is None else SeatRecord(s, session=s)
        for s in (first, second)
    )
    game_id = await store.create_game("ROOM", "tictactoe", seats, at=T0, started_at=T0)
    await store.append_move(game_id, 0, "b2", T0 + 1)
    await store.finish_game(game_id, winner, termination, T0 + 2)
    return game_id


async def test_a_setting_keeps_the_first_value_stored(store: GameStore) -> None:
    assert await store.setting("admin_token", "first") == "first"
    assert await store.setting("admin_token", "second") == "first"


async def test_students_are_stored_changed_and_read_back_by_class(store: GameStore) -> None:
    await store.add_student(student("a1", "s-ann", "ann"))
    await store.add_student(student("b2", "s-bob", "bob"))
    await store.add_student(student("c3", "s-ann", "ann", class_name="8C"))  # another class
    await store.update_student("b2", name="Robert", kind=PlayerKind.BOT, removed=True)
    seven_b = await store.students("7B")
    assert [(s.id, s.name, s.kind, s.removed) for s in seven_b] == [
        ("a1", "ann", PlayerKind.HUMAN, False),
        ("b2", "Robert", PlayerKind.BOT, True),
    ]
    assert "s-ann" not in repr(seven_b[0])  # the session is private
    assert [s.id for s in await store.students("8C")] == ["c3"]


@pytest.mark.parametrize(
    "bad",
    [
        student("a1", "s-other", "again"),  # the id is taken
        student("z9", "s-ann", "ann"),  # the session is in the class already
        StudentRecord("z9", "7B", "s-z", "zed", PlayerKind.AI, T0),
        student("z9", "s-z", "  "),
    ],
    ids=["same id", "same session", "an AI", "blank name"],
)
async def test_a_bad_student_is_refused_and_nothing_is_stored(
    store: GameStore, bad: StudentRecord
) -> None:
    await store.add_student(student("a1", "s-ann", "ann"))
    with pytest.raises(InvalidRecordError):
        await store.add_student(bad)
    assert [s.id for s in await store.students("7B")] == ["a1"]


async def test_updating_an_unknown_student_or_to_a_bad_value_is_refused(
    store: GameStore,
) -> None:
    with pytest.raises(StudentNotFoundError):
        await store.update_student("nobody", name="x")
    await store.add_student(student("a1", "s-ann", "ann"))
    with pytest.raises(InvalidRecordError):
        await store.update_student("a1", name=" ")
    with pytest.raises(InvalidRecordError):
        await store.update_student("a1", kind=PlayerKind.AI)
    assert (await store.students("7B"))[0].name == "ann"


async def test_results_and_games_are_found_through_the_students_sessions(
    store: GameStore,
) -> None:
    """Wins, draws, losses and no results per student; the class's games are
    those where one of its students sat, and no others."""
    await store.add_student(student("a1", "s-ann", "ann"))
    await store.add_student(student("b2", "s-bob", "bob"))
    won = await finished_game(store, "s-ann", "s-bob", Player.FIRST, Termination.LINE)
    drawn = await finished_game(store, "s-bob", "s-ann", None, Termination.AGREEMENT)
    lost = await finished_game(store, "s-ann", None, Player.SECOND, Termination.RESIGNATION)
    nothing = await finished_game(store, "s-ann", None, None, Termination.ABORTED)
    await finished_game(store, "s-eve", "s-dan", Player.FIRST, Termination.LINE)  # not ours

    assert await store.class_results("7B") == {
        "a1": StudentResults(played=4, won=1, drawn=1, lost=1),
        "b2": StudentResults(played=2, won=0, drawn=1, lost=1),
    }
    assert [g.id for g in await store.class_games("7B")] == [won, drawn, lost, nothing]
    assert await store.class_games("8C") == []
