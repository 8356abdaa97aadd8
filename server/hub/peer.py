"""One client connection as the hub sees it: its outbox and, after ``hello``, its session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from boardroom.server.core.sessions import Outbox, Session


class PeerConnection(Outbox, Protocol):
    """A client's connection as the hub uses it: a :class:`~boardroom.server.connection.Connection`
    here, or one on another process of a cluster, reached through it."""

    @property
    def address(self) -> str:
        """The client's IP address (the per-address caps count by it)."""
        ...


@dataclass(eq=False)
class Peer:
    """One connection as the hub sees it: its outbox and, after ``hello``, its session."""

    connection: PeerConnection
    session: Session | None = None
    token: str | None = None
    relayed: bool = False
    """Sent on by another process of a cluster, which found no room for it
    elsewhere: answered here, never sent on again."""
