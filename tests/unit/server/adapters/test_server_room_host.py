"""The room host undoes an input the store refuses for now: the room is as if it never came.

The host copies the room once in :data:`~boardroom.server.room_host.REPLAY_LIMIT`
inputs, not before each (issue 29); a refused input is undone by going back to
the copy and running the inputs since it again. Each test plays a real
:class:`~boardroom.server.core.room.Room` through a real :class:`RoomHost`, a
recorder in memory that refuses when told, and a twin room fed the same inputs
at the same times but never the refused one: the two must be equal in every
part, their random sources included.
"""

from __future__ import annotations

import asyncio
import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import Room, RoomOptions
from boardroom.server.core.room_output import ClientId, GameStarted, Output, PersistEvent
from boardroom.server.room_host import REPLAY_LIMIT, RoomHost, RoomStorageUnavailableError
from boardroom.server.store.errors import StorageUnavailableError
from boardroom.shared.protocol.messages import (
    Clock,
    DeclineDraw,
    Error,
    MakeMove,
    OfferDraw,
    ServerMessage,
)

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
CODE = "K7Q2"
T0 = 1_700_000_000.0


def new_room(game: str = "tictactoe", *, seed: int = 1, **options: Any) -> Room:
    options.setdefault("join_code", "JOIN1")
    return Room(CODE, game, options=RoomOptions(**options), rng=random.Random(seed), now=T0)


def snapshot(room: Room) -> dict[str, Any]:
    """Every part of ``room``, copied, and its random source's state."""
    state = {k: copy.deepcopy(v) for k, v in vars(room).items() if k != "_rng"}
    state["rng"] = room._rng.getstate()
    return state


class RefusingRecorder:
    """Keeps what it is given in memory; refuses every write while ``refusing``."""

    def __init__(self) -> None:
        self.refusing = False
        self.stored: list[PersistEvent] = []
        self._ids: dict[tuple[str, int], int] = {}

    async def persist(self, options: RoomOptions, events: Sequence[PersistEvent]) -> None:
        await asyncio.sleep(0)  # a store answers on a later turn of the loop
        if self.refusing:
            raise StorageUnavailableError("refused for the test", retry_after=0.01)
        for event in events:
            if isinstance(event, GameStarted):
                self._ids[event.room, event.game_number] = len(self._ids) + 1
        self.stored.extend(events)

    def game_id(self, room: str, game_number: int) -> int | None:
        return self._ids.get((room, game_number))


class SilentEngine:
    """An engine that never answers: the tests feed the AI's moves themselves."""

    async def search(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.Event().wait()


Input = Callable[[Room], Callable[[float], Output]]
"""One input, for any room: ``make(room)`` is its step on ``room``."""


class Pair:
    """A host's room and a twin fed each stored input at the same time."""

    def __init__(self, room: Room, twin: Room) -> None:
        self.recorder = RefusingRecorder()
        self.sent: list[tuple[ClientId, ServerMessage]] = []
        self.host = RoomHost(
            room,
            recorder=self.recorder,
            engine=SilentEngine(),  # type: ignore[arg-type]
            deliver=lambda client, message, text: self.sent.append((client, message)),
            after=lambda host, output: None,
        )
        self.twin = twin

    async def stored(self, make: Input, *, error: bool = False) -> tuple[Output, Output]:
        """Run the input through the host; the twin gets it at the same time. Both
        outputs. The input is taken (``error``: refused by the rules)."""
        step = make(self.host.room)
        times: list[float] = []

        def timed(now: float) -> Output:
            times.append(now)
            return step(now)

        held = self.host.room.saving_paused
        output = await self.host.run(timed)
        assert any(isinstance(message, Error) for _, message in output.messages) == error
        # After a refusal the host holds the room's clock, and runs it on from the
        # next input stored: the twin's clock likewise, at the host's times.
        if held:
            self.twin.release_clock(times[0])
        twins = make(self.twin)(times[0])
        if held:
            self.twin.saving_resumed(self.host._last_now)
        return output, twins

    async def refused(self, make: Input) -> None:
        """Run the input while the store refuses: undone; the twin never gets it."""
        self.recorder.refusing = True
        with pytest.raises(RoomStorageUnavailableError):
            await self.host.run(make(self.host.room))
        self.recorder.refusing = False
        self.twin.hold_clock(self.host._last_now)  # as the host holds its room's


def moving(client: ClientId, text: str) -> Input:
    return lambda room: lambda now: room.handle(client, MakeMove(room=CODE, move=text), now=now)


def asking(client: ClientId, request: Any) -> Input:
    return lambda room: lambda now: room.handle(client, request, now=now)


def seating(client: ClientId, name: str) -> Input:
    return lambda room: lambda now: room.seat(client, name, PlayerKind.HUMAN, now=now)


def clocked_connect4() -> Room:
    return new_room("connect4", clock=Clock(kind="increment", initial=300, increment=2))


async def test_a_move_refused_after_more_inputs_than_the_replay_limit_is_undone() -> None:
    """Ann and Bob play Connect Four on a clock, with draw offers declined between
    moves: more inputs than the host runs between two copies of the room, so the
    refused move is undone by a copy and a replay. The room equals its twin after
    the refusal, and again after the same move goes through once the store is back."""
    pair = Pair(clocked_connect4(), clocked_connect4())
    await pair.stored(seating(ANN, "ann"))
    await pair.stored(seating(BOB, "bob"))
    columns = "1 2 3 4 5 6 7 1 2 3 4 5 6 7 1 2 3 4"
    inputs = 2
    for ply, column in enumerate(columns.split()):
        mover, other = (ANN, BOB) if ply % 2 == 0 else (BOB, ANN)
        await pair.stored(asking(mover, OfferDraw(room=CODE)))
        await pair.stored(asking(other, DeclineDraw(room=CODE)))
        await pair.stored(moving(mover, column))
        inputs += 3
    assert inputs > REPLAY_LIMIT + 10

    await pair.refused(moving(ANN, "5"))
    assert snapshot(pair.host.room) == snapshot(pair.twin)
    assert pair.host.room.moves == pair.twin.moves

    await pair.stored(moving(ANN, "5"))
    assert snapshot(pair.host.room) == snapshot(pair.twin)


async def test_an_input_that_was_refused_by_the_rules_replays_as_refused() -> None:
    """An illegal move (an error for its sender, nothing changed) among the inputs
    replayed is refused again in the replay: the room equals its twin."""
    pair = Pair(new_room(), new_room())
    await pair.stored(seating(ANN, "ann"))
    await pair.stored(seating(BOB, "bob"))
    await pair.stored(moving(ANN, "b2"))
    await pair.stored(moving(BOB, "b2"), error=True)  # taken: refused by the rules
    await pair.stored(moving(BOB, "a1"))
    await pair.refused(moving(ANN, "c3"))
    assert snapshot(pair.host.room) == snapshot(pair.twin)
    await pair.stored(moving(ANN, "c3"))
    assert snapshot(pair.host.room) == snapshot(pair.twin)


async def test_the_ai_asks_with_the_same_seeds_after_an_undo_by_replay() -> None:
    """Each of Ann's moves against the server AI draws its search's seed from the
    room's random source. After a refused move, undone by a replay of the draws
    before it, Ann's move sent again asks with the seed the twin's asks with."""

    def ai_room() -> Room:
        room = new_room(seed=4)
        room.seat(ANN, "ann", PlayerKind.HUMAN, now=room.created_at)
        room.add_ai("easy", now=room.created_at)
        return room

    pair = Pair(ai_room(), ai_room())

    def ai_answer(ply: int, text: str) -> Input:
        return lambda room: lambda now: room.ai_moved(room.game_number, ply, text, now=now)

    await pair.stored(moving(ANN, "b2"))
    await pair.stored(ai_answer(1, "a1"))
    await pair.stored(moving(ANN, "c1"))
    await pair.stored(ai_answer(3, "a3"))
    await pair.refused(moving(ANN, "a2"))
    assert snapshot(pair.host.room) == snapshot(pair.twin)

    again, twins = await pair.stored(moving(ANN, "a2"))
    (asked,) = again.ai_requests
    assert asked.seed is not None
    assert again.ai_requests == twins.ai_requests
    assert snapshot(pair.host.room) == snapshot(pair.twin)
    pair.host.close()
