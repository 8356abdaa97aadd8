"""Swiss pairings: the next round from the players and the results so far.

:func:`pair_swiss_round` is a pure function: the players in seed order (the
initial ranking list) and the history of results in, the next :class:`Round`
out. It keeps no state, so the server may recompute a round at any time.

How a round is paired, in order of importance:

1. **No repeat games**, ever: two players who have met (over the board or by
   forfeit: the pairing was made) are never paired again. If no repeat-free
   pairing exists at all, :class:`PairingError` is raised.
2. **The bye**, with an odd number of players, goes to one of the players with
   the fewest byes so far (normally: none yet): a player gets a second bye only
   when no repeat-free pairing leaves the bye to someone with fewer. Among
   them, the lowest-ranked (lowest score group, then lowest seed) whose bye
   lets the others be paired within the colour limits of rule 3; if nobody's
   does, the lowest-ranked whose bye lets them be paired at all.
3. **Colour limits**: nobody's colour difference (first seats minus second
   seats) goes beyond +2 or -2, and nobody gets the same seat three games in a
   row. Both are dropped only when no pairing keeps them: first the three-in-a-row
   rule, then the difference limit.
4. **Score groups**: each player meets someone on the same score if possible;
   players who cannot be paired in their group float down to the next one.
5. **Colour preferences**: each player is due the seat they have had less of,
   or after equal numbers the other seat from their last game.
6. **Top half against bottom half** within a score group, in ranking order
   (the Dutch system's S1 against S2: 1 v 5, 2 v 6, 3 v 7, 4 v 8).

Method: players are ranked by points, then seed. For the first three rules the
pairing is a *perfect matching* in the graph of allowed pairs; Edmonds' blossom
algorithm finds one or proves that none exists, in polynomial time. Then the
round is built greedily from the top board down: the highest-ranked unpaired
player takes the most suitable opponent by rules 4 to 6 among those that still
leave a complete pairing of everyone else (checked with one augmenting-path
search). So no choice ever needs undoing, the result is deterministic, and a
repeat-free pairing is found whenever one exists. This favours the top boards,
as pairing by hand does; it is not a certified implementation of the FIDE
Dutch rules (which optimise whole score groups at a time).

Seats: the pair's seats follow the stronger colour preference; when both want
the same seat equally, the higher-ranked player gets it; when neither has
played yet, the higher-ranked player takes the first seat on odd boards and
the second on even ones (round 1: seed 1 has the first seat, seed 2 the second).

>>> round_1 = pair_swiss_round(["ada", "bob", "cy", "dan", "eve"])
>>> [(p.first, p.second) for p in round_1.pairings], round_1.bye
([('ada', 'cy'), ('dan', 'bob')], 'eve')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from boardroom.server.tournaments.matching import augment, maximum_matching, still_perfect
from boardroom.server.tournaments.players import (
    Bye,
    Pairing,
    PairingError,
    Result,
    Round,
    TournamentDataError,
)
from boardroom.shared.games import Player

__all__ = ["PairingError", "max_swiss_rounds", "pair_swiss_round", "recommended_swiss_rounds"]


def recommended_swiss_rounds(player_count: int) -> int:
    """The usual number of rounds for a Swiss of ``player_count``: ceil(log2 N).

    The rule of thumb: after that many rounds, normally no more than one player
    can have won every game. 0 for fewer than two players.

    >>> [recommended_swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 40)]
    [1, 2, 2, 3, 3, 4, 6]
    """
    return (player_count - 1).bit_length() if player_count >= 2 else 0


def max_swiss_rounds(player_count: int) -> int:
    """The most rounds a Swiss of ``player_count`` players can have without repeats.

    Each player can meet the N-1 others once: N-1 rounds for an even N. With an
    odd N one player sits out every round, so there is one round more (N), as in
    a round robin. Pairing may still run out earlier (:class:`PairingError`):
    Swiss pairings can leave no repeat-free round before this bound.

    >>> max_swiss_rounds(6), max_swiss_rounds(5), max_swiss_rounds(1)
    (5, 5, 0)
    """
    if player_count < 2:
        return 0
    return player_count if player_count % 2 else player_count - 1


# -- what the history says about each player ------------------------------------------


@dataclass
class _Record:
    """One player's tournament so far, as far as pairing is concerned."""

    points: float = 0.0
    opponents: set[str] = field(default_factory=set)
    seats: list[Player] = field(default_factory=list)
    """Seats in the games played over the board, in round order (forfeits have none)."""
    byes: int = 0

    @property
    def colour_difference(self) -> int:
        return self.seats.count(Player.FIRST) - self.seats.count(Player.SECOND)


def _records(players: Sequence[str], history: Iterable[Result]) -> tuple[dict[str, _Record], int]:
    """Everyone's record (withdrawn players' too) and the number of the next round."""
    entries = list(history)
    seen: set[tuple[str, int]] = set()
    for entry in entries:
        if entry.round is None:
            raise TournamentDataError(f"a Swiss history needs round numbers: {entry!r} has none")
        involved = (entry.player,) if isinstance(entry, Bye) else (entry.first, entry.second)
        for player in involved:
            if (player, entry.round) in seen:
                raise TournamentDataError(f"{player!r} appears twice in round {entry.round}")
            seen.add((player, entry.round))

    records = {player: _Record() for player in players}
    for entry in sorted(entries, key=lambda e: e.round or 0):  # sorted() is stable
        if isinstance(entry, Bye):
            record = records.setdefault(entry.player, _Record())
            record.points += entry.points
            record.byes += 1
            continue
        for player in (entry.first, entry.second):
            record = records.setdefault(player, _Record())
            record.points += entry.points_of(player)
            record.opponents.add(entry.opponent_of(player))
            if entry.outcome.played:
                record.seats.append(entry.seat_of(player))
    next_round = 1 + max((e.round or 0 for e in entries), default=0)
    return records, next_round


# -- colours -----------------------------------------------------------------------------

_MILD, _STRONG, _ABSOLUTE = 1, 2, 3
"""Strengths of a colour preference (the FIDE terms): what denying it costs."""


@dataclass(frozen=True)
class _ColourLimits:
    """The colour rules a pairing must keep; relaxed step by step when none can."""

    max_difference: int | None
    no_three_in_a_row: bool

    def allows(self, record: _Record, seat: Player) -> bool:
        difference = record.colour_difference + (1 if seat == Player.FIRST else -1)
        if self.max_difference is not None and abs(difference) > self.max_difference:
            return False
        return not (self.no_three_in_a_row and record.seats[-2:] == [seat, seat])


_LIMITS = (
    _ColourLimits(max_difference=2, no_three_in_a_row=True),
    _ColourLimits(max_difference=2, no_three_in_a_row=False),
    _ColourLimits(max_difference=None, no_three_in_a_row=False),
)


def _preference(record: _Record) -> tuple[Player | None, int]:
    """The seat a player is due and how strongly (0: no preference, before any game)."""
    if not record.seats:
        return None, 0
    difference = record.colour_difference
    fewer: Player = Player.FIRST if difference < 0 else Player.SECOND
    if abs(difference) >= 2:
        return fewer, _ABSOLUTE
    if record.seats[-2:] == [record.seats[-1]] * 2:
        return record.seats[-1].other, _ABSOLUTE
    if difference:
        return fewer, _STRONG
    return record.seats[-1].other, _MILD


@dataclass(frozen=True)
class _Seating:
    """How a pair would sit: ``higher`` is the higher-ranked player's seat."""

    cost: int
    """The strengths of the preferences it denies, summed."""
    higher: Player


def _seating(higher: _Record, lower: _Record, limits: _ColourLimits) -> _Seating | None:
    """The best seats for two players within ``limits``; None if no seating keeps them.

    Least denied preference first; on a tie the higher-ranked player gets their
    preference; with no preferences at all the board decides (see :func:`_seat`).
    """
    best: _Seating | None = None
    want_higher, strength_higher = _preference(higher)
    want_lower, strength_lower = _preference(lower)
    # The higher-ranked player's wanted seat is tried first, so it wins a tie in cost.
    for seat in (
        (Player.FIRST, Player.SECOND)
        if want_higher != Player.SECOND
        else (Player.SECOND, Player.FIRST)
    ):
        lower_seat = seat.other
        if not (limits.allows(higher, seat) and limits.allows(lower, lower_seat)):
            continue
        cost = (strength_higher if want_higher not in (None, seat) else 0) + (
            strength_lower if want_lower not in (None, lower_seat) else 0
        )
        if best is None or cost < best.cost:
            best = _Seating(cost, seat)
    return best


def _seat(higher: str, lower: str, seating: _Seating, board: int, fresh: bool) -> Pairing:
    """The pairing on ``board``; ``fresh``: neither player has a colour history yet."""
    # With no colour history on either side, alternate down the boards as round 1 does.
    first_is_higher = board % 2 == 1 if fresh else seating.higher == Player.FIRST
    return Pairing(higher, lower) if first_is_higher else Pairing(lower, higher)


# -- pairing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Graph:
    """Who may meet whom under one set of colour limits; vertices are ranking positions."""

    adjacent: list[list[int]]
    """The pairs allowed: no repeat, and a seating within the limits exists."""
    agreeable: list[list[int]]
    """The allowed pairs whose best seating denies nobody's colour preference."""
    seatings: dict[tuple[int, int], _Seating]
    """The best seating of each allowed pair (lower position first)."""

    @classmethod
    def build(
        cls, records: Sequence[_Record], ranked: Sequence[str], limits: _ColourLimits
    ) -> _Graph:
        size = len(records)
        adjacent: list[list[int]] = [[] for _ in range(size)]
        agreeable: list[list[int]] = [[] for _ in range(size)]
        seatings: dict[tuple[int, int], _Seating] = {}
        for i in range(size):
            for j in range(i + 1, size):
                if ranked[j] in records[i].opponents:
                    continue
                seating = _seating(records[i], records[j], limits)
                if seating is None:
                    continue
                seatings[i, j] = seating
                adjacent[i].append(j)
                adjacent[j].append(i)
                if seating.cost == 0:
                    agreeable[i].append(j)
                    agreeable[j].append(i)
        return cls(adjacent, agreeable, seatings)

    def least_conflicts(self, group: Iterable[int]) -> int:
        """The fewest pairs denying a colour preference if ``group`` paired among itself.

        Half the group minus the most colour-agreeable pairs it can form: a lower
        bound, exact when the group can pair among itself.
        """
        members = set(group)
        inside = [v in members for v in range(len(self.adjacent))]
        mate = maximum_matching(self.agreeable, inside)
        return len(members) // 2 - sum(1 for v in members if mate[v] != -1) // 2


def pair_swiss_round(players: Sequence[str], history: Iterable[Result] = ()) -> Round:
    """Pair the next round of a Swiss among ``players`` (see the module docstring).

    ``players`` are the players to pair this round, in seed order (best first);
    leave out a player who has withdrawn or sits this round out. ``history``
    holds every result so far (:class:`GameResult` and :class:`Bye`, each with
    its round number; withdrawn players' results may stay in). Points count
    forfeits and byes at their recorded value; seats count games played over the
    board only. The round's number is one more than the highest in the history.

    The pairings are in board order; a :class:`Round` with ``bye`` set when the
    number of players is odd (record it with :meth:`Round.bye_result`).

    Raises :class:`PairingError` if no repeat-free pairing exists, or for fewer
    than two players; :class:`TournamentDataError` for a player listed twice, a
    history entry without a round, or a player twice in one round.
    """
    if len(set(players)) != len(players):
        repeated = sorted({p for p in players if players.count(p) > 1})
        raise TournamentDataError(f"players listed twice: {', '.join(map(repr, repeated))}")
    if len(players) < 2:
        raise PairingError(f"a Swiss round needs two players or more, not {len(players)}")
    all_records, number = _records(players, history)
    seed = {player: index for index, player in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-all_records[p].points, seed[p]))
    records = [all_records[p] for p in ranked]
    size = len(ranked)

    if size % 2 == 0:
        tiers: list[list[int]] = [[]]
    else:  # bye candidates: fewest byes first, then the lowest-ranked first
        lowest_first = range(size - 1, -1, -1)
        counts = sorted({record.byes for record in records})
        tiers = [[v for v in lowest_first if records[v].byes == count] for count in counts]
    graphs: dict[_ColourLimits, _Graph] = {}
    for bye_choices in tiers:
        for limits in _LIMITS:
            if limits not in graphs:
                graphs[limits] = _Graph.build(records, ranked, limits)
            found = _perfect_matching(graphs[limits], bye_choices)
            if found is not None:
                bye, mate, active = found
                pairings = _pair_greedily(ranked, records, graphs[limits], mate, active)
                return Round(number, pairings, None if bye is None else ranked[bye])
    raise PairingError(
        f"no pairing of round {number} avoids a repeat game: every way of pairing "
        f"the {size} players meets a pair that has already played"
    )


def _perfect_matching(
    graph: _Graph, bye_choices: Sequence[int]
) -> tuple[int | None, list[int], list[bool]] | None:
    """A perfect matching of everyone but the first possible bye, or None if none exists.

    Returns the bye (None when ``bye_choices`` is empty: everyone plays), the
    matching and the active vertices (everyone but the bye).
    """
    size = len(graph.adjacent)
    everyone = [True] * size
    mate = maximum_matching(graph.adjacent, everyone)
    exposed = [v for v in range(size) if mate[v] == -1]
    if not bye_choices:
        return (None, mate, everyone) if not exposed else None
    if len(exposed) != 1:
        return None
    for bye in bye_choices:
        trial, active = list(mate), list(everyone)
        active[bye] = False
        partner = trial[bye]
        if partner != -1:  # the partner and the exposed vertex need an augmenting path
            trial[bye] = trial[partner] = -1
            if not augment(graph.adjacent, trial, partner, active):
                continue
        return bye, trial, active
    return None


def _pair_greedily(
    ranked: Sequence[str],
    records: Sequence[_Record],
    graph: _Graph,
    mate: list[int],
    active: list[bool],
) -> tuple[Pairing, ...]:
    """Pair the active players from the top board down, keeping ``mate`` perfect.

    The highest-ranked unpaired player takes the first opponent in
    :func:`_opponent_order` that still leaves a complete pairing of the rest.
    """
    pairings: list[Pairing] = []
    while any(active):
        top = active.index(True)
        for opponent in _opponent_order(graph, records, active, top):
            if still_perfect(graph.adjacent, mate, active, top, opponent):
                break
        else:  # pragma: no cover - a perfect matching always leaves an opponent
            raise AssertionError("the perfect matching was lost while pairing")
        seating = graph.seatings[top, opponent]
        fresh = not records[top].seats and not records[opponent].seats
        pairings.append(_seat(ranked[top], ranked[opponent], seating, len(pairings) + 1, fresh))
    return tuple(pairings)


def _opponent_order(
    graph: _Graph, records: Sequence[_Record], active: Sequence[bool], top: int
) -> list[int]:
    """``top``'s possible opponents among the active players, the most suitable first.

    ``top`` is the highest-ranked active player, so nobody left has more points.
    First the players on ``top``'s score (its *bracket*): those that keep the
    bracket's colour conflicts at their minimum first (see
    :meth:`_Graph.least_conflicts`), then by Dutch position: the bottom half in
    order from its top (S2, ideal: the first of it), then the top half from its
    bottom (an exchange). Then everyone on a lower score (a float): the nearest
    score first, then the fewest denied colour preferences, then ranking.
    """
    score = records[top].points
    bracket = [v for v, on in enumerate(active) if on and records[v].points == score]
    target = len(bracket) // 2  # bracket[0] is top: its Dutch opponent is S2's first
    candidates = [v for v in graph.adjacent[top] if active[v]]

    def placement(v: int) -> tuple[bool, int]:
        index = bracket.index(v)
        return index < target, abs(index - target)

    same_score = sorted((v for v in candidates if v in bracket), key=placement)
    if any(records[v].seats for v in bracket):  # else nobody has a colour preference
        least = graph.least_conflicts(bracket)

        def excess_conflicts(v: int) -> int:
            conflict = 1 if graph.seatings[top, v].cost else 0
            rest = graph.least_conflicts(u for u in bracket if u not in (top, v))
            return conflict + rest - least

        excess = {v: excess_conflicts(v) for v in same_score}
        same_score.sort(key=lambda v: excess[v])  # stable: placement decides ties
    lower_score = sorted(
        (v for v in candidates if v not in bracket),
        key=lambda v: (score - records[v].points, graph.seatings[top, v].cost, v),
    )
    return same_score + lower_score
