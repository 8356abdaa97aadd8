"""Server text made safe to print: every control character shown as an escape.

Whatever a server sends may end up on someone's terminal: player names, room
titles, chat, the teacher's announcements, error messages, reasons. A control
character in it would be obeyed by the terminal instead of shown: ESC starts
the sequences that clear the screen (``ESC [2J``), set the window title
(``OSC 0``) or write the clipboard (``OSC 52``); CR and BS write over what was
printed; a line break passes text off as a line of the client's own; a
right-to-left override turns a line around. The server refuses such characters
in names and chat, but a client cannot count on every server doing so.

So the session decodes every server message with :func:`decode_printable`:
each string in it comes out with those characters written as Python-style
escapes (``\\x1b``, ``\\u202e``), and everything above it (the rooms it tracks,
the events it hands out, the errors it raises) holds printable text only. The
client's own text (colour codes, line breaks) is added after, when it is drawn.

>>> printable("hi\\x1b]52;c;aGk=\\x07 there")
'hi\\\\x1b]52;c;aGk=\\\\x07 there'
>>> printable("good game 👍")
'good game 👍'
"""

from __future__ import annotations

import re
from typing import TypeVar

import msgspec

from boardroom.shared.protocol import decode_server_message
from boardroom.shared.protocol.codec import is_terminal_control
from boardroom.shared.protocol.messages import ServerMessage

_PLAIN_FRAME = re.compile(r"[ -\[\]-~]*")
"""A frame of printable ASCII without a backslash: JSON can then carry no control
character (it would have to be escaped), so there is nothing to look for."""

T = TypeVar("T")


def printable(text: str) -> str:
    """``text`` with each character that a terminal would act on rather than show
    written as an escape: controls (C0, DEL, C1), format characters such as the
    bidirectional overrides (but the zero-width joiner), lone surrogates, and the
    line and paragraph separators. ``text`` itself when there is none."""
    # Every character escaped is one that isprintable refuses: most text stops there.
    if text.isprintable() or not any(map(is_terminal_control, text)):
        return text
    return "".join(_escape(char) if is_terminal_control(char) else char for char in text)


def decode_printable(frame: str | bytes) -> ServerMessage:
    """:func:`~boardroom.shared.protocol.decode_server_message`, with every string in the
    message passed through :func:`printable`. Raises ``ValueError`` as it does."""
    message = decode_server_message(frame)
    if isinstance(frame, str) and _PLAIN_FRAME.fullmatch(frame):
        return message  # the common case, at no cost
    return _printable_value(message)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _printable_value(value: T) -> T:
    """``value`` with :func:`printable` applied to every string in it, through
    structs, lists and dicts (the same object when nothing changed)."""
    new: object = value
    if isinstance(value, str):
        new = printable(value)
    elif isinstance(value, msgspec.Struct):
        changes = {}
        for field in value.__struct_fields__:
            old = getattr(value, field)
            cleaned = _printable_value(old)
            if cleaned is not old:
                changes[field] = cleaned
        if changes:
            new = msgspec.structs.replace(value, **changes)
    elif isinstance(value, list):
        items = [_printable_value(item) for item in value]
        if any(item is not old for item, old in zip(items, value, strict=True)):
            new = items
    elif isinstance(value, dict):
        entries = {key: _printable_value(item) for key, item in value.items()}
        if any(entries[key] is not item for key, item in value.items()):
            new = entries
    return new  # type: ignore[return-value]
