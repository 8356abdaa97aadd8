"""The server's door: every TCP connection, from the moment it is accepted until it closes.

aiohttp accepts whatever connects and waits for its request for as long as it
takes (an hour in recent versions, for ever in older ones), and the app hears of
a connection only once its request has arrived. So sockets that never send a
byte were never closed and never counted: 1,100 of them from one address took
every file descriptor the server had and locked everyone else out (issue 13).
:class:`Admission` sees each connection as it is accepted:

- It counts it against its address's cap (``--max-connections-per-address``)
  until it closes, whatever it turns out to be: a WebSocket, an HTTP request, or
  nothing at all. At the cap, the :class:`~boardroom.server.core.gate.AddressGate` lets one more
  connection per address in to be told why (a WebSocket gets
  ``too_many_connections`` and close code 1013, an HTTP request a 503 with that
  code); any other is answered with the 503 at once, unread, and closed.
  Refusals are logged as ``connections refused`` (WARNING), at most once a
  minute per address, with their count.
- It closes a connection that has not started a request within
  ``--handshake-seconds`` of being accepted: a silent socket, or a request head
  trickling in. Between two HTTP requests, aiohttp's keep-alive timeout, set to
  the same, closes a connection left idle as long. A request under way, above
  all a WebSocket for its whole life, is never timed out. Connections closed
  before any request are logged as ``connections sent no request in time``
  (INFO, as sparingly).

On the TLS port (``--tls-cert``/``--tls-key``) the door stands before the TLS
handshake, not after it: asyncio's own TLS would hand the connection over only
once its handshake is done (or after a minute of nothing), and silent sockets
would again be neither counted nor timed out (issue 28). :class:`AdmittingServer`
accepts the bare TCP connection, counts it as above, and only then does the
handshake itself (``loop.start_tls``). The deadline runs from accept over the
handshake and the request's start together. A connection refused at once is
closed without a word (there is no TLS yet to say it in); the one let in to be
told why is told after its handshake, like any other.

Behind a trusted reverse proxy (``--trusted-proxy``) the door tells the clients
apart by ``X-Forwarded-For`` (:mod:`boardroom.server.core.client_address`), and counts
differently, because the proxy's connections are not its clients':

- A connection accepted from a trusted proxy is not counted against any
  address's cap at accept: all of them come from the proxy, and it keeps idle
  ones open for later requests (Caddy's ``keepalive``), so counting them would
  cap all the players together again, or, with a cap raised to fit, nobody.
  The handshake deadline still applies to it.
- Each request on it is counted against its *client's* cap while it is served:
  a WebSocket for its whole life, an HTTP request until it is answered. A proxy
  passes one connection from client to client between requests, so the request,
  not the connection, is what belongs to a client. Over the cap, the request is
  answered as above (one at a time told why, a WebSocket with
  ``too_many_connections``; the others a 503 at once), but the proxy's
  connection is left open for its other clients.
- The request goes on to the application with ``request.remote`` set to the
  client's address, resolved here, once: the HTTP rate limit, the WebSocket's
  address (its room caps and refused-token budget) and the log lines all see
  the same address.

:class:`AdmittingRunner` runs the application with its door: ``boardroom serve``
and the tests' server use it where aiohttp's examples use ``web.AppRunner``.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

import msgspec
from aiohttp import WSCloseCode, hdrs, web
from aiohttp.web_protocol import RequestHandler

from boardroom.server.core.client_address import TrustedProxies, client_address
from boardroom.server.core.gate import AddressGate, ReportThrottle, Verdict
from boardroom.server.metrics import ServerMetrics
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import Error

logger = logging.getLogger(__name__)

REPORT_WINDOW = 60.0
"""Seconds between two log lines about one address's refusals (or timeouts): an
attack makes a line a minute per address, with the count, not a line a socket."""

HANDSHAKE_TIMEOUT = "handshake_timeout"
"""The ``reason`` label of ``boardroom_connections_refused_total`` for connections
closed because they sent no request in time."""

AppHandler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


@dataclass(eq=False)
class _Entry:
    """One accepted connection, as the door knows it."""

    address: str
    """The TCP peer's address."""
    verdict: Verdict
    accepted_at: float
    proxied: bool = False
    """From a trusted proxy: not counted itself, each of its requests is (see
    the module docstring); ``verdict`` is then ADMIT, unused."""
    transport: asyncio.Transport | None = None
    """The TCP connection as accepted: closed by the deadline while the handler
    has none yet (a TLS handshake under way)."""
    deadline: asyncio.TimerHandle | None = None
    """Closes the connection unless a request starts first; None once one has."""
    requested: bool = False
    timed_out: bool = False


class Admission:
    """The door of one server (see the module docstring).

    Contract: :meth:`accepted` is called for every connection as it is accepted,
    and :meth:`closed` once when it is lost; every request on it goes through
    :meth:`serve`. :class:`AdmittingServer` does all three.
    """

    def __init__(
        self,
        limit: int,
        handshake_seconds: float,
        metrics: ServerMetrics,
        trusted: TrustedProxies | None = None,
    ) -> None:
        """Raise ValueError unless ``limit`` >= 1 and ``handshake_seconds`` > 0.
        ``trusted``: the proxies whose ``X-Forwarded-For`` is read (None: none)."""
        if not handshake_seconds > 0:
            raise ValueError(f"handshake_seconds must be more than 0, got {handshake_seconds!r}")
        self.handshake_seconds = handshake_seconds
        self._trusted = TrustedProxies() if trusted is None else trusted
        self._gate = AddressGate(limit)
        self._metrics = metrics
        self._refusals = ReportThrottle(REPORT_WINDOW)
        self._timeouts = ReportThrottle(REPORT_WINDOW)
        self._open: dict[RequestHandler, _Entry] = {}

    def held(self, address: str) -> int:
        """Connections admitted from ``address`` and open now."""
        return self._gate.held(address)

    def accepted(
        self, handler: RequestHandler, transport: asyncio.Transport, *, tls: bool = False
    ) -> bool:
        """A connection was accepted: count it, or refuse it (see the module
        docstring). ``tls``: ``transport`` is a TCP connection whose TLS
        handshake has not begun, and ``handler`` has no transport yet. Returns
        False for a connection refused at once, which is being closed."""
        loop = asyncio.get_running_loop()
        address = _peer_address(transport)
        if self._trusted.trusts(address):
            entry = _Entry(address, Verdict.ADMIT, loop.time(), proxied=True)
        else:
            entry = _Entry(address, self._gate.enter(address), loop.time())
        entry.transport = transport
        self._open[handler] = entry
        if entry.verdict is Verdict.ADMIT:
            entry.deadline = loop.call_later(self.handshake_seconds, self._time_out, handler)
            return True
        self._refused(address, entry.accepted_at)
        if entry.verdict is Verdict.TELL:
            # Served, to be told why; but it must ask in time like any other.
            entry.deadline = loop.call_later(self.handshake_seconds, self._time_out, handler)
            return True
        if tls:
            # Nothing can be said before a handshake, and it costs the most.
            transport.close()
            return False
        # Written without reading the request: the refusal costs nothing more.
        # Closed on the next turn of the loop: aiohttp starts the handler's task
        # after this hook returns, and that task must not find it lost already.
        transport.write(_http_refusal(self._refusal_text(address)))
        loop.call_soon(handler.force_close)
        return False

    def closed(self, handler: RequestHandler) -> None:
        """The connection of ``handler`` is gone: free its place."""
        entry = self._open.pop(handler, None)
        if entry is None:
            return
        if entry.deadline is not None:
            entry.deadline.cancel()
        if not entry.proxied:
            self._gate.leave(entry.address, entry.verdict)
        if entry.timed_out:
            self._metrics.connection_refused(HANDSHAKE_TIMEOUT)
            closed = self._timeouts.note(entry.address, asyncio.get_running_loop().time())
            if closed is not None:
                logger.info(
                    "connections sent no request in time",
                    extra={
                        "address": entry.address,
                        "seconds": self.handshake_seconds,
                        "closed": closed,
                    },
                )

    async def serve(self, request: web.BaseRequest, app_handler: AppHandler) -> web.StreamResponse:
        """Answer ``request``: with the app, or with the refusal on a connection
        let in only to be told."""
        entry = self._open.get(request.protocol)
        if entry is None:
            return await app_handler(request)
        if entry.deadline is not None:
            entry.deadline.cancel()
            entry.deadline = None
        entry.requested = True
        if entry.proxied:
            return await self._serve_proxied(request, entry.address, app_handler)
        if entry.verdict is Verdict.TELL:
            return await self._tell(request, entry.address)
        return await app_handler(request)

    async def _serve_proxied(
        self, request: web.BaseRequest, proxy: str, app_handler: AppHandler
    ) -> web.StreamResponse:
        """Serve a request that came through trusted proxy ``proxy``, counted
        against its client's cap while it is served (see the module docstring)."""
        # Several such headers are one list, in order (RFC 9110, 5.3).
        forwarded = ",".join(request.headers.getall(hdrs.X_FORWARDED_FOR, ()))
        client = client_address(proxy, forwarded, self._trusted)
        if client != request.remote:
            request = request.clone(remote=client)
        verdict = self._gate.enter(client)
        try:
            if verdict is Verdict.ADMIT:
                return await app_handler(request)
            self._refused(client, asyncio.get_running_loop().time())
            if verdict is Verdict.TELL:
                return await self._tell(request, client, keep_open=True)
            # Already read, unlike a refusal at accept; answered without the
            # WebSocket, and the proxy's connection kept for its other clients.
            text = self._refusal_text(client)
            return web.Response(
                status=503, body=_json_refusal(text), content_type="application/json"
            )
        finally:
            self._gate.leave(client, verdict)

    def _refused(self, address: str, now: float) -> None:
        """Count and (sparingly) log a connection or request refused for ``address``'s cap."""
        self._metrics.connection_refused(ErrorCode.TOO_MANY_CONNECTIONS)
        refused = self._refusals.note(address, now)
        if refused is not None:
            logger.warning(
                "connections refused",
                extra={
                    "address": address,
                    "reason": ErrorCode.TOO_MANY_CONNECTIONS.value,
                    "cap": self._gate.limit,
                    "refused": refused,
                },
            )

    def _time_out(self, handler: RequestHandler) -> None:
        entry = self._open.get(handler)
        if entry is not None and not entry.requested:
            entry.timed_out = True
            if handler.transport is not None:
                handler.force_close()
            elif entry.transport is not None:  # its TLS handshake is not done
                entry.transport.abort()

    async def _tell(
        self, request: web.BaseRequest, address: str, *, keep_open: bool = False
    ) -> web.StreamResponse:
        """Answer ``request`` with the refusal; an HTTP one closes the connection
        unless ``keep_open`` (a proxy's, which serves other clients too)."""
        text = self._refusal_text(address)
        ws = web.WebSocketResponse(compress=False)
        if ws.can_prepare(request).ok:
            await ws.prepare(request)
            refusal = Error(code=ErrorCode.TOO_MANY_CONNECTIONS, message=text)
            await ws.send_str(encode_message(refusal))
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"too many connections")
            return ws
        response = web.Response(
            status=503, body=_json_refusal(text), content_type="application/json"
        )
        if not keep_open:
            response.force_close()
        return response

    def _refusal_text(self, address: str) -> str:
        return f"{address} already has {self._gate.limit} connections open: close one first"


class AdmittingServer(web.Server):
    """aiohttp's low-level server with an :class:`Admission` at its door, serving
    the requests of ``app_server`` (an application's own server); over TLS
    with ``tls``, its handshake done by the door after admission (see the
    module docstring): the site that listens is then given no TLS context."""

    def __init__(
        self,
        admission: Admission,
        app_server: web.Server,
        *,
        tls: ssl.SSLContext | None = None,
        **handler_options: Any,
    ):
        """``handler_options`` go to aiohttp's ``RequestHandler`` as for any
        ``web.Server``; the keep-alive timeout defaults to the handshake deadline."""
        handler_options.setdefault("keepalive_timeout", admission.handshake_seconds)
        super().__init__(
            self._serve,
            request_factory=app_server.request_factory,
            handler_cancellation=app_server.handler_cancellation,
            **handler_options,
        )
        self._admission = admission
        self._app_handler: AppHandler = app_server.request_handler
        self._tls = tls
        self._handshakes: set[_TLSDoor] = set()

    def __call__(self) -> RequestHandler:
        # The protocol factory the listening socket calls at each accept: over
        # TLS, the door, which hands the connection to the handler once admitted
        # and through its handshake.
        handler = super().__call__()
        if self._tls is None:
            return handler
        return _TLSDoor(self._admission, handler, self._tls, self._handshakes)  # type: ignore[return-value]

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        if self._tls is None:  # over TLS, admitted at accept already (_TLSDoor)
            self._admission.accepted(handler, transport)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        self._admission.closed(handler)
        super().connection_lost(handler, exc)

    def pre_shutdown(self) -> None:
        for door in tuple(self._handshakes):
            door.abort()
        super().pre_shutdown()

    async def _serve(self, request: web.BaseRequest) -> web.StreamResponse:
        return await self._admission.serve(request, self._app_handler)


class _TLSDoor(asyncio.Protocol):
    """One connection on the TLS port from its accept to the end of its TLS
    handshake: admitted (or refused) at accept, then through the handshake,
    then handed to its ``handler`` as if it had come so. Its deadline, set at
    accept, covers the handshake (:meth:`Admission._time_out` closes the TCP
    connection while the handler has none)."""

    def __init__(
        self,
        admission: Admission,
        handler: RequestHandler,
        tls: ssl.SSLContext,
        handshakes: set[_TLSDoor],
    ):
        """``handshakes``: the server's doors whose handshakes are under way,
        which this one joins while its own is."""
        self._admission = admission
        self._handler = handler
        self._tls = tls
        self._handshakes = handshakes
        self._transport: asyncio.Transport | None = None
        self._handshake: asyncio.Task[None] | None = None
        self._early = bytearray()
        """What was read before the handshake began, to be given to it."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are asyncio.Transports by their methods, not their class.
        transport = cast(asyncio.Transport, transport)
        self._transport = transport
        # Nothing should be read before the handshake starts: start_tls reads
        # the client's hello itself. asyncio's loop reads nothing from here on;
        # uvloop starts reading once this returns, whatever it was told, and
        # what it reads meanwhile is kept (data_received) and handed over.
        transport.pause_reading()
        if not self._admission.accepted(self._handler, transport, tls=True):
            return  # closed: connection_lost follows
        self._handshakes.add(self)
        loop = asyncio.get_running_loop()
        # The task's first step runs start_tls up to its wait: it swaps this
        # protocol for the TLS one and schedules that one's connection_made,
        # then its reading. Scheduled after that step, _hand_over schedules
        # the early bytes' delivery after those two, in the same turn of the
        # loop, before anything else is read: they reach the handshake first.
        self._handshake = loop.create_task(self._shake_hands(transport))
        loop.call_soon(self._hand_over, transport)

    def data_received(self, data: bytes) -> None:
        self._early += data

    def _hand_over(self, transport: asyncio.Transport) -> None:
        if self._early:
            asyncio.get_running_loop().call_soon(self._deliver_early, transport)

    def _deliver_early(self, transport: asyncio.Transport) -> None:
        # Both loops' TLS protocols read into buffers (uvloop's is one by its
        # methods, not its class).
        tls = cast(asyncio.BufferedProtocol, transport.get_protocol())
        if transport.is_closing():
            return  # the handshake failed already
        early, self._early = memoryview(self._early), bytearray()
        while early:
            buffer = memoryview(tls.get_buffer(len(early)))
            size = min(len(buffer), len(early))
            buffer[:size] = early[:size]
            tls.buffer_updated(size)
            early = early[size:]

    def connection_lost(self, exc: Exception | None) -> None:
        # Closed before the handshake began (refused at once, or shut down).
        self._handshakes.discard(self)
        self._admission.closed(self._handler)

    def abort(self) -> None:
        """Close the connection, its handshake unfinished (the server stops)."""
        if self._transport is not None:
            self._transport.abort()

    async def _shake_hands(self, transport: asyncio.Transport) -> None:
        loop = asyncio.get_running_loop()
        try:
            tls_transport = await loop.start_tls(
                transport,
                self._handler,
                self._tls,
                server_side=True,
                # Admission's deadline closes it first; this one only in case.
                ssl_handshake_timeout=2 * self._admission.handshake_seconds,
            )
        except OSError:
            # Timed out by the door, closed by the client, not TLS at all: the
            # connection is closed already (start_tls closes it on failure).
            self._admission.closed(self._handler)
            return
        except asyncio.CancelledError:
            self._admission.closed(self._handler)
            raise
        finally:
            self._handshakes.discard(self)
        if tls_transport is None or tls_transport.is_closing():
            # Closed during the handshake without an error (timed out by the
            # door, say): asyncio's loop returns None then, uvloop a closed transport.
            self._admission.closed(self._handler)
            return
        self._handler.connection_made(tls_transport)


class AdmittingRunner(web.AppRunner):
    """``web.AppRunner`` for an application holding an :data:`ADMISSION`: its
    connections pass through that door, over TLS with ``tls`` (give the site
    no TLS context then: the door does the handshake). Other options are those
    of ``web.AppRunner``."""

    def __init__(
        self,
        app: web.Application,
        *,
        handle_signals: bool = False,
        shutdown_timeout: float = 60.0,
        tls: ssl.SSLContext | None = None,
        **handler_options: Any,
    ) -> None:
        super().__init__(
            app, handle_signals=handle_signals, shutdown_timeout=shutdown_timeout, **handler_options
        )
        self._handler_options = handler_options
        self._tls = tls

    async def _make_server(self) -> web.Server:
        # aiohttp's one hook for the server a runner makes. The app's own server
        # is made as AppRunner makes it (start-up hooks run, the app frozen); its
        # handler and request factory are then served behind the door.
        app_server = await super()._make_server()
        return AdmittingServer(
            self.app[ADMISSION], app_server, tls=self._tls, **self._handler_options
        )


ADMISSION = web.AppKey("admission", Admission)
"""The application's door (:func:`add_admission`)."""


def add_admission(
    app: web.Application,
    *,
    limit: int,
    handshake_seconds: float,
    metrics: ServerMetrics,
    trusted: TrustedProxies | None = None,
) -> None:
    """Give ``app`` its door, which :class:`AdmittingRunner` puts in front of it."""
    app[ADMISSION] = Admission(limit, handshake_seconds, metrics, trusted)


def _peer_address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "unknown"


def _json_refusal(text: str) -> bytes:
    """The body of a 503 refusal, shaped like every HTTP API error."""
    return msgspec.json.encode({"error": ErrorCode.TOO_MANY_CONNECTIONS.value, "message": text})


def _http_refusal(text: str) -> bytes:
    """A whole HTTP 503 response carrying :func:`_json_refusal`, closing the connection."""
    body = _json_refusal(text)
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body
