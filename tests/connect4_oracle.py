"""The independent judge of Connect Four values in the tests: bitbully's C++ solver.

The engine's reviews, hints and AI explanations are checked against this, never
against the engine itself. bitbully (PyPI, MIT) is a separate program: its own
bitboards, search and opening database reader; only the *scale* of its scores is
shared with ours (the standard one of the Connect Four test sets: 0 a draw, a win
scores 22 minus the winner's stones when the line is made, a loss the negative).

:func:`stone_score` answers for any position, finished or not, from the side to
move's point of view; :func:`value_text` says the same as the engine's ``Value``
does for people (``win in 3``, ``loss in 2``, ``draw``), so the tests can compare
the strings the server sends.
"""

from __future__ import annotations

import functools
from pathlib import Path

import bitbully.bitbully_core as bbc
import bitbully_databases

from boardroom.shared.engine.scores import SCORE_UNIT, make_value
from boardroom.shared.games import get_game

CONNECT4 = get_game("connect4")
HALF = 21
"""The most stones one Connect Four player places."""


@functools.cache
def _solver() -> bbc.BitBullyCore:
    """One solver per process, with bitbully's 12-ply database (its own reader):
    every position answers in milliseconds to a second."""
    path = bitbully_databases.BitBullyDatabases.get_database_path("default")
    return bbc.BitBullyCore(Path(path))


def columns(moves: str) -> str:
    """The move string as the engine writes it: 1-based columns run together."""
    return "".join(ch for ch in moves if ch.isdigit())


@functools.cache
def stone_score(moves: str) -> int:
    """The exact stone score of the position after ``moves`` for the player to move.

    A position whose last move made four in a row is a loss for the player to
    move, by the stones the winner had played; a full board is a draw.
    """
    played = columns(moves)
    position = CONNECT4.from_moves(played)
    outcome = CONNECT4.outcome(position)
    if outcome.is_over:
        if outcome.winner is None:
            return 0
        winner_stones = (len(played) + 1) // 2
        return -(HALF + 1 - winner_stones)
    board = bbc.BoardCore()
    # bitbully numbers columns from 0, the engine (and people) from 1.
    assert board.play([int(column) - 1 for column in played]), played
    if board.canWin():
        return HALF + 1 - (len(played) // 2 + 1)
    return int(_solver().mtdf(board, 0))


def move_scores(moves: str) -> dict[str, int]:
    """Every legal move's exact stone score for the player to move (the column
    as the engine writes it, ``"1"`` to ``"7"``)."""
    position = CONNECT4.from_moves(columns(moves))
    scores = {}
    for move in CONNECT4.legal_moves(position):
        text = CONNECT4.format_move(move)
        scores[text] = -stone_score(columns(moves) + text)
    return scores


def value_text(moves: str) -> str:
    """The position's value as the engine says it to people: ``win in 3``..."""
    ply = len(columns(moves))
    score = stone_score(moves) * SCORE_UNIT
    return str(make_value(score, exact=True, cells=42, ply=ply))


def result(score: int) -> int:
    """-1, 0 or 1: loss, draw or win."""
    return (score > 0) - (score < 0)
