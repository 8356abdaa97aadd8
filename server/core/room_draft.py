"""The output a room input is building, and the refusal that drops it.

Every part of a room (:mod:`~boardroom.server.core.seating`,
:mod:`~boardroom.server.core.game_in_play`,
:mod:`~boardroom.server.core.ai_turns`, :mod:`~boardroom.server.core.class_controls`) writes what it
has to say into one :class:`Draft`: messages to send, events to persist, engine
requests. The :class:`~boardroom.server.core.room.Room` turns the draft into its
:class:`~boardroom.server.core.room_output.Output` once the input is applied.

A part refuses a request by raising :class:`RefusedError` *before* it changes
anything; the room then drops whatever the draft gained since the request began
(:meth:`Draft.mark`, :meth:`Draft.drop_since`) and answers with one ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from boardroom.server.core.room_output import (
    ALL,
    AiRequest,
    ClientId,
    Everyone,
    PersistEvent,
    Recipient,
)
from boardroom.shared.protocol.codec import check_chat_text
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import RequestId, ServerMessage


@dataclass
class Draft:
    """What one input has said so far, in order."""

    messages: list[tuple[Recipient, ServerMessage]] = field(default_factory=list)
    events: list[PersistEvent] = field(default_factory=list)
    ai_requests: list[AiRequest] = field(default_factory=list)

    def send(self, recipient: Recipient, message: ServerMessage) -> None:
        self.messages.append((recipient, message))

    def announce(
        self, message: ServerMessage, requester: ClientId | None, request_id: RequestId
    ) -> None:
        """Send ``message`` to everyone; the requester's copy carries its id."""
        if requester is None:
            self.send(ALL, message)
            return
        self.send(requester, with_id(message, request_id))
        self.send(Everyone(exclude=requester), message)

    def mark(self) -> tuple[int, int, int]:
        """Where the draft stands now, for :meth:`drop_since`."""
        return len(self.messages), len(self.events), len(self.ai_requests)

    def drop_since(self, mark: tuple[int, int, int]) -> None:
        """Forget everything added after ``mark``."""
        del self.messages[mark[0] :], self.events[mark[1] :], self.ai_requests[mark[2] :]


class RefusedError(Exception):
    """A request refused before it changed anything (becomes an ``error``)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def with_id(message: ServerMessage, request_id: RequestId) -> ServerMessage:
    """``message`` carrying ``request_id``, as the reply to a request."""
    return message if request_id is None else msgspec.structs.replace(message, id=request_id)


def chat_text(text: str) -> str:
    """``text`` if others' screens may print it; refused (``bad_text``) otherwise."""
    try:
        return check_chat_text(text)
    except ProtocolError as error:
        raise RefusedError(error.code, error.message) from None
