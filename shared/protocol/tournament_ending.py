"""A tournament's end or cancel, as a code: the server's own ``announcement``'s
``kind``, with ``tournament_name``, ``winners`` and ``points`` for its words.

The server sends the code and its values, and the same words in English
(``text``, made here by :meth:`TournamentEnding.english`) for clients that do
not know a code; each client words the code in its reader's language.

>>> TournamentEnding.over("Cup", ["Ann"], 2.0).english()
'Tournament "Cup" is over: Ann wins with 2 points.'
>>> TournamentEnding.over("Cup", ["Ann", "Bob"], 1.5).english()
'Tournament "Cup" is over: Ann and Bob share first place with 1.5 points.'
>>> TournamentEnding.cancelled("Cup").english()
'The tournament Cup was cancelled by the teacher.'

Two more say that a tournament stands still, and goes on, while the server
cannot save its results (the database is down): not an end, the same channel.

>>> TournamentEnding.paused("Cup").english()[:66]
'The tournament Cup is paused: the server cannot save its results. '

And one that a game is played again, its room lost to the database:

>>> TournamentEnding.replayed("Cup", 2, "Ann", "Bob").english()[:73]
'Round 2 of the tournament Cup: Ann and Bob play their game again from the'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from boardroom.shared.i18n import N_


class EndingKind(StrEnum):
    """How a tournament ended (the server's ``announcement``'s ``kind``)."""

    OVER = "tournament_over"
    """Its last round is over: ``winners`` (the first place, one or more) with ``points``."""
    CANCELLED = "tournament_cancelled"
    """The teacher cancelled it."""
    PAUSED = "tournament_paused"
    """Not an end: the server has not been able to save its results for
    ``storage_outage_limit`` seconds; it goes on by itself once it can."""
    RESUMED = "tournament_resumed"
    """Not an end: after a ``tournament_paused``, its results are saved again."""
    REPLAYED = "tournament_game_replayed"
    """Not an end: the game of ``players`` (first, second) in round ``round`` was
    lost to the database (its room closed with ``storage_lost``): it is played
    again from the start, and nobody loses it by forfeit."""


#: The words of each ending, with ``{name}`` (the tournament's), ``{names}``
#: (the winners') and ``{points}`` (written "2 points" in English), marked for
#: the catalogue: the browser's words.js says the same.
WINS = N_('Tournament "{name}" is over: {names} wins with {points}.')
SHARE = N_('Tournament "{name}" is over: {names} share first place with {points}.')
CANCELLED = N_("The tournament {name} was cancelled by the teacher.")
PAUSED = N_(
    "The tournament {name} is paused: the server cannot save its results. "
    "It goes on by itself once it can."
)
RESUMED = N_("The tournament {name} goes on: its results are saved again.")
REPLAYED = N_(
    "Round {round} of the tournament {name}: {first} and {second} play their game again "
    "from the start, because the server could not save it. Nobody loses it by forfeit."
)


@dataclass(frozen=True)
class TournamentEnding:
    """How a tournament ended, with the values its words need."""

    kind: EndingKind
    name: str
    winners: tuple[str, ...] = ()
    points: float | None = None
    round: int | None = None
    """The round of a game played again (``tournament_game_replayed``)."""
    players: tuple[str, ...] = ()
    """The two players (first, second) of a game played again."""

    @classmethod
    def over(cls, name: str, winners: Sequence[str], points: float) -> TournamentEnding:
        return cls(EndingKind.OVER, name, tuple(winners), points)

    @classmethod
    def cancelled(cls, name: str) -> TournamentEnding:
        return cls(EndingKind.CANCELLED, name)

    @classmethod
    def paused(cls, name: str) -> TournamentEnding:
        return cls(EndingKind.PAUSED, name)

    @classmethod
    def resumed(cls, name: str) -> TournamentEnding:
        return cls(EndingKind.RESUMED, name)

    @classmethod
    def replayed(cls, name: str, round_: int, first: str, second: str) -> TournamentEnding:
        return cls(EndingKind.REPLAYED, name, round=round_, players=(first, second))

    def english(self) -> str:
        """The English words (the ``announcement``'s ``text``)."""
        if self.kind is EndingKind.REPLAYED:
            first, second = self.players
            return REPLAYED.format(name=self.name, round=self.round, first=first, second=second)
        if self.kind in _PLAIN:
            return _PLAIN[self.kind].format(name=self.name)
        points = self.points or 0.0
        written = f"{points:g} point{'' if points == 1 else 's'}"
        words = WINS if len(self.winners) == 1 else SHARE
        return words.format(name=self.name, names=" and ".join(self.winners), points=written)


_PLAIN = {EndingKind.CANCELLED: CANCELLED, EndingKind.PAUSED: PAUSED, EndingKind.RESUMED: RESUMED}
"""The kinds whose words need the tournament's name only."""
