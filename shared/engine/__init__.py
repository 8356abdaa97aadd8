"""The minimax engine: search, analysis and exact solving for every Boardroom game.

>>> from shared.games import get_game
>>> game = get_game("tictactoe")
>>> solve(game, game.new())
0
>>> result = search(game, game.from_moves("b2 a1 c3"), level="perfect")
>>> result.exact, game.format_move(result.move)
(True, 'a3')

Modules: :mod:`~shared.engine.search` (entry points), :mod:`~shared.engine.negamax`
(the alpha-beta search of the k-in-a-row games), :mod:`~shared.engine.generic`
(alpha-beta over any game, Othello's), :mod:`~shared.engine.kernel` (bitboard primitives),
:mod:`~shared.engine.evaluation` (heuristics), :mod:`~shared.engine.levels`,
:mod:`~shared.engine.scores`, :mod:`~shared.engine.minimax` (plain reference),
:mod:`~shared.engine.remote` (compact requests for process pools),
:mod:`~shared.engine.explain` (a search said in one line for people),
:mod:`~shared.engine.analysis` (a finished game reviewed move by move).
"""

from shared.engine.levels import Level, SearchPlan, parse_level, plan_search
from shared.engine.minimax import MinimaxResult, minimax
from shared.engine.remote import SearchRequest, run_search_request
from shared.engine.scores import SCORE_UNIT, Result, Value
from shared.engine.search import SearchResult, analyze, search, solve, solve_move

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
]
