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


#: The words of each ending, with ``{name}`` (the tournament's), ``{names}``
#: (the winners') and ``{points}`` (written "2 points" in English), marked for
#: the catalogue: the browser's words.js says the same.
WINS = N_('Tournament "{name}" is over: {names} wins with {points}.')
SHARE = N_('Tournament "{name}" is over: {names} share first place with {points}.')
CANCELLED = N_("The tournament {name} was cancelled by the teacher.")


@dataclass(frozen=True)
class TournamentEnding:
    """How a tournament ended, with the values its words need."""

    kind: EndingKind
    name: str
    winners: tuple[str, ...] = ()
    points: float | None = None

    @classmethod
    def over(cls, name: str, winners: Sequence[str], points: float) -> TournamentEnding:
        return cls(EndingKind.OVER, name, tuple(winners), points)

    @classmethod
    def cancelled(cls, name: str) -> TournamentEnding:
        return cls(EndingKind.CANCELLED, name)

    def english(self) -> str:
        """The English words (the ``announcement``'s ``text``)."""
        if self.kind == EndingKind.CANCELLED:
            return CANCELLED.format(name=self.name)
        points = self.points or 0.0
        written = f"{points:g} point{'' if points == 1 else 's'}"
        words = WINS if len(self.winners) == 1 else SHARE
        return words.format(name=self.name, names=" and ".join(self.winners), points=written)
