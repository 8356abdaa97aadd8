"""The minimax engine: search, analysis and exact solving for every Boardroom game.

>>> from boardroom.shared.games import get_game
>>> game = get_game("tictactoe")
>>> solve(game, game.new())
0
>>> result = search(game, game.from_moves("b2 a1 c3"), level="perfect")
>>> result.exact, game.format_move(result.move)
(True, 'a3')

Modules: :mod:`~boardroom.shared.engine.search` (entry points),
:mod:`~boardroom.shared.engine.negamax` (the alpha-beta search of the k-in-a-row games),
:mod:`~boardroom.shared.engine.generic` (alpha-beta over any game, Othello's),
:mod:`~boardroom.shared.engine.kernel` (bitboard primitives),
:mod:`~boardroom.shared.engine.evaluation` (heuristics), :mod:`~boardroom.shared.engine.levels`,
:mod:`~boardroom.shared.engine.scores`, :mod:`~boardroom.shared.engine.minimax` (plain reference),
:mod:`~boardroom.shared.engine.remote` (compact requests for process pools),
:mod:`~boardroom.shared.engine.explain` (a search said in one line for people),
:mod:`~boardroom.shared.engine.analysis` (a finished game reviewed move by move).
"""

from boardroom.shared.engine.levels import Level, SearchPlan, parse_level, plan_search
from boardroom.shared.engine.minimax import MinimaxResult, minimax
from boardroom.shared.engine.remote import SearchRequest, run_search_request
from boardroom.shared.engine.scores import SCORE_UNIT, Result, Value
from boardroom.shared.engine.search import (
    SearchResult,
    analyze,
    search,
    solve,
    solve_move,
    solves_in_time,
)

__all__ = [
    "SCORE_UNIT",
    "Level",
    "MinimaxResult",
    "Result",
    "SearchPlan",
    "SearchRequest",
    "SearchResult",
    "Value",
    "analyze",
    "minimax",
    "parse_level",
    "plan_search",
    "run_search_request",
    "search",
    "solve",
    "solve_move",
    "solves_in_time",
]
