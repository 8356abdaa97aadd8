"""The class codes' door: a student types their short code on the start page.

Routes (``docs/protocol.md``, "HTTP", says the same for client authors)::

    GET  /api/class         {"class": NAME or null}: whether the start page offers
                            a class code field (a class is running)
    POST /api/class/code    {"code": "K7P2QX"} -> {"player_token", "name", "player_id"}

A code that is some student's of the running class answers that student's
player token, as their join link holds it: the browser keeps it as it keeps a
join link's (the code is their key, as the link is). Nothing is made: no
player, no roster row, whatever is typed. Refusals, each changing nothing:

- class mode off: **404** ``class_mode_off``;
- a body that is not JSON, or not ``{"code": TEXT}``: **400** ``malformed_json``
  or ``invalid_field``;
- a code that is not one (the wrong length, a character no code has) or that no
  student of the class has (mistyped, renewed by a new link, revoked):
  **404** ``bad_class_code``, "This code is not valid: ask your teacher for
  your card";
- from an address that typed :data:`CODE_GUESSES` unknown codes lately: **429**
  ``rate_limited`` with ``retry_after``, before the code is looked up (the
  address earns one guess back every :data:`CODE_GUESS_SECONDS` seconds). A
  code that is not one at all does not count: it looks nothing up.

An address's codes are looked up one at a time, each counted before the next
is let in, so that requests sent all at once cannot slip past the limit
together (a class typing theirs at once waits a few milliseconds each).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator

import msgspec
from aiohttp import web

from boardroom.server.classroom.class_codes import normalized
from boardroom.server.classroom.class_mode import CLASSROOM, AdminError, RefusedError, read_body
from boardroom.server.classroom.teacher import Classroom
from boardroom.server.core.limits import AddressRateLimits
from boardroom.server.http_api import error_response, json_response
from boardroom.server.http_limits import too_many_requests
from boardroom.server.store import StudentRecord

logger = logging.getLogger(__name__)

BAD_CLASS_CODE = "bad_class_code"
"""The error code of a code that opens nothing."""
NOT_VALID = "This code is not valid: ask your teacher for your card"

CODE_GUESSES = 20
"""Unknown codes an address may type in a burst: a class behind one school
address mistyping theirs at the start of a lesson."""
CODE_GUESS_SECONDS = 3.0
"""Seconds in which an address earns back one guess: 20 a minute, so finding
one of a class's 30 codes (of 887,503,681) takes years of guessing."""

CODE_LIMITS = web.AppKey("class_code_limits", AddressRateLimits)


class _Turns:
    """Whose turn it is to look a code up, per address: a lock each, and how many
    requests hold or wait for it (forgotten when none does)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, address: str) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(address, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._locks[address]


CODE_TURNS = web.AppKey("class_code_turns", _Turns)


class CodeBody(msgspec.Struct, frozen=True):
    """``POST /api/class/code``."""

    code: str


def add_code_routes(app: web.Application) -> None:
    """Route ``/api/class`` and ``/api/class/code`` on ``app``."""
    app[CODE_LIMITS] = AddressRateLimits(1 / CODE_GUESS_SECONDS, CODE_GUESSES)
    app[CODE_TURNS] = _Turns()
    app.router.add_get("/api/class", _class)
    app.router.add_post("/api/class/code", _code)


async def _class(request: web.Request) -> web.StreamResponse:
    classroom = request.app.get(CLASSROOM)
    return json_response({"class": None if classroom is None else classroom.name})


async def _code(request: web.Request) -> web.StreamResponse:
    classroom = request.app.get(CLASSROOM)
    if classroom is None:
        return error_response(
            404, AdminError.CLASS_MODE_OFF, "this server is not running for a class: no class codes"
        )
    try:
        body = await read_body(request, CodeBody)
    except RefusedError as refusal:
        return error_response(refusal.status, refusal.code, refusal.message)
    code = normalized(body.code)
    if code is None:
        return error_response(404, BAD_CLASS_CODE, f"{NOT_VALID} (a code is 6 letters and digits)")
    address = request.remote or "unknown"
    async with request.app[CODE_TURNS].turn(address):
        found = await _look_up(request.app[CODE_LIMITS], address, classroom, code)
    if isinstance(found, web.Response):
        return found
    student, token = found
    # The token is in this answer only; the log names the student.
    logger.info("a student signed in with their class code", extra={"student": student.id})
    return json_response({"player_token": token, "name": student.name, "player_id": student.player})


async def _look_up(
    limits: AddressRateLimits, address: str, classroom: Classroom, code: str
) -> tuple[StudentRecord, str] | web.Response:
    """The student of ``code`` and their token, or the refusal (see the module docstring)."""
    retry_after = limits.wait(address, time.monotonic())
    if retry_after is not None:
        return too_many_requests(f"too many wrong class codes from {address}", retry_after)
    found = await classroom.sign_in(code)
    if found is None:
        limits.check(address, time.monotonic())
        logger.info("a class code was refused", extra={"address": address})
        return error_response(404, BAD_CLASS_CODE, NOT_VALID)
    return found
