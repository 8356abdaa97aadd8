"""Server text made safe to print: which characters are escaped, and how."""

from __future__ import annotations

import json

import pytest

from boardroom.client.printable import decode_printable, printable
from boardroom.shared.protocol.messages import ChatLine, State


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),  # C0: ESC, the start of every terminal sequence
        ("a\rb\nc\td\x00\x7f", "a\\x0db\\x0ac\\x09d\\x00\\x7f"),  # C0 and DEL
        ("\x9b31m", "\\x9b31m"),  # C1: a one-byte CSI
        ("abc\u202edef", "abc\\u202edef"),  # a right-to-left override
        ("one\u2028two\u2029", "one\\u2028two\\u2029"),  # line and paragraph separators
        ("\U000e0001tag", "\\U000e0001tag"),  # a format character outside the BMP
    ],
)
def test_characters_a_terminal_would_obey_are_escaped(sent: str, shown: str) -> None:
    assert printable(sent) == shown
    assert printable(shown) == shown  # what is escaped prints as it is


def test_printable_text_is_kept_as_it_is_emoji_sequences_included() -> None:
    for text in ("Zoë", "good game 👍", "👨\u200d👩\u200d👧", "a\u00a0b", "back\\slash"):
        assert printable(text) is text


def test_a_message_is_escaped_in_every_string_and_left_alone_when_plain() -> None:
    chat = json.dumps({"type": "chat", "room": "ABCDEF", "name": "eve", "text": "hi\x07"})
    assert decode_printable(chat) == ChatLine(room="ABCDEF", name="eve", text="hi\\x07")
    state = json.dumps(
        {
            "type": "state",
            "room": {
                "code": "ABCDEF", "game": "tictactoe", "title": "T\x1b", "status": "waiting",
                "public": True, "clock": {}, "moves": "", "ply": 0,
                "seats": [{"side": "first", "name": "ann\x1b"}, {"side": "second"}],
            },
        }
    )  # fmt: skip
    decoded = decode_printable(state)
    assert isinstance(decoded, State)
    assert decoded.room.title == "T\\x1b"
    assert [seat.name for seat in decoded.room.seats] == ["ann\\x1b", None]
