"""What class mode keeps, on SQLite: the SQL of
:class:`boardroom.server.store.classroom.ClassroomStorage`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

from boardroom.server.core.records import GameRecord
from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.checks import student_not_new
from boardroom.server.store.classroom import Accounts, ClassroomStorage, Codes, merged_players
from boardroom.server.store.errors import ClassCodeTakenError, InvalidRecordError
from boardroom.server.store.rows import DRAWS, STUDENT_COLUMNS, Row
from boardroom.server.store.sqlite.base import SQLiteBase
from boardroom.server.store.sqlite.games import load_games
from boardroom.server.store.sqlite.players import insert_player
from boardroom.server.store.sqlite.sql import scalar

__all__ = ["SQLiteClassroom"]


class SQLiteClassroom(ClassroomStorage[SQLiteThread], SQLiteBase):
    """Class mode's tables on SQLite."""

    async def _setting(self, key: str, default: str, *, what: str) -> str:
        def body(db: sqlite3.Connection) -> str:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, default))
            value: str = scalar(db, "SELECT value FROM settings WHERE key = ?", (key,))
            return value

        return await self._transaction(body, write=True, what=what)

    async def _change_setting(self, key: str, value: str, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self._transaction(body, write=True, what=what)

    async def _enrol(self, accounts: Accounts, codes: Codes, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            for player, student in accounts:
                if player is not None:
                    insert_player(db, player)
                _insert_student(db, student)
            for code in codes:
                _insert_code(db, code)

        await self._transaction(body, write=True, what=what)

    async def _replace_code(self, row: tuple[str, str, str], *, what: str) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            if scalar(db, "SELECT 1 FROM students WHERE id = ?", (row[1],)) is None:
                return False
            db.execute("DELETE FROM class_codes WHERE student = ?", (row[1],))
            _insert_code(db, row)
            return True

        return await self._transaction(body, write=True, what=what)

    async def _code(self, lookup: str, *, what: str) -> Row | None:
        def body(db: sqlite3.Connection) -> Row | None:
            row: Row | None = db.execute(
                "SELECT student, lookup, sealed FROM class_codes WHERE lookup = ?", (lookup,)
            ).fetchone()
            return row

        return await self._transaction(body, write=False, what=what)

    async def _update_student(
        self, student_id: str, changes: Mapping[str, object], *, what: str
    ) -> bool:
        # Column names from the fixed keys of student_changes only: no outside text.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> bool:
            if scalar(db, "SELECT 1 FROM students WHERE id = ?", (student_id,)) is None:
                return False
            if changes:
                db.execute(
                    f"UPDATE students SET {assignments} WHERE id = ?",  # noqa: S608
                    (*changes.values(), student_id),
                )
            return True

        return await self._transaction(body, write=True, what=what)

    async def _merge(self, student_id: str, into_id: str, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            rows = db.execute(
                "SELECT id, class, player FROM students WHERE id IN (?, ?) AND merged_into IS NULL",
                (student_id, into_id),
            )
            player, into_player = merged_players(
                student_id, into_id, {row[0]: (row[1], row[2]) for row in rows}
            )
            db.execute(
                "UPDATE students SET merged_into = ? WHERE id = ? OR merged_into = ?",
                (into_id, student_id, student_id),
            )
            db.execute(
                "UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
                (into_player, player, player),
            )

        await self._transaction(body, write=True, what=what)

    async def _students(self, class_name: str, *, what: str) -> Iterable[Row]:
        def body(db: sqlite3.Connection) -> list[Row]:
            return db.execute(
                f"SELECT {STUDENT_COLUMNS} FROM students"  # noqa: S608
                " WHERE class = ? ORDER BY first_seen, name, id",
                (class_name,),
            ).fetchall()

        return await self._transaction(body, write=False, what=what)

    async def _results(
        self, class_name: str, *, what: str
    ) -> Iterable[tuple[str, int, float, float, float]]:
        placeholders = ", ".join("?" * len(DRAWS))  # the values go as parameters

        def body(db: sqlite3.Connection) -> list[tuple[str, int, float, float, float]]:
            return db.execute(
                "SELECT coalesce(st.merged_into, st.id) AS who, count(*),"  # noqa: S608
                " total(g.winner = s.side), total(g.winner = 1 - s.side),"
                f" total(g.winner IS NULL AND g.termination IN ({placeholders}))"
                " FROM students st JOIN seats s ON s.player = st.player"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = ? AND g.state = 'finished' GROUP BY who",
                (*DRAWS, class_name),
            ).fetchall()

        return await self._transaction(body, write=False, what=what)

    async def _class_games(self, class_name: str, *, what: str) -> list[GameRecord]:
        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, "class", (class_name,))

        return await self._transaction(body, write=False, what=what)


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
