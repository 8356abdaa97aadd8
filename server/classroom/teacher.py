"""The teacher's controls: the roster and the hub's rooms and sessions together.

:class:`Classroom` is what the admin API calls once it has checked the token
and the input; it speaks no HTTP. Every change is stored before it returns
(and before anyone is told), so what the teacher is answered survives a crash.

What each control does, in the order it does it:

- **rename**: stored; the student's live sessions take the name for what they
  do next; the rooms they are in take it, and the rooms where they sit send
  everyone a fresh ``state``. Game records keep the name a game was stored with; the
  export shows roster names.
- **kind** (human or bot): stored; the roster's and the export's word only.
- **remove**: stored as removed (off the roster, kept for the export); then
  each of the student's sessions ends at once (:meth:`GameServer.remove_player
  <boardroom.server.hub.GameServer.remove_player>`): a game in progress is resigned,
  seats are freed, resume tokens open nothing, and each connection is closed
  with 4003. Their player token still works: a later hello puts them back on
  the roster with their games.
- **add students** (the class's accounts): a person player is made for each
  name, with a token and a class code (:mod:`boardroom.server.classroom.class_codes`),
  and made a student, all in one transaction; the tokens and codes are handed
  back this once (for the teacher's sheet of join cards).
- **a new link** for a student (a lost slip): a new token for their player,
  stored, so the old one opens nothing, and a new class code; then their live
  sessions end (4004).
- **sign in with a class code**: the student whose code it is, and their
  token (unsealed from what the store keeps); nothing changes.
- **merge** two entries that are one person: stored (the one merged leaves
  the roster, its games count for the other, its player's token opens the
  other's player); then its live sessions are the other's, under that name.
- **a bot's token** (``new_bot``): a bot player is made and stored
  (:class:`~boardroom.server.player_directory.PlayerDirectory`), and its token handed
  back this once; the server keeps only its hash.
- **revoke** a player's token: stored as revoked (the next ``hello`` with it
  gets ``player_token_revoked`` and 4004); then every live session of that
  player ends at once (:meth:`GameServer.end_player
  <boardroom.server.hub.GameServer.end_player>`), as a removal does, closing with 4004.
- **pause**, **resume**: every room at once (:meth:`Room.pause
  <boardroom.server.core.room.Room.pause>`); rooms opened during a pause open paused. A
  pause is not stored: a restart ends it.
- **close a room**: its game ends with no result, its members get
  ``room_closed``, and it is gone from the lobby.
- **the class's autopilot** (``set_autopilot``): an engine level, or off, for
  the class's rooms opened from now on that choose none and for its
  tournaments that take the class's default (:mod:`boardroom.server.core.table`
  says what it does). Stored (a setting of the class), so a restart keeps it;
  until the teacher chooses, the server's ``--autopilot``.
- **announce**: ``announcement`` to every connected session; the class's
  summary (the wall reads it) carries it for :data:`ANNOUNCEMENT_SHOWN_SECONDS`.

A room whose game ended by play and whose players then all left (bots leave
a finished game at once) is an ended room: :meth:`Classroom.ended_rooms` lists
it, :meth:`Classroom.rooms` does not. The hub may still hold it for a
spectator who dropped (its grace window, so that they find how the game ended
when they come back); once the hub lets it go, its last view is kept for
:data:`ENDED_SHOWN_SECONDS`, so that the wall shows how it ended as long as
any other finished game. Every view names who played the room's last game
(``game_players``), also once they have left.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from urllib.parse import quote

import msgspec

from boardroom.server.classroom.class_codes import (
    SALT_BYTES,
    SALT_SETTING,
    SealedCode,
    lookup_of,
    new_code,
    seal,
    unseal,
)
from boardroom.server.classroom.export import GameAnalysisSummary, games_zip, results_csv
from boardroom.server.classroom.roster import Roster
from boardroom.server.core.players import PlayerRecord, new_player_token, player_id_for, token_hash
from boardroom.server.core.records import GameRecord, PlayerKind
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import HubEvent, RoomDropped, RoomInfo
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.store import (
    ClassCodeRecord,
    ClassCodeTakenError,
    PlayerNotFoundError,
    Store,
    StudentRecord,
    StudentResults,
)
from boardroom.shared.engine.analysis import ANALYSIS_VERSION, MoveReview
from boardroom.shared.games import Player
from boardroom.shared.i18n import SOURCE_LANGUAGE
from boardroom.shared.protocol.close_codes import CLOSE_TOKEN_REVOKED
from boardroom.shared.protocol.messages import (
    AUTOPILOT_OFF,
    Level,
    ResultInfo,
)
from boardroom.shared.protocol.room_closing import Closing

CLOSE_REASON = Closing.teacher()

ENDED_SHOWN_SECONDS = 30.0
"""How long a room that ended and emptied stays in :meth:`Classroom.ended_rooms`:
as long as the wall shows a finished game (``FINISHED_SHOWN_S`` in wall.js)."""


ANNOUNCEMENT_SHOWN_SECONDS = 600.0
"""How long the teacher's last message stays in :meth:`Classroom.summary`, so
on the wall: "Ten minutes left" is stale after ten minutes."""


class ClassroomError(Exception):
    """Root of the errors a control raises on purpose::

    ClassroomError
    ├── UnknownStudentError(ClassroomError, LookupError)   no student with that id on the roster
    ├── UnknownRoomError(ClassroomError, LookupError)      no room with that room code
    ├── UnknownPlayerError(ClassroomError, LookupError)    no durable player with that id
    ├── SameStudentError(ClassroomError, ValueError)       a student merged into itself
    └── AlreadyRevokedError(ClassroomError)                that player's token is revoked already
    """


class UnknownStudentError(ClassroomError, LookupError):
    """No student with that id on the roster (never one, or removed)."""


class UnknownRoomError(ClassroomError, LookupError):
    """No room with that room code."""


class UnknownPlayerError(ClassroomError, LookupError):
    """No durable player with that id."""


class SameStudentError(ClassroomError, ValueError):
    """A student cannot be merged into itself."""


class AlreadyRevokedError(ClassroomError):
    """The player's token was revoked already: revoking again changes nothing."""


# -- what the API shows -----------------------------------------------------------------


class AnnouncementView(msgspec.Struct, frozen=True, kw_only=True):
    """The teacher's last message: its text, and when it was sent (Unix seconds)."""

    text: str
    sent_at: float


class ClassSummary(msgspec.Struct, frozen=True, kw_only=True):
    """The class at a glance (``GET /api/admin/class``). ``announcement``: the
    teacher's last message while it is recent (:data:`ANNOUNCEMENT_SHOWN_SECONDS`),
    else null."""

    class_name: str = msgspec.field(name="class")
    paused: bool
    hints: bool
    """Whether students may ask for hints (a tournament's games follow its own)."""
    autopilot: str
    """The class's autopilot: the engine level that plays a dropped student's
    seat in new rooms, or ``off`` (a tournament's games follow its own)."""
    students: int
    connected: int
    rooms: int
    games_in_progress: int
    announcement: AnnouncementView | None = None


class StudentView(msgspec.Struct, frozen=True, kw_only=True):
    """One student on the roster. ``rooms``: the rooms where they hold a seat;
    ``played`` counts their finished games in the class, ``won``, ``drawn`` and
    ``lost`` those with a result."""

    id: str
    name: str
    kind: str
    player_id: str
    """The student's durable player (the leaderboard's ``player_id``)."""
    connected: bool
    rooms: list[str]
    played: int
    won: int
    drawn: int
    lost: int
    first_seen: str


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """Who sits in a seat; ``student`` is their roster id (None for the AI)."""

    side: Player
    name: str | None
    kind: str | None
    student: str | None
    connected: bool


class RoomView(msgspec.Struct, frozen=True, kw_only=True):
    """One room, public or private (``GET /api/admin/rooms``)."""

    code: str
    game: str
    title: str
    status: str
    public: bool
    paused: bool
    moves: str
    ply: int = 0
    """Moves played in the current or last game."""
    to_move: Player | None = None
    """Whose move it is, while a game is played."""
    board: list[str] | None = None
    """The board now, top row first, as the room's ``state`` gives it."""
    board_kind: str | None = None
    """How it looks (``cells`` or ``columns``), as the room's ``state`` gives it."""
    players: list[PlayerView]
    spectators: int
    result: ResultInfo | None
    """How the room's last game ended (the wall shows it); None before the end."""
    game_players: dict[Player, str]
    """Who played the room's current or last game, by side, as it started
    (empty before the first game): still there once they have left their seats."""
    game_id: int | None = None
    """The stored id of that game (its record and its review), once stored."""
    watch_by: str = ""
    """The code that lets anyone watch the room (``watch``): a public room's
    room code, a private room's join code (the teacher's Watch link)."""


@dataclass(frozen=True, slots=True)
class NewAccount:
    """A class account as the teacher gets it, this once: the student's view,
    their player, their join link and their class code."""

    view: StudentView
    player: PlayerRecord
    join_link: str
    code: str = field(repr=False)


def _ended(room: RoomInfo) -> bool:
    """True for a room whose game ended by play, that nobody holds a seat of
    (its players, people or bots, are gone, not merely dropped) and nobody
    watches: the hub drops it unless a spectator who dropped may come back."""
    return (
        room.status == "finished" and not room.closed and not room.holders and not room.spectators
    )


_CODE_DRAWS = 3
"""Draws of fresh codes before giving up (a clash is one chance in millions)."""

# -- the controls ------------------------------------------------------------------------


class Classroom:
    """The controls of class ``roster.class_name`` (see the module docstring).

    Call :meth:`start` once the hub runs: it loads the roster and has the hub
    admit each session that says hello (:meth:`stop` unhooks it). Input must be
    checked by the caller (names by
    :func:`~boardroom.shared.protocol.codec.check_player_name`, texts' length).
    """

    def __init__(
        self,
        *,
        token: str,
        hub: GameServer,
        store: Store,
        roster: Roster,
        language: str = SOURCE_LANGUAGE,
    ) -> None:
        self.token = token
        self.language = language
        """The class's language (``serve --lang``): the export's words speak it."""
        self.name = roster.class_name
        self._hub = hub
        self._store = store
        self._roster = roster
        self._code_salt = b""
        """The class codes' salt (:mod:`boardroom.server.classroom.class_codes`), read at the
        start."""
        self._ended: dict[str, tuple[float, RoomView]] = {}
        """Rooms that ended and emptied, by code: when the hub let them go, and their last view."""
        self._announcement: AnnouncementView | None = None
        """The teacher's last message (not stored: a restart forgets it, as the sessions do)."""

    async def start(self) -> None:
        """Load the roster and hook it to the hub's hellos. Rooms restored after
        a restart name their players as the game's record does: those the
        teacher renamed since take their roster name again."""
        salt = await self._store.setting(SALT_SETTING, secrets.token_hex(SALT_BYTES))
        self._code_salt = bytes.fromhex(salt)
        chosen = await self._store.setting(self._autopilot_setting, "")
        if chosen:  # "": the teacher has not chosen yet; the server's --autopilot holds
            self._hub.set_autopilot(None if chosen == AUTOPILOT_OFF else Level(chosen))
        await self._roster.load()
        for student in self._roster.students():
            for session in self._hub.player_sessions(student.player):
                name = self._hub.session_name(session)
                if name is not None and name != student.name:
                    await self._hub.rename_session(session, student.name)
        self._hub.add_hello_check(self._roster.admit)
        # A student is called what the roster says, whatever their hello says:
        # only the teacher renames (rename below).
        self._hub.keep_names(self._roster)
        self._hub.subscribe(self._hear)

    def stop(self) -> None:
        """Unhook the roster from the hub."""
        self._hub.remove_hello_check(self._roster.admit)
        self._hub.keep_names(None)
        self._hub.unsubscribe(self._hear)

    @property
    def class_roster(self) -> Roster:
        """The class's roster (the tournaments' director reads its students)."""
        return self._roster

    # -- reading ------------------------------------------------------------------------

    def summary(self, now: float | None = None) -> ClassSummary:
        """How many students, connections and rooms, whether paused, and the
        teacher's message if it was sent less than
        :data:`ANNOUNCEMENT_SHOWN_SECONDS` before ``now``."""
        now = time.time() if now is None else now
        announcement = self._announcement
        if announcement is not None and now - announcement.sent_at >= ANNOUNCEMENT_SHOWN_SECONDS:
            announcement = None
        students = self._roster.students()
        rooms = self._hub.room_counts()
        return ClassSummary(
            class_name=self.name,
            paused=self._hub.paused,
            hints=self._hub.hints,
            autopilot=self.autopilot,
            students=len(students),
            connected=sum(self._connected(student) for student in students),
            rooms=sum(rooms.values()),
            games_in_progress=rooms["playing"],
            announcement=announcement,
        )

    async def roster_page(self, offset: int, limit: int) -> tuple[list[StudentView], int]:
        """The students on the roster from ``offset`` (0: the first), at most
        ``limit`` of them, in the roster's order, with their results; and how
        many there are in all. Only the page is looked at (each student's
        sessions and rooms), so a roster of thousands costs no more than a
        page of it; the results are counted on the store's thread."""
        students = self._roster.students()
        page = students[offset : offset + limit]
        results = await self._store.class_results(self.name)
        return [self._view(student, results) for student in page], len(students)

    def rooms(self) -> list[RoomView]:
        """Every room, public and private, oldest first, but the ended ones
        (:meth:`ended_rooms`) that the hub still holds for a dropped spectator."""
        return [self._room_view(room) for room in self._hub.rooms() if not _ended(room)]

    def ended_rooms(self, now: float | None = None) -> list[RoomView]:
        """The rooms whose game ended by play and whose players all left, oldest
        first: those the hub let go in the last :data:`ENDED_SHOWN_SECONDS`, as
        they were then, and those it still holds for a spectator who dropped
        (for its grace window), as they are now. A room closed (by the teacher,
        a cancelled tournament, a no-show) is not kept."""
        self._forget_ended(time.time() if now is None else now)
        gone = [view for _, view in self._ended.values()]
        return gone + [self._room_view(room) for room in self._hub.rooms() if _ended(room)]

    def _hear(self, event: HubEvent) -> None:
        if isinstance(event, RoomDropped):
            self._room_dropped(event.room)

    def _room_dropped(self, room: RoomInfo) -> None:
        now = time.time()
        self._forget_ended(now)
        if room.status == "finished" and not room.closed:
            self._ended[room.code] = (now, self._room_view(room))

    def _forget_ended(self, now: float) -> None:
        for code, (ended_at, _) in list(self._ended.items()):
            if now - ended_at >= ENDED_SHOWN_SECONDS or self._hub.has_room(code):
                del self._ended[code]

    def _room_view(self, room: RoomInfo) -> RoomView:
        state = room.state
        players = []
        for seat in state.seats:
            holder = room.holders.get(seat.side)
            player = self._hub.session_player(holder) if holder is not None else None
            student = self._roster.of_player(player)
            players.append(
                PlayerView(
                    side=seat.side,
                    name=seat.name,
                    kind=seat.kind,
                    student=None if student is None else student.id,
                    connected=seat.connected,
                )
            )
        return RoomView(
            code=room.code,
            game=state.game,
            title=state.title,
            status=state.status,
            public=state.public,
            paused=state.paused,
            moves=state.moves,
            ply=state.ply,
            to_move=state.to_move,
            board=state.board,
            board_kind=state.board_kind,
            players=players,
            spectators=room.spectators,
            result=state.result,
            game_players=dict(room.game_players),
            game_id=state.game_id,
            watch_by=room.code if state.public or room.join_code is None else room.join_code,
        )

    def students(self) -> list[StudentRecord]:
        """The students on the roster, first seen first."""
        return self._roster.students()

    def student(self, student_id: str) -> StudentRecord:
        """The student on the roster; :class:`UnknownStudentError` otherwise."""
        student = self._roster.get(student_id)
        if student is None:
            raise UnknownStudentError(f"no student {student_id!r} on the roster of {self.name}")
        return student

    async def student_view(self, student_id: str) -> StudentView:
        """One student as :meth:`roster` shows them."""
        student = self.student(student_id)
        results = await self._store.class_results(self.name)
        return self._view(student, results)

    # -- students -------------------------------------------------------------------------

    async def rename(self, student_id: str, name: str) -> StudentView:
        """Rename the student (``name`` already checked); see the module docstring."""
        student = await self._roster.rename(self.student(student_id), name)
        for session in self._hub.player_sessions(student.player):
            await self._hub.rename_session(session, name)
        return await self.student_view(student.id)

    async def set_kind(self, student_id: str, kind: PlayerKind) -> StudentView:
        """Mark the student a human or a bot."""
        student = await self._roster.set_kind(self.student(student_id), kind)
        return await self.student_view(student.id)

    async def remove(self, student_id: str) -> None:
        """Remove the student; see the module docstring."""
        # Stored first: once the teacher is told, a restart cannot bring them back.
        student = await self._roster.remove(self.student(student_id))
        await self._hub.remove_player(student.player)

    async def add_students(self, names: Sequence[str], base_link: str) -> list[NewAccount]:
        """Make a person player and a student for each name (checked, none on the
        roster and no two alike, case-folded: the caller checks), each with a
        class code, in one transaction; return each student's account (view,
        player, join link on ``base_link`` and code: the token and the code exist
        nowhere else), in the order given."""
        now = time.time()
        accounts: list[tuple[PlayerRecord, str]] = []
        tokens: list[str] = []
        for name in names:
            token = new_player_token()
            player = PlayerRecord(player_id_for(token), name, PlayerKind.HUMAN, created_at=now)
            accounts.append((player, token_hash(token)))
            tokens.append(token)
        for _ in range(_CODE_DRAWS):
            codes = [new_code() for _ in tokens]
            # scrypt for each: off the event loop.
            sealed = await asyncio.to_thread(self._seal_all, codes, tokens)
            try:
                students = await self._roster.enrol(accounts, now, sealed)
                break
            except ClassCodeTakenError:  # one chance in millions: draw them all again
                continue
        else:
            raise ClassCodeTakenError("no free class codes were drawn: try again")
        results = await self._store.class_results(self.name)
        return [
            NewAccount(
                self._view(student, results),
                player,
                join_link(base_link, token, student.name),
                code,
            )
            for student, (player, _), token, code in zip(
                students, accounts, tokens, codes, strict=True
            )
        ]

    def _seal_all(self, codes: Sequence[str], tokens: Sequence[str]) -> list[SealedCode]:
        return [
            seal(code, self._code_salt, token) for code, token in zip(codes, tokens, strict=True)
        ]

    async def sign_in(self, code: str) -> tuple[StudentRecord, str] | None:
        """The student whose class code is ``code`` (a normalized one: see
        :func:`~boardroom.server.classroom.class_codes.normalized`) and their player token,
        as their join link holds it; None for a code that is no student's of
        this class now (never one, renewed by a new link, a revoked token, a
        merged entry or another class's). Changes nothing."""
        lookup, key = await asyncio.to_thread(lookup_of, code, self._code_salt)
        found = await self._store.class_code(lookup)
        if found is None:
            return None
        student = self._roster.resolve(found.student)
        token = unseal(key, found.sealed)
        if student is None or token is None or student.merged_into is not None:
            return None
        player = await self._store.player_by_token_hash(token_hash(token))
        if player is None or player.revoked:
            return None
        return student, token

    async def new_link(self, student_id: str, base_link: str) -> tuple[NewAccount, int]:
        """Give the student a new key (a lost slip): a new token for their player,
        stored, so the old one opens nothing, and a new class code for it, so
        the old code opens nothing either; then each of their live sessions
        ends, closed with 4004 (whoever holds the old slip is out; the student
        comes back by the new link or code). Returns their account (the token
        and the code exist nowhere else) and how many sessions ended.
        :class:`UnknownStudentError`, or :class:`AlreadyRevokedError` for a
        student whose token was revoked, before anything changes."""
        student = self.student(student_id)
        token = new_player_token()
        try:
            await self._store.replace_token(student.player, token_hash(token))
        except PlayerNotFoundError:  # the student's player exists: it was revoked
            raise AlreadyRevokedError(
                f"student {student.id}'s token was revoked: a new link does not bring "
                "it back; add the student again under another name"
            ) from None
        # The old code now unseals a token that opens nothing (sign_in refuses it).
        for _ in range(_CODE_DRAWS):
            code = new_code()
            sealed = await asyncio.to_thread(seal, code, self._code_salt, token)
            try:
                await self._store.set_class_code(
                    ClassCodeRecord(student.id, sealed.lookup, sealed.sealed)
                )
                break
            except ClassCodeTakenError:
                continue
        else:
            raise ClassCodeTakenError("no free class code was drawn: ask for a new link again")
        ended = await self._hub.end_sessions(
            student.player, CLOSE_TOKEN_REVOKED, "the teacher gave this student a new link"
        )
        view = await self.student_view(student.id)
        player = await self._store.get_player(student.player)
        return NewAccount(view, player, join_link(base_link, token, student.name), code), ended

    async def merge(self, student_id: str, into_id: str) -> StudentView:
        """Merge student ``student_id`` into ``into_id``; see the module docstring.
        :class:`UnknownStudentError`, :class:`SameStudentError` or
        :class:`~boardroom.server.classroom.roster.MergeRefusedError` before anything changes."""
        if student_id == into_id:
            raise SameStudentError(f"student {student_id!r} cannot be merged into itself")
        student, into = self.student(student_id), self.student(into_id)
        await self._roster.merge(student, into)
        await self._hub.merge_player(student.player, into.player, into.name)
        return await self.student_view(into.id)

    # -- players' tokens -------------------------------------------------------------------

    async def new_bot(self, name: str) -> tuple[PlayerRecord, str]:
        """Make a bot player called ``name`` (already checked); return it and its
        token, which the caller shows once and never logs."""
        return await PlayerDirectory(self._store).new(name, PlayerKind.BOT)

    async def revoke(self, player_id: str) -> tuple[PlayerRecord, int]:
        """Revoke the player's token; see the module docstring. Returns the player
        and how many of its sessions were ended. :class:`UnknownPlayerError` or
        :class:`AlreadyRevokedError` before anything changes."""
        try:
            player = await self._store.get_player(player_id)
        except PlayerNotFoundError:
            raise UnknownPlayerError(f"no player {player_id!r} on this server") from None
        if player.revoked:
            raise AlreadyRevokedError(f"player {player.id}'s token is revoked already")
        # Stored first: from now on a hello with the token is refused, so no
        # session of the player can begin after those ended below.
        player = await self._store.revoke_player(player.id, time.time())
        return player, await self._hub.end_player(player.id)

    # -- rooms ------------------------------------------------------------------------------

    async def pause(self) -> int:
        """Pause every game; returns how many rooms were paused."""
        return await self._hub.pause_all()

    async def resume(self) -> int:
        """Resume every game; returns how many rooms were resumed."""
        return await self._hub.resume_all()

    async def set_hints(self, allowed: bool) -> int:
        """Allow hints or not in the class's games (a tournament's games follow
        its own ``hints``); returns how many rooms were told."""
        return await self._hub.set_hints(allowed)

    @property
    def autopilot(self) -> str:
        """The class's autopilot: a level, or ``off``."""
        level = self._hub.autopilot
        return AUTOPILOT_OFF if level is None else level.value

    @property
    def _autopilot_setting(self) -> str:
        return f"class_autopilot:{self.name}"

    async def set_autopilot(self, level: Level | None) -> None:
        """Make ``level`` (None: off) the class's autopilot: stored first, then
        for the rooms opened from now on (those open keep theirs)."""
        stored = AUTOPILOT_OFF if level is None else level.value
        await self._store.change_setting(self._autopilot_setting, stored)
        self._hub.set_autopilot(level)

    async def close_room(self, code: str) -> None:
        """Close the room with this room code; :class:`UnknownRoomError` if none."""
        if not await self._hub.close_room(code, CLOSE_REASON):
            raise UnknownRoomError(f"no room {code!r}: GET /api/admin/rooms lists them")

    def announce(self, text: str, now: float | None = None) -> int:
        """Send ``text`` to everyone connected, and keep it for the summary (the
        wall shows it); returns how many got it."""
        sent_at = time.time() if now is None else now
        self._announcement = AnnouncementView(text=text, sent_at=sent_at)
        return self._hub.announce(text)

    # -- the export -------------------------------------------------------------------------

    async def results_csv(self) -> bytes:
        """``results.csv`` (:mod:`boardroom.server.classroom.export`)."""
        records = await self._store.class_games(self.name)
        tournaments = await self._store.tournaments(self.name)
        students = self._roster.everyone()
        analyses = await self._analyses(records)
        return await asyncio.to_thread(results_csv, records, students, tournaments, analyses)

    async def games_zip(self) -> bytes:
        """``games.zip`` (:mod:`boardroom.server.classroom.export`), built off the event loop."""
        records = await self._store.class_games(self.name)
        results = await self._store.class_results(self.name)
        tournaments = await self._store.tournaments(self.name)
        students = self._roster.everyone()
        analyses = await self._analyses(records)
        return await asyncio.to_thread(
            partial(games_zip, language=self.language),
            records,
            students,
            results,
            tournaments,
            analyses,
        )

    async def _analyses(self, records: list[GameRecord]) -> dict[int, GameAnalysisSummary]:
        """What the analyses of ``records`` found, for the export."""
        ids = [record.id for record in records]
        stored = await self._store.analyses_of(ids, rules=ANALYSIS_VERSION)
        # A class's worth of reviews to decode: off the event loop, as the export is.
        return await asyncio.to_thread(_summaries, stored)

    def _view(self, student: StudentRecord, results: dict[str, StudentResults]) -> StudentView:
        scores = results.get(student.id, StudentResults())
        sessions = self._hub.player_sessions(student.player)
        return StudentView(
            id=student.id,
            name=student.name,
            kind=student.kind.value,
            player_id=student.player,
            connected=self._connected(student),
            rooms=sorted({code for s in sessions for code in self._hub.seated_rooms(s)}),
            played=scores.played,
            won=scores.won,
            drawn=scores.drawn,
            lost=scores.lost,
            first_seen=datetime.fromtimestamp(student.first_seen, UTC)
            .isoformat(timespec="seconds")
            .replace("+00:00", "Z"),
        )

    def _connected(self, student: StudentRecord) -> bool:
        """True while a session of the student's player has a connection."""
        return any(self._hub.is_connected(s) for s in self._hub.player_sessions(student.player))


def join_link(base: str, token: str, name: str) -> str:
    """A student's join link: the page at ``base`` (``http://host:port/``), with the
    token and the name in the fragment, which browsers never send to a server
    (so it is in no access log). The page keeps both and clears the address.

    >>> join_link("http://10.0.0.5:8765/", "bp_abc", "Zoë B")
    'http://10.0.0.5:8765/#/account/bp_abc?name=Zo%C3%AB%20B'
    """
    return f"{base}#/account/{token}?name={quote(name, safe='')}"


def _summaries(
    stored: dict[int, tuple[list[str], dict[int, str]]],
) -> dict[int, GameAnalysisSummary]:
    """The export's view of each game's stored analysis (reviews as JSON texts)."""
    return {
        game_id: GameAnalysisSummary(
            tuple(msgspec.json.decode(text, type=MoveReview) for text in texts), hints
        )
        for game_id, (texts, hints) in stored.items()
    }
