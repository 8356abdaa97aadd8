"""What class mode (:mod:`boardroom.server.classroom`) keeps: small tables beside the games.
The methods, their contracts and their checks, for either backend.

``settings`` holds values the server makes once and keeps (the teacher's admin
token); ``students`` is a class's roster (:class:`StudentRecord`): one student
per durable player (:mod:`boardroom.server.store.players`); ``class_codes`` the short
codes of the class's accounts (:class:`ClassCodeRecord`), one per student. A
class's games and results are read through its students' players, which the
seats of their games carry; a merged player's seats (stored under its own id)
count for the student it was merged into.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence

from boardroom.server.core.players import PlayerRecord
from boardroom.server.core.records import GameRecord, PlayerKind
from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.checks import (
    class_code_row,
    class_codes_of,
    enrolment,
    student_changes,
    student_row,
)
from boardroom.server.store.errors import InvalidRecordError, StudentNotFoundError
from boardroom.server.store.rows import (
    ClassCodeRecord,
    Row,
    StudentRecord,
    StudentResults,
    student_record,
)

__all__ = [
    "Accounts",
    "ClassCodeRecord",
    "ClassroomStorage",
    "Codes",
    "StudentRecord",
    "StudentResults",
    "merged_players",
]

Accounts = Sequence[tuple[tuple[object, ...] | None, tuple[object, ...]]]
"""Each enrolled account's player row (None: a student of a player stored
already) and student row, checked."""
Codes = Sequence[tuple[str, str, str]]
"""Class codes' rows (``lookup, student, sealed``), checked."""


class ClassroomStorage(StoreBase[Handle]):
    """Class mode's settings and students, and a class's results and games."""

    async def setting(self, key: str, default: str) -> str:
        """The setting ``key``, stored as ``default`` first if it has none: one
        transaction, so the first value stored is the one every later call reads."""
        if not key or not isinstance(default, str):
            raise InvalidRecordError(f"a setting needs a key and a text value, not {key!r}")
        return await self._setting(key, default, what=f"reading the setting {key}")

    async def change_setting(self, key: str, value: str) -> None:
        """Store ``value`` as the setting ``key``, in place of any it had (a
        teacher's choice the class keeps across restarts)."""
        if not key or not isinstance(value, str):
            raise InvalidRecordError(f"a setting needs a key and a text value, not {key!r}")
        await self._change_setting(key, value, what=f"changing the setting {key}")

    async def add_student(self, student: StudentRecord) -> None:
        """Store a new student. Raises :class:`InvalidRecordError` for a kind that
        is not human or bot, an empty field, an unknown player, or an id stored
        already or a player on the class's roster already."""
        row = student_row(student)
        await self._enrol([(None, row)], [], what=f"adding student {student.id}")

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
        await self._enrol(rows, code_rows, what=f"enrolling {len(rows)} students")

    async def set_class_code(self, code: ClassCodeRecord) -> None:
        """Give the student ``code.student`` this class code in place of the one
        they had (a new link renews both). Raises :class:`StudentNotFoundError`,
        :class:`ClassCodeTakenError` for a code another student has, or
        :class:`InvalidRecordError`."""
        row = class_code_row(code)
        what = f"renewing student {code.student}'s code"
        if not await self._replace_code(row, what=what):
            raise StudentNotFoundError(code.student)

    async def class_code(self, lookup: str) -> ClassCodeRecord | None:
        """The class code found by ``lookup``; None if no student has it."""
        row = await self._code(lookup, what="finding a class code")
        return None if row is None else ClassCodeRecord(*row)

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
        what = f"updating student {student_id}"
        if not await self._update_student(student_id, changes, what=what):
            raise StudentNotFoundError(student_id)

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
        what = f"merging student {student_id} into {into_id}"
        await self._merge(student_id, into_id, what=what)

    async def students(self, class_name: str) -> list[StudentRecord]:
        """Every student of ``class_name``, removed and merged ones included,
        first seen first; students seen at the same time by name (then id,
        comparing by code point), so the order is the same on every read,
        restarts included."""
        rows = await self._students(class_name, what="reading the students")
        return [student_record(row) for row in rows]

    async def class_results(self, class_name: str) -> dict[str, StudentResults]:
        """Each student's finished games in ``class_name``, by the id of the
        student on the roster (or removed) they count for: an entry merged into
        another counts for that one. Students without any are left out."""
        rows = await self._results(class_name, what="reading the class's results")
        return {
            student: StudentResults(played, int(won), int(drawn), int(lost))
            for student, played, won, lost, drawn in rows
        }

    async def class_games(self, class_name: str) -> list[GameRecord]:
        """Every game in which a student of ``class_name`` (removed, merged or not)
        held a seat, whole, oldest first."""
        return await self._class_games(class_name, what="reading the class's games")

    # -- what a backend supplies --------------------------------------------------------

    @abstractmethod
    async def _setting(self, key: str, default: str, *, what: str) -> str:
        """Insert the setting unless it is there, and read it, in one write."""

    @abstractmethod
    async def _change_setting(self, key: str, value: str, *, what: str) -> None:
        """Insert the setting, or replace its value, in one write."""

    @abstractmethod
    async def _enrol(self, accounts: Accounts, codes: Codes, *, what: str) -> None:
        """Insert each account's player (None: none) and student, then the class
        codes (each refused as ``insert_player`` and the backend's own inserts
        say), in one write."""

    @abstractmethod
    async def _replace_code(self, row: tuple[str, str, str], *, what: str) -> bool:
        """Replace the class code of the student ``row[1]`` with ``(lookup, student,
        sealed)`` in one write; False (nothing written) if there is no such student."""

    @abstractmethod
    async def _code(self, lookup: str, *, what: str) -> Row | None:
        """``student, lookup, sealed`` of the class code found by ``lookup``."""

    @abstractmethod
    async def _update_student(
        self, student_id: str, changes: Mapping[str, object], *, what: str
    ) -> bool:
        """Set ``changes`` (column: value; maybe none) on the student, locked, in
        one write; False if there is no such student."""

    @abstractmethod
    async def _merge(self, student_id: str, into_id: str, *, what: str) -> None:
        """Read and lock both students (on a roster), then merge as
        :func:`merged_players` says, in one write."""

    @abstractmethod
    async def _students(self, class_name: str, *, what: str) -> Iterable[Row]:
        """The class's students (:data:`~boardroom.server.store.rows.STUDENT_COLUMNS`) in the
        order of :meth:`students`."""

    @abstractmethod
    async def _results(
        self, class_name: str, *, what: str
    ) -> Iterable[tuple[str, int, float, float, float]]:
        """``(student, played, won, lost, drawn)`` of each student with finished
        games in the class, counted for the student they were merged into
        (drawn: no winner, by a termination of :data:`~boardroom.server.store.rows.DRAWS`,
        some of which may also end with a winner, as a count does)."""

    @abstractmethod
    async def _class_games(self, class_name: str, *, what: str) -> list[GameRecord]:
        """The class's games, whole (the games' reader of the backend)."""


def merged_players(
    student_id: str, into_id: str, found: Mapping[str, tuple[str, str]]
) -> tuple[str, str]:
    """The players of ``student_id`` and ``into_id`` to merge, given ``found``: the
    class and player of those of the two on a roster, as read in the merge's
    transaction. Raises :class:`StudentNotFoundError` for one not found, or
    :class:`InvalidRecordError` for two classes."""
    for wanted in (student_id, into_id):
        if wanted not in found:
            raise StudentNotFoundError(wanted)
    (class_name, player), (into_class, into_player) = found[student_id], found[into_id]
    if class_name != into_class:
        raise InvalidRecordError("students of two classes cannot be merged")
    return player, into_player
