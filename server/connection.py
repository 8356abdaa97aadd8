"""One WebSocket connection's way out: a bounded outbox, written once a loop turn.

Rooms never wait on a socket. A message for a client goes into its outbox
(:meth:`Connection.send` never blocks); at the end of the loop's turn, every
message queued for the connection in that turn goes to its socket in **one**
transport write, frames in the order they were queued (one callback a turn
flushes every connection that has some). A move relayed to a
player is two or three frames (its own ``moved``, the clock, a ``game_over``),
and moves of several rooms reach a spectator's socket in the same turn: written
together, they cost one system call instead of one each (aiohttp's
``send_str`` writes every frame on its own; issue 29 measured those writes at
28% of the server's time). The frames are the protocol's plain text frames
(RFC 6455, unmasked and uncompressed, as the server's WebSocket is set up),
written to the same transport as aiohttp's own control frames (ping, pong,
close), each of which aiohttp writes whole too, so frames never interleave.

Back-pressure: once the socket's write buffer holds more than
:data:`WRITE_BUFFER_LIMIT` bytes (the client reads slower than it is sent to),
nothing more is written until it drains; messages wait in the outbox meanwhile.
A client that reads too slowly to keep up (its outbox reaches
:data:`OUTBOX_LIMIT`) is dropped rather than let it hold up a room or grow the
server's memory: its seats are held for the grace window like any dropped
connection, and it can resume. The memory a connection holds is so bounded: the
outbox, and the write buffer's limit plus one turn's frames.

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
import struct
import weakref

from aiohttp import WSCloseCode, web

from boardroom.server import stage_clock
from boardroom.shared.protocol.close_codes import CLOSE_SESSION_REPLACED
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import ServerMessage

logger = logging.getLogger(__name__)

OUTBOX_LIMIT = 256
"""Messages waiting for one client's socket before it counts as too slow. A whole
game of gomoku is ~225 moves: a client that is this far behind has stopped reading."""

WRITE_BUFFER_LIMIT = 64 * 1024
"""Bytes in a socket's write buffer (written, not yet taken by the kernel) above
which nothing more is written to it until it drains: the high-water mark at which
the event loop's transports pause their writers."""

DRAIN_POLL_SECONDS = (0.005, 0.2)
"""How often a connection whose write buffer is over the limit looks again: first
after 5 ms, then twice as long each time up to 200 ms (asyncio's transports tell
only their protocol, aiohttp's, when they drain)."""

_TEXT_FIN = 0x81
"""The first byte of a whole (FIN) text frame."""
_LENGTH_1 = struct.Struct("!BB").pack
_LENGTH_2 = struct.Struct("!BBH").pack
_LENGTH_8 = struct.Struct("!BBQ").pack


def text_frames(texts: list[str]) -> bytes:
    """``texts`` as consecutive WebSocket text frames from a server (unmasked,
    uncompressed), ready for the socket.

    >>> text_frames(["hi", "é"])
    b'\\x81\\x02hi\\x81\\x02\\xc3\\xa9'
    """
    parts = []
    for text in texts:
        payload = text.encode()
        size = len(payload)
        if size < 126:
            parts.append(_LENGTH_1(_TEXT_FIN, size))
        elif size < 65536:
            parts.append(_LENGTH_2(_TEXT_FIN, 126, size))
        else:
            parts.append(_LENGTH_8(_TEXT_FIN, 127, size))
        parts.append(payload)
    return b"".join(parts)


class _Flusher:
    """The connections of one event loop with messages queued this turn, flushed
    together at its end: one callback and one reading of the stage clock a turn
    for them all, not one a connection (a move queues frames for two or more, and
    a group commit's moves are carried out in the same turn)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._due: list[Connection] = []

    def add(self, connection: Connection) -> None:
        """Flush ``connection`` at the end of this turn (once: the caller asks once a turn)."""
        if not self._due:
            self._loop.call_soon(self._flush)
        self._due.append(connection)

    def _flush(self) -> None:
        due, self._due = self._due, []
        started = stage_clock.mark()
        for connection in due:
            connection._flush()
        stage_clock.add("write", started)


_flushers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Flusher] = (
    weakref.WeakKeyDictionary()
)


def _flusher_of(loop: asyncio.AbstractEventLoop) -> _Flusher:
    flusher = _flushers.get(loop)
    if flusher is None:
        flusher = _flushers[loop] = _Flusher(loop)
    return flusher


class Connection:
    """The outgoing side of one accepted WebSocket (see the module docstring)."""

    def __init__(
        self, ws: web.WebSocketResponse, address: str, transport: asyncio.Transport | None
    ) -> None:
        """``transport`` is the TCP (or TLS) transport under ``ws``: the frames are
        written to it, and it is aborted to drop the client if it is too slow
        (None: the connection is already gone)."""
        self.ws = ws
        self.address = address
        self._transport = transport
        self._flusher = _flusher_of(asyncio.get_running_loop())
        self._outbox: list[str] = []
        self._flush_due = False
        """A flush is scheduled for the end of this loop turn."""
        self._draining: asyncio.Task[None] | None = None
        """Waits for the write buffer to drain, while it is over the limit."""
        self._closer: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def unwritten(self) -> int:
        """Messages in the outbox, not yet written to the socket."""
        return len(self._outbox)

    def send(self, message: ServerMessage, text: str | None = None) -> None:
        """Queue ``message`` (``text``: its encoding, when the caller has it)."""
        self.send_text(encode_message(message) if text is None else text)

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one relayed from another process of a cluster)."""
        if self._closing:
            return
        if len(self._outbox) >= OUTBOX_LIMIT:
            logger.warning(
                "dropping a slow client", extra={"address": self.address, "unread": OUTBOX_LIMIT}
            )
            self.drop()
            return
        self._outbox.append(text)
        if not self._flush_due and self._draining is None:
            self._flush_due = True
            self._flusher.add(self)

    def drop(self) -> None:
        """End the connection now, unread messages and all (see the module docstring)."""
        self._closing = True
        self._outbox.clear()
        for task in (self._draining, self._closer):
            if task is not None:
                task.cancel()
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
        if len(self._outbox) >= OUTBOX_LIMIT:
            # The outbox is full: it is what is too slow. Close without it.
            self._outbox.clear()
        self._closer = asyncio.create_task(self._close(code, reason))

    async def wait_closed(self) -> None:
        """Wait until everything queued is written and the connection closed (or failed)."""
        if self._closer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._closer

    def _flush(self) -> None:
        """Write the outbox to the socket in one write, unless its buffer is full."""
        self._flush_due = False
        if self._draining is not None or not self._outbox:
            return
        batch, self._outbox = self._outbox, []
        transport = self._transport
        if transport is None or transport.is_closing() or self.ws.closed:
            return  # the socket went away (or is closing): the reader sees it and cleans up
        transport.write(text_frames(batch))  # timed with the turn's others (_Flusher)
        if transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self._draining = asyncio.create_task(self._drain(transport))

    def _flush_timed(self) -> None:
        """:meth:`_flush`, counted to the ``write`` stage (out of the turn's flush)."""
        started = stage_clock.mark()
        self._flush()
        stage_clock.add("write", started)

    async def _drain(self, transport: asyncio.Transport) -> None:
        """Wait for the write buffer to drain under the limit, then write what queued."""
        pause, longest = DRAIN_POLL_SECONDS
        while transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            if transport.is_closing():
                return
            await asyncio.sleep(pause)
            pause = min(2 * pause, longest)
        self._draining = None
        self._flush_timed()

    async def _close(self, code: int, reason: str) -> None:
        draining = self._draining
        if draining is not None:
            await draining
        self._flush_timed()
        draining = self._draining
        if draining is not None:
            await draining  # the close frame waits behind the last messages
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=code, message=reason.encode())
