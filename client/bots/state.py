"""What a bot is shown: the game as a small frozen value, and how a game ended.

A bot's ``choose_move(state)`` gets a :class:`GameState`; its
``on_game_end(state, result)`` gets a :class:`GameResult`. Both are plain values
built from the room the server sent (:class:`~boardroom.shared.protocol.messages.RoomState`),
so a bot never sees the protocol, and a test can build them without a server:

>>> from boardroom.shared.protocol.messages import Clock
>>> state = game_state(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
...     status="playing", public=True, clock=Clock(), moves="b2 a1", ply=2, to_move=Player.FIRST,
...     seats=[SeatInfo(side=Player.FIRST, name="ann"), SeatInfo(side=Player.SECOND, name="bob")],
...     you=Player.FIRST))
>>> state.you, state.opponent, state.moves, state.last_move, state.my_turn
('X', 'bob', ('b2', 'a1'), 'a1', True)
>>> state.board
('...', '.X.', 'O..')
>>> "a1" in state.legal_moves, len(state.legal_moves)
(False, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from boardroom.shared.games import Game, GridGame, Player, Position, Termination, get_game
from boardroom.shared.protocol.messages import (
    Clock,
    ResultInfo,
    RoomState,
    SeatInfo,
)

Symbol = Literal["X", "O"]
NO_CLOCK = Clock()
Outcome = Literal["win", "loss", "draw", "aborted"]


@dataclass(frozen=True, slots=True)
class GameState:
    """One game as a bot sees it, at one moment (usually: its turn to move).

    Moves are strings in the game's notation: grid cells like ``"b2"`` (column
    letter, row number from the bottom: a1 is bottom left), Connect Four columns
    ``"1"`` to ``"7"``, Othello cells and ``"pass"``. Times are in seconds; None
    in a room without a clock.
    """

    game: str
    """The game's name, as the registry names it (``tictactoe``, ``connect4``, ``mnk-5-5-4``...)."""
    title: str
    """The game's name for people (``Connect Four``)."""
    room: str
    """The room code."""
    game_number: int
    """1 for the room's first game, 2 for the rematch after it, and so on."""
    you: Symbol
    """Your stone: ``X`` moves first, ``O`` second."""
    side: Player
    """Your seat: ``first`` (X) or ``second`` (O)."""
    opponent: str | None
    """The opponent's name (``AI (perfect)`` for the server's engine); None if nobody sits there."""
    my_turn: bool
    """True when it is your move (always, in ``choose_move``)."""
    ply: int
    """Moves played so far."""
    moves: tuple[str, ...]
    """Every move so far, first to last."""
    move_string: str
    """The moves as one string, as the server and ``boardroom solve`` read them
    (``"4453"``, ``"b2 a1"``)."""
    last_move: str | None
    """The opponent's last move when it is your turn; None before the first move."""
    legal_moves: tuple[str, ...]
    """Every move allowed now (empty once the game is over)."""
    board: tuple[str, ...]
    """The board, top row first, one string per row of ``X``, ``O`` and ``.``;
    ``board[-1][0]`` is a1 (bottom left)."""
    time_left: float | None
    """Seconds left on your clock; None without a clock."""
    opponent_time_left: float | None
    """Seconds left on the opponent's clock; None without a clock."""
    rules: Game
    """The game's rules (:class:`boardroom.shared.games.Game`), for bots that search."""
    position: Position
    """The position as the rules see it (``rules.legal_moves(position)``...)."""
    clock: Clock = NO_CLOCK
    """The room's clock setting (``clock.kind``: ``none``, ``per_move`` or
    ``increment``), for a bot that plans its time over the game."""
    opponent_kind: str | None = None
    """Who sits opposite: ``human``, ``bot`` or ``ai`` (the server's engine); None if nobody."""
    opponent_autopilot: str | None = None
    """The level (``easy``, ``medium``...) at which the server's engine plays the
    opponent's seat while its player is away (the room's autopilot: their grace
    window ran out); None while they play it themselves."""
    autopilot_plies: tuple[int, ...] = ()
    """The plies (indexes into :attr:`moves`) the server's engine played for a
    player who was away, either side, in order: the opponent's as their moves
    came, and yours while this bot's connection was down past its grace window
    (found when it reconnects: the moves of your side it did not send)."""

    def render(self) -> str:
        """The board as text with coordinates, as ``boardroom play`` shows it."""
        return self.rules.render(self.position)

    def winning_moves(self, *, opponent: bool = False) -> tuple[str, ...]:
        """The legal moves that win at once: yours, or with ``opponent=True`` the
        opponent's (the threats to block: a move of yours there takes the cell
        first). On a k-in-a-row board, the cells where one more stone makes a
        line; in a game won otherwise (Othello, by count at the end), the moves
        after which the rules say that side won: now if it is that side's turn,
        else in reply to any move of the other. Empty once the game is over.

        >>> from boardroom.shared.protocol.messages import Clock
        >>> state = game_state(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
        ...     status="playing", public=True, clock=Clock(), moves="a1 b1 a2 b2", ply=4,
        ...     to_move=Player.FIRST, you=Player.FIRST,
        ...     seats=[SeatInfo(side=Player.FIRST), SeatInfo(side=Player.SECOND)]))
        >>> state.winning_moves(), state.winning_moves(opponent=True)
        (('a3',), ('b3',))
        """
        if not self.legal_moves:
            return ()
        rules = self.rules
        mine = self.side
        player = mine.other if opponent else mine
        if isinstance(rules, GridGame):
            # Whoever is to move: the cells where one more stone of theirs makes a line.
            stones = self.position.stones[player.number]
            occupied = self.position.occupied
            return tuple(
                move
                for move in self.legal_moves
                if rules.grid.has_line(
                    stones | rules.move_bit_in(occupied, rules.parse_move(self.position, move))
                )
            )
        winning = _winning_moves(rules, self.position, player)
        return tuple(move for move in self.legal_moves if move in winning)


def _winning_moves(rules: Game, position: Position, player: Player) -> set[str]:
    """On a game without lines (Othello: a win comes at the end, by count), the
    moves of ``player`` after which the rules say ``player`` won: at once if it is
    ``player``'s move, else in reply to any of the other side's moves."""
    if rules.to_move(position) is player:
        starts = [position]
    else:
        starts = [rules.play_unchecked(position, move) for move in rules.legal_moves(position)]
    return {
        rules.format_move(move)
        for start in starts
        for move in rules.legal_moves(start)
        if rules.outcome(rules.play_unchecked(start, move)).winner is player
    }


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, from the bot's side of the board."""

    outcome: Outcome
    """``win``, ``loss``, ``draw``, or ``aborted`` (ended before the first move, or
    abandoned by both players: nobody wins)."""
    winner: Player | None
    """The winning seat, or None."""
    winner_symbol: Symbol | None
    """The winner's stone, ``X`` or ``O``, or None."""
    reason: str
    """How it ended, a :class:`~boardroom.shared.games.Termination` value: ``line``,
    ``count``, ``no_moves``, ``full_board``, ``resignation``, ``agreement``,
    ``timeout``, ``abandonment`` or ``aborted`` (as in ``docs/protocol.md``)."""
    line: tuple[str, ...]
    """The cells of the winning line (named as grid cells, Connect Four included)."""
    moves: tuple[str, ...]
    """Every move of the game."""


def game_state(
    room: RoomState,
    *,
    time_left_ms: int | None = None,
    opponent_time_left_ms: int | None = None,
    autopilot_plies: Iterable[int] = (),
) -> GameState:
    """The state a seated player is shown of ``room`` (whose ``you`` must be set).

    The clock times are passed in because they run down between messages: the
    caller knows "now" (:meth:`boardroom.client.tracked_room.TrackedRoom.time_left_ms`);
    so are the plies the autopilot played, which a ``state`` does not say
    (:attr:`boardroom.client.tracked_room.TrackedRoom.autopilot_plies`).
    """
    side = room.you
    if side is None:
        raise ValueError(f"room {room.code}: a spectator has no side to play")
    rules = get_game(room.game)
    position = rules.from_moves(room.moves)
    moves = tuple(rules.format_move(move) for move in position.moves)
    playing = room.status == "playing"
    opposite = _seat(room.seats, side.other)
    return GameState(
        game=room.game,
        title=room.title,
        room=room.code,
        game_number=room.game_number,
        you=side.symbol,
        side=side,
        opponent=opposite.name,
        my_turn=playing and room.to_move == side,
        ply=position.ply,
        moves=moves,
        move_string=rules.move_string(position),
        last_move=moves[-1] if moves else None,
        legal_moves=tuple(
            rules.format_move(move) for move in (rules.legal_moves(position) if playing else ())
        ),
        board=rules.board_rows(position),
        time_left=_seconds(time_left_ms),
        opponent_time_left=_seconds(opponent_time_left_ms),
        rules=rules,
        position=position,
        clock=room.clock,
        opponent_kind=opposite.kind,
        opponent_autopilot=opposite.autopilot,
        autopilot_plies=tuple(sorted(ply for ply in autopilot_plies if ply < position.ply)),
    )


def game_result(result: ResultInfo, moves: tuple[str, ...], side: Player) -> GameResult:
    """The result ``result`` of a game played from ``side``.

    >>> game_result(ResultInfo(winner=Player.SECOND, reason="line", line=["a1", "a2", "a3"]),
    ...             ("b2", "a1"), Player.FIRST).outcome
    'loss'
    >>> game_result(ResultInfo(winner=None, reason="aborted"), (), Player.FIRST).outcome
    'aborted'
    """
    outcome: Outcome
    if result.winner is None:
        # A full board, an agreement, an equal count share the point; anything else
        # without a winner (aborted, both players gone) is no result.
        outcome = "draw" if _is_draw(result.reason) else "aborted"
    else:
        outcome = "win" if result.winner == side else "loss"
    return GameResult(
        outcome=outcome,
        winner=result.winner,
        winner_symbol=result.winner.symbol if result.winner is not None else None,
        reason=result.reason,
        line=tuple(result.line),
        moves=moves,
    )


def _is_draw(reason: str) -> bool:
    try:
        return Termination(reason).is_draw
    except ValueError:  # a reason from a newer server: not a draw we know of
        return False


def _seat(seats: list[SeatInfo], side: Player) -> SeatInfo:
    return next((seat for seat in seats if seat.side == side), SeatInfo(side=side))


def _seconds(milliseconds: int | None) -> float | None:
    return None if milliseconds is None else milliseconds / 1000
