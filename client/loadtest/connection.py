"""One WebSocket connection of the load test.

A :class:`LoadClient` is a bare protocol client, lighter than
:class:`boardroom.client.session.Session` (no reconnection, no request bookkeeping, no
tracked rooms): thousands of them share one process, and what happens to each
connection (a drop, a refusal) is something to count, not to hide.

Contract: :meth:`LoadClient.open` connects and, unless the client is raw (the
echo baseline), says ``hello`` and waits for ``welcome``. From then on a reader
task hands every frame to ``on_frame(client, message, at)``: the decoded server
message (the text itself for a raw client) and the ``time.monotonic()`` of its
arrival. If the connection ends before :meth:`LoadClient.close` was called, the
close code is counted in the stats as a disconnect and ``on_end(client, code)``
is called once. :meth:`LoadClient.send` waits for the client's pacer first.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import time
from collections.abc import Callable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
    InvalidURI,
)

from boardroom.client.loadtest.errors import ConnectFailedError
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.client.pacing import Pacer
from boardroom.shared.protocol import PROTOCOL_VERSION, decode_server_message, encode_message
from boardroom.shared.protocol.messages import Error, Hello, Welcome

OPEN_TIMEOUT = 15.0
"""Seconds for the handshake and the ``welcome``: a server busy with a ramp-up of
hundreds of connections a second answers late, and late is not refused."""
CLOSE_TIMEOUT = 5.0
"""Seconds to wait for the server's close frame at the end of a run."""
ABNORMAL_CLOSE = 1006
"""The close code of a connection that ended without a close frame."""
CLOSE_TOO_MANY_CONNECTIONS = 1013
"""The server's close code for a connection over its per-address cap
(``docs/protocol.md``, Close codes); its ``too_many_connections`` error comes
first, but may be lost with the connection."""

FrameHandler = Callable[["LoadClient", object, float], None]
EndHandler = Callable[["LoadClient", int], None]


class LoadClient:
    """One connection (see the module docstring for the contract).

    ``role`` names it in the room (``first``, ``second``, ``spectator``);
    ``pacer`` None sends without pacing.
    """

    def __init__(
        self,
        name: str,
        role: str,
        stats: WorkerStats,
        *,
        on_frame: FrameHandler,
        on_end: EndHandler,
        pacer: Pacer | None,
        raw: bool = False,
    ) -> None:
        self.name = name
        self.role = role
        self.raw = raw
        self.last_sent: str | None = None
        """The latest frame sent: what to send again after ``rate_limited``."""
        self._stats = stats
        self._on_frame = on_frame
        self._on_end = on_end
        self._pacer = pacer
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._next_id = 0

    def next_id(self) -> int:
        """A request id not used before on this client."""
        self._next_id += 1
        return self._next_id

    async def open(self, url: str, handshakes: asyncio.Semaphore | None = None) -> None:
        """Connect (and say hello unless raw), holding ``handshakes`` meanwhile if
        given. Raises :class:`ConnectFailedError`, counting nothing: the caller
        counts it by its ``reason``."""
        async with handshakes or contextlib.nullcontext():
            ws = await self._open(url)
        self._reader = asyncio.create_task(self._read(ws), name=f"read {self.name}")

    async def _open(self, url: str) -> ClientConnection:
        try:
            ws = await connect(
                url,
                compression=None,  # as the session layer: the server turns it off anyway
                open_timeout=OPEN_TIMEOUT,
                close_timeout=CLOSE_TIMEOUT,
                max_size=2**20,
            )
        except InvalidStatus as error:
            if _refusal_code(error.response.body) == "too_many_connections":
                # The cap, refused at the HTTP request (a 503 with the code in its
                # JSON): the same refusal as the close 1013 after the upgrade.
                self._stats.errors["too_many_connections"] += 1
                raise ConnectFailedError("too_many_connections", "http 503") from None
            raise ConnectFailedError(f"http {error.response.status_code}") from None
        except (InvalidURI, InvalidHandshake) as error:
            raise ConnectFailedError("bad handshake", str(error)) from None
        except TimeoutError:
            raise ConnectFailedError("timeout") from None
        except OSError as error:
            raise ConnectFailedError(_os_reason(error), str(error)) from None
        except AssertionError:
            # websockets (17.4) asserts instead of raising ConnectionClosed when the
            # server closes while the request is still being written, as a server
            # over its per-address cap does (a 503, unread, then closed).
            raise ConnectFailedError("closed during handshake") from None
        self._ws = ws
        self._stats.connection_opened()
        if not self.raw:
            try:
                await self._greet(ws)
            except BaseException:
                self._closing = True
                self._stats.connection_closed()
                await ws.close()
                raise
        return ws

    async def send(self, text: str) -> float:
        """Send one frame, after the pacer allows it; the ``time.monotonic()`` just
        before it went (after the pacing: a latency measured from there is the
        network's and the server's, not ours). Raises ``ConnectionClosed``
        (websockets) if the connection is gone."""
        if self._pacer is not None:
            await self._pacer.wait()
        assert self._ws is not None, "send() before open()"
        self.last_sent = text
        sent = time.monotonic()
        await self._ws.send(text)
        return sent

    async def close(self) -> None:
        """Close cleanly (close frame, and wait for the server's); the end is not a
        disconnect. Safe to call more than once, or before :meth:`open`."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await self._reader

    async def _greet(self, ws: ClientConnection) -> None:
        hello = Hello(name=self.name, version=PROTOCOL_VERSION, client="bot", id=0)
        try:
            # A server over its per-address cap sends its refusal and closes at once:
            # the hello may find the connection closing, and the refusal is still
            # there to read.
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode_message(hello))
            async with asyncio.timeout(OPEN_TIMEOUT):
                while True:
                    reply = decode_server_message(await ws.recv())
                    if isinstance(reply, Welcome):
                        return
                    if isinstance(reply, Error):
                        self._stats.errors[reply.code] += 1
                        raise ConnectFailedError(reply.code, reply.message)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else ABNORMAL_CLOSE
            if code == CLOSE_TOO_MANY_CONNECTIONS:
                self._stats.errors["too_many_connections"] += 1
                raise ConnectFailedError("too_many_connections", "closed 1013") from None
            raise ConnectFailedError(f"closed {code}") from None
        except TimeoutError:
            raise ConnectFailedError("timeout", "no welcome") from None

    async def _read(self, ws: ClientConnection) -> None:
        stats = self._stats
        try:
            async for frame in ws:
                at = time.monotonic()
                stats.messages_received += 1
                if self.raw:
                    self._on_frame(self, frame, at)
                    continue
                try:
                    message = decode_server_message(frame)
                except ValueError:
                    stats.undecodable += 1
                    continue
                self._on_frame(self, message, at)
        except ConnectionClosed:
            pass  # the code is read below, whoever closed
        finally:
            stats.connection_closed()
            if not self._closing:
                code = ws.close_code if ws.close_code is not None else ABNORMAL_CLOSE
                stats.disconnects[code] += 1
                self._on_end(self, code)


def _os_reason(error: OSError) -> str:
    """A short, countable name for why a connect failed."""
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if error.errno in (errno.EMFILE, errno.ENFILE):
        return "out of file descriptors (client)"
    if error.errno == errno.EADDRNOTAVAIL:
        return "out of local ports (client)"
    name = errno.errorcode.get(error.errno or 0)
    return f"os error {name}" if name else "os error"


def _refusal_code(body: bytes | bytearray | None) -> str | None:
    """The ``error`` code of an HTTP refusal's JSON body (the server's errors are
    ``{"error": code, "message": ...}``), or None for any other body."""
    try:
        decoded = json.loads(body or b"")
    except ValueError:
        return None
    code = decoded.get("error") if isinstance(decoded, dict) else None
    return code if isinstance(code, str) else None
