"""What class mode keeps, on PostgreSQL: the SQL of
:class:`boardroom.server.store.classroom.ClassroomStorage`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import asyncpg

from boardroom.server.core.records import GameRecord
from boardroom.server.store.checks import student_not_new
from boardroom.server.store.classroom import Accounts, ClassroomStorage, Codes, merged_players
from boardroom.server.store.errors import ClassCodeTakenError, InvalidRecordError
from boardroom.server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from boardroom.server.store.postgres.games import load_games
from boardroom.server.store.postgres.players import insert_player
from boardroom.server.store.rows import DRAWS, STUDENT_COLUMNS, Row

__all__ = ["PostgresClassroom"]


class PostgresClassroom(ClassroomStorage[asyncpg.Pool], PostgresBase):
    """Class mode's tables on PostgreSQL."""

    async def _setting(self, key: str, default: str, *, what: str) -> str:
        async def body(db: Connection) -> str:
            await db.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                key,
                default,
            )
            value: str = await db.fetchval("SELECT value FROM settings WHERE key = $1", key)
            return value

        return await self._transaction(body, write=True, what=what)

    async def _change_setting(self, key: str, value: str, *, what: str) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO settings (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

        await self._transaction(body, write=True, what=what)

    async def _enrol(self, accounts: Accounts, codes: Codes, *, what: str) -> None:
        async def body(db: Connection) -> None:
            for player, student in accounts:
                if player is not None:
                    await insert_player(db, player)
                await _insert_student(db, student)
            for code in codes:
                await _insert_code(db, code)

        await self._transaction(body, write=True, what=what)

    async def _replace_code(self, row: tuple[str, str, str], *, what: str) -> bool:
        async def body(db: Connection) -> bool:
            if await db.fetchval("SELECT 1 FROM students WHERE id = $1 FOR UPDATE", row[1]) is None:
                return False
            await db.execute("DELETE FROM class_codes WHERE student = $1", row[1])
            await _insert_code(db, row)
            return True

        return await self._transaction(body, write=True, what=what)

    async def _code(self, lookup: str, *, what: str) -> Row | None:
        async def body(db: Connection) -> Row | None:
            row: Row | None = await db.fetchrow(
                "SELECT student, lookup, sealed FROM class_codes WHERE lookup = $1", lookup
            )
            return row

        return await self._transaction(body, write=False, what=what)

    async def _update_student(
        self, student_id: str, changes: Mapping[str, object], *, what: str
    ) -> bool:
        # Column names from the fixed keys of student_changes only: no outside text.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(changes, start=2))

        async def body(db: Connection) -> bool:
            found = await db.fetchval("SELECT 1 FROM students WHERE id = $1 FOR UPDATE", student_id)
            if found is None:
                return False
            if changes:
                await db.execute(
                    f"UPDATE students SET {assignments} WHERE id = $1",  # noqa: S608
                    student_id,
                    *changes.values(),
                )
            return True

        return await self._transaction(body, write=True, what=what)

    async def _merge(self, student_id: str, into_id: str, *, what: str) -> None:
        async def body(db: Connection) -> None:
            rows = await db.fetch(
                "SELECT id, class, player FROM students"
                " WHERE id IN ($1, $2) AND merged_into IS NULL FOR UPDATE",
                student_id,
                into_id,
            )
            player, into_player = merged_players(
                student_id, into_id, {row[0]: (row[1], row[2]) for row in rows}
            )
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

        await self._transaction(body, write=True, what=what)

    async def _students(self, class_name: str, *, what: str) -> Iterable[Row]:
        async def body(db: Connection) -> list[Row]:
            # Names compare by code point (COLLATE "C"), as SQLite's do.
            return list(
                await db.fetch(
                    f"SELECT {STUDENT_COLUMNS} FROM students"  # noqa: S608
                    ' WHERE class = $1 ORDER BY first_seen, name COLLATE "C", id',
                    class_name,
                )
            )

        return await self._transaction(body, write=False, what=what)

    async def _results(
        self, class_name: str, *, what: str
    ) -> Iterable[tuple[str, int, float, float, float]]:
        async def body(db: Connection) -> list[tuple[str, int, float, float, float]]:
            rows = await db.fetch(
                "SELECT coalesce(st.merged_into, st.id) AS who, count(*),"
                " count(*) FILTER (WHERE g.winner = s.side),"
                " count(*) FILTER (WHERE g.winner = 1 - s.side),"
                " count(*) FILTER (WHERE g.winner IS NULL AND g.termination = ANY($2::text[]))"
                " FROM students st JOIN seats s ON s.player = st.player"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = $1 AND g.state = 'finished' GROUP BY who",
                class_name,
                list(DRAWS),
            )
            return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]

        return await self._transaction(body, write=False, what=what)

    async def _class_games(self, class_name: str, *, what: str) -> list[GameRecord]:
        async def body(db: Connection) -> list[GameRecord]:
            return await load_games(db, "class", (class_name,))

        return await self._transaction(body, write=False, what=what)


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
