"""The client's live copy of one room, kept current from the server's messages.

The server sends a room whole (``state``) on join, watch and rejoin, then small
events (``moved``, ``game_over``, ``player_status``, draw messages). A
:class:`TrackedRoom` folds those events into the last whole state, so a user
interface or a bot reads one current :class:`~boardroom.shared.protocol.messages.RoomState`
plus the position as a :mod:`boardroom.shared.games` value, and never replays events itself.

Clocks count down locally: the times in the last ``state`` or ``moved`` are taken
as of the moment the message arrived, and the running side's time shrinks from
there (:meth:`TrackedRoom.time_left_ms`); the server stays the judge of timeouts.

>>> from boardroom.shared.protocol.messages import Moved, RoomState, SeatInfo, Clock
>>> room = TrackedRoom(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
...     status="playing", public=True, clock=Clock(), moves="", ply=0,
...     seats=[SeatInfo(side=Player.FIRST), SeatInfo(side=Player.SECOND)],
...     to_move=Player.FIRST, you=Player.FIRST))
>>> room.my_turn, room.legal_moves[:3]
(True, ['a1', 'b1', 'c1'])
>>> room.apply(Moved(room="ABCDEF", ply=0, move="b2", side=Player.FIRST))
True
>>> room.state.moves, room.state.to_move, room.last_move, room.my_turn
('b2', <Player.SECOND: 'second'>, 'b2', False)
"""

from __future__ import annotations

import time

import msgspec

from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import Game, Player, Position, get_game
from boardroom.shared.protocol.messages import (
    ClockState,
    DrawDeclined,
    DrawOffered,
    GameOver,
    Moved,
    PlayerStatus,
    RematchOffered,
    RoomState,
    SeatInfo,
    State,
)


class TrackedRoom:
    """One room as this client last heard of it.

    Contract: feed it every server message about the room, in order, through
    :meth:`apply`. It never raises on a message it cannot place: it answers False,
    meaning "out of step, ask the server for the whole ``state`` again".
    """

    def __init__(self, state: RoomState) -> None:
        self.code = state.code
        self.game: Game = get_game(state.game)
        self.state = state
        self.position: Position = self.game.new()
        self.last_move: str | None = None
        self.autopilot_plies: set[int] = set()
        """The plies of the current (or last) game that the server's engine
        played for a player who was away (its autopilot), as this copy heard of
        them: each ``moved`` with ``autopilot``, and those :meth:`note_autopilot`
        adds (a seated client's own, found when it comes back). Emptied when a
        new game starts."""
        self._clocks_at = time.monotonic()
        self._take_state(state)

    # -- reading -------------------------------------------------------------------

    @property
    def you(self) -> Player | None:
        """This client's seat, or None when watching."""
        return self.state.you

    @property
    def playing(self) -> bool:
        """True while a game is in progress."""
        return self.state.status == "playing"

    @property
    def my_turn(self) -> bool:
        """True when a game is in progress, undecided, and this client's seat is to
        move. A winning or drawing move decides the game before ``game_over`` says
        so; from then on nobody is to move."""
        return (
            self.playing
            and self.you is not None
            and self.state.to_move == self.you
            and not self.game.outcome(self.position).is_over
        )

    @property
    def legal_moves(self) -> list[str]:
        """The moves the side to move may play, in the game's notation (empty when
        no game is in progress)."""
        if not self.playing:
            return []
        return [self.game.format_move(move) for move in self.game.legal_moves(self.position)]

    @property
    def winning_cells(self) -> list[str]:
        """The cells of the winning line once a game is won by a line, else empty."""
        result = self.state.result
        return list(result.line) if result is not None else []

    def seat(self, side: Player) -> SeatInfo:
        """Who sits at ``side`` (an empty seat has no name)."""
        for seat in self.state.seats:
            if seat.side == side:
                return seat
        return SeatInfo(side=side)

    def player_name(self, side: Player) -> str | None:
        """Who plays ``side``, or played it: the seat's name; once the game is over
        and its player has left the seat, the name they played it under (the
        state's ``game_players``); else None."""
        name = self.seat(side).name
        if name is None and self.state.status == "finished":
            return self.state.game_players.get(side)
        return name

    def time_left_ms(self, side: Player, now: float | None = None) -> int | None:
        """Milliseconds left on ``side``'s clock as of ``now`` (``time.monotonic()``),
        counting down while it runs; None in a room without a clock."""
        clocks = self.state.clocks
        if clocks is None:
            return None
        left = clocks.first_ms if side == Player.FIRST else clocks.second_ms
        if clocks.running == side and self.playing:
            elapsed = (time.monotonic() if now is None else now) - self._clocks_at
            left -= int(elapsed * 1000)
        return max(0, left)

    # -- updating ------------------------------------------------------------------

    def note_autopilot(self, plies: set[int]) -> None:
        """The server's engine played ``plies`` of the current game (found
        otherwise than by their ``moved``: a client that was away is sent the
        whole ``state``, which does not say who made each move)."""
        self.autopilot_plies |= plies

    def apply(self, message: msgspec.Struct) -> bool:
        """Fold one server message about this room into the copy.

        Returns False if the message shows the copy is out of step (a move missed,
        or one that does not fit the position): the caller should send
        ``get_state``. Messages this copy does not track return True unchanged.
        """
        if isinstance(message, State):
            self._take_state(message.room)
        elif isinstance(message, Moved):
            return self._take_move(message)
        elif isinstance(message, GameOver):
            return self._take_game_over(message)
        elif isinstance(message, PlayerStatus):
            seats = [
                msgspec.structs.replace(
                    seat,
                    connected=message.connected,
                    gone_until=message.gone_until,
                    autopilot=message.autopilot,
                )
                if seat.side == message.side
                else seat
                for seat in self.state.seats
            ]
            self.state = msgspec.structs.replace(self.state, seats=seats)
        elif isinstance(message, DrawOffered):
            self.state = msgspec.structs.replace(self.state, draw_offer=message.side)
        elif isinstance(message, DrawDeclined):
            self.state = msgspec.structs.replace(self.state, draw_offer=None)
        elif isinstance(message, RematchOffered):
            self.state = msgspec.structs.replace(self.state, rematch_offer=message.side)
        return True

    def _take_state(self, state: RoomState) -> None:
        if state.game_number != self.state.game_number:
            self.autopilot_plies = set()  # another game: none of its moves is known yet
        else:
            self.autopilot_plies = {ply for ply in self.autopilot_plies if ply < state.ply}
        self.state = state
        self._clocks_at = time.monotonic()
        try:
            self.position = self.game.from_moves(state.moves)
        except BoardroomError:
            # The server's own move string always parses; if it ever did not, an
            # empty board is shown rather than a crash.
            self.position = self.game.new()
        moves = self.position.moves
        self.last_move = self.game.format_move(moves[-1]) if moves else None

    def _take_move(self, moved: Moved) -> bool:
        if moved.ply < self.state.ply:
            return True  # already in the copy (a state sent after the move overtook it)
        if moved.ply > self.state.ply or self.state.status != "playing":
            return False
        try:
            move = self.game.parse_move(self.position, moved.move)
        except BoardroomError:
            return False
        self.position = self.game.play_unchecked(self.position, move)
        self.last_move = moved.move
        if moved.autopilot:
            self.autopilot_plies.add(moved.ply)
        self.state = msgspec.structs.replace(
            self.state,
            moves=self.game.move_string(self.position),
            ply=moved.ply + 1,
            to_move=moved.side.other,
            clocks=moved.clocks if moved.clocks is not None else self.state.clocks,
        )
        if moved.clocks is not None:
            self._clocks_at = time.monotonic()
        return True

    def _take_game_over(self, over: GameOver) -> bool:
        clocks = self.state.clocks
        if clocks is not None:
            # Stop the clocks where they stand now: nothing runs after the end.
            clocks = ClockState(
                first_ms=self.time_left_ms(Player.FIRST) or 0,
                second_ms=self.time_left_ms(Player.SECOND) or 0,
                running=None,
            )
        in_step = over.moves == self.state.moves
        self.state = msgspec.structs.replace(
            self.state,
            status="finished",
            result=over.result,
            to_move=None,
            draw_offer=None,
            clocks=clocks,
            game_id=over.game_id if over.game_id is not None else self.state.game_id,
        )
        if not in_step:
            try:
                self.position = self.game.from_moves(over.moves)
            except BoardroomError:
                return False
            self.state = msgspec.structs.replace(
                self.state, moves=over.moves, ply=self.position.ply
            )
            moves = self.position.moves
            self.last_move = self.game.format_move(moves[-1]) if moves else None
        return True
