"""The fair-play list's rule (boardroom.server.tournaments.fair_play), on made-up games."""

from __future__ import annotations

from boardroom.server.tournaments.fair_play import (
    GameAccuracy,
    game_accuracy,
    worth_a_look,
)
from boardroom.shared.engine.analysis import Judgement, MoveReview


def games(
    player: str, usual: list[float], tournament: list[float], perfect: int = 10
) -> list[GameAccuracy]:
    made = [GameAccuracy(player, n, False, a, 5, 10) for n, a in enumerate(usual)]
    start = len(usual)
    return made + [
        GameAccuracy(player, start + n, True, a, perfect, 10) for n, a in enumerate(tournament)
    ]


def test_a_player_far_above_their_usual_with_near_perfect_moves_is_listed() -> None:
    (found,) = worth_a_look(games("ann", [50, 60], [98, 100, 99]))
    assert (found.player, found.accuracy, found.usual_accuracy) == ("ann", 99.0, 55.0)
    assert (found.perfect, found.judged, found.perfect_share) == (30, 30, 1.0)
    assert (found.games, found.usual_games) == ((2, 3, 4), (0, 1))


def test_each_condition_alone_keeps_a_player_off_the_list() -> None:
    assert worth_a_look(games("ann", [50, 60], [98, 100])) == []  # two tournament games
    assert worth_a_look(games("ann", [50], [98, 100, 99])) == []  # one usual game
    assert worth_a_look(games("ann", [75, 75], [99, 99, 99])) == []  # 24 points above
    assert worth_a_look(games("ann", [50, 60], [98, 100, 99], perfect=8)) == []  # 80% perfect


def test_players_are_judged_apart_the_furthest_above_first() -> None:
    listed = worth_a_look(
        games("ann", [70, 70], [100, 100, 100])
        + games("bob", [40, 40], [100, 100, 100])
        + games("cy", [100, 100], [100, 100, 100])
    )
    assert [w.player for w in listed] == ["bob", "ann"]


def review(ply: int, judgement: Judgement) -> MoveReview:
    side = "XO"[ply % 2]
    return MoveReview(ply, side, "a1", "a1", (), 0, 0, "draw", "draw", True, True, judgement)


def test_a_games_summary_counts_the_sides_moves_that_were_not_forced() -> None:
    reviews = [
        review(0, Judgement.BEST),
        review(1, Judgement.BEST),
        review(2, Judgement.INACCURACY),
        review(4, Judgement.FORCED),
    ]
    summary = game_accuracy("ann", 7, reviews, "X", in_tournament=True)
    assert summary is not None
    assert (summary.perfect, summary.judged, summary.in_tournament) == (1, 2, True)
    assert game_accuracy("ann", 7, [review(0, Judgement.FORCED)], "X", in_tournament=False) is None


def test_the_moves_the_autopilot_made_for_a_player_are_not_theirs() -> None:
    # Ann's X moves at plies 0, 2 and 4: she blundered at 2 and 4 while away, where
    # the autopilot (the engine) played the best moves for her: only ply 0 is hers.
    reviews = [
        review(0, Judgement.INACCURACY),
        review(2, Judgement.BEST),
        review(4, Judgement.BEST),
    ]
    with_engine = game_accuracy("ann", 7, reviews, "X", in_tournament=False)
    hers = game_accuracy(
        "ann", 7, reviews, "X", in_tournament=False, engine_plies=frozenset({2, 4})
    )
    assert with_engine is not None and hers is not None
    assert (with_engine.perfect, with_engine.judged) == (2, 3)
    assert (hers.perfect, hers.judged) == (0, 1)
    assert (
        game_accuracy(
            "ann", 7, reviews[1:], "X", in_tournament=False, engine_plies=frozenset({2, 4})
        )
        is None
    )
