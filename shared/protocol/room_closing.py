"""Why a room was closed, as a code: ``room_closed``'s ``kind`` and ``names``.

The server sends the code and the names it needs; each client words them in its
reader's language. The server also sends the same words in English (``reason``,
made here by :meth:`Closing.english`) for clients that do not know a code (older
clients, bots): so that English never differs from what the codes say.

>>> Closing.no_show(absent="Dora", winner="Ada").english()
'Dora did not sit down in time: Ada wins by forfeit'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from boardroom.shared.i18n import N_


class ClosedKind(StrEnum):
    """Why a room was closed (``room_closed``'s ``kind``), with the ``names`` each
    code comes with."""

    TEACHER = "teacher"
    """The teacher closed it (no names)."""
    NO_SHOW = "no_show"
    """A tournament game: ``absent`` did not sit down in time, ``winner`` wins by forfeit."""
    DOUBLE_NO_SHOW = "double_no_show"
    """A tournament game: neither player sat down in time, both lose (no names)."""
    REMOVED = "removed"
    """A tournament game: ``absent`` was removed from the class, ``winner`` wins by forfeit."""
    TOURNAMENT_CANCELLED = "tournament_cancelled"
    """The teacher cancelled the tournament named ``tournament``."""
    STORAGE_LOST = "storage_lost"
    """The server could not save its game for longer than its outage limit: the
    game ended with no result (no names). A tournament plays it again from the start."""


#: The English words of each code (the wire's ``reason``), with the names as
#: ``{placeholders}``. Marked for the catalogue: the Python clients word a code
#: with ``_(ENGLISH[kind], **names)``; the browser has its twin in words.js.
ENGLISH: Mapping[ClosedKind, str] = {
    ClosedKind.TEACHER: N_("closed by the teacher"),
    ClosedKind.NO_SHOW: N_("{absent} did not sit down in time: {winner} wins by forfeit"),
    ClosedKind.DOUBLE_NO_SHOW: N_("neither player sat down in time: both lose by forfeit"),
    ClosedKind.REMOVED: N_("{absent} was removed from the class: {winner} wins by forfeit"),
    ClosedKind.TOURNAMENT_CANCELLED: N_("the teacher cancelled the tournament {tournament}"),
    ClosedKind.STORAGE_LOST: N_("the server could not save its game for too long"),
}


@dataclass(frozen=True)
class Closing:
    """Why a room is closed: a code and the names its words need."""

    kind: ClosedKind
    names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def teacher(cls) -> Closing:
        return cls(ClosedKind.TEACHER)

    @classmethod
    def no_show(cls, *, absent: str, winner: str) -> Closing:
        return cls(ClosedKind.NO_SHOW, {"absent": absent, "winner": winner})

    @classmethod
    def double_no_show(cls) -> Closing:
        return cls(ClosedKind.DOUBLE_NO_SHOW)

    @classmethod
    def removed(cls, *, absent: str, winner: str) -> Closing:
        return cls(ClosedKind.REMOVED, {"absent": absent, "winner": winner})

    @classmethod
    def tournament_cancelled(cls, tournament: str) -> Closing:
        return cls(ClosedKind.TOURNAMENT_CANCELLED, {"tournament": tournament})

    @classmethod
    def storage_lost(cls) -> Closing:
        return cls(ClosedKind.STORAGE_LOST)

    def english(self) -> str:
        """The English words (``room_closed``'s ``reason``)."""
        return ENGLISH[self.kind].format_map(self.names)
