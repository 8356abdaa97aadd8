"""What class mode keeps, on PostgreSQL: settings and students, a class's results
and games (the contracts of :mod:`server.store.classroom`, the same checks and records)."""

from __future__ import annotations

from collections.abc import Sequence

from server.core.players import PlayerRecord
from server.core.records import GameRecord, PlayerKind
from server.store.checks import (
    class_code_row,
    class_codes_of,
    enrolment,
    student_changes,
    student_not_new,
    student_row,
)
from server.store.errors import ClassCodeTakenError, InvalidRecordError, StudentNotFoundError
from server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from server.store.postgres.games import load_games
from server.store.postgres.players import insert_player
from server.store.rows import (
    STUDENT_COLUMNS,
    ClassCodeRecord,
    StudentRecord,
    StudentResults,
    student_record,
)

__all__ = ["PostgresClassroom"]

# The games of a class (as server.store.classroom's): a fixed clause for load_games.
_OF_CLASS = (
    "g.id IN (SELECT s.game_id FROM seats s JOIN students st"
    " ON st.player = s.player WHERE st.class = $1)"
)


class PostgresClassroom(PostgresBase):
    """Class mode's settings and students, and a class's results and games."""

    async def setting(self, key: str, default: str) -> str:
        """The setting ``key``, stored as ``default`` first if it has none: one
        transaction, so the first value stored is the one every later call reads."""
        if not key or not isinstance(default, str):
            raise InvalidRecordError(f"a setting needs a key and a text value, not {key!r}")

        async def body(db: Connection) -> str:
            await db.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                key,
                default,
            )
            value: str = await db.fetchval("SELECT value FROM settings WHERE key = $1", key)
            return value

        return await self._transaction(body, write=True, what=f"reading the setting {key}")

    async def add_student(self, student: StudentRecord) -> None:
        """Store a new student (:meth:`server.store.GameStore.add_student`)."""
        row = student_row(student)

        async def body(db: Connection) -> None:
            await _insert_student(db, row)

        await self._transaction(body, write=True, what=f"adding student {student.id}")

    async def enrol(
        self,
        accounts: Sequence[tuple[PlayerRecord, str, StudentRecord]],
        codes: Sequence[ClassCodeRecord] = (),
    ) -> None:
        """Store new players and make each a student, with their class codes, all
        in one transaction, or none (:meth:`server.store.GameStore.enrol`)."""
        rows = enrolment(accounts)
        code_rows = class_codes_of([student for _, _, student in accounts], codes)

        async def body(db: Connection) -> None:
            for player, student in rows:
                await insert_player(db, player)
                await _insert_student(db, student)
            for row in code_rows:
                await _insert_code(db, row)

        await self._transaction(body, write=True, what=f"enrolling {len(rows)} students")

    async def set_class_code(self, code: ClassCodeRecord) -> None:
        """Give the student this class code in place of the one they had
        (:meth:`server.store.GameStore.set_class_code`)."""
        row = class_code_row(code)

        async def body(db: Connection) -> None:
            found = await db.fetchval(
                "SELECT 1 FROM students WHERE id = $1 FOR UPDATE", code.student
            )
            if found is None:
                raise StudentNotFoundError(code.student)
            await db.execute("DELETE FROM class_codes WHERE student = $1", code.student)
            await _insert_code(db, row)

        await self._transaction(body, write=True, what=f"renewing student {code.student}'s code")

    async def class_code(self, lookup: str) -> ClassCodeRecord | None:
        """The class code found by ``lookup``; None if no student has it."""

        async def body(db: Connection) -> ClassCodeRecord | None:
            row = await db.fetchrow(
                "SELECT student, lookup, sealed FROM class_codes WHERE lookup = $1", lookup
            )
            return None if row is None else ClassCodeRecord(*row)

        return await self._transaction(body, write=False, what="finding a class code")

    async def update_student(
        self,
        student_id: str,
        *,
        name: str | None = None,
        kind: PlayerKind | None = None,
        removed: bool | None = None,
    ) -> None:
        """Change what is given of a student (:meth:`server.store.GameStore.update_student`)."""
        changes = student_changes(name, kind, removed)
        # Column names from the fixed keys of student_changes only: no outside text.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(changes, start=2))

        async def body(db: Connection) -> None:
            found = await db.fetchval("SELECT 1 FROM students WHERE id = $1 FOR UPDATE", student_id)
            if found is None:
                raise StudentNotFoundError(student_id)
            if changes:
                await db.execute(
                    f"UPDATE students SET {assignments} WHERE id = $1",  # noqa: S608
                    student_id,
                    *changes.values(),
                )

        await self._transaction(body, write=True, what=f"updating student {student_id}")

    async def merge_students(self, student_id: str, into_id: str) -> None:
        """Merge student ``student_id`` into ``into_id`` (one class), in one
        transaction (:meth:`server.store.GameStore.merge_students`)."""
        if student_id == into_id:
            raise InvalidRecordError(f"student {student_id!r} cannot be merged into itself")

        async def body(db: Connection) -> None:
            found = {
                row[0]: (row[1], row[2])
                for row in await db.fetch(
                    "SELECT id, class, player FROM students"
                    " WHERE id IN ($1, $2) AND merged_into IS NULL FOR UPDATE",
                    student_id,
                    into_id,
                )
            }
            for wanted in (student_id, into_id):
                if wanted not in found:
                    raise StudentNotFoundError(wanted)
            (class_name, player), (into_class, into_player) = found[student_id], found[into_id]
            if class_name != into_class:
                raise InvalidRecordError("students of two classes cannot be merged")
            await db.execute(
                "UPDATE students SET merged_into = $1 WHERE id = $2 OR merged_into = $2",
                into_id,
                student_id,
            )
            await db.execute(
                "UPDATE players SET merged_into = $1 WHERE id = $2 OR merged_into = $2",
                into_player,
                player,
            )

        await self._transaction(
            body, write=True, what=f"merging student {student_id} into {into_id}"
        )

    async def students(self, class_name: str) -> list[StudentRecord]:
        """Every student of ``class_name``, removed and merged ones included,
        first seen first; students seen at the same time by name (then id), so
        the order is the same on every read, restarts included. Names compare
        by code point (``COLLATE "C"``), as SQLite's do."""

        async def body(db: Connection) -> list[StudentRecord]:
            rows = await db.fetch(
                f"SELECT {STUDENT_COLUMNS} FROM students"  # noqa: S608
                ' WHERE class = $1 ORDER BY first_seen, name COLLATE "C", id',
                class_name,
            )
            return [student_record(row) for row in rows]

        return await self._transaction(body, write=False, what="reading the students")

    async def class_results(self, class_name: str) -> dict[str, StudentResults]:
        """Each student's finished games in ``class_name``, by the id of the student
        they count for (:meth:`server.store.GameStore.class_results`)."""

        async def body(db: Connection) -> dict[str, StudentResults]:
            rows = await db.fetch(
                "SELECT coalesce(st.merged_into, st.id) AS who, count(*),"
                " count(*) FILTER (WHERE g.winner = s.side),"
                " count(*) FILTER (WHERE g.winner = 1 - s.side),"
                " count(*) FILTER (WHERE g.termination IN ('full_board', 'agreement'))"
                " FROM students st JOIN seats s ON s.player = st.player"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = $1 AND g.state = 'finished' GROUP BY who",
                class_name,
            )
            return {
                student: StudentResults(played, won, drawn, lost)
                for student, played, won, lost, drawn in rows
            }

        return await self._transaction(body, write=False, what="reading the class's results")

    async def class_games(self, class_name: str) -> list[GameRecord]:
        """Every game in which a student of ``class_name`` (removed, merged or not)
        held a seat, whole, oldest first."""

        async def body(db: Connection) -> list[GameRecord]:
            return await load_games(db, _OF_CLASS, (class_name,))

        return await self._transaction(body, write=False, what="reading the class's games")


async def _insert_code(db: Connection, row: tuple[str, str, str]) -> None:
    if await db.fetchval("SELECT 1 FROM class_codes WHERE lookup = $1", row[0]) is not None:
        raise ClassCodeTakenError("another student has this class code")
    try:
        await db.execute(
            "INSERT INTO class_codes (lookup, student, sealed) VALUES ($1, $2, $3)", *row
        )
    except SCHEMA_REFUSALS as error:
        raise InvalidRecordError(f"student {row[1]!r} is unknown, or has a code") from error


async def _insert_student(db: Connection, row: Sequence[object]) -> None:
    try:
        await db.execute(
            "INSERT INTO students"
            " (id, class, player, name, kind, removed, first_seen, merged_into, session)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            *row,
        )
    except SCHEMA_REFUSALS as error:
        raise student_not_new(row) from error
