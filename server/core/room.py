"""A room as a sans-I/O state machine: inputs in, outputs out, nothing hidden.

The room owns everything about one table: two seats, the spectators, the game
in progress (rules from :mod:`shared.games`), its clock, draw offers, rematch
requests and the AI seat's pending search. It does no I/O: it reads no clock
(every input carries ``now``, Unix seconds, as from :func:`time.time`, since
``gone_until`` goes on the wire and event times into the records), opens no
socket, starts no task, and draws randomness only from the ``random.Random``
it is given. The server is a thin adapter around it, as python-websockets'
asyncio layer is around its ``Protocol``.

Inputs (each returns an :class:`Output`)::

    seat(client, name, kind)      take a free seat             (join, create_room)
    add_ai(level)                 seat the server AI           (add_ai, create_room)
    watch(client, name)           watch as a spectator         (watch)
    handle(client, message)       a room request               (move, resign, draw..., chat)
    disconnected(client)          a connection dropped
    reconnected(client)           it came back (resume token)
    ai_moved(game, ply, move)     the engine answered an AiRequest (with its search)
    ai_failed(game, ply)          the engine could not answer it
    tick(now)                     time passed: clocks and grace windows
    resume_after_restart(now)     after Room.restore, once the server listens

and the teacher's, in class mode (:mod:`server.classroom`)::

    pause(now), resume(now)       stop every clock and move; start them again
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

Rules the room applies (``docs/protocol.md`` states the wire side):

- A game starts when both seats are taken and none is in progress. The first
  occupant of an empty room takes ``RoomOptions.creator_seat``; ``random`` is
  drawn from the rng when the first game starts (until then the creator shows
  in ``first``, provisionally; the ``state`` sent at the start is final).
- A game ends on a line, a full board, resignation, agreement, timeout or
  abandonment. A game that ends before its first move, however it ends
  (resign, leave, timeout, abandonment), is *aborted*: nobody wins.
- A draw offer stands until the side it was made to answers it or moves; that
  move lapses it with ``draw_declined`` (``side`` is always the side whose
  offer is off). Offering while the opponent's offer stands accepts it. The
  server AI declines at once.
- Leaving in a game in progress resigns it; leaving frees the seat.
- A dropped player's seat is held for ``grace_seconds``; the opponent is told
  (``player_status`` with ``gone_until``). On return the state is resent. When
  the window ends, a game in progress is lost by abandonment and the seat is
  freed; if the opponent is gone too, nobody waited and nobody wins
  (abandonment without a winner). Spectators are not held: a dropped spectator is gone.
- Rematch: when both seated players have asked (an AI seat agrees at once),
  game ``n + 1`` starts with the occupants' sides swapped. The first request
  is acknowledged with the state alone (the protocol has no message for it).
- ``waiting`` lasts until the first game starts. Between games the room stays
  ``finished``; if a seat was freed, whoever takes it starts game ``n + 1`` at
  once, sides as they sit.

A *tournament room* (``RoomOptions.tournament``, opened by :mod:`server.tournaments`)
plays one game between two players chosen beforehand:

- each seat is reserved (``reserved_first``, ``reserved_second``) for a durable
  player (or a session): any session of that player sits in its own side,
  anyone else is refused ``room_full``; a side reserved for nobody is the
  server AI's, which the server seats itself;
- no rematch, and no ``add_ai`` from a client (``tournament_room``); once its
  game is over nobody sits down again (``tournament_room``): nothing else is
  played there;
- a game that ends before its first move is decided as after it: resigning,
  leaving, a flag or an abandonment loses (it is not aborted). If both
  players are gone when the first window ends, nobody wins (``abandonment``
  without a winner), whatever the moves;
- it is not :attr:`~Room.is_empty` until its game is over (or it is closed),
  so the server keeps it while it waits for its players.

An *AI match* (``RoomOptions.ai_match``) is the server AI in both seats, seated
by the server (:meth:`Room.add_ai` with ``side``), for people to watch:

- every ``AiRequest`` carries ``not_before``, the game's last move (or start)
  plus ``RoomOptions.ai_pace``: the server holds an earlier answer until then;
- anyone watching may ask for the next game (``rematch``): both seats agree;
- when its last watcher goes during a game, the game is *called off* (ended
  ``aborted``) ``grace_seconds`` later unless someone watches again first; until
  then, and while its game is played, the room is not :attr:`~Room.is_empty`.

While the room is *paused* (:meth:`Room.pause`, until :meth:`Room.resume`):

- nothing is timed: no clock runs (``state`` shows ``paused`` and
  ``clocks.running`` null, so clients stop counting down) and no grace window
  ends. On resume the clock runs on from where it stopped, and each held seat
  gets back what was left of its window (a seat dropped during the pause gets
  a whole window from the resume): a pause makes nobody lose;
- moves, draw offers and answers, resigning, and leaving a game in progress
  are refused with ``paused``; joining, watching, chat, ``get_state`` and
  leaving between games work as usual. A game may still start (both seats
  taken, a rematch): it starts paused;
- the AI is not asked to move; an answer that was on its way when the pause
  came is kept and played at the resume, so the search is not wasted.

The teacher's other inputs apply whether paused or not: :meth:`Room.remove`
resigns a removed player's game in progress (aborted before the first move)
and frees the seat, as leaving does; :meth:`Room.close` ends the game in
progress with no result and sends ``room_closed``. The ending is recorded as
``aborted`` whatever the moves: of the endings the store's CHECK constraint
allows, it is the one that says nobody won and nobody was at fault (a new
ending would mean rebuilding the ``games`` table, which SQLite needs to
change a CHECK).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import msgspec

from server.core.board_view import board_kind, board_rows, legal_moves
from server.core.clock import GameClock
from server.core.records import PlayerKind, SeatRecord, Termination
from server.core.room_output import (
    ALL,
    AiRequest,
    ClientId,
    Everyone,
    GameFinished,
    GameStarted,
    HintGiven,
    MoveMade,
    Output,
    PersistEvent,
    Recipient,
    RoomStatus,
    without_line,
)
from shared.errors import IllegalMoveError
from shared.games import Game, Move, Outcome, Player, Status, get_game
from shared.protocol.codec import check_chat_text
from shared.protocol.errors import ErrorCode, ProtocolError
from shared.protocol.messages import (
    LEVELS,
    MAX_AI_PACE,
    SIDES,
    AcceptDraw,
    AddAi,
    AskHint,
    ChatLine,
    Clock,
    DeclineDraw,
    DrawDeclined,
    DrawOffered,
    Error,
    GameOver,
    GetState,
    Hint,
    Leave,
    Left,
    Level,
    MakeMove,
    Moved,
    OfferDraw,
    PlayerStatus,
    Rematch,
    RematchOffered,
    RequestId,
    Resign,
    ResultInfo,
    RoomClosed,
    RoomState,
    RoomSummary,
    SearchInfo,
    SeatInfo,
    SendChat,
    ServerMessage,
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


@dataclass
class _Builder:
    messages: list[tuple[Recipient, ServerMessage]] = field(default_factory=list)
    events: list[PersistEvent] = field(default_factory=list)
    ai_requests: list[AiRequest] = field(default_factory=list)

    def send(self, recipient: Recipient, message: ServerMessage) -> None:
        self.messages.append((recipient, message))


class _RefusedError(Exception):
    """A request refused before it changed anything (becomes an ``error``)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _chat_text(text: str) -> str:
    """``text`` if others' screens may print it; refused (``bad_text``) otherwise."""
    try:
        return check_chat_text(text)
    except ProtocolError as error:
        raise _RefusedError(error.code, error.message) from None


# -- options and seats ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomOptions:
    """How a room plays; fixed for its life. Raises ``ValueError`` (naming the
    option) for options that do not fit together: the server answers
    ``bad_options`` with its message."""

    public: bool = True
    creator_seat: Side | Literal["random"] = "first"
    """The first occupant's side; ``random``: drawn when the first game starts."""
    clock: Clock = field(default_factory=Clock)
    grace_seconds: float = 60.0
    """How long a dropped player's seat is held."""
    join_code: str | None = None
    """Private code to take a seat (sent to seated players only)."""
    watch_code: str | None = None
    """Code to watch (sent to seated players only)."""
    tournament: bool = False
    """A tournament room (see the module docstring)."""
    reserved_first: str | None = None
    """In a tournament room: the player (or the session) whose seat ``first`` is;
    None for the AI's side."""
    reserved_second: str | None = None
    """The same for ``second``."""
    ai_match: bool = False
    """An AI match: the server seats its AI in both seats, and people watch."""
    ai_pace: float = 0.0
    """Seconds at least between a move and the AI's answer to it (0: at once)."""
    hints: bool = True
    """Whether its players may ask for hints at the start (:meth:`Room.set_hints`
    changes it: the teacher's switch)."""

    def __post_init__(self) -> None:
        clock = self.clock
        if clock.kind == "per_move" and clock.per_move is None:
            raise ValueError("clock: a per_move clock needs per_move (seconds per move)")
        if clock.kind == "increment" and clock.initial is None:
            raise ValueError("clock: an increment clock needs initial (seconds per side)")
        if not self.grace_seconds > 0:
            raise ValueError(f"grace_seconds={self.grace_seconds!r}: give more than 0 seconds")
        if self.creator_seat not in (*SIDES, "random"):
            raise ValueError(f"creator_seat={self.creator_seat!r}: choose first, second or random")
        reserved = (self.reserved_first, self.reserved_second)
        if not self.tournament and reserved != (None, None):
            raise ValueError("reserved seats: only a tournament room reserves its seats")
        if self.reserved_first is not None and self.reserved_first == self.reserved_second:
            raise ValueError("reserved seats: one player cannot hold both seats")
        if not 0 <= self.ai_pace <= MAX_AI_PACE:
            raise ValueError(f"pace={self.ai_pace!r}: give 0 to {MAX_AI_PACE:g} seconds")
        if self.ai_match and (self.clock.kind != "none" or self.tournament):
            raise ValueError("ai_match: an AI match has no clock and is no tournament game")

    def reserved_for(self, side: Side) -> str | None:
        """The player or session ``side`` is reserved for (tournament rooms); None
        if nobody's."""
        return self.reserved_first if side == "first" else self.reserved_second


@dataclass(frozen=True, slots=True)
class _Occupant:
    client: ClientId | None
    name: str
    kind: PlayerKind
    level: Level | None = None
    connected: bool = True
    gone_until: float | None = None
    player: str | None = None
    """The durable player's id (for the record); None for the AI and unknown players."""

    def info(self, side: Side) -> SeatInfo:
        return SeatInfo(
            side=side,
            name=self.name,
            kind=self.kind.value,
            level=self.level,
            connected=self.connected,
            gone_until=self.gone_until,
        )

    def record(self) -> SeatRecord:
        return SeatRecord(self.name, self.kind, self.level, self.client, self.player)

    @classmethod
    def restored(cls, record: SeatRecord, side: Side) -> _Occupant:
        """Who sat in ``side`` as ``record`` has it, disconnected unless it is the
        AI; ValueError for a record no room could have written."""
        if record.kind is PlayerKind.AI:
            if record.ai_level not in LEVELS:
                raise ValueError(f"seat {side}: unknown AI level {record.ai_level!r}")
            return cls(None, record.name, record.kind, record.ai_level)
        if record.session is None:
            raise ValueError(f"seat {side}: a {record.kind.value} seat needs its session")
        return cls(
            ClientId(record.session),
            record.name,
            record.kind,
            connected=False,
            player=record.player,
        )


def _side(player: Player) -> Side:
    return SIDES[player]


# -- the room ----------------------------------------------------------------------


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
        self._seats: dict[Side, _Occupant | None] = {"first": None, "second": None}
        self._spectators: dict[ClientId, str] = {}
        self._status: RoomStatus = "waiting"
        self._game_number = 1
        self._position = self.game.new()
        self._result: ResultInfo | None = None
        self._draw_offer: Side | None = None
        self._rematch: frozenset[Side] = frozenset()
        self._ai_pending: tuple[int, int] | None = None
        self._clock = GameClock.for_clock(options.clock)
        self._unrecorded_finish: GameFinished | None = None
        self._paused_at: float | None = now if paused else None
        """When the teacher paused the room; None while it is not paused."""
        self._ai_held: tuple[int, int, str | None, SearchInfo | None] | None = None
        """An AI answer that came during a pause (game, ply, move or None if the
        engine failed, and its search): played at the resume."""
        self._closed = False
        self._hints = options.hints
        self._hint_pending = False
        """True while a hint is being searched (one at a time per room)."""
        self._unwatched_until: float | None = None
        """An AI match in play that nobody watches: when it is called off, unless
        someone watches again first (``grace_seconds`` after the last one went)."""
        self._last_move_at: float | None = None
        """When the game in play started or last had a move (the AI's pace counts
        from there); None before the first game and in a room just restored."""
        self._game_players: dict[Side, str] = {}
        """Who played the current or last game, by side, as it started."""

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
            room._seats[side] = _Occupant.restored(record, side)
            room._game_players[side] = record.name
        room._game_number = started.game_number
        game = room.game
        position = game.new()
        clock = room._clock
        for ply, made in enumerate(moves):
            if (made.game_number, made.ply) != (started.game_number, ply):
                raise ValueError(
                    f"move record {made!r}: expected game {started.game_number}, ply {ply}"
                )
            position = game.play_unchecked(position, game.parse_move(position, made.move_text))
            if clock is not None and clock.clock.kind == "increment" and made.clock_ms is not None:
                clock.left[made.side] = made.clock_ms / 1000 + clock.clock.increment
        room._position = position
        outcome = game.outcome(position)
        if finished is None and outcome.is_over:
            # The last move was stored but the crash came before the result was.
            reason = _rules_termination(outcome)
            winner = _side(outcome.winner) if outcome.winner is not None else None
            finished = GameFinished(
                room=room.code,
                game_number=started.game_number,
                winner=winner,
                reason=reason,
                at=moves[-1].at,
                line=room._line_names(outcome.line),
            )
            room._unrecorded_finish = finished
        if finished is not None:
            room._status = "finished"
            room._result = ResultInfo(
                winner=finished.winner, reason=finished.reason.value, line=list(finished.line)
            )
        else:
            room._status = "playing"
            if clock is not None:
                clock.start(room._to_move, None)  # paused until resume_after_restart
        return room

    def resume_after_restart(self, now: float) -> Output:
        """Start the clocks of a restored room from ``now`` (the time the server
        was down is nobody's) and the grace windows of its held seats. Emits the
        result of a game whose last move was stored but not its end, and the AI
        request if the AI is to move. Call it once, before any other input."""
        out = _Builder()
        for side in SIDES:
            occupant = self._seats[side]
            if occupant is not None and not occupant.connected and occupant.gone_until is None:
                self._seats[side] = replace(occupant, gone_until=now + self.options.grace_seconds)
        if self._unrecorded_finish is not None:
            out.events.append(self._unrecorded_finish)
            self._unrecorded_finish = None
        if self._status == "playing" and self._clock is not None:
            self._clock.resume(now)
        self._request_ai(out, now)
        return self._output(out)

    # -- reading -----------------------------------------------------------------------

    @property
    def status(self) -> RoomStatus:
        """``waiting``, ``playing`` or ``finished``."""
        return self._status

    @property
    def paused(self) -> bool:
        """True from :meth:`pause` until :meth:`resume`."""
        return self._paused_at is not None

    @property
    def game_number(self) -> int:
        """The current (or last) game's number, from 1."""
        return self._game_number

    @property
    def moves(self) -> str:
        """The current (or last) game's move string."""
        return self.game.move_string(self._position)

    @property
    def game_players(self) -> dict[Side, str]:
        """Who played the current or last game, by side, named as when it
        started or as the teacher renamed them since (empty before the first
        game). Kept after they leave, for whoever shows how a game ended (the
        class's wall, the players' ``state``)."""
        return dict(self._game_players)

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has closed the room."""
        return self._closed

    @property
    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called (see :attr:`Output.next_deadline`)."""
        deadlines = [t for t, _ in self._deadlines()]
        if self._unwatched_until is not None and not self.paused:
            deadlines.append(self._unwatched_until)
        return min(deadlines) if deadlines else None

    @property
    def audience(self) -> frozenset[ClientId]:
        """Connected seated players and spectators: who :data:`ALL` reaches."""
        return frozenset(self._audience())

    @property
    def members(self) -> frozenset[ClientId]:
        """Every client in the room: seated (connected or held) or watching."""
        seated = {o.client for o in self._seats.values() if o is not None and o.client is not None}
        return frozenset(seated | set(self._spectators))

    @property
    def has_free_seat(self) -> bool:
        """True while a seat is empty (someone may join, or the AI be added)."""
        return None in self._seats.values()

    @property
    def is_empty(self) -> bool:
        """True when no client sits, is held or watches: the server may drop the
        room. A tournament room waiting for its game is kept, empty or not, until
        the game is over or the room is closed."""
        if self.options.tournament and self._status != "finished" and not self._closed:
            return False
        if self.options.ai_match and self._status == "playing":
            return False  # played out, or called off once nobody watches (_expire)
        return not self.members

    def is_taken(self, side: Side) -> bool:
        """True while someone (a person, a bot, the AI) holds ``side``, connected or not."""
        return self._seats[side] is not None

    def seat_holder(self, side: Side) -> tuple[ClientId, str, PlayerKind, str | None] | None:
        """The session, name, kind and player id (None if unknown) of the client
        holding ``side`` (connected or held); None for an empty seat or the server AI."""
        occupant = self._seats[side]
        if occupant is None or occupant.client is None or occupant.kind is PlayerKind.AI:
            return None
        return occupant.client, occupant.name, occupant.kind, occupant.player

    @property
    def _rematch_offer(self) -> Side | None:
        """The side whose rematch request waits for the other's answer."""
        return next(iter(self._rematch)) if len(self._rematch) == 1 else None

    def side_of(self, client: ClientId) -> Side | None:
        """The seat ``client`` holds (connected or not), if any."""
        for side in SIDES:
            occupant = self._seats[side]
            if occupant is not None and occupant.client == client:
                return side
        return None

    def state_for(self, client: ClientId | None, *, now: float) -> RoomState:
        """The whole room as ``client`` may see it at ``now``: ``you`` is its seat;
        join and watch codes go to seated players only, and an AI match's watch
        code to its watchers (nobody else may sit there, so they share it)."""
        you = self.side_of(client) if client is not None else None
        match_watcher = self.options.ai_match and client in self._spectators
        seats = []
        for side in SIDES:
            occupant = self._seats[side]
            seats.append(occupant.info(side) if occupant else SeatInfo(side=side))
        playing = self._status == "playing"
        clocks = self._clock.state(now) if self._clock is not None else None
        if clocks is not None and self.paused:
            # No clock runs in a pause: clients that count down locally stop.
            clocks = msgspec.structs.replace(clocks, running=None)
        return RoomState(
            code=self.code,
            game=self.game.name,
            title=self.game.title,
            status=self._status,
            public=self.options.public,
            clock=self.options.clock,
            seats=seats,
            moves=self.moves,
            ply=self._position.ply,
            to_move=self._to_move if playing else None,
            clocks=clocks,
            draw_offer=self._draw_offer,
            rematch_offer=self._rematch_offer,
            result=self._result,
            game_number=self._game_number,
            you=you,
            join_code=self.options.join_code if you else None,
            watch_code=self.options.watch_code if you or match_watcher else None,
            paused=self.paused,
            tournament=self.options.tournament,
            ai_pace=self.options.ai_pace if self.options.ai_match else None,
            hints=self.hints_allowed,
            game_players=dict(self._game_players),
            board=board_rows(self.game, self._position),
            board_kind=board_kind(self.game),
            legal=legal_moves(self.game, self._position) if playing else None,
        )

    def summary(self) -> RoomSummary:
        """The room's line in ``list_rooms``."""
        return RoomSummary(
            code=self.code,
            game=self.game.name,
            title=self.game.title,
            status=self._status,
            players=[o.name for o in self._seats.values() if o is not None],
            spectators=len(self._spectators),
        )

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
        out = _Builder()
        self._expire(now, out)
        if self.side_of(client) is not None:
            self._reconnect(client, out, now, request_id)
            return self._output(out)
        occupant = _Occupant(client=client, name=name, kind=kind, player=player)
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
        out = _Builder()
        self._expire(now, out)
        if by is None:
            try:
                self._add_ai(level, None, now, out, request_id, side)
            except _RefusedError as refusal:
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
        out = _Builder()
        self._expire(now, out)
        if self.side_of(client) is not None:
            self._reconnect(client, out, now, request_id)
        else:
            self._spectators[client] = name
            self._unwatched_until = None
            out.send(client, State(room=self.state_for(client, now=now), id=request_id))
        return self._output(out)

    # -- inputs: requests ------------------------------------------------------------

    def handle(self, client: ClientId, message: RoomRequest, *, now: float) -> Output:
        """Apply one request from ``client``; a refused one gets an ``error``
        (echoing ``message.id``) and changes nothing."""
        out = _Builder()
        self._expire(now, out)
        request_id = message.id

        def act() -> None:
            match message:
                case MakeMove():
                    self._make_move(client, message, now, out)
                case Resign():
                    side = self._require_playing_side(client, "resign")
                    self._concede(side, Termination.RESIGNATION, now, out, client, request_id)
                case OfferDraw():
                    self._offer_draw(client, now, out, request_id)
                case AcceptDraw():
                    self._require_draw_answer(client, "accept a draw")
                    self._finish(None, Termination.AGREEMENT, now, out, client, request_id)
                case DeclineDraw():
                    side = self._require_draw_answer(client, "decline a draw")
                    self._draw_offer = None
                    self._announce(out, self._declined(other_side(side)), client, request_id)
                case Rematch():
                    self._rematch_request(client, now, out, request_id)
                case Leave():
                    self._leave(client, now, out, request_id)
                case SendChat():
                    name = self._member_name(client, "chat")
                    line = ChatLine(room=self.code, name=name, text=_chat_text(message.text))
                    self._announce(out, line, client, request_id)
                case GetState():
                    self._member_name(client, "get its state")
                    out.send(client, State(room=self.state_for(client, now=now), id=request_id))
                case AddAi():
                    self._add_ai(message.level, client, now, out, request_id)
                case AskHint():
                    self._ask_hint(client, now, out, request_id)
                case _:
                    raise TypeError(f"not a room request: {message!r}")

        return self._attempt(out, client, request_id, act)

    # -- inputs: connections ------------------------------------------------------------

    def disconnected(self, client: ClientId, *, now: float) -> Output:
        """``client``'s connection dropped. A spectator is gone; a seat is held
        until ``now + grace_seconds`` and everyone left is told. Unknown clients
        and held seats are ignored."""
        out = _Builder()
        self._expire(now, out)
        self._spectators.pop(client, None)
        self._note_unwatched(now)
        side = self.side_of(client)
        occupant = self._seats[side] if side is not None else None
        if side is not None and occupant is not None and occupant.connected:
            gone_until = now + self.options.grace_seconds
            self._seats[side] = replace(occupant, connected=False, gone_until=gone_until)
            status = PlayerStatus(room=self.code, side=side, connected=False, gone_until=gone_until)
            out.send(ALL, status)
        return self._output(out)

    def reconnected(self, client: ClientId, *, now: float) -> Output:
        """``client`` is back (resumed its session): if it still holds a seat,
        the others are told and it gets the whole state. Otherwise (the window
        ended first, or it never sat here) nothing happens."""
        out = _Builder()
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
        out = _Builder()
        self._expire(now, out)
        self._hint_pending = False
        if not self.hints_allowed:
            message = f"hints were turned off in room {self.code} before the hint came"
            out.send(client, Error(code=ErrorCode.HINTS_OFF, message=message, id=request_id))
            return self._output(out)
        side = self.side_of(client)
        current = (
            self._status == "playing"
            and (self._game_number, self._position.ply) == (game_number, ply)
            and side == self._to_move
        )
        try:
            move = self.game.parse_move(self._position, move_text) if current else None
        except IllegalMoveError:
            move = None
        if side is None or move is None:
            message = "the game moved on before the hint came: ask again"
            out.send(client, Error(code=ErrorCode.STALE_MOVE, message=message, id=request_id))
            return self._output(out)
        text = self.game.format_move(move)
        out.events.append(HintGiven(self.code, game_number, ply, side, text, now))
        out.send(client, Hint(room=self.code, ply=ply, move=text, search=search, id=request_id))
        return self._output(out)

    def hint_failed(self, client: ClientId, *, now: float, request_id: RequestId = None) -> Output:
        """The engine could not answer ``client``'s hint: ``client`` is told so
        (``engine_busy``); nothing is recorded."""
        out = _Builder()
        self._expire(now, out)
        self._hint_pending = False
        message = "the engine could not find a hint just now: ask again"
        out.send(client, Error(code=ErrorCode.ENGINE_BUSY, message=message, id=request_id))
        return self._output(out)

    def set_hints(self, allowed: bool, *, now: float) -> Output:
        """Allow hints or not from now on (the teacher's switch); everyone gets the
        whole state if that changed anything."""
        out = _Builder()
        self._expire(now, out)
        if allowed != self._hints:
            self._hints = allowed
            self._send_states(out, now, None, None)
        return self._output(out)

    @property
    def hints_allowed(self) -> bool:
        """True while a player may ask for a hint here (never in an AI match)."""
        return self._hints and not self.options.ai_match

    @property
    def _line_hidden(self) -> bool:
        """True while the AI's expected line must not be shown to anyone here:
        hints are off and a person or a bot sits in the room. Nobody gets it, not
        even a spectator, who may be a classmate (or the player's own second tab)."""
        if self.hints_allowed:
            return False
        return any(o is not None and o.kind is not PlayerKind.AI for o in self._seats.values())

    def tick(self, now: float) -> Output:
        """Apply what time has decided by ``now``: a flag falls (timeout), a
        grace window ends (abandonment, seat freed). Safe to call at any time."""
        out = _Builder()
        self._expire(now, out)
        return self._output(out)

    # -- inputs: the teacher ----------------------------------------------------------

    def pause(self, now: float) -> Output:
        """Pause the room at ``now`` (the rules are in the module docstring):
        every connected member gets the whole state, with ``paused``. Pausing a
        paused room changes nothing."""
        out = _Builder()
        self._expire(now, out)
        if self._paused_at is None:
            self._paused_at = now
            if self._status == "playing" and self._clock is not None:
                _hold_clock(self._clock, now)
            self._send_states(out, now, None, None)
        return self._output(out)

    def resume(self, now: float) -> Output:
        """End the pause at ``now``: the clock runs on from where it stopped,
        held seats get back what was left of their grace windows, everyone gets
        the whole state, then the AI plays the answer kept during the pause (or
        is asked, if it is to move). Resuming a room not paused changes nothing."""
        out = _Builder()
        paused_at = self._paused_at
        if paused_at is None:
            self._expire(now, out)
            return self._output(out)
        self._paused_at = None
        grace = self.options.grace_seconds
        for side in SIDES:
            occupant = self._seats[side]
            if occupant is not None and occupant.gone_until is not None:
                # Left of the window at the pause; a whole one if it dropped since.
                window_from = max(paused_at, occupant.gone_until - grace)
                gone_until = occupant.gone_until + (now - window_from)
                self._seats[side] = replace(occupant, gone_until=gone_until)
        if self._status == "playing" and self._clock is not None:
            self._clock.resume(now)
        self._send_states(out, now, None, None)
        held, self._ai_held = self._ai_held, None
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
        out = _Builder()
        self._expire(now, out)
        side = self.side_of(client)
        if side is not None:
            self._seats[side] = replace(self._occupant(side), name=name)
            if side in self._game_players:
                self._game_players[side] = name
            self._send_states(out, now, None, None)
        elif client in self._spectators:
            self._spectators[client] = name
        return self._output(out)

    def remove(self, client: ClientId, *, now: float) -> Output:
        """``client`` was removed from the class: as if it left, its game in
        progress is resigned (aborted before the first move), even in a pause,
        and its seat is freed; a spectator is just gone. Everyone else is told;
        ``client`` is sent nothing (the server is closing its connection)."""
        out = _Builder()
        self._expire(now, out)
        self._spectators.pop(client, None)
        self._note_unwatched(now)
        side = self.side_of(client)
        if side is not None:
            if self._status == "playing":
                self._concede(side, Termination.RESIGNATION, now, out, None, None)
            self._free_seat(side, out, now)
        return self._output(out)

    def close(self, reason: str, *, now: float) -> Output:
        """Close the room: a game in progress ends with no result (``aborted``),
        then every connected member gets ``room_closed`` with ``reason``. The
        room is left empty (:attr:`is_empty`), so the server drops it; held
        seats are let go with it."""
        out = _Builder()
        self._expire(now, out)
        if self._status == "playing":
            self._finish(None, Termination.ABORTED, now, out, None, None)
        out.send(ALL, RoomClosed(room=self.code, reason=reason))
        # Nobody is left in a closed room, so a broadcast must be addressed to
        # the members it meant before they go.
        members = Output(audience=self.audience)
        out.messages = [
            (client, message)
            for recipient, message in out.messages
            for client in sorted(members.recipients(recipient))
        ]
        self._seats = {"first": None, "second": None}
        self._spectators.clear()
        self._ai_pending = self._ai_held = None
        self._closed = True
        return self._output(out)

    # -- the game ---------------------------------------------------------------------

    @property
    def _to_move(self) -> Side:
        return _side(self.game.to_move(self._position))

    def _start_game(
        self, now: float, out: _Builder, requester: ClientId | None, request_id: RequestId
    ) -> None:
        if self._status == "finished":
            self._game_number += 1
        elif self.options.creator_seat == "random" and self._rng.random() < 0.5:
            self._swap_seats()
        self._status = "playing"
        self._position = self.game.new()
        self._result = None
        self._draw_offer = None
        self._rematch = frozenset()
        self._clock = GameClock.for_clock(self.options.clock)
        self._last_move_at = now
        if self._clock is not None:
            self._clock.start("first", None if self.paused else now)  # None: held
        first, second = (self._occupant(side) for side in SIDES)
        seats = (first.record(), second.record())
        self._game_players = {"first": first.name, "second": second.name}
        out.events.append(GameStarted(self.code, self.game.name, self._game_number, seats, at=now))
        self._send_states(out, now, requester, request_id)
        self._request_ai(out, now)

    def _make_move(self, client: ClientId, message: MakeMove, now: float, out: _Builder) -> None:
        side = self._require_playing_side(client, "move")
        ply = self._position.ply
        if message.ply is not None and message.ply != ply:
            raise _RefusedError(
                ErrorCode.STALE_MOVE,
                f"ply {message.ply} is not the current one: the game is at ply {ply} "
                "(ask for the state with get_state)",
            )
        if side != self._to_move:
            raise _RefusedError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {self._to_move}'s turn at ply {ply}: wait for their move",
            )
        try:
            move = self.game.parse_move(self._position, message.move)
        except IllegalMoveError as error:
            raise _RefusedError(ErrorCode.ILLEGAL_MOVE, str(error)) from None
        self._play(side, move, now, out, client, message.id)

    def _play(
        self,
        side: Side,
        move: Move,
        now: float,
        out: _Builder,
        requester: ClientId | None,
        request_id: RequestId,
        search: SearchInfo | None = None,
    ) -> None:
        """Play a legal ``move`` for ``side`` (the side to move, before its flag);
        ``search`` is the AI's, announced with it."""
        ply = self._position.ply
        self._position = self.game.play_unchecked(self._position, move)
        self._last_move_at = now
        clock_ms = clocks = None
        if self._clock is not None:
            clock_ms = round(self._clock.move(now) * 1000)
            clocks = self._clock.state(now)
        text = self.game.format_move(move)
        out.events.append(MoveMade(self.code, self._game_number, ply, side, text, now, clock_ms))
        if search is not None and self._line_hidden:
            search = without_line(search)
        moved = Moved(
            room=self.code,
            ply=ply,
            move=text,
            side=side,
            clocks=clocks,
            search=search,
            board=board_rows(self.game, self._position),
            legal=legal_moves(self.game, self._position),
        )
        self._announce(out, moved, requester, request_id)
        if self._draw_offer == other_side(side):
            # Moving instead of answering lapses the opponent's offer.
            self._draw_offer = None
            out.send(ALL, self._declined(other_side(side)))
        outcome = self.game.outcome(self._position)
        if outcome.is_over:
            winner = None if outcome.winner is None else _side(outcome.winner)
            line = self._line_names(outcome.line)
            self._finish(winner, _rules_termination(outcome), now, out, None, None, line)
        else:
            self._request_ai(out, now)

    def _concede(
        self,
        side: Side,
        reason: Termination,
        at: float,
        out: _Builder,
        requester: ClientId | None,
        request_id: RequestId,
    ) -> None:
        """``side`` loses by ``reason``, or the game is aborted if no move was made
        (but in a tournament room, where it is lost all the same)."""
        if self._position.ply == 0 and not self.options.tournament:
            self._finish(None, Termination.ABORTED, at, out, requester, request_id)
        else:
            self._finish(other_side(side), reason, at, out, requester, request_id)

    def _finish(
        self,
        winner: Side | None,
        reason: Termination,
        at: float,
        out: _Builder,
        requester: ClientId | None,
        request_id: RequestId,
        line: tuple[str, ...] = (),
    ) -> None:
        self._status = "finished"
        if self._clock is not None:
            self._clock.stop(at)
        self._draw_offer = None
        self._rematch = frozenset()
        self._result = ResultInfo(winner=winner, reason=reason.value, line=list(line))
        out.events.append(
            GameFinished(self.code, self._game_number, winner, reason, at=at, line=line)
        )
        over = GameOver(room=self.code, result=self._result, moves=self.moves)
        self._announce(out, over, requester, request_id)

    def _offer_draw(
        self, client: ClientId, now: float, out: _Builder, request_id: RequestId
    ) -> None:
        side = self._require_playing_side(client, "offer a draw")
        if self._draw_offer == other_side(side):
            self._finish(None, Termination.AGREEMENT, now, out, client, request_id)
            return
        offered = DrawOffered(room=self.code, side=side)
        if self._draw_offer == side:
            out.send(client, _with_id(offered, request_id))  # already standing
            return
        self._draw_offer = side
        self._announce(out, offered, client, request_id)
        if self._occupant(other_side(side)).kind is PlayerKind.AI:
            self._draw_offer = None
            out.send(ALL, self._declined(side))

    def _declined(self, offerer: Side) -> DrawDeclined:
        return DrawDeclined(room=self.code, side=offerer)

    def _ask_hint(self, client: ClientId, now: float, out: _Builder, request_id: RequestId) -> None:
        side = self._require_playing_side(client, "ask for a hint")
        if not self.hints_allowed:
            raise _RefusedError(
                ErrorCode.HINTS_OFF, f"hints are off in room {self.code}: play your own move"
            )
        if side != self._to_move:
            raise _RefusedError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {self._to_move}'s turn: ask for a hint when it is yours",
            )
        if self._hint_pending:
            raise _RefusedError(
                ErrorCode.ENGINE_BUSY, "a hint is being searched already: wait for it"
            )
        self._hint_pending = True
        clock_left = self._clock.time_left(side, now) if self._clock is not None else None
        out.ai_requests.append(
            AiRequest(
                room=self.code,
                game_name=self.game.name,
                moves=self.moves,
                level="perfect",
                game_number=self._game_number,
                ply=self._position.ply,
                side=side,
                seed=self._rng.getrandbits(32),
                clock_left=clock_left,
                hint_for=client,
                request_id=request_id,
            )
        )

    def _rematch_request(
        self, client: ClientId, now: float, out: _Builder, request_id: RequestId
    ) -> None:
        side: Side | None
        if self.options.ai_match and client in self._spectators:
            side = None  # anyone watching an AI match may start its next game
        else:
            side = self._require_player(client, "ask for a rematch")
        if self.options.tournament:
            raise _RefusedError(ErrorCode.TOURNAMENT_ROOM, _NO_REMATCH)
        if self._status == "playing":
            raise _RefusedError(
                ErrorCode.GAME_IN_PROGRESS,
                f"game {self._game_number} is still being played: ask for a rematch "
                "once it is over",
            )
        if self._status == "waiting" or None in self._seats.values():
            raise _RefusedError(
                ErrorCode.GAME_NOT_STARTED,
                f"room {self.code} is waiting for a player: the next game starts "
                "when both seats are taken",
            )
        asked = set(self._rematch) | ({side} if side is not None else set())
        asked |= {s for s in SIDES if self._occupant(s).kind is PlayerKind.AI}
        if len(asked) < len(SIDES) and side is not None:
            offered = RematchOffered(room=self.code, side=side)
            if side in self._rematch:
                out.send(client, _with_id(offered, request_id))  # already standing
            else:
                self._rematch = frozenset(asked)
                self._announce(out, offered, client, request_id)
            return
        self._swap_seats()
        self._start_game(now, out, client, request_id)

    def _leave(self, client: ClientId, now: float, out: _Builder, request_id: RequestId) -> None:
        if client in self._spectators:
            del self._spectators[client]
            self._note_unwatched(now)
            out.send(client, Left(room=self.code, id=request_id))
            return
        side = self.side_of(client)
        if side is None:
            raise _RefusedError(ErrorCode.NOT_SEATED, f"you are not in room {self.code}")
        if self._status == "playing" and self.paused:
            # Leaving resigns, and nothing in a game changes during a pause.
            raise _RefusedError(
                ErrorCode.PAUSED,
                "the teacher paused the games: you can leave this game once they resume",
            )
        if self._status == "playing":
            self._concede(side, Termination.RESIGNATION, now, out, client, None)
        self._free_seat(side, out, now)
        out.send(client, Left(room=self.code, id=request_id))

    # -- seats -------------------------------------------------------------------------

    def _take_seat(
        self,
        occupant: _Occupant,
        out: _Builder,
        now: float,
        requester: ClientId | None,
        request_id: RequestId,
        wanted: Side | None = None,
    ) -> None:
        """Seat ``occupant``: in ``wanted`` if given (the server's own choice, for an
        AI match), else by the rules of the module docstring."""
        free = [side for side in SIDES if self._seats[side] is None]
        if wanted is not None:
            if wanted not in free:
                raise _RefusedError(ErrorCode.ROOM_FULL, f"seat {wanted} of {self.code} is taken")
            side = wanted
        elif self.options.tournament:
            side = self._reserved_side(occupant, free)
        elif not free:
            raise _RefusedError(
                ErrorCode.ROOM_FULL, f"both seats of room {self.code} are taken: watch it instead"
            )
        elif len(free) == len(SIDES):
            # The first occupant: the creator's choice, or opposite it for the AI.
            preferred = self.options.creator_seat
            creator_side: Side = "second" if preferred == "second" else "first"
            side = creator_side if occupant.kind is not PlayerKind.AI else other_side(creator_side)
        else:
            side = free[0]
        if occupant.client is not None:
            self._spectators.pop(occupant.client, None)
        self._seats[side] = occupant
        self._rematch = frozenset()
        if None not in self._seats.values() and self._status != "playing":
            self._start_game(now, out, requester, request_id)
        else:
            self._send_states(out, now, requester, request_id)

    def _reserved_side(self, occupant: _Occupant, free: list[Side]) -> Side:
        """The side of a tournament room that ``occupant`` may take (see the module
        docstring); refuses anyone else, and everyone once the game is over."""
        if occupant.kind is PlayerKind.AI:
            sides = [s for s in free if self.options.reserved_for(s) is None]
        else:
            identities = {occupant.client, occupant.player} - {None}
            sides = [s for s in SIDES if self.options.reserved_for(s) in identities]
        if not sides:
            raise _RefusedError(
                ErrorCode.ROOM_FULL,
                f"the seats of room {self.code} are reserved for the tournament's players: "
                "watch it instead",
            )
        if self._status == "finished":
            raise _RefusedError(
                ErrorCode.TOURNAMENT_ROOM,
                f"the tournament game in room {self.code} is over: the next round opens by itself",
            )
        return sides[0]

    def _add_ai(
        self,
        level: str,
        by: ClientId | None,
        now: float,
        out: _Builder,
        request_id: RequestId,
        side: Side | None = None,
    ) -> None:
        if by is not None:
            self._require_player(by, "add an AI player")
            if self.options.tournament:
                raise _RefusedError(
                    ErrorCode.TOURNAMENT_ROOM,
                    "the server seats a tournament game's players itself: "
                    "there is no AI to add here",
                )
        if level not in LEVELS:
            raise _RefusedError(
                ErrorCode.BAD_LEVEL, f"no AI level {level!r}: choose one of {', '.join(LEVELS)}"
            )
        occupant = _Occupant(client=None, name=f"AI ({level})", kind=PlayerKind.AI, level=level)
        self._take_seat(occupant, out, now, by, request_id, side)

    def _free_seat(self, side: Side, out: _Builder, now: float) -> None:
        self._seats[side] = None
        self._rematch = frozenset()
        self._send_states(out, now, None, None)

    def _swap_seats(self) -> None:
        self._seats = {"first": self._seats["second"], "second": self._seats["first"]}

    def _reconnect(
        self, client: ClientId, out: _Builder, now: float, request_id: RequestId
    ) -> None:
        side = self.side_of(client)
        assert side is not None
        occupant = self._occupant(side)
        if not occupant.connected:
            self._seats[side] = replace(occupant, connected=True, gone_until=None)
            back = PlayerStatus(room=self.code, side=side, connected=True)
            out.send(Everyone(exclude=client), back)
        out.send(client, State(room=self.state_for(client, now=now), id=request_id))

    def _occupant(self, side: Side) -> _Occupant:
        occupant = self._seats[side]
        if occupant is None:
            raise RuntimeError(f"seat {side} of room {self.code} is empty")
        return occupant

    # -- the AI --------------------------------------------------------------------------

    def _request_ai(self, out: _Builder, now: float) -> None:
        """Ask for the AI's move if it is to move and no search is outstanding
        (at most one per room: a new one waits for the old one's answer), and
        the room is not paused (the resume asks)."""
        if self._status != "playing" or self._ai_pending is not None or self.paused:
            return
        side = self._to_move
        occupant = self._occupant(side)
        if occupant.kind is not PlayerKind.AI or occupant.level is None:
            return
        ply = self._position.ply
        self._ai_pending = (self._game_number, ply)
        clock_left = self._clock.time_left(side, now) if self._clock is not None else None
        pace, last = self.options.ai_pace, self._last_move_at
        not_before = last + pace if pace > 0 and last is not None else None
        out.ai_requests.append(
            AiRequest(
                room=self.code,
                game_name=self.game.name,
                moves=self.moves,
                level=occupant.level,
                game_number=self._game_number,
                ply=ply,
                side=side,
                seed=self._rng.getrandbits(32),
                clock_left=clock_left,
                not_before=not_before,
            )
        )

    def _ai_answer(
        self,
        game_number: int,
        ply: int,
        move_text: str | None,
        now: float,
        search: SearchInfo | None,
    ) -> Output:
        out = _Builder()
        self._expire(now, out)
        if self._ai_pending == (game_number, ply) and self._paused_at is not None:
            # Kept, still pending (so nothing else is asked), and played at the resume.
            self._ai_held = (game_number, ply, move_text, search)
            return self._output(out)
        self._take_ai_answer(out, game_number, ply, move_text, search, now)
        return self._output(out)

    def _take_ai_answer(
        self,
        out: _Builder,
        game_number: int,
        ply: int,
        move_text: str | None,
        search: SearchInfo | None,
        now: float,
    ) -> None:
        if self._ai_pending != (game_number, ply):
            return  # not asked, or answered already
        self._ai_pending = None
        current = (
            self._status == "playing"
            and (self._game_number, self._position.ply) == (game_number, ply)
            and self._occupant(self._to_move).kind is PlayerKind.AI
        )
        if not current:
            self._request_ai(out, now)  # stale: ask about the position in play, if any
            return
        move: Move | None = None
        if move_text is not None:
            try:
                move = self.game.parse_move(self._position, move_text)
            except IllegalMoveError:
                move = None
        if move is None:
            move, search = self._rng.choice(self.game.legal_moves(self._position)), None
        self._play(self._to_move, move, now, out, None, None, search)

    # -- time ------------------------------------------------------------------------

    def _deadlines(self) -> list[tuple[float, Side | None]]:
        """Timed events: (when, None) for the flag, (when, side) for a held seat.
        None in a pause: its clock is held, and :meth:`resume` moves the windows."""
        deadlines: list[tuple[float, Side | None]] = []
        if self.paused:
            return deadlines
        if self._status == "playing" and self._clock is not None:
            flag = self._clock.deadline()
            if flag is not None:
                deadlines.append((flag, None))
        for side in SIDES:
            occupant = self._seats[side]
            if occupant is not None and occupant.gone_until is not None:
                deadlines.append((occupant.gone_until, side))
        return deadlines

    def _expire(self, now: float, out: _Builder) -> None:
        """Apply every timed event due by ``now``, earliest first (a flag before a
        grace window ending at the same time), each at its own time."""
        while True:
            due = [(at, side) for at, side in self._deadlines() if at <= now]
            if not due:
                break
            at, side = min(due, key=lambda d: (d[0], d[1] is not None, d[1] or ""))
            if side is None:
                assert self._clock is not None and self._clock.running is not None
                self._concede(self._clock.running, Termination.TIMEOUT, at, out, None, None)
            else:
                if self._status == "playing":
                    both_gone = self._gone(other_side(side))
                    if both_gone and (self._position.ply > 0 or self.options.tournament):
                        # Nobody waited: both are gone, so nobody wins.
                        self._finish(None, Termination.ABANDONMENT, at, out, None, None)
                    else:
                        self._concede(side, Termination.ABANDONMENT, at, out, None, None)
                self._free_seat(side, out, at)
        until = self._unwatched_until
        if until is not None and until <= now and not self.paused:
            self._unwatched_until = None
            if self._status == "playing" and not self.members:
                self._finish(None, Termination.ABORTED, until, out, None, None)

    def _note_unwatched(self, now: float) -> None:
        """After someone left: an AI match in play that nobody watches any more is
        called off ``grace_seconds`` from ``now`` (the engine plays for people to
        watch; a watcher whose connection blipped has that long to watch again)."""
        if self.options.ai_match and self._status == "playing" and not self.members:
            self._unwatched_until = now + self.options.grace_seconds

    def _gone(self, side: Side) -> bool:
        """True if a person or bot holds ``side`` but is disconnected."""
        occupant = self._seats[side]
        return (
            occupant is not None and occupant.kind is not PlayerKind.AI and not occupant.connected
        )

    # -- requests: checks (raise _RefusedError before any change) ---------------------------

    def _require_player(self, client: ClientId, action: str) -> Side:
        side = self.side_of(client)
        if side is not None:
            return side
        if client in self._spectators:
            raise _RefusedError(
                ErrorCode.NOT_SEATED,
                f"you are watching room {self.code}: only its players can {action}",
            )
        raise _RefusedError(
            ErrorCode.NOT_SEATED, f"you have no seat in room {self.code}: join it to {action}"
        )

    def _require_playing_side(self, client: ClientId, action: str) -> Side:
        side = self._require_player(client, action)
        if self._status == "waiting":
            raise _RefusedError(
                ErrorCode.GAME_NOT_STARTED,
                f"room {self.code} is waiting for players: the game starts when both "
                "seats are taken",
            )
        if self._status == "finished":
            reason = self._result.reason if self._result else "over"
            raise _RefusedError(
                ErrorCode.GAME_OVER,
                f"game {self._game_number} in room {self.code} is over ({reason}): "
                "you can ask for a rematch, chat or leave",
            )
        if self.paused:
            raise _RefusedError(
                ErrorCode.PAUSED, f"the teacher paused the games: you can {action} once they resume"
            )
        return side

    def _require_draw_answer(self, client: ClientId, action: str) -> Side:
        side = self._require_playing_side(client, action)
        if self._draw_offer != other_side(side):
            raise _RefusedError(
                ErrorCode.NO_DRAW_OFFER,
                "no draw offer from your opponent stands: send offer_draw to make one",
            )
        return side

    def _member_name(self, client: ClientId, action: str) -> str:
        side = self.side_of(client)
        if side is not None:
            return self._occupant(side).name
        if client in self._spectators:
            return self._spectators[client]
        raise _RefusedError(
            ErrorCode.NOT_SEATED, f"you are not in room {self.code}: join or watch it to {action}"
        )

    # -- output ----------------------------------------------------------------------

    def _attempt(
        self,
        out: _Builder,
        client: ClientId | None,
        request_id: RequestId,
        act: Callable[[], None],
    ) -> Output:
        """Run ``act``; a refusal becomes one error to ``client``, and whatever
        ``act`` had queued is dropped (it refuses before changing anything)."""
        marks = len(out.messages), len(out.events), len(out.ai_requests)
        try:
            act()
        except _RefusedError as refusal:
            del out.messages[marks[0] :], out.events[marks[1] :], out.ai_requests[marks[2] :]
            if client is not None:
                error = Error(code=refusal.code, message=refusal.message, id=request_id)
                out.send(client, error)
        return self._output(out)

    def _audience(self) -> list[ClientId]:
        seated = [
            o.client
            for o in self._seats.values()
            if o is not None and o.client is not None and o.connected
        ]
        return seated + list(self._spectators)

    def _announce(
        self,
        out: _Builder,
        message: ServerMessage,
        requester: ClientId | None,
        request_id: RequestId,
    ) -> None:
        """Send ``message`` to everyone; the requester's copy carries its id."""
        if requester is None:
            out.send(ALL, message)
            return
        out.send(requester, _with_id(message, request_id))
        out.send(Everyone(exclude=requester), message)

    def _send_states(
        self, out: _Builder, now: float, requester: ClientId | None, request_id: RequestId
    ) -> None:
        """The whole state to every connected member, each with its own ``you``."""
        for client in self._audience():
            reply_id = request_id if client == requester else None
            out.send(client, State(room=self.state_for(client, now=now), id=reply_id))

    def _line_names(self, line: Sequence[tuple[int, int]]) -> tuple[str, ...]:
        return tuple(self.game.cell_name(cell) for cell in line)

    def _output(self, out: _Builder) -> Output:
        return Output(
            messages=tuple(out.messages),
            events=tuple(out.events),
            ai_requests=tuple(out.ai_requests),
            next_deadline=self.next_deadline,
            audience=self.audience,
        )


_NO_REMATCH = "a tournament game has no rematch: the next round opens by itself"


def _hold_clock(clock: GameClock, now: float) -> None:
    """Stop ``clock`` at ``now``, its side still to move: the held state that
    :meth:`GameClock.resume` runs on from (as after a restart)."""
    if clock.running is not None and clock.since is not None:
        clock.left[clock.running] = clock.time_left(clock.running, now)
        clock.since = None


def _with_id(message: ServerMessage, request_id: RequestId) -> ServerMessage:
    """``message`` carrying ``request_id``, as the reply to a request."""
    return message if request_id is None else msgspec.structs.replace(message, id=request_id)


def _rules_termination(outcome: Outcome) -> Termination:
    """How the rules ended a game that is over: the rules say so (a line, a count,
    a side with no move, a full board); a game whose rules do not say is a draw
    on a full board if nobody won, else a line, as every game before endings
    were named."""
    if outcome.termination is not None:
        return outcome.termination
    return Termination.LINE if outcome.status is Status.WIN else Termination.FULL_BOARD
