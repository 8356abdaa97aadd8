"""A room as a sans-I/O state machine: inputs in, outputs out, nothing hidden.

The room owns everything about one table: two seats, the spectators, the game
in progress (rules from :mod:`boardroom.shared.games`), its clock, draw offers, rematch
requests and the AI seat's pending search. It does no I/O: it reads no clock
(every input carries ``now``, Unix seconds, as from :func:`time.time`, since
``gone_until`` goes on the wire and event times into the records), opens no
socket, starts no task, and draws randomness only from the ``random.Random``
it is given. The server is a thin adapter around it, as python-websockets'
asyncio layer is around its ``Protocol``.

:class:`Room` is the facade over four parts, one job each, whose docstrings
state the rules the room applies (``docs/protocol.md`` states the wire side):

- :mod:`boardroom.server.core.seating`: who sits where, spectators, grace windows and
  reconnection, tournament rooms' reserved seats;
- :mod:`boardroom.server.core.game_in_play`: moves, clocks, draws, resigning, endings,
  results and rematches;
- :mod:`boardroom.server.core.ai_turns`: the server AI's moves and the players' hints,
  and AI matches;
- :mod:`boardroom.server.core.class_controls`: the teacher's pause, hints switch and
  closing;

joined by :mod:`boardroom.server.core.table` (what a change to one part means for the
others: leaving resigns, a window's end abandons, both seats taken start a
game, a move asks the AI, a pause holds it all), shown by
:mod:`boardroom.server.core.room_view`, and configured by
:class:`~boardroom.server.core.room_options.RoomOptions`.

Inputs (each returns an :class:`Output`)::

    seat(client, name, kind)      take a free seat             (join, create_room)
    add_ai(level)                 seat the server AI           (add_ai, create_room)
    watch(client, name)           watch as a spectator         (watch)
    handle(client, message)       a room request               (move, resign, draw..., chat)
    disconnected(client)          a connection dropped
    reconnected(client)           it came back (resume token)
    ai_moved(game, ply, move)     the engine answered an AiRequest (with its search)
    ai_failed(game, ply)          the engine could not answer it
    hint_found(client, ...)       the engine answered a hint's AiRequest
    hint_failed(client)           it could not
    tick(now)                     time passed: clocks and grace windows
    resume_after_restart(now)     after Room.restore, once the server listens

and the teacher's, in class mode (:mod:`boardroom.server.classroom`)::

    pause(now), resume(now)       stop every clock and move; start them again
    set_hints(allowed)            allow hints or not
    rename(client, name)          a member's name changes
    remove(client)                a member is removed from the class
    close(reason)                 the room closes; its members are let go

The contract with the server, for every :class:`Output`:

1. **Persist** ``events`` first, in order, and wait until they are durable;
2. **then send** ``messages``, in order (a move is broadcast only once it is
   stored, so a client never sees a move that a crash could lose). A ``moved``
   carrying the AI's ``search`` goes whole only to clients whose ``hello``
   asked for it (``search_info``); everyone else gets it without
   (:func:`~boardroom.server.core.room_output.without_search`): the room does not know
   who asked, the server's sessions do;
3. submit ``ai_requests`` to the engine pool and answer each one, exactly
   once, with :meth:`Room.ai_moved` or :meth:`Room.ai_failed`;
4. call :meth:`Room.tick` at ``next_deadline`` (or soon after) if no other
   input comes first. Every input applies what time alone has decided before
   it acts (as ``tick(now)`` would), so a late tick loses nothing.

Calls must be serialised per room (one at a time, with non-decreasing ``now``).

A refused request gets one :class:`~boardroom.shared.protocol.messages.Error` to its
sender, echoing its ``id``, and changes nothing. Replies echo the request's
``id`` to the requester; the copy of the same event that goes to everyone else
carries none.

:class:`ClientId` names a *session*, not a socket: the server gives one to each
``hello`` and gives the same one back to a connection that resumes with the
session's token, so :meth:`Room.reconnected` takes the id that held the seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from boardroom.server.core.ai_turns import AiTurns
from boardroom.server.core.class_controls import ClassControls
from boardroom.server.core.class_controls import hold_clock as stop_clock
from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.rewindable_random import RandomMark, RewindableRandom
from boardroom.server.core.room_draft import Draft, RefusedError
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import (
    ALL,
    AiRequest,
    ClientId,
    Everyone,
    GameFinished,
    GameStarted,
    MoveMade,
    Output,
    PersistEvent,
    Recipient,
    RoomStatus,
)
from boardroom.server.core.seating import Occupant, Seating
from boardroom.server.core.state_copy import deep_copy
from boardroom.server.core.table import RoomRequest, Table
from boardroom.shared.games import (
    Game,
    Player,
    get_game,
)
from boardroom.shared.protocol.messages import (
    Error,
    RequestId,
    RoomState,
    RoomSummary,
    SearchInfo,
    State,
)
from boardroom.shared.protocol.room_closing import Closing

__all__ = [
    "ALL",
    "AiRequest",
    "ClientId",
    "Everyone",
    "GameFinished",
    "GameStarted",
    "MoveMade",
    "Output",
    "PersistEvent",
    "Recipient",
    "Room",
    "RoomOptions",
    "RoomRequest",
    "RoomStatus",
]


class RoomSnapshot:
    """A room's state at one moment (:meth:`Room.snapshot`); opaque."""

    __slots__ = ("rng_mark", "table")

    def __init__(self, table: Table, rng_mark: RandomMark) -> None:
        self.table = table
        self.rng_mark = rng_mark


class Room:
    """One room: seats, spectators, a game, its clock (see the module docstring).

    ``game_name`` is a canonical game name (``connect4``, ``mnk-5-5-4``); an
    unknown one raises :class:`~boardroom.shared.errors.UnknownGameError`. ``paused``
    opens it paused (a room opened while the teacher has the games paused).
    """

    def __init__(
        self,
        code: str,
        game_name: str,
        *,
        options: RoomOptions,
        rng: random.Random,
        now: float,
        paused: bool = False,
    ) -> None:
        self.code = code
        self.game: Game = get_game(game_name)
        self.options = options
        self.created_at = now
        # Drawn from through a wrapper that a snapshot marks without copying its state.
        self._rng = RewindableRandom(rng)
        controls = ClassControls(
            paused_at=now if paused else None, hints=options.hints, ai_match=options.ai_match
        )
        self._table = Table(
            self._rng,
            Seating(code, options),
            GameInPlay.new(code, self.game, options),
            AiTurns(),
            controls,
        )

    # -- restoring -------------------------------------------------------------------

    @classmethod
    def restore(
        cls,
        *,
        options: RoomOptions,
        started: GameStarted,
        moves: Sequence[MoveMade],
        finished: GameFinished | None = None,
        rng: random.Random,
    ) -> Room:
        """Rebuild a room from its stored latest game: the events it persisted.

        The result is paused: every human or bot seat is held for its session
        (disconnected, with no window running yet) and no clock runs. Call
        :meth:`resume_after_restart` when the server accepts connections again.
        Draw offers and rematch requests are not stored and start afresh.
        Raises ``ValueError`` if the records do not replay (moves out of order,
        an illegal move, a person's or bot's seat without its session, an
        unknown AI level).
        """
        room = cls(started.room, started.game, options=options, rng=rng, now=started.at)
        room._table.seating.restore(started.seats)
        room._table.play.replay(started, moves, finished)
        room._table.move_times = [made.at for made in moves]  # a delay by seconds times them
        return room

    def resume_after_restart(self, now: float) -> Output:
        """Start the clocks of a restored room from ``now`` (the time the server
        was down is nobody's) and the grace windows of its held seats. Emits the
        result of a game whose last move was stored but not its end, and the AI
        request if the AI is to move. Call it once, before any other input."""
        out = Draft()
        self._table.restarted(now, out)
        return self._table.output(out)

    # -- reading -----------------------------------------------------------------------

    @property
    def status(self) -> RoomStatus:
        """``waiting``, ``playing`` or ``finished``."""
        return self._table.play.status

    @property
    def paused(self) -> bool:
        """True from :meth:`pause` until :meth:`resume`."""
        return self._table.controls.paused

    @property
    def game_number(self) -> int:
        """The current (or last) game's number, from 1."""
        return self._table.play.number

    @property
    def moves(self) -> str:
        """The current (or last) game's move string."""
        return self._table.play.moves

    @property
    def game_players(self) -> dict[Player, str]:
        """Who played the current or last game, by side, named as when it
        started or as the teacher renamed them since (empty before the first
        game). Kept after they leave, for whoever shows how a game ended (the
        class's wall, the players' ``state``)."""
        return dict(self._table.play.players)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has closed the room."""
        return self._table.controls.closed

    @property
    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (see :attr:`Output.next_deadline`)."""
        return self._table.next_deadline

    @property
    def audience(self) -> frozenset[ClientId]:
        """Connected seated players and spectators: who :data:`ALL` reaches."""
        return frozenset(self._table.seating.audience())

    @property
    def members(self) -> frozenset[ClientId]:
        """Every client in the room: seated (connected or held) or watching."""
        return self._table.seating.members

    def has_member(self, client: ClientId) -> bool:
        """``client in members``, without building the set."""
        seating = self._table.seating
        return client in seating.spectators or seating.side_of(client) is not None

    @property
    def has_free_seat(self) -> bool:
        """True while a seat is empty (someone may join, or the AI be added)."""
        return not self._table.seating.full

    @property
    def is_empty(self) -> bool:
        """True when no client sits, is held or watches: the server may drop the
        room. A tournament room waiting for its game is kept, empty or not, until
        the game is over or the room is closed; an AI match, while it plays or
        its watchers' grace window runs (``Seating.unwatched_until``); any room
        whose game started, while a dropped spectator's window runs
        (``Seating.kept_for_watchers_until``)."""
        if self.options.tournament and self.status != "finished" and not self.closed:
            return False
        if self.options.ai_match and self.status == "playing":
            return False  # played out, or called off once nobody watches (Table.expire)
        if self._table.seating.unwatched_until is not None:
            # An AI match over while its watchers' window runs: kept for them
            # to come back to, until the window ends (Table.expire).
            return False
        seating = self._table.seating  # not self.members: asked after every input
        if seating.kept_for_watchers_until is not None:
            # A spectator dropped: kept for it to watch again (Seating.drop_spectator).
            return False
        return not seating.spectators and all(
            occupant is None or occupant.client is None for occupant in seating.seats.values()
        )

    def is_taken(self, side: Player) -> bool:
        """True while someone (a person, a bot, the AI) holds ``side``, connected or not."""
        return self._table.seating.seats[side] is not None

    def seat_holder(self, side: Player) -> tuple[ClientId, str, PlayerKind, str | None] | None:
        """The session, name, kind and player id (None if unknown) of the client
        holding ``side`` (connected or held); None for an empty seat or the server AI."""
        occupant = self._table.seating.seats[side]
        if occupant is None or occupant.client is None or occupant.kind is PlayerKind.AI:
            return None
        return occupant.client, occupant.name, occupant.kind, occupant.player

    def side_of(self, client: ClientId) -> Player | None:
        """The seat ``client`` holds (connected or not), if any."""
        return self._table.seating.side_of(client)

    def state_for(self, client: ClientId | None, *, now: float) -> RoomState:
        """The whole room as ``client`` may see it at ``now``: ``you`` is its seat;
        join and watch codes go to seated players only, and an AI match's watch
        code to its watchers (nobody else may sit there, so they share it)."""
        return self._table.state(client, now)

    def summary(self) -> RoomSummary:
        """The room's line in ``list_rooms``."""
        return self._table.summary()

    @property
    def hints_allowed(self) -> bool:
        """True while a player may ask for a hint here (never in an AI match)."""
        return self._table.controls.hints_allowed

    # -- inputs: joining -------------------------------------------------------------

    def seat(
        self,
        client: ClientId,
        name: str,
        kind: PlayerKind,
        *,
        now: float,
        request_id: RequestId = None,
        player: str | None = None,
    ) -> Output:
        """Seat ``client`` (a validated name) in a free seat; ``room_full`` if
        none. Everyone gets the new state; when both seats are taken and no game
        is in progress, the next game starts. A client already seated just gets
        the state again (and is reconnected if it was held). ``kind`` is a
        person's or a bot's: the AI sits through :meth:`add_ai` (``ValueError``).
        ``player`` is the client's durable player id, kept for the records."""
        if kind is PlayerKind.AI:
            raise ValueError("the server AI takes a seat through add_ai, not seat")
        out = self._begin(now)
        if self.side_of(client) is not None:
            self._table.reconnect(client, out, now, request_id)
            return self._table.output(out)
        occupant = Occupant(client=client, name=name, kind=kind, player=player)
        return self._attempt(
            out,
            client,
            request_id,
            lambda: self._table.take_seat(occupant, out, now, client, request_id),
        )

    def add_ai(
        self,
        level: str,
        *,
        now: float,
        by: ClientId | None = None,
        request_id: RequestId = None,
        side: Player | None = None,
    ) -> Output:
        """Seat the server AI at ``level`` in a free seat (``bad_level``,
        ``room_full``). ``by`` is the requesting client, who must be seated;
        None when the server seats it itself (``create_room`` with ``ai_level``
        or ``ai_match``), in which case a refusal raises ``ValueError`` (the
        server checked first) and ``side`` may name the seat (an AI match's)."""
        out = self._begin(now)
        if by is None:
            try:
                self._table.add_ai(level, None, now, out, request_id, side)
            except RefusedError as refusal:
                raise ValueError(refusal.message) from None
            return self._table.output(out)
        return self._attempt(
            out, by, request_id, lambda: self._table.add_ai(level, by, now, out, request_id)
        )

    def watch(
        self,
        client: ClientId,
        name: str,
        *,
        now: float,
        request_id: RequestId = None,
        live: bool = False,
    ) -> Output:
        """Add ``client`` as a spectator and send it the whole state. A seated
        client stays seated and just gets the state. In a room with a spectator
        delay, only a ``live`` spectator (the teacher's) sees the game as it is
        played (:mod:`boardroom.server.core.spectator_delay`)."""
        out = self._begin(now)
        if self.side_of(client) is not None:
            self._table.reconnect(client, out, now, request_id)
        else:
            if live:
                self._table.live_watchers.add(client)
            else:
                self._table.live_watchers.discard(client)
            self._table.seating.watch(client, name)
            out.send(client, State(room=self.state_for(client, now=now), id=request_id))
        return self._table.output(out)

    # -- inputs: requests ------------------------------------------------------------

    def handle(self, client: ClientId, message: RoomRequest, *, now: float) -> Output:
        """Apply one request from ``client``; a refused one gets an ``error``
        (echoing ``message.id``) and changes nothing."""
        table = self._table
        out = Draft()
        table.expire(now, out)
        # _attempt's refusal contract, written out: every move comes this way.
        mark = out.mark()
        try:
            table.request(client, message, now, out)
        except RefusedError as refusal:
            out.drop_since(mark)
            out.send(client, Error(code=refusal.code, message=refusal.message, id=message.id))
        return table.output(out)

    # -- inputs: connections ------------------------------------------------------------

    def disconnected(self, client: ClientId, *, now: float) -> Output:
        """``client``'s connection dropped. A spectator is gone; a seat is held
        until ``now + grace_seconds`` and everyone left is told. Unknown clients
        and held seats are ignored."""
        out = self._begin(now)
        self._table.disconnected(client, now, out)
        return self._table.output(out)

    def reconnected(self, client: ClientId, *, now: float) -> Output:
        """``client`` is back (resumed its session): if it still holds a seat,
        the others are told and it gets the whole state. Otherwise (the window
        ended first, or it never sat here) nothing happens."""
        out = self._begin(now)
        if self.side_of(client) is not None:
            self._table.reconnect(client, out, now, None)
        return self._table.output(out)

    # -- inputs: the engine and time ------------------------------------------------

    def ai_moved(
        self,
        game_number: int,
        ply: int,
        move_text: str,
        *,
        now: float,
        search: SearchInfo | None = None,
    ) -> Output:
        """The engine's answer to the :class:`AiRequest` for ``game_number``,
        ``ply``. Played if that position is still the one to move in; a stale
        answer (the game ended or moved on) is dropped and, if the AI is to move
        elsewhere now, a new request goes out. A move the rules refuse is
        replaced by a random legal one (an engine fault must not stall a game).
        ``search`` (how the engine found the move) goes out with the move, in
        ``moved.search``, unless the move was replaced."""
        out = self._begin(now)
        self._table.ai_answered(game_number, ply, move_text, search, now, out)
        return self._table.output(out)

    def ai_failed(self, game_number: int, ply: int, *, now: float) -> Output:
        """The engine could not answer the request (after the pool's retries):
        the AI plays a random legal move, drawn from the room's rng."""
        out = self._begin(now)
        self._table.ai_answered(game_number, ply, None, None, now, out)
        return self._table.output(out)

    def hint_found(
        self,
        client: ClientId,
        game_number: int,
        ply: int,
        move_text: str,
        search: SearchInfo,
        *,
        now: float,
        request_id: RequestId = None,
    ) -> Output:
        """The engine's answer to ``client``'s hint (an :class:`AiRequest` with
        ``hint_for``). If the position is still the one asked about and ``client``
        is still to move there, the hint goes to ``client`` alone and is recorded
        (:class:`HintGiven`); otherwise ``client`` is told it came too late
        (``stale_move``), and nothing is recorded. Hints turned off while it was
        searched (:meth:`set_hints`) keep it from ``client``: ``hints_off``, as
        if it had been asked after the switch."""
        out = self._begin(now)
        self._table.hint_found(client, game_number, ply, move_text, search, now, out, request_id)
        return self._table.output(out)

    def hint_failed(self, client: ClientId, *, now: float, request_id: RequestId = None) -> Output:
        """The engine could not answer ``client``'s hint: ``client`` is told so
        (``engine_busy``); nothing is recorded."""
        out = self._begin(now)
        self._table.turns.hint_failed(client, out, request_id)
        return self._table.output(out)

    def tick(self, now: float) -> Output:
        """Apply what time has decided by ``now``: a flag falls (timeout), a
        grace window ends (abandonment, seat freed). Safe to call at any time."""
        out = self._begin(now)
        return self._table.output(out)

    # -- inputs: the teacher (the rules are in boardroom.server.core.class_controls) ---------------

    def set_hints(self, allowed: bool, *, now: float) -> Output:
        """Allow hints or not from now on (the teacher's switch); everyone gets the
        whole state if that changed anything."""
        out = self._begin(now)
        if self._table.controls.switch_hints(allowed):
            self._table.send_states(out, now, None, None)
        return self._table.output(out)

    def pause(self, now: float) -> Output:
        """Pause the room at ``now``: every connected member gets the whole state,
        with ``paused``. Pausing a paused room changes nothing."""
        out = self._begin(now)
        self._table.pause(now, out)
        return self._table.output(out)

    def resume(self, now: float) -> Output:
        """End the pause at ``now``: the clock runs on from where it stopped,
        held seats get back what was left of their grace windows, everyone gets
        the whole state, then the AI plays the answer kept during the pause (or
        is asked, if it is to move). Resuming a room not paused changes nothing."""
        out = Draft()
        if not self._table.resume(now, out):
            self._table.expire(now, out)
        return self._table.output(out)

    def rename(self, client: ClientId, name: str, *, now: float) -> Output:
        """``client`` is called ``name`` from now on (a validated name): its seat
        or spectator entry takes it, and if it sits here everyone gets the whole
        state, whose ``game_players`` says the new name too. Records of games
        already started keep the name they were stored with. A client not in
        the room changes nothing."""
        out = self._begin(now)
        self._table.rename(client, name, now, out)
        return self._table.output(out)

    def remove(self, client: ClientId, *, now: float) -> Output:
        """``client`` was removed from the class: as if it left, its game in
        progress is resigned (aborted before the first move), even in a pause,
        and its seat is freed; a spectator is just gone. Everyone else is told;
        ``client`` is sent nothing (the server is closing its connection)."""
        out = self._begin(now)
        self._table.remove(client, now, out)
        return self._table.output(out)

    def close(self, reason: str | Closing, *, now: float) -> Output:
        """Close the room: a game in progress ends with no result (``aborted``),
        then every connected member gets ``room_closed`` with ``reason`` (a
        :class:`Closing`: its code and names, and its English words). The
        room is left empty (:attr:`is_empty`), so the server drops it; held
        seats are let go with it."""
        out = self._begin(now)
        self._table.close(reason, now, out)
        return self._table.output(out)

    # -- undoing an input the store refused ----------------------------------------------

    def snapshot(self) -> RoomSnapshot:
        """Everything an input may change (seats, game, clocks, AI turns, controls,
        the random source's state), copied: :meth:`rollback` puts it back. The
        adapter takes one before an input whose events it may fail to store, so a
        move refused for that changes nothing. The game's rules (shared, never
        changed) are not copied."""
        # Shared, not copied: the rules and the options never change, and the
        # random source is one object the parts hold (marked instead: its state is
        # saved only if it is drawn from, rewindable_random.py).
        memo: dict[int, object] = {
            id(self.game): self.game,
            id(self.options): self.options,
            id(self._rng): self._rng,
        }
        return RoomSnapshot(deep_copy(self._table, memo), self._rng.mark())

    def rollback(self, snapshot: RoomSnapshot) -> None:
        """Put the room back as it was at ``snapshot`` (taken of this room): every
        input since is undone, as if it had never come."""
        self._table = snapshot.table
        self._rng.rewind(snapshot.rng_mark)

    @property
    def saving_paused(self) -> bool:
        """Held by :meth:`hold_clock`, until :meth:`release_clock`."""
        return self._table.saving_paused

    def hold_clock(self, now: float, *, tell: bool = True) -> Output:
        """Stop the running clock at ``now`` without ending anyone's turn (the
        adapter does, while the store refuses the room's moves: a player is not
        charged for the time their move waits to be saved, and no flag falls for
        it), and mark the room ``saving_paused``. If it was not, and ``tell``, every
        connected member gets the whole state, with ``saving_paused`` and
        ``clocks.running`` null, so that their clocks stop too (``tell`` False: held
        again after an input that stored nothing; they were told at the first
        hold). The clock is left alone without a game in play with a clock, or
        during the teacher's pause (it is held already)."""
        clock = self._table.play.clock
        if self._table.play.playing and clock is not None and not self.paused:
            stop_clock(clock, now)
        out = Draft()
        if not self._table.saving_paused:
            self._table.saving_paused = True
            if tell:
                self._table.send_states(out, now, None, None)
        return self._table.output(out)

    def release_clock(self, now: float) -> None:
        """Run on from ``now`` a clock :meth:`hold_clock` stopped (not the
        teacher's pause's), no longer ``saving_paused``, for an input the store may
        take; nothing is sent. If the store refuses it too, :meth:`rollback` puts
        the hold back; if it takes it, :meth:`saving_resumed` tells everyone."""
        clock = self._table.play.clock
        if self._table.play.playing and clock is not None and not self.paused:
            clock.resume(now)
        self._table.saving_paused = False

    def saving_resumed(self, now: float) -> Output:
        """The store took an input after :meth:`release_clock`: every connected
        member gets the whole state, without ``saving_paused``, its clocks as they
        run on."""
        out = Draft()
        self._table.send_states(out, now, None, None)
        return self._table.output(out)

    # -- the refusal contract ----------------------------------------------------------

    def _begin(self, now: float) -> Draft:
        """A new input's draft, with what time alone has decided by ``now``."""
        out = Draft()
        self._table.expire(now, out)
        return out

    def _attempt(
        self,
        out: Draft,
        client: ClientId | None,
        request_id: RequestId,
        act: Callable[[], None],
    ) -> Output:
        """Run ``act``; a refusal becomes one error to ``client``, and whatever
        ``act`` had queued is dropped (it refuses before changing anything)."""
        mark = out.mark()
        try:
            act()
        except RefusedError as refusal:
            out.drop_since(mark)
            if client is not None:
                error = Error(code=refusal.code, message=refusal.message, id=request_id)
                out.send(client, error)
        return self._table.output(out)
