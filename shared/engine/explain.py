"""The search in words: one line that tells a person what the engine did.

Pure wording over a :class:`~boardroom.shared.engine.search.SearchResult`, so the server (with
an AI's move), the terminal, the browser (which get the server's line) and
``boardroom solve`` all say the same thing the same way. The line reads as the
minimax lesson: how many positions were looked at, how far ahead, and what the
engine concluded, proven to the end of the game or only a guess at the horizon.

>>> from boardroom.shared.games import get_game
>>> from boardroom.shared.engine import search
>>> game = get_game("tictactoe")
>>> result = search(game, game.from_moves("b2 a1 c3"), level="perfect")
>>> summary(result).startswith("searched ") and summary(result).endswith("proven draw")
True
>>> principal_line(game, result)[0] == result.move_text
True
"""

from __future__ import annotations

from boardroom.shared.engine.scores import Result
from boardroom.shared.engine.search import SearchResult
from boardroom.shared.games.base import Game

_UNITS = (("k", 1e3), ("M", 1e6), ("G", 1e9))
"""Prefixes for counts, smallest first: "1.2 M positions" reads at a glance where
"1,234,567 positions" has to be counted."""


def count_text(count: float) -> str:
    """``count`` for people: exact below a thousand, else two or three significant
    figures with a prefix.

    >>> [count_text(n) for n in (0, 812, 1_000, 35_499, 1_234_567, 999_999, 4.2e9)]
    ['0', '812', '1.0 k', '35 k', '1.2 M', '1.0 M', '4.2 G']
    """
    if count < 1000:
        return f"{count:.0f}"
    text = f"{count:.0f}"
    for unit, size in _UNITS:
        scaled = count / size
        text = f"{scaled:.1f} {unit}" if round(scaled, 1) < 10 else f"{scaled:.0f} {unit}"
        if round(scaled) < 1000:
            return text
    return text


def seconds_text(seconds: float) -> str:
    """A duration for people: milliseconds under a tenth of a second.

    >>> [seconds_text(s) for s in (0.0004, 0.0372, 0.84, 2.917, 31.4)]
    ['0 ms', '37 ms', '0.84 s', '2.92 s', '31.4 s']
    """
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def verdict(result: SearchResult) -> str:
    """What the search concluded, from the searching side's point of view.

    ``sees a win in 9`` (the moves it still has to play), ``sees a loss in 4``,
    ``proven draw``, or, when the value is not proven, ``best guess after depth
    8: +0.35`` (the evaluation at the horizon, in points; positive is good for
    the side that searched).
    """
    value = result.value
    if result.nodes == 0 and result.depth == 0:
        return "no search: a move at random"
    if value.result is Result.WIN:
        return "wins with this move" if value.moves == 1 else f"sees a win in {value.moves}"
    if value.result is Result.LOSS:
        return f"sees a loss in {value.moves}"
    if value.result is Result.DRAW:
        return "proven draw"
    return f"best guess after depth {result.depth}: {value}"


def summary(result: SearchResult) -> str:
    """One line for people: positions searched, time, depth, and the :func:`verdict`.

    ``searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9``;
    ``searched 3.1 M positions in 2.92 s: best guess after depth 8: +0.35``;
    ``no search: a move at random`` (the ``random`` level looks at nothing);
    ``from the opening book, solved in advance: sees a win in 18``.
    """
    said = verdict(result)
    if result.nodes == 0 and result.depth == 0:
        return said
    if result.book:
        return f"from the opening book, solved in advance: {said}"
    noun = "position" if result.nodes == 1 else "positions"
    searched = f"searched {count_text(result.nodes)} {noun} in {seconds_text(result.elapsed)}"
    if result.value.result is None:
        return f"{searched}: {said}"
    return f"{searched}, depth {result.depth}: {said}"


def speed_text(result: SearchResult) -> str:
    """The search's speed for people, e.g. ``1.4 M positions a second``."""
    return f"{count_text(result.nodes_per_second)} positions a second"


def principal_line(game: Game, result: SearchResult) -> list[str]:
    """The expected line of play in ``game``'s notation, the move played first."""
    return [game.format_move(move) for move in result.pv]
