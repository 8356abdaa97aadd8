"""A class's HTTP requests, answered by its home from whichever process takes them.

In a cluster that runs a class, the class (its roster, the teacher's controls,
its tournaments, its rooms) lives in one process, the home
(:mod:`boardroom.server.cluster.node`). The teacher's page and the class's API may reach
any process, through a proxy that spreads requests: every process but the home
passes each HTTP request on to the home's address and gives back its answer,
byte for byte. Its own ``/healthz`` and ``/metrics`` stay its own (they say how
this process is), and the WebSocket is carried by the node.

While the home is away (restarting), the others answer ``503 class_unavailable``
with ``Retry-After``, rather than a page that does not know the class.
"""

from __future__ import annotations

import aiohttp
from aiohttp import web
from aiohttp.typedefs import Handler
from multidict import CIMultiDict

from boardroom.server.cluster.node import CLUSTER, ClusterNode, Route
from boardroom.server.http_api import error_response

OWN_PATHS = frozenset({"/ws", "/healthz", "/metrics"})
"""What every process answers itself."""
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)
"""Headers that belong to one connection, not to the request (RFC 9110, 7.6.1)."""
RETRY_AFTER_S = 2


@web.middleware
async def class_home_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Pass the request on to the class's home when another process is it."""
    node = request.app.get(CLUSTER)
    if node is None or request.path in OWN_PATHS:
        return await handler(request)
    route = node.route()
    if route is Route.HERE:
        return await handler(request)
    home = node.home_http
    if route is Route.NOWHERE or home is None:
        return error_response(
            503,
            "class_unavailable",
            "the class's server is restarting: try again in a moment",
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
    return await _pass_on(request, node, home)


async def _pass_on(request: web.Request, node: ClusterNode, home: str) -> web.Response:
    session = node.http_session()
    headers = CIMultiDict(
        (name, value) for name, value in request.headers.items() if name.lower() not in HOP_BY_HOP
    )
    forwarded = request.headers.get("X-Forwarded-For")
    client = request.remote or ""
    headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
    body = await request.read()
    try:
        async with session.request(
            request.method,
            home.rstrip("/") + request.path_qs,
            headers=headers,
            data=body or None,
            allow_redirects=False,
        ) as answer:
            payload = await answer.read()
            out = CIMultiDict(
                (name, value)
                for name, value in answer.headers.items()
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-encoding"
            )
            return web.Response(status=answer.status, body=payload, headers=out)
    except (aiohttp.ClientError, TimeoutError):
        return error_response(
            503,
            "class_unavailable",
            "the class's server did not answer: try again in a moment",
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
