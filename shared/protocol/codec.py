"""Turning frames into messages and back, with a typed error for every bad input.

:func:`decode_client_message` is what the server runs on every text frame. It
never raises anything but :class:`~boardroom.shared.protocol.errors.ProtocolError`, whose
code says what was wrong with the frame (not JSON, not an object, unknown type, a
field missing or of the wrong type) and whose message names the field and says
what would be accepted. The request's ``id`` is recovered whenever the frame was
an object, so even a refusal can be matched to its request.

>>> decode_client_message('{"type": "move", "room": "K7Q2", "move": "4", "id": 3}')
MakeMove(room='K7Q2', move='4', ply=None, id=3)
>>> try:
...     decode_client_message('{"type": "move", "room": "K7Q2", "id": 3}')
... except ProtocolError as error:
...     print(error.code, error.request_id, error.message)
invalid_field 3 move: Object missing required field `move`
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import msgspec

from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    CLIENT_MESSAGES,
    LEVELS,
    ClientMessage,
    ServerMessage,
)

MAX_FRAME_BYTES = 64 * 1024
"""Largest frame either side accepts. Every real message is far smaller; the cap
bounds what one client can make the server parse."""
MAX_NAME_LENGTH = 32

_ENCODER = msgspec.json.Encoder()
_SERVER_DECODER = msgspec.json.Decoder(ServerMessage)
_TYPES = ", ".join(sorted(CLIENT_MESSAGES))


def decode_client_message(frame: str | bytes) -> ClientMessage:
    """The client message in a text frame; raises :class:`ProtocolError` otherwise."""
    size = len(frame.encode() if isinstance(frame, str) else frame)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError(
            ErrorCode.FRAME_TOO_LARGE,
            f"frame of {size} bytes is over the limit of {MAX_FRAME_BYTES} bytes",
        )
    try:
        raw: Any = msgspec.json.decode(frame)
    except msgspec.DecodeError as error:
        raise ProtocolError(ErrorCode.MALFORMED_JSON, f"not valid JSON: {error}") from None
    except RecursionError:
        # Arrays or objects nested ~1000 deep exhaust the decoder's stack; no
        # message of the protocol nests more than three levels.
        raise ProtocolError(
            ErrorCode.MALFORMED_JSON, "JSON nested too deep: messages nest a few levels at most"
        ) from None
    if not isinstance(raw, dict):
        raise ProtocolError(
            ErrorCode.NOT_AN_OBJECT,
            f'expected a JSON object such as {{"type": "ping"}}, got {_json_kind(raw)}',
        )
    request_id = raw.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        request_id = None
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        shown = "no `type` field" if kind is None else f"unknown type {kind!r}"
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"{shown}: expected one of {_TYPES}",
            request_id=request_id,
        )
    try:
        message: ClientMessage = msgspec.convert(raw, CLIENT_MESSAGES[kind])  # type: ignore[assignment]
    except msgspec.ValidationError as error:
        raise ProtocolError(
            ErrorCode.INVALID_FIELD,
            f"{kind}: {error}{_choices_hint(str(error))}",
            request_id=request_id,
        ) from None
    return message


_FIELD_CHOICES = {
    "level": LEVELS,
    "ai_level": LEVELS,
    "seat": ("first", "second", "random"),
    "client": ("human", "bot"),
    "kind": ("none", "per_move", "increment"),
}
"""The values accepted by each field of a fixed set (msgspec names only the bad one)."""


def _choices_hint(error: str) -> str:
    """``"; choose one of ..."`` for a bad value of a field of a fixed set."""
    match = re.search(r"Invalid enum value .* - at `\$\.(?:\w+\.)*(\w+)`", error)
    if match is None or match.group(1) not in _FIELD_CHOICES:
        return ""
    return f"; choose one of {', '.join(_FIELD_CHOICES[match.group(1)])}"


def encode_message(message: ClientMessage | ServerMessage) -> str:
    """The JSON text of a message (fields at their defaults left out)."""
    return _ENCODER.encode(message).decode()


def decode_server_message(frame: str | bytes) -> ServerMessage:
    """A server message, for clients. Raises :class:`msgspec.DecodeError` or
    :class:`msgspec.ValidationError` (both ``ValueError``) if the server broke the
    contract."""
    message: ServerMessage = _SERVER_DECODER.decode(frame)
    return message


def check_player_name(name: str) -> str:
    """``name`` trimmed, if it is fit to show to others; raises
    :class:`ProtocolError` (``bad_name``) otherwise: for what chat refuses too
    (:func:`is_terminal_control`: line separators among them), and for any
    other invisible, private-use or unassigned character (a name is shown
    everywhere, and must be told apart from others: even the zero-width joiner)."""
    trimmed = name.strip()
    if not trimmed:
        raise ProtocolError(ErrorCode.BAD_NAME, "name is empty: choose 1 to 32 characters")
    if len(trimmed) > MAX_NAME_LENGTH:
        raise ProtocolError(
            ErrorCode.BAD_NAME,
            f"name is {len(trimmed)} characters long: choose 1 to {MAX_NAME_LENGTH}",
        )
    if any(
        is_terminal_control(char) or unicodedata.category(char).startswith("C") for char in trimmed
    ):
        raise ProtocolError(
            ErrorCode.BAD_NAME,
            "name holds control or invisible characters: use letters, digits, "
            "spaces and punctuation",
        )
    return trimmed


_ZERO_WIDTH_JOINER = "\u200d"
"""A format character that emoji sequences (a family, a flag) are made of."""


def is_terminal_control(char: str) -> bool:
    """Whether a terminal would act on ``char`` rather than show it: a control
    character (C0, DEL, C1: ESC starts the sequences that clear a screen, set a
    window title or write the clipboard), a lone surrogate, a line or paragraph
    separator, or an invisible format character such as the right-to-left
    override (but the zero-width joiner, which emoji sequences are made of).

    >>> [is_terminal_control(c) for c in ("\\x1b", "\\u202e", "\\u2028", "\\u200d", "a")]
    [True, True, True, False, False]
    """
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Zl", "Zp"):
        return True
    return category == "Cf" and char != _ZERO_WIDTH_JOINER


def check_chat_text(text: str) -> str:
    """``text`` if it is fit to print on others' screens; raises
    :class:`ProtocolError` (``bad_text``) if it holds a character that a
    terminal would act on rather than show (:func:`is_terminal_control`).

    >>> check_chat_text("good game 👍")
    'good game 👍'
    >>> try:
    ...     check_chat_text("\\x1b]52;c;aGk=\\x07")  # OSC 52: write the clipboard
    ... except ProtocolError as error:
    ...     print(error.code.value)
    bad_text
    """
    for position, char in enumerate(text, start=1):
        if is_terminal_control(char):
            raise ProtocolError(
                ErrorCode.BAD_TEXT,
                f"chat text holds a control character (U+{ord(char):04X}) at position "
                f"{position}: send plain text on one line",
            )
    return text


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"
