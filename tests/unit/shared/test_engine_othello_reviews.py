"""Reviews, hints and the bot SDK's helpers on a game that is not a grid: Othello.

The review goes through what the server runs in its engine workers
(:func:`~boardroom.shared.engine.remote.run_position_request` for each position, then
:func:`~boardroom.shared.engine.analysis.review_move`, as ``server/analysis/service.py``
does), and through :func:`~boardroom.shared.engine.analysis.analyse_game`, which the
terminal and the bots use. The bot helpers are called as ``examples/random_bot.py``
calls them.
"""

from __future__ import annotations

import runpy
from pathlib import Path

from boardroom.client.bots.report import describe_result
from boardroom.client.bots.state import game_result, game_state
from boardroom.shared.engine.analysis import (
    Judgement,
    accuracy,
    analyse_game,
    estimated,
    review_move,
    turning_points,
)
from boardroom.shared.engine.remote import (
    PositionRequest,
    SearchRequest,
    run_position_request,
    run_search_request,
)
from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol.messages import Clock, ResultInfo, RoomState, SeatInfo

OTHELLO = get_game("othello")
WIPEOUT = "d3 c3 f5 f4 f3 d2 d1 e3 b3"
"""Black wipes White out in nine moves: the game ends by count, 13 to 0."""
PASS_LINE = "d3 c3 e6 d2 d1 e1 b2 c1"
"""Black to move has no move and must pass."""
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def server_review(moves: str, seconds: float = 0.05) -> list:
    """The reviews of ``moves`` as the server's analysis makes them."""
    texts = moves.split()
    position = OTHELLO.new()
    before = run_position_request(PositionRequest("othello", "", seconds))
    reviews = []
    for ply, text in enumerate(texts):
        after = run_position_request(
            PositionRequest("othello", " ".join(texts[: ply + 1]), seconds)
        )
        reviews.append(review_move(OTHELLO, position, text, before, after))
        position = OTHELLO.play(position, OTHELLO.parse_move(position, text))
        before = after
    return reviews


def test_a_short_othello_game_is_reviewed_as_the_server_does_it_with_estimates_said() -> None:
    reviews = server_review(WIPEOUT)
    assert [r.move for r in reviews] == WIPEOUT.split()
    assert [r.side for r in reviews] == list("XOXOXOXOX")
    assert estimated(reviews)  # the opening is beyond proof: "Some values are estimates"
    last = reviews[-1]
    # The last move ended the game: its value after is the result itself, proven.
    assert last.exact_after and last.value_after == "win in 1"
    assert last.judgement in (Judgement.BEST, Judgement.GOOD)
    assert all(0 <= accuracy(reviews, side) <= 100 for side in "XO")
    for point in turning_points(reviews):
        assert point.move in WIPEOUT.split()


def test_a_forced_pass_is_reviewed_as_forced() -> None:
    reviews = list(analyse_game(OTHELLO, PASS_LINE + " pass", seconds_per_position=0.05))
    assert reviews[-1].move == "pass"
    assert reviews[-1].judgement is Judgement.FORCED


def test_an_othello_hint_comes_from_the_workers_search() -> None:
    found = run_search_request(SearchRequest("othello", PASS_LINE, level="easy", seed=1))
    assert found.move_text == "pass"
    found = run_search_request(SearchRequest("othello", "f5", level="hard"))
    assert found.move_text in {"d6", "f4", "f6"}


def othello_room(moves: str, you: Player = Player.FIRST, **extra: object) -> RoomState:
    position = OTHELLO.from_moves(moves)
    return RoomState(
        code="ABCDEF",
        game="othello",
        title="Othello",
        status="playing",
        public=True,
        clock=Clock(),
        moves=moves,
        ply=position.ply,
        to_move=Player.to_move_at(position.ply),
        seats=[SeatInfo(side=Player.FIRST, name="ann"), SeatInfo(side=Player.SECOND, name="bob")],
        you=you,
        **extra,  # type: ignore[arg-type]
    )


def test_the_bot_helpers_work_on_othello() -> None:
    state = game_state(othello_room(WIPEOUT.rsplit(" ", 1)[0]))
    assert state.my_turn and "b3" in state.legal_moves
    assert state.winning_moves() == ("b3",)
    assert state.winning_moves(opponent=True) == ()
    assert state.board[5] == "..OOOX.."  # row 3, a3 to h3
    assert state.render().splitlines()[-1] == "  a b c d e f g h"
    # White, waiting: Black's winning move is the threat White sees.
    white = game_state(othello_room(WIPEOUT.rsplit(" ", 1)[0], you=Player.SECOND))
    assert not white.my_turn and white.winning_moves(opponent=True) == ("b3",)


def test_examples_random_bot_plays_othello_and_takes_the_win() -> None:
    bot = runpy.run_path(str(EXAMPLES / "random_bot.py"))
    state = game_state(othello_room(WIPEOUT.rsplit(" ", 1)[0]))
    assert bot["choose_move"](state) == "b3"
    for moves in ("", PASS_LINE, "f5 d6 c3"):
        state = game_state(othello_room(moves))
        assert bot["choose_move"](state) in state.legal_moves


def test_an_othello_result_is_worded_for_the_bot() -> None:
    won = game_result(
        ResultInfo(winner=Player.FIRST, reason="count"), tuple(WIPEOUT.split()), Player.FIRST
    )
    assert (won.outcome, won.reason) == ("win", "count")
    assert describe_result(won) == "win on count after 9 moves"
    drawn = game_result(ResultInfo(winner=None, reason="count"), ("d3",) * 60, Player.SECOND)
    assert drawn.outcome == "draw"
