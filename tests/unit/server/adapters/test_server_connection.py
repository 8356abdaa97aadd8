"""One connection's way out (server/connection.py), over a real aiohttp WebSocket:
the messages queued in one turn of the loop go out in one write, in order; a
client that does not read holds a bounded amount of the server's memory and is
dropped once its outbox is full.

The server side is a bare aiohttp app whose handler hands the test its
:class:`Connection`; the transport under it is the real one, seen through a thin
wrapper that counts the writes and the largest write buffer.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web
from harness import TIMEOUT
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from boardroom.server import stage_clock
from boardroom.server.connection import OUTBOX_LIMIT, WRITE_BUFFER_LIMIT, Connection, text_frames


class CountingTransport:
    """The real transport, its writes counted and its largest buffer kept."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self.writes = 0
        self.largest_buffer = 0
        self.largest_write = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.largest_write = max(self.largest_write, len(data))
        self._transport.write(data)
        self.largest_buffer = max(self.largest_buffer, self._transport.get_write_buffer_size())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


Accepted = asyncio.Queue[tuple[Connection, CountingTransport]]


@asynccontextmanager
async def served() -> AsyncIterator[tuple[int, Accepted]]:
    """A WebSocket endpoint on a free port: the port, and the queue its
    connections come out of."""
    accepted: Accepted = asyncio.Queue()

    async def endpoint(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, heartbeat=600.0)
        await ws.prepare(request)
        assert request.transport is not None
        counting = CountingTransport(request.transport)
        connection = Connection(ws, "test", counting)  # type: ignore[arg-type]
        await accepted.put((connection, counting))
        async for _ in ws:
            pass
        connection.close()
        await connection.wait_closed()
        return ws

    app = web.Application()
    app.router.add_get("/ws", endpoint)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    try:
        yield port, accepted
    finally:
        await runner.cleanup()


async def read_all(client: ClientConnection) -> list[dict[str, Any]]:
    """Every message until the server closes the connection."""
    messages = []
    try:
        async with asyncio.timeout(TIMEOUT):
            while True:
                messages.append(json.loads(await client.recv()))
    except ConnectionClosed:
        return messages


def test_text_frames_give_each_length_its_header() -> None:
    """The three lengths of RFC 6455: 7 bits, 16 bits after 126, 64 bits after 127."""
    short, medium, long = "a" * 125, "b" * 126, "c" * 65536
    frames = text_frames([short, medium, long])
    assert frames[:2] == b"\x81\x7d" and frames[2:127] == short.encode()
    rest = frames[127:]
    assert rest[:4] == b"\x81\x7e\x00\x7e" and rest[4:130] == medium.encode()
    rest = rest[130:]
    assert rest[:10] == b"\x81\x7f" + (65536).to_bytes(8, "big")
    assert rest[10:] == long.encode()


async def test_messages_queued_in_one_turn_go_out_in_one_write_in_their_order() -> None:
    """200 messages queued in one turn reach the client in that order through one
    write; messages of later turns follow them, each turn its own write; a close
    after them waits for them all."""
    async with served() as (port, accepted), connect(f"ws://127.0.0.1:{port}/ws") as client:
        connection, transport = await asyncio.wait_for(accepted.get(), TIMEOUT)
        for number in range(200):
            connection.send_text(json.dumps({"n": number}))
        await asyncio.sleep(0.05)
        assert transport.writes == 1
        for number in range(200, 230):
            connection.send_text(json.dumps({"n": number}))
            await asyncio.sleep(0)  # a turn of the loop each
        connection.close()
        received = await read_all(client)
        assert [message["n"] for message in received] == list(range(230))
        assert 2 <= transport.writes <= 31
        assert client.close_code == 1000


async def test_connections_queued_in_one_turn_are_flushed_together_each_in_one_write() -> None:
    """Three connections, each sent messages in the same turn (as a move's players
    and spectator are): each gets its own in one write, in order, and the turn's
    writes are counted once to the ``write`` stage, all three in it."""
    async with (
        served() as (port, accepted),
        connect(f"ws://127.0.0.1:{port}/ws") as first,
        connect(f"ws://127.0.0.1:{port}/ws") as second,
        connect(f"ws://127.0.0.1:{port}/ws") as third,
    ):
        clients = [first, second, third]
        pairs = [await asyncio.wait_for(accepted.get(), TIMEOUT) for _ in clients]
        written_before = stage_clock.cpu_seconds()["write"]
        for number in range(3):
            for index, (connection, _) in enumerate(pairs):
                connection.send_text(json.dumps({"to": index, "n": number}))
        assert all(transport.writes == 0 for _, transport in pairs)  # not before the turn ends
        await asyncio.sleep(0)
        assert [transport.writes for _, transport in pairs] == [1, 1, 1]
        assert stage_clock.cpu_seconds()["write"] > written_before
        for index, client in enumerate(clients):
            received = [
                json.loads(await asyncio.wait_for(client.recv(), TIMEOUT)) for _ in range(3)
            ]
            assert received == [{"to": index, "n": n} for n in range(3)]


async def test_a_client_that_does_not_read_holds_bounded_memory_and_is_dropped() -> None:
    """A client with a small receive buffer that reads nothing: the server stops
    writing once the socket's buffer is over its limit, queues at most
    OUTBOX_LIMIT messages, then drops the client (its transport aborted)."""
    async with served() as (port, accepted):
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.setblocking(False)
        await asyncio.get_running_loop().sock_connect(slow, ("127.0.0.1", port))
        url = f"ws://127.0.0.1:{port}/ws"
        async with connect(url, sock=slow, compression=None, max_queue=1):
            connection, transport = await asyncio.wait_for(accepted.get(), TIMEOUT)
            text = json.dumps({"chat": "x" * 1000})
            sent = 0
            async with asyncio.timeout(TIMEOUT):
                while not transport.is_closing():
                    for _ in range(10):
                        connection.send_text(text)
                        sent += 1
                    assert connection.unwritten <= OUTBOX_LIMIT
                    await asyncio.sleep(0.001)
            assert sent > OUTBOX_LIMIT
            # Written only while the buffer was under the limit: at most the limit
            # plus what one write added on top of it.
            assert transport.largest_buffer <= WRITE_BUFFER_LIMIT + transport.largest_write
            assert transport.largest_write <= OUTBOX_LIMIT * (len(text) + 4)
            connection.send_text(text)  # dropped: nothing is queued any more
            assert connection.unwritten == 0
