"""Bad input, end to end: every refusal is a typed error, and nothing breaks.

Pins the design's contract "Every bad input gets a clear, typed error and changes
nothing ... The connection and the room survive whatever one client sends", with
the codes of ``docs/protocol.md`` ("Errors"). Each test sends something wrong over
a real WebSocket to a real server and checks three things:

- the reply is one ``error`` with the documented ``code``, a ``message`` naming
  the input or field at fault, and the request's ``id`` when the frame was an
  object carrying one;
- the connection survives: a ``ping`` still gets its ``pong``;
- where a game is involved, the room survives: nothing changed (``get_state``
  shows the same moves) and the next legal move is accepted and seen by both.

Only sustained flooding, a frame over the hard cap and a connection over the
per-address cap end a connection, each with its documented close code, while
the server and everyone else carry on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harness import Player, RunningServer, assert_alive, running_server, wait_until
from websockets.exceptions import ConnectionClosed

from boardroom.server.app import HARD_FRAME_BYTES
from boardroom.server.core.limits import DEFAULT_ABUSE_STRIKES as ABUSE_STRIKES
from boardroom.shared.protocol.close_codes import CLOSE_ABUSE
from boardroom.shared.protocol.codec import MAX_FRAME_BYTES, MAX_NAME_LENGTH

LENIENT = {"rate": 1000.0, "burst": 1000}
"""Rate limits out of the way, for the tests that are not about flooding: each
of them sends more messages in a burst than the default limit allows."""

CELLS = [f"{column}{row}" for row in "123" for column in "abc"]
"""Tic-tac-toe cells in the order :func:`play_on` fills them."""

LEVELS = ("random", "easy", "medium", "hard", "perfect")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    """A real server with the rate limits out of the way."""
    async with running_server(tmp_path / "games.db", **LENIENT) as running:
        yield running


# -- helpers ------------------------------------------------------------------------------


def assert_error(reply: dict[str, Any], code: str, *words: str) -> dict[str, Any]:
    """``reply`` is an ``error`` with ``code`` whose message holds each of ``words``
    (case-insensitive): the message names what was wrong."""
    assert reply.get("type") == "error", reply
    assert reply.get("code") == code, reply
    message = reply.get("message")
    assert isinstance(message, str) and message, reply
    for word in words:
        assert word.lower() in message.lower(), (word, reply)
    return reply


async def hello(url: str, name: str = "carol") -> Player:
    """A new connection that has said hello."""
    return await Player.join_server(url, name)


@dataclass
class Table:
    """A tic-tac-toe game in progress: ``first`` (Ann, X) against ``second`` (Bob)."""

    first: Player
    second: Player
    code: str

    async def state(self, player: Player | None = None) -> dict[str, Any]:
        """The room's whole state, as ``player`` (default: ``first``) sees it."""
        reply = await (player or self.first).request({"type": "get_state", "room": self.code})
        assert reply["type"] == "state", reply
        room: dict[str, Any] = reply["room"]
        return room

    def seated(self, side: str) -> Player:
        return self.first if side == "first" else self.second

    async def move(self, cell: str) -> None:
        """The side to move plays ``cell``; both see it."""
        state = await self.state()
        mover = self.seated(state["to_move"])
        other = self.second if mover is self.first else self.first
        reply = await mover.request({"type": "move", "room": self.code, "move": cell})
        assert reply["type"] == "moved" and reply["move"] == cell, reply
        await other.expect("moved", room=self.code, ply=reply["ply"], move=cell)


async def start_game(server: RunningServer) -> Table:
    """Ann creates a public tic-tac-toe room (she is X), Bob joins; the game is on.
    Both have read everything sent so far."""
    first = await Player.join_server(server.ws_url, "ann")
    created = await first.request({"type": "create_room", "game": "tictactoe"})
    assert created["type"] == "state", created
    code = created["room"]["code"]
    second = await Player.join_server(server.ws_url, "bob")
    joined = await second.request({"type": "join", "code": code})
    assert joined["type"] == "state" and joined["room"]["status"] == "playing", joined
    started = await first.expect("state")
    assert started["room"]["status"] == "playing", started
    return Table(first, second, code)


async def play_on(table: Table) -> None:
    """The room survives: the side to move plays the next free cell, the move is
    accepted, and the opponent's very next message is that move (nothing else
    was sent to them in between)."""
    state = await table.state()
    assert state["status"] == "playing", state
    mover = table.seated(state["to_move"])
    other = table.second if mover is table.first else table.first
    taken = set(state["moves"].split())
    cell = next(cell for cell in CELLS if cell not in taken)
    reply = await mover.request(
        {"type": "move", "room": table.code, "move": cell, "ply": state["ply"]}
    )
    assert reply["type"] == "moved", reply
    assert (reply["move"], reply["ply"]) == (cell, state["ply"]), reply
    seen = await other.recv()
    assert seen["type"] == "moved" and seen["move"] == cell, seen


def game_view(state: dict[str, Any]) -> dict[str, Any]:
    """What a refused request must not change."""
    keys = ("status", "moves", "ply", "to_move", "draw_offer", "result", "game_number", "seats")
    return {key: state.get(key) for key in keys}


def padded_ping(size: int, request_id: int) -> str:
    """A ``ping`` frame of exactly ``size`` bytes (an unknown field pads it)."""
    head, tail = f'{{"type": "ping", "id": {request_id}, "pad": "', '"}'
    frame = head + "x" * (size - len(head) - len(tail)) + tail
    assert len(frame.encode()) == size
    return frame


# -- the frame itself ---------------------------------------------------------------------


async def test_malformed_json_is_refused_and_the_game_goes_on(server: RunningServer) -> None:
    """A text frame that is not JSON gets ``malformed_json`` saying so (no id to
    echo: nothing could be read); the sender, seated in a game, stays connected
    and the game goes on unchanged."""
    table = await start_game(server)
    before = game_view(await table.state())
    for frame in ('{"type": "ping"', "not json", '{"type": "ping", "id": 7,}', ""):
        await table.second.send(frame)
        error = assert_error(await table.second.expect("error"), "malformed_json", "JSON")
        assert error.get("id") is None, error
        await assert_alive(table.second)
    assert game_view(await table.state()) == before
    await play_on(table)


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 5000 + "]" * 5000,
        '{"type": "ping", "id": 905, "pad": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"a": ' * 3000 + "1" + "}" * 3000,
    ],
    ids=["deep-array", "ping-with-deep-field", "deep-object"],
)
async def test_deeply_nested_json_is_refused_and_the_connection_survives(
    server: RunningServer, frame: str
) -> None:
    """JSON nested thousands deep (a few KiB, well under the frame cap) is input
    like any other: it gets one typed error (the parser gives up on it, so
    ``malformed_json``; ``not_an_object`` or ``invalid_field`` would do too), and
    the sender, seated in a game, stays connected while the game goes on."""
    table = await start_game(server)
    assert len(frame.encode()) < MAX_FRAME_BYTES
    await table.second.send(frame)
    reply = await table.second.expect("error")
    assert reply["code"] in ("malformed_json", "not_an_object", "invalid_field"), reply
    await assert_alive(table.second)
    await play_on(table)


@pytest.mark.parametrize(
    ("frame", "kind"),
    [("[1, 2]", "array"), ('"hi"', "string"), ("42", "number"), ("null", "null")],
)
async def test_json_that_is_not_an_object_is_refused(
    server: RunningServer, frame: str, kind: str
) -> None:
    """Valid JSON that is not an object gets ``not_an_object``, naming what it got
    and showing what an object looks like; the connection and the game survive."""
    table = await start_game(server)
    await table.first.send(frame)
    error = assert_error(await table.first.expect("error"), "not_an_object", kind, "object")
    assert error.get("id") is None, error
    await assert_alive(table.first)
    await play_on(table)


@pytest.mark.parametrize(
    ("message", "named"),
    [
        ({"type": "fly_away"}, "fly_away"),
        ({"type": "PING"}, "PING"),
        ({"move": "a1"}, "type"),
        ({"type": 5}, "5"),
        ({"type": ["move"]}, "type"),
        ({"type": None}, "type"),
    ],
    ids=["unknown", "wrong-case", "missing", "number", "list", "null"],
)
async def test_unknown_or_missing_type_is_refused_with_the_id(
    server: RunningServer, message: dict[str, Any], named: str
) -> None:
    """A ``type`` that is missing, not a string or no client message gets
    ``unknown_type`` naming it and listing the types; the id is echoed (a string
    id as much as a number); the connection and the game survive."""
    table = await start_game(server)
    reply = await table.first.request(message)  # a numeric id
    assert_error(reply, "unknown_type", named, "ping", "move", "hello")
    await table.first.send({**message, "id": "req-7"})
    reply = await table.first.expect("error", id="req-7")
    assert_error(reply, "unknown_type", named)
    await assert_alive(table.first)
    await play_on(table)


@pytest.mark.parametrize(
    ("make", "field", "accepted"),
    [
        (lambda code: {"type": "move", "room": code}, "move", ""),
        (lambda code: {"type": "move", "room": 5, "move": "a1"}, "$.room", "str"),
        (lambda code: {"type": "move", "room": code, "move": "a1", "ply": "0"}, "$.ply", "int"),
        (lambda code: {"type": "chat", "room": code, "text": "x" * 501}, "$.text", "500"),
        (lambda code: {"type": "chat", "room": code, "text": ""}, "$.text", "1"),
        (lambda code: {"type": "chat", "room": code}, "text", ""),
        (lambda code: {"type": "hello", "name": "ann", "version": "1"}, "$.version", "int"),
    ],
    ids=["no-move", "room-int", "ply-str", "chat-501", "chat-empty", "chat-no-text", "ver-str"],
)
async def test_missing_wrong_typed_or_out_of_range_fields_are_named(
    server: RunningServer, make: Any, field: str, accepted: str
) -> None:
    """A missing field, one of the wrong type and one out of range each get
    ``invalid_field`` naming the field (and what would be accepted), with the id
    echoed; nothing changes and the game goes on."""
    table = await start_game(server)
    before = game_view(await table.state())
    reply = await table.first.request(make(table.code))
    assert_error(reply, "invalid_field", field, accepted)
    await assert_alive(table.first)
    assert game_view(await table.state()) == before
    await play_on(table)


async def test_a_chat_line_of_500_characters_is_accepted(server: RunningServer) -> None:
    """The bound of ``chat`` text is inclusive: 500 characters go through to both."""
    table = await start_game(server)
    text = "y" * 500
    reply = await table.first.request({"type": "chat", "room": table.code, "text": text})
    assert reply["type"] == "chat" and reply["text"] == text, reply
    assert (await table.second.expect("chat"))["text"] == text


async def test_a_chat_line_with_terminal_escapes_is_refused(server: RunningServer) -> None:
    """OSC 52 (which writes a terminal's clipboard) in chat gets ``bad_text``; the
    opponent receives nothing and the game goes on."""
    table = await start_game(server)
    osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
    reply = await table.first.request({"type": "chat", "room": table.code, "text": osc52})
    assert_error(reply, "bad_text", "control character")
    await assert_alive(table.first)
    said = await table.first.request({"type": "chat", "room": table.code, "text": "gg"})
    assert said["type"] == "chat", said
    assert (await table.second.expect("chat"))["text"] == "gg"  # the refused line never came
    await play_on(table)


@pytest.mark.parametrize("bad_id", [1.5, True, {"n": 1}, [1]], ids=["float", "bool", "obj", "list"])
async def test_an_id_of_the_wrong_type_is_named(server: RunningServer, bad_id: Any) -> None:
    """An ``id`` that is neither an integer nor a string gets ``invalid_field``
    naming ``$.id`` (it cannot be echoed, so the error carries none); the
    connection goes on."""
    player = await hello(server.ws_url)
    await player.send({"type": "ping", "id": bad_id})
    error = assert_error(await player.expect("error"), "invalid_field", "$.id")
    assert error.get("id") is None, error
    await assert_alive(player)


async def test_a_hello_with_a_wrong_typed_version_then_a_good_hello(
    server: RunningServer,
) -> None:
    """``hello`` with ``"version": "1"`` (a string) gets ``invalid_field`` naming
    ``$.version``; a correct hello on the same connection is then welcomed."""
    player = await Player.connect(server.ws_url)
    reply = await player.request({"type": "hello", "name": "ann", "version": "1"})
    assert_error(reply, "invalid_field", "$.version")
    welcome = await player.request({"type": "hello", "name": "ann", "version": 1})
    assert welcome["type"] == "welcome" and welcome["name"] == "ann", welcome


async def test_a_frame_just_over_64_kib_is_refused_and_the_connection_goes_on(
    server: RunningServer,
) -> None:
    """A text frame of 64 KiB + 1 byte gets ``frame_too_large`` giving the size and
    the limit, and the connection carries on; a frame of exactly 64 KiB is read
    (and answered with the id it carried)."""
    table = await start_game(server)
    await table.first.send(padded_ping(MAX_FRAME_BYTES + 1, 901))
    error = await table.first.expect("error")
    assert_error(error, "frame_too_large", str(MAX_FRAME_BYTES + 1), str(MAX_FRAME_BYTES))
    await assert_alive(table.first)
    await table.first.send(padded_ping(MAX_FRAME_BYTES, 902))
    assert (await table.first.expect("pong"))["id"] == 902
    await play_on(table)


async def test_frames_up_to_and_of_exactly_the_hard_cap_get_frame_too_large(
    server: RunningServer,
) -> None:
    """The hard cap is 1 MiB, as docs/protocol.md says, and a frame of up to
    1 MiB, that size included, is answered with ``frame_too_large`` naming its
    size; the connection goes on."""
    assert HARD_FRAME_BYTES == 1024 * 1024 == 1_048_576
    table = await start_game(server)
    for size, request_id in ((HARD_FRAME_BYTES - 1, 904), (HARD_FRAME_BYTES, 905)):
        await table.first.send(padded_ping(size, request_id))
        error = await table.first.expect("error")
        assert_error(error, "frame_too_large", str(size), str(MAX_FRAME_BYTES))
        await assert_alive(table.first)
    await play_on(table)


async def test_a_frame_over_the_hard_cap_closes_only_that_connection(
    server: RunningServer,
) -> None:
    """A frame over the hard cap (16 x 64 KiB = 1 MiB), by one byte already, is
    not read at all: that connection is closed with 1009 (message too big). The
    server stays healthy: a game between two others goes on, a new connection
    works, ``/healthz`` is ok."""
    table = await start_game(server)
    vandal = await hello(server.ws_url, "vandal")
    await vandal.send(padded_ping(HARD_FRAME_BYTES + 1, 903))
    assert await vandal.closed() == 1009
    await assert_alive(table.first)
    await play_on(table)
    newcomer = await hello(server.ws_url, "newcomer")
    await assert_alive(newcomer)
    health = await server.get_json("/healthz")
    assert health["status"] == "ok", health


async def test_a_binary_frame_is_refused(server: RunningServer) -> None:
    """A binary frame (even one holding valid JSON) gets ``binary_frame``; the
    connection and the game survive."""
    table = await start_game(server)
    await table.first.send(b'{"type": "ping", "id": 904}')
    error = assert_error(await table.first.expect("error"), "binary_frame", "binary", "text")
    assert error.get("id") is None, error
    await table.first.send(b"\x00\xff\x10")
    assert_error(await table.first.expect("error"), "binary_frame")
    await assert_alive(table.first)
    await play_on(table)


# -- the session ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        {"type": "list_rooms"},
        {"type": "create_room", "game": "tictactoe"},
        {"type": "join", "code": "ABCD"},
        {"type": "watch", "code": "ABCD"},
        {"type": "quick_match", "game": "connect4"},
        {"type": "move", "room": "ABCD", "move": "a1"},
        {"type": "chat", "room": "ABCD", "text": "hi"},
        {"type": "get_state", "room": "ABCD"},
    ],
    ids=lambda message: message["type"],
)
async def test_room_messages_before_hello_are_refused(
    server: RunningServer, message: dict[str, Any]
) -> None:
    """Before ``hello``, anything but ``ping`` gets ``hello_required`` (with the
    id, and showing what a hello looks like); ping works and a hello then does."""
    player = await Player.connect(server.ws_url)
    reply = await player.request(message)
    assert_error(reply, "hello_required", "hello", "version")
    await assert_alive(player)
    welcome = await player.request({"type": "hello", "name": "ann", "version": 1})
    assert welcome["type"] == "welcome", welcome


async def test_an_unsupported_version_then_a_good_hello(server: RunningServer) -> None:
    """``hello`` with version 3 gets ``unsupported_version`` naming the versions
    spoken (1 or 2); version 1 on the same connection is then welcomed."""
    player = await Player.connect(server.ws_url)
    reply = await player.request({"type": "hello", "name": "ann", "version": 3})
    assert_error(reply, "unsupported_version", "version 3", "use 1 or 2")
    await assert_alive(player)
    welcome = await player.request({"type": "hello", "name": "ann", "version": 1})
    assert welcome["type"] == "welcome" and welcome["version"] == 1, welcome


@pytest.mark.parametrize(
    "name",
    [
        *("", "   ", "\t", "a" * (MAX_NAME_LENGTH + 1), "a\u0000b", "a\nb", "a\u200bb"),
        *("\x1b[31mred", "ann\u2028bob", "ann\u2029bob"),
    ],
    ids=[
        *("empty", "spaces", "tab", "33-chars", "nul", "newline", "zero-width"),
        *("ansi-escape", "line-separator", "paragraph-separator"),
    ],
)
async def test_bad_names_are_refused_then_a_good_hello_works(
    server: RunningServer, name: str
) -> None:
    """An empty or blank name, one over 32 characters, or one holding control or
    invisible characters gets ``bad_name`` (with the id, about the name); the
    same connection may then say hello with a good name."""
    player = await Player.connect(server.ws_url)
    reply = await player.request({"type": "hello", "name": name, "version": 1})
    assert_error(reply, "bad_name", "name")
    await assert_alive(player)
    welcome = await player.request({"type": "hello", "name": "ann", "version": 1})
    assert welcome["type"] == "welcome" and welcome["name"] == "ann", welcome


async def test_a_name_of_32_characters_is_accepted(server: RunningServer) -> None:
    """The name limit is inclusive: 32 characters are welcome (spaces around trimmed)."""
    name = "n" * MAX_NAME_LENGTH
    player = await Player.connect(server.ws_url)
    welcome = await player.request({"type": "hello", "name": f"  {name} ", "version": 1})
    assert welcome["type"] == "welcome" and welcome["name"] == name, welcome


async def test_a_name_over_200_characters_is_refused(server: RunningServer) -> None:
    """A name over 200 characters is refused before any other check. The message
    struct caps the field at 200, so the code is ``invalid_field`` naming
    ``$.name`` (``bad_name`` would fit the protocol table as well: "one over 32
    characters"); either way the name is named, and a good hello then works."""
    player = await Player.connect(server.ws_url)
    reply = await player.request({"type": "hello", "name": "a" * 201, "version": 1})
    assert reply.get("code") in ("invalid_field", "bad_name"), reply
    assert_error(reply, reply["code"], "name")
    await assert_alive(player)
    welcome = await player.request({"type": "hello", "name": "ann", "version": 1})
    assert welcome["type"] == "welcome", welcome


async def test_a_wrong_resume_token_then_a_hello_without_one(server: RunningServer) -> None:
    """A made-up resume token gets ``bad_token`` (about the token, saying to hello
    without one); a hello without a token on the same connection then opens a
    new session, and the seats of others are untouched."""
    table = await start_game(server)
    player = await Player.connect(server.ws_url)
    assert table.first.token is not None
    for token in ("not-a-token", table.first.token + "x", "x" * 200):
        reply = await player.request(
            {"type": "hello", "name": "mallory", "version": 1, "resume_token": token}
        )
        assert_error(reply, "bad_token", "token")
    welcome = await player.request({"type": "hello", "name": "mallory", "version": 1})
    assert welcome["type"] == "welcome" and not welcome.get("resumed_rooms"), welcome
    assert welcome["resume_token"] != table.first.token
    await play_on(table)


# -- rooms ---------------------------------------------------------------------------------


ROOM_ACTIONS = ["move", "resign", "offer_draw", "accept_draw", "decline_draw", "rematch"]


@pytest.mark.parametrize("watching", [False, True], ids=["stranger", "spectator"])
async def test_nobody_acts_for_a_seat_that_is_not_theirs(
    server: RunningServer, watching: bool
) -> None:
    """A third client, whether a stranger to the room or a spectator, who sends
    ``move``, ``resign``, ``offer_draw``, ``accept_draw``, ``decline_draw``,
    ``rematch`` or ``add_ai`` to a game in progress gets ``not_seated`` each time
    (with the id), and so does a stranger's ``chat``, ``get_state`` or ``leave``;
    nothing changes and the game goes on."""
    table = await start_game(server)
    await table.move("b2")
    intruder = await hello(server.ws_url, "mallory")
    if watching:
        watched = await intruder.request({"type": "watch", "code": table.code})
        assert watched["type"] == "state" and "you" not in watched["room"], watched
    before = game_view(await table.state())
    for action in ROOM_ACTIONS:
        message: dict[str, Any] = {"type": action, "room": table.code}
        if action == "move":
            message["move"] = "a1"
        reply = await intruder.request(message)
        assert_error(reply, "not_seated", table.code)
    reply = await intruder.request({"type": "add_ai", "room": table.code, "level": "easy"})
    assert_error(reply, "not_seated", table.code)
    if not watching:  # spectators may chat and ask for the state; strangers may not
        for message in (
            {"type": "chat", "room": table.code, "text": "hi"},
            {"type": "get_state", "room": table.code},
            {"type": "leave", "room": table.code},
        ):
            assert_error(await intruder.request(message), "not_seated", table.code)
    await assert_alive(intruder)
    assert game_view(await table.state()) == before
    await play_on(table)
    if watching:
        assert (await intruder.expect("moved"))["ply"] == before["ply"]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "move", "room": "ZZZZ", "move": "a1"},
        {"type": "join", "code": "ZZZZ"},
        {"type": "watch", "code": "ZZZZ"},
        {"type": "get_state", "room": "ZZZZ"},
        {"type": "chat", "room": "ZZZZ", "text": "hi"},
        {"type": "resign", "room": "ZZZZ"},
        {"type": "leave", "room": "ZZZZ"},
        {"type": "add_ai", "room": "ZZZZ", "level": "easy"},
    ],
    ids=lambda message: message["type"],
)
async def test_an_unknown_room_code_is_refused(
    server: RunningServer, message: dict[str, Any]
) -> None:
    """A room code that names no room gets ``unknown_room`` quoting the code (with
    the id); a player seated elsewhere keeps their game."""
    table = await start_game(server)
    reply = await table.first.request(message)
    assert_error(reply, "unknown_room", "ZZZZ")
    await assert_alive(table.first)
    await play_on(table)


async def test_joining_a_full_room_is_refused(server: RunningServer) -> None:
    """A third player joining a room whose two seats are taken gets ``room_full``
    naming the room (and suggesting to watch); watching it then works, and the
    game goes on with the same two players."""
    table = await start_game(server)
    late = await hello(server.ws_url)
    before = game_view(await table.state())
    reply = await late.request({"type": "join", "code": table.code})
    assert_error(reply, "room_full", table.code, "watch")
    assert game_view(await table.state()) == before
    watched = await late.request({"type": "watch", "code": table.code})
    assert watched["type"] == "state", watched
    await play_on(table)


async def test_a_watch_code_does_not_open_a_seat(server: RunningServer) -> None:
    """A private room's watch code lets a newcomer watch, never sit, and its room
    code gets nobody in: ``join`` with either gets ``unknown_room``; the join
    code seats them."""
    ann = await hello(server.ws_url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe", "public": False})
    room = created["room"]
    bob = await hello(server.ws_url, "bob")
    reply = await bob.request({"type": "join", "code": room["watch_code"]})
    assert_error(reply, "unknown_room", room["watch_code"])
    reply = await bob.request({"type": "join", "code": room["code"]})
    assert_error(reply, "unknown_room", room["code"])
    reply = await bob.request({"type": "watch", "code": room["code"]})
    assert_error(reply, "unknown_room", room["code"])
    state = (await ann.request({"type": "get_state", "room": room["code"]}))["room"]
    assert state["status"] == "waiting", state
    joined = await bob.request({"type": "join", "code": room["join_code"]})
    assert joined["type"] == "state" and joined["room"]["status"] == "playing", joined
    await ann.expect("state")
    await play_on(Table(ann, bob, room["code"]))


async def test_adding_an_ai_to_a_full_room_is_refused(server: RunningServer) -> None:
    """``add_ai`` from a seated player when both seats are taken gets
    ``room_full``; nothing changes and the game goes on."""
    table = await start_game(server)
    before = game_view(await table.state())
    reply = await table.first.request({"type": "add_ai", "room": table.code, "level": "easy"})
    assert_error(reply, "room_full", table.code)
    assert game_view(await table.state()) == before
    await play_on(table)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"game": "chess"}, ("chess", "tictactoe", "connect4")),
        ({"game": "mnk"}, ("m", "n", "k")),
        ({"game": "mnk", "m": 3}, ("m", "n", "k")),
        ({"game": "mnk", "m": 3, "n": 3, "k": 4}, ("k=4", "3")),
        ({"game": "mnk", "m": 1, "n": 3, "k": 2}, ("m=1",)),
        ({"game": "mnk", "m": 3, "n": 99, "k": 3}, ("n=99",)),
        ({"game": "mnk", "m": 3, "n": 3, "k": 1}, ("k=1",)),
    ],
    ids=["chess", "mnk-bare", "mnk-only-m", "k-too-long", "m-too-small", "n-too-big", "k-1"],
)
async def test_create_room_for_an_unknown_game_is_refused(
    server: RunningServer, options: dict[str, Any], words: tuple[str, ...]
) -> None:
    """``create_room`` for a game that does not exist, ``mnk`` without its sizes
    or with sizes out of range (``k`` longer than the board) gets
    ``unknown_game`` saying what is wrong; no room is opened and the creator is
    free to open a good one."""
    player = await hello(server.ws_url, "ann")
    reply = await player.request({"type": "create_room", **options})
    assert_error(reply, "unknown_game", *words)
    assert (await server.get_json("/api/rooms"))["rooms"] == []
    assert (await server.get_json("/healthz"))["rooms"] == 0
    created = await player.request({"type": "create_room", "game": "mnk", "m": 4, "n": 3, "k": 3})
    assert created["type"] == "state", created


@pytest.mark.parametrize(
    "message",
    [{"type": "list_rooms", "game": "chess"}, {"type": "quick_match", "game": "chess"}],
    ids=["list_rooms", "quick_match"],
)
async def test_listing_or_matching_an_unknown_game_is_refused(
    server: RunningServer, message: dict[str, Any]
) -> None:
    """``list_rooms`` and ``quick_match`` for a game that does not exist get
    ``unknown_game`` naming it and the games there are; no room is opened."""
    player = await hello(server.ws_url, "ann")
    reply = await player.request(message)
    assert_error(reply, "unknown_game", "chess", "connect4")
    assert (await server.get_json("/healthz"))["rooms"] == 0
    await assert_alive(player)


@pytest.mark.parametrize(
    ("clock", "named"),
    [({"kind": "per_move"}, "per_move"), ({"kind": "increment", "increment": 2}, "initial")],
    ids=["per-move-without-time", "increment-without-initial"],
)
async def test_create_room_with_a_clock_that_does_not_fit_is_refused(
    server: RunningServer, clock: dict[str, Any], named: str
) -> None:
    """A clock of a kind whose time is not given gets ``bad_options`` naming the
    missing option; no room is opened and the connection goes on."""
    player = await hello(server.ws_url, "ann")
    reply = await player.request({"type": "create_room", "game": "tictactoe", "clock": clock})
    assert_error(reply, "bad_options", "clock", named)
    assert (await server.get_json("/healthz"))["rooms"] == 0
    await assert_alive(player)


async def test_create_room_with_a_clock_out_of_range_is_refused(server: RunningServer) -> None:
    """Clock times out of range (not above 0) get ``invalid_field`` naming the
    field; no room is opened."""
    player = await hello(server.ws_url, "ann")
    clock = {"kind": "per_move", "per_move": 0}
    reply = await player.request({"type": "create_room", "game": "tictactoe", "clock": clock})
    assert_error(reply, "invalid_field", "$.clock.per_move")
    assert (await server.get_json("/healthz"))["rooms"] == 0
    await assert_alive(player)


async def test_create_room_with_a_bad_ai_level_is_refused(server: RunningServer) -> None:
    """``create_room`` with ``ai_level`` "godlike" gets ``invalid_field`` naming
    ``$.ai_level`` (protocol.md: levels are checked when the message is decoded,
    so ``bad_level`` "comes as ``invalid_field`` in practice"). No room is opened
    and the connection goes on."""
    player = await hello(server.ws_url, "ann")
    reply = await player.request(
        {"type": "create_room", "game": "tictactoe", "ai_level": "godlike"}
    )
    assert_error(reply, "invalid_field", "$.ai_level", "godlike")
    assert (await server.get_json("/healthz"))["rooms"] == 0
    await assert_alive(player)


async def test_add_ai_with_a_bad_level_is_refused(server: RunningServer) -> None:
    """``add_ai`` with level "godlike" gets ``invalid_field`` naming ``$.level``
    (as above); the seat stays empty and the room waits on."""
    player = await hello(server.ws_url, "ann")
    created = await player.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]
    reply = await player.request({"type": "add_ai", "room": code, "level": "godlike"})
    assert_error(reply, "invalid_field", "$.level", "godlike")
    state = await player.request({"type": "get_state", "room": code})
    assert state["room"]["status"] == "waiting", state
    await assert_alive(player)


@pytest.mark.parametrize("request_type", ["create_room", "add_ai"])
async def test_a_bad_ai_level_error_says_which_levels_exist(
    server: RunningServer, request_type: str
) -> None:
    """The design's promise, repeated in protocol.md: the error's message "names
    the input or field at fault and says what would be accepted". A refused AI
    level must list the levels there are (random, easy, medium, hard, perfect),
    as the room's own ``bad_level`` message does."""
    player = await hello(server.ws_url, "ann")
    if request_type == "create_room":
        message = {"type": "create_room", "game": "tictactoe", "ai_level": "godlike"}
    else:
        created = await player.request({"type": "create_room", "game": "tictactoe"})
        message = {"type": "add_ai", "room": created["room"]["code"], "level": "godlike"}
    reply = await player.request(message)
    assert_error(reply, "invalid_field", "godlike", *LEVELS)


# -- play --------------------------------------------------------------------------------


async def test_a_move_out_of_turn_is_refused(server: RunningServer) -> None:
    """A move by the side not to move gets ``not_your_turn`` (naming whose turn it
    is); nothing changes, and the side to move then plays."""
    table = await start_game(server)
    before = game_view(await table.state())
    reply = await table.second.request({"type": "move", "room": table.code, "move": "a1"})
    assert_error(reply, "not_your_turn", "first")
    await table.move("b2")
    before = game_view(await table.state())
    reply = await table.first.request({"type": "move", "room": table.code, "move": "a1"})
    assert_error(reply, "not_your_turn", "second")
    assert game_view(await table.state()) == before
    await play_on(table)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("b2", ("b2", "taken")),
        ("z9", ("z9", "off the board")),
        ("d1", ("d1", "off the board")),
        ("a4", ("a4", "off the board")),
        ("hello", ("hello", "not a move")),
        ("", ("not a move",)),
        ("a1 c3", ("a1 c3",)),
        ("4", ("not a move",)),
    ],
    ids=["occupied", "z9", "d1", "a4", "garbage", "empty", "two-moves", "a-column"],
)
async def test_an_illegal_move_is_refused(
    server: RunningServer, move: str, words: tuple[str, ...]
) -> None:
    """A move the rules refuse (occupied, off the board, not a move at all) gets
    ``illegal_move`` quoting it and saying why; nothing changes and the same
    player then makes a legal move."""
    table = await start_game(server)
    await table.move("b2")
    before = game_view(await table.state())
    reply = await table.second.request({"type": "move", "room": table.code, "move": move})
    assert_error(reply, "illegal_move", *words)
    assert game_view(await table.state()) == before
    await play_on(table)


async def test_a_stale_move_is_refused(server: RunningServer) -> None:
    """A move with ``"ply": 0`` after a move has been made gets ``stale_move``
    naming both plies; a ply from the future too; nothing changes, and the move
    with the current ply is accepted."""
    table = await start_game(server)
    await table.move("b2")
    before = game_view(await table.state())
    for ply in (0, 5):
        message = {"type": "move", "room": table.code, "move": "a1", "ply": ply}
        reply = await table.second.request(message)
        assert_error(reply, "stale_move", f"ply {ply}", "ply 1")
    assert game_view(await table.state()) == before
    await play_on(table)


async def test_actions_after_the_game_ended_are_refused(server: RunningServer) -> None:
    """Once the game is over, ``move``, ``resign`` and ``offer_draw`` get
    ``game_over`` (saying it is over and what is left); the result stands, and a
    rematch (what is left) still starts the next game."""
    table = await start_game(server)
    for cell in ("a1", "b1", "a2", "b2", "a3"):
        await table.move(cell)
    over = await table.second.expect("game_over")
    assert over["result"]["winner"] == "first", over
    await table.first.expect("game_over")
    before = game_view(await table.state())
    assert before["status"] == "finished"
    for message in (
        {"type": "move", "room": table.code, "move": "c3"},
        {"type": "resign", "room": table.code},
        {"type": "offer_draw", "room": table.code},
    ):
        for player in (table.first, table.second):
            reply = await player.request(message)
            assert_error(reply, "game_over", "over", "rematch")
    assert game_view(await table.state()) == before
    await assert_alive(table.second)
    asked = await table.first.request({"type": "rematch", "room": table.code})
    assert asked["type"] == "rematch_offered", asked
    started = await table.second.request({"type": "rematch", "room": table.code})
    assert started["type"] == "state" and started["room"]["status"] == "playing", started
    assert started["room"]["game_number"] == 2 and started["room"]["you"] == "first", started
    await table.first.expect("state", id=None)
    # Sides swapped: Bob is X now.
    table.first, table.second = table.second, table.first
    await play_on(table)


async def test_answering_a_draw_offer_that_does_not_stand_is_refused(
    server: RunningServer,
) -> None:
    """``accept_draw`` or ``decline_draw`` with no offer standing gets
    ``no_draw_offer`` (saying how to make one); nothing changes, the game goes on."""
    table = await start_game(server)
    await table.move("b2")
    before = game_view(await table.state())
    for action in ("accept_draw", "decline_draw"):
        for player in (table.first, table.second):
            reply = await player.request({"type": action, "room": table.code})
            assert_error(reply, "no_draw_offer", "offer_draw")
    assert game_view(await table.state()) == before
    await play_on(table)


async def test_accepting_ones_own_draw_offer_is_refused(server: RunningServer) -> None:
    """The side that offered a draw cannot accept it itself: ``no_draw_offer``;
    the offer still stands (its own move does not lapse it), and the opponent's
    move lapses it, with ``draw_declined``."""
    table = await start_game(server)
    offered = await table.first.request({"type": "offer_draw", "room": table.code})
    assert offered["type"] == "draw_offered", offered
    await table.second.expect("draw_offered", side="first")
    reply = await table.first.request({"type": "accept_draw", "room": table.code})
    assert_error(reply, "no_draw_offer")
    assert (await table.state())["draw_offer"] == "first"
    await table.move("b2")
    assert (await table.state())["draw_offer"] == "first"
    await table.move("a1")
    await table.first.expect("draw_declined", side="first")
    state = await table.state()
    assert state.get("draw_offer") is None and state["moves"] == "b2 a1", state


async def test_a_rematch_during_a_game_is_refused(server: RunningServer) -> None:
    """``rematch`` while the game is being played gets ``game_in_progress``
    (saying to ask once it is over); nothing changes and the game goes on."""
    table = await start_game(server)
    await table.move("b2")
    before = game_view(await table.state())
    for player in (table.first, table.second):
        reply = await player.request({"type": "rematch", "room": table.code})
        assert_error(reply, "game_in_progress", "rematch", "over")
    assert game_view(await table.state()) == before
    await play_on(table)


async def test_playing_in_a_waiting_room_is_refused(server: RunningServer) -> None:
    """In a room still waiting for its second player, ``move``, ``resign``,
    ``offer_draw`` and ``rematch`` get ``game_not_started`` (saying it waits for
    players); nothing changes, and the game starts when someone joins."""
    ann = await hello(server.ws_url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]
    for message in (
        {"type": "move", "room": code, "move": "b2"},
        {"type": "resign", "room": code},
        {"type": "offer_draw", "room": code},
        {"type": "rematch", "room": code},
    ):
        reply = await ann.request(message)
        assert_error(reply, "game_not_started", "waiting")
    state = (await ann.request({"type": "get_state", "room": code}))["room"]
    assert (state["status"], state["moves"], state["ply"]) == ("waiting", "", 0), state
    bob = await hello(server.ws_url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing", joined
    await ann.expect("state")
    await play_on(Table(ann, bob, code))


# -- floods and connection caps --------------------------------------------------------------


async def test_a_burst_over_the_rate_gets_rate_limited_and_the_connection_stays(
    tmp_path: Path,
) -> None:
    """30 pings at once against a rate of 5/s (burst 5): the excess gets
    ``rate_limited`` errors with ``retry_after`` > 0 saying when to retry, the
    connection stays open, and after waiting ``retry_after`` a ping works."""
    async with running_server(tmp_path / "games.db", rate=5.0, burst=5) as server:
        player = await Player.connect(server.ws_url)
        for number in range(30):
            await player.send({"type": "ping", "id": 1000 + number})
        replies = [await player.recv() for _ in range(30)]
        pongs = [reply for reply in replies if reply["type"] == "pong"]
        limited = [reply for reply in replies if reply["type"] == "error"]
        assert len(pongs) + len(limited) == 30, replies
        assert len(pongs) >= 5 and len(limited) >= 20, replies
        for error in limited:
            assert_error(error, "rate_limited", "retry")
            assert error["retry_after"] > 0, error
        # The subject: the bucket refills with time, as retry_after says.
        await asyncio.sleep(limited[-1]["retry_after"] + 0.05)
        await assert_alive(player)


async def test_sustained_flooding_closes_the_connection_and_spares_the_others(
    tmp_path: Path,
) -> None:
    """A client that keeps flooding after its ``rate_limited`` errors (far past
    ABUSE_STRIKES refusals in the window) is disconnected with close code 4002,
    having been told why first; a game between two others goes on meanwhile and
    after, and the server stays healthy."""
    async with running_server(tmp_path / "games.db", rate=5.0, burst=10) as server:
        table = await start_game(server)
        flooder = await Player.connect(server.ws_url)

        async def flood() -> int:
            """Ping without pause until the server hangs up; how many were sent."""
            number = 0
            with contextlib.suppress(ConnectionClosed):
                while number < ABUSE_STRIKES * 100:
                    await flooder.send({"type": "ping", "id": number})
                    number += 1
                    if number % 20 == 0:  # the subject: a flood, with a breath for the game
                        await asyncio.sleep(0.001)
            return number

        flooding = asyncio.create_task(flood())
        await play_on(table)
        await assert_alive(table.second)
        assert await flooder.closed() == CLOSE_ABUSE
        sent = await flooding
        assert sent < ABUSE_STRIKES * 100, "the flood was never cut off"
        limited = [m for m in flooder.seen if m.get("code") == "rate_limited"]
        assert len(limited) >= ABUSE_STRIKES, len(limited)
        await play_on(table)
        health = await server.get_json("/healthz")
        assert health["status"] == "ok", health
        newcomer = await Player.connect(server.ws_url)
        await assert_alive(newcomer)


async def test_a_third_connection_from_one_address_is_refused(tmp_path: Path) -> None:
    """With ``max_connections_per_address=2``, a third connection from the same
    address gets ``too_many_connections`` and is closed with 1013 (try again
    later); the two open ones carry on, and once one closes a new one is let in."""
    async with running_server(tmp_path / "games.db", max_connections_per_address=2) as server:
        one = await hello(server.ws_url, "one")
        two = await hello(server.ws_url, "two")
        third = await Player.connect(server.ws_url)
        refusal = assert_error(await third.recv(), "too_many_connections", "connections")
        assert refusal.get("id") is None, refusal
        assert await third.closed() == 1013
        await assert_alive(one)
        await assert_alive(two)
        await one.close()

        async def let_in() -> Player | None:
            """A new connection if it is let in; refused, None (and it is closed)."""
            newcomer = await Player.connect(server.ws_url)
            await newcomer.send({"type": "ping", "id": 77})
            first = await newcomer.recv()
            if first["type"] == "pong":
                return newcomer
            assert_error(first, "too_many_connections")
            await newcomer.closed()  # so that the next try is not refused for it
            return None

        # The server frees the slot when it has finished with `one`.
        newcomer = await wait_until(let_in, timeout=5.0)
        await assert_alive(newcomer)
        await assert_alive(two)


def test_padded_ping_sizes() -> None:
    """The helper builds frames of the exact size asked for, as valid JSON."""
    frame = padded_ping(1000, 5)
    assert len(frame.encode()) == 1000 and json.loads(frame)["id"] == 5
