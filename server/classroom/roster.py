"""The class's roster: who has joined, under which name, human or bot.

A student is a durable player (:mod:`boardroom.server.core.players`) of the class: the
first ``hello`` in class mode of a player who is no student yet makes them one
(:meth:`Roster.admit`, which the hub awaits before it welcomes the session),
under the name that hello gives; every later session of the same player, from
any client or device, is the same student. The teacher can also make students
ahead of time (:meth:`Roster.enrol`, the class's accounts), each a new player
whose token the teacher hands out. A student is known by a short public id,
never by a token: the id goes into the teacher's page and URLs. Their player
links them to the seats they took, and so to their games (``seats.player``).

The roster is kept in memory, for the hub's every hello, and in the store, so
names, kinds, removals and merges survive a restart. Each change is written
first and made in memory once it is stored: what the teacher is told is on
disk.

A removed student is kept, marked, so their games still export under their
name; if their player says hello again they are back on the roster, with
their games. Two entries that are one person (a student who joined once from
a phone and once from a laptop, each a player of its own) can be merged
(:meth:`Roster.merge`): the one merged leaves the roster, its games count for
the other, and its player's token opens the other's player from then on.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from boardroom.server.classroom.class_codes import SealedCode
from boardroom.server.core.players import PlayerId, PlayerRecord, name_key
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.sessions import Session
from boardroom.server.store import ClassCodeRecord, Store, StudentRecord

MergeCheck = Callable[[StudentRecord, StudentRecord], None]
"""Asked before a merge (:meth:`Roster.merge`): raises :class:`MergeRefusedError`
to refuse it (a tournament refuses to merge two of its players)."""

STUDENT_ID_BYTES = 4
"""8 hex characters: short enough to read out, plenty for a class (the roster
draws again on the rare clash)."""

ENROL_STEP = 1e-6
"""Seconds between the first-seen times of students enrolled together: one
microsecond, well above a double's resolution for times of this century
(about 0.24 µs) and far below anything shown (the export writes seconds)."""


class MergeRefusedError(Exception):
    """A merge that a :data:`MergeCheck` refused (the message says why)."""


class Roster:
    """The students of class ``class_name`` (see the module docstring). Used from
    the event loop only; call :meth:`load` once before anything else."""

    def __init__(self, store: Store, class_name: str) -> None:
        self._store = store
        self.class_name = class_name
        self._by_id: dict[str, StudentRecord] = {}
        self._by_player: dict[PlayerId, str] = {}
        """Each player's entry on the roster (or removed), by player id; a merged
        entry's player maps to the entry it was merged into."""
        self._named: dict[str, set[str]] = {}
        """The students on the roster by :func:`~boardroom.server.core.players.name_key` of
        their name (what name_held answers from)."""
        self._merge_checks: list[MergeCheck] = []

    def add_merge_check(self, check: MergeCheck) -> None:
        """Ask ``check`` before each merge, after the checks added before it."""
        self._merge_checks.append(check)

    def remove_merge_check(self, check: MergeCheck) -> None:
        """Stop asking ``check`` (one added before)."""
        self._merge_checks.remove(check)

    async def load(self) -> None:
        """Read the class's students from the store."""
        for student in await self._store.students(self.class_name):
            self._keep(student)

    # -- reading --------------------------------------------------------------------

    def students(self) -> list[StudentRecord]:
        """The students on the roster (not removed, not merged), first seen first."""
        return [s for s in self._by_id.values() if not s.removed and s.merged_into is None]

    def everyone(self) -> list[StudentRecord]:
        """Every entry the class has had, removed and merged ones included (for
        the export: each names the player whose seats it played)."""
        return list(self._by_id.values())

    def get(self, student_id: str) -> StudentRecord | None:
        """The student on the roster with this id; None if unknown, removed or merged."""
        student = self._by_id.get(student_id)
        if student is None or student.removed or student.merged_into is not None:
            return None
        return student

    def resolve(self, student_id: str) -> StudentRecord | None:
        """The student an id stands for now, removed or not: the entry itself, or
        the one it was merged into; None if the id was never the class's."""
        student = self._by_id.get(student_id)
        if student is not None and student.merged_into is not None:
            return self._by_id.get(student.merged_into)
        return student

    def of_player(self, player: PlayerId | None) -> StudentRecord | None:
        """The student (removed or not, never a merged entry) this player is; None
        if the player is no student of the class."""
        student_id = None if player is None else self._by_player.get(player)
        return None if student_id is None else self._by_id[student_id]

    def name_of(self, player: PlayerId) -> str | None:
        """The roster's name for ``player`` (a student, removed or not, or an
        entry merged into one: then the one it was merged into), which the hub
        gives the player's every session whatever its hello says; None for a
        player who is no student of the class."""
        student = self.of_player(player)
        return None if student is None else student.name

    def name_held(self, name: str, player: PlayerId | None) -> bool:
        """True if a student on the roster other than ``player`` (None: a player
        who is no student yet) is called ``name``, ignoring case: a newcomer
        typing a classmate's name is then told apart (``Ann 2``), even while
        Ann is away."""
        own = None if player is None else self._by_player.get(player)
        return any(held != own for held in self._named.get(name_key(name), ()))

    def players_of(self, student: StudentRecord) -> list[PlayerId]:
        """The players whose seats count for ``student``: theirs, then those of the
        entries merged into it."""
        merged = [s.player for s in self._by_id.values() if s.merged_into == student.id]
        return [student.player, *merged]

    # -- changes ----------------------------------------------------------------------

    async def admit(self, session: Session) -> None:
        """A session said hello: its player becomes a student, named and of the
        kind its hello gave, unless it is one already (then nothing changes,
        but that a removed student is back on the roster). A session that only
        watches (a projector, ``boardroom watch``) is no student: nothing is
        stored; nor is a session without a player (one restored from a seat
        stored before players were kept, which says no hello to be admitted)."""
        if session.watch_only or session.player is None:
            return
        known = self.of_player(session.player)
        if known is not None:
            if known.removed:
                await self._store.update_student(known.id, removed=False)
                self._keep(replace(known, removed=False))
            return
        student = StudentRecord(
            id=self._new_id(),
            class_name=self.class_name,
            player=session.player,
            name=session.name,
            kind=session.kind,
            first_seen=time.time(),
            session=session.id,
        )
        # In memory before the write: a second hello of the same player while
        # this one is being stored finds it, rather than storing it twice.
        self._keep(student)
        try:
            await self._store.add_student(student)
        except BaseException:
            self._forget(student)
            raise

    async def enrol(
        self,
        accounts: Sequence[tuple[PlayerRecord, str]],
        now: float,
        codes: Sequence[SealedCode] = (),
    ) -> list[StudentRecord]:
        """Make each new player (with the hash of its token, not yet stored) a
        student of the class under its name, with its class code (``codes``, in
        the same order, if given), in one transaction; return the students in
        the order given. The first is first seen at ``now``, each next one
        :data:`ENROL_STEP` later, so the roster (first seen first) keeps the
        order given after a restart too. Nothing is stored if any is refused
        (``InvalidRecordError``; ``ClassCodeTakenError`` for a code taken)."""
        taken = set(self._by_id)
        students = []
        for index, (player, _) in enumerate(accounts):
            student_id = self._new_id(taken)
            taken.add(student_id)
            students.append(
                StudentRecord(
                    id=student_id,
                    class_name=self.class_name,
                    player=player.id,
                    name=player.name,
                    kind=player.kind,
                    first_seen=now + index * ENROL_STEP,
                )
            )
        await self._store.enrol(
            [
                (player, token_hash, student)
                for (player, token_hash), student in zip(accounts, students, strict=True)
            ],
            [
                ClassCodeRecord(student.id, code.lookup, code.sealed)
                for student, code in zip(students, codes, strict=False)
            ],
        )
        return [self._keep(student) for student in students]

    async def rename(self, student: StudentRecord, name: str) -> StudentRecord:
        """Store ``name`` (a checked player name) as the student's; the renamed student."""
        await self._store.update_student(student.id, name=name)
        return self._keep(replace(student, name=name))

    async def set_kind(self, student: StudentRecord, kind: PlayerKind) -> StudentRecord:
        """Mark the student a human or a bot (the roster's and the export's word only)."""
        await self._store.update_student(student.id, kind=kind)
        return self._keep(replace(student, kind=kind))

    async def remove(self, student: StudentRecord) -> StudentRecord:
        """Mark the student removed: off the roster, kept for the export."""
        await self._store.update_student(student.id, removed=True)
        return self._keep(replace(student, removed=True))

    async def merge(self, student: StudentRecord, into: StudentRecord) -> StudentRecord:
        """Merge ``student`` into ``into`` (both on the roster, two of them; see
        the module docstring): each merge check is asked first (one may raise
        :class:`MergeRefusedError`: nothing changes), then it is stored, then
        made here. Returns ``into``."""
        for check in self._merge_checks:
            check(student, into)
        await self._store.merge_students(student.id, into.id)
        for entry in list(self._by_id.values()):
            if entry.id == student.id or entry.merged_into == student.id:
                self._keep(replace(entry, merged_into=into.id))
        return into

    def _keep(self, student: StudentRecord) -> StudentRecord:
        before = self._by_id.get(student.id)
        if before is not None:
            self._unname(before)
        self._by_id[student.id] = student
        self._by_player[student.player] = student.merged_into or student.id
        if not student.removed and student.merged_into is None:
            self._named.setdefault(name_key(student.name), set()).add(student.id)
        return student

    def _forget(self, student: StudentRecord) -> None:
        self._by_id.pop(student.id, None)
        self._by_player.pop(student.player, None)
        self._unname(student)

    def _unname(self, student: StudentRecord) -> None:
        key = name_key(student.name)
        holders = self._named.get(key)
        if holders is not None:
            holders.discard(student.id)
            if not holders:
                del self._named[key]

    def _new_id(self, taken: set[str] | None = None) -> str:
        """An id no student has (nor any in ``taken``, the default: the roster's)."""
        taken = set(self._by_id) if taken is None else taken
        while True:
            student_id = secrets.token_hex(STUDENT_ID_BYTES)
            if student_id not in taken:
                return student_id
