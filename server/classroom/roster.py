"""The class's roster: who has joined, under which name, human or bot.

Every session that says ``hello`` in class mode is a student of the class
(:meth:`Roster.admit`, which the hub awaits before it welcomes the session).
A student is known by a short public id, never by the session's id or token:
the id goes into the teacher's page and URLs. Their session links them to the
seats they took, and so to their games (``seats.session`` in the store).

The roster is kept in memory, for the hub's every hello, and in the store, so
names, kinds and removals survive a restart. Each change is written first and
made in memory once it is stored: what the teacher is told is on disk.

A student is one session: a client that comes back within the grace window
with its resume token is the same student; one that says hello afresh (a new
run of ``boardroom play``, a token that expired) is a new student, under the
name it gives. A removed student is kept, marked, so their games still export
under their name; if they say hello again they are a new student.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import replace

from server.core.records import PlayerKind
from server.core.room_output import ClientId
from server.core.sessions import Session
from server.store import GameStore, StudentRecord
from shared.protocol.errors import ErrorCode, ProtocolError

STUDENT_ID_BYTES = 4
"""8 hex characters: short enough to read out, plenty for a class (the roster
draws again on the rare clash)."""


class Roster:
    """The students of class ``class_name`` (see the module docstring). Used from
    the event loop only; call :meth:`load` once before anything else."""

    def __init__(self, store: GameStore, class_name: str) -> None:
        self._store = store
        self.class_name = class_name
        self._by_id: dict[str, StudentRecord] = {}
        self._by_session: dict[str, str] = {}

    async def load(self) -> None:
        """Read the class's students from the store."""
        for student in await self._store.students(self.class_name):
            self._keep(student)

    # -- reading --------------------------------------------------------------------

    def students(self) -> list[StudentRecord]:
        """The students on the roster (not removed), first seen first."""
        return [student for student in self._by_id.values() if not student.removed]

    def everyone(self) -> list[StudentRecord]:
        """Every student the class has had, removed ones included (for the export)."""
        return list(self._by_id.values())

    def get(self, student_id: str) -> StudentRecord | None:
        """The student on the roster with this id; None if unknown or removed."""
        student = self._by_id.get(student_id)
        return student if student is not None and not student.removed else None

    def of_session(self, session_id: str) -> StudentRecord | None:
        """The student (removed or not) that this session is, if any."""
        student_id = self._by_session.get(session_id)
        return None if student_id is None else self._by_id[student_id]

    # -- changes ----------------------------------------------------------------------

    async def admit(self, session: Session) -> None:
        """A session said hello: a new one becomes a student (named and of the
        kind its hello gave); a known one changes nothing. A removed student's
        session is refused with ``bad_token`` (the hub forgets it at removal, so
        this is a second lock on the same door). A session that only watches
        (a projector, ``boardroom watch``) is no student: nothing is stored."""
        if session.watch_only:
            return
        known = self.of_session(session.id)
        if known is not None:
            if known.removed:
                raise ProtocolError(
                    ErrorCode.BAD_TOKEN,
                    "the teacher removed this player from the class: say hello without a token",
                )
            return
        student = StudentRecord(
            id=self._new_id(),
            class_name=self.class_name,
            session=session.id,
            name=session.name,
            kind=session.kind,
            first_seen=time.time(),
            player=session.player,
        )
        # In memory before the write: a second hello of the same session while
        # this one is being stored finds it, rather than storing it twice.
        self._keep(student)
        try:
            await self._store.add_student(student)
        except BaseException:
            self._forget(student)
            raise

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

    def _keep(self, student: StudentRecord) -> StudentRecord:
        self._by_id[student.id] = student
        self._by_session[student.session] = student.id
        return student

    def _forget(self, student: StudentRecord) -> None:
        self._by_id.pop(student.id, None)
        self._by_session.pop(student.session, None)

    def _new_id(self) -> str:
        while True:
            student_id = secrets.token_hex(STUDENT_ID_BYTES)
            if student_id not in self._by_id:
                return student_id


def session_of(student: StudentRecord) -> ClientId:
    """The hub's name for the student's session."""
    return ClientId(student.session)
