"""The search said in words (:mod:`boardroom.shared.engine.explain`): pure, over hand-made
results."""

from __future__ import annotations

from dataclasses import replace

import pytest

from boardroom.shared.engine import SCORE_UNIT, Result, SearchResult, Value, search
from boardroom.shared.engine.book import BookEntry, OpeningBook
from boardroom.shared.engine.explain import principal_line, speed_text, summary, verdict
from boardroom.shared.games import GridGame, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

GAME = get_game("connect4")
MOVE = GAME.parse_move(GAME.new(), "4")


def result(value: Value, *, nodes: int = 1_234_567, depth: int = 14, elapsed: float = 0.84):
    return SearchResult(
        move=MOVE,
        move_text="4",
        score=value.score,
        value=value,
        exact=value.exact,
        pv=(MOVE,),
        nodes=nodes,
        depth=depth,
        elapsed=elapsed,
    )


def test_a_proven_win_says_how_many_moves_it_takes():
    """The brief's own line: positions, time, depth, and the win it sees."""
    line = summary(result(Value(9 * SCORE_UNIT, Result.WIN, 9)))
    assert line == "searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9"


def test_a_proven_loss_and_a_proven_draw_are_said_as_proven():
    """A loss counts the winner's moves; a draw is 'proven draw'."""
    assert verdict(result(Value(-3 * SCORE_UNIT, Result.LOSS, 4))) == "sees a loss in 4"
    draw = summary(result(Value(0, Result.DRAW), nodes=52_000, depth=9, elapsed=0.31))
    assert draw == "searched 52 k positions in 0.31 s, depth 9: proven draw"


def test_a_heuristic_value_is_a_best_guess_after_the_depth_reached():
    """Not proven: the line says it is a guess, at which depth, and its value in points."""
    line = summary(result(Value(35, None), nodes=3_100_000, depth=8, elapsed=2.917))
    assert line == "searched 3.1 M positions in 2.92 s: best guess after depth 8: +0.35"


def test_a_win_on_the_spot_and_a_random_move_say_so():
    """An immediate win needs no counting; the random level searches nothing."""
    now = result(Value(21 * SCORE_UNIT, Result.WIN, 1), nodes=1, depth=1, elapsed=0.0002)
    assert summary(now) == "searched 1 position in 0 ms, depth 1: wins with this move"
    random_move = result(Value(0, None), nodes=0, depth=0, elapsed=0.0)
    assert summary(random_move) == "no search: a move at random"


def test_speed_is_nodes_per_second_and_zero_without_time():
    """``nodes_per_second`` is nodes over elapsed; no time measured is no speed."""
    fast = result(Value(0, Result.DRAW), nodes=1_500_000, elapsed=1.0)
    assert fast.nodes_per_second == pytest.approx(1_500_000)
    assert speed_text(fast) == "1.5 M positions a second"
    assert replace(fast, elapsed=0.0).nodes_per_second == 0.0


def test_a_real_search_is_summarised_with_its_own_figures():
    """On a real search the line carries its node count and the line starts with its move."""
    game = get_game("tictactoe")
    found = search(game, game.from_moves("b2 a1"), level="perfect")
    assert found.nodes > 0 and found.exact
    line = summary(found)
    assert line.startswith("searched ") and f"depth {found.depth}" in line
    assert line.endswith(verdict(found))
    assert principal_line(game, found)[0] == found.move_text


def test_a_move_from_the_opening_book_says_it_was_solved_in_advance():
    """A book move searched nothing now: the line says where its proven value comes
    from instead of counting no positions."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.from_moves("2252576253462244111563365343671351441")
    searched = search(game, position, level="perfect", book=OpeningBook(game, 0, {}))
    book = OpeningBook.of(game, 40, [(position, BookEntry(searched.move, -1))])
    played = search(game, position, level="perfect", book=book)
    assert played.book and not searched.book and played.nodes == 0
    assert summary(played) == f"from the opening book, solved in advance: {verdict(played)}"
    assert summary(played).endswith(f"sees a loss in {played.value.moves}")
