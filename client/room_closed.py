"""Why a room was closed, in the reader's language (``room_closed``): the Python
twin of the browser's ``closedText`` (``server/web/static/words.js``).

The server says it as a code (``kind``) with the names its words need, and in
English (``reason``). A known code is worded from the catalogue (in English,
the very words of ``reason``); a room closed without a code, or with one this
client does not know, keeps the server's words.
"""

from __future__ import annotations

from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import RoomClosed
from boardroom.shared.protocol.room_closing import ENGLISH, ClosedKind


def closed_text(message: RoomClosed) -> str:
    """Why the room of ``message`` was closed, in the active language."""
    if message.kind not in {kind.value for kind in ClosedKind}:
        return message.reason
    try:
        return _(ENGLISH[ClosedKind(message.kind)], **message.names)
    except (KeyError, IndexError):  # a name its words need is missing
        return message.reason
