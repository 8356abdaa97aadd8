"""What the processes of a cluster send each other over Redis pub/sub.

Each envelope names its ``sender`` (a node id). Client messages and server
messages travel as the JSON text the client sent or will receive, so a relayed
message is decoded once, by the process that acts on it, with the same checks
as a message from a socket.
"""

from __future__ import annotations

import msgspec

from boardroom.server.hub.boundary import SessionRecord


class Forward(msgspec.Struct, tag="forward", frozen=True):
    """Gateway → owner: ``text`` (a client message) from the session ``session``,
    whose resume token is ``token``, connected from ``address``."""

    sender: str
    session: SessionRecord
    token: str
    address: str
    text: str


class Deliver(msgspec.Struct, tag="deliver", frozen=True):
    """Owner → gateway: send ``text`` (a server message) to the session's
    connection (for a connection carried whole to a class's home, ``session``
    names the connection)."""

    sender: str
    session: str
    text: str


class Close(msgspec.Struct, tag="close", frozen=True):
    """Owner → gateway: close the session's connection with ``code``."""

    sender: str
    session: str
    code: int
    reason: str


class Gone(msgspec.Struct, tag="gone", frozen=True):
    """Gateway → owners: the session's connection closed (its seats are held)."""

    sender: str
    session: str


class Ask(msgspec.Struct, tag="ask", frozen=True):
    """Gateway → every process: where does the session hold seats? (``question``
    numbers the answers)."""

    sender: str
    question: int
    session: str


class Answer(msgspec.Struct, tag="answer", frozen=True):
    """A process → the asking gateway: the session is ``known`` here, and holds
    seats in ``rooms``."""

    sender: str
    question: int
    known: bool
    rooms: list[str]


class Attach(msgspec.Struct, tag="attach", frozen=True):
    """Gateway → a process that knows the session: its connection is at the
    sender now; tell its rooms it is back."""

    sender: str
    session: SessionRecord
    token: str
    address: str


class RoomsMoved(msgspec.Struct, tag="moved", frozen=True):
    """New owner → every process: it took ``rooms`` over from the dead ``previous``."""

    sender: str
    previous: str
    rooms: list[str]


class Frame(msgspec.Struct, tag="frame", frozen=True):
    """Gateway → the class's home: ``text``, a frame of the connection
    ``connection`` (from ``address``), all of whose frames go to the home."""

    sender: str
    connection: str
    address: str
    text: str


class Hangup(msgspec.Struct, tag="hangup", frozen=True):
    """Gateway → the class's home: the connection ``connection`` closed."""

    sender: str
    connection: str


Envelope = Forward | Deliver | Close | Gone | Ask | Answer | Attach | RoomsMoved | Frame | Hangup

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Envelope] = msgspec.json.Decoder(Envelope)


def encode(envelope: Envelope) -> bytes:
    return _encoder.encode(envelope)


def decode(data: bytes | str) -> Envelope:
    """The envelope in ``data``; raises :class:`msgspec.DecodeError` if it is none."""
    return _decoder.decode(data)
