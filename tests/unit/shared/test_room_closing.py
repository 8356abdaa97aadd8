"""Why a room was closed, as a code (``room_closed``'s ``kind`` and ``names``):
the server's English words for each code (the wire's ``reason``, byte for byte
what it always said), and the clients' words for them in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardroom.client.room_closed import closed_text
from boardroom.shared.i18n import use_language
from boardroom.shared.protocol.codec import decode_server_message, encode_message
from boardroom.shared.protocol.messages import RoomClosed
from boardroom.shared.protocol.room_closing import ENGLISH, ClosedKind, Closing

WORDS_JS = Path(__file__).parents[3] / "server" / "web" / "static" / "words.js"

CASES = [
    (Closing.teacher(), "teacher", "closed by the teacher", "la cerró tu docente"),
    (
        Closing.no_show(absent="Dora", winner="Ada"),
        "no_show",
        "Dora did not sit down in time: Ada wins by forfeit",
        "Dora no se sentó a tiempo y pierde por no presentarse: gana Ada",
    ),
    (
        Closing.double_no_show(),
        "double_no_show",
        "neither player sat down in time: both lose by forfeit",
        "ningún jugador se sentó a tiempo: los dos pierden por no presentarse",
    ),
    (
        Closing.removed(absent="gus", winner="ann"),
        "removed",
        "gus was removed from the class: ann wins by forfeit",
        "gus ya no está en la clase y pierde por no presentarse: gana ann",
    ),
    (
        Closing.tournament_cancelled("Cup"),
        "tournament_cancelled",
        "the teacher cancelled the tournament Cup",
        "tu docente canceló el torneo Cup",
    ),
    (
        Closing.storage_lost(),
        "storage_lost",
        "the server could not save its game for too long",
        "el servidor no pudo guardar su partida durante demasiado tiempo",
    ),
]


def wire(closing: Closing) -> RoomClosed:
    """The ``room_closed`` the server sends for ``closing`` (as the room's table makes it)."""
    return RoomClosed(
        room="K7Q2", reason=closing.english(), kind=closing.kind.value, names=dict(closing.names)
    )


@pytest.mark.parametrize(("closing", "kind", "english", "spanish"), CASES)
def test_each_code_has_its_english_words(
    closing: Closing, kind: str, english: str, spanish: str
) -> None:
    assert closing.kind == kind
    assert closing.english() == english


def test_every_code_is_tested() -> None:
    assert {case[1] for case in CASES} == {kind.value for kind in ClosedKind}


@pytest.mark.parametrize(("closing", "kind", "english", "spanish"), CASES)
def test_a_client_words_each_code_in_its_readers_language(
    closing: Closing, kind: str, english: str, spanish: str
) -> None:
    message = wire(closing)
    with use_language("en"):
        assert closed_text(message) == english == message.reason
    with use_language("es"):
        assert closed_text(message) == spanish


def test_the_codes_go_on_the_wire_beside_the_english_reason() -> None:
    sent = encode_message(wire(Closing.no_show(absent="Dora", winner="Ada")))
    assert decode_server_message(sent) == RoomClosed(
        room="K7Q2",
        reason="Dora did not sit down in time: Ada wins by forfeit",
        kind="no_show",
        names={"absent": "Dora", "winner": "Ada"},
    )
    # A close without a code (or an older server) sends only the reason.
    assert "kind" not in encode_message(RoomClosed(room="K7Q2", reason="lesson over"))


@pytest.mark.parametrize(
    "message",
    [
        RoomClosed(room="K7Q2", reason="lesson over"),
        RoomClosed(room="K7Q2", reason="the moon fell", kind="moon_fell"),
        RoomClosed(room="K7Q2", reason="Dora left: Ada wins", kind="no_show", names={"x": "y"}),
    ],
)
def test_without_a_code_it_knows_a_client_keeps_the_servers_words(message: RoomClosed) -> None:
    with use_language("es"):
        assert closed_text(message) == message.reason


def test_the_browser_words_the_same_codes() -> None:
    """words.js's CLOSINGS is the twin of ENGLISH: the same codes, the same messages."""
    source = WORDS_JS.read_text(encoding="utf-8")
    block = source[source.index("const CLOSINGS = {") :]
    block = block[: block.index("};")]
    browser = dict(re.findall(r'(\w+): N_\("([^"]*)"\)', block))
    assert browser == {kind.value: words for kind, words in ENGLISH.items()}
