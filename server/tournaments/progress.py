"""One tournament as it stands: entrants, rounds paired so far, results. No I/O.

:class:`TournamentProgress` is built from what the store keeps
(:class:`~boardroom.server.store.TournamentRecord`) and changed, in memory, the way the
store is changed: a round paired, a room opened, a game started, a result, an
entrant withdrawn. From it come the next round (:meth:`~TournamentProgress.next_round`),
the results as :mod:`~boardroom.server.tournaments.standings` reads them, and whether
the tournament is over. The director (:mod:`boardroom.server.classroom.tournament_director`)
writes each change to the store first, then applies it here.

The rules it applies:

- **Round robin**: the Berger schedule of the entrants in seed order
  (:func:`~boardroom.server.tournaments.round_robin.round_robin_rounds`), fixed at the
  start. A bye there is a rest: it scores nothing and is left out of the
  standings. A withdrawn entrant's remaining games are forfeits
  (``+:-``: the opponent wins; ``-:-`` if both have withdrawn).
- **Swiss**: each round is paired from the results so far
  (:func:`~boardroom.server.tournaments.swiss.pair_swiss_round`) among the entrants who
  have not withdrawn, in seed order. A bye scores 1 point. The tournament ends
  early if fewer than two entrants remain or no round without a repeat exists.
- A round is complete when every game of it has a result; the next one is paired
  only then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from boardroom.server.store import EntrantRecord, PairingRecord, TournamentRecord
from boardroom.server.tournaments.players import (
    Bye,
    GameResult,
    Outcome,
    PairingError,
    Result,
    Round,
)
from boardroom.server.tournaments.round_robin import round_robin_rounds
from boardroom.server.tournaments.standings import (
    ROUND_ROBIN_TIE_BREAKS,
    SWISS_TIE_BREAKS,
    Standing,
    TieBreak,
    compute_standings,
)
from boardroom.server.tournaments.swiss import pair_swiss_round

__all__ = [
    "SWISS_BYE_POINTS",
    "TournamentProgress",
    "forfeit_result",
    "stored_spectator_delay",
    "stored_spectator_delay_seconds",
]

SWISS_BYE_POINTS = 1.0
"""A Swiss bye is a win, the usual club convention."""


def stored_spectator_delay(options: Mapping[str, Any]) -> int | None:
    """The spectator delay a tournament game's stored room ``options`` kept
    (:func:`boardroom.server.recorder.options_to_json`); None for a game stored
    before rooms kept one.

    >>> stored_spectator_delay({"tournament": True, "spectator_delay": 3})
    3
    >>> stored_spectator_delay({"tournament": True}) is None
    True
    """
    delay = options.get("spectator_delay")
    return delay if isinstance(delay, int) and not isinstance(delay, bool) else None


def stored_spectator_delay_seconds(options: Mapping[str, Any]) -> float | None:
    """The delay by seconds a tournament game's stored room ``options`` kept;
    None for one delayed by plies, or stored before rooms could be delayed by seconds.

    >>> stored_spectator_delay_seconds({"tournament": True, "spectator_delay_seconds": 8})
    8.0
    >>> stored_spectator_delay_seconds({"tournament": True, "spectator_delay": 3}) is None
    True
    """
    seconds = options.get("spectator_delay_seconds")
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        return float(seconds)
    return None


def forfeit_result(first_absent: bool, second_absent: bool) -> Outcome:
    """The result of a game that was not played: whoever is absent loses it.

    >>> forfeit_result(True, False).value, forfeit_result(True, True).value
    ('-:+', '-:-')
    """
    if first_absent and second_absent:
        return Outcome.DOUBLE_FORFEIT
    if first_absent:
        return Outcome.SECOND_WINS_BY_FORFEIT
    if second_absent:
        return Outcome.FIRST_WINS_BY_FORFEIT
    raise ValueError("nobody is absent: the game is to be played")


@dataclass
class TournamentProgress:
    """A tournament's state (see the module docstring). Mutable, event-loop only."""

    record: TournamentRecord
    entrants: dict[str, EntrantRecord]
    """By entrant id, in seed order."""
    byes: dict[int, str | None]
    pairings: dict[tuple[int, int], PairingRecord]
    """By (round, board), in order."""
    spectator_delay: int | None = None
    """Plies behind that its games' spectators see them, as the teacher created
    it (None: the server's ``--spectator-delay``). Not a column of its own: a
    tournament resumed after a restart takes it back from the stored options
    of one of its games (:func:`stored_spectator_delay`), or the server's if
    none had started."""
    spectator_delay_seconds: float | None = None
    """Seconds behind instead, if above 0 (None: as the server's); taken back
    after a restart as the plies are (:func:`stored_spectator_delay_seconds`)."""

    @classmethod
    def from_record(cls, record: TournamentRecord) -> TournamentProgress:
        return cls(
            record=record,
            entrants={e.entrant: e for e in record.entrants},
            byes=dict(record.byes),
            pairings={(p.round, p.board): p for p in record.pairings},
        )

    # -- reading ------------------------------------------------------------------------

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def round(self) -> int:
        """The number of the last round paired (0 before the first)."""
        return max(self.byes, default=0)

    @property
    def tie_breaks(self) -> tuple[TieBreak, ...]:
        swiss = self.record.format == "swiss"
        return SWISS_TIE_BREAKS if swiss else ROUND_ROBIN_TIE_BREAKS

    def round_pairings(self, number: int) -> list[PairingRecord]:
        """The games of round ``number``, board by board."""
        return [p for (r, _), p in self.pairings.items() if r == number]

    def undecided(self) -> list[PairingRecord]:
        """The games of the current round without a result yet."""
        return [p for p in self.round_pairings(self.round) if p.result is None]

    def pairing_in(self, room: str) -> PairingRecord | None:
        """The current round's undecided game played in ``room``, if any."""
        for pairing in self.undecided():
            if pairing.room == room:
                return pairing
        return None

    def active(self) -> list[str]:
        """The entrants who have not withdrawn, in seed order."""
        return [e for e, record in self.entrants.items() if not record.withdrawn]

    def results(self) -> list[Result]:
        """Every decided game, and the Swiss byes, with their round numbers."""
        results: list[Result] = [
            GameResult(p.first, p.second, Outcome(p.result), round=p.round)
            for p in self.pairings.values()
            if p.result is not None
        ]
        if self.record.format == "swiss":
            results += [
                Bye(bye, round=number, points=SWISS_BYE_POINTS)
                for number, bye in self.byes.items()
                if bye is not None
            ]
        return results

    def standings(self) -> list[Standing]:
        """Every entrant ranked, by points then the format's tie-breaks."""
        return compute_standings(
            self.results(), players=list(self.entrants), tie_breaks=self.tie_breaks
        )

    def next_round(self) -> Round | None:
        """The round to pair now: None while the current one is being played, and
        when the tournament is over (its rounds played, or no round can be paired)."""
        if self.undecided() or self.round >= self.record.rounds:
            return None
        if self.record.format == "round_robin":
            schedule = round_robin_rounds(list(self.entrants), double=self.record.double)
            return schedule[self.round]
        players = self.active()
        if len(players) < 2:
            return None
        try:
            return pair_swiss_round(players, self.results())
        except PairingError:
            return None

    def decided_in_advance(self, round_: Round) -> dict[int, Outcome]:
        """Results known before the round is played, by board: a withdrawn
        entrant's games (in a round robin) are forfeits."""
        known: dict[int, Outcome] = {}
        for board, pairing in enumerate(round_.pairings, start=1):
            first_out = self.entrants[pairing.first].withdrawn
            second_out = self.entrants[pairing.second].withdrawn
            if first_out or second_out:
                known[board] = forfeit_result(first_out, second_out)
        return known

    # -- changes (each after the store has it) --------------------------------------------

    def add_round(self, number: int, bye: str | None, pairings: list[PairingRecord]) -> None:
        self.byes[number] = bye
        for pairing in pairings:
            self.pairings[number, pairing.board] = pairing

    def update(self, pairing: PairingRecord, **changes: object) -> PairingRecord:
        """Replace the pairing's fields (``room``, ``starts_by``, ``game_id``, ``result``)."""
        changed = replace(pairing, **changes)  # type: ignore[arg-type]
        self.pairings[pairing.round, pairing.board] = changed
        return changed

    def withdraw(self, entrant: str) -> None:
        self.entrants[entrant] = replace(self.entrants[entrant], withdrawn=True)
