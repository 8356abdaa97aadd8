"""One WebSocket connection's way out: a bounded queue and the task that drains it.

Rooms never wait on a socket. A message for a client goes into its queue
(:meth:`Connection.send` never blocks); a writer task sends the queue in order.
A client that reads too slowly to keep up (its queue fills) is dropped rather
than let it hold up a room or grow the server's memory: its seats are held for
the grace window like any dropped connection, and it can resume.

The drop is an abort of the TCP connection, not a WebSocket close: a close frame
would wait behind the very messages the client is not reading, and the
connection would linger until the heartbeat or the close timeout gave up (tens
of seconds), with the client's opponent not told and the grace window not yet
running. Aborted, the socket ends at once, the handler sees it end and the hub
holds the seats from that moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiohttp import WSCloseCode, web

from boardroom.shared.protocol.close_codes import CLOSE_SESSION_REPLACED
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import ServerMessage

logger = logging.getLogger(__name__)

OUTBOX_LIMIT = 256
"""Messages queued for one client before it counts as too slow. A whole game of
gomoku is ~225 moves: a client that is this far behind has stopped reading."""


class Connection:
    """The outgoing side of one accepted WebSocket (see the module docstring)."""

    def __init__(
        self, ws: web.WebSocketResponse, address: str, transport: asyncio.Transport | None
    ) -> None:
        """``transport`` is the TCP transport under ``ws``, aborted to drop the
        client if it is too slow (None: the connection is already gone)."""
        self.ws = ws
        self.address = address
        self._transport = transport
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self._writer: asyncio.Task[object] = asyncio.create_task(self._write())
        self._closing = False

    def send(self, message: ServerMessage, text: str | None = None) -> None:
        """Queue ``message`` (``text``: its encoding, when the caller has it)."""
        self.send_text(encode_message(message) if text is None else text)

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one relayed from another process of a cluster)."""
        if self._closing:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            logger.warning(
                "dropping a slow client", extra={"address": self.address, "unread": OUTBOX_LIMIT}
            )
            self.drop()

    def drop(self) -> None:
        """End the connection now, unread messages and all (see the module docstring)."""
        self._closing = True
        self._writer.cancel()
        if self._transport is not None:
            self._transport.abort()

    def replace(self) -> None:
        """The session resumed on another connection: close this one."""
        self.close(CLOSE_SESSION_REPLACED, "the session continued on another connection")

    def close(self, code: int = WSCloseCode.OK, reason: str = "") -> None:
        """Send what is queued, then close with ``code``; never blocks."""
        if self._closing:
            return
        self._closing = True
        self._close_code = code
        self._close_reason = reason
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._queue.full():
            # No room for the end marker: the queue is what is too slow.
            self._writer.cancel()
            self._writer = asyncio.create_task(self.ws.close(code=code, message=reason.encode()))

    async def wait_closed(self) -> None:
        """Wait until the writer has sent everything and closed (or failed)."""
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer

    async def _write(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            return  # the socket went away; the reader sees it and cleans up
        await self.ws.close(code=self._close_code, message=self._close_reason.encode())
