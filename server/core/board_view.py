"""A position as a client draws it: the board's rows, its kind and the legal moves.

The wire carries these (``state.room.board``, ``board_kind`` and ``legal``; the
same in ``moved``; ``boards`` per ply in a game's review) so that no client keeps
a copy of the rules: the browser draws the rows and offers only the legal moves,
whatever the game (docs/protocol.md, "The board").

>>> from boardroom.shared.games import get_game
>>> game = get_game("tictactoe")
>>> position = game.from_moves("b2 a1")
>>> board_rows(game, position)
['...', '.X.', 'O..']
>>> legal_moves(game, position)[:3], board_kind(game)
(['b1', 'c1', 'a2'], 'cells')
"""

from __future__ import annotations

from typing import Any, NamedTuple

from boardroom.shared.games import Game, Move, Outcome, Position, spec_for
from boardroom.shared.protocol.messages import BoardKind


def board_rows(game: Game, position: Position) -> list[str]:
    """The board, top row first: one string per row of ``X``, ``O`` and ``.``."""
    return list(game.board_rows(position))


def legal_moves(game: Game, position: Position) -> list[str]:
    """Every legal move in ``position``, in the game's notation (empty once it is over)."""
    return list(_names(game, game.legal_moves(position)))


class PositionView(NamedTuple):
    """A position as a room shows and checks it, worked out once (issue 29): its
    board's rows, its outcome, its legal moves and their names.

    A room shows the position in play in every ``moved`` and ``state``, and checks
    the next move against it; each of those used to ask the rules again (the
    outcome three times a move, the board cell by cell). A view is made once a
    position (:meth:`after` draws a move's board from the last view's, the
    cells that changed only) and read as often as needed. It is immutable, so a
    copy of a room shares it (``__deepcopy__`` returns it).
    """

    game: Game
    position: Position
    """The position shown."""
    board: tuple[str, ...]
    """:meth:`Game.board_rows <boardroom.shared.games.Game.board_rows>` of it."""
    outcome: Outcome
    """:meth:`Game.outcome <boardroom.shared.games.Game.outcome>` of it."""
    moves: tuple[Move, ...]
    """The legal moves, in the rules' order; none once the game is over."""
    legal: tuple[str, ...]
    """Their names, as ``legal`` gives them on the wire."""

    @classmethod
    def of(cls, game: Game, position: Position) -> PositionView:
        """The view of ``position``, worked out from nothing."""
        return cls._made(game, position, game.board_rows(position))

    def after(self, position: Position) -> PositionView:
        """The view of ``position``, a later position of this view's game: its
        board drawn from this one's."""
        game = self.game
        if not position.moves:  # a new game: nothing to draw from the last one's end
            return self.of(game, position)
        board = game.board_rows_after(self.board, self.position, position)
        return self._made(game, position, board)

    @classmethod
    def _made(cls, game: Game, position: Position, board: tuple[str, ...]) -> PositionView:
        outcome, legal = game.outcome_and_legal_moves(position)
        moves = tuple(legal)
        return cls(game, position, board, outcome, moves, _names(game, moves))

    def legal_move_named(self, text: str) -> Move | None:
        """The legal move whose name is exactly ``text`` (as :attr:`legal` gives
        it); None for anything else, which the rules' parser then reads (another
        spelling of a legal move) or refuses by name."""
        named = _MOVES_BY_NAME.get(self.game.name)
        move = None if named is None else named.get(text)
        return move if move is not None and move in self.moves else None

    def __deepcopy__(self, memo: dict[int, Any]) -> PositionView:
        return self  # immutable: a copied room shares it, as it shares the rules


def move_name(game: Game, move: Move) -> str:
    """``move``'s name in ``game``'s notation (:meth:`Game.format_move
    <boardroom.shared.games.Game.format_move>`), named once a game kind."""
    names = _MOVE_NAMES.get(game.name)
    name = None if names is None else names.get(move)
    return _names(game, (move,))[0] if name is None else name


def _names(game: Game, moves: list[Move] | tuple[Move, ...]) -> tuple[str, ...]:
    """The names of ``moves`` in ``game``'s notation, each named once a game kind."""
    names = _MOVE_NAMES.get(game.name)
    if names is not None:
        try:
            return tuple(map(names.__getitem__, moves))
        except KeyError:
            pass  # a move not named yet
    else:
        names = _MOVE_NAMES[game.name] = {}
        _MOVES_BY_NAME[game.name] = {}
    by_name = _MOVES_BY_NAME[game.name]
    for move in moves:
        if move not in names:
            name = names[move] = game.format_move(move)
            by_name[name] = move
    return tuple(map(names.__getitem__, moves))


_MOVE_NAMES: dict[str, dict[Move, str]] = {}
"""Per game, each move's notation once named: a move's name is the same in every
position (``format_move`` takes the move alone), and every move played names the
legal moves after it (``moved.legal``: eight for tic-tac-toe's first), so they are
named once a game kind rather than on every move (issue 29). Bounded by the
games' boards."""

_MOVES_BY_NAME: dict[str, dict[str, Move]] = {}
"""The other way round: per game, the move each name in :data:`_MOVE_NAMES` names,
for :meth:`PositionView.legal_move_named`."""


def board_kind(game: Game) -> BoardKind:
    """How ``game``'s board looks and how its moves name places (``cells``, ``columns``)."""
    # The registry's BoardKind values are the wire's (a protocol test holds them together).
    known = _BOARD_KINDS.get(game.name)
    if known is not None:
        return known
    kind: BoardKind = spec_for(game).board.value
    _BOARD_KINDS[game.name] = kind
    return kind


_BOARD_KINDS: dict[str, BoardKind] = {}
"""Per game, its board's kind, looked up in the registry once (every ``state`` has it)."""
