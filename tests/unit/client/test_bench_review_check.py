"""``boardroom bench analysis --check``: reviews against bitbully, value by value."""

from __future__ import annotations

import pytest

from boardroom.client.bench.review_check import (
    Tally,
    check_game,
    judge_game,
    main,
    result_value,
)
from boardroom.shared.engine.analysis import Judgement, MoveReview, analyse_game
from boardroom.shared.engine.scores import SCORE_UNIT

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

peer_bitbully = pytest.importorskip("boardroom.client.bench.peer_bitbully")

SHORT_GAMES = ("1212121", "51455737354353126")
"""X wins in a column with its 4th stone; a random game (seed 1 of the check)."""


def review(ply: int, judgement: Judgement, before: int, after: int, *, exact: bool) -> MoveReview:
    """A review with stone scores ``before``/``after`` for the mover."""
    return MoveReview(
        ply=ply,
        side="XO"[ply & 1],
        move="4",
        best="4",
        line=(),
        score_before=before * SCORE_UNIT,
        score_after=after * SCORE_UNIT,
        value_before=str(before),
        value_after=str(after),
        exact_before=exact,
        exact_after=exact,
        judgement=judgement,
    )


def test_check_game_counts_and_lists_each_disagreement() -> None:
    """Judged by bitbully's values, not ours: a move keeping a win called a mistake,
    an exact value that is not bitbully's, and a win thrown away called good."""
    reviews = [
        review(0, Judgement.MISTAKE, 1, 1, exact=True),  # keeps a win: not a mistake
        review(1, Judgement.GOOD, 0, 0, exact=True),  # ours a draw, bitbully's a loss
        review(2, Judgement.GOOD, 1, 0, exact=False),  # bitbully: win to draw, not good
    ]
    judge = [1, -1, 1, 0]  # before each move, and after the last, for the player to move
    tally = Tally()
    check_game(3, "444", reviews, judge, final_value=None, tally=tally)
    assert (tally.positions, tally.exact, tally.agree) == (3, 2, 1)
    assert (tally.moves, tally.lowering, tally.lowering_blunders) == (3, 1, 0)
    assert (tally.keeping, tally.keeping_bad) == (2, 1)
    assert [(d.game, d.ply) for d in tally.value_errors] == [(3, 1)]
    assert [(d.game, d.ply) for d in tally.judgement_errors] == [(3, 0), (3, 2)]
    assert "kept the value, called a mistake" in tally.judgement_errors[0].line()
    assert "bitbully win (+1) -> draw" in tally.judgement_errors[1].line()
    assert not tally.consistent


def test_a_win_is_worth_22_minus_the_winners_stones() -> None:
    assert result_value(6, winner_moved=True) == 18  # X's 4th stone
    assert result_value(41, winner_moved=False) == 0  # the last cell, a draw


@pytest.mark.parametrize("moves", SHORT_GAMES)
def test_two_short_games_every_exact_value_is_bitbullys(moves: str) -> None:
    """Whatever the judgement rules, a value our review calls exact must be
    bitbully's, and no move can raise the game's value (so every move either keeps
    or lowers it: the judge's values are consistent)."""
    solver = peer_bitbully.BitbullySolver(peer_bitbully.book_path())
    values, final_value = judge_game(solver, moves)
    assert final_value == result_value(len(moves) - 1, winner_moved=True)
    assert len(values) == len(moves)
    reviews = list(analyse_game("connect4", moves, seconds_per_position=0.05))
    tally = Tally()
    check_game(1, moves, reviews, values, final_value, tally)
    assert tally.positions == tally.moves == len(moves)
    assert tally.value_errors == [], [d.line() for d in tally.value_errors]
    assert tally.agree == tally.exact
    assert tally.lowering + tally.keeping == tally.moves
    if moves == "1212121":  # X's last move wins: it keeps X's win, a best move
        assert reviews[-1].judgement is not Judgement.BLUNDER


@pytest.mark.e2e  # plays and reviews a whole random game: a few seconds
def test_the_check_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(1, seed=1, budget=0.05)
    out = capsys.readouterr().out
    assert status in (0, 1), out
    for text in ("game 1 (random vs random", "marked exact:", "value agrees with bitbully:"):
        assert text in out, out
