"""The search in words: one line that tells a person what the engine did.

Pure wording over a :class:`~boardroom.shared.engine.search.SearchResult`, so the server (with
an AI's move), the terminal, the browser (which get the server's line) and
``boardroom solve`` all say the same thing the same way.

Two languages at once: :func:`summary` is the server's line, always in English
(what the wire carries in ``moved.search.summary`` and ``hint.search.summary``,
for clients that show it as it is), while :func:`search_summary` says the same
from the wire's figures in the language spoken now (the terminal in Spanish:
``búsqueda de 1,2 M posiciones en 0,84 s, profundidad 14: gana en 9``). The line reads as the
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

import re
from typing import Protocol

from boardroom.shared.engine.search import SearchResult
from boardroom.shared.games.base import Game
from boardroom.shared.i18n import (
    SOURCE_LANGUAGE,
    _,
    current,
    current_language,
    ngettext,
    use_language,
)

_UNITS = (("k", 1e3), ("M", 1e6), ("G", 1e9))
"""Prefixes for counts, smallest first: "1.2 M positions" reads at a glance where
"1,234,567 positions" has to be counted."""

_PROVEN = re.compile(r"(win|loss) in (\d+)")


class SearchFigures(Protocol):
    """What :func:`search_summary` reads: a search's figures as the wire carries
    them (``SearchInfo``), ``value`` in the wire's words (``win in 9``,
    ``loss in 4``, ``draw``, ``+0.35``)."""

    @property
    def nodes(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def elapsed_ms(self) -> int: ...
    @property
    def value(self) -> str: ...
    @property
    def book(self) -> bool: ...


def count_text(count: float) -> str:
    """``count`` for people: exact below a thousand, else two or three significant
    figures with a prefix (in English; another language writes it in its
    locale's short form, ``1,2 M``).

    >>> [count_text(n) for n in (0, 812, 1_000, 35_499, 1_234_567, 999_999, 4.2e9)]
    ['0', '812', '1.0 k', '35 k', '1.2 M', '1.0 M', '4.2 G']
    >>> with use_language("es"):
    ...     count_text(1_234_567)
    '1,2\xa0M'
    """
    if current_language() != SOURCE_LANGUAGE:
        return current().compact(count)
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
        return _("{milliseconds} ms", milliseconds=current().decimal(seconds * 1000, 0))
    digits = 2 if seconds < 10 else 1
    return _("{seconds} s", seconds=current().decimal(seconds, digits))


def value_text(value: str) -> str:
    """A value in the wire's words (``win in 9``, ``loss in 4``, ``draw``,
    ``+0.35``: what a position or move is worth to the player to move) in the
    language spoken now.

    >>> value_text("win in 9"), value_text("draw"), value_text("+0.35")
    ('win in 9', 'draw', '+0.35')
    >>> with use_language("es"):
    ...     value_text("loss in 4"), value_text("-1.25")
    ('derrota en 4', '-1,25')
    """
    proven = _PROVEN.fullmatch(value)
    if proven is not None:
        moves = int(proven.group(2))
        if proven.group(1) == "win":
            return _("win in {moves}", moves=moves)
        return _("loss in {moves}", moves=moves)
    if value == "draw":
        return _("draw")
    try:
        points = float(value)
    except ValueError:
        return value  # a value this client does not know: as the server wrote it
    _whole, _point, decimals = value.partition(".")
    return current().decimal(points, len(decimals), signed=value.startswith("+"))


def _verdict(nodes: int, depth: int, value: str) -> str:
    proven = _PROVEN.fullmatch(value)
    if nodes == 0 and depth == 0:
        return _("no search: a move at random")
    if proven is not None and proven.group(1) == "win":
        moves = int(proven.group(2))
        if moves == 1:
            return _("wins with this move")
        return _("sees a win in {moves}", moves=moves)
    if proven is not None:
        return _("sees a loss in {moves}", moves=int(proven.group(2)))
    if value == "draw":
        return _("proven draw")
    return _("best guess after depth {depth}: {value}", depth=depth, value=value_text(value))


def _said(nodes: int, depth: int, seconds: float, value: str, *, book: bool) -> str:
    said = _verdict(nodes, depth, value)
    if nodes == 0 and depth == 0:
        return said
    if book:
        return _("from the opening book, solved in advance: {verdict}", verdict=said)
    count, time = count_text(nodes), seconds_text(seconds)
    if value != "draw" and _PROVEN.fullmatch(value) is None:
        return ngettext(
            "searched {count} position in {time}: {verdict}",
            "searched {count} positions in {time}: {verdict}",
            nodes,
            count=count,
            time=time,
            verdict=said,
        )
    return ngettext(
        "searched {count} position in {time}, depth {depth}: {verdict}",
        "searched {count} positions in {time}, depth {depth}: {verdict}",
        nodes,
        count=count,
        time=time,
        depth=depth,
        verdict=said,
    )


def verdict(result: SearchResult) -> str:
    """What the search concluded, from the searching side's point of view, in English.

    ``sees a win in 9`` (the moves it still has to play), ``sees a loss in 4``,
    ``proven draw``, or, when the value is not proven, ``best guess after depth
    8: +0.35`` (the evaluation at the horizon, in points; positive is good for
    the side that searched).
    """
    with use_language(SOURCE_LANGUAGE):
        return _verdict(result.nodes, result.depth, str(result.value))


def summary(result: SearchResult) -> str:
    """One line for people, in English (the wire's): positions searched, time,
    depth, and the :func:`verdict`.

    ``searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9``;
    ``searched 3.1 M positions in 2.92 s: best guess after depth 8: +0.35``;
    ``no search: a move at random`` (the ``random`` level looks at nothing);
    ``from the opening book, solved in advance: sees a win in 18``.
    """
    with use_language(SOURCE_LANGUAGE):
        return _said(
            result.nodes, result.depth, result.elapsed, str(result.value), book=result.book
        )


def local_summary(result: SearchResult) -> str:
    """:func:`summary` in the language spoken now (``boardroom solve``)."""
    return _said(result.nodes, result.depth, result.elapsed, str(result.value), book=result.book)


def search_summary(search: SearchFigures) -> str:
    """:func:`summary` said from the wire's figures (``moved.search``,
    ``hint.search``) in the language spoken now.

    >>> from boardroom.shared.protocol.messages import SearchInfo
    >>> info = SearchInfo(summary="", nodes=1_234_567, depth=14, elapsed_ms=840,
    ...     nodes_per_second=1_469_722, exact=True, value="win in 9", pv=["4"])
    >>> search_summary(info)
    'searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9'
    >>> with use_language("es"):
    ...     search_summary(info).replace("\xa0", " ")
    'búsqueda de 1,2 M posiciones en 0,84 s, profundidad 14: gana en 9'
    """
    return _said(
        search.nodes, search.depth, search.elapsed_ms / 1000, search.value, book=search.book
    )


def speed_text(result: SearchResult) -> str:
    """The search's speed for people, e.g. ``1.4 M positions a second``."""
    return _("{count} positions a second", count=count_text(result.nodes_per_second))


def principal_line(game: Game, result: SearchResult) -> list[str]:
    """The expected line of play in ``game``'s notation, the move played first."""
    return [game.format_move(move) for move in result.pv]
