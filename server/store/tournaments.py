"""What a class's tournaments (:mod:`server.tournaments`) keep: four tables beside
the games. The tournaments, their entrants (in seed order), their rounds (with
the bye) and every pairing with its room, game and result
(:class:`TournamentRecord`); a result, once stored, never changes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.core.records import PlayerKind
from server.store.base import StoreBase
from server.store.checks import check_time, options_json
from server.store.errors import InvalidRecordError, TournamentNotFoundError

__all__ = ["EntrantRecord", "PairingRecord", "TournamentRecord", "TournamentStorage"]


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
    notation of :class:`server.tournaments.players.Outcome`)."""

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


class TournamentStorage(StoreBase):
    """A class's tournaments: created with their entrants, paired round by round,
    each pairing updated until its result, ended; read back whole."""

    async def create_tournament(
        self,
        *,
        class_name: str,
        name: str,
        game: str,
        format: str,
        rounds: int,
        double: bool,
        clock: Mapping[str, Any],
        no_show_seconds: float,
        entrants: Sequence[EntrantRecord],
        at: float,
        hints: bool = False,
    ) -> TournamentRecord:
        """Store a new running tournament and its entrants (in seed order); the
        record stored (no round yet). Raises :class:`InvalidRecordError` for values
        the schema refuses, another tournament of the class running included."""
        clock_text = options_json(clock)
        created_at = check_time("at", at)
        rows = [(seed, e.entrant, e.name, e.kind.value) for seed, e in enumerate(entrants, start=1)]

        def body(db: sqlite3.Connection) -> int:
            try:
                cursor = db.execute(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        class_name,
                        name,
                        game,
                        format,
                        rounds,
                        int(double),
                        clock_text,
                        no_show_seconds,
                        created_at,
                        int(hints),
                    ),
                )
                tournament_id = cursor.lastrowid
                assert tournament_id is not None
                db.executemany(
                    "INSERT INTO tournament_entrants (tournament_id, seed, entrant, name, kind)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(tournament_id, *row) for row in rows],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"tournament {name!r} does not store: {error}") from error
            return tournament_id

        tournament_id = await self._transaction(
            body, write=True, what=f"creating tournament {name!r}"
        )
        return TournamentRecord(
            id=tournament_id,
            class_name=class_name,
            name=name,
            game=game,
            format=format,
            rounds=rounds,
            double=double,
            clock=dict(clock),
            no_show_seconds=no_show_seconds,
            status="running",
            created_at=created_at,
            finished_at=None,
            entrants=tuple(entrants),
            byes={},
            hints=hints,
            pairings=(),
        )

    async def open_round(
        self,
        tournament_id: int,
        number: int,
        bye: str | None,
        pairings: Sequence[PairingRecord],
        at: float,
    ) -> None:
        """Store round ``number`` of the tournament: its bye and its pairings (some
        may carry a result already: games decided without being played)."""
        opened_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES (?, ?, ?, ?)",
                    (tournament_id, number, bye, opened_at),
                )
                db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            tournament_id,
                            number,
                            p.board,
                            p.first,
                            p.second,
                            p.room,
                            p.game_id,
                            p.starts_by,
                            p.result,
                        )
                        for p in pairings
                    ],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(
                    f"round {number} of tournament {tournament_id} does not store: {error}"
                ) from error

        await self._transaction(body, write=True, what=f"pairing round {number}")

    async def update_pairing(
        self,
        tournament_id: int,
        number: int,
        board: int,
        *,
        room: str | None = None,
        starts_by: float | None = None,
        game_id: int | None = None,
        result: str | None = None,
    ) -> None:
        """Set what is given of one pairing. A pairing with a result is final:
        :class:`InvalidRecordError` (as for values the schema refuses)."""
        changes: dict[str, object] = {}
        if room is not None:
            changes["room"] = room
        if starts_by is not None:
            changes["starts_by"] = check_time("starts_by", starts_by)
        if game_id is not None:
            changes["game_id"] = game_id
        if result is not None:
            changes["result"] = result
        # Column names from the fixed keys above only: no outside text reaches the SQL.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = ? AND round = ? AND board = ?",
                    (*changes.values(), tournament_id, number, board),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"board {board} of round {number}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        if changes:
            await self._transaction(body, write=True, what=f"updating board {board}")

    async def withdraw_entrant(self, tournament_id: int, entrant: str) -> None:
        """Mark the entrant withdrawn (a student removed from the class)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = ? AND entrant = ?",
                (tournament_id, entrant),
            )

        await self._transaction(body, write=True, what=f"withdrawing {entrant}")

    async def end_tournament(self, tournament_id: int, status: str, at: float) -> None:
        """Mark a running tournament ``finished`` or ``cancelled`` at ``at``."""
        ended_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    "UPDATE tournaments SET status = ?, finished_at = ?"
                    " WHERE id = ? AND status = 'running'",
                    (status, ended_at, tournament_id),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"status {status!r}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        await self._transaction(body, write=True, what=f"ending tournament {tournament_id}")

    async def tournaments(self, class_name: str) -> list[TournamentRecord]:
        """Every tournament of ``class_name``, whole, newest first."""

        def body(db: sqlite3.Connection) -> list[TournamentRecord]:
            return _load_tournaments(db, class_name)

        return await self._transaction(body, write=False, what="reading the tournaments")


def _load_tournaments(db: sqlite3.Connection, class_name: str) -> list[TournamentRecord]:
    entrants: dict[int, list[EntrantRecord]] = {}
    for tournament_id, entrant, name, kind, withdrawn in db.execute(
        "SELECT e.tournament_id, e.entrant, e.name, e.kind, e.withdrawn"
        " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE t.class = ? ORDER BY e.tournament_id, e.seed",
        (class_name,),
    ):
        record = EntrantRecord(entrant, name, PlayerKind(kind), bool(withdrawn))
        entrants.setdefault(tournament_id, []).append(record)
    byes: dict[int, dict[int, str | None]] = {}
    for tournament_id, number, bye in db.execute(
        "SELECT r.tournament_id, r.round, r.bye FROM tournament_rounds r"
        " JOIN tournaments t ON t.id = r.tournament_id WHERE t.class = ? ORDER BY r.round",
        (class_name,),
    ):
        byes.setdefault(tournament_id, {})[number] = bye
    pairings: dict[int, list[PairingRecord]] = {}
    for tournament_id, *row in db.execute(
        "SELECT g.tournament_id, g.round, g.board, g.first, g.second, g.room, g.game_id,"
        " g.starts_by, g.result FROM tournament_games g"
        " JOIN tournaments t ON t.id = g.tournament_id WHERE t.class = ?"
        " ORDER BY g.round, g.board",
        (class_name,),
    ):
        pairings.setdefault(tournament_id, []).append(PairingRecord(*row))
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
            entrants=tuple(entrants.get(row[0], ())),
            byes=byes.get(row[0], {}),
            pairings=tuple(pairings.get(row[0], ())),
            hints=bool(row[12]),
        )
        for row in db.execute(
            "SELECT id, class, name, game, format, rounds, double, clock, no_show_seconds,"
            " status, created_at, finished_at, hints FROM tournaments WHERE class = ?"
            " ORDER BY id DESC",
            (class_name,),
        )
    ]
