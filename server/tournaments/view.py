"""A tournament as the HTTP API shows it (``docs/operations.md``, "Tournaments").

:func:`tournament_view` lays a :class:`~boardroom.server.tournaments.progress.TournamentProgress`
out as the ``TOURNAMENT`` object of the API: settings, players, standings in
rank order, every round paired so far with its games, and the crosstable. Pure:
the names to show come from the caller (a student's roster name may have changed),
and so does who has sat down in the rooms still waiting for their players.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime

import msgspec

from boardroom.server.store import PairingRecord
from boardroom.server.tournaments.progress import TournamentProgress
from boardroom.server.tournaments.standings import crosstable
from boardroom.shared.games import get_game
from boardroom.shared.protocol.messages import Clock

__all__ = ["Seated", "TournamentView", "tournament_view"]


class PlayerLine(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str


class StandingLine(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    name: str
    rank: int
    place: str
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    forfeit_wins: int
    forfeit_losses: int
    byes: int
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float


class Seated(msgspec.Struct, frozen=True, kw_only=True):
    """Who has sat down so far in a room waiting for its game to start."""

    first: bool
    second: bool


class GameLine(msgspec.Struct, frozen=True, kw_only=True):
    board: int
    first: str
    second: str
    room: str | None
    game_id: int | None
    result: str | None
    starts_by: float | None
    """The no-show deadline (Unix seconds) while the room waits for its players."""
    seated: Seated | None
    """Who has sat down, while the room waits for its players."""


class RoundLine(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    bye: str | None
    games: list[GameLine]


class CrosstableRow(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    cells: dict[str, str]
    points: float


class TournamentView(msgspec.Struct, frozen=True, kw_only=True):
    """``TOURNAMENT`` in the API."""

    id: int
    name: str
    game: str
    title: str
    format: str
    status: str
    round: int
    rounds: int
    clock: Clock | None
    no_show_seconds: float
    autopilot: str
    """The engine level that plays a dropped player's seat in its games, or
    ``off`` (the game is lost by abandonment)."""
    created_at: str
    players: list[PlayerLine]
    tie_breaks: list[str]
    standings: list[StandingLine]
    rounds_played: list[RoundLine]
    crosstable: list[CrosstableRow]


def tournament_view(
    progress: TournamentProgress,
    name_of: Callable[[str], str],
    waiting: Mapping[str, Seated] | None = None,
) -> TournamentView:
    """``progress`` as the API shows it; ``name_of(entrant)`` is the name to show.
    ``waiting`` holds the rooms open whose game has not started, by room code,
    with who has sat down in each: an undecided game there shows its
    ``starts_by`` and ``seated``; any other game shows them null."""
    waiting = waiting or {}
    record = progress.record
    standings = progress.standings()
    order = [s.player for s in standings]
    table = crosstable(progress.results(), order)
    clock = msgspec.convert(record.clock, Clock)
    return TournamentView(
        id=record.id,
        name=record.name,
        game=record.game,
        title=get_game(record.game).title,
        format=record.format,
        status=record.status,
        round=progress.round,
        rounds=record.rounds,
        clock=None if clock.kind == "none" else clock,
        no_show_seconds=record.no_show_seconds,
        autopilot=record.autopilot,
        created_at=_iso(record.created_at),
        players=[
            PlayerLine(id=e.entrant, name=name_of(e.entrant), kind=e.kind.value)
            for e in progress.entrants.values()
        ],
        tie_breaks=[t.value for t in progress.tie_breaks],
        standings=[
            StandingLine(
                player=s.player,
                name=name_of(s.player),
                rank=s.rank,
                place=s.place,
                points=s.points,
                played=s.games_played,
                wins=s.wins,
                draws=s.draws,
                losses=s.losses,
                forfeit_wins=s.forfeit_wins,
                forfeit_losses=s.forfeit_losses,
                byes=s.byes,
                buchholz=s.buchholz,
                buchholz_cut1=s.buchholz_cut1,
                sonneborn_berger=s.sonneborn_berger,
            )
            for s in standings
        ],
        rounds_played=[
            RoundLine(
                round=number,
                bye=bye,
                games=[_game_line(p, waiting) for p in progress.round_pairings(number)],
            )
            for number, bye in sorted(progress.byes.items())
        ],
        crosstable=[
            CrosstableRow(
                player=row,
                cells={
                    column: "".join(m.symbol for m in table.cell(row, column))
                    for column in order
                    if table.cell(row, column)
                },
                points=table.points[row],
            )
            for row in order
        ],
    )


def _game_line(pairing: PairingRecord, waiting: Mapping[str, Seated]) -> GameLine:
    seated = None
    if pairing.result is None and pairing.room is not None:
        seated = waiting.get(pairing.room)
    return GameLine(
        board=pairing.board,
        first=pairing.first,
        second=pairing.second,
        room=pairing.room,
        game_id=pairing.game_id,
        result=pairing.result,
        starts_by=pairing.starts_by if seated is not None else None,
        seated=seated,
    )


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
