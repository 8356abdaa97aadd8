"""Swiss pairings: score groups, colours, byes, no repeats, and a typed error at the end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.server.tournaments.players import (
    Bye,
    GameResult,
    Outcome,
    Pairing,
    PairingError,
    Result,
    Round,
    TournamentDataError,
)
from boardroom.server.tournaments.round_robin import round_robin_rounds
from boardroom.server.tournaments.swiss import (
    max_swiss_rounds,
    pair_swiss_round,
    recommended_swiss_rounds,
)

WIN, DRAW, LOSS = Outcome.FIRST_WINS, Outcome.DRAW, Outcome.SECOND_WINS


def numbered(count: int) -> list[str]:
    return [f"p{n}" for n in range(1, count + 1)]


def pairs(round_: Round) -> list[tuple[str, str]]:
    return [(p.first, p.second) for p in round_.pairings]


def games(round_number: int, *played: tuple[str, str, Outcome]) -> list[GameResult]:
    return [GameResult(first, second, outcome, round_number) for first, second, outcome in played]


# -- the rules, case by case ---------------------------------------------------------------


def test_round_one_pairs_the_top_half_against_the_bottom_half_alternating_seats() -> None:
    """Seed 1 meets seed 5 in the first seat, seed 6 takes the first seat against 2, ..."""
    round_ = pair_swiss_round(numbered(8))
    assert round_.number == 1
    assert pairs(round_) == [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]
    assert round_.bye is None


def test_round_two_pairs_within_score_groups_granting_colour_preferences() -> None:
    """Winners meet winners: 1 v 3 would deny both a second seat, so 1 v 4 and 2 v 3."""
    history = games(1, ("p1", "p5", WIN), ("p6", "p2", LOSS), ("p3", "p7", WIN), ("p8", "p4", LOSS))
    round_ = pair_swiss_round(numbered(8), history)
    assert round_.number == 2
    assert pairs(round_) == [("p4", "p1"), ("p2", "p3"), ("p5", "p8"), ("p7", "p6")]


def test_when_colours_allow_it_the_top_half_meets_the_bottom_half() -> None:
    """With every preference compatible, 1 v 3 and 2 v 4 as in the Dutch system."""
    history = games(1, ("p1", "p5", WIN), ("p6", "p2", LOSS), ("p7", "p3", LOSS), ("p4", "p8", WIN))
    # p1 and p4 are due the second seat, p2 and p3 the first.
    assert pairs(pair_swiss_round(numbered(8), history))[:2] == [("p3", "p1"), ("p2", "p4")]


def test_the_odd_player_of_a_score_group_floats_down() -> None:
    """Three winners: 1 v 2, and 3 floats down to the best loser it has not met."""
    history = games(1, ("p1", "p4", WIN), ("p5", "p2", LOSS), ("p3", "p6", WIN))
    round_ = pair_swiss_round(numbered(6), history)
    assert pairs(round_) == [("p2", "p1"), ("p4", "p3"), ("p6", "p5")]


def test_the_bye_goes_to_the_lowest_ranked_player_of_the_lowest_score_group() -> None:
    """In round 1 that is the last seed; it scores a win unless recorded otherwise."""
    round_ = pair_swiss_round(numbered(5))
    assert round_.bye == "p5"
    assert round_.bye_result() == Bye("p5", 1, 1.0)
    assert pairs(round_) == [("p1", "p3"), ("p4", "p2")]


def test_the_bye_passes_over_a_player_who_already_had_one() -> None:
    """p5 is last (its round-1 bye scored nothing) but had the bye: p4 gets it."""
    history: list[Result] = [
        *games(1, ("p1", "p3", WIN), ("p4", "p2", LOSS)),
        Bye("p5", 1, points=0.0),
    ]
    round_ = pair_swiss_round(numbered(5), history)
    assert round_.bye == "p4"


def test_a_second_bye_is_given_only_when_no_pairing_avoids_it() -> None:
    """p1 and p2 have met everyone else, so one of the others has a second bye."""
    history: list[Result] = [
        *games(1, ("p1", "p3", DRAW), ("p2", "p4", DRAW)),
        Bye("p5", 1),
        *games(2, ("p1", "p5", DRAW), ("p2", "p3", DRAW)),
        Bye("p4", 2),
        *games(3, ("p1", "p4", DRAW), ("p2", "p5", DRAW)),
        Bye("p3", 3),
    ]
    # p3, p4, p5 have 2 points, p1 and p2 1.5: the bye goes to the lowest of the 2s.
    round_ = pair_swiss_round(numbered(5), history)
    assert round_.bye == "p5"
    assert {frozenset(p) for p in pairs(round_)} == {
        frozenset({"p1", "p2"}),
        frozenset({"p3", "p4"}),
    }


def test_a_bye_worth_half_a_point_counts_as_half_a_point_for_pairing() -> None:
    """The bye's recorded score decides the score group its player is paired in."""
    history: list[Result] = [*games(1, ("p1", "p2", WIN)), Bye("p3", 1, points=0.5)]
    # Scores: p1 1, p3 0.5, p2 0. p3 has had its bye, so the new bye is p2's.
    round_ = pair_swiss_round(numbered(3), history)
    assert round_.bye == "p2" and pairs(round_) == [("p3", "p1")]


def test_two_players_who_met_are_never_paired_again() -> None:
    """All on one score, the natural 1 v 3 is a repeat: 1 v 4 and 2 v 3 instead."""
    history = [
        *games(1, ("p1", "p2", DRAW), ("p3", "p4", DRAW)),
        *games(2, ("p1", "p3", DRAW), ("p4", "p2", DRAW)),
    ]
    round_ = pair_swiss_round(numbered(4), history)
    assert {frozenset(p) for p in pairs(round_)} == {
        frozenset({"p1", "p4"}),
        frozenset({"p2", "p3"}),
    }


def test_a_forfeit_counts_as_a_meeting_but_gives_no_colour() -> None:
    """p1 and p2 never played, yet do not meet again; p1's seat history is empty."""
    history = games(1, ("p1", "p2", Outcome.FIRST_WINS_BY_FORFEIT), ("p3", "p4", WIN))
    round_ = pair_swiss_round(numbered(4), history)
    # p1 (1 point, no colour yet) cannot meet p2 again, so meets p3 (1 point, due
    # the second seat): p1 takes the first.
    assert pairs(round_) == [("p1", "p3"), ("p4", "p2")]


def test_a_player_two_first_seats_ahead_gets_the_second_seat() -> None:
    """A colour difference of +2 must not become +3 while another seating exists."""
    history = [
        *games(1, ("p1", "p3", DRAW), ("p2", "p4", DRAW)),
        *games(2, ("p1", "p4", DRAW), ("p3", "p2", DRAW)),
    ]
    # p1 sat first twice; p2 once each. They are the only pair left for p1.
    round_ = pair_swiss_round(numbered(4), history)
    assert ("p2", "p1") in pairs(round_)


def test_nobody_sits_in_the_same_seat_three_games_running_when_avoidable() -> None:
    """p1 took the first seat in rounds 2 and 3: in round 4 it takes the second."""
    history = [
        *games(1, ("p5", "p1", LOSS), ("p2", "p6", WIN), ("p3", "p7", WIN), ("p8", "p4", LOSS)),
        *games(2, ("p1", "p3", WIN), ("p4", "p2", LOSS), ("p6", "p7", DRAW), ("p5", "p8", DRAW)),
        *games(3, ("p1", "p2", WIN), ("p3", "p4", DRAW), ("p7", "p5", DRAW), ("p8", "p6", DRAW)),
    ]
    round_ = pair_swiss_round(numbered(8), history)
    assert next(p for p in round_.pairings if "p1" in (p.first, p.second)).second == "p1"


def test_when_everyone_has_met_the_pairing_fails_with_a_typed_error() -> None:
    """After a complete round robin of four no repeat-free round exists: PairingError."""
    history = [
        GameResult(p.first, p.second, DRAW, round_.number)
        for round_ in round_robin_rounds(numbered(4))
        for p in round_.pairings
    ]
    with pytest.raises(PairingError, match="round 4") as raised:
        pair_swiss_round(numbered(4), history)
    assert isinstance(raised.value, ValueError)


def test_a_swiss_needs_two_players() -> None:
    """One player cannot be paired; that is a PairingError too."""
    with pytest.raises(PairingError):
        pair_swiss_round(["solo"])


def test_inconsistent_input_is_refused_with_the_entry_named() -> None:
    """A repeated player, a result without its round, a player twice in a round."""
    with pytest.raises(TournamentDataError, match="'p1'"):
        pair_swiss_round(["p1", "p2", "p1"])
    with pytest.raises(TournamentDataError, match="round numbers"):
        pair_swiss_round(numbered(2), [GameResult("p1", "p2", WIN)])
    with pytest.raises(TournamentDataError, match="twice in round 1"):
        pair_swiss_round(numbered(4), games(1, ("p1", "p2", WIN), ("p1", "p3", WIN)))
    with pytest.raises(TournamentDataError):
        Pairing("p1", "p1")


def test_a_withdrawn_player_is_left_out_but_still_met() -> None:
    """Only the listed players are paired; their earlier games still count as meetings."""
    history = games(1, ("p1", "p2", WIN), ("p3", "p4", WIN))
    round_ = pair_swiss_round(["p1", "p2", "p3"], history)  # p4 withdrew
    assert sorted(round_.players) == ["p1", "p2", "p3"]
    assert frozenset(("p1", "p2")) not in {frozenset(p) for p in pairs(round_)}


def test_the_same_input_always_gives_the_same_round() -> None:
    """Pairing is a pure function of the players and the history."""
    history = games(
        1, ("p1", "p5", DRAW), ("p6", "p2", WIN), ("p3", "p7", LOSS), ("p8", "p4", DRAW)
    )
    assert pair_swiss_round(numbered(8), history) == pair_swiss_round(numbered(8), history)


def test_round_counts_recommended_and_possible() -> None:
    """ceil(log2 N) rounds are recommended; N-1 are possible (N when N is odd)."""
    assert [recommended_swiss_rounds(n) for n in (1, 2, 3, 4, 5, 16, 17, 40)] == [
        0, 1, 2, 2, 3, 4, 5, 6,
    ]  # fmt: skip
    assert [max_swiss_rounds(n) for n in (1, 2, 3, 4, 7, 8)] == [0, 1, 3, 3, 7, 7]


# -- properties over random tournaments ---------------------------------------------------


def pairing_exists(
    players: Iterable[str], may_meet: Callable[[str, str], bool], bye_choices: Iterable[str]
) -> bool:
    """Brute force: can the players be paired (one of ``bye_choices`` out if odd)?"""

    @cache
    def complete(rest: frozenset[str]) -> bool:
        if not rest:
            return True
        first = min(rest)
        return any(
            may_meet(first, other) and complete(rest - {first, other}) for other in rest - {first}
        )

    everyone = frozenset(players)
    if len(everyone) % 2 == 0:
        return complete(everyone)
    return any(complete(everyone - {bye}) for bye in bye_choices)


class Tracker:
    """What the test itself knows of the tournament: meetings, seats, byes."""

    def __init__(self, players: Sequence[str]) -> None:
        self.met: set[frozenset[str]] = set()
        self.seats: dict[str, list[int]] = {p: [] for p in players}  # +1 first, -1 second
        self.byes: Counter[str] = Counter()

    def may_meet(self, a: str, b: str) -> bool:
        return frozenset((a, b)) not in self.met

    def breaks_limits(self, player: str, seat: int, *, three_in_a_row: bool) -> bool:
        """Whether ``seat`` would take ``player`` beyond +-2 (or to a third seat running)."""
        seats = self.seats[player]
        return abs(sum(seats) + seat) > 2 or (three_in_a_row and seats[-2:] == [seat, seat])

    def may_meet_within_limits(self, a: str, b: str, *, three_in_a_row: bool) -> bool:
        return self.may_meet(a, b) and any(
            not self.breaks_limits(a, seat, three_in_a_row=three_in_a_row)
            and not self.breaks_limits(b, -seat, three_in_a_row=three_in_a_row)
            for seat in (1, -1)
        )

    def record(self, results: Iterable[Result]) -> None:
        for result in results:
            if isinstance(result, Bye):
                self.byes[result.player] += 1
                continue
            self.met.add(frozenset((result.first, result.second)))
            if result.outcome.played:  # a forfeit gives nobody a seat
                self.seats[result.first].append(1)
                self.seats[result.second].append(-1)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(2, 16),
    outcomes=st.lists(st.sampled_from(Outcome), min_size=1, max_size=40),
    bye_points=st.sampled_from([1.0, 0.5, 0.0]),
)
def test_random_swiss_tournaments_keep_every_pairing_rule(
    size: int, outcomes: list[Outcome], bye_points: float
) -> None:
    """Random results never lead to a repeat, an unfair bye or an avoidable colour breach."""
    # Each rule the pairing may bend (bye fairness, the colour limits) is only
    # bent when a brute-force search finds no repeat-free pairing that keeps it.
    players = numbered(size)
    tracker = Tracker(players)
    history: list[Result] = []
    results_left = iter(outcomes * size * size)
    for number in range(1, size):
        try:
            round_ = pair_swiss_round(players, history)
        except PairingError:
            assert not pairing_exists(players, tracker.may_meet, bye_choices=players)
            return
        assert round_.number == number
        assert sorted(round_.players) == sorted(players)
        assert (round_.bye is not None) == (size % 2 == 1)
        assert all(tracker.may_meet(p.first, p.second) for p in round_.pairings)

        bye_tier = players  # the bye candidates as deserving as the one chosen
        if round_.bye is not None:
            had = tracker.byes[round_.bye]
            fewer_byes = [p for p in players if tracker.byes[p] < had]
            if fewer_byes:
                assert not pairing_exists(players, tracker.may_meet, bye_choices=fewer_byes)
            bye_tier = [p for p in players if tracker.byes[p] <= had]

        seated = [(p.first, 1) for p in round_.pairings] + [(p.second, -1) for p in round_.pairings]
        if any(tracker.breaks_limits(p, s, three_in_a_row=False) for p, s in seated):

            def within_difference(a: str, b: str) -> bool:
                return tracker.may_meet_within_limits(a, b, three_in_a_row=False)

            assert not pairing_exists(players, within_difference, bye_choices=bye_tier)
        if any(tracker.breaks_limits(p, s, three_in_a_row=True) for p, s in seated):

            def within_all_limits(a: str, b: str) -> bool:
                return tracker.may_meet_within_limits(a, b, three_in_a_row=True)

            assert not pairing_exists(players, within_all_limits, bye_choices=bye_tier)

        results: list[Result] = [
            GameResult(p.first, p.second, next(results_left), number) for p in round_.pairings
        ]
        bye = round_.bye_result(points=bye_points)
        results += [bye] if bye is not None else []
        tracker.record(results)
        history += results
