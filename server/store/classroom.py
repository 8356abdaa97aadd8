"""What class mode (:mod:`server.classroom`) keeps: two small tables beside the games.

``settings`` holds values the server makes once and keeps (the teacher's admin
token); ``students`` is a class's roster (:class:`StudentRecord`): one student
per durable player (:mod:`server.store.players`); ``class_codes`` the short
codes of the class's accounts (:class:`ClassCodeRecord`), one per student. A
class's games and results are read through its students' players, which the
seats of their games carry; a merged player's seats (stored under its own id)
count for the student it was merged into.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from server.core.players import PlayerRecord
from server.core.records import GameRecord, PlayerKind
from server.store.base import StoreBase
from server.store.checks import (
    class_code_row,
    class_codes_of,
    enrolment,
    student_changes,
    student_not_new,
    student_row,
)
from server.store.errors import ClassCodeTakenError, InvalidRecordError, StudentNotFoundError
from server.store.games import load_games
from server.store.players import insert_player
from server.store.rows import (
    STUDENT_COLUMNS,
    ClassCodeRecord,
    StudentRecord,
    StudentResults,
    student_record,
)
from server.store.sql import scalar

__all__ = ["ClassCodeRecord", "ClassroomStorage", "StudentRecord", "StudentResults"]

# The games of a class: those in which a player of one of its students (removed,
# merged or not) held a seat. A fixed clause for load_games, so no text from
# outside reaches the SQL.
_OF_CLASS = (
    "g.id IN (SELECT s.game_id FROM seats s JOIN students st"
    " ON st.player = s.player WHERE st.class = ?)"
)


class ClassroomStorage(StoreBase):
    """Class mode's settings and students, and a class's results and games."""

    async def setting(self, key: str, default: str) -> str:
        """The setting ``key``, stored as ``default`` first if it has none: one
        transaction, so the first value stored is the one every later call reads."""
        if not key or not isinstance(default, str):
            raise InvalidRecordError(f"a setting needs a key and a text value, not {key!r}")

        def body(db: sqlite3.Connection) -> str:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, default))
            value: str = scalar(db, "SELECT value FROM settings WHERE key = ?", (key,))
            return value

        return await self._transaction(body, write=True, what=f"reading the setting {key}")

    async def add_student(self, student: StudentRecord) -> None:
        """Store a new student. Raises :class:`InvalidRecordError` for a kind that
        is not human or bot, an empty field, an unknown player, or an id stored
        already or a player on the class's roster already."""
        row = student_row(student)

        def body(db: sqlite3.Connection) -> None:
            _insert_student(db, row)

        await self._transaction(body, write=True, what=f"adding student {student.id}")

    async def enrol(
        self,
        accounts: Sequence[tuple[PlayerRecord, str, StudentRecord]],
        codes: Sequence[ClassCodeRecord] = (),
    ) -> None:
        """Store new players and make each a student, all in one transaction:
        each account is a player, the hash of its token, and its student; with
        ``codes``, their class codes (one per student, of these students). Either
        every account is stored or, raising :class:`InvalidRecordError` (as
        :meth:`add_student` and ``add_player`` do; :class:`ClassCodeTakenError`
        for a code another student has), none is."""
        rows = enrolment(accounts)
        code_rows = class_codes_of([student for _, _, student in accounts], codes)

        def body(db: sqlite3.Connection) -> None:
            for player, student in rows:
                insert_player(db, player)
                _insert_student(db, student)
            for row in code_rows:
                _insert_code(db, row)

        await self._transaction(body, write=True, what=f"enrolling {len(rows)} students")

    async def set_class_code(self, code: ClassCodeRecord) -> None:
        """Give the student ``code.student`` this class code in place of the one
        they had (a new link renews both). Raises :class:`StudentNotFoundError`,
        :class:`ClassCodeTakenError` for a code another student has, or
        :class:`InvalidRecordError`."""
        row = class_code_row(code)

        def body(db: sqlite3.Connection) -> None:
            if scalar(db, "SELECT 1 FROM students WHERE id = ?", (code.student,)) is None:
                raise StudentNotFoundError(code.student)
            db.execute("DELETE FROM class_codes WHERE student = ?", (code.student,))
            _insert_code(db, row)

        await self._transaction(body, write=True, what=f"renewing student {code.student}'s code")

    async def class_code(self, lookup: str) -> ClassCodeRecord | None:
        """The class code found by ``lookup``; None if no student has it."""

        def body(db: sqlite3.Connection) -> ClassCodeRecord | None:
            row = db.execute(
                "SELECT student, lookup, sealed FROM class_codes WHERE lookup = ?", (lookup,)
            ).fetchone()
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
        """Change what is given of a student. Raises :class:`StudentNotFoundError`,
        or :class:`InvalidRecordError` for an empty name or a kind that is not
        human or bot."""
        changes = student_changes(name, kind, removed)
        # Column names from the fixed keys above only: no outside text reaches the SQL.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> None:
            if scalar(db, "SELECT 1 FROM students WHERE id = ?", (student_id,)) is None:
                raise StudentNotFoundError(student_id)
            if changes:
                db.execute(
                    f"UPDATE students SET {assignments} WHERE id = ?",  # noqa: S608
                    (*changes.values(), student_id),
                )

        await self._transaction(body, write=True, what=f"updating student {student_id}")

    async def merge_students(self, student_id: str, into_id: str) -> None:
        """Merge student ``student_id`` into ``into_id`` (one class): the first
        leaves the roster (``merged_into``), and so do the entries merged into it
        before; its player is merged into the other's (its token opens that
        player, and so do the tokens of players merged into it before). One
        transaction. Raises :class:`StudentNotFoundError` for an id that is not
        on a roster, or :class:`InvalidRecordError` for one id twice or two
        classes."""
        if student_id == into_id:
            raise InvalidRecordError(f"student {student_id!r} cannot be merged into itself")

        def body(db: sqlite3.Connection) -> None:
            found = {
                row[0]: row[1:]
                for row in db.execute(
                    "SELECT id, class, player FROM students"
                    " WHERE id IN (?, ?) AND merged_into IS NULL",
                    (student_id, into_id),
                )
            }
            for wanted in (student_id, into_id):
                if wanted not in found:
                    raise StudentNotFoundError(wanted)
            (class_name, player), (into_class, into_player) = found[student_id], found[into_id]
            if class_name != into_class:
                raise InvalidRecordError("students of two classes cannot be merged")
            db.execute(
                "UPDATE students SET merged_into = ? WHERE id = ? OR merged_into = ?",
                (into_id, student_id, student_id),
            )
            db.execute(
                "UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
                (into_player, player, player),
            )

        await self._transaction(
            body, write=True, what=f"merging student {student_id} into {into_id}"
        )

    async def students(self, class_name: str) -> list[StudentRecord]:
        """Every student of ``class_name``, removed and merged ones included,
        first seen first; students seen at the same time by name (then id), so
        the order is the same on every read, restarts included."""

        def body(db: sqlite3.Connection) -> list[StudentRecord]:
            rows = db.execute(
                f"SELECT {STUDENT_COLUMNS} FROM students"  # noqa: S608
                " WHERE class = ? ORDER BY first_seen, name, id",
                (class_name,),
            )
            return [student_record(row) for row in rows]

        return await self._transaction(body, write=False, what="reading the students")

    async def class_results(self, class_name: str) -> dict[str, StudentResults]:
        """Each student's finished games in ``class_name``, by the id of the
        student on the roster (or removed) they count for: an entry merged into
        another counts for that one. Students without any are left out."""

        def body(db: sqlite3.Connection) -> dict[str, StudentResults]:
            rows = db.execute(
                "SELECT coalesce(st.merged_into, st.id) AS who, count(*),"
                " total(g.winner = s.side), total(g.winner = 1 - s.side),"
                " total(g.termination IN ('full_board', 'agreement'))"
                " FROM students st JOIN seats s ON s.player = st.player"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = ? AND g.state = 'finished' GROUP BY who",
                (class_name,),
            )
            return {
                student: StudentResults(played, int(won), int(drawn), int(lost))
                for student, played, won, lost, drawn in rows
            }

        return await self._transaction(body, write=False, what="reading the class's results")

    async def class_games(self, class_name: str) -> list[GameRecord]:
        """Every game in which a student of ``class_name`` (removed, merged or not)
        held a seat, whole, oldest first."""

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, _OF_CLASS, (class_name,))

        return await self._transaction(body, write=False, what="reading the class's games")


def _insert_code(db: sqlite3.Connection, row: tuple[str, str, str]) -> None:
    if scalar(db, "SELECT 1 FROM class_codes WHERE lookup = ?", (row[0],)) is not None:
        raise ClassCodeTakenError("another student has this class code")
    try:
        db.execute("INSERT INTO class_codes (lookup, student, sealed) VALUES (?, ?, ?)", row)
    except sqlite3.IntegrityError as error:
        raise InvalidRecordError(f"student {row[1]!r} is unknown, or has a code") from error


def _insert_student(db: sqlite3.Connection, row: tuple[object, ...]) -> None:
    try:
        db.execute(
            "INSERT INTO students"
            " (id, class, player, name, kind, removed, first_seen, merged_into, session)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
    except sqlite3.IntegrityError as error:
        raise student_not_new(row) from error
