"""The values that tournament code passes around: pairings, rounds, results, byes.

Players are opaque string ids (a student, a student's bot, a server AI level); the
tournament code never looks inside them. Seats are the game's seats: ``first``
moves first, ``second`` answers, and a player's *colour* in a game is its seat.

A :class:`Round` is what a schedule or a pairing produces: the games to start, board
by board, and the player who sits out (the bye). A finished game comes back as a
:class:`GameResult`, a bye as a :class:`Bye`; the two together are a :data:`Result`,
the input of :mod:`~boardroom.server.tournaments.swiss` and
:mod:`~boardroom.server.tournaments.standings`.

All values are frozen and picklable, so they may be stored or sent to a worker.
Errors raised on purpose by the package (see :mod:`boardroom.server.tournaments`)::

    TournamentError
    ├── TournamentDataError(TournamentError, ValueError)   players or results that
    │                                                      contradict themselves
    └── PairingError(TournamentError, ValueError)          no repeat-free pairing exists
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias

from boardroom.server.core.records import PgnResult
from boardroom.shared.games import Player

__all__ = [
    "DEFAULT_BYE_POINTS",
    "Bye",
    "GameResult",
    "Outcome",
    "Pairing",
    "PairingError",
    "Result",
    "Round",
    "TournamentDataError",
    "TournamentError",
]

DEFAULT_BYE_POINTS = 1.0
"""What a Swiss bye is worth unless the tournament says otherwise: a win, the
usual club convention (FIDE allows a win or a draw). Round-robin byes are a rest
and usually worth nothing: pass ``points=0.0`` to :meth:`Round.bye_result`."""


class TournamentError(Exception):
    """Root of every error that :mod:`boardroom.server.tournaments` raises on purpose."""


class TournamentDataError(TournamentError, ValueError):
    """Players or results that contradict themselves.

    A player listed twice, a player paired against themselves, a player twice in
    one round, a Swiss history entry without its round number, a round number
    below 1 or a negative bye score. The message names the entry at fault.
    """


class PairingError(TournamentError, ValueError):
    """No pairing of the next Swiss round exists without a repeat game.

    Raised only when every way of pairing the players (and of choosing the bye)
    would make two of them meet again: the tournament has run out of rounds.
    """


class Outcome(enum.Enum):
    """How a game between the first and the second seat ended.

    The values are the usual crosstable notation: a played game's is its
    :class:`~boardroom.server.core.records.PgnResult`; ``+`` and ``-`` mark a game decided
    without being played (a forfeit: a player did not show up, a bot
    never connected).
    """

    FIRST_WINS = PgnResult.FIRST_WINS.value
    """Played; the first seat won."""
    DRAW = PgnResult.DRAW.value
    """Played; a draw."""
    SECOND_WINS = PgnResult.SECOND_WINS.value
    """Played; the second seat won."""
    FIRST_WINS_BY_FORFEIT = "+:-"
    """Not played: the second player forfeited, the first scores a win."""
    SECOND_WINS_BY_FORFEIT = "-:+"
    """Not played: the first player forfeited, the second scores a win."""
    DOUBLE_FORFEIT = "-:-"
    """Not played: neither player showed up; both score nothing."""

    @property
    def played(self) -> bool:
        """Whether the game was played over the board (not decided by forfeit)."""
        return self in (Outcome.FIRST_WINS, Outcome.DRAW, Outcome.SECOND_WINS)

    def points(self, seat: Player) -> float:
        """The points that ``seat`` scores: 1, 0.5 or 0.

        >>> Outcome.DRAW.points(Player.SECOND), Outcome.FIRST_WINS_BY_FORFEIT.points(Player.SECOND)
        (0.5, 0.0)
        """
        first, second = _POINTS[self]
        return first if seat == Player.FIRST else second


_POINTS: dict[Outcome, tuple[float, float]] = {
    Outcome.FIRST_WINS: (1.0, 0.0),
    Outcome.DRAW: (0.5, 0.5),
    Outcome.SECOND_WINS: (0.0, 1.0),
    Outcome.FIRST_WINS_BY_FORFEIT: (1.0, 0.0),
    Outcome.SECOND_WINS_BY_FORFEIT: (0.0, 1.0),
    Outcome.DOUBLE_FORFEIT: (0.0, 0.0),
}


def _check_round(round_number: int | None, what: str) -> None:
    if round_number is not None and round_number < 1:
        raise TournamentDataError(f"{what}: rounds are numbered from 1, not {round_number}")


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players to meet: ``first`` takes the first seat, ``second`` the other."""

    first: str
    second: str

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise TournamentDataError(f"{self.first!r} cannot be paired against themselves")


@dataclass(frozen=True, slots=True)
class Round:
    """One round to play: its number, the pairings board by board, the bye.

    ``pairings`` are in board order (board 1 first); ``bye`` is the player who
    sits out this round, or None when everyone plays.
    """

    number: int
    pairings: tuple[Pairing, ...]
    bye: str | None = None

    def __post_init__(self) -> None:
        _check_round(self.number, f"round {self.number}")
        seen: set[str] = set()
        everyone = [p for pairing in self.pairings for p in (pairing.first, pairing.second)]
        for player in [*everyone, *([self.bye] if self.bye is not None else [])]:
            if player in seen:
                raise TournamentDataError(f"{player!r} appears twice in round {self.number}")
            seen.add(player)

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone in the round, board by board, the bye last."""
        seated = tuple(p for pairing in self.pairings for p in (pairing.first, pairing.second))
        return seated if self.bye is None else (*seated, self.bye)

    def bye_result(self, points: float = DEFAULT_BYE_POINTS) -> Bye | None:
        """The :class:`Bye` to record for this round's bye, worth ``points``; None if none.

        >>> Round(3, (Pairing("ada", "bob"),), bye="cy").bye_result(points=0.5)
        Bye(player='cy', round=3, points=0.5)
        """
        return None if self.bye is None else Bye(self.bye, self.number, points)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of a tournament.

    ``first`` and ``second`` are the players in their seats, ``outcome`` how it
    ended, ``round`` the round it belonged to: optional for standings (the
    crosstable shows it when given), required in a Swiss history, which needs the
    order of the games for the colour rules.
    """

    first: str
    second: str
    outcome: Outcome
    round: int | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise TournamentDataError(f"{self.first!r} cannot play against themselves")
        _check_round(self.round, f"{self.first!r} against {self.second!r}")

    def seat_of(self, player: str) -> Player:
        """The seat ``player`` had; ValueError if they did not play this game."""
        if player == self.first:
            return Player.FIRST
        if player == self.second:
            return Player.SECOND
        raise ValueError(f"{player!r} did not play {self.first!r} against {self.second!r}")

    def opponent_of(self, player: str) -> str:
        """The other player of the game."""
        return self.second if self.seat_of(player) == Player.FIRST else self.first

    def points_of(self, player: str) -> float:
        """What ``player`` scored in this game: 1, 0.5 or 0."""
        return self.outcome.points(self.seat_of(player))


@dataclass(frozen=True, slots=True)
class Bye:
    """A round that ``player`` sat out, scored ``points`` (a win by default)."""

    player: str
    round: int | None = None
    points: float = DEFAULT_BYE_POINTS

    def __post_init__(self) -> None:
        _check_round(self.round, f"the bye of {self.player!r}")
        if self.points < 0:
            raise TournamentDataError(f"a bye scores 0 points or more, not {self.points}")


Result: TypeAlias = GameResult | Bye
"""One player's or two players' part of a finished round."""
