"""A room as a sans-I/O state machine: inputs in, outputs out, nothing hidden.

The room owns everything about one table: two seats, the spectators, the game
in progress (rules from :mod:`shared.games`), its clock, draw offers, rematch
requests and the AI seat's pending search. It does no I/O: it reads no clock
(every input carries ``now``, Unix seconds, as from :func:`time.time`, since
``gone_until`` goes on the wire and event times into the records), opens no
socket, starts no task, and draws randomness only from the ``random.Random``
it is given. The server is a thin adapter around it, as python-websockets'
asyncio layer is around its ``Protocol``.

:class:`Room` is the facade over four parts, one job each, whose docstrings
state the rules the room applies (``docs/protocol.md`` states the wire side):

- :mod:`server.core.seating`: who sits where, spectators, grace windows and
  reconnection, tournament rooms' reserved seats;
- :mod:`server.core.game_in_play`: moves, clocks, draws, resigning, endings,
  results and rematches;
- :mod:`server.core.ai_turns`: the server AI's moves and the players' hints,
  and AI matches;
- :mod:`server.core.class_controls`: the teacher's pause, hints switch and
  closing.

The room joins them: who acts (a seat) does what (a game action), a game that
starts or moves on asks the AI, time ends clocks and windows, a pause holds
all of it. Its options are :class:`~server.core.room_options.RoomOptions`.

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

and the teacher's, in class mode (:mod:`server.classroom`)::

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
   (:func:`~server.core.room_output.without_search`): the room does not know
   who asked, the server's sessions do;
3. submit ``ai_requests`` to the engine pool and answer each one, exactly
   once, with :meth:`Room.ai_moved` or :meth:`Room.ai_failed`;
4. call :meth:`Room.tick` at ``next_deadline`` (or soon after) if no other
   input comes first. Every input applies what time alone has decided before
   it acts (as ``tick(now)`` would), so a late tick loses nothing.

Calls must be serialised per room (one at a time, with non-decreasing ``now``).

A refused request gets one :class:`~shared.protocol.messages.Error` to its
sender, echoing its ``id``, and changes nothing. Replies echo the request's
``id`` to the requester; the copy of the same event that goes to everyone else
carries none.

:class:`ClientId` names a *session*, not a socket: the server gives one to each
``hello`` and gives the same one back to a connection that resumes with the
session's token, so :meth:`Room.reconnected` takes the id that held the seat.

Rules that join the parts:

- Leaving in a game in progress resigns it; leaving frees the seat. When a
  held seat's window ends, a game in progress is lost by abandonment and the
  seat is freed; if the opponent is gone too, nobody waited and nobody wins
  (abandonment without a winner). A flag that falls at the same time as a
  window ends is applied first.
- ``random`` for the creator's seat is drawn from the rng when the first game
  starts (until then the creator shows in ``first``, provisionally).
- A *tournament room* (opened by :mod:`server.tournaments`) is not
  :attr:`~Room.is_empty` until its game is over (or it is closed), so the
  server keeps it while it waits for its players. If both players are gone
  when the first window ends, nobody wins (``abandonment`` without a winner),
  whatever the moves. No ``add_ai`` from a client there (``tournament_room``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import msgspec

from server.core import ai_turns
from server.core.ai_turns import AiTurns
from server.core.class_controls import ClassControls, addressed_to_members, hold_clock
from server.core.game_in_play import GameInPlay
from server.core.records import PlayerKind, Termination
from server.core.room_draft import Draft, RefusedError, chat_text
from server.core.room_options import RoomOptions
from server.core.room_output import (
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
from server.core.seating import Occupant, Seating
from shared.games import Game, Move, get_game
from shared.protocol.errors import ErrorCode
from shared.protocol.messages import (
    LEVELS,
    SIDES,
    AcceptDraw,
    AddAi,
    AskHint,
    ChatLine,
    DeclineDraw,
    Error,
    GetState,
    Leave,
    Left,
    MakeMove,
    OfferDraw,
    Rematch,
    RequestId,
    Resign,
    RoomClosed,
    RoomState,
    RoomSummary,
    SearchInfo,
    SendChat,
    Side,
    State,
    other_side,
)

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


RoomRequest = (
    MakeMove
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Rematch
    | Leave
    | SendChat
    | GetState
    | AddAi
    | AskHint
)
"""The client messages that :meth:`Room.handle` takes; the server routes them by
their ``room`` field. ``join`` and ``watch`` name a code, so the server resolves
it and calls :meth:`Room.seat` or :meth:`Room.watch`."""


class Room:
    """One room: seats, spectators, a game, its clock (see the module docstring).

    ``game_name`` is a canonical game name (``connect4``, ``mnk-5-5-4``); an
    unknown one raises :class:`~shared.errors.UnknownGameError`. ``paused``
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
        self._rng = rng
        self._seating = Seating(code, options)
        self._play = GameInPlay.new(code, self.game, options)
        self._turns = AiTurns()
        self._controls = ClassControls(
            paused_at=now if paused else None, hints=options.hints, ai_match=options.ai_match
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
        for side, record in zip(SIDES, started.seats, strict=True):
            room._seating.seats[side] = Occupant.restored(record, side)
        room._play.replay(started, moves, finished)
        return room

    def resume_after_restart(self, now: float) -> Output:
        """Start the clocks of a restored room from ``now`` (the time the server
        was down is nobody's) and the grace windows of its held seats. Emits the
        result of a game whose last move was stored but not its end, and the AI
        request if the AI is to move. Call it once, before any other input."""
        out = Draft()
        self._seating.start_windows(now)
        if self._play.unrecorded_finish is not None:
            out.events.append(self._play.unrecorded_finish)
            self._play.unrecorded_finish = None
        if self._play.playing and self._play.clock is not None:
            self._play.clock.resume(now)
        self._request_ai(out, now)
        return self._output(out)

    # -- reading -----------------------------------------------------------------------

    @property
    def status(self) -> RoomStatus:
        """``waiting``, ``playing`` or ``finished``."""
        return self._play.status

    @property
    def paused(self) -> bool:
        """True from :meth:`pause` until :meth:`resume`."""
        return self._controls.paused

    @property
    def game_number(self) -> int:
        """The current (or last) game's number, from 1."""
        return self._play.number

    @property
    def moves(self) -> str:
        """The current (or last) game's move string."""
        return self._play.moves

    @property
    def game_players(self) -> dict[Side, str]:
        """Who played the current or last game, by side, named as when it
        started or as the teacher renamed them since (empty before the first
        game). Kept after they leave, for whoever shows how a game ended (the
        class's wall, the players' ``state``)."""
        return dict(self._play.players)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has closed the room."""
        return self._controls.closed

    @property
    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (see :attr:`Output.next_deadline`)."""
        deadlines = [t for t, _ in self._deadlines()]
        if self._seating.unwatched_until is not None and not self.paused:
            deadlines.append(self._seating.unwatched_until)
        return min(deadlines) if deadlines else None

    @property
    def audience(self) -> frozenset[ClientId]:
        """Connected seated players and spectators: who :data:`ALL` reaches."""
        return frozenset(self._seating.audience())

    @property
    def members(self) -> frozenset[ClientId]:
        """Every client in the room: seated (connected or held) or watching."""
        return self._seating.members

    @property
    def has_free_seat(self) -> bool:
        """True while a seat is empty (someone may join, or the AI be added)."""
        return not self._seating.full

    @property
    def is_empty(self) -> bool:
        """True when no client sits, is held or watches: the server may drop the
        room. A tournament room waiting for its game is kept, empty or not, until
        the game is over or the room is closed."""
        if self.options.tournament and self.status != "finished" and not self.closed:
            return False
        if self.options.ai_match and self.status == "playing":
            return False  # played out, or called off once nobody watches (_expire)
        return not self.members

    def is_taken(self, side: Side) -> bool:
        """True while someone (a person, a bot, the AI) holds ``side``, connected or not."""
        return self._seating.seats[side] is not None

    def seat_holder(self, side: Side) -> tuple[ClientId, str, PlayerKind, str | None] | None:
        """The session, name, kind and player id (None if unknown) of the client
        holding ``side`` (connected or held); None for an empty seat or the server AI."""
        occupant = self._seating.seats[side]
        if occupant is None or occupant.client is None or occupant.kind is PlayerKind.AI:
            return None
        return occupant.client, occupant.name, occupant.kind, occupant.player

    def side_of(self, client: ClientId) -> Side | None:
        """The seat ``client`` holds (connected or not), if any."""
        return self._seating.side_of(client)

    def state_for(self, client: ClientId | None, *, now: float) -> RoomState:
        """The whole room as ``client`` may see it at ``now``: ``you`` is its seat;
        join and watch codes go to seated players only, and an AI match's watch
        code to its watchers (nobody else may sit there, so they share it)."""
        you = self.side_of(client) if client is not None else None
        match_watcher = self.options.ai_match and client in self._seating.spectators
        play = self._play
        clocks = play.clock.state(now) if play.clock is not None else None
        if clocks is not None and self.paused:
            # No clock runs in a pause: clients that count down locally stop.
            clocks = msgspec.structs.replace(clocks, running=None)
        return RoomState(
            code=self.code,
            game=self.game.name,
            title=self.game.title,
            status=play.status,
            public=self.options.public,
            clock=self.options.clock,
            seats=self._seating.infos(),
            moves=self.moves,
            ply=play.position.ply,
            to_move=play.to_move if play.playing else None,
            clocks=clocks,
            draw_offer=play.draw_offer,
            rematch_offer=play.rematch_offer,
            result=play.result,
            game_number=play.number,
            you=you,
            join_code=self.options.join_code if you else None,
            watch_code=self.options.watch_code if you or match_watcher else None,
            paused=self.paused,
            tournament=self.options.tournament,
            ai_pace=self.options.ai_pace if self.options.ai_match else None,
            hints=self.hints_allowed,
            game_players=dict(play.players),
        )

    def summary(self) -> RoomSummary:
        """The room's line in ``list_rooms``."""
        return RoomSummary(
            code=self.code,
            game=self.game.name,
            title=self.game.title,
            status=self.status,
            players=[o.name for o in self._seating.seats.values() if o is not None],
            spectators=len(self._seating.spectators),
        )

    @property
    def hints_allowed(self) -> bool:
        """True while a player may ask for a hint here (never in an AI match)."""
        return self._controls.hints_allowed

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
        out = Draft()
        self._expire(now, out)
        if self.side_of(client) is not None:
            self._reconnect(client, out, now, request_id)
            return self._output(out)
        occupant = Occupant(client=client, name=name, kind=kind, player=player)
        return self._attempt(
            out, client, request_id, lambda: self._take_seat(occupant, out, now, client, request_id)
        )

    def add_ai(
        self,
        level: str,
        *,
        now: float,
        by: ClientId | None = None,
        request_id: RequestId = None,
        side: Side | None = None,
    ) -> Output:
        """Seat the server AI at ``level`` in a free seat (``bad_level``,
        ``room_full``). ``by`` is the requesting client, who must be seated;
        None when the server seats it itself (``create_room`` with ``ai_level``
        or ``ai_match``), in which case a refusal raises ``ValueError`` (the
        server checked first) and ``side`` may name the seat (an AI match's)."""
        out = Draft()
        self._expire(now, out)
        if by is None:
            try:
                self._add_ai(level, None, now, out, request_id, side)
            except RefusedError as refusal:
                raise ValueError(refusal.message) from None
            return self._output(out)
        return self._attempt(
            out, by, request_id, lambda: self._add_ai(level, by, now, out, request_id)
        )

    def watch(
        self, client: ClientId, name: str, *, now: float, request_id: RequestId = None
    ) -> Output:
        """Add ``client`` as a spectator and send it the whole state. A seated
        client stays seated and just gets the state."""
        out = Draft()
        self._expire(now, out)
        if self.side_of(client) is not None:
            self._reconnect(client, out, now, request_id)
        else:
            self._seating.watch(client, name)
            out.send(client, State(room=self.state_for(client, now=now), id=request_id))
        return self._output(out)

    # -- inputs: requests ------------------------------------------------------------

    def handle(self, client: ClientId, message: RoomRequest, *, now: float) -> Output:
        """Apply one request from ``client``; a refused one gets an ``error``
        (echoing ``message.id``) and changes nothing."""
        out = Draft()
        self._expire(now, out)
        request_id = message.id
        play = self._play

        def act() -> None:
            match message:
                case MakeMove():
                    side = self._require_playing_side(client, "move")
                    move = play.require_turn(side, message)
                    self._play_move(side, move, now, out, client, request_id)
                case Resign():
                    side = self._require_playing_side(client, "resign")
                    play.concede(side, Termination.RESIGNATION, now, out, client, request_id)
                case OfferDraw():
                    side = self._require_playing_side(client, "offer a draw")
                    to_ai = self._seating.occupant(other_side(side)).kind is PlayerKind.AI
                    play.offer_draw(
                        side, to_ai=to_ai, now=now, out=out, client=client, request_id=request_id
                    )
                case AcceptDraw():
                    side = self._require_playing_side(client, "accept a draw")
                    play.require_draw_offer_to(side)
                    play.finish(None, Termination.AGREEMENT, now, out, client, request_id)
                case DeclineDraw():
                    side = self._require_playing_side(client, "decline a draw")
                    play.require_draw_offer_to(side)
                    play.decline_draw(side, out, client, request_id)
                case Rematch():
                    self._rematch(client, now, out, request_id)
                case Leave():
                    self._leave(client, now, out, request_id)
                case SendChat():
                    name = self._seating.member_name(client, "chat")
                    line = ChatLine(room=self.code, name=name, text=chat_text(message.text))
                    out.announce(line, client, request_id)
                case GetState():
                    self._seating.member_name(client, "get its state")
                    out.send(client, State(room=self.state_for(client, now=now), id=request_id))
                case AddAi():
                    self._add_ai(message.level, client, now, out, request_id)
                case AskHint():
                    side = self._require_playing_side(client, "ask for a hint")
                    self._turns.ask_hint(
                        side,
                        play,
                        self._rng,
                        now,
                        out,
                        allowed=self.hints_allowed,
                        client=client,
                        request_id=request_id,
                    )
                case _:
                    raise TypeError(f"not a room request: {message!r}")

        return self._attempt(out, client, request_id, act)

    # -- inputs: connections ------------------------------------------------------------

    def disconnected(self, client: ClientId, *, now: float) -> Output:
        """``client``'s connection dropped. A spectator is gone; a seat is held
        until ``now + grace_seconds`` and everyone left is told. Unknown clients
        and held seats are ignored."""
        out = Draft()
        self._expire(now, out)
        self._seating.stop_watching(client)
        self._seating.note_unwatched(now, playing=self._play.playing)
        status = self._seating.hold(client, now)
        if status is not None:
            out.send(ALL, status)
        return self._output(out)

    def reconnected(self, client: ClientId, *, now: float) -> Output:
        """``client`` is back (resumed its session): if it still holds a seat,
        the others are told and it gets the whole state. Otherwise (the window
        ended first, or it never sat here) nothing happens."""
        out = Draft()
        self._expire(now, out)
        if self.side_of(client) is not None:
            self._reconnect(client, out, now, None)
        return self._output(out)

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
        return self._ai_answer(game_number, ply, move_text, now, search)

    def ai_failed(self, game_number: int, ply: int, *, now: float) -> Output:
        """The engine could not answer the request (after the pool's retries):
        the AI plays a random legal move, drawn from the room's rng."""
        return self._ai_answer(game_number, ply, None, now, None)

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
        out = Draft()
        self._expire(now, out)
        self._turns.hint_found(
            client,
            self.side_of(client),
            self._play,
            game_number,
            ply,
            move_text,
            search,
            now,
            out,
            allowed=self.hints_allowed,
            request_id=request_id,
        )
        return self._output(out)

    def hint_failed(self, client: ClientId, *, now: float, request_id: RequestId = None) -> Output:
        """The engine could not answer ``client``'s hint: ``client`` is told so
        (``engine_busy``); nothing is recorded."""
        out = Draft()
        self._expire(now, out)
        self._turns.hint_failed(client, out, request_id)
        return self._output(out)

    def tick(self, now: float) -> Output:
        """Apply what time has decided by ``now``: a flag falls (timeout), a
        grace window ends (abandonment, seat freed). Safe to call at any time."""
        out = Draft()
        self._expire(now, out)
        return self._output(out)

    # -- inputs: the teacher (the rules are in server.core.class_controls) ---------------

    def set_hints(self, allowed: bool, *, now: float) -> Output:
        """Allow hints or not from now on (the teacher's switch); everyone gets the
        whole state if that changed anything."""
        out = Draft()
        self._expire(now, out)
        if self._controls.switch_hints(allowed):
            self._send_states(out, now, None, None)
        return self._output(out)

    def pause(self, now: float) -> Output:
        """Pause the room at ``now``: every connected member gets the whole state,
        with ``paused``. Pausing a paused room changes nothing."""
        out = Draft()
        self._expire(now, out)
        if self._controls.pause(now):
            if self._play.playing and self._play.clock is not None:
                hold_clock(self._play.clock, now)
            self._send_states(out, now, None, None)
        return self._output(out)

    def resume(self, now: float) -> Output:
        """End the pause at ``now``: the clock runs on from where it stopped,
        held seats get back what was left of their grace windows, everyone gets
        the whole state, then the AI plays the answer kept during the pause (or
        is asked, if it is to move). Resuming a room not paused changes nothing."""
        out = Draft()
        paused_at = self._controls.end_pause()
        if paused_at is None:
            self._expire(now, out)
            return self._output(out)
        self._seating.extend_windows(paused_at, now)
        if self._play.playing and self._play.clock is not None:
            self._play.clock.resume(now)
        self._send_states(out, now, None, None)
        held = self._turns.release_held()
        if held is not None:
            self._take_ai_answer(out, *held, now)
        else:
            self._request_ai(out, now)
        return self._output(out)

    def rename(self, client: ClientId, name: str, *, now: float) -> Output:
        """``client`` is called ``name`` from now on (a validated name): its seat
        or spectator entry takes it, and if it sits here everyone gets the whole
        state, whose ``game_players`` says the new name too. Records of games
        already started keep the name they were stored with. A client not in
        the room changes nothing."""
        out = Draft()
        self._expire(now, out)
        side = self._seating.rename(client, name)
        if side is not None:
            if side in self._play.players:
                self._play.players[side] = name
            self._send_states(out, now, None, None)
        return self._output(out)

    def remove(self, client: ClientId, *, now: float) -> Output:
        """``client`` was removed from the class: as if it left, its game in
        progress is resigned (aborted before the first move), even in a pause,
        and its seat is freed; a spectator is just gone. Everyone else is told;
        ``client`` is sent nothing (the server is closing its connection)."""
        out = Draft()
        self._expire(now, out)
        self._seating.stop_watching(client)
        self._seating.note_unwatched(now, playing=self._play.playing)
        side = self.side_of(client)
        if side is not None:
            if self._play.playing:
                self._play.concede(side, Termination.RESIGNATION, now, out, None, None)
            self._free_seat(side, out, now)
        return self._output(out)

    def close(self, reason: str, *, now: float) -> Output:
        """Close the room: a game in progress ends with no result (``aborted``),
        then every connected member gets ``room_closed`` with ``reason``. The
        room is left empty (:attr:`is_empty`), so the server drops it; held
        seats are let go with it."""
        out = Draft()
        self._expire(now, out)
        if self._play.playing:
            self._play.finish(None, Termination.ABORTED, now, out, None, None)
        out.send(ALL, RoomClosed(room=self.code, reason=reason))
        out.messages = addressed_to_members(out.messages, self.audience)
        self._seating.clear()
        self._turns.forget()
        self._controls.closed = True
        return self._output(out)

    # -- joining the parts ------------------------------------------------------------

    def _take_seat(
        self,
        occupant: Occupant,
        out: Draft,
        now: float,
        requester: ClientId | None,
        request_id: RequestId,
        wanted: Side | None = None,
    ) -> None:
        """Seat ``occupant`` (in ``wanted`` if given); the next game starts if both
        seats are taken and none is played."""
        game_over = self._play.status == "finished"
        side = self._seating.choose_side(occupant, wanted, game_over=game_over)
        self._seating.sit(side, occupant)
        self._play.rematch = frozenset()
        if self._seating.full and not self._play.playing:
            self._start_game(now, out, requester, request_id)
        else:
            self._send_states(out, now, requester, request_id)

    def _add_ai(
        self,
        level: str,
        by: ClientId | None,
        now: float,
        out: Draft,
        request_id: RequestId,
        side: Side | None = None,
    ) -> None:
        if by is not None:
            self._seating.require_player(by, "add an AI player")
            if self.options.tournament:
                raise RefusedError(
                    ErrorCode.TOURNAMENT_ROOM,
                    "the server seats a tournament game's players itself: "
                    "there is no AI to add here",
                )
        if level not in LEVELS:
            raise RefusedError(
                ErrorCode.BAD_LEVEL, f"no AI level {level!r}: choose one of {', '.join(LEVELS)}"
            )
        occupant = Occupant(client=None, name=f"AI ({level})", kind=PlayerKind.AI, level=level)
        self._take_seat(occupant, out, now, by, request_id, side)

    def _free_seat(self, side: Side, out: Draft, now: float) -> None:
        self._seating.free(side)
        self._play.rematch = frozenset()
        self._send_states(out, now, None, None)

    def _reconnect(self, client: ClientId, out: Draft, now: float, request_id: RequestId) -> None:
        side = self.side_of(client)
        assert side is not None
        back = self._seating.reconnect(side)
        if back is not None:
            out.send(Everyone(exclude=client), back)
        out.send(client, State(room=self.state_for(client, now=now), id=request_id))

    def _start_game(
        self, now: float, out: Draft, requester: ClientId | None, request_id: RequestId
    ) -> None:
        first_game = self._play.status != "finished"
        if first_game and self.options.creator_seat == "random" and self._rng.random() < 0.5:
            self._seating.swap()
        self._play.start(self._seating.records(), now, out, paused=self.paused)
        self._send_states(out, now, requester, request_id)
        self._request_ai(out, now)

    def _play_move(
        self,
        side: Side,
        move: Move,
        now: float,
        out: Draft,
        requester: ClientId | None,
        request_id: RequestId,
        search: SearchInfo | None = None,
    ) -> None:
        line_hidden = self._controls.line_hidden(has_player=self._seating.has_player)
        goes_on = self._play.play(
            side, move, now, out, requester, request_id, search, line_hidden=line_hidden
        )
        if goes_on:
            self._request_ai(out, now)

    def _rematch(self, client: ClientId, now: float, out: Draft, request_id: RequestId) -> None:
        side: Side | None
        if self.options.ai_match and client in self._seating.spectators:
            side = None  # anyone watching an AI match may start its next game
        else:
            side = self._seating.require_player(client, "ask for a rematch")
        both = self._play.ask_rematch(
            side,
            agreeing=self._seating.ai_sides(),
            seats_full=self._seating.full,
            out=out,
            client=client,
            request_id=request_id,
        )
        if both:
            self._seating.swap()
            self._start_game(now, out, client, request_id)

    def _leave(self, client: ClientId, now: float, out: Draft, request_id: RequestId) -> None:
        if self._seating.stop_watching(client):
            self._seating.note_unwatched(now, playing=self._play.playing)
            out.send(client, Left(room=self.code, id=request_id))
            return
        side = self.side_of(client)
        if side is None:
            raise RefusedError(ErrorCode.NOT_SEATED, f"you are not in room {self.code}")
        if self._play.playing:
            # Leaving resigns, and nothing in a game changes during a pause.
            self._controls.require_unpaused("leave this game")
            self._play.concede(side, Termination.RESIGNATION, now, out, client, None)
        self._free_seat(side, out, now)
        out.send(client, Left(room=self.code, id=request_id))

    def _require_playing_side(self, client: ClientId, action: str) -> Side:
        """The side ``client`` plays in the game in progress, which it may act
        in now; refused otherwise (before any change)."""
        side = self._seating.require_player(client, action)
        self._play.require_in_play(action)
        self._controls.require_unpaused(action)
        return side

    # -- the AI -----------------------------------------------------------------------

    def _request_ai(self, out: Draft, now: float) -> None:
        self._turns.request(self._play, self._seating, self._rng, now, out, paused=self.paused)

    def _ai_answer(
        self,
        game_number: int,
        ply: int,
        move_text: str | None,
        now: float,
        search: SearchInfo | None,
    ) -> Output:
        out = Draft()
        self._expire(now, out)
        if not self._turns.hold(game_number, ply, move_text, search, paused=self.paused):
            self._take_ai_answer(out, game_number, ply, move_text, search, now)
        return self._output(out)

    def _take_ai_answer(
        self,
        out: Draft,
        game_number: int,
        ply: int,
        move_text: str | None,
        search: SearchInfo | None,
        now: float,
    ) -> None:
        if not self._turns.settle(game_number, ply):
            return  # not asked, or answered already
        if not ai_turns.answers_position(self._play, self._seating, game_number, ply):
            self._request_ai(out, now)  # stale: ask about the position in play, if any
            return
        move, search = ai_turns.move_to_play(self._play, move_text, search, self._rng)
        self._play_move(self._play.to_move, move, now, out, None, None, search)

    # -- time ------------------------------------------------------------------------

    def _deadlines(self) -> list[tuple[float, Side | None]]:
        """Timed events: (when, None) for the flag, (when, side) for a held seat.
        None in a pause: its clock is held, and :meth:`resume` moves the windows."""
        if self.paused:
            return []
        flag = self._play.flag_deadline()
        deadlines: list[tuple[float, Side | None]] = [] if flag is None else [(flag, None)]
        return deadlines + list(self._seating.window_deadlines())

    def _expire(self, now: float, out: Draft) -> None:
        """Apply every timed event due by ``now``, earliest first (a flag before a
        grace window ending at the same time), each at its own time."""
        play = self._play
        while True:
            due = [(at, side) for at, side in self._deadlines() if at <= now]
            if not due:
                break
            at, side = min(due, key=lambda d: (d[0], d[1] is not None, d[1] or ""))
            if side is None:
                assert play.clock is not None and play.clock.running is not None
                play.concede(play.clock.running, Termination.TIMEOUT, at, out, None, None)
            else:
                if play.playing:
                    both_gone = self._seating.gone(other_side(side))
                    if both_gone and (play.position.ply > 0 or self.options.tournament):
                        # Nobody waited: both are gone, so nobody wins.
                        play.finish(None, Termination.ABANDONMENT, at, out, None, None)
                    else:
                        play.concede(side, Termination.ABANDONMENT, at, out, None, None)
                self._free_seat(side, out, at)
        until = self._seating.unwatched_until
        if until is not None and until <= now and not self.paused:
            self._seating.unwatched_until = None
            if play.playing and not self.members:
                play.finish(None, Termination.ABORTED, until, out, None, None)

    # -- output ----------------------------------------------------------------------

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
        return self._output(out)

    def _send_states(
        self, out: Draft, now: float, requester: ClientId | None, request_id: RequestId
    ) -> None:
        """The whole state to every connected member, each with its own ``you``."""
        for client in self._seating.audience():
            reply_id = request_id if client == requester else None
            out.send(client, State(room=self.state_for(client, now=now), id=reply_id))

    def _output(self, out: Draft) -> Output:
        return Output(
            messages=tuple(out.messages),
            events=tuple(out.events),
            ai_requests=tuple(out.ai_requests),
            next_deadline=self.next_deadline,
            audience=self.audience,
        )
