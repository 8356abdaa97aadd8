"""Connections at the door and on the way out, end to end, over raw sockets.

- Every TCP connection counts against its address's cap from the moment it is
  accepted, before any request: sockets that never send a byte cannot lock
  everyone else out. Over the cap a connection is refused at once, with one
  log line per address however many are refused, while another address
  still gets in.
- A connection that has not sent its request within the handshake deadline is
  closed, and so is an HTTP connection left idle that long; a WebSocket that
  upgraded in time is served for as long as it likes.
- A client that stops reading is cut as soon as it counts as too slow: its
  opponent hears of it at once and the grace window starts then, not after the
  unread messages time out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from pathlib import Path

import pytest
from harness import TIMEOUT, Player, assert_alive, running_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

CAP = 3
"""Connections per address in these tests: small, so a handful of sockets reach it."""

OTHER_ADDRESS = "127.0.0.2"
"""Another client's address: loopback answers every 127.x address, and the server
on 127.0.0.1 sees connections from here as coming from elsewhere."""


async def open_socket(
    port: int, local: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw TCP connection to the server (from ``local``) that sends nothing
    until told to."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(local, 0))


async def read_to_end(reader: asyncio.StreamReader) -> bytes:
    """What the server sends until it closes the connection (a reset ends it too).
    Raises TimeoutError when the server keeps the connection open."""
    received = b""
    async with asyncio.timeout(TIMEOUT):
        with contextlib.suppress(ConnectionResetError):
            while chunk := await reader.read(65536):
                received += chunk
    return received


def records(caplog: pytest.LogCaptureFixture, event: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.getMessage() == event]


# -- the per-address cap, from accept -----------------------------------------------------


async def test_silent_sockets_over_the_cap_are_refused_and_logged_once_while_others_get_in(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Ten sockets from one address that never send a byte: the cap's worth are
    held, one more is kept to be told why (it would get the refusal as the answer
    to its request) and the other six are refused at once with a 503 naming
    ``too_many_connections``. A WebSocket from that address is refused too, with
    the same 503. One warning is logged for all those refusals. Meanwhile a
    client from another address connects and plays as usual."""
    caplog.set_level(logging.INFO, logger="boardroom.server.admission")
    async with running_server(
        tmp_path / "games.db", max_connections_per_address=CAP, handshake_seconds=60.0
    ) as server:
        sockets = [await open_socket(server.port) for _ in range(10)]
        endings = [asyncio.ensure_future(read_to_end(reader)) for reader, _ in sockets]
        refused = []
        for ended in asyncio.as_completed(endings):
            refused.append(await ended)
            if len(refused) == 10 - CAP - 1:
                break
        for answer in refused:
            assert answer.startswith(b"HTTP/1.1 503 "), answer
            assert b'"too_many_connections"' in answer and b"127.0.0.1" in answer, answer
        still_open = [ending for ending in endings if not ending.done()]
        assert len(still_open) == CAP + 1

        with pytest.raises(InvalidStatus) as websocket_refused:
            await Player.connect(server.ws_url)
        assert websocket_refused.value.response.status_code == 503

        other = await Player.join_server(server.ws_url, "other", source=OTHER_ADDRESS)
        created = await other.request({"type": "create_room", "game": "tictactoe"})
        assert created["type"] == "state", created
        await assert_alive(other)

        warnings = records(caplog, "connections refused")
        assert len(warnings) == 1, [record.__dict__ for record in warnings]
        warning = warnings[0]
        assert warning.levelno == logging.WARNING
        assert (warning.address, warning.cap, warning.refused) == ("127.0.0.1", CAP, 1)
        for ending in still_open:
            ending.cancel()
        for _, writer in sockets:
            writer.close()


# -- the handshake deadline ---------------------------------------------------------------


async def test_connections_without_a_request_in_time_are_closed_and_their_places_freed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With a handshake deadline of half a second: a socket that sends nothing,
    and one that sends half a request head and stops, are closed without a word
    (and logged); an HTTP connection idle after its answer is closed too. A
    WebSocket that upgraded before them is still served after their deadline
    passed, and the places they held are free again."""
    caplog.set_level(logging.INFO, logger="boardroom.server.admission")
    async with running_server(
        tmp_path / "games.db", max_connections_per_address=CAP, handshake_seconds=0.5
    ) as server:
        early = await Player.join_server(server.ws_url, "early")
        silent_reader, silent_writer = await open_socket(server.port)
        partial_reader, partial_writer = await open_socket(server.port)
        partial_writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert await read_to_end(silent_reader) == b""
        assert await read_to_end(partial_reader) == b""
        # Both were accepted after `early` upgraded: its connection is older than
        # their deadline, and it is still served.
        await assert_alive(early)

        idle_reader, idle_writer = await open_socket(server.port)
        idle_writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = await read_to_end(idle_reader)
        assert answer.startswith(b"HTTP/1.1 200 ") and b'"status":"ok"' in answer.replace(
            b" ", b""
        ), answer

        newcomers = [await Player.join_server(server.ws_url, f"new{n}") for n in range(CAP - 1)]
        for player in [early, *newcomers]:
            await assert_alive(player)

        lines = records(caplog, "connections sent no request in time")
        assert len(lines) == 1, [record.__dict__ for record in lines]
        assert lines[0].address == "127.0.0.1"
        for writer in (silent_writer, partial_writer, idle_writer):
            writer.close()


# -- a client that stops reading ----------------------------------------------------------


async def test_a_client_that_stops_reading_is_cut_and_its_opponent_told_at_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Bob joins Ann's game, then stops reading (a small receive buffer, and no
    reads). Ann chats until the server's queue for Bob is full and Bob is dropped
    as too slow; then all is quiet, and Ann is told he is gone (``player_status``)
    while his socket is still open and unread: heartbeats are minutes apart here,
    so nothing but the drop itself can end his connection. The grace window runs
    from there: Ann then wins by abandonment. Bob, reading at last, finds the
    connection cut without a close frame (1006)."""
    caplog.set_level(logging.WARNING, logger="boardroom.server.connection")
    async with running_server(
        tmp_path / "games.db",
        rate=1_000_000.0,
        burst=1_000_000,
        grace_seconds=1.0,
        heartbeat_seconds=600.0,
    ) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]

        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.setblocking(False)
        await asyncio.get_running_loop().sock_connect(slow, ("127.0.0.1", server.port))
        bob = Player(await connect(server.ws_url, sock=slow, compression=None, max_queue=1))
        welcome = await bob.request({"type": "hello", "name": "bob", "version": 1})
        assert welcome["type"] == "welcome", welcome
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["status"] == "playing", joined
        moved = await ann.request({"type": "move", "room": code, "move": "b2"})
        assert moved["type"] == "moved", moved
        # From here on Bob reads nothing.

        # Ann chats line after line, reading each back as she goes (she is no
        # slow reader), until the server has dropped Bob; then she says nothing
        # more, and still hears that Bob is gone.
        while not records(caplog, "dropping a slow client"):
            echo = await ann.request({"type": "chat", "room": code, "text": "x" * 500})
            assert echo["type"] == "chat", echo
        gone = await ann.expect("player_status", side="second", connected=False)
        assert gone["gone_until"] is not None, gone
        over = await ann.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "abandonment"}, over
        assert ann.seen.index(gone) < ann.seen.index(over)

        with pytest.raises(ConnectionClosed):
            while True:
                await bob.ws.recv()
        assert bob.ws.close_code == 1006
