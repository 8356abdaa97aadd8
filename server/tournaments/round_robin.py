"""Round-robin schedules from the Berger tables: everyone meets everyone once (or twice).

:func:`berger_table` gives the published FIDE Berger table for an even number of
pairing numbers; :func:`round_robin_rounds` seats the players on those numbers in
the order given (the first player is number 1) and returns the rounds to play.
The schedule depends only on that order, so the same list always gives the same
tournament.

With an odd number of players a phantom player takes the last number; whoever is
paired with it sits the round out (the bye), so every player has exactly one bye.

>>> for round_ in round_robin_rounds(["ada", "bob", "cy"]):
...     print(round_.number, [(p.first, p.second) for p in round_.pairings], round_.bye)
1 [('bob', 'cy')] ada
2 [('ada', 'bob')] cy
3 [('cy', 'ada')] bob
"""

from __future__ import annotations

from collections.abc import Sequence

from boardroom.server.tournaments.players import Pairing, Round, TournamentDataError

__all__ = ["berger_table", "round_robin_rounds"]


def berger_table(size: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``size`` pairing numbers (even, at least 2).

    One list per round, ``size - 1`` rounds, each the pairs ``(first, second)``
    of pairing numbers in board order, exactly as FIDE publishes the tables
    (Handbook C.05, Annex 1): round 1 is 1-n, 2-(n-1), ...; round 2 starts n-(n/2+1).

    The tables are the circle method written as arithmetic: numbers 1..n-1 stand
    on a circle (modulo n-1) and n in its centre. In round r, number p with
    2p = r+1 (mod n-1) meets n, and the others meet across the circle:
    p+k against p-k. Colours: n has the first seat in even rounds; of two circle
    numbers, the lower has the first seat when they differ by an odd amount,
    the higher when by an even one. Each number's seats then alternate as far
    as an odd number of games allows.

    >>> berger_table(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    if size < 2 or size % 2:
        raise ValueError(f"a Berger table has an even number of places, at least 2, not {size}")
    circle = size - 1
    centre = size
    half_of_two = (circle + 1) // 2  # the inverse of 2 modulo an odd number

    def on_circle(number: int) -> int:
        return (number - 1) % circle + 1

    table: list[list[tuple[int, int]]] = []
    for round_number in range(1, size):
        facing_centre = on_circle((round_number + 1) * half_of_two)
        boards = [
            (facing_centre, centre) if round_number % 2 else (centre, facing_centre),
        ]
        for step in range(1, size // 2):
            a, b = on_circle(facing_centre + step), on_circle(facing_centre - step)
            low, high = min(a, b), max(a, b)
            boards.append((low, high) if (high - low) % 2 else (high, low))
        table.append(boards)
    return table


def round_robin_rounds(players: Sequence[str], *, double: bool = False) -> list[Round]:
    """The rounds of a round robin among ``players``, in the order to play them.

    ``players[0]`` takes pairing number 1, and so on (draw lots beforehand for
    a random schedule). Every pair meets exactly once, in N-1 rounds for N
    players (N rounds when N is odd, each with one bye).

    ``double=True`` plays the whole cycle twice: the second cycle repeats the
    first with the seats reversed, so each pair meets once in each seat. As
    FIDE recommends for double round robins, the last two rounds of the first
    cycle are then swapped: otherwise the players whose seat in round 1 is the
    opposite of their seat in the last round would have the same seat three
    times in a row across the turn of the cycle.

    Fewer than two players make no rounds. Raises
    :class:`~boardroom.server.tournaments.players.TournamentDataError` if an id repeats.
    """
    if len(set(players)) != len(players):
        repeated = sorted({p for p in players if players.count(p) > 1})
        raise TournamentDataError(f"players listed twice: {', '.join(map(repr, repeated))}")
    if len(players) < 2:
        return []
    size = len(players) + len(players) % 2
    table = berger_table(size)
    cycle = table
    if double and len(table) >= 3:
        cycle = [*table[:-2], table[-1], table[-2]]
    schedule = cycle + [[(b, a) for a, b in boards] for boards in table] if double else cycle

    def player(number: int) -> str | None:
        return players[number - 1] if number <= len(players) else None  # the phantom

    rounds: list[Round] = []
    for index, boards in enumerate(schedule, start=1):
        pairings: list[Pairing] = []
        bye: str | None = None
        for a, b in boards:
            first, second = player(a), player(b)
            if first is None or second is None:
                bye = first if second is None else second
            else:
                pairings.append(Pairing(first, second))
        rounds.append(Round(index, tuple(pairings), bye))
    return rounds
