"""The answers of the HTTP API, as every route gives them: JSON, and one error shape.

Every refusal of ``/api/...`` is ``{"error": CODE, "message": TEXT}`` with its
status (``docs/protocol.md``, "HTTP"): :func:`error_response`. Bodies are
encoded by msgspec, which writes the project's structs and enums as the wire
protocol does: :func:`json_response`. The game server's routes (:mod:`boardroom.server.app`)
and the features' (class mode, tournaments, leaderboards) answer through these,
so a client reads every error the same way.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from aiohttp import web

from boardroom.server.core.path_ids import parse_id
from boardroom.server.store import StorageUnavailableError, UnreadableRecordError
from boardroom.shared.protocol.errors import ErrorCode

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(body: Any) -> web.Response:
    """``body`` as JSON (status 200)."""
    return web.Response(body=msgspec.json.encode(body), content_type="application/json")


def revalidated_json(
    request: web.Request, body: bytes, etag: str, headers: dict[str, str] | None = None
) -> web.Response:
    """``body`` (JSON, fixed while ``etag`` is) with ``Cache-Control: no-cache`` and
    its ETag, or ``304 Not Modified`` when the request's ``If-None-Match`` has it:
    a browser asks again each time and downloads only what changed."""
    headers = {"Cache-Control": "no-cache", **(headers or {})}
    if any(tag.value in (etag, "*") for tag in request.if_none_match or ()):
        response = web.Response(status=304, headers=headers)
    else:
        response = web.Response(body=body, content_type="application/json", headers=headers)
    response.etag = etag
    return response


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    headers: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> web.Response:
    """A refusal: ``{"error": code, "message": message}`` with ``status``, and
    the fields of ``extra`` beside them (what an error of that code also says)."""
    body = {"error": code, "message": message, **(extra or {})}
    return web.json_response(body, status=status, headers=headers)


@web.middleware
async def unreadable_record_middleware(
    request: web.Request, handler: Handler
) -> web.StreamResponse:
    """A route that reads a record a newer Boardroom wrote (an ending this code
    does not know: :class:`~boardroom.server.store.UnreadableRecordError`)
    answers 409 ``unreadable_record`` with the store's message, which names the
    record and says to upgrade, rather than a 500: the request was sound, the
    server is older than its data. Every route at once, since any may read one
    (a game's record, its analysis, a class's export...).

    Likewise a route whose database is down or locked for now
    (:class:`~boardroom.server.store.StorageUnavailableError`) answers 503
    ``storage_unavailable`` with ``retry_after`` (seconds) and a ``Retry-After``
    header, rather than a 500: nothing was done, and the same request will do
    once the database is back."""
    try:
        return await handler(request)
    except UnreadableRecordError as error:
        return error_response(409, ErrorCode.UNREADABLE_RECORD, str(error))
    except StorageUnavailableError as outage:
        return storage_unavailable_response(outage.retry_after)


def storage_unavailable_response(retry_after: float) -> web.Response:
    """503 ``storage_unavailable``: the database cannot be reached for now."""
    return error_response(
        503,
        ErrorCode.STORAGE_UNAVAILABLE,
        f"the server cannot reach its database for now: try again in {retry_after:g} s",
        headers={"Retry-After": str(max(1, math.ceil(retry_after)))},
        extra={"retry_after": retry_after},
    )


def query_number(request: web.Request, name: str, default: int, least: int, most: int) -> int:
    """Query parameter ``name``, a whole number from ``least`` to ``most``
    (``default`` if absent); ValueError naming it and what it may be otherwise
    (the routes answer it as ``invalid_field``)."""
    text = request.query.get(name)
    if text is None:
        return default
    value = parse_id(text)
    if value is None or not least <= value <= most:
        shown = text if len(text) <= 24 else f"{text[:20]}..."
        raise ValueError(f"{name}={shown!r}: give a whole number from {least} to {most}")
    return value
