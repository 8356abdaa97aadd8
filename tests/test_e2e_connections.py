"""Connections at the door and on the way out, end to end, over raw sockets.

- A client that stops reading is cut as soon as it counts as too slow: its
  opponent hears of it at once and the grace window starts then, not after the
  unread messages time out.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from pathlib import Path

import pytest
from harness import Player, running_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def records(caplog: pytest.LogCaptureFixture, event: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.getMessage() == event]


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
    caplog.set_level(logging.WARNING, logger="server.connection")
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
