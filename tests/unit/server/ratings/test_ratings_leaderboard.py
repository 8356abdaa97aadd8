"""Replaying rated games into standings per game type, and the leaderboard rows.

Games are values and times are plain numbers, so every test is exact and instantaneous.
"""

from __future__ import annotations

import itertools
import random

import pytest

from boardroom.server.ratings.glicko2 import Rating, RatingError, rate_game
from boardroom.server.ratings.leaderboard import (
    LeaderboardRow,
    PlayerRating,
    RatedGame,
    leaderboard,
    replay,
)


def connect4(first: str, second: str, score_first: float, at: float) -> RatedGame:
    return RatedGame("connect4", first, second, score_first, finished_at=at)


def standing(rating: float, deviation: float = 80.0, wins: int = 1, draws: int = 0) -> PlayerRating:
    """A standing with ``wins + draws`` games and the rating given."""
    return PlayerRating(Rating(rating, deviation), wins=wins, draws=draws)


# -- replay --------------------------------------------------------------------------------


def test_replay_rates_games_in_the_order_they_finished_not_the_order_given() -> None:
    """Every order of the same games, ties in time included, gives the same standings."""
    games = [
        connect4("ada", "bob", 1.0, at=10.0),
        connect4("bob", "cy", 0.5, at=20.0),
        connect4("cy", "ada", 1.0, at=20.0),  # finished at the same instant as the one above
        connect4("ada", "bob", 0.0, at=30.0),
        connect4("dee", "ada", 1.0, at=40.0),
    ]
    expected = replay(games)

    for order in itertools.permutations(games):
        assert replay(order) == expected


def test_each_game_is_rated_from_the_ratings_the_earlier_games_left() -> None:
    """Replay is rate_game applied game after game, in time order."""
    games = [connect4("ada", "bob", 0.0, at=2.0), connect4("ada", "bob", 1.0, at=1.0)]

    ada, bob = rate_game(Rating(), Rating(), 1.0)  # the game at t=1 comes first
    ada, bob = rate_game(ada, bob, 0.0)

    players = replay(games)["connect4"]
    assert players["ada"].rating == ada
    assert players["bob"].rating == bob


def test_replay_accepts_any_iterable_of_games_once() -> None:
    """A generator (games streamed from the store) works like a list."""
    games = [connect4("ada", "bob", 1.0, at=1.0), connect4("bob", "ada", 1.0, at=2.0)]

    assert replay(game for game in games) == replay(games)


def test_game_types_are_rated_separately() -> None:
    """A Connect Four win does not move the same player's gomoku rating."""
    games = [
        connect4("ada", "bob", 1.0, at=1.0),
        RatedGame("gomoku", "bob", "ada", 1.0, finished_at=2.0),
    ]

    standings = replay(games)

    assert set(standings) == {"connect4", "gomoku"}
    assert standings["connect4"]["ada"].rating == standings["gomoku"]["bob"].rating
    assert standings["connect4"]["ada"].rating.rating > 1500.0
    assert standings["gomoku"]["ada"].rating.rating < 1500.0
    assert standings["connect4"]["ada"].games == standings["gomoku"]["ada"].games == 1


def test_replay_counts_each_players_wins_draws_and_losses() -> None:
    """Scores count for the first player as given and for the second as 1 - score."""
    games = [
        connect4("ada", "bob", 1.0, at=1.0),
        connect4("bob", "ada", 1.0, at=2.0),
        connect4("ada", "bob", 0.5, at=3.0),
        connect4("ada", "cy", 1.0, at=4.0),
    ]

    players = replay(games)["connect4"]

    ada, bob, cy = players["ada"], players["bob"], players["cy"]
    assert (ada.games, ada.wins, ada.draws, ada.losses) == (4, 2, 1, 1)
    assert (bob.games, bob.wins, bob.draws, bob.losses) == (3, 1, 1, 1)
    assert (cy.games, cy.wins, cy.draws, cy.losses) == (1, 0, 0, 1)


def test_replay_of_no_games_has_no_game_types_and_no_players() -> None:
    """Nothing played, nothing rated: not even newcomers at 1500."""
    assert replay([]) == {}


@pytest.mark.parametrize("score", [2.0, 0.3, -1.0])
def test_a_rated_game_with_a_score_other_than_win_draw_or_loss_is_refused(score: float) -> None:
    """A RatedGame checks its score as it is made, naming it."""
    with pytest.raises(RatingError, match="a score is"):
        connect4("ada", "bob", score, at=1.0)


def test_a_rated_game_against_oneself_is_refused() -> None:
    """Both seats held by one player cannot be rated: the error names the player."""
    with pytest.raises(RatingError, match="'ada'"):
        connect4("ada", "ada", 1.0, at=1.0)


# -- leaderboard ---------------------------------------------------------------------------


def test_the_leaderboard_lists_players_by_rating_highest_first() -> None:
    """Ratings 1400, 1700, 1550 are listed 1700, 1550, 1400, ranked 1, 2, 3."""
    ratings = {"ada": standing(1400.0), "bob": standing(1700.0), "cy": standing(1550.0)}

    rows = leaderboard(ratings)

    assert [(row.rank, row.player, row.rating) for row in rows] == [
        (1, "bob", 1700),
        (2, "cy", 1550),
        (3, "ada", 1400),
    ]


def test_players_level_on_rating_are_listed_busiest_first_then_by_id() -> None:
    """Same rating: more games first; same games too: by id, sharing the rank."""
    ratings = {
        "cy": standing(1600.0, wins=3),
        "bob": standing(1600.0, wins=5),
        "ada": standing(1600.0, wins=3),
        "dee": standing(1500.0, wins=9),
    }

    rows = leaderboard(ratings)

    assert [(row.rank, row.player, row.games) for row in rows] == [
        (1, "bob", 5),
        (2, "ada", 3),
        (2, "cy", 3),
        (4, "dee", 9),
    ]


def test_players_are_level_when_their_shown_ratings_are_equal() -> None:
    """1600.4 and 1599.6 both show as 1600: the busier player first, as the page reads."""
    ratings = {"ada": standing(1600.4, wins=2), "bob": standing(1599.6, wins=4)}

    rows = leaderboard(ratings)

    assert [(row.player, row.rating) for row in rows] == [("bob", 1600), ("ada", 1600)]
    assert [row.rank for row in rows] == [1, 2]


def test_a_row_carries_whole_points_the_provisional_mark_and_the_results() -> None:
    """Rating and RD in whole points (halves up), with games, wins, draws and losses."""
    ratings = {"ada": PlayerRating(Rating(1612.5, 120.5), wins=3, draws=2, losses=1)}

    assert leaderboard(ratings) == [
        LeaderboardRow(
            rank=1,
            player="ada",
            rating=1613,
            deviation=121,
            provisional=True,
            games=6,
            wins=3,
            draws=2,
            losses=1,
        )
    ]


def test_provisional_players_can_be_left_off_and_the_others_ranked_without_gaps() -> None:
    """Without provisional ratings the rest are ranked 1, 2 among themselves."""
    ratings = {
        "ada": standing(1800.0, deviation=200.0),
        "bob": standing(1700.0, deviation=90.0),
        "cy": standing(1600.0, deviation=110.0),
    }

    everyone = leaderboard(ratings)
    established = leaderboard(ratings, include_provisional=False)

    assert [(row.player, row.provisional) for row in everyone] == [
        ("ada", True),
        ("bob", False),
        ("cy", False),
    ]
    assert [(row.rank, row.player) for row in established] == [(1, "bob"), (2, "cy")]


def test_a_player_without_games_is_not_on_the_leaderboard() -> None:
    """A standing with no games (a newcomer) is left out, whatever its rating."""
    ratings = {"ada": PlayerRating(), "bob": standing(1400.0)}

    assert [row.player for row in leaderboard(ratings)] == ["bob"]
    assert leaderboard({}) == []


def test_a_replayed_class_gives_a_leaderboard_of_everyone_who_played() -> None:
    """Many random games end with one row per player, ranks in order, results adding up."""
    rng = random.Random(7)
    names = [f"student{number}" for number in range(12)]
    games = []
    for minute in range(300):
        first, second = rng.sample(names, 2)
        games.append(connect4(first, second, rng.choice([0.0, 0.5, 1.0]), at=float(minute)))

    rows = leaderboard(replay(games)["connect4"])

    assert sorted(row.player for row in rows) == sorted(names)
    assert [row.rating for row in rows] == sorted((row.rating for row in rows), reverse=True)
    assert sum(row.games for row in rows) == 2 * len(games)
    assert sum(row.wins for row in rows) == sum(row.losses for row in rows)
