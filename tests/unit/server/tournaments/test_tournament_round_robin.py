"""Round-robin schedules: the published Berger tables, every pair once, seats balanced."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.server.tournaments.players import Round, TournamentDataError
from boardroom.server.tournaments.round_robin import berger_table, round_robin_rounds

# The FIDE Berger tables (Handbook C.05, Annex 1), transcribed: one row per
# round, (first seat, second seat) in board order. Odd fields use the next even
# table, the highest number being the bye.
FIDE_3_OR_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
FIDE_5_OR_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_7_OR_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def numbered(count: int) -> list[str]:
    return [f"p{n}" for n in range(1, count + 1)]


def as_numbers(rounds: list[Round]) -> list[tuple[list[tuple[int, int]], int | None]]:
    """Each round as (pairs of pairing numbers, bye number), for players named p1, p2, ..."""

    def number(player: str) -> int:
        return int(player[1:])

    return [
        (
            [(number(p.first), number(p.second)) for p in round_.pairings],
            None if round_.bye is None else number(round_.bye),
        )
        for round_ in rounds
    ]


def seats_by_player(rounds: list[Round]) -> dict[str, list[str]]:
    """Each player's seats in playing order: ``F`` first, ``S`` second (byes skipped)."""
    seats: dict[str, list[str]] = {}
    for round_ in rounds:
        for pairing in round_.pairings:
            seats.setdefault(pairing.first, []).append("F")
            seats.setdefault(pairing.second, []).append("S")
    return seats


def test_four_places_follow_the_fide_berger_table() -> None:
    """The table for four is exactly the one FIDE publishes for 3 or 4 players."""
    assert berger_table(4) == FIDE_3_OR_4


def test_six_and_eight_places_follow_the_fide_berger_tables() -> None:
    """The tables for six and eight match the published ones, board order included."""
    assert berger_table(6) == FIDE_5_OR_6
    assert berger_table(8) == FIDE_7_OR_8


def test_four_players_play_the_four_table_in_their_given_order() -> None:
    """Player k of the list takes pairing number k; nobody has a bye."""
    rounds = round_robin_rounds(numbered(4))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert as_numbers(rounds) == [(pairs, None) for pairs in FIDE_3_OR_4]


def test_five_players_play_the_six_table_with_number_six_as_the_bye() -> None:
    """With five players, whoever the table pairs with number 6 sits the round out."""
    assert as_numbers(round_robin_rounds(numbered(5))) == [
        ([(2, 5), (3, 4)], 1),
        ([(5, 3), (1, 2)], 4),
        ([(3, 1), (4, 5)], 2),
        ([(1, 4), (2, 3)], 5),
        ([(4, 2), (5, 1)], 3),
    ]


def test_two_players_meet_once_and_fewer_make_no_rounds() -> None:
    """Two players make one game; one player or none make an empty schedule."""
    assert as_numbers(round_robin_rounds(numbered(2))) == [([(1, 2)], None)]
    assert round_robin_rounds(["solo"]) == []
    assert round_robin_rounds([]) == []


def test_a_player_listed_twice_is_refused() -> None:
    """A repeated id is an error naming the id, not a player meeting themselves."""
    with pytest.raises(TournamentDataError, match="'ada'"):
        round_robin_rounds(["ada", "bob", "ada"])


def test_a_berger_table_needs_an_even_number_of_places() -> None:
    """Odd sizes belong to the next even table; asking for one directly is an error."""
    with pytest.raises(ValueError, match="even"):
        berger_table(5)


def test_the_schedule_depends_only_on_the_order_of_the_players() -> None:
    """The same list gives the same schedule; another order gives other seats."""
    players = ["ada", "bob", "cy", "dan"]
    assert round_robin_rounds(players) == round_robin_rounds(list(players))
    assert round_robin_rounds(players) != round_robin_rounds(players[::-1])


def test_a_round_robin_bye_can_be_recorded_as_worth_nothing() -> None:
    """The bye of a round robin is a rest: its result is whatever the caller says."""
    first = round_robin_rounds(numbered(3))[0]
    bye = first.bye_result(points=0.0)
    assert bye is not None
    assert (bye.player, bye.round, bye.points) == ("p1", 1, 0.0)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 24), double=st.booleans())
def test_every_pair_meets_once_per_cycle_and_everyone_plays_once_per_round(
    count: int, double: bool
) -> None:
    """Each round seats everyone once (or gives the bye); each pair meets once a cycle."""
    players = numbered(count)
    rounds = round_robin_rounds(players, double=double)
    cycles = 2 if double else 1
    assert len(rounds) == cycles * (count - 1 + count % 2)
    for round_ in rounds:
        assert sorted(round_.players) == sorted(players)
        assert (round_.bye is not None) == (count % 2 == 1)
    meetings = Counter(frozenset((p.first, p.second)) for r in rounds for p in r.pairings)
    assert meetings == {frozenset(pair): cycles for pair in combinations(players, 2)}
    byes = Counter(r.bye for r in rounds if r.bye is not None)
    assert byes == ({p: cycles for p in players} if count % 2 else {})


@pytest.mark.parametrize("count", range(2, 25))
def test_seats_in_one_cycle_are_as_even_as_the_tables_allow(count: int) -> None:
    """Nobody ends more than one first seat up or down, or has one seat three times running."""
    for seats in seats_by_player(round_robin_rounds(numbered(count))).values():
        assert abs(seats.count("F") - seats.count("S")) <= 1
        assert "FFF" not in "".join(seats) and "SSS" not in "".join(seats)


@pytest.mark.parametrize("count", range(2, 25))
def test_a_double_round_robin_reverses_seats_without_three_in_a_row(count: int) -> None:
    """Each pair meets once in each seat, and the turn of the cycle makes no run of three."""
    rounds = round_robin_rounds(numbered(count), double=True)
    seated = Counter((p.first, p.second) for r in rounds for p in r.pairings)
    assert set(seated.values()) == {1}
    assert all((second, first) in seated for first, second in seated)
    for seats in seats_by_player(rounds).values():
        assert seats.count("F") == seats.count("S")
        assert "FFF" not in "".join(seats) and "SSS" not in "".join(seats)
