"""``boardroom bench analysis`` runs whole: one 42-move game, both solvers."""

from __future__ import annotations

import os

import pytest

from boardroom.client.bench.analysis import GAMES, main, time_analysis
from boardroom.shared.engine.solvers import ENGINE_ENV

pytestmark = [
    pytest.mark.e2e,  # whole-game analyses: seconds
    pytest.mark.usefixtures("compiled_solver_ready"),
]


def test_one_game_is_analysed_with_both_solvers_and_the_figures_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = os.environ.get(ENGINE_ENV)
    assert main(games=GAMES[:1], budget=0.05) == 0
    printed = capsys.readouterr().out
    assert "compiled game 1: 42 moves in" in printed
    assert "python   game 1: 42 moves in" in printed
    assert "compiled against pure:" in printed
    assert os.environ.get(ENGINE_ENV) == before  # the solver switch is put back


def test_a_timed_analysis_reviews_every_move() -> None:
    timed = time_analysis(GAMES[0], 0.05)
    assert timed.moves == 42 and 0 <= timed.exact <= 42
    assert 0 < timed.longest_wait <= timed.seconds
