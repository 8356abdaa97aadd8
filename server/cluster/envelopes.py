"""What the processes of a cluster send each other over Redis pub/sub.

Each envelope names its ``sender`` (a node id). Client messages and server
messages travel as the JSON text the client sent or will receive, so a relayed
message is decoded once, by the process that acts on it, with the same checks
as a message from a socket; a server message for several clients of one process
travels once (:class:`Deliver` names them all).

One publish may carry several envelopes, for one process, in the order they
were sent (:func:`encode_bundle`, :func:`decode_bundle`): one line each, as JSON
never holds a raw newline. A cluster's processes all run one version: the
envelopes change with it, and are not read across versions.
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
    """Owner → gateway: send ``text`` (a server message) to the connection of
    each of ``sessions`` (for a connection carried whole to a class's home, a
    session names the connection). Sent once for all the receivers of one message
    at one gateway (:meth:`~boardroom.server.cluster.relay.Publisher.deliver`
    adds a receiver to the envelope not yet written)."""

    sender: str
    sessions: list[str]
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


def encode_bundle(envelopes: list[Envelope]) -> bytes:
    """Several envelopes as one message, in order (one line each).

    >>> data = encode_bundle([Gone("n1", "s1"), Gone("n1", "s2")])
    >>> [envelope.session for envelope in decode_bundle(data)]
    ['s1', 's2']
    """
    if len(envelopes) == 1:
        return _encoder.encode(envelopes[0])
    return b"\n".join([_encoder.encode(envelope) for envelope in envelopes])


def decode_bundle(data: bytes) -> list[Envelope | None]:
    """The envelopes of a message :func:`encode_bundle` made, in order; None for
    a line that is no envelope (the others are still read)."""
    envelopes: list[Envelope | None] = []
    for line in data.split(b"\n"):
        try:
            envelopes.append(_decoder.decode(line))
        except msgspec.DecodeError:
            envelopes.append(None)
    return envelopes
