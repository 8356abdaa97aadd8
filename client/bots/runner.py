"""Seats a bot in rooms and plays its games, one after another or several at once.

A :class:`BotRunner` drives one :class:`~boardroom.client.session.Session` (one connection
for the whole run) and a :class:`~boardroom.client.bots.brains.BrainSource`. Each *seat*
is a task that gets into a room (join, quick match or create), plays a game,
and goes on to the next: a rematch in the same room (join, create) or a new
quick match. ``parallel`` seats play at once; ``games`` counts the games of
the whole run. A seat waits at most ``wait`` seconds
for its next game to start (an opponent, a rematch): then the run starts no new
game, finishes those in progress and ends with a :class:`RunError`.

In *tournament* mode (``boardroom bot --tournament``) the bot only waits: each
``match`` the server sends (a tournament round opened a room for it) is joined
with its code, played to its end, and the room left; then the next ``match``
is awaited, until the run is stopped (or ``games`` are played). A ``match``
sent again for a room already taken is ignored; one whose room closes before
the game starts (the opponent did not show up) is given up.

Within a game, play is driven by state, not by messages: whenever the tracked
room (:class:`~boardroom.client.tracked_room.TrackedRoom`) shows the bot's turn at a ply
it has not answered, the brain is asked and the move is sent with that ``ply``.
A move lost with a dropped connection is sent again when the room's state
comes back; a stale one is harmless (``stale_move``). So a reconnect needs
nothing special.

Two tasks per game: the *driver* reads the seat's events in order and decides
when the game is over; the *thinker* asks the brain and sends moves. The game's
end cancels the thinker wherever it is (a program still thinking is killed).

When the bot fails (:class:`~boardroom.client.bots.errors.BotFailedError`), the thinker
reports it and resigns; the room's rules decide the result (a loss, or
``aborted`` before the first move). Stopping: :meth:`BotRunner.stop` starts no
new game and lets the games in progress finish; :meth:`BotRunner.abort` leaves
every room at once (resigning the games in progress).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.report import GameLabel, Report
from boardroom.client.bots.state import GameState, game_result, game_state
from boardroom.client.errors import ClientError, RequestRefusedError
from boardroom.client.refusals import refusal_text
from boardroom.client.room_closed import closed_text
from boardroom.client.session import Disconnected, Reconnected, Session, SessionEnded, SessionEvent
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.games import Player
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import (
    ClientMessage,
    Clock,
    CreateRoom,
    GameOver,
    Join,
    Leave,
    Left,
    Level,
    MakeMove,
    Match,
    QuickMatch,
    Rematch,
    Resign,
    ResultInfo,
    RoomClosed,
    RoomState,
    SeatInfo,
    ServerMessage,
    State,
)

BOT_FAULTS = frozenset({"illegal_move", "invalid_field"})
"""Refusals of a move that are the bot's doing (an illegal move, or garbage the
server could not even read as one): the bot resigns. Other refusals of a move
(``stale_move``, ``not_your_turn``, ``game_over``) mean the room moved on, and a
fresh state follows."""
USER_INPUT_CODES = frozenset(
    {"unknown_room", "unknown_game", "bad_options", "invalid_field", "bad_level"}
)
"""Refusals of the way in that say the user typed something wrong (exit status 2)."""
LEAVE_TIMEOUT = 5.0
"""Seconds to wait for ``left`` when leaving at the end; the run ends anyway after."""
CLOCK_SLACK_MS = 250
"""How close to zero our copy of a clock counts as run out: the copy counts down
from when a message arrived, so it lags the server's by the message's travel."""
RATE_LIMIT_PAUSE = 0.1
"""Seconds to wait after ``rate_limited`` when the server gives no ``retry_after``."""
DEFAULT_WAIT = 300.0
"""Seconds a seat waits for its game to start (``--wait``): long enough for a
person to read a room code out and type it, short enough that a bot left alone
(its opponent gone, or asking for fewer games) does not wait for ever."""


@dataclass(frozen=True)
class Entry:
    """The way into games: ``join`` a room by ``code``, ``quick`` match,
    ``create`` a room for ``game`` (with ``clock``, and the server AI opposite at
    ``ai_level``), or wait for the ``tournament``'s matches."""

    kind: Literal["join", "quick", "create", "tournament"]
    code: str | None = None
    game: str | None = None
    ai_level: Level | None = None
    clock: Clock = field(default_factory=Clock)

    def request(self) -> ClientMessage:
        """The message that gets a seat (a tournament's come in its matches)."""
        assert self.kind != "tournament"
        if self.kind == "join":
            assert self.code is not None
            return Join(code=self.code)
        assert self.game is not None
        if self.kind == "quick":
            return QuickMatch(game=self.game)
        return CreateRoom(game=self.game, clock=self.clock, ai_level=self.ai_level)


@dataclass(frozen=True)
class RunOptions:
    """What to play: ``games`` in all (0: until stopped), ``parallel`` at once;
    ``move_timeout``: seconds a bot gets per move in a room without a clock;
    ``wait``: seconds a seat waits for a game to start (an opponent to sit down,
    or to agree to a rematch) before the run gives up (0: for ever; a tournament
    waits for its matches until stopped, and the server rules on no-shows)."""

    entry: Entry
    games: int = 1
    parallel: int = 1
    move_timeout: float = 30.0
    wait: float = DEFAULT_WAIT


class RunError(ClientError):
    """The run cannot go on: the way in was refused, or the session ended.
    ``exit_status``: 2 when the user's input was at fault, else 1."""

    def __init__(self, message: str, *, exit_status: int = 1) -> None:
        super().__init__(message)
        self.exit_status = exit_status


@dataclass
class _Progress:
    """How far the bot got in one game, for the end of it."""

    started: bool = False
    """The brain's ``start`` returned (so ``end`` is owed)."""
    thinking: bool = False
    """A ``choose`` is under way (the game ended while the bot was thinking)."""
    over: bool = False
    """The game has ended: the thinker stops at its next look (a cancellation can
    be lost on Python 3.11, when ``asyncio.wait_for`` inside a request completes
    at the same moment)."""


class BotRunner:
    """Plays the games of one ``boardroom bot`` run (see the module docstring).

    Contract: the session is started and the brain source open before
    :meth:`run`; :meth:`stop` and :meth:`abort` may be called at any time from
    the event loop (signal handlers); the caller closes both after :meth:`run`.
    """

    def __init__(
        self, session: Session, brains: BrainSource, options: RunOptions, report: Report
    ) -> None:
        self.session = session
        self.brains = brains
        self.options = options
        self.report = report
        self.aborted = False
        self._stop = asyncio.Event()
        self._games_taken = 0
        self._owned: set[str] = set()
        """Room codes some seat of this run plays in."""
        self._task: asyncio.Task[None] | None = None
        self._gave_up: str | None = None
        """Why the run stopped waiting for a game (``wait`` ran out), if it did."""

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def stop(self) -> None:
        """Start no new game; the games in progress are played to their end."""
        self._stop.set()

    def abort(self) -> None:
        """Stop now: leave every room (resigning the games in progress)."""
        self._stop.set()
        self.aborted = True
        if self._task is not None:
            self._task.cancel()

    async def run(self) -> None:
        """Play until the games are done or :meth:`stop` or :meth:`abort`; raises
        :class:`RunError` if the run cannot go on."""
        self._task = asyncio.current_task()
        seats = self.options.parallel
        if self.options.games:
            seats = min(seats, self.options.games)
        watcher = asyncio.create_task(self._watch_connection())
        try:
            async with asyncio.TaskGroup() as group:
                if self.options.entry.kind == "tournament":
                    group.create_task(self._tournament())
                else:
                    for _ in range(seats):
                        group.create_task(self._seat())
        except BaseExceptionGroup as errors:
            fatal = [error for error in errors.exceptions if isinstance(error, RunError)]
            if fatal:
                raise fatal[0] from None
            raise
        except asyncio.CancelledError:
            if not self.aborted:
                raise
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await self._leave_every_room()
        if self._gave_up is not None and not self.aborted:
            raise RunError(self._gave_up)

    # -- seats ---------------------------------------------------------------------

    async def _seat(self) -> None:
        """Get into a room and play games there (or in new quick matches) until done."""
        events = self.session.subscribe()
        code: str | None = None
        try:
            last_game = 0
            while (number := self._take_game()) is not None:
                if code is None:
                    code = await self._enter(events)
                    last_game = 0
                else:
                    await self._ask_rematch(code, events)
                game_number = await self._wait_for_game(code, last_game, events)
                if game_number is None:
                    self._games_taken -= 1  # not played after all
                    break
                await self._play(GameLabel(number, code), code, game_number, events)
                last_game = game_number
                if self.options.entry.kind == "quick":
                    await self._leave(code)
                    code = None
        finally:
            self.session.unsubscribe(events)
        if code is not None:
            await self._leave(code)

    async def _tournament(self) -> None:
        """Play each tournament game the server sends a ``match`` for, until stopped."""
        matches = self.session.subscribe()
        events = self.session.subscribe()
        taken: set[str] = set()
        self.report.note(_("tournament mode: waiting for a match (Ctrl-C to stop)"))
        try:
            while (match := await self._next_match(matches, taken)) is not None:
                taken.add(match.room)
                number = self._take_game()
                if number is None:
                    return
                self.report.note(
                    _(
                        "match: round {round}, board {board} of {tournament!r}: {game} "
                        "against {opponent} as {side}, in room {room}",
                        round=match.round,
                        board=match.board,
                        tournament=match.tournament_name,
                        game=match.game,
                        opponent=match.opponent,
                        side=match.side,
                        room=match.room,
                    )
                )
                while not events.empty():  # what came before this game is no news to it
                    events.get_nowait()
                code = await self._join_match(match, events)
                game_number = None if code is None else await self._wait_for_game(code, 0, events)
                if code is None or game_number is None:
                    self._games_taken -= 1  # not played after all
                    continue
                await self._play(GameLabel(number, code), code, game_number, events)
                await self._leave(code)
        finally:
            self.session.unsubscribe(matches)
            self.session.unsubscribe(events)

    async def _next_match(
        self, matches: asyncio.Queue[SessionEvent], taken: set[str]
    ) -> Match | None:
        """The next ``match`` for a room not taken yet; None once a stop is asked for."""
        while True:
            event = await self._next_event(matches)
            if event is None:
                return None
            if isinstance(event, SessionEnded):
                raise RunError(_("the session ended: {reason}", reason=event.reason))
            if isinstance(event, Match) and event.room not in taken:
                return event

    async def _join_match(self, match: Match, events: asyncio.Queue[SessionEvent]) -> str | None:
        """Take the seat reserved in the match's room; its code, or None if refused."""
        while True:
            try:
                reply = await self._request(Join(code=match.code))
            except RequestRefusedError as refusal:
                self.report.note(
                    _(
                        "cannot join room {room}: {message} ({code})",
                        room=match.room,
                        message=refusal_text(refusal),
                        code=refusal.code,
                    )
                )
                return None
            except ClientError:
                await self._until_reconnected(events)
                if match.room in self.session.rooms:
                    return match.room  # it went through before the drop
                continue
            assert isinstance(reply, State)
            self._owned.add(reply.room.code)
            return reply.room.code

    def _take_game(self) -> int | None:
        """The number of the run's next game, or None if no more are to start."""
        if self.stopping or (self.options.games and self._games_taken >= self.options.games):
            return None
        self._games_taken += 1
        return self._games_taken

    async def _enter(self, events: asyncio.Queue[SessionEvent]) -> str:
        """Get a seat the way the options say; the room's code."""
        entry = self.options.entry
        while True:
            try:
                reply = await self._request(entry.request())
            except RequestRefusedError as refusal:
                status = 2 if refusal.code in USER_INPUT_CODES else 1
                raise RunError(_entry_refused(entry, refusal), exit_status=status) from None
            except ClientError:
                # Maybe seated, maybe not: the resumed rooms say.
                await self._until_reconnected(events)
                adopted = self._unowned_seat()
                if adopted is not None:
                    return adopted
                continue
            assert isinstance(reply, State)
            room = reply.room
            self._owned.add(room.code)
            if room.status == "waiting" and entry.ai_level is None:
                self._announce_waiting(room)
            return room.code

    def _announce_waiting(self, room: RoomState) -> None:
        if self.options.entry.kind == "create":
            code = room.join_code or room.code
            self.report.note(
                _(
                    "room {room} ({title}) is open, waiting for an opponent "
                    "(in boardroom play, type: {command})",
                    room=room.code,
                    title=_(room.title) if room.title else room.title,
                    command="join " + code,
                )
            )
        elif self.options.entry.kind == "quick":
            self.report.note(
                _("quick match: waiting for an opponent in room {room}", room=room.code)
            )

    def _unowned_seat(self) -> str | None:
        for code, room in self.session.rooms.items():
            if room.you is not None and code not in self._owned:
                self._owned.add(code)
                return code
        return None

    async def _ask_rematch(self, code: str, events: asyncio.Queue[SessionEvent]) -> None:
        """Ask for the room's next game (it starts when the opponent asks too)."""
        while True:
            try:
                await self._request(Rematch(room=code))
            except RequestRefusedError:
                # game_not_started: the opponent left, and whoever sits down next
                # starts the game; game_in_progress: it has started already.
                return
            except ClientError:
                await self._until_reconnected(events)
                continue
            return

    async def _wait_for_game(
        self, code: str, after: int, events: asyncio.Queue[SessionEvent]
    ) -> int | None:
        """The number of the room's first game after game ``after`` once it has
        started; None if a stop comes first, the room is gone, or (outside a
        tournament) the game has not started within ``wait`` seconds, which
        stops the run (:meth:`_give_up`)."""
        wait = self.options.wait
        deadline = None
        if wait and self.options.entry.kind != "tournament":
            deadline = asyncio.get_running_loop().time() + wait
        while True:
            room = self.session.rooms.get(code)
            if room is None:
                self.report.note(_("room {room}: no longer seated there", room=code))
                return None
            if room.state.game_number > after and room.state.status != "waiting":
                return room.state.game_number
            try:
                async with asyncio.timeout_at(deadline):
                    event = await self._next_event(events)
            except TimeoutError:
                self._give_up(room)
                return None
            if event is None:
                return None
            if isinstance(event, SessionEnded):
                raise RunError(_("the session ended: {reason}", reason=event.reason))
            if isinstance(event, RoomClosed) and event.room == code:
                # Say why: a tournament no-show names who wins by forfeit, a
                # teacher's close says so (in the reader's language).
                why = closed_text(event)
                self.report.note(_("room {room} closed: {reason}", room=code, reason=why))
                return None

    def _give_up(self, room: TrackedRoom) -> None:
        """No game started in ``room`` within ``wait``: start no new game (those in
        progress elsewhere are played to their end), and end the run with an error."""
        wait = format(self.options.wait, "g")
        if any(seat.name is None for seat in room.state.seats):
            why = _(
                "nobody came to play in room {room} within {seconds} s (--wait {seconds})",
                room=room.code,
                seconds=wait,
            )
        else:
            why = _(
                "the opponent in room {room} did not ask for a rematch within {seconds} s "
                "(--wait {seconds})",
                room=room.code,
                seconds=wait,
            )
        if self._gave_up is None:
            self._gave_up = why
        self.stop()

    async def _next_event(self, events: asyncio.Queue[SessionEvent]) -> SessionEvent | None:
        """The seat's next event, or None once a stop is asked for."""
        if self.stopping:
            return None
        getter = asyncio.ensure_future(events.get())
        stopper = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            getter.cancel()  # an item not yet taken stays in the queue
            stopper.cancel()
        if getter.done() and not getter.cancelled():
            return getter.result()
        return None

    async def _until_reconnected(self, events: asyncio.Queue[SessionEvent]) -> None:
        while not self.session.connected:
            event = await events.get()
            if isinstance(event, SessionEnded):
                raise RunError(_("the session ended: {reason}", reason=event.reason))
            if isinstance(event, Reconnected):
                return

    # -- one game ------------------------------------------------------------------

    async def _play(
        self, label: GameLabel, code: str, number: int, events: asyncio.Queue[SessionEvent]
    ) -> None:
        """Play game ``number`` of room ``code`` to its end and report it."""
        brain = self.brains.new_brain(label.log_prefix)
        changed = asyncio.Event()
        changed.set()
        progress = _Progress()
        try:
            thinker = asyncio.create_task(
                self._think(label, code, number, brain, changed, progress)
            )
            try:
                result, final = await self._until_over(code, number, events, changed, brain)
            finally:
                progress.over = True
                changed.set()
                thinker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await thinker
            await self._finish(label, brain, progress, result, final)
        finally:
            await brain.close()

    async def _until_over(
        self,
        code: str,
        number: int,
        events: asyncio.Queue[SessionEvent],
        changed: asyncio.Event,
        brain: Brain,
    ) -> tuple[ResultInfo | None, RoomState | None]:
        """Read the seat's events until game ``number`` ends: its result and the
        room as it ended, with the seats as they were during the game (result
        None: the seat was lost, the end unknown). Every event wakes the thinker;
        a reconnection is told to the brain (:meth:`Brain.reconnected`)."""
        last: RoomState | None = None
        players: list[SeatInfo] | None = None
        """The seats while the game was played: the room read after an event may
        be later than the event, with the opponent already gone."""

        def look() -> None:
            nonlocal last, players
            room = self.session.rooms.get(code)
            if room is not None and room.state.game_number == number:
                last = room.state  # the event is in it already: rooms are updated first
                if last.status == "playing":
                    players = last.seats  # nobody sits down or leaves during a game

        look()
        while True:
            event = await events.get()
            changed.set()
            look()
            if isinstance(event, SessionEnded):
                raise RunError(_("the session ended: {reason}", reason=event.reason))
            if isinstance(event, Reconnected):
                if code in event.lost_rooms:
                    return None, last
                brain.reconnected()
            if isinstance(event, GameOver) and event.room == code:
                return event.result, _as_played(_ended(last, event), players)
            if isinstance(event, Left) and event.room == code:
                return None, last
            if isinstance(event, State) and event.room.code == code:
                ended = event.room
                if ended.game_number == number and ended.result is not None:
                    return ended.result, _as_played(ended, players)
                if ended.game_number > number:
                    return None, last

    async def _think(
        self,
        label: GameLabel,
        code: str,
        number: int,
        brain: Brain,
        changed: asyncio.Event,
        progress: _Progress,
    ) -> None:
        """Start the brain, then answer every turn of the bot until cancelled."""
        answered = -1
        unsent: tuple[int, str] | None = None
        try:
            while True:
                await changed.wait()
                changed.clear()
                if progress.over:
                    return
                room = self.session.rooms.get(code)
                if room is None or room.state.game_number != number or not room.playing:
                    continue
                if not progress.started:
                    await brain.start(self._state_of(room))
                    progress.started = True
                    changed.set()  # time has passed: look at the room again
                    continue
                ply = room.state.ply
                if not room.my_turn or ply <= answered or room.state.paused:
                    continue  # a pause ends with a state without it, which wakes us
                if room.game.outcome(room.position).is_over:
                    continue  # the opponent's move ended it: game_over is on its way
                if unsent is not None and unsent[0] == ply:
                    move = unsent[1]
                else:
                    # Left set if the game's end cancels the choice: it was thinking then.
                    progress.thinking = True
                    try:
                        move = await self._choose(brain, room)
                    except BotFailedError:
                        progress.thinking = False
                        raise
                    progress.thinking = False
                unsent = None
                try:
                    await self.session.request(MakeMove(room=code, move=move, ply=ply))
                    answered = ply
                except RequestRefusedError as refusal:
                    if refusal.code in BOT_FAULTS:
                        raise BotFailedError(
                            FailureKind.REFUSED,
                            _(
                                "it played {move!r}, and the server answered {code}: {message}",
                                move=move,
                                code=refusal.code,
                                message=refusal.message,
                            ),
                        ) from None
                    if refusal.code in ("rate_limited", "storage_unavailable"):
                        # storage_unavailable: the session sent it again for minutes
                        # already; the server keeps the room, so go on trying.
                        await asyncio.sleep(refusal.retry_after or RATE_LIMIT_PAUSE)
                        unsent = (ply, move)
                        changed.set()
                    elif refusal.code == "paused":
                        unsent = (ply, move)  # sent again once the resume's state comes
                    else:
                        answered = ply  # the room moved on; its new state wakes us
                except ClientError:
                    unsent = (ply, move)  # sent again when the room's state comes back
        except BotFailedError as failure:
            room = self.session.rooms.get(code)
            before_first = room is not None and room.state.ply == 0
            then = (
                _("resigning: no move has been played, so the game is aborted")
                if before_first
                else _("resigning: the game is lost by resignation")
            )
            self.report.failure(label, failure, then)
            await self._resign(code, number, changed)

    async def _choose(self, brain: Brain, room: TrackedRoom) -> str:
        """Ask the brain for its move: within ``move_timeout`` without a clock, with
        no limit of ours with one (the room's clock decides)."""
        state = self._state_of(room)
        assert room.you is not None
        left_ms = room.time_left_ms(room.you)
        if left_ms is None:
            timeout = self.options.move_timeout
            return await brain.choose(state, timeout=timeout, time_ms=int(timeout * 1000))
        return await brain.choose(state, timeout=None, time_ms=left_ms)

    async def _resign(self, code: str, number: int, changed: asyncio.Event) -> None:
        """Resign game ``number``, again after a reconnect if need be."""
        while True:
            room = self.session.rooms.get(code)
            if room is None or room.state.game_number != number or not room.playing:
                return
            try:
                await self._request(Resign(room=code))
                return
            except RequestRefusedError:
                return  # game_over: it ended first
            except ClientError:
                await changed.wait()
                changed.clear()

    async def _finish(
        self,
        label: GameLabel,
        brain: Brain,
        progress: _Progress,
        result: ResultInfo | None,
        final: RoomState | None,
    ) -> None:
        """Tell the brain how it ended, and report the game."""
        if result is None or final is None or final.you is None:
            self.report.note(
                _(
                    "{game}: the seat was lost (disconnected too long); result unknown",
                    game=label,
                )
            )
            return
        side = final.you
        state = game_state(
            final,
            time_left_ms=_clock_ms(final, side),
            opponent_time_left_ms=_clock_ms(final, side.other),
        )
        outcome = game_result(result, state.moves, side)
        if progress.thinking and _ran_out_of_time(final, result, side):
            self.report.failure(
                label,
                BotFailedError(FailureKind.HUNG, _("no move came before its clock ran out")),
                _("the room's clock decided the game; the bot was stopped"),
            )
        if progress.started:
            try:
                await brain.end(state, outcome)
            except BotFailedError as failure:
                self.report.failure(label, failure, _("after the game: the result stands"))
        self.report.result(label, state.game, state.you, state.opponent, outcome)

    def _state_of(self, room: TrackedRoom) -> GameState:
        side = room.you
        assert side is not None
        return game_state(
            room.state,
            time_left_ms=room.time_left_ms(side),
            opponent_time_left_ms=room.time_left_ms(side.other),
        )

    # -- plumbing ------------------------------------------------------------------

    async def _request(self, message: ClientMessage) -> ServerMessage:
        """``session.request``, sent again after ``rate_limited``."""
        while True:
            try:
                return await self.session.request(message)
            except RequestRefusedError as refusal:
                if refusal.code != "rate_limited":
                    raise
                await asyncio.sleep(refusal.retry_after or RATE_LIMIT_PAUSE)

    async def _leave(self, code: str) -> None:
        """Leave a room (resigning a game in progress there); never raises."""
        self._owned.discard(code)
        if code not in self.session.rooms:
            return
        with contextlib.suppress(ClientError, TimeoutError):
            async with asyncio.timeout(LEAVE_TIMEOUT):
                await self._request(Leave(room=code))

    async def _leave_every_room(self) -> None:
        seated = [code for code, room in self.session.rooms.items() if room.you is not None]
        await asyncio.gather(*(self._leave(code) for code in seated))

    async def _watch_connection(self) -> None:
        """Tell the user when the connection drops and comes back."""
        events = self.session.subscribe()
        try:
            while True:
                event = await events.get()
                if isinstance(event, Disconnected) and event.will_retry:
                    self.report.note(
                        _("connection lost: {reason}; reconnecting", reason=event.reason)
                    )
                elif isinstance(event, Reconnected):
                    lost = ", ".join(event.lost_rooms)
                    self.report.note(
                        _("reconnected (seats lost in {rooms})", rooms=lost)
                        if lost
                        else _("reconnected")
                    )
        finally:
            self.session.unsubscribe(events)


def _entry_refused(entry: Entry, refusal: RequestRefusedError) -> str:
    what = {
        "join": N_("cannot join {code}: {message} ({refusal})"),
        "quick": N_("no quick match for {game}: {message} ({refusal})"),
        "create": N_("cannot create a {game} room: {message} ({refusal})"),
    }[entry.kind]
    return _(
        what,
        code=entry.code,
        game=entry.game,
        message=refusal_text(refusal),
        refusal=refusal.code,
    )


def _ended(last: RoomState | None, over: GameOver) -> RoomState | None:
    """The room as game ``over`` left it, from the last state seen of that game."""
    if last is None:
        return None
    return msgspec.structs.replace(
        last, status="finished", moves=over.moves, to_move=None, result=over.result
    )


def _as_played(final: RoomState | None, players: list[SeatInfo] | None) -> RoomState | None:
    """The room as a game ended, with the seats as they were while it was played
    (if it was seen being played)."""
    if final is None or players is None:
        return final
    return msgspec.structs.replace(final, seats=players)


def _ran_out_of_time(final: RoomState, result: ResultInfo, side: Player) -> bool:
    """Whether the game ended because ``side``'s clock ran out: a loss on time, or
    the first move not made in time (which aborts the game)."""
    if result.reason == "timeout":
        return result.winner != side
    left = _clock_ms(final, side)
    return result.reason == "aborted" and left is not None and left <= CLOCK_SLACK_MS


def _clock_ms(room: RoomState, side: str) -> int | None:
    clocks = room.clocks
    if clocks is None:
        return None
    return clocks.first_ms if side == Player.FIRST else clocks.second_ms
