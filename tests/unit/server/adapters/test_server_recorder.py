"""The recorder between rooms and the store: real rooms, a real SQLite file, a restart."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest

from boardroom.server.core.records import (
    GameState,
    PlayerKind,
    SeatRecord,
    Termination,
    record_to_json,
)
from boardroom.server.core.room import (
    ClientId,
    GameFinished,
    GameStarted,
    MoveMade,
    Output,
    PersistEvent,
    Room,
    RoomOptions,
)
from boardroom.server.recorder import (
    GameRecorder,
    RestoredRoom,
    UnrecordedGameError,
    options_from_json,
    options_to_json,
)
from boardroom.server.store import GameStateError, GameStore, StaleWriteError, Store, open_store
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import Clock, Error, MakeMove, Rematch

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
T0 = 1_746_100_800.0  # 2025-05-01 12:00:00 UTC
CODE = "K7Q2"
FISCHER = Clock(kind="increment", initial=300, increment=2)
SECRETS = {"join_code": "JOIN-SECRET", "watch_code": "WATCH-SECRET"}


# -- helpers -------------------------------------------------------------------------------


def new_room(game: str = "tictactoe", code: str = CODE, **options: Any) -> Room:
    options = SECRETS | options
    return Room(code, game, options=RoomOptions(**options), rng=random.Random(1), now=T0)


async def persisted(recorder: GameRecorder, room: Room, output: Output) -> Output:
    """Persist ``output``'s events as the server does, before its messages go out."""
    await recorder.persist(room.options, output.events)
    return output


async def seat_both(recorder: GameRecorder, room: Room, *, now: float = T0) -> None:
    """Ann, then Bob, take the seats; the game starts."""
    await persisted(recorder, room, room.seat(ANN, "ann", PlayerKind.HUMAN, now=now))
    await persisted(recorder, room, room.seat(BOB, "bob", PlayerKind.BOT, now=now))
    assert room.status == "playing"


async def play(
    recorder: GameRecorder, room: Room, moves: str, *, start: float = T0, step: float = 7
) -> list[Output]:
    """Whoever is to move plays the next of ``moves``, ``step`` seconds apart."""
    outputs = []
    for i, text in enumerate(moves.split()):
        now = start + step * (i + 1)
        mover = ANN if room.side_of(ANN) == room.state_for(None, now=now).to_move else BOB
        output = room.handle(mover, MakeMove(room=room.code, move=text), now=now)
        assert not any(isinstance(m, Error) for _, m in output.messages), output.messages
        outputs.append(await persisted(recorder, room, output))
    return outputs


async def restart(database: str, old: Store) -> tuple[Store, GameRecorder]:
    """Close ``old`` and open the same database again, as a restarted server does."""
    await old.close()
    store = open_store(database)
    await store.open()
    return store, GameRecorder(store)


def seeded(code: str) -> random.Random:
    return random.Random(code)


# -- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        RoomOptions(),
        RoomOptions(
            public=False, creator_seat="random", clock=FISCHER, join_code="J1", watch_code="W1"
        ),
        RoomOptions(creator_seat="second", clock=Clock(kind="per_move", per_move=30)),
        RoomOptions(grace_seconds=12.5, join_code="J"),
    ],
)
def test_options_round_trip_through_json(options: RoomOptions) -> None:
    """options_to_json gives a JSON object with every option, and options_from_json
    gives the same options back from it."""
    stored = json.loads(json.dumps(options_to_json(options)))

    assert set(stored) == {
        "public", "creator_seat", "clock", "grace_seconds", "join_code", "watch_code"
    }  # fmt: skip
    assert options_from_json(stored) == options


def test_stored_options_that_do_not_fit_raise_value_error() -> None:
    """Missing options take their defaults and unknown ones are ignored; a wrong
    type or options that do not fit together raise ValueError naming the option."""
    assert options_from_json({"public": False, "later": 1}) == RoomOptions(public=False)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"public": "yes"}, "public"),
        ({"clock": {"kind": "per_move"}}, "per_move"),
        ({"grace_seconds": 0}, "grace_seconds"),
        ({"creator_seat": "middle"}, "creator_seat"),
    ]
    for data, option in cases:
        with pytest.raises(ValueError, match=option):
            options_from_json(data)


# -- persisting and restoring ----------------------------------------------------------------


async def test_a_game_in_play_comes_back_after_a_restart(database: str, store: GameStore) -> None:
    """Moves persisted one output at a time survive closing the store: a new
    recorder rebuilds the room with the same moves, seats and sessions, game
    number, options and clocks, and the game then goes on to a stored result."""
    recorder = GameRecorder(store)
    room = new_room("connect4", clock=FISCHER)
    await seat_both(recorder, room)
    await play(recorder, room, "4 4 5 3")
    game_id = recorder.game_id(CODE, 1)
    assert game_id is not None

    store, recorder = await restart(database, store)
    try:
        [restored] = await recorder.restore_rooms(seeded)

        assert restored.game_id == game_id == recorder.game_id(CODE, 1)
        back = restored.room
        assert (back.code, back.game.name, back.moves, back.game_number) == (
            CODE,
            "connect4",
            "4453",
            1,
        )
        assert back.options == room.options
        assert (back.side_of(ANN), back.side_of(BOB)) == ("first", "second")
        live = room.state_for(ANN, now=T0 + 28)
        again = back.state_for(ANN, now=T0 + 9_000)  # paused while the server was down
        assert [(s.name, s.kind) for s in again.seats] == [("ann", "human"), ("bob", "bot")]
        assert again.clocks == live.clocks

        back.resume_after_restart(T0 + 9_000)
        back.reconnected(ANN, now=T0 + 9_001)
        back.reconnected(BOB, now=T0 + 9_001)
        outputs = await play(recorder, back, "5 3 6 3 7", start=T0 + 9_001, step=1)
        assert isinstance(outputs[-1].events[-1], GameFinished)

        record = await store.get_game(game_id)
        assert (record.state, record.winner, record.termination) == (
            GameState.FINISHED,
            Player.FIRST,
            Termination.LINE,
        )
        assert "".join(move.move for move in record.moves) == "445353637"
        assert record.seats == (
            SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
            SeatRecord("bob", PlayerKind.BOT, session=BOB),
        )
        assert record.options == options_to_json(room.options)
        assert recorder.game_id(CODE, 1) is None  # finished: no longer in play

        exported = json.dumps(record_to_json(record))
        for secret in (*SECRETS.values(), ANN, BOB):
            assert secret not in exported
    finally:
        await store.close()


async def test_the_autopilot_and_its_moves_come_back_after_a_restart(
    database: str, store: GameStore
) -> None:
    """A room with ``autopilot: hard`` whose engine played for Bob: the restart
    keeps the option (stored with the room's options) and the flag of the move
    the engine made. Restored, Bob's seat is held again for a whole window from
    the restart; Ann comes back, and when Bob's window runs out the engine takes
    his seat again, at the stored level."""
    recorder = GameRecorder(store)
    room = new_room(autopilot="hard")
    await seat_both(recorder, room)
    await play(recorder, room, "b2")
    await persisted(recorder, room, room.disconnected(BOB, now=T0 + 8))
    (request,) = (await persisted(recorder, room, room.tick(T0 + 68))).ai_requests
    assert request.level == "hard"
    await persisted(recorder, room, room.ai_moved(1, 1, "a1", now=T0 + 69))
    game_id = recorder.game_id(CODE, 1)
    assert game_id is not None
    assert options_to_json(room.options)["autopilot"] == "hard"

    store, recorder = await restart(database, store)
    try:
        record = await store.get_game(game_id)
        assert [move.autopilot for move in record.moves] == [False, True]
        [restored] = await recorder.restore_rooms(seeded)
        back = restored.room
        assert back.options == room.options and back.moves == "b2 a1"
        back.resume_after_restart(T0 + 1_000)
        back.reconnected(ANN, now=T0 + 1_001)
        assert back.state_for(ANN, now=T0 + 1_001).seats[1].autopilot is None
        await play(recorder, back, "c3", start=T0 + 1_001, step=1)
        (again,) = back.tick(T0 + 1_061).ai_requests
        assert (again.level, again.side) == ("hard", "second")
        assert back.state_for(ANN, now=T0 + 1_061).seats[1].autopilot == "hard"
    finally:
        await store.close()


async def test_a_rematch_is_its_own_record_numbered_2(database: str, store: GameStore) -> None:
    """Game 2 of a room gets a new id and number 2, with the sides swapped and the
    sessions kept; after a restart the room comes back at game 2."""
    recorder = GameRecorder(store)
    room = new_room()
    await seat_both(recorder, room)
    await play(recorder, room, "a1 b1 a2 b2")
    first_id = recorder.game_id(CODE, 1)
    await play(recorder, room, "a3", start=T0 + 28)
    await persisted(recorder, room, room.handle(ANN, Rematch(room=CODE), now=T0 + 60))
    output = await persisted(recorder, room, room.handle(BOB, Rematch(room=CODE), now=T0 + 61))
    assert [type(event) for event in output.events] == [GameStarted]
    await play(recorder, room, "b2", start=T0 + 61)

    second_id = recorder.game_id(CODE, 2)
    assert first_id is not None and second_id is not None and second_id != first_id
    second = await store.get_game(second_id)
    assert (second.room, second.number, second.state) == (CODE, 2, GameState.PLAYING)
    assert second.seats == (
        SeatRecord("bob", PlayerKind.BOT, session=BOB),
        SeatRecord("ann", session=ANN),
    )
    assert (await store.get_game(first_id)).number == 1

    store, recorder = await restart(database, store)
    try:
        [restored] = await recorder.restore_rooms(seeded)
        assert restored.game_id == second_id
        assert (restored.room.game_number, restored.room.moves) == (2, "b2")
        assert (restored.room.side_of(BOB), restored.room.side_of(ANN)) == ("first", "second")
    finally:
        await store.close()


async def test_an_ai_seat_comes_back_and_is_asked_to_move(database: str, store: GameStore) -> None:
    """The AI's seat is stored with its level and no session; restored with the AI
    to move, the room asks the engine on resume."""
    recorder = GameRecorder(store)
    room = new_room(creator_seat="first")
    await persisted(recorder, room, room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0))
    await persisted(recorder, room, room.add_ai("easy", now=T0))
    await play(recorder, room, "b2")
    game_id = recorder.game_id(CODE, 1)
    assert game_id is not None
    assert (await store.get_game(game_id)).seats[1] == SeatRecord(
        "AI (easy)", PlayerKind.AI, "easy"
    )

    store, recorder = await restart(database, store)
    try:
        [restored] = await recorder.restore_rooms(seeded)
        [request] = restored.room.resume_after_restart(T0 + 100).ai_requests
        assert (request.level, request.ply, request.moves) == ("easy", 1, "b2")
    finally:
        await store.close()


async def test_a_result_lost_in_the_crash_is_stored_on_resume(
    database: str, store: GameStore
) -> None:
    """The winning move was stored but the crash came before the end: the room
    comes back finished and its resume emits the end, which the recorder stores."""
    recorder = GameRecorder(store)
    room = new_room()
    await seat_both(recorder, room)
    await play(recorder, room, "a1 b1 a2 b2")
    winning = room.handle(ANN, MakeMove(room=CODE, move="a3"), now=T0 + 40)
    moved = [event for event in winning.events if isinstance(event, MoveMade)]
    await recorder.persist(room.options, moved)  # ... and the crash

    store, recorder = await restart(database, store)
    try:
        [restored] = await recorder.restore_rooms(seeded)
        assert restored.room.status == "finished"
        await recorder.persist(
            restored.room.options, restored.room.resume_after_restart(T0 + 99).events
        )
        record = await store.get_game(restored.game_id)
        assert (record.winner, record.termination, record.finished_at) == (
            Player.FIRST,
            Termination.LINE,
            T0 + 40,
        )
        assert recorder.game_id(CODE, 1) is None  # its end is stored: no longer in play
    finally:
        await store.close()


async def test_records_that_cannot_come_back_are_aborted_and_skipped(
    database: str, store: GameStore, caplog: pytest.LogCaptureFixture
) -> None:
    """On restore, a record that does not replay (an illegal move written behind
    the room's back) is logged and ended as aborted, and so is a game left
    waiting by an older server; the good rooms still come back."""
    recorder = GameRecorder(store)
    good, bad = new_room(code="GOOD"), new_room(code="BAD1")
    for room in (good, bad):
        await seat_both(recorder, room)
        await play(recorder, room, "b2")
    bad_id = recorder.game_id("BAD1", 1)
    assert bad_id is not None
    await store.append_move(bad_id, 1, "b2", T0 + 20)  # the cell is taken
    waiting_id = await store.create_game(
        "WAIT", "tictactoe", (SeatRecord("x", session="x"), None), at=T0
    )

    store, recorder = await restart(database, store)
    try:
        with caplog.at_level(logging.WARNING, logger="boardroom.server.recorder"):
            restored = await recorder.restore_rooms(seeded)

        assert [r.room.code for r in restored] == ["GOOD"]
        assert all(isinstance(r, RestoredRoom) for r in restored)
        assert f"game {bad_id} " in caplog.text
        for game_id, ended in [(bad_id, T0 + 20), (waiting_id, T0)]:
            record = await store.get_game(game_id)
            assert (record.state, record.termination, record.winner) == (
                GameState.FINISHED,
                Termination.ABORTED,
                None,
            )
            assert record.finished_at == ended
        assert recorder.game_id("BAD1", 1) is None
        assert await store.unfinished_games() == [await store.get_game(restored[0].game_id)]
    finally:
        await store.close()


async def test_a_move_for_a_game_never_started_is_refused(store: GameStore) -> None:
    """A move or an end for a game that the recorder did not store as started
    raises UnrecordedGameError and writes nothing."""
    recorder = GameRecorder(store)
    events: list[PersistEvent] = [
        MoveMade(CODE, 1, 0, "first", "b2", T0),
        GameFinished(CODE, 1, None, Termination.ABORTED, T0),
    ]
    for event in events:
        with pytest.raises(UnrecordedGameError, match=f"room {CODE}"):
            await recorder.persist(RoomOptions(), [event])
    assert await store.games_by_state() == dict.fromkeys(GameState, 0)


async def test_a_write_stored_although_its_answer_was_lost_is_not_stored_twice(
    store: GameStore,
) -> None:
    """A move (or an end) whose commit went through while its answer was lost (a
    database stopped at that moment: the room undid the move and it is sent
    again) is taken as stored when it comes again; another move at that ply is
    still refused (StaleWriteError), and so is an end that is not the one stored."""
    recorder = GameRecorder(store)
    room = new_room()
    await seat_both(recorder, room)
    game_id = recorder.game_id(CODE, 1)
    assert game_id is not None
    move = MoveMade(CODE, 1, 0, Player.FIRST, "b2", T0 + 1)
    await store.append_move(game_id, 0, "b2", T0 + 1, None)  # the lost answer's write
    await recorder.persist(room.options, [move])  # sent again: taken as stored
    with pytest.raises(StaleWriteError):
        await recorder.persist(room.options, [MoveMade(CODE, 1, 0, Player.FIRST, "a1", T0 + 2)])
    assert [m.move for m in (await store.get_game(game_id)).moves] == ["b2"]

    end = GameFinished(CODE, 1, Player.SECOND, Termination.RESIGNATION, T0 + 3)
    await store.finish_game(game_id, Player.SECOND, Termination.RESIGNATION, T0 + 3)
    other = GameFinished(CODE, 1, None, Termination.AGREEMENT, T0 + 3)
    with pytest.raises(GameStateError):
        await recorder.persist(room.options, [other])
    await recorder.persist(room.options, [end])
    assert recorder.game_id(CODE, 1) is None
