"""The HTTP API's rate limit per network address: an aiohttp middleware.

Each address gets a token bucket (:class:`~boardroom.server.core.limits.AddressRateLimits`)
over its requests to the API: ``--http-rate`` requests a second, bursts of
``--http-burst``. A request over it is answered at once with 429, the API's
JSON error ``{"error": "rate_limited", "message": ..., "retry_after": SECONDS}``
and a ``Retry-After`` header (whole seconds, at least 1, as HTTP has it); the
handler does not run. ``--http-rate 0`` turns the limit off.

The address is ``request.remote``. Behind a reverse proxy named by
``--trusted-proxy`` that is the client's own address, read from the proxy's
``X-Forwarded-For`` by the door (:mod:`boardroom.server.admission`, once per request), so
each player behind the proxy has a budget of their own. (Until issue 18 this
module saw only the proxy's address there, one budget for everyone, and the
guide said to turn the limit off behind a proxy.) Without the flag, a proxy's
clients still share its address and its budget.

What is limited: ``/api/...`` (rooms, game records, the leaderboard, the admin
and tournament API) and ``/metrics`` (each scrape reads the database). Not
limited: the pages and their files (a class opening the client at once asks for
a few hundred small files; they are cheap), ``/healthz`` (cheap, and what a
monitor must always reach) and the WebSocket ``/ws``, whose own limits are the
per-address connection cap and the per-connection message rate.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from boardroom.server.core.limits import AddressRateLimits
from boardroom.shared.protocol.errors import ErrorCode

LIMITED_PREFIXES = ("/api/", "/metrics")
"""Paths the limit applies to (see the module docstring for why these)."""


def is_limited(path: str) -> bool:
    """True for a path the rate limit applies to.

    >>> [is_limited(p) for p in ("/api/rooms", "/metrics", "/", "/static/main.js", "/healthz")]
    [True, True, False, False, False]
    """
    return path.startswith(LIMITED_PREFIXES)


def rate_limit_middleware(
    rate: float, burst: int, *, on_refused: Callable[[], None] = lambda: None
) -> Middleware | None:
    """The middleware that limits each address to ``rate`` API requests a second
    (bursts of ``burst``), calling ``on_refused`` for each 429; None when
    ``rate`` is 0 (no limit). Raises ValueError for a bad ``rate`` or ``burst``."""
    if rate == 0:
        return None
    limits = AddressRateLimits(rate, burst)

    @web.middleware
    async def limit_requests(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not is_limited(request.path):
            return await handler(request)
        address = request.remote or "unknown"
        retry_after = limits.check(address, time.monotonic())
        if retry_after is None:
            return await handler(request)
        on_refused()
        limit = f"at most {rate:g} a second (bursts of {burst})"
        return too_many_requests(f"too many requests from {address}: {limit}", retry_after)

    return limit_requests


def too_many_requests(why: str, retry_after: float) -> web.Response:
    """The 429 answer: the API's JSON error (``why``, and when to retry), and
    ``Retry-After`` in whole seconds."""
    body = {
        "error": ErrorCode.RATE_LIMITED.value,
        "message": f"{why}; retry in {retry_after:.2f} s",
        "retry_after": round(retry_after, 3),
    }
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}
    return web.json_response(body, status=429, headers=headers)
