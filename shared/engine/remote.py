"""Engine requests that cross a process boundary.

A worker process gets a :class:`SearchRequest` (game name, move string and limits:
a few dozen bytes to pickle, never a live object) and sends back a
:class:`~boardroom.shared.engine.search.SearchResult`. The server's process pool submits
:func:`run_search_request`, and, for a game's analysis, one
:class:`PositionRequest` per position (:func:`run_position_request`).

>>> run_search_request(SearchRequest("tictactoe", "b2 a1 c3", level="perfect")).move_text
'a3'
"""

from __future__ import annotations

from dataclasses import dataclass

from boardroom.shared.engine.analysis import PositionValue, analyse_position
from boardroom.shared.engine.search import EXACT_VALUE_CAP, SearchResult, search
from boardroom.shared.games import get_game


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """What to search: a position by game name and moves, and the limits."""

    game: str
    moves: str
    level: str | None = None
    depth: int | None = None
    time_limit: float | None = None
    seed: int | None = None


def run_search_request(request: SearchRequest) -> SearchResult:
    """Rebuild the position and search it; runs in a worker process."""
    game = get_game(request.game)
    position = game.from_moves(request.moves)
    return search(
        game,
        position,
        level=request.level,
        depth=request.depth,
        time_limit=request.time_limit,
        seed=request.seed,
    )


@dataclass(frozen=True, slots=True)
class PositionRequest:
    """A position of a game under analysis: by game name and moves, and the time
    its search may take (:func:`boardroom.shared.engine.analysis.analyse_position`)."""

    game: str
    moves: str
    seconds: float

    @property
    def longest(self) -> float:
        """The most seconds valuing the position may take: ``seconds``, or, on
        Connect Four, where values are proven whatever the budget
        (:func:`~boardroom.shared.engine.search.value_search`), :data:`EXACT_VALUE_CAP` if
        more (a worker without the opening database stays within ``seconds``)."""
        if self.game == CONNECT_FOUR:
            return max(self.seconds, EXACT_VALUE_CAP)
        return self.seconds


CONNECT_FOUR = "connect4"
"""The game whose values the opening database lets every worker prove."""


def run_position_request(request: PositionRequest) -> PositionValue:
    """Rebuild the position and value it for the analysis; runs in a worker process."""
    game = get_game(request.game)
    return analyse_position(game, game.from_moves(request.moves), seconds=request.seconds)
