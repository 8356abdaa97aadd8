"""What class mode (:mod:`server.classroom`) keeps: two small tables beside the games.

``settings`` holds values the server makes once and keeps (the teacher's admin
token); ``students`` is a class's roster (:class:`StudentRecord`). A class's games
and results are read through its students' sessions, which the seats of their
games carry.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from server.core.records import GameRecord, PlayerKind
from server.store.base import StoreBase
from server.store.checks import check_time
from server.store.errors import InvalidRecordError, StudentNotFoundError
from server.store.games import load_games
from server.store.sql import scalar

__all__ = ["ClassroomStorage", "StudentRecord", "StudentResults"]

# The games of a class: those in which one of its students (removed or not) held a
# seat. A fixed clause for load_games, so no text from outside reaches the SQL.
_OF_CLASS = (
    "g.id IN (SELECT s.game_id FROM seats s JOIN students st"
    " ON st.session = s.session WHERE st.class = ?)"
)


@dataclass(frozen=True, slots=True)
class StudentRecord:
    """One student of a class (class mode). ``id`` is public: the teacher's API
    names the student by it. ``session`` is the session id (a
    :class:`~server.core.records.SeatRecord`'s ``session``) that links the student to
    their seats; private, so left out of ``repr``. ``kind`` is
    :attr:`~PlayerKind.HUMAN` or :attr:`~PlayerKind.BOT`; ``first_seen`` Unix seconds.
    ``player`` is the durable player the session is (None for students stored
    before players were kept)."""

    id: str
    class_name: str
    session: str = field(repr=False)
    name: str
    kind: PlayerKind
    first_seen: float
    removed: bool = False
    player: str | None = None


@dataclass(frozen=True, slots=True)
class StudentResults:
    """A student's finished games in their class: ``played`` counts them all, so
    ``played - won - drawn - lost`` ended with no result (aborted, or both gone)."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


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
        is not human or bot, an empty field, or an id or a (class, session)
        already stored."""
        if not isinstance(student, StudentRecord):
            raise InvalidRecordError(f"a student is a StudentRecord, not {student!r}")
        if student.kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
            raise InvalidRecordError(f"a student is a human or a bot, not {student.kind!r}")
        if not all((student.id, student.class_name, student.session, student.name.strip())):
            raise InvalidRecordError("a student needs an id, a class, a session and a name")
        first_seen = check_time("first_seen", student.first_seen)
        row = (
            student.id,
            student.class_name,
            student.session,
            student.name,
            student.kind.value,
            int(student.removed),
            first_seen,
            student.player,
        )

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO students"
                    " (id, class, session, name, kind, removed, first_seen, player)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"student {student.id!r} is stored already") from error

        await self._transaction(body, write=True, what=f"adding student {student.id}")

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
        changes: dict[str, object] = {}
        if name is not None:
            if not isinstance(name, str) or not name.strip():
                raise InvalidRecordError(f"a student's name must be non-empty, not {name!r}")
            changes["name"] = name
        if kind is not None:
            if kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
                raise InvalidRecordError(f"a student is a human or a bot, not {kind!r}")
            changes["kind"] = kind.value
        if removed is not None:
            changes["removed"] = int(bool(removed))
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

    async def students(self, class_name: str) -> list[StudentRecord]:
        """Every student of ``class_name``, removed ones included, first seen first."""

        def body(db: sqlite3.Connection) -> list[StudentRecord]:
            rows = db.execute(
                "SELECT id, class, session, name, kind, first_seen, removed, player FROM students"
                " WHERE class = ? ORDER BY first_seen, id",
                (class_name,),
            )
            return [
                StudentRecord(
                    id=row[0],
                    class_name=row[1],
                    session=row[2],
                    name=row[3],
                    kind=PlayerKind(row[4]),
                    first_seen=row[5],
                    removed=bool(row[6]),
                    player=row[7],
                )
                for row in rows
            ]

        return await self._transaction(body, write=False, what="reading the students")

    async def class_results(self, class_name: str) -> dict[str, StudentResults]:
        """Each student's finished games in ``class_name``, by student id (students
        without any are left out)."""

        def body(db: sqlite3.Connection) -> dict[str, StudentResults]:
            rows = db.execute(
                "SELECT st.id, count(*), total(g.winner = s.side), total(g.winner = 1 - s.side),"
                " total(g.termination IN ('full_board', 'agreement'))"
                " FROM students st JOIN seats s ON s.session = st.session"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = ? AND g.state = 'finished' GROUP BY st.id",
                (class_name,),
            )
            return {
                student: StudentResults(played, int(won), int(drawn), int(lost))
                for student, played, won, lost, drawn in rows
            }

        return await self._transaction(body, write=False, what="reading the class's results")

    async def class_games(self, class_name: str) -> list[GameRecord]:
        """Every game in which a student of ``class_name`` (removed or not) held a
        seat, whole, oldest first."""

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, _OF_CLASS, (class_name,))

        return await self._transaction(body, write=False, what="reading the class's games")
