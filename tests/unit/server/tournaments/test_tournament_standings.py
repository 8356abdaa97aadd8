"""Standings: points, tie-breaks worked by hand, shared places, and the crosstable."""

from __future__ import annotations

import pytest

from boardroom.server.tournaments.players import (
    Bye,
    GameResult,
    Outcome,
    Result,
    TournamentDataError,
)
from boardroom.server.tournaments.round_robin import round_robin_rounds
from boardroom.server.tournaments.standings import (
    ROUND_ROBIN_TIE_BREAKS,
    Meeting,
    Standing,
    TieBreak,
    compute_standings,
    crosstable,
)
from boardroom.shared.i18n import use_language

WIN, DRAW, LOSS = Outcome.FIRST_WINS, Outcome.DRAW, Outcome.SECOND_WINS

# A three-round Swiss of five with every kind of result:
#
#   round 1: ada-bob 1-0      cy-dan ½-½                        eve: bye (1)
#   round 2: eve-ada 0-1      bob-dan 0-1 by forfeit (bob absent)   cy: bye (1)
#   round 3: ada-cy ½-½       dan-eve 0-1                       bob: bye (1)
#
# Points:  ada 1+1+½ = 2.5   bob 0+0+1 = 1   cy ½+1+½ = 2   dan ½+1+0 = 1.5   eve 1+0+1 = 2
#
# Tie-break scores (what opponents see: unplayed rounds count ½, whatever they scored):
#   ada 1+1+½ = 2.5      bob 0 + ½ (forfeit) + ½ (bye) = 1
#   cy ½ + ½ (bye) + ½ = 1.5   dan ½ + ½ (forfeit win) + 0 = 1   eve ½ (bye) + 0 + 1 = 1.5
#
# Buchholz: opponents' tie-break scores, plus the player's own points per unplayed round.
#   ada: bob 1 + eve 1.5 + cy 1.5                  = 4.0   cut-1 (drop 1)   3.0
#   bob: ada 2.5 + own 1 (forfeit) + own 1 (bye)   = 4.5   cut-1 (drop 1)   3.5
#   cy:  dan 1 + ada 2.5 + own 2 (bye)             = 5.5   cut-1 (drop 1)   4.5
#   dan: cy 1.5 + eve 1.5 + own 1.5 (forfeit win)  = 4.5   cut-1 (drop 1.5) 3.0
#   eve: ada 2.5 + dan 1 + own 2 (bye)             = 5.5   cut-1 (drop 1)   4.5
#
# Sonneborn-Berger: opponents beaten in full, drawn by half, over the board only.
#   ada: bob 1 + eve 1.5 + ½·cy 1.5 = 3.25    bob: 0 (lost to ada)
#   cy:  ½·dan 1 + ½·ada 2.5 = 1.75           dan: ½·cy 1.5 = 0.75    eve: dan 1 = 1.0
#
# Ranking with the Swiss tie-breaks (cut-1, Buchholz, SB): ada 2.5; cy and eve on 2
# tie on cut-1 (4.5) and Buchholz (5.5), cy's SB 1.75 beats eve's 1.0; dan 1.5; bob 1.
SMALL_SWISS: list[Result] = [
    GameResult("ada", "bob", WIN, round=1),
    GameResult("cy", "dan", DRAW, round=1),
    Bye("eve", round=1),
    GameResult("eve", "ada", LOSS, round=2),
    GameResult("bob", "dan", Outcome.SECOND_WINS_BY_FORFEIT, round=2),
    Bye("cy", round=2),
    GameResult("ada", "cy", DRAW, round=3),
    GameResult("dan", "eve", LOSS, round=3),
    Bye("bob", round=3),
]


def by_player(standings: list[Standing]) -> dict[str, Standing]:
    return {s.player: s for s in standings}


def test_points_count_forfeits_and_byes_but_games_played_do_not() -> None:
    """Forfeits and byes score points; played games and W/D/L count the board only."""
    table = by_player(compute_standings(SMALL_SWISS))
    assert {p: s.points for p, s in table.items()} == {
        "ada": 2.5,
        "bob": 1.0,
        "cy": 2.0,
        "dan": 1.5,
        "eve": 2.0,
    }
    bob, dan = table["bob"], table["dan"]
    assert (bob.games_played, bob.wins, bob.draws, bob.losses) == (1, 0, 0, 1)
    assert (bob.forfeit_losses, bob.byes) == (1, 1)
    assert (dan.games_played, dan.wins, dan.draws, dan.losses) == (2, 0, 1, 1)
    assert dan.forfeit_wins == 1


def test_buchholz_and_sonneborn_berger_match_the_hand_worked_values() -> None:
    """The numbers worked out in the comment above SMALL_SWISS."""
    table = by_player(compute_standings(SMALL_SWISS))
    assert {p: (s.buchholz, s.buchholz_cut1, s.sonneborn_berger) for p, s in table.items()} == {
        "ada": (4.0, 3.0, 3.25),
        "bob": (4.5, 3.5, 0.0),
        "cy": (5.5, 4.5, 1.75),
        "dan": (4.5, 3.0, 0.75),
        "eve": (5.5, 4.5, 1.0),
    }


def test_swiss_tie_breaks_rank_cy_above_eve_on_sonneborn_berger() -> None:
    """Equal on points, cut-1 and Buchholz, cy's better draws put it ahead of eve."""
    standings = compute_standings(SMALL_SWISS)
    assert [(s.place, s.player) for s in standings] == [
        ("1", "ada"),
        ("2", "cy"),
        ("3", "eve"),
        ("4", "dan"),
        ("5", "bob"),
    ]


def test_the_order_of_tie_breaks_is_configurable() -> None:
    """With Buchholz alone, cy and eve stay tied and eve's win over the board decides."""
    standings = compute_standings(SMALL_SWISS, tie_breaks=[TieBreak.BUCHHOLZ])
    assert [s.player for s in standings][1:3] == ["eve", "cy"]


def test_a_forfeit_win_does_not_lift_the_buchholz_of_the_winners_opponents() -> None:
    """dan's forfeit win over bob counts ½ in cy's Buchholz, exactly as a draw would."""
    forfeit = GameResult("bob", "dan", Outcome.SECOND_WINS_BY_FORFEIT, round=2)
    drawn = GameResult("bob", "dan", DRAW, round=2)
    played_out = [drawn if result == forfeit else result for result in SMALL_SWISS]
    assert played_out != SMALL_SWISS
    cy_after_forfeit = by_player(compute_standings(SMALL_SWISS))["cy"]
    cy_after_draw = by_player(compute_standings(played_out))["cy"]
    assert cy_after_forfeit.buchholz == cy_after_draw.buchholz == 5.5


def test_a_bye_counts_in_buchholz_as_an_opponent_on_the_players_own_points() -> None:
    """A player whose only result is a bye has its own points as Buchholz."""
    results: list[Result] = [GameResult("ada", "bob", WIN, round=1), Bye("cy", round=1)]
    cy = by_player(compute_standings(results))["cy"]
    assert (cy.points, cy.buchholz, cy.buchholz_cut1, cy.sonneborn_berger) == (1.0, 1.0, 0.0, 0.0)


def test_round_robin_tie_breaks_put_sonneborn_berger_first() -> None:
    """ada and bob both score 2; ada beat the stronger players, so ada is first."""
    # ada beat bob (2) and dan (1): SB 3. bob beat cy (1) and dan (1): SB 2.
    results = [
        GameResult("ada", "bob", WIN, round=1),
        GameResult("cy", "dan", LOSS, round=1),
        GameResult("cy", "ada", WIN, round=2),
        GameResult("bob", "dan", WIN, round=2),
        GameResult("ada", "dan", WIN, round=3),
        GameResult("bob", "cy", WIN, round=3),
    ]
    standings = compute_standings(results, tie_breaks=ROUND_ROBIN_TIE_BREAKS)
    assert [(s.player, s.points, s.sonneborn_berger) for s in standings] == [
        ("ada", 2.0, 3.0),
        ("bob", 2.0, 2.0),
        ("cy", 1.0, 2.0),
        ("dan", 1.0, 1.0),
    ]


def test_players_equal_on_everything_share_the_place() -> None:
    """A round robin of draws: everyone is "1-4" with rank 1, listed by id."""
    results = [
        GameResult(p.first, p.second, DRAW, round=r.number)
        for r in round_robin_rounds(["dan", "cy", "bob", "ada"])
        for p in r.pairings
    ]
    standings = compute_standings(results)
    assert [(s.rank, s.place, s.player) for s in standings] == [
        (1, "1-4", "ada"),
        (1, "1-4", "bob"),
        (1, "1-4", "cy"),
        (1, "1-4", "dan"),
    ]


def test_a_shared_place_below_the_top_reads_as_a_range() -> None:
    """ada wins both games; bob and cy, each with one loss to ada, share places 2-3."""
    results = [
        GameResult("ada", "bob", WIN, round=1),
        GameResult("cy", "ada", LOSS, round=2),
    ]
    standings = compute_standings(results)
    assert [(s.rank, s.place, s.player) for s in standings] == [
        (1, "1", "ada"),
        (2, "2-3", "bob"),
        (2, "2-3", "cy"),
    ]


def test_listed_players_without_results_score_nothing() -> None:
    """A registered player who has not played yet is ranked last with zeros."""
    standings = compute_standings([GameResult("ada", "bob", DRAW, round=1)], players=["cy"])
    cy = standings[-1]
    assert (cy.player, cy.points, cy.games_played, cy.buchholz, cy.place) == (
        "cy",
        0.0,
        0,
        0.0,
        "3",
    )


def test_a_player_twice_in_one_round_is_refused() -> None:
    """Results that seat a player twice in a round are an error naming the player."""
    results: list[Result] = [GameResult("ada", "bob", WIN, round=1), Bye("ada", round=1)]
    with pytest.raises(TournamentDataError, match="'ada' appears twice in round 1"):
        compute_standings(results)


def test_a_game_against_oneself_or_a_negative_bye_is_refused() -> None:
    """The value types check themselves."""
    with pytest.raises(TournamentDataError):
        GameResult("ada", "ada", DRAW)
    with pytest.raises(TournamentDataError):
        Bye("ada", points=-1.0)
    with pytest.raises(TournamentDataError):
        GameResult("ada", "bob", DRAW, round=0)


def test_the_crosstable_holds_each_meeting_with_its_round_and_seat() -> None:
    """Each cell is from the row player's side; forfeits are marked as not played."""
    table = crosstable(SMALL_SWISS, ["ada", "cy", "eve", "dan", "bob"])
    assert table.cell("ada", "eve") == (Meeting(1.0, "second", 2, played=True),)
    assert table.cell("eve", "ada") == (Meeting(0.0, "first", 2, played=True),)
    assert table.cell("dan", "bob") == (Meeting(1.0, "second", 2, played=False),)
    assert table.cell("ada", "dan") == ()
    assert table.points["cy"] == 2.0


def test_the_crosstable_text_marks_forfeits_with_plus_and_minus() -> None:
    """The grid shows 1, ½, 0 for games played and + or - for forfeits."""
    order = [s.player for s in compute_standings(SMALL_SWISS)]
    assert crosstable(SMALL_SWISS, order).text().splitlines() == [
        "   Player  1  2  3  4  5   Points",
        "1  ada     *  ½  1     1   2.5",
        "2  cy      ½  *     ½      2",
        "3  eve     0     *  1      2",
        "4  dan        ½  0  *  +   1.5",
        "5  bob     0        -  *   1",
    ]


def test_the_crosstable_text_speaks_the_language_of_the_export() -> None:
    """A Spanish class's export: its two words in Spanish, half points with a comma."""
    order = [s.player for s in compute_standings(SMALL_SWISS)]
    with use_language("es"):
        lines = crosstable(SMALL_SWISS, order).text().splitlines()
    assert lines[0] == "   Jugador/a  1  2  3  4  5   Puntos"
    assert lines[1] == "1  ada        *  ½  1     1   2,5"


def test_a_double_round_robin_cell_lists_both_games_by_round() -> None:
    """Two meetings of the same pair read in round order."""
    results = [GameResult("bob", "ada", DRAW, round=2), GameResult("ada", "bob", WIN, round=1)]
    cell = crosstable(results, ["ada", "bob"]).cell("ada", "bob")
    assert [(m.round, m.seat, m.symbol) for m in cell] == [(1, "first", "1"), (2, "second", "½")]
