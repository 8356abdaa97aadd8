"""What both stores (SQLite's :class:`boardroom.server.store.GameStore` and
:class:`boardroom.server.store.postgres.PostgresGameStore`) give back, and how each makes it
of the rows its database returns: the records, and one decoder per kind of row.

Both databases hold the same tables with the same columns (integers for the 0/1
flags, text for JSON), and both drivers give a row as a sequence of plain Python
values, so one decoder serves both: a column read in one order by both stores'
queries is decoded here, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardroom.server.core.players import PlayerId, PlayerRecord
from boardroom.server.core.records import (
    GameRecord,
    GameState,
    MoveRecord,
    PgnResult,
    PlayerKind,
    SeatRecord,
    Termination,
)
from boardroom.server.store.errors import UnreadableRecordError
from boardroom.shared.games import Player

__all__ = [
    "GAME_COLUMNS",
    "PLAYER_COLUMNS",
    "STUDENT_COLUMNS",
    "TOURNAMENT_COLUMNS",
    "EntrantRecord",
    "PairingRecord",
    "Row",
    "StoreInfo",
    "StudentRecord",
    "StudentResults",
    "TournamentRecord",
    "complete_reviews",
    "game_records",
    "player_record",
    "rated_game",
    "student_record",
    "tournament_records",
]

Row = Sequence[Any]


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """How the open database is set up, read back from it (for logs and checks)."""

    path: str
    """The SQLite file, or the PostgreSQL URL without its password."""
    schema_version: int
    journal_mode: str
    """``"wal"``: SQLite's journal mode, which the store sets; PostgreSQL always
    writes ahead (its WAL), and its store says ``"wal"`` too."""
    synchronous: str
    """``"FULL"`` on SQLite: every commit is synced to disk before it returns.
    PostgreSQL's ``synchronous_commit`` (``"on"``, or ``"local"``,
    ``"remote_write"``, ``"remote_apply"``; never ``"off"``: the store refuses it)."""


# -- class mode -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StudentRecord:
    """One student of a class (class mode): a durable player of the class. ``id``
    is public: the teacher's API names the student by it. ``player`` is the
    player's id (its seats are the student's games); ``kind`` is
    :attr:`~PlayerKind.HUMAN` or :attr:`~PlayerKind.BOT`; ``first_seen`` Unix
    seconds. ``merged_into`` is the id of the student this entry was merged into
    (a teacher said they are one person; the entry is off the roster, its games
    count for that student); None for a student on the roster or removed.
    ``session`` is the session whose hello made the entry (None for a class
    account the teacher made): a client of protocol version 1, which keeps no
    player token, is known by it alone after a restart. Private, so left out of
    ``repr``."""

    id: str
    class_name: str
    player: PlayerId
    name: str
    kind: PlayerKind
    first_seen: float
    removed: bool = False
    merged_into: str | None = None
    session: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class ClassCodeRecord:
    """A student's short class code as the store keeps it: never the code itself
    (:mod:`boardroom.server.classroom.class_codes`). ``lookup`` finds it (64 hex digits, a
    slow hash of the code), ``sealed`` is the student's player token encrypted
    under a key derived from the code (hex). One code per student."""

    student: str
    lookup: str
    sealed: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class StudentResults:
    """A student's finished games in their class: ``played`` counts them all, so
    ``played - won - drawn - lost`` ended with no result (aborted, or both gone)."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


# -- tournaments ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """One entrant of a tournament: ``entrant`` is ``student:<id>`` or ``ai:<level>``;
    ``name`` and ``kind`` (human, bot or ai) as they were when it was made."""

    entrant: str
    name: str
    kind: PlayerKind
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """One game of a tournament round: ``first`` and ``second`` are entrants;
    ``room`` and ``starts_by`` (the no-show deadline, Unix seconds) once its room
    opened, ``game_id`` once its game started, ``result`` once decided (the
    notation of :class:`boardroom.server.tournaments.players.Outcome`)."""

    round: int
    board: int
    first: str
    second: str
    room: str | None = None
    game_id: int | None = None
    starts_by: float | None = None
    result: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament as stored. ``clock`` is the protocol's ``Clock`` as a JSON
    object; ``entrants`` are in seed order; ``byes`` has one entry per round
    paired so far (the entrant sitting it out, or None); ``pairings`` are in
    round then board order."""

    id: int
    class_name: str
    name: str
    game: str
    format: str
    rounds: int
    double: bool
    clock: dict[str, Any]
    no_show_seconds: float
    status: str
    created_at: float
    finished_at: float | None
    entrants: tuple[EntrantRecord, ...]
    byes: dict[int, str | None]
    pairings: tuple[PairingRecord, ...]
    hints: bool = False
    """Whether its games allow hints (``POST /api/admin/tournaments`` with ``hints``)."""
    autopilot: str = "off"
    """The engine level that plays a dropped player's seat in its games, or
    ``off`` (abandonment, as before tournaments had one)."""


# -- decoders: the columns each reads, in the order both stores select them ------------

GAME_COLUMNS = (
    "g.id, g.room, g.game, g.options, g.state, g.winner, g.termination,"
    " g.created_at, g.started_at, g.finished_at, g.number"
)
"""The ``games g`` columns :func:`game_records` reads (seats: ``game_id, side,
name, kind, ai_level, session, player``; moves: ``game_id, ply, move, at, clock_ms, autopilot``)."""


def game_records(
    games: Iterable[Row], seats: Iterable[Row], moves: Iterable[Row]
) -> list[GameRecord]:
    """Whole records of the ``games`` rows (:data:`GAME_COLUMNS`), in their order,
    with their seats and their moves (by game, moves in ply order)."""
    seated: dict[int, list[SeatRecord | None]] = {}
    for game_id, side, name, kind, ai_level, session, player in seats:
        seat = SeatRecord(name, PlayerKind(kind), ai_level, session, player)
        seated.setdefault(game_id, [None, None])[side] = seat
    played: dict[int, list[MoveRecord]] = {}
    for game_id, ply, move, at, clock_ms, autopilot in moves:
        played.setdefault(game_id, []).append(
            MoveRecord(ply, move, at, clock_ms, autopilot=bool(autopilot))
        )
    records = []
    for row in games:
        game_id = row[0]
        first, second = seated.get(game_id, (None, None))
        records.append(
            GameRecord(
                id=game_id,
                room=row[1],
                number=row[10],
                game=row[2],
                options=json.loads(row[3]),
                seats=(first, second),
                moves=tuple(played.get(game_id, ())),
                state=GameState(row[4]),
                winner=None if row[5] is None else Player.numbered(row[5]),
                termination=_termination(game_id, row[6]),
                created_at=row[7],
                started_at=row[8],
                finished_at=row[9],
            )
        )
    return records


def _termination(game_id: int, value: str | None) -> Termination | None:
    """The ending stored for a game; the schema takes any non-empty text (the code
    owns the list), so one this code does not know is refused by name."""
    if value is None:
        return None
    try:
        return Termination(value)
    except ValueError:
        raise UnreadableRecordError(
            f"game {game_id} ended by {value!r}, an ending this Boardroom does not know "
            "(a newer one stored it): upgrade Boardroom to read it"
        ) from None


PLAYER_COLUMNS = (
    "id, name, kind, created_at, last_seen, revoked_at, token_hash IS NOT NULL, merged_into"
)


def player_record(row: Row) -> PlayerRecord:
    """A player of a row of :data:`PLAYER_COLUMNS`."""
    return PlayerRecord(
        id=PlayerId(row[0]),
        name=row[1],
        kind=PlayerKind(row[2]),
        created_at=row[3],
        last_seen=row[4],
        revoked_at=row[5],
        has_token=bool(row[6]),
        merged_into=None if row[7] is None else PlayerId(row[7]),
    )


STUDENT_COLUMNS = "id, class, player, name, kind, first_seen, removed, merged_into, session"


def student_record(row: Row) -> StudentRecord:
    """A student of a row of :data:`STUDENT_COLUMNS`."""
    return StudentRecord(
        id=row[0],
        class_name=row[1],
        player=PlayerId(row[2]),
        name=row[3],
        kind=PlayerKind(row[4]),
        first_seen=row[5],
        removed=bool(row[6]),
        merged_into=row[7],
        session=row[8],
    )


TOURNAMENT_COLUMNS = (
    "id, class, name, game, format, rounds, double, clock, no_show_seconds,"
    " status, created_at, finished_at, hints, autopilot"
)
"""The ``tournaments`` columns :func:`tournament_records` reads (entrants:
``tournament_id, entrant, name, kind, withdrawn`` in seed order; rounds:
``tournament_id, round, bye``; pairings: ``tournament_id, round, board, first,
second, room, game_id, starts_by, result`` in round then board order)."""


def tournament_records(
    tournaments: Iterable[Row],
    entrants: Iterable[Row],
    rounds: Iterable[Row],
    pairings: Iterable[Row],
) -> list[TournamentRecord]:
    """Whole records of the ``tournaments`` rows (:data:`TOURNAMENT_COLUMNS`), in their order."""
    entered: dict[int, list[EntrantRecord]] = {}
    for tournament_id, entrant, name, kind, withdrawn in entrants:
        record = EntrantRecord(entrant, name, PlayerKind(kind), bool(withdrawn))
        entered.setdefault(tournament_id, []).append(record)
    byes: dict[int, dict[int, str | None]] = {}
    for tournament_id, number, bye in rounds:
        byes.setdefault(tournament_id, {})[number] = bye
    paired: dict[int, list[PairingRecord]] = {}
    for tournament_id, *row in pairings:
        paired.setdefault(tournament_id, []).append(PairingRecord(*row))
    return [
        TournamentRecord(
            id=row[0],
            class_name=row[1],
            name=row[2],
            game=row[3],
            format=row[4],
            rounds=row[5],
            double=bool(row[6]),
            clock=json.loads(row[7]),
            no_show_seconds=row[8],
            status=row[9],
            created_at=row[10],
            finished_at=row[11],
            entrants=tuple(entered.get(row[0], ())),
            byes=byes.get(row[0], {}),
            pairings=tuple(paired.get(row[0], ())),
            hints=bool(row[12]),
            autopilot=row[13],
        )
        for row in tournaments
    ]


# -- ratings and analyses ---------------------------------------------------------------

RATED_COLUMNS = (
    "g.game, g.winner, g.finished_at,"
    " a.name, a.kind, a.ai_level, a.session, a.player,"
    " b.name, b.kind, b.ai_level, b.session, b.player"
)
"""The columns :func:`rated_game` reads, of ``games g`` and its seats ``a`` (first) and ``b``."""

_RESULTS = {
    0: PgnResult.FIRST_WINS.value,
    1: PgnResult.SECOND_WINS.value,
    None: PgnResult.DRAW.value,
}
"""By the winner's side as stored; the ratings' query keeps only wins and draws."""

DRAWS = tuple(termination.value for termination in Termination if termination.is_draw)
"""The terminations that end a game in a draw, as stored."""


def rated_game(row: Row) -> tuple[str, SeatRecord, SeatRecord, str, float]:
    """A game the ratings replay, of a row of :data:`RATED_COLUMNS`."""
    game, winner, finished_at, *seats = row
    return (
        game,
        SeatRecord(seats[0], PlayerKind(seats[1]), seats[2], seats[3], seats[4]),
        SeatRecord(seats[5], PlayerKind(seats[6]), seats[7], seats[8], seats[9]),
        _RESULTS[winner],
        finished_at,
    )


def complete_reviews(rows: Iterable[Row], done: bool) -> tuple[list[str], bool]:
    """The stored reviews of a game up to the first gap, of its ``(ply, review)``
    rows in ply order, and whether its analysis is complete (marked ``done`` and
    no gap): what follows a gap is redone."""
    stored = list(rows)
    reviews = []
    for expected, (ply, review) in enumerate(stored):
        if ply != expected:
            break
        reviews.append(review)
    return reviews, done and len(reviews) == len(stored)
