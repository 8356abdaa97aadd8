"""The adapter that runs one sans-I/O :class:`~boardroom.server.core.room.Room` on the event loop.

A :class:`RoomHost` feeds the room its inputs one at a time (a lock per room) and
carries out each :class:`~boardroom.server.core.room_output.Output` as the room's contract says:

1. persist the events through the :class:`~boardroom.server.recorder.GameRecorder` and wait
   until they are durable (so a broadcast move survives a SIGKILL); a move that
   ends its game goes with that end, in one transaction;
2. deliver the messages, each encoded once however many receive it (twice for
   an AI's ``moved`` with its search: whole for the clients that asked for
   search info, without it for the rest);
3. start a task per AI request: a search in the engine pool (never on the loop),
   whose answer (the move, and the search that found it) is fed back as the
   room's next input;
4. arm a timer for ``next_deadline`` that feeds ``tick``.

If the store is unavailable for now
(:class:`~boardroom.server.store.StorageUnavailableError`: PostgreSQL down or
unreachable, SQLite locked by another process), the input is undone: the room is put
back as it was before it (:meth:`Room.rollback` to a copy taken at most
:data:`REPLAY_LIMIT` inputs ago, and the inputs since run again), nothing of it is sent, the room's
clock stands still (:meth:`Room.hold_clock`: the first time, every member gets the state
with ``saving_paused``, so their clocks stop too; once an input is stored again, the
state without it, :meth:`Room.saving_resumed`), and :meth:`RoomHost.run` raises
:class:`RoomStorageUnavailableError`, a ``storage_unavailable`` refusal with
``retry_after`` for the client whose request it was (it sends it again later: the game
pauses, it does not end). The host's own inputs (the clock's timer, the AI's move) are
tried again after ``retry_after``. Only the first event of an output (a move with the
end it brings: one write) can be undone so: once one is stored, the rest are retried
in place until they are stored too (the room waits, holding its lock). After
``outage_limit`` seconds of refusals with no store in between, the room is closed as
below, with ``storage_lost``.

If the store fails otherwise (a bug, a schema error, a corrupt file), nothing of that
output is sent (the room's memory may be ahead of the disk, so it cannot be trusted
to go on): every member is told (``internal_error``) and the host refuses further input with
:class:`RoomUnavailableError`. The rest of the server carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import msgspec

from boardroom.server import stage_clock
from boardroom.server.core.engine_queue import SERVER, EnginePriority, Submitter
from boardroom.server.core.room import Room, RoomOptions, RoomSnapshot
from boardroom.server.core.room_output import (
    AiRequest,
    ClientId,
    GameFinished,
    Output,
    PersistEvent,
    RoomStatus,
    search_info,
    without_search,
    write_units,
)
from boardroom.server.engine_pool import EngineBusyError, EnginePool, EngineUnavailableError
from boardroom.server.store.errors import StorageUnavailableError
from boardroom.shared.engine.levels import plan_search
from boardroom.shared.errors import BoardroomError
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    Error,
    GameOver,
    RoomSummary,
    SearchInfo,
    ServerMessage,
    State,
)

logger = logging.getLogger(__name__)

ENGINE_BUSY_RETRIES = 20
"""Tries to get a full engine queue to take a search, a quarter second apart,
before the AI plays a fallback move instead: a game must never stall."""
ENGINE_BUSY_PAUSE = 0.25
CLOCK_SHARE = 0.1
"""Share of the AI's time left that one search may use, when the room has a clock."""


REPLAY_LIMIT = 32
"""Inputs a room runs between two copies of itself (its checkpoints). The store
refusing an input for now must leave the room as before it (see the module
docstring). A copy of the room before every input did that, and cost about a tenth
of the server's CPU a move (issue 29); the room is now copied before one input in
this many, or fewer, and an input refused is undone by going back to the copy and
running the inputs since it again: the room's step is a pure function of the
room, the input, its time and the room's random source (put back with it), so the
replay makes the very room that was. Refusals are rare (the database down): the
replay's cost, at most this many inputs, is paid then, not on every move."""

STORAGE_OUTAGE_LIMIT = 600.0
"""Seconds of storage refusals in a row (no event stored in between) after which a
room is closed (``storage_lost``): the config's ``storage_outage_limit``."""


class RoomUnavailableError(Exception):
    """The room failed (its storage did) and takes no more input."""


class RoomStorageLostError(RoomUnavailableError, ProtocolError):
    """The room is closed: its game could not be stored for longer than the
    host's ``outage_limit``. A ``storage_lost`` refusal (the request that found
    it so, and every one after); a :class:`RoomUnavailableError` too."""

    def __init__(self, room: str, limit: float) -> None:
        message = f"room {room} closed: the server could not save its game for {limit:g} s"
        RoomUnavailableError.__init__(self, message)
        ProtocolError.__init__(self, ErrorCode.STORAGE_LOST, message)


class RoomStorageUnavailableError(ProtocolError):
    """The input was undone: its events could not be stored for now. A
    ``storage_unavailable`` refusal, with ``retry_after`` (seconds)."""

    def __init__(self, room: str, retry_after: float) -> None:
        super().__init__(
            ErrorCode.STORAGE_UNAVAILABLE,
            f"room {room}: the server cannot save games for now, so this was not done; "
            f"send it again in {retry_after:g} s",
            retry_after=retry_after,
        )


class Recorder(Protocol):
    """Persists room events durably (:class:`boardroom.server.recorder.GameRecorder`)."""

    async def persist(self, options: RoomOptions, events: Sequence[PersistEvent]) -> None: ...

    def game_id(self, room: str, game_number: int) -> int | None:
        """The stored id of the game in play (None if it is not stored)."""
        ...


Deliver = Callable[[ClientId, ServerMessage, str], None]
"""Send one message, already encoded, to one client (dropped if it is not connected)."""
Step = Callable[[float], Output]
"""One room input, given the time ``now``."""
EngineOrder = Callable[[AiRequest], tuple[EnginePriority, Submitter]]
"""How urgent an AI search is and whom it is for, in the engine's queue
(:mod:`boardroom.server.core.engine_queue`)."""


def _seated_order(request: AiRequest) -> tuple[EnginePriority, Submitter]:
    return EnginePriority.SEATED, SERVER


class RoomHost:
    """One room, its codes, its lock, its timer and its AI task."""

    def __init__(
        self,
        room: Room,
        *,
        recorder: Recorder,
        engine: EnginePool,
        deliver: Deliver,
        after: Callable[[RoomHost, Output], None],
        quick: bool = False,
        on_search: Callable[[float, str | None], None] | None = None,
        wants_search: Callable[[ClientId], bool] = lambda client: False,
        engine_order: EngineOrder = _seated_order,
        outage_limit: float = STORAGE_OUTAGE_LIMIT,
    ) -> None:
        """``after`` runs after every carried-out output (the server updates its
        lobby and metrics there); ``on_search(seconds, fallback_reason)`` after
        every engine search; ``wants_search(client)`` says whether a client asked
        for the AI's search with its moves (``hello.search_info``);
        ``engine_order(request)`` the search's priority and submitter in the
        engine's queue."""
        self.room = room
        self.code = room.code
        self.quick = quick
        self._recorder = recorder
        self._engine = engine
        self._deliver = deliver
        self._after = after
        self._on_search = on_search
        self._wants_search = wants_search
        self._engine_order = engine_order
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._failed = False
        self._lost = False
        """Failed for an outage past the limit (``storage_lost``)."""
        self._closed = False
        self._outage_limit = outage_limit
        self._unstored_since: float | None = None
        """Monotonic time of the first storage refusal since the last event stored."""
        self._clock_held = False
        """The room's clock is stopped (:meth:`Room.hold_clock`) since a storage
        refusal: nobody is charged for the time a move waits to be saved."""
        self._last_now = room.created_at
        """The latest time handed to the room: :meth:`Room.handle` and the other
        inputs need a ``now`` that never decreases (see :meth:`_now`)."""
        self._ended_game_id: int | None = None
        """The stored id of the room's last game once it ended here."""
        self._checkpoint: RoomSnapshot | None = None
        """The room as it was before the first of ``_since``: with them, what undoes
        an input the store refuses for now (:meth:`_undo_last_input`). None: the
        next input takes one."""
        self._since: list[tuple[Step, float]] = []
        """The inputs run since ``_checkpoint`` (the one running now last), each
        with its ``now``."""

    # -- what the lobby reads -----------------------------------------------------------

    @property
    def public(self) -> bool:
        """Listed, and open to anyone with the room code."""
        return self.room.options.public

    @property
    def game_name(self) -> str:
        """The canonical name of the room's game."""
        return self.room.game.name

    @property
    def game_id(self) -> int | None:
        """The stored id of the room's game in play, or of its last game once over
        (None before any game is stored, or for a game that ended before a restart)."""
        in_play = self._recorder.game_id(self.code, self.room.game_number)
        return in_play if in_play is not None else self._ended_game_id

    @property
    def lost(self) -> bool:
        """True once the room was closed for an outage past the limit (``storage_lost``):
        its game's last input, and its end, were never stored."""
        return self._lost

    @property
    def has_free_seat(self) -> bool:
        """True while a seat is empty."""
        return self.room.has_free_seat

    @property
    def status(self) -> RoomStatus:
        """``waiting`` until the first game starts, then ``playing`` or ``finished``."""
        return self.room.status

    def summary(self) -> RoomSummary:
        """The room's line in the room list."""
        return self.room.summary()

    # -- input --------------------------------------------------------------------------

    async def run(self, step: Step) -> Output:
        """Apply one input (``step(now)``) and carry its output out, after every
        input before it. Raises :class:`RoomUnavailableError` if the room failed, and
        :class:`RoomStorageUnavailableError` if the input was undone because its
        events could not be stored for now (the room is as before it).

        ``step`` may be run again later, on the room as it was before it, with the
        same ``now`` (to undo a later input, :data:`REPLAY_LIMIT`): it must be one
        of the room's inputs with its arguments fixed, its output a function of the
        room and ``now`` alone, and anything else it does harmless to repeat."""
        async with self._lock:
            if self._lost:
                raise RoomStorageLostError(self.code, self._outage_limit)
            if self._failed:
                raise RoomUnavailableError(f"room {self.code} is closed after a storage failure")
            now = self._now()
            held = self._clock_held
            if held or self._checkpoint is None or len(self._since) >= REPLAY_LIMIT:
                self._checkpoint = self.room.snapshot()
                self._since = []
            # Logged before it runs: one that raises is replayed (and raises) too,
            # so that a replay makes the same room whatever the input did.
            self._since.append((step, now))
            if held:
                # The clock stands still while the store refuses; an input runs
                # with it running, and it stands again unless the input is stored.
                self.room.release_clock(now)
            started = stage_clock.mark()
            output = step(now)
            stage_clock.add("rules", started)
            if held and not output.events:
                self.room.hold_clock(now, tell=False)
            await self._carry_out(output)
            return output

    async def run_or_retry(
        self, step: Step, *, wanted: Callable[[], bool] = lambda: True
    ) -> Output | None:
        """:meth:`run`, for an input no client waits on (a drop, a removal): if the
        store refuses it for now, it is tried again in the background after each
        ``retry_after``, for as long as ``wanted()`` holds, and None is returned."""
        try:
            return await self.run(step)
        except RoomStorageUnavailableError as outage:
            self._spawn(self._retry(step, outage.retry_after or 1.0, wanted))
            return None

    async def _retry(self, step: Step, delay: float, wanted: Callable[[], bool]) -> None:
        while True:
            await asyncio.sleep(delay)
            if not wanted():
                return
            try:
                await self.run(step)
                return
            except RoomStorageUnavailableError as outage:
                delay = outage.retry_after or delay
            except RoomUnavailableError:
                return

    def close(self) -> None:
        """Stop the timer and any AI search (the server is dropping the room)."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        for task in self._tasks:
            task.cancel()

    def _undo_last_input(self) -> None:
        """Put the room back as it was before the input that runs now: back to the
        checkpoint, then every input since it but this one again, each with the
        time it had (see ``_checkpoint``). Their outputs were carried out when
        they ran: the replay's are dropped."""
        checkpoint, inputs = self._checkpoint, self._since
        assert checkpoint is not None and inputs  # run() logs an input before it runs
        self._checkpoint, self._since = None, []  # used up: the next input takes one
        self.room.rollback(checkpoint)
        for step, now in inputs[:-1]:
            with contextlib.suppress(Exception):  # it raised then too, the same way
                step(now)

    async def _carry_out(self, output: Output) -> None:
        # The record's id of a game that ends here, for game_over: the recorder
        # forgets it once the end is stored.
        events = output.events
        ended_id = (
            next(
                (
                    self._recorder.game_id(self.code, event.game_number)
                    for event in events
                    if isinstance(event, GameFinished)
                ),
                None,
            )
            if events
            else None
        )
        was_held = self._clock_held
        if events:
            try:
                await self._store(output)
            except RoomStorageUnavailableError:
                raise
            except _OutageTooLongError:
                self._fail(output, lost=True)
                raise RoomStorageLostError(self.code, self._outage_limit) from None
            except Exception:
                logger.exception("storing events failed", extra={"room": self.code})
                self._fail(output)
                return
        if ended_id is not None:
            self._ended_game_id = ended_id
        self._send(output, ended_id)
        if output.events and was_held:
            # Stored again after refusals: everyone's clocks run on, from the state.
            # (A change outside an input: no replay could make it, so the next
            # input takes a new checkpoint.)
            self._checkpoint = None
            self._send(self.room.saving_resumed(self._now()), None)
        for request in output.ai_requests:
            self._spawn(self._think(request))
        self._arm_timer(output.next_deadline)
        self._after(self, output)

    def _send(self, output: Output, ended_id: int | None) -> None:
        """Deliver ``output``'s messages, each encoded once (``ended_id``: the
        stored id of a game that ended in it, for its ``game_over``)."""
        encoded: dict[int, tuple[ServerMessage, str]] = {}
        for recipient, message in output.messages:
            # The room does not know the store's ids: its game's is added here
            # (looked up only for a state: most outputs, a move's, carry none).
            if isinstance(message, GameOver) and ended_id is not None:
                message = msgspec.structs.replace(message, game_id=ended_id)
            elif isinstance(message, State) and (game_id := self.game_id) is not None:
                with_id = msgspec.structs.replace(message.room, game_id=game_id)
                message = msgspec.structs.replace(message, room=with_id)
            plain = without_search(message)
            for client in output.recipients(recipient):
                shown = plain if plain is message or not self._wants_search(client) else message
                sent = encoded.get(id(shown))
                if sent is None:
                    started = stage_clock.mark()
                    sent = encoded[id(shown)] = (shown, encode_message(shown))
                    stage_clock.add("encode", started)
                self._deliver(client, *sent)

    async def _store(self, output: Output) -> None:
        """Store ``output``'s events, in order, a unit at a time (:func:`write_units`:
        a move and the end it brings together). A refusal for now of the first unit
        undoes the input (:class:`RoomStorageUnavailableError`); of a later one, it
        is tried again until stored, since what is stored cannot be undone.
        :class:`_OutageTooLongError` once refusals have lasted past the limit."""
        for index, unit in enumerate(write_units(output.events)):
            while True:
                try:
                    await self._recorder.persist(self.room.options, unit)
                except StorageUnavailableError as outage:
                    now = time.monotonic()
                    if self._unstored_since is None:
                        self._unstored_since = now
                        logger.warning(
                            "the store is unavailable: the room's game is paused (%s)",
                            outage,
                            extra={"room": self.code},
                        )
                    if now - self._unstored_since >= self._outage_limit:
                        raise _OutageTooLongError from outage
                    if index == 0:
                        self._undo_last_input()
                        if not self._clock_held:
                            # Everyone is told (a state with saving_paused): their clocks stop too.
                            self._send(self.room.hold_clock(self._now()), None)
                            self._clock_held = True
                        raise RoomStorageUnavailableError(self.code, outage.retry_after) from None
                    await asyncio.sleep(outage.retry_after)
                    continue
                if self._unstored_since is not None:
                    logger.info("the store is back: the game goes on", extra={"room": self.code})
                    self._unstored_since = None
                self._clock_held = False  # stored: its clock runs on from this input
                break

    def _fail(self, output: Output, *, lost: bool = False) -> None:
        self._failed = True
        self._lost = lost
        if lost:
            error = Error(
                code=ErrorCode.STORAGE_LOST,
                message=RoomStorageLostError(self.code, self._outage_limit).message,
            )
            logger.error("storage unavailable too long: room closed", extra={"room": self.code})
        else:
            error = Error(
                code=ErrorCode.INTERNAL_ERROR,
                message=f"room {self.code} stopped: the server could not store its game",
            )
        text = encode_message(error)
        for client in output.audience | self.room.audience:
            self._deliver(client, error, text)
        self.close()
        self._after(self, output)

    # -- time -----------------------------------------------------------------------------

    def _now(self) -> float:
        """The wall clock, held at the last time given when it steps back (an NTP
        correction, a suspended laptop's clock set right): the room's clocks then
        stand still for a moment rather than give time back or charge it twice.
        Wall time, not monotonic, because it is stored in the records and must
        mean the same after a restart."""
        self._last_now = max(self._last_now, time.time())
        return self._last_now

    def _arm_timer(self, deadline: float | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadline is None or self._closed:
            return
        delay = max(0.0, deadline - time.time())
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay, self._spawn_tick)

    def _spawn_tick(self) -> None:
        self._timer = None
        self._spawn(self._tick())

    async def _tick(self) -> None:
        try:
            await self.run(self.room.tick)
        except RoomUnavailableError:
            pass
        except RoomStorageUnavailableError as outage:
            # Undone: time's verdict is asked again once the store may be back.
            self._arm_timer(time.time() + (outage.retry_after or 1.0))

    # -- the engine -----------------------------------------------------------------------

    async def _think(self, request: AiRequest) -> None:
        """Search the AI's move in the pool and feed it back; a fallback (random
        legal) move if the engine cannot answer."""
        move_text: str | None = None
        search: SearchInfo | None = None
        try:
            move_text, search = await self._search(request)
        except EngineUnavailableError:
            return  # shutting down: the game is restored, and the AI asked again, on restart
        except BoardroomError:
            logger.exception("the engine refused a search", extra={"room": self.code})
        step: Step
        asker = request.hint_for
        if asker is not None:
            # A hint: the engine's move for the player who asked, never a fallback.
            found = (move_text, search) if move_text is not None and search is not None else None

            def step(now: float) -> Output:
                if found is None:
                    return self.room.hint_failed(asker, now=now, request_id=request.request_id)
                return self.room.hint_found(
                    asker,
                    request.game_number,
                    request.ply,
                    found[0],
                    found[1],
                    now=now,
                    request_id=request.request_id,
                )

        elif move_text is None:

            def step(now: float) -> Output:
                return self.room.ai_failed(request.game_number, request.ply, now=now)

        else:
            answer = move_text

            def step(now: float) -> Output:
                return self.room.ai_moved(
                    request.game_number, request.ply, answer, now=now, search=search
                )

        if request.not_before is not None:
            # An AI match's pace: the search ran at once, its move waits its turn.
            await asyncio.sleep(max(0.0, request.not_before - time.time()))
        with contextlib.suppress(RoomUnavailableError):
            try:
                await self.run(step)
            except RoomStorageUnavailableError as outage:
                # Undone: the AI's answer (already found) is played again later.
                await self._retry(step, outage.retry_after or 1.0, lambda: True)

    async def _search(self, request: AiRequest) -> tuple[str | None, SearchInfo | None]:
        """The AI's move and, when the engine (not a fallback) chose it, its search."""
        search = request.search_request(time_limit=_time_limit(request))
        priority, submitter = self._engine_order(request)
        for _ in range(ENGINE_BUSY_RETRIES):
            try:
                # A hint searches beside the AI's move, so it has a key of its own.
                key = self.code if request.hint_for is None else f"{self.code}/hint"
                outcome = await self._engine.search(
                    search, key=key, priority=priority, submitter=submitter
                )
            except EngineBusyError:
                await asyncio.sleep(ENGINE_BUSY_PAUSE)
                continue
            if self._on_search is not None:
                seconds = outcome.result.elapsed if outcome.result is not None else 0.0
                reason = outcome.fallback_reason
                self._on_search(seconds + outcome.dispatch_seconds, reason and reason.value)
            game = self.room.game
            found = search_info(outcome.result, game) if outcome.result is not None else None
            return game.format_move(outcome.move), found
        logger.warning("engine busy: the AI plays a fallback move", extra={"room": self.code})
        return None, None

    def _spawn(self, coroutine: Awaitable[None]) -> None:
        if self._closed:
            if asyncio.iscoroutine(coroutine):
                coroutine.close()
            return
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


class _OutageTooLongError(Exception):
    """Storage refusals have lasted past the host's ``outage_limit``."""


def _time_limit(request: AiRequest) -> float | None:
    """The search's time limit: the level's own, cut to a share of the AI's clock."""
    if request.clock_left is None:
        return None
    level_limit = plan_search(request.level, None, None).time_limit
    budget = max(0.05, request.clock_left * CLOCK_SHARE)
    return budget if level_limit is None else min(level_limit, budget)
