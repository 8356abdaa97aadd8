"""The game a room plays: its position, clock, draw offers, rematches and result.

:class:`GameInPlay` is the part of a :class:`~boardroom.server.core.room.Room` that knows
the rules (from :mod:`boardroom.shared.games`) and nothing of who sits where: the room
tells it which side acts, and it writes the moves, endings and answers into the
room's :class:`~boardroom.server.core.room_draft.Draft`. It reads no clock (``now`` comes
with every call), draws no randomness, and refuses a request
(:class:`~boardroom.server.core.room_draft.RefusedError`) before it changes anything.

Rules of the game (``docs/protocol.md`` states the wire side):

- A game starts when both seats are taken and none is in progress (the room
  calls :meth:`GameInPlay.start`); the ``state`` sent at the start is final.
  ``waiting`` lasts until the first game starts. Between games the room stays
  ``finished``; if a seat was freed, whoever takes it starts game ``n + 1`` at
  once, sides as they sit.
- A game ends on a line, a full board, resignation, agreement, timeout or
  abandonment. A game that ends before its first move, however it ends
  (resign, leave, timeout, abandonment), is *aborted*: nobody wins
  (:meth:`GameInPlay.concede`).
- A draw offer stands until the side it was made to answers it or moves; that
  move lapses it with ``draw_declined`` (``side`` is always the side whose
  offer is off). Offering while the opponent's offer stands accepts it. The
  server AI declines at once.
- Rematch: when both seated players have asked (an AI seat agrees at once),
  game ``n + 1`` starts with the occupants' sides swapped. The first request
  is acknowledged with the state alone (the protocol has no message for it).

In a *tournament room* (``RoomOptions.tournament``) there is one game: no
rematch (``tournament_room``), and a game that ends before its first move is
decided as after it: resigning, leaving, a flag or an abandonment loses (it is
not aborted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from boardroom.server.core.board_view import PositionView, move_name
from boardroom.server.core.clock import GameClock
from boardroom.server.core.records import SeatRecord, Termination
from boardroom.server.core.room_draft import Draft, RefusedError, with_id
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import (
    ALL,
    ClientId,
    GameFinished,
    GameStarted,
    MoveMade,
    RoomStatus,
    without_line,
)
from boardroom.shared.errors import IllegalMoveError
from boardroom.shared.games import (
    Game,
    Move,
    Outcome,
    Player,
    Position,
    Status,
)
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    DrawDeclined,
    DrawOffered,
    GameOver,
    MakeMove,
    Moved,
    RematchOffered,
    RequestId,
    ResultInfo,
    SearchInfo,
)


def _names(seats: Sequence[SeatRecord]) -> dict[Player, str]:
    """Who sits in each side, by name, as ``seats`` (first, second) record them."""
    first, second = seats
    return {Player.FIRST: first.name, Player.SECOND: second.name}


def _termination_of(outcome: Outcome) -> Termination:
    """How the rules ended a game that is over (``outcome.is_over``): as the
    rules say (a line, a count, a side with no move, a full board); rules that do
    not say are read as every game before endings were named: a win is a line,
    anything else a full board."""
    if outcome.termination is not None:
        return outcome.termination
    won = outcome.status is Status.WIN
    return Termination.LINE if won else Termination.FULL_BOARD


@dataclass
class GameInPlay:
    """The current (or last) game of room ``code`` (see the module docstring)."""

    code: str
    game: Game
    options: RoomOptions
    position: Position
    status: RoomStatus = "waiting"
    number: int = 1
    """The current (or last) game's number, from 1."""
    result: ResultInfo | None = None
    draw_offer: Player | None = None
    """The side whose draw offer stands."""
    rematch: frozenset[Player] = frozenset()
    """The sides that asked for a rematch."""
    clock: GameClock | None = None
    last_move_at: float | None = None
    """When the game in play started or last had a move (the AI's pace counts
    from there); None before the first game and in a room just restored."""
    players: dict[Player, str] = field(default_factory=dict)
    """Who played the current or last game, by side, as it started."""
    unrecorded_finish: GameFinished | None = None
    """A restored game's end that the records lack (the crash came first)."""
    finished_at: float | None = None
    """When the last game ended (None while one is played, or none ended here):
    the seats the autopilot played in it are held from then."""
    _view: PositionView | None = field(default=None, compare=False, repr=False)
    """The last position's view made (:attr:`view`)."""

    @classmethod
    def new(cls, code: str, game: Game, options: RoomOptions) -> GameInPlay:
        """Room ``code``'s game before its first: ``waiting``."""
        return cls(code, game, options, game.new(), clock=GameClock.for_clock(options.clock))

    # -- reading -----------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.status == "playing"

    @property
    def view(self) -> PositionView:
        """:attr:`position` as the room shows and checks it, made once a position."""
        view = self._view
        if view is None:
            view = self._view = PositionView.of(self.game, self.position)
        elif view.position is not self.position:
            view = self._view = view.after(self.position)
        return view

    @property
    def to_move(self) -> Player:
        return self.game.to_move(self.position)

    @property
    def moves(self) -> str:
        """The current (or last) game's move string."""
        return self.game.move_string(self.position)

    @property
    def rematch_offer(self) -> Player | None:
        """The side whose rematch request waits for the other's answer."""
        return next(iter(self.rematch)) if len(self.rematch) == 1 else None

    def flag_deadline(self) -> float | None:
        """When the side to move flags, if a clock runs in the game in play."""
        if self.status == "playing" and self.clock is not None:
            return self.clock.deadline()
        return None

    def line_names(self, line: Sequence[tuple[int, int]]) -> tuple[str, ...]:
        return tuple(self.game.cell_name(cell) for cell in line)

    # -- checks (raise RefusedError before any change) ------------------------------------------

    def require_in_play(self, action: str) -> None:
        """RefusedError (``game_not_started``, ``game_over``) unless a game is played."""
        if self.status == "waiting":
            raise RefusedError(
                ErrorCode.GAME_NOT_STARTED,
                f"room {self.code} is waiting for players: the game starts when both "
                "seats are taken",
            )
        if self.status == "finished":
            reason = self.result.reason if self.result else "over"
            raise RefusedError(
                ErrorCode.GAME_OVER,
                f"game {self.number} in room {self.code} is over ({reason}): "
                "you can ask for a rematch, chat or leave",
            )

    def require_draw_offer_to(self, side: Player) -> None:
        """RefusedError (``no_draw_offer``) unless ``side``'s opponent offers a draw."""
        if self.draw_offer != side.other:
            raise RefusedError(
                ErrorCode.NO_DRAW_OFFER,
                "no draw offer from your opponent stands: send offer_draw to make one",
            )

    def require_turn(self, side: Player, message: MakeMove) -> Move:
        """The move ``side`` asks for in ``message``, if it is ``side``'s turn at
        the ply it names and the rules allow it; refused (``stale_move``,
        ``not_your_turn``, ``illegal_move``) otherwise."""
        ply = self.position.ply
        if message.ply is not None and message.ply != ply:
            raise RefusedError(
                ErrorCode.STALE_MOVE,
                f"ply {message.ply} is not the current one: the game is at ply {ply} "
                "(ask for the state with get_state)",
            )
        if side is not self.game.to_move(self.position):
            raise RefusedError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {self.to_move}'s turn at ply {ply}: wait for their move",
            )
        move = self.view.legal_move_named(message.move)
        if move is not None:
            return move
        try:
            return self.game.parse_move(self.position, message.move)
        except IllegalMoveError as error:
            raise RefusedError(ErrorCode.ILLEGAL_MOVE, str(error)) from None

    # -- the game ----------------------------------------------------------------------

    def start(
        self, seats: tuple[SeatRecord, SeatRecord], now: float, out: Draft, *, paused: bool
    ) -> None:
        """Start the next game (the first, or ``n + 1`` after a finished one)
        between ``seats`` (first, second), its clock held if ``paused``."""
        if self.status == "finished":
            self.number += 1
        self.status = "playing"
        self.finished_at = None
        self.position = self.game.new()
        self.result = None
        self.draw_offer = None
        self.rematch = frozenset()
        self.clock = GameClock.for_clock(self.options.clock)
        self.last_move_at = now
        if self.clock is not None:
            self.clock.start(Player.FIRST, None if paused else now)  # None: held
        self.players = _names(seats)
        out.events.append(GameStarted(self.code, self.game.name, self.number, seats, at=now))

    def play(
        self,
        side: Player,
        move: Move,
        now: float,
        out: Draft,
        requester: ClientId | None,
        request_id: RequestId,
        search: SearchInfo | None = None,
        *,
        line_hidden: bool = False,
        autopilot: bool = False,
    ) -> bool:
        """Play a legal ``move`` for ``side`` (the side to move, before its flag);
        ``search`` is the AI's, announced with it (without its expected line if
        ``line_hidden``); ``autopilot``: the engine made it for an absent player
        (flagged in the record and on the wire). True if the game goes on, False
        if the move ended it."""
        ply = self.position.ply
        self.position = self.game.play_unchecked(self.position, move)
        view = self.view
        self.last_move_at = now
        clock_ms = clocks = None
        if self.clock is not None:
            clock_ms = round(self.clock.move(now) * 1000)
            clocks = self.clock.state(now)
        text = move_name(self.game, move)
        out.events.append(
            MoveMade(self.code, self.number, ply, side, text, now, clock_ms, autopilot=autopilot)
        )
        if search is not None and line_hidden:
            search = without_line(search)
        moved = Moved(
            room=self.code,
            ply=ply,
            move=text,
            side=side,
            clocks=clocks,
            search=search,
            board=list(view.board),
            legal=list(view.legal),
            autopilot=autopilot,
        )
        out.announce(moved, requester, request_id)
        if self.draw_offer is not None and self.draw_offer == side.other:
            # Moving instead of answering lapses the opponent's offer.
            self.draw_offer = None
            out.send(ALL, self._declined(side.other))
        outcome = view.outcome
        if not outcome.is_over:
            return True
        winner = outcome.winner
        line = self.line_names(outcome.line)
        self.finish(winner, _termination_of(outcome), now, out, None, None, line)
        return False

    def concede(
        self,
        side: Player,
        reason: Termination,
        at: float,
        out: Draft,
        requester: ClientId | None,
        request_id: RequestId,
    ) -> None:
        """``side`` loses by ``reason``, or the game is aborted if no move was made
        (but in a tournament room, where it is lost all the same)."""
        if self.position.ply == 0 and not self.options.tournament:
            self.finish(None, Termination.ABORTED, at, out, requester, request_id)
        else:
            self.finish(side.other, reason, at, out, requester, request_id)

    def finish(
        self,
        winner: Player | None,
        reason: Termination,
        at: float,
        out: Draft,
        requester: ClientId | None,
        request_id: RequestId,
        line: tuple[str, ...] = (),
    ) -> None:
        """The game ends at ``at``: ``winner`` (None: nobody) by ``reason``."""
        self.status = "finished"
        self.finished_at = at
        if self.clock is not None:
            self.clock.stop(at)
        self.draw_offer = None
        self.rematch = frozenset()
        self.result = ResultInfo(winner=winner, reason=reason.value, line=list(line))
        out.events.append(GameFinished(self.code, self.number, winner, reason, at=at, line=line))
        over = GameOver(room=self.code, result=self.result, moves=self.moves)
        out.announce(over, requester, request_id)

    # -- draws and rematches -----------------------------------------------------------

    def offer_draw(
        self,
        side: Player,
        *,
        to_ai: bool,
        now: float,
        out: Draft,
        client: ClientId,
        request_id: RequestId,
    ) -> None:
        """``side`` (``client``) offers a draw; ``to_ai``: the opponent is the
        server AI, which declines at once. Accepts the opponent's standing offer."""
        if self.draw_offer == side.other:
            self.finish(None, Termination.AGREEMENT, now, out, client, request_id)
            return
        offered = DrawOffered(room=self.code, side=side)
        if self.draw_offer == side:
            out.send(client, with_id(offered, request_id))  # already standing
            return
        self.draw_offer = side
        out.announce(offered, client, request_id)
        if to_ai:
            self.draw_offer = None
            out.send(ALL, self._declined(side))

    def decline_draw(
        self, side: Player, out: Draft, client: ClientId, request_id: RequestId
    ) -> None:
        """``side`` (``client``) declines its opponent's standing offer."""
        self.draw_offer = None
        out.announce(self._declined(side.other), client, request_id)

    def forget_rematch(self) -> None:
        """Rematch requests lapse: a seat changed hands."""
        self.rematch = frozenset()

    def _declined(self, offerer: Player) -> DrawDeclined:
        return DrawDeclined(room=self.code, side=offerer)

    def ask_rematch(
        self,
        side: Player | None,
        *,
        agreeing: set[Player],
        seats_full: bool,
        out: Draft,
        client: ClientId,
        request_id: RequestId,
    ) -> bool:
        """``side`` (``client``; None: a watcher of an AI match, for both) asks for
        a rematch; ``agreeing``: the sides that agree at once (the AI's). True if
        both sides have asked now: the room swaps the seats and starts the next
        game. RefusedError (``tournament_room``, ``game_in_progress``,
        ``game_not_started``) when there is no rematch to ask for."""
        if self.options.tournament:
            raise RefusedError(ErrorCode.TOURNAMENT_ROOM, NO_REMATCH)
        if self.status == "playing":
            raise RefusedError(
                ErrorCode.GAME_IN_PROGRESS,
                f"game {self.number} is still being played: ask for a rematch once it is over",
            )
        if self.status == "waiting" or not seats_full:
            raise RefusedError(
                ErrorCode.GAME_NOT_STARTED,
                f"room {self.code} is waiting for a player: the next game starts "
                "when both seats are taken",
            )
        asked = set(self.rematch) | ({side} if side is not None else set()) | agreeing
        if len(asked) < len(Player) and side is not None:
            offered = RematchOffered(room=self.code, side=side)
            if side in self.rematch:
                out.send(client, with_id(offered, request_id))  # already standing
            else:
                self.rematch = frozenset(asked)
                out.announce(offered, client, request_id)
            return False
        return True

    # -- restoring ---------------------------------------------------------------------

    def replay(
        self, started: GameStarted, moves: Sequence[MoveMade], finished: GameFinished | None
    ) -> None:
        """Take up the stored game ``started`` with its ``moves`` and, if it ended,
        how (``finished``). A game over by its last move whose end was not
        stored gets its end back, kept in :attr:`unrecorded_finish` for the room
        to record. A game in play keeps its clock held (no time runs until the
        room resumes it). ValueError if the moves do not replay."""
        self.number = started.game_number
        self.players = _names(started.seats)
        game = self.game
        position = game.new()
        clock = self.clock
        for ply, made in enumerate(moves):
            if (made.game_number, made.ply) != (started.game_number, ply):
                raise ValueError(
                    f"move record {made!r}: expected game {started.game_number}, ply {ply}"
                )
            position = game.play_unchecked(position, game.parse_move(position, made.move_text))
            if clock is not None and clock.clock.kind == "increment" and made.clock_ms is not None:
                clock.left[made.side] = made.clock_ms / 1000 + clock.clock.increment
        self.position = position
        outcome = game.outcome(position)
        if finished is None and outcome.is_over:
            # The last move was stored but the crash came before the result was.
            winner = outcome.winner
            finished = GameFinished(
                room=self.code,
                game_number=started.game_number,
                winner=winner,
                reason=_termination_of(outcome),
                at=moves[-1].at,
                line=self.line_names(outcome.line),
            )
            self.unrecorded_finish = finished
        if finished is not None:
            self.status = "finished"
            self.result = ResultInfo(
                winner=finished.winner, reason=finished.reason.value, line=list(finished.line)
            )
        else:
            self.status = "playing"
            if clock is not None:
                clock.start(self.to_move, None)  # held until the room resumes it


NO_REMATCH = "a tournament game has no rematch: the next round opens by itself"
