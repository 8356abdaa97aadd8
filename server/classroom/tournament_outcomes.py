"""What the end of a tournament game means for the tournament: pure functions.

Contract: :func:`outcome_of` turns how a game ended into its tournament result
(a winner ``1-0`` or ``0-1``, a full board or an agreed draw ``1/2-1/2``, a game
that ended with no result, ``aborted`` or abandoned without a winner, ``-:-``:
neither played it out); :func:`no_show_reason` says why a room closed for a
no-show. No I/O; the director (:mod:`boardroom.server.classroom.tournament_director`)
calls them and re-exports the first two.
"""

from __future__ import annotations

from collections.abc import Mapping

from boardroom.server.core.records import GameRecord, Termination
from boardroom.server.tournaments.players import Outcome
from boardroom.shared.games import Player
from boardroom.shared.protocol.room_closing import Closing

__all__ = ["no_show_reason", "outcome_of", "outcome_of_record"]


def outcome_of(winner: Player | None, reason: Termination) -> Outcome:
    """A tournament game's result from how its game ended (see the module docstring).

    >>> outcome_of(Player.SECOND, Termination.RESIGNATION).value
    '0-1'
    >>> outcome_of(None, Termination.AGREEMENT).value, outcome_of(None, Termination.ABORTED).value
    ('1/2-1/2', '-:-')
    """
    if winner is not None:
        return Outcome.FIRST_WINS if winner == Player.FIRST else Outcome.SECOND_WINS
    return Outcome.DRAW if reason.is_draw else Outcome.DOUBLE_FORFEIT


def outcome_of_record(record: GameRecord) -> Outcome:
    """A stored game's tournament result (one that ended before a restart)."""
    winner: Player | None = None
    if record.winner is not None:
        winner = record.winner
    return outcome_of(winner, record.termination or Termination.ABORTED)


def no_show_reason(first: str, second: str, seated: Mapping[str, bool]) -> Closing:
    """What a tournament room closed for a no-show tells its members: who did
    not sit down in time and who wins by forfeit. ``first`` and ``second`` are
    the players' names, ``seated`` who sat by side (one side at least is empty).

    >>> no_show_reason("Ada", "Dora", {Player.FIRST: True, Player.SECOND: False}).english()
    'Dora did not sit down in time: Ada wins by forfeit'
    >>> no_show_reason("Ada", "Dora", {Player.FIRST: False, Player.SECOND: False}).english()
    'neither player sat down in time: both lose by forfeit'
    """
    if not seated[Player.FIRST] and not seated[Player.SECOND]:
        return Closing.double_no_show()
    absent, winner = (first, second) if not seated[Player.FIRST] else (second, first)
    return Closing.no_show(absent=absent, winner=winner)
