"""Sessions: who a connection is, and the resume tokens that bring it back.

``hello`` opens a session and hands out a *resume token*: 32 random bytes, shown
to nobody but its holder. The session's id (the :class:`ClientId` rooms know
seats by) is a hash of the token, so:

- the id can go into logs and the database without giving the seat away (the
  token cannot be worked back from it);
- after a restart, a restored seat names its session by that id, and the player's
  token still hashes to it: nothing else needs to be stored to reclaim seats.

A session outlives its connection by the grace window, so a client that drops and
comes back (``hello`` with the token) is the same session with the same seats.
In class mode the teacher may end a session at once (:meth:`SessionRegistry.drop`):
its token then opens nothing.

A session is one durable player's (:mod:`boardroom.server.core.players`) for its whole
life: :attr:`Session.player`. The registry keeps the names of its human
sessions by :func:`~boardroom.server.core.players.name_key`, for the rule that two
different people are not online under one name (:meth:`SessionRegistry.name_taken`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from boardroom.server.core.players import PlayerId, name_key
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room_output import ClientId
from boardroom.shared.protocol.messages import ServerMessage

TOKEN_BYTES = 32


def session_id_for(token: str) -> ClientId:
    """The session id that ``token`` stands for (a hash; not reversible)."""
    return ClientId("s" + hashlib.sha256(token.encode()).hexdigest()[:32])


class Outbox(Protocol):
    """Where a session's messages go: its live connection."""

    def send(self, message: ServerMessage, text: str | None = None) -> None:
        """Queue ``message`` (already encoded as ``text`` when given); never blocks."""

    def replace(self) -> None:
        """Close this connection: the same session connected again elsewhere."""

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close this connection with ``code``."""


@dataclass(eq=False)
class Session:
    """One player or spectator, across reconnections."""

    id: ClientId
    name: str
    kind: PlayerKind
    """What it said in ``hello``: :attr:`~PlayerKind.HUMAN` (spectators too) or
    :attr:`~PlayerKind.BOT`."""
    watch_only: bool = False
    """Said hello as a spectator: takes no seat, and is no student of a class."""
    outbox: Outbox | None = None
    """The live connection; None while disconnected."""
    rooms: set[str] = field(default_factory=set)
    """Codes of the rooms it joined or watched (a hint: the rooms are the truth)."""
    idle_since: float | None = None
    """When its connection dropped (None while connected)."""
    player: PlayerId | None = None
    """The durable player it is; None for a session restored from a seat stored
    before players were kept (or kept for a tournament before its hello)."""
    search_info: bool = False
    """Its connection's ``hello`` asked for the AI's search with AI moves
    (``hello.search_info``); each hello that opens or resumes it says it anew."""
    address: str = ""
    """The network address of its last welcomed connection ("" before one): its
    AI searches share the engine with the rest of that address's
    (:mod:`boardroom.server.core.engine_queue`)."""


def _online(session: Session) -> bool:
    # idle_since is None from the session's opening on, while it is connected,
    # and for one registered idle (a restored seat, a tournament's player).
    return session.idle_since is None or bool(session.rooms)


class SessionRegistry:
    """Every live session, by id. Sessions without a connection are forgotten
    by :meth:`sweep` once they have been idle longer than the grace window and
    hold no room."""

    def __init__(self) -> None:
        self._sessions: dict[ClientId, Session] = {}
        # Human sessions by name_key(name), each with its player: what
        # name_taken() answers from, without a walk over every session.
        self._names: dict[str, dict[ClientId, PlayerId | None]] = {}
        # Sessions by player, oldest first: what of_player() answers from (the
        # teacher's roster asks it for each of thousands of students).
        self._by_player: dict[PlayerId, dict[ClientId, None]] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._sessions.values()))

    def get(self, session_id: ClientId) -> Session | None:
        """The session with this id, if it is live."""
        return self._sessions.get(session_id)

    def of_player(self, player: PlayerId) -> list[ClientId]:
        """The live sessions of ``player``, oldest first (an indexed lookup)."""
        return list(self._by_player.get(player, ()))

    def open(
        self,
        name: str,
        kind: PlayerKind,
        *,
        watch_only: bool = False,
        player: PlayerId | None = None,
    ) -> tuple[Session, str]:
        """A new session of ``player`` and its resume token."""
        while True:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            session_id = session_id_for(token)
            if session_id not in self._sessions:
                break
        session = Session(session_id, name, kind, watch_only=watch_only, player=player)
        self._add(session)
        return session, token

    def resume(self, token: str) -> Session | None:
        """The session ``token`` opened, if it is still live; None otherwise."""
        return self._sessions.get(session_id_for(token))

    def adopt(
        self,
        session_id: ClientId,
        name: str,
        kind: PlayerKind,
        room: str | None = None,
        *,
        player: PlayerId | None = None,
    ) -> Session:
        """Register a session known from a restored seat or a tournament (idle,
        until its player comes back with the token), or add ``room`` to it if
        already known."""
        session = self._sessions.get(session_id)
        if session is None:
            session = Session(session_id, name, kind, idle_since=None, player=player)
            self._add(session)
        if room is not None:
            session.rooms.add(room)
        return session

    def rename(self, session_id: ClientId, name: str) -> None:
        """The session is called ``name`` from now on (nothing if it is not live)."""
        session = self._sessions.get(session_id)
        if session is not None:
            self._unname(session)
            session.name = name
            self._name(session)

    def set_player(self, session_id: ClientId, player: PlayerId) -> None:
        """The session is ``player``'s from now on (it was restored without
        knowing whose, or its player was merged into ``player``)."""
        session = self._sessions.get(session_id)
        if session is not None:
            self._unname(session)
            self._unindex(session)
            session.player = player
            self._name(session)
            self._index(session)

    def name_taken(self, name: str, player: PlayerId | None) -> bool:
        """True if a human session of another player than ``player`` (None: a
        player not known yet) is online as ``name``, compared by
        :func:`~boardroom.server.core.players.name_key`. Online: connected (or being
        welcomed), or away within its grace window while it holds a room. A
        session that left without a seat has let its name go, even before
        :meth:`sweep` forgets it."""
        holders = self._names.get(name_key(name))
        if not holders:
            return False
        return any(
            (player is None or other != player) and _online(self._sessions[session_id])
            for session_id, other in holders.items()
        )

    def drop(self, session_id: ClientId) -> Session | None:
        """Forget the session now, whatever it holds (the teacher removed its
        student): its token is unknown from then on. Returns it, if it was live."""
        session = self._sessions.pop(session_id, None)
        if session is not None:
            self._unname(session)
            self._unindex(session)
        return session

    def sweep(
        self, now: float, grace_seconds: float, *, keep: Container[ClientId] = ()
    ) -> list[ClientId]:
        """Forget disconnected sessions idle for over ``grace_seconds`` that are
        in no room and not in ``keep``; return their ids."""
        gone = [
            s.id
            for s in self._sessions.values()
            if s.outbox is None
            and not s.rooms
            and s.id not in keep
            and (s.idle_since is None or now - s.idle_since > grace_seconds)
        ]
        for session_id in gone:
            session = self._sessions.pop(session_id)
            self._unname(session)
            self._unindex(session)
        return gone

    def _add(self, session: Session) -> None:
        self._sessions[session.id] = session
        self._name(session)
        self._index(session)

    def _index(self, session: Session) -> None:
        if session.player is not None:
            self._by_player.setdefault(session.player, {})[session.id] = None

    def _unindex(self, session: Session) -> None:
        if session.player is None:
            return
        held = self._by_player.get(session.player)
        if held is not None:
            held.pop(session.id, None)
            if not held:
                del self._by_player[session.player]

    def _name(self, session: Session) -> None:
        if session.kind is PlayerKind.HUMAN:
            self._names.setdefault(name_key(session.name), {})[session.id] = session.player

    def _unname(self, session: Session) -> None:
        key = name_key(session.name)
        holders = self._names.get(key)
        if holders is not None:
            holders.pop(session.id, None)
            if not holders:
                del self._names[key]
