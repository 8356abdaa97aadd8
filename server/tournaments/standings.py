"""Standings and crosstables from the finished results of a tournament.

:func:`compute_standings` turns results (games and byes) into one
:class:`Standing` per player, ranked; :func:`crosstable` lays the same results
out player against player. Both are pure: same results, same table.

Conventions (each is a choice; FIDE's rules differ in places, as noted):

**Points.** A win scores 1, a draw ½, a loss 0, whether played or by forfeit; a
double forfeit scores 0 for both; a bye scores what its :class:`Bye` says (1 by
default). ``games_played``, ``wins``, ``draws`` and ``losses`` count games played
over the board only; forfeits and byes have their own counters.

**Unplayed rounds in tie-breaks** (byes and forfeits, on either side). We follow
the FIDE principle that unplayed games a player is only indirectly involved in
count as draws, and give a player's own unplayed rounds a neutral virtual
opponent:

- An opponent's score, wherever a tie-break adds it up, is their *tie-break
  score*: the points of their games played over the board plus ½ for each of
  their unplayed rounds, whatever those actually scored. So a forfeit win does not
  lift, and a no-show does not sink, the Buchholz of the players who met them.
- In Buchholz, each of a player's own unplayed rounds counts as a game against a
  virtual opponent with the player's own points. FIDE's 2009-2022 rule gives
  that opponent a score built round by round; this one needs no round numbers,
  and the unplayed round neither lifts nor sinks the player's Buchholz relative
  to their own result.
- Sonneborn-Berger counts games played over the board only: an unplayed round
  adds nothing (nobody was beaten or held to a draw).

**Tie-breaks.** Buchholz: the sum of the opponents' scores (see above). Buchholz
Cut-1: Buchholz less its lowest single term. Sonneborn-Berger: the scores of the
opponents beaten plus half the scores of those drawn.

**Ranking.** Points, then the tie-breaks in the order given (defaults:
:data:`ROUND_ROBIN_TIE_BREAKS`, :data:`SWISS_TIE_BREAKS`), then the number of games
won over the board. Players equal on all of these share the place: each has
``rank`` the best of the places (3 and 3) and ``place`` the range (``"3-4"``);
they are listed by player id, so the order is deterministic.

>>> from boardroom.server.tournaments.players import GameResult, Outcome
>>> results = [
...     GameResult("ada", "bob", Outcome.FIRST_WINS, round=1),
...     GameResult("bob", "cy", Outcome.DRAW, round=2),
...     GameResult("cy", "ada", Outcome.DRAW, round=3),
... ]
>>> for s in compute_standings(results, tie_breaks=ROUND_ROBIN_TIE_BREAKS):
...     print(s.place, s.player, s.points, s.sonneborn_berger)
1 ada 1.5 1.0
2 cy 1.0 1.0
3 bob 0.5 0.5
>>> print(crosstable(results, ["ada", "cy", "bob"]).text())
   Player  1  2  3   Points
1  ada     *  ½  1   1.5
2  cy      ½  *  ½   1
3  bob     0  ½  *   0.5
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from boardroom.server.tournaments.players import (
    Bye,
    GameResult,
    Result,
    TournamentDataError,
)
from boardroom.shared.games import Player
from boardroom.shared.i18n import _, current

__all__ = [
    "ROUND_ROBIN_TIE_BREAKS",
    "SWISS_TIE_BREAKS",
    "Crosstable",
    "Meeting",
    "Standing",
    "TieBreak",
    "compute_standings",
    "crosstable",
]

_UNPLAYED_TIE_BREAK_SCORE = 0.5
"""An unplayed round counts as a draw in the player's score as others see it."""


class TieBreak(enum.Enum):
    """A tie-break after points (see the module docstring for the definitions)."""

    BUCHHOLZ = "buchholz"
    """The sum of the opponents' scores."""
    BUCHHOLZ_CUT1 = "buchholz_cut1"
    """Buchholz without its lowest term: one bad opponent matters less."""
    SONNEBORN_BERGER = "sonneborn_berger"
    """Opponents beaten count in full, those drawn by half."""


ROUND_ROBIN_TIE_BREAKS = (TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ)
"""In a round robin everyone meets the same opponents, so plain Buchholz only
separates players through the games among them; Sonneborn-Berger weighs them."""
SWISS_TIE_BREAKS = (TieBreak.BUCHHOLZ_CUT1, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER)
"""In a Swiss, opponents differ: the strength of one's opponents decides first."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings (see the module docstring)."""

    player: str
    rank: int
    """1 for the leader; tied players share the best place of their group."""
    place: str
    """The rank as shown: ``"3"``, or ``"3-4"`` for two players sharing 3rd and 4th."""
    points: float
    games_played: int
    """Games played over the board (not forfeits, not byes)."""
    wins: int
    draws: int
    losses: int
    forfeit_wins: int
    forfeit_losses: int
    """Forfeits lost, double forfeits included."""
    byes: int
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float

    def tie_break(self, which: TieBreak) -> float:
        """The value of one tie-break."""
        value: float = getattr(self, which.value)
        return value


@dataclass
class _Line:
    """What one player's results add up to, before tie-breaks."""

    points: float = 0.0
    played: list[tuple[str, float]] = field(default_factory=list)
    """(opponent, points scored) of each game played over the board."""
    unplayed: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    byes: int = 0

    @property
    def tie_break_score(self) -> float:
        """The score opponents see: unplayed rounds count as draws."""
        return sum(points for _, points in self.played) + self.unplayed * _UNPLAYED_TIE_BREAK_SCORE


def _lines(results: Iterable[Result], players: Iterable[str]) -> dict[str, _Line]:
    lines = {player: _Line() for player in players}
    seen: set[tuple[str, int]] = set()
    for result in results:
        involved = (result.player,) if isinstance(result, Bye) else (result.first, result.second)
        for player in involved:
            if result.round is not None:
                if (player, result.round) in seen:
                    raise TournamentDataError(f"{player!r} appears twice in round {result.round}")
                seen.add((player, result.round))
            lines.setdefault(player, _Line())
        if isinstance(result, Bye):
            line = lines[result.player]
            line.points += result.points
            line.byes += 1
            line.unplayed += 1
            continue
        for player in involved:
            line, points = lines[player], result.points_of(player)
            line.points += points
            if result.outcome.played:
                line.played.append((result.opponent_of(player), points))
                continue
            line.unplayed += 1
            if points:
                line.forfeit_wins += 1
            else:
                line.forfeit_losses += 1
    return lines


def compute_standings(
    results: Iterable[Result],
    *,
    players: Iterable[str] = (),
    tie_breaks: Sequence[TieBreak] = SWISS_TIE_BREAKS,
) -> list[Standing]:
    """The standings after ``results``, best first (see the module docstring).

    Everyone in ``results`` is ranked, and everyone in ``players`` too (a
    player without results yet scores nothing). ``tie_breaks`` orders the
    tie-breaks after points; the number of wins over the board and then the
    player id come after them.

    Raises :class:`~boardroom.server.tournaments.players.TournamentDataError` if a player
    appears twice in the same round.
    """
    lines = _lines(results, players)
    standings: list[Standing] = []
    for player, line in lines.items():
        terms = [lines[opponent].tie_break_score for opponent, _ in line.played]
        terms += [line.points] * line.unplayed  # the virtual opponent of each unplayed round
        buchholz = sum(terms)
        sonneborn_berger = sum(lines[opponent].tie_break_score * s for opponent, s in line.played)
        scores = [points for _, points in line.played]
        standings.append(
            Standing(
                player=player,
                rank=0,
                place="",
                points=line.points,
                games_played=len(line.played),
                wins=scores.count(1.0),
                draws=scores.count(0.5),
                losses=scores.count(0.0),
                forfeit_wins=line.forfeit_wins,
                forfeit_losses=line.forfeit_losses,
                byes=line.byes,
                buchholz=buchholz,
                buchholz_cut1=buchholz - min(terms, default=0.0),
                sonneborn_berger=sonneborn_berger,
            )
        )

    def merit(s: Standing) -> tuple[float, ...]:
        # Rounded so that a bye worth an odd fraction cannot split a tie by float noise;
        # with the usual halves every sum is exact anyway.
        values = [s.points, *(s.tie_break(t) for t in tie_breaks), s.wins]
        return tuple(-round(v, 9) for v in values)

    standings.sort(key=lambda s: (merit(s), s.player))
    ranked: list[Standing] = []
    start = 0
    while start < len(standings):
        end = start + 1
        while end < len(standings) and merit(standings[end]) == merit(standings[start]):
            end += 1
        place = str(start + 1) if end == start + 1 else f"{start + 1}-{end}"
        for standing in standings[start:end]:
            ranked.append(replace(standing, rank=start + 1, place=place))
        start = end
    return ranked


# -- crosstable ---------------------------------------------------------------------------

_SYMBOLS = {1.0: "1", 0.5: "½", 0.0: "0"}


@dataclass(frozen=True, slots=True)
class Meeting:
    """One game in a crosstable cell, seen from the row player's side."""

    points: float
    """What the row player scored: 1, 0.5 or 0."""
    seat: Player
    """The row player's seat."""
    round: int | None
    played: bool
    """False for a forfeit (either way) or a double forfeit."""

    @property
    def symbol(self) -> str:
        """``1``, ``½``, ``0``; ``+`` and ``-`` for a forfeit won or lost."""
        if not self.played:
            return "+" if self.points else "-"
        return _SYMBOLS[self.points]


@dataclass(frozen=True)
class Crosstable:
    """Every player against every other, in the order given to :func:`crosstable`.

    ``cells[row, column]`` are the meetings of the two (by round; none if they
    have not met, two in a double round robin), from the row player's side.
    ``points`` are everyone's points, byes included. Byes have no cell.
    """

    players: tuple[str, ...]
    cells: Mapping[tuple[str, str], tuple[Meeting, ...]]
    points: Mapping[str, float]

    def cell(self, row: str, column: str) -> tuple[Meeting, ...]:
        """The meetings of ``row`` against ``column``, from ``row``'s side."""
        return self.cells.get((row, column), ())

    def text(self) -> str:
        """A plain-text grid: one row per player, one column per opponent, then
        points; its two words in the language spoken now."""
        player_label, points_label = _("Player"), _("Points")
        name_width = max(len(name) for name in (player_label, *self.players))
        number_width = len(str(len(self.players)))
        cells = [
            [
                "*" if row == column else "".join(m.symbol for m in self.cell(row, column))
                for column in self.players
            ]
            for row in self.players
        ]
        cell_width = max([len(str(len(self.players))), *(len(c) for r in cells for c in r)])
        header = [f"{'':<{number_width}}  {player_label:<{name_width}}"]
        header += [f"{n:<{cell_width}}" for n in range(1, len(self.players) + 1)]
        lines = ["  ".join(header) + f"   {points_label}"]
        for number, (player, row) in enumerate(zip(self.players, cells, strict=True), start=1):
            line = [f"{number:<{number_width}}  {player:<{name_width}}"]
            line += [f"{cell:<{cell_width}}" for cell in row]
            lines.append("  ".join(line) + f"   {current().number(self.points[player])}")
        return "\n".join(lines)


def crosstable(results: Iterable[Result], order: Sequence[str]) -> Crosstable:
    """The crosstable of ``results`` with rows and columns in ``order``.

    ``order`` is usually the standings' order
    (``[s.player for s in compute_standings(results)]``); players in the results
    but not in ``order`` are left out of the grid.
    """
    entries = list(results)
    meetings: dict[tuple[str, str], list[Meeting]] = {}
    games = [r for r in entries if isinstance(r, GameResult)]
    # By round, unnumbered ones last, otherwise in the order given.
    games.sort(key=lambda g: (g.round is None, g.round or 0))
    for game in games:
        for player in (game.first, game.second):
            meeting = Meeting(
                points=game.points_of(player),
                seat=game.seat_of(player),
                round=game.round,
                played=game.outcome.played,
            )
            meetings.setdefault((player, game.opponent_of(player)), []).append(meeting)
    lines = _lines(entries, order)
    return Crosstable(
        players=tuple(order),
        cells={pair: tuple(found) for pair, found in meetings.items()},
        points={player: lines[player].points for player in order},
    )
