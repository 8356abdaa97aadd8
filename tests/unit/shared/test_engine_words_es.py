"""The engine's words in two languages at once: what the server sends stays
English whatever language the process speaks (``serve --lang es`` sets it), and
the same figures are said in Spanish for a Spanish reader."""

from __future__ import annotations

from boardroom.shared.engine import SCORE_UNIT, Result, SearchResult, Value
from boardroom.shared.engine.analysis import analyse_game, turning_points
from boardroom.shared.engine.explain import local_summary, summary, value_text
from boardroom.shared.games import get_game
from boardroom.shared.i18n import use_language

GAME = get_game("connect4")
MOVE = GAME.parse_move(GAME.new(), "4")


def result(value: Value, *, nodes: int = 1_234_567, depth: int = 14) -> SearchResult:
    return SearchResult(
        move=MOVE,
        move_text="4",
        score=value.score,
        value=value,
        exact=value.exact,
        pv=(MOVE,),
        nodes=nodes,
        depth=depth,
        elapsed=0.84,
    )


def test_the_wire_summary_stays_english_while_the_process_speaks_spanish() -> None:
    win = result(Value(9 * SCORE_UNIT, Result.WIN, 9))
    with use_language("es"):
        assert summary(win) == "searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9"
        said = local_summary(win).replace("\xa0", " ")
    assert said == "búsqueda de 1,2 M posiciones en 0,84 s, profundidad 14: gana en 9"


def test_an_estimate_and_a_single_position_are_said_in_spanish() -> None:
    with use_language("es"):
        guess = local_summary(result(Value(35, None), nodes=3_100_000, depth=8))
        one = local_summary(result(Value(21 * SCORE_UNIT, Result.WIN, 1), nodes=1, depth=1))
        assert value_text("+0.35") == "+0,35" and value_text("draw") == "empate"
    assert guess.replace("\xa0", " ") == (
        "búsqueda de 3,1 M posiciones en 0,84 s: mejor estimación a profundidad 8: +0,35"
    )
    assert one == "búsqueda de 1 posición en 0,84 s, profundidad 1: gana con esta jugada"


def test_turning_points_stay_english_on_the_wire_in_a_spanish_process() -> None:
    reviews = list(analyse_game(get_game("tictactoe"), "b2 a2 a1 c3 c1 b1 a3"))
    with use_language("es"):
        texts = [point.text for point in turning_points(reviews)]
    assert texts == ["move 2 (O): a2 threw away the draw and lost in 3; a1 held the draw"]
