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

Each game is played by a :class:`~boardroom.client.bots.game_play.GamePlayer`
(play driven by the room's state, so a reconnect needs nothing special; a bot
that fails resigns). Stopping: :meth:`BotRunner.stop` starts no new game and
lets the games in progress finish; :meth:`BotRunner.abort` leaves every room at
once (resigning the games in progress). The run's options and errors are in
:mod:`boardroom.client.bots.run_options`, importable from here too.
"""

from __future__ import annotations

import asyncio
import contextlib

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.game_play import GamePlayer, request
from boardroom.client.bots.report import GameLabel, Report
from boardroom.client.bots.run_options import (
    DEFAULT_WAIT,
    USER_INPUT_CODES,
    Entry,
    RunError,
    RunOptions,
    entry_refused,
)
from boardroom.client.errors import ClientError, RequestRefusedError
from boardroom.client.refusals import refusal_text
from boardroom.client.room_closed import closed_text
from boardroom.client.session import Disconnected, Reconnected, Session, SessionEnded, SessionEvent
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import (
    ClientMessage,
    Join,
    Leave,
    Match,
    Rematch,
    RoomClosed,
    RoomState,
    ServerMessage,
    State,
)

__all__ = ["DEFAULT_WAIT", "LEAVE_TIMEOUT", "BotRunner", "Entry", "RunError", "RunOptions"]

LEAVE_TIMEOUT = 5.0
"""Seconds to wait for ``left`` when leaving at the end; the run ends anyway after."""


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
        self._games = GamePlayer(session, brains, report, move_timeout=options.move_timeout)

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
                await self._games.play(GameLabel(number, code), code, game_number, events)
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
                await self._games.play(GameLabel(number, code), code, game_number, events)
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
                raise RunError(entry_refused(entry, refusal), exit_status=status) from None
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

    # -- plumbing ------------------------------------------------------------------

    async def _request(self, message: ClientMessage) -> ServerMessage:
        """``session.request``, sent again after ``rate_limited``."""
        return await request(self.session, message)

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
