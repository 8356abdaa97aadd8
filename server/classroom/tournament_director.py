"""The tournament director: runs a class's tournament on the hub, round after round.

One :class:`TournamentDirector` per class-mode server; one tournament runs at
a time. It keeps the running tournament as a
:class:`~boardroom.server.tournaments.progress.TournamentProgress`, writes every change to
the store before it acts on it or tells anyone, and drives the hub:

- **A round opens**: each game gets a private tournament room
  (:meth:`GameServer.open_tournament_room <boardroom.server.hub.GameServer.open_tournament_room>`)
  whose sides are reserved for its two entrants; an AI entrant is seated at
  once; each student is sent ``match`` on each of their sessions (and again on
  each ``welcome`` of one while the game has not started). A side is reserved
  for the student's player, not a session, so a student who comes back after a
  long drop, a restart, or from another device takes their seat. The session
  that made a student is kept by the hub for the whole tournament too, so
  that a client without a player token (protocol version 1) gets back in with
  its resume token.
- **No-show**: a side not taken ``no_show_seconds`` after the room opened
  (``starts_by``) loses by forfeit; if neither is, both do (``-:-``). The room is
  closed, telling its members who did not sit down and who wins
  (:func:`no_show_reason`). While the teacher has the games paused no deadline
  passes: at the resume each is moved on by the time the pause took from its
  window (a room opened during the pause gets a whole window from the resume).
  Nor in a room whose saving is paused (a player's sit-down, which would start
  its game, refused because the database is down): its deadline passing gives
  it a whole new window instead.
- **A game ends**: a winner gives ``1-0`` or ``0-1``, a full board or an agreed
  draw ``1/2-1/2``. A game that ended with no result, the teacher having closed
  its room (``aborted``) or both players having gone (``abandonment`` without a
  winner), is a double forfeit: neither played it out.
- **A round is complete** when all its games have a result; the next is paired
  then, and after the last the tournament is finished and everyone connected
  gets an ``announcement`` from the server (``source`` ``server``, naming the
  ``tournament``) with the winner.
- **A student removed from the class** (or whose token is revoked)
  withdraws: a game of theirs not yet started is forfeited (their opponent
  wins it) and its room closed; a game in progress was resigned by the
  removal. In a round robin their later games are forfeits; a Swiss pairs
  them no more.
- **Cancel** closes the rooms of the games not yet decided (a game in progress
  ends with no result), marks the tournament cancelled, and tells everyone
  connected (an ``announcement`` from the server naming it).
- **A room lost to the database** (closed with ``storage_lost``: its game could
  not be stored for ``--storage-outage-limit``; the hub reports it
  :class:`~boardroom.server.hub.boundary.RoomDropped` ``lost``): the game is
  played again from the start, in a fresh room with a new no-show window, as
  FIDE's Swiss rules treat a game that was not actually played and as Lichess
  aborts a game its server broke: nobody forfeits a game to the server's fault,
  and the round still finishes. Its stored game is ended ``aborted`` (so that a
  restart does not bring the dead room back), and everyone connected is told
  (an ``announcement``, ``kind`` ``tournament_game_replayed``). A game whose end
  the store did keep is decided by it instead.
- **Restart**: the running tournament carries on. A game the server restored
  (its room keeps its code) is matched back to its pairing; a game that ended
  before the crash gets its result from the store; a pairing whose room did not
  come back (nobody had started playing) gets a fresh room and a new no-show
  window.

**The database down**: every write the director makes goes through
:class:`~boardroom.server.classroom.tournament_writes.DurableWrites`, which tries it
again while the store refuses it for now, pauses the tournament (an
``announcement``) past ``outage_limit`` and resumes it when the write goes through;
meanwhile the teacher's requests are answered ``storage_unavailable`` at once.

Modules beside this one, each with one job: ``tournament_writes`` (the writes
that survive an outage), ``tournament_entrants`` (who the entrants are),
``tournament_seating`` (the rooms that wait, the ``match`` that calls a student),
``tournament_outcomes`` (what a game's end means), ``tournament_errors``
(the refusals, importable from here too).

Every change is made under one lock, in the order the hub reported it: the
director hears the hub's events (:mod:`boardroom.server.hub.boundary`) synchronously, and
each starts a task that waits for the lock. It reads the hub's rooms as
snapshots (:class:`~boardroom.server.hub.boundary.RoomInfo`), never the live rooms.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from dataclasses import replace
from functools import partial
from typing import cast

import msgspec

from boardroom.server.classroom.roster import MergeRefusedError, Roster
from boardroom.server.classroom.tournament_entrants import Entrants
from boardroom.server.classroom.tournament_errors import (
    DirectorError,
    TournamentOverError,
    TournamentRunningError,
    UnknownEntrantError,
    UnknownTournamentError,
)
from boardroom.server.classroom.tournament_outcomes import (
    no_show_reason,
    outcome_of,
    outcome_of_record,
)
from boardroom.server.classroom.tournament_seating import Seating
from boardroom.server.classroom.tournament_writes import FIRST_RETRY_SECONDS, DurableWrites
from boardroom.server.core.players import PlayerId
from boardroom.server.core.records import GameRecord, GameState, Termination
from boardroom.server.core.room_output import ClientId, GameFinished, GameStarted
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import (
    HubEvent,
    PauseChanged,
    PlayerRemoved,
    RoomDropped,
    SessionWelcomed,
)
from boardroom.server.room_host import STORAGE_OUTAGE_LIMIT
from boardroom.server.store import (
    PairingRecord,
    Store,
    StudentRecord,
    TournamentRecord,
)
from boardroom.server.tournaments.players import Outcome
from boardroom.server.tournaments.progress import (
    TournamentProgress,
    forfeit_result,
    stored_spectator_delay,
    stored_spectator_delay_seconds,
)
from boardroom.server.tournaments.spec import CLASS_AUTOPILOT, TournamentSpec, parse_entrant
from boardroom.server.tournaments.view import TournamentView, tournament_view
from boardroom.shared.games import (
    Player,
    get_game,
)
from boardroom.shared.protocol.messages import (
    AUTOPILOT_OFF,
    Clock,
    Level,
)
from boardroom.shared.protocol.room_closing import Closing
from boardroom.shared.protocol.tournament_ending import TournamentEnding

__all__ = [
    "DirectorError",
    "TournamentDirector",
    "TournamentOverError",
    "TournamentRunningError",
    "UnknownEntrantError",
    "UnknownTournamentError",
    "no_show_reason",
    "outcome_of",
]

logger = logging.getLogger(__name__)


def _has_round(number: int, stored: TournamentRecord) -> bool:
    return any(pairing.round == number for pairing in stored.pairings)


class TournamentDirector:
    """Runs the tournaments of ``roster``'s class (see the module docstring).

    Call :meth:`start` once the hub runs and the roster is loaded, :meth:`stop`
    at shutdown. Used from the event loop only.
    """

    def __init__(
        self,
        *,
        hub: GameServer,
        store: Store,
        roster: Roster,
        outage_limit: float = STORAGE_OUTAGE_LIMIT,
    ) -> None:
        """``outage_limit``: seconds of storage refusals after which the running
        tournament is announced paused (see the module docstring)."""
        self._hub = hub
        self._store = store
        self._roster = roster
        self._entrants = Entrants(roster, hub)
        self._seats = Seating(hub, self._entrants)
        self._writes = DurableWrites(
            store=store,
            class_name=roster.class_name,
            announce=self._announce,
            outage_limit=outage_limit,
        )
        self._lock = asyncio.Lock()
        self._running: TournamentProgress | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._paused_at: float | None = time.time() if hub.paused else None
        self._lost_rooms: set[str] = set()
        """Rooms closed for the database (``storage_lost``) whose game is not replayed yet."""

    # -- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Hook into the hub, and carry on the running tournament, if any."""
        self._hub.subscribe(self._hear)
        self._roster.add_merge_check(self._check_merge)
        async with self._lock:
            records = await self._store.tournaments(self._roster.class_name)
            running = [r for r in records if r.status == "running"]
            if not running:
                return
            progress = self._running = TournamentProgress.from_record(running[0])
            started = [p.game_id for p in progress.record.pairings if p.game_id is not None]
            if started:  # its spectator delay, as its games' rooms kept it
                options = (await self._store.get_game(started[-1])).options
                progress.spectator_delay = stored_spectator_delay(options)
                progress.spectator_delay_seconds = stored_spectator_delay_seconds(options)
            logger.info("tournament resumed", extra={"tournament": progress.id})
            self._entrants.keep_sessions(progress)
            await self._recover(progress)
            await self._advance()
            self._arm_timer()

    async def stop(self) -> None:
        """Unhook from the hub and stop the timer and every task."""
        self._hub.unsubscribe(self._hear)
        self._roster.remove_merge_check(self._check_merge)
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- the teacher's requests ----------------------------------------------------------

    async def create(self, spec: TournamentSpec) -> TournamentView:
        """Create the tournament and open its first round. Raises
        :class:`TournamentRunningError` or :class:`UnknownEntrantError`; nothing is
        created then. ``spec.no_show_seconds`` may be any positive number (the
        HTTP API keeps it to 10..600). :class:`StorageUnavailableError` while the
        director waits on the store."""
        self._writes.refuse_in_outage()
        async with self._lock:
            running = self._running
            if running is not None:
                raise TournamentRunningError(
                    f"tournament {running.id} ({running.record.name!r}) is running: "
                    "one at a time; cancel it or let it finish first"
                )
            entrants = [self._entrants.record(entrant) for entrant in spec.entrants]
            record = await self._store.create_tournament(
                class_name=self._roster.class_name,
                name=spec.name,
                game=spec.game,
                format=spec.format,
                rounds=spec.rounds,
                double=spec.double,
                clock=msgspec.to_builtins(spec.clock),
                no_show_seconds=spec.no_show_seconds,
                entrants=entrants,
                at=time.time(),
                hints=spec.hints,
                autopilot=self._autopilot_of(spec),
            )
            progress = self._running = TournamentProgress.from_record(record)
            progress.spectator_delay = spec.spectator_delay
            progress.spectator_delay_seconds = spec.spectator_delay_seconds
            logger.info(
                "tournament created",
                extra={"tournament": record.id, "format": spec.format, "game": spec.game},
            )
            self._entrants.keep_sessions(progress)
            await self._advance()
            self._arm_timer()
            return self._view(progress)

    async def cancel(self, tournament_id: int) -> TournamentView:
        """Cancel the running tournament (a cancelled one is answered as it is).
        Raises :class:`UnknownTournamentError`, :class:`TournamentOverError`;
        :class:`StorageUnavailableError` while the director waits on the store."""
        self._writes.refuse_in_outage()
        async with self._lock:
            progress = self._running
            if progress is None or progress.id != tournament_id:
                found = await self.view(tournament_id)
                if found.status == "finished":
                    raise TournamentOverError(
                        f"tournament {tournament_id} is finished: there is nothing to cancel"
                    )
                return found
            reason = Closing.tournament_cancelled(progress.record.name)
            for pairing in progress.undecided():
                if pairing.room is not None:
                    await self._hub.close_room(pairing.room, reason)
            await self._end(progress, "cancelled")
            return self._view(progress)

    async def views(self) -> list[TournamentView]:
        """Every tournament of the class, newest first."""
        records = await self._store.tournaments(self._roster.class_name)
        return [self._view(TournamentProgress.from_record(r)) for r in records]

    async def view(self, tournament_id: int) -> TournamentView:
        """One tournament; :class:`UnknownTournamentError` if the class has none with that id."""
        for found in await self.views():
            if found.id == tournament_id:
                return found
        raise UnknownTournamentError(
            f"no tournament {tournament_id}: GET /api/tournaments lists them"
        )

    async def current(self) -> TournamentView:
        """The running tournament, else the latest finished one; else
        :class:`UnknownTournamentError`."""
        views = await self.views()
        for status in ("running", "finished"):
            for found in views:
                if found.status == status:
                    return found
        raise UnknownTournamentError("no tournament is running or finished yet")

    # -- rounds ---------------------------------------------------------------------------

    async def _advance(self) -> None:
        """Pair the next round once the current one is complete (again, while a
        round is decided in advance), or finish the tournament."""
        while (progress := self._running) is not None:
            if progress.undecided():
                return
            round_ = progress.next_round()
            if round_ is None:
                await self._end(progress, "finished")
                return
            number = progress.round + 1
            known = progress.decided_in_advance(round_)
            pairings = [
                PairingRecord(
                    number,
                    board,
                    pairing.first,
                    pairing.second,
                    result=known[board].value if board in known else None,
                )
                for board, pairing in enumerate(round_.pairings, start=1)
            ]
            await self._writes.make(
                progress,
                partial(
                    self._store.open_round, progress.id, number, round_.bye, pairings, time.time()
                ),
                done=partial(_has_round, number),
            )
            progress.add_round(number, round_.bye, pairings)
            logger.info("tournament round", extra={"tournament": progress.id, "round": number})
            for pairing in pairings:
                if pairing.result is None:
                    await self._open(progress, pairing)

    async def _open(self, progress: TournamentProgress, pairing: PairingRecord) -> None:
        """Open the pairing's room, seat its AI entrants, tell its students."""
        record = progress.record
        players = [self._entrants.player(entrant) for entrant in (pairing.first, pairing.second)]
        code = self._hub.open_tournament_room(
            get_game(record.game),
            clock=msgspec.convert(record.clock, Clock),
            first=players[0],
            second=players[1],
            hints=record.hints,
            spectator_delay=progress.spectator_delay,
            spectator_delay_seconds=progress.spectator_delay_seconds,
            autopilot=None if record.autopilot == AUTOPILOT_OFF else Level(record.autopilot),
        )
        pairing = await self._new_window(progress, pairing, room=code)
        for entrant in (pairing.first, pairing.second):
            kind, level = parse_entrant(entrant)
            if kind == "ai":
                await self._hub.seat_ai(code, cast(Level, level))
        for side in Player:
            self._seats.send_match(progress, pairing, side)

    async def _recover(self, progress: TournamentProgress) -> None:
        """After a restart: match the games of the current round to what came back."""
        for pairing in progress.undecided():
            room = self._hub.room_info(pairing.room) if pairing.room is not None else None
            if pairing.game_id is not None:
                game = await self._store.get_game(pairing.game_id)
                # A game of another room was lost to the database and is played again.
                if game.state is GameState.FINISHED and game.room == pairing.room:
                    await self._decide(progress, pairing, outcome_of_record(game))
                    continue
            if room is not None and room.status != "waiting":
                game_id = self._hub.game_id(room.code, room.game_number)
                if game_id is not None and game_id != pairing.game_id:
                    await self._set(progress, pairing, game_id=game_id)
                continue  # a restored game: it plays on
            await self._open(progress, pairing)

    async def _replay(self, code: str) -> None:
        """The hub closed room ``code`` for an outage past the limit: play its
        game again from the start (see the module docstring)."""
        async with self._lock:
            try:
                progress = self._running
                pairing = progress.pairing_in(code) if progress is not None else None
                if progress is None or pairing is None:
                    return
                lost_id = pairing.game_id
                if lost_id is not None:
                    stored = await self._stored_game(progress, lost_id)
                    if stored.state is GameState.FINISHED:  # its end was stored after all
                        await self._decide(progress, pairing, outcome_of_record(stored))
                        await self._advance()
                        self._arm_timer()
                        return
                first, second = (self._entrants.name(e) for e in (pairing.first, pairing.second))
                logger.warning(
                    "tournament game lost to the database: played again",
                    extra={"tournament": progress.id, "round": pairing.round, "room": code},
                )
                replayed = TournamentEnding.replayed(
                    progress.record.name, pairing.round, first, second
                )
                self._announce(progress, replayed)
                await self._open(progress, pairing)
                if lost_id is not None:
                    await self._abort_lost_game(progress, lost_id)
                self._arm_timer()
            finally:
                self._lost_rooms.discard(code)

    async def _stored_game(self, progress: TournamentProgress, game_id: int) -> GameRecord:
        """The stored game, read once the store answers (waited for as a write is)."""
        found: list[GameRecord] = []

        async def read() -> None:
            found.append(await self._store.get_game(game_id))

        await self._writes.make(progress, read, done=lambda stored: False)
        return found[-1]

    async def _abort_lost_game(self, progress: TournamentProgress, game_id: int) -> None:
        """End a game lost to the database ``aborted`` in the store, after its
        pairing has its new room: a restart must not bring its dead room back."""
        await self._writes.make(
            progress,
            lambda: self._store.finish_game(game_id, None, Termination.ABORTED, time.time()),
            # Refused on a retry (already finished): the cut-off commit went through.
            done=lambda stored: True,
        )

    async def _decide(
        self, progress: TournamentProgress, pairing: PairingRecord, outcome: Outcome
    ) -> None:
        await self._set(progress, pairing, result=outcome.value)
        logger.info(
            "tournament game decided",
            extra={
                "tournament": progress.id,
                "round": pairing.round,
                "board": pairing.board,
                "result": outcome.value,
            },
        )

    async def _set(
        self, progress: TournamentProgress, pairing: PairingRecord, **changes: object
    ) -> PairingRecord:
        """Store the changes to a pairing, then make them in memory."""

        def has_them(stored: TournamentRecord) -> bool:
            return any(
                (p.round, p.board) == (pairing.round, pairing.board)
                and all(getattr(p, name) == value for name, value in changes.items())
                for p in stored.pairings
            )

        await self._writes.make(
            progress,
            lambda: self._store.update_pairing(
                progress.id,
                pairing.round,
                pairing.board,
                **changes,  # type: ignore[arg-type]
            ),
            done=has_them,
        )
        return progress.update(pairing, **changes)

    async def _new_window(
        self, progress: TournamentProgress, pairing: PairingRecord, **changes: object
    ) -> PairingRecord:
        """Store the pairing's no-show deadline a whole window from now (with
        ``changes``); if the store kept the write waiting, again from when it went
        through: nobody's window is spent waiting on the database."""
        window = progress.record.no_show_seconds
        asked = time.time()
        pairing = await self._set(progress, pairing, starts_by=asked + window, **changes)
        if time.time() - asked >= FIRST_RETRY_SECONDS:
            pairing = await self._set(progress, pairing, starts_by=time.time() + window)
        return pairing

    async def _end(self, progress: TournamentProgress, status: str) -> None:
        """Mark the tournament finished or cancelled, and announce it."""
        now = time.time()
        await self._writes.make(
            progress,
            lambda: self._store.end_tournament(progress.id, status, now),
            done=lambda stored: stored.status == status,
        )
        progress.record = replace(progress.record, status=status, finished_at=now)
        self._running = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for entrant in progress.entrants:
            self._entrants.release_session(entrant)
        logger.info("tournament ended", extra={"tournament": progress.id, "status": status})
        if status == "finished":
            ending = self._ending(progress)
        else:
            ending = TournamentEnding.cancelled(progress.record.name)
        self._announce(progress, ending)

    def _announce(self, progress: TournamentProgress, ending: TournamentEnding) -> None:
        """Tell everyone connected the tournament's news: the server's words, not the
        teacher's (the page labels them so)."""
        self._hub.announce(ending.english(), source="server", tournament=progress.id, ending=ending)

    def _ending(self, progress: TournamentProgress) -> TournamentEnding:
        winners = [s for s in progress.standings() if s.rank == 1]
        names = [self._entrants.name(s.player) for s in winners]
        return TournamentEnding.over(progress.record.name, names, winners[0].points)

    # -- no-shows ---------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        progress = self._running
        if progress is None or self._hub.paused:
            return  # in a pause no deadline passes: the resume arms the timer again
        deadlines = [p.starts_by for p in self._seats.waiting(progress) if p.starts_by is not None]
        if deadlines:
            delay = max(0.0, min(deadlines) - time.time())
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(delay, lambda: self._spawn(self._deadline_passed()))

    async def _deadline_passed(self) -> None:
        async with self._lock:
            progress = self._running
            if progress is None or self._hub.paused:
                return
            now = time.time()
            for pairing in self._seats.waiting(progress):
                if pairing.starts_by is None or pairing.starts_by > now or pairing.room is None:
                    continue
                if pairing.room in self._lost_rooms:
                    continue  # lost to the database: played again (_replay), nobody forfeits
                room = self._hub.room_info(pairing.room)
                if room is not None and room.state.saving_paused:
                    # A sit-down that would start its game was refused for the
                    # store (and is being sent again): nobody forfeits for the
                    # database. A whole new window, as after the teacher's pause.
                    moved = await self._new_window(progress, pairing)
                    for side in Player:
                        self._seats.send_match(progress, moved, side)
                    continue
                first = self._entrants.name(pairing.first)
                second = self._entrants.name(pairing.second)
                reason = partial(no_show_reason, first, second)
                seated = await self._hub.close_room_unless_started(pairing.room, reason)
                if seated is None:
                    if self._hub.has_room(pairing.room):
                        continue  # it started: its start is on its way to us
                    seated = {Player.FIRST: False, Player.SECOND: False}  # the teacher closed it
                await self._decide(
                    progress,
                    pairing,
                    forfeit_result(not seated[Player.FIRST], not seated[Player.SECOND]),
                )
            await self._advance()
            self._arm_timer()

    async def _extend(self, paused_at: float, resumed_at: float) -> None:
        """Move each waiting game's deadline on by what the pause took from its window,
        and send its players ``match`` again with it (their pages count down to it)."""
        async with self._lock:
            progress = self._running
            if progress is None:
                return
            window = progress.record.no_show_seconds
            for pairing in self._seats.waiting(progress):
                assert pairing.starts_by is not None
                window_from = max(paused_at, pairing.starts_by - window)
                held = max(0.0, resumed_at - window_from)
                moved = await self._set(progress, pairing, starts_by=pairing.starts_by + held)
                for side in Player:
                    self._seats.send_match(progress, moved, side)
            self._arm_timer()

    # -- what the hub tells us ----------------------------------------------------------------

    def _hear(self, event: HubEvent) -> None:
        match event:
            case SessionWelcomed():
                self._welcomed(event.session)
            case GameStarted() | GameFinished():
                self._game_event(event)
            case PauseChanged():
                self._pause_changed(event.paused, event.at)
            case PlayerRemoved():
                self._spawn(self._withdraw(event.player))
            case RoomDropped(lost=True) if self._running is not None:
                # Known at once: its no-show deadline must not pass while it waits.
                self._lost_rooms.add(event.room.code)
                self._spawn(self._replay(event.room.code))
            case _:
                pass  # a room let go otherwise: its game's end was heard before

    def _welcomed(self, session_id: ClientId) -> None:
        """Send ``match`` again for the session's game not yet started."""
        progress = self._running
        if progress is None:
            return
        player = self._hub.session_player(session_id)
        if player is None:
            return
        for pairing in self._seats.waiting(progress):
            for side, entrant in zip(Player, (pairing.first, pairing.second), strict=True):
                if self._entrants.player(entrant) == player:
                    self._seats.send_match(progress, pairing, side, only=session_id)

    def _game_event(self, event: GameStarted | GameFinished) -> None:
        if self._running is None:
            return  # no tournament: nothing to hear (one may start later, with new rooms)
        code = event.room
        if isinstance(event, GameStarted):
            # Asked now: the recorder forgets a game's id once it has finished.
            game_id = self._hub.game_id(code, event.game_number)
            if game_id is not None:
                self._spawn(self._game_started(code, game_id))
        else:
            self._spawn(self._game_finished(code, outcome_of(event.winner, event.reason)))

    async def _game_started(self, code: str, game_id: int) -> None:
        async with self._lock:
            progress = self._running
            pairing = progress.pairing_in(code) if progress is not None else None
            if progress is not None and pairing is not None:
                await self._set(progress, pairing, game_id=game_id)
                self._arm_timer()

    async def _game_finished(self, code: str, outcome: Outcome) -> None:
        async with self._lock:
            progress = self._running
            pairing = progress.pairing_in(code) if progress is not None else None
            if progress is not None and pairing is not None:
                await self._decide(progress, pairing, outcome)
                await self._advance()
                self._arm_timer()

    def _pause_changed(self, paused: bool, now: float) -> None:
        if paused:
            if self._paused_at is None:
                self._paused_at = now
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        elif self._paused_at is not None:
            paused_at, self._paused_at = self._paused_at, None
            self._spawn(self._extend(paused_at, now))

    async def _withdraw(self, player: PlayerId) -> None:
        """The student who is ``player`` withdraws from the running tournament
        (removed from the class, or their token revoked), if they are in it."""
        async with self._lock:
            progress = self._running
            if progress is None:
                return
            entrants = [e for e in progress.active() if self._entrants.player(e) == player]
            if not entrants:
                return
            entrant = entrants[0]
            await self._writes.make(
                progress,
                lambda: self._store.withdraw_entrant(progress.id, entrant),
                done=lambda stored: any(
                    e.entrant == entrant and e.withdrawn for e in stored.entrants
                ),
            )
            progress.withdraw(entrant)
            self._entrants.release_session(entrant)
            for pairing in progress.undecided():
                if entrant not in (pairing.first, pairing.second):
                    continue
                if pairing.room is not None:
                    opponent = pairing.second if pairing.first == entrant else pairing.first
                    reason = Closing.removed(
                        absent=self._entrants.name(entrant), winner=self._entrants.name(opponent)
                    )
                    closed = await self._hub.close_room_unless_started(pairing.room, reason)
                    if closed is None and self._hub.has_room(pairing.room):
                        continue  # a game in progress: the removal resigned it
                outcome = forfeit_result(pairing.first == entrant, pairing.second == entrant)
                await self._decide(progress, pairing, outcome)
            await self._advance()
            self._arm_timer()

    # -- entrants and views ------------------------------------------------------------------

    def _check_merge(self, student: StudentRecord, into: StudentRecord) -> None:
        """Refuse to merge two players of the running tournament: one person
        cannot hold both seats of a game (:data:`~boardroom.server.classroom.roster.MergeCheck`)."""
        progress = self._running
        if progress is None:
            return
        playing = {self._entrants.player(entrant) for entrant in progress.active()}
        if student.player in playing and into.player in playing:
            raise MergeRefusedError(
                f"{student.name} and {into.name} both play in the tournament "
                f"{progress.record.name}: merge them once it is over (or cancelled)"
            )

    def _autopilot_of(self, spec: TournamentSpec) -> str:
        """The tournament's autopilot as stored: the spec's level or ``off``, the
        class's default (the hub's, as the teacher set it) for ``class``."""
        if spec.autopilot != CLASS_AUTOPILOT:
            return spec.autopilot
        default = self._hub.autopilot
        return AUTOPILOT_OFF if default is None else default

    def _view(self, progress: TournamentProgress) -> TournamentView:
        return tournament_view(progress, self._entrants.name, self._seats.seated(self._running))

    def _spawn(self, coroutine: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("a tournament step failed", exc_info=task.exception())
