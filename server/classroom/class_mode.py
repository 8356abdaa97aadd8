"""Class mode on the application, and the gate of the teacher's API.

With ``--class`` the classroom (:class:`~boardroom.server.classroom.teacher.Classroom`: the
roster, the controls, the teacher's token) starts with the server, after the hub
(:func:`add_class_mode`), and :data:`CLASSROOM` holds it; without, the key is absent.

Every route of the teacher's API, the classroom's (:mod:`boardroom.server.classroom.admin_routes`)
and the tournaments' (:mod:`boardroom.server.classroom.tournament_routes`), is behind
:func:`admin_only`, and every request is checked in this order, the first failure answering:

1. class mode off (no ``--class``): **404** ``class_mode_off``, token or not;
2. no ``Authorization: Bearer TOKEN`` with the teacher's token: **401**
   ``unauthorized`` (with ``WWW-Authenticate: Bearer``);
3. a body that is not JSON (``malformed_json``), not an object of the right
   fields (``invalid_field``, naming the field), a bad name (``bad_name``),
   new students' names that cannot be added (``bad_names``: every line at
   fault, in ``problems``) or a blank text (``invalid_field``): **400**;
4. an unknown (or removed) student, ``unknown_student``, room,
   ``unknown_room``, or player, ``unknown_player``: **404**; a player's token
   revoked already, ``already_revoked``, or a merge that a running tournament
   refuses, ``merge_refused``: **409**; a student merged into itself,
   ``invalid_field``: **400**; what else a handler refuses
   (:class:`RefusedError`) with its own status.

A refused request changes nothing. Errors are ``{"error": CODE, "message": TEXT}``
(:func:`boardroom.server.http_api.error_response`), like the rest of the HTTP API, with a
code of :class:`AdminError`.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import msgspec
from aiohttp import web

from boardroom.server.classroom.admin_token import bearer_matches, load_or_make_token
from boardroom.server.classroom.join_address import JoinAddress
from boardroom.server.classroom.roster import MergeRefusedError, Roster
from boardroom.server.classroom.teacher import (
    AlreadyRevokedError,
    Classroom,
    SameStudentError,
    UnknownPlayerError,
    UnknownRoomError,
    UnknownStudentError,
)
from boardroom.server.http_api import error_response
from boardroom.server.lifecycle import CONFIG, HUB, STORE
from boardroom.server.net_addresses import reachable_hosts
from boardroom.shared.i18n import SOURCE_LANGUAGE

logger = logging.getLogger(__name__)

CLASSROOM = web.AppKey("classroom", Classroom)
"""The running class's controls; absent when class mode is off."""
JOIN_ADDRESS = web.AppKey("join_address", JoinAddress)
"""How the students' join links are addressed; set with :data:`CLASSROOM`."""

_Body = TypeVar("_Body", bound=msgspec.Struct)
Handler = Callable[[web.Request, Classroom], Awaitable[web.StreamResponse]]
"""A route of the teacher's API, given the running classroom once the checks passed."""


class AdminError(enum.StrEnum):
    """The ``error`` codes of the admin API. Those that the wire protocol has too
    (:class:`~boardroom.shared.protocol.errors.ErrorCode`) mean the same here."""

    CLASS_MODE_OFF = "class_mode_off"
    """The server runs without ``--class``: there are no teacher's controls."""
    UNAUTHORIZED = "unauthorized"
    """No ``Authorization: Bearer`` header with the teacher's token."""
    MALFORMED_JSON = "malformed_json"
    """The body is not JSON."""
    INVALID_FIELD = "invalid_field"
    """A field missing, of the wrong type, or out of range (named in the message)."""
    BAD_NAMES = "bad_names"
    """Students' names that cannot be added, each with its line (``problems``)."""
    BAD_NAME = "bad_name"
    """A name that is empty, over 32 characters, or holds control characters."""
    UNKNOWN_STUDENT = "unknown_student"
    """No student with that id on the roster."""
    UNKNOWN_ROOM = "unknown_room"
    """No room with that room code."""
    UNKNOWN_GAME = "unknown_game"
    """A tournament's game that the server does not play (boardroom.server.tournaments)."""
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    """No tournament with that id."""
    TOURNAMENT_RUNNING = "tournament_running"
    """A tournament is running already: one at a time."""
    TOURNAMENT_OVER = "tournament_over"
    """The tournament is finished: it cannot be cancelled."""
    UNKNOWN_PLAYER = "unknown_player"
    """No durable player with that id."""
    ALREADY_REVOKED = "already_revoked"
    """That player's token was revoked already."""
    MERGE_REFUSED = "merge_refused"
    """Two students who both play in the running tournament cannot be merged."""


class RefusedError(Exception):
    """A refused request, answered with ``status`` (400: bad input) before anything changes."""

    def __init__(
        self,
        code: AdminError,
        message: str,
        *,
        status: int = 400,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra
        """More fields of the error's body beside ``error`` and ``message``."""


def add_class_mode(app: web.Application) -> None:
    """Start the classroom with ``app`` when its config asks for class mode. Call
    after :func:`boardroom.server.lifecycle.add_resources` (the classroom needs the hub and
    the store) and before anything that needs the classroom (the tournaments)."""
    app.cleanup_ctx.append(_classroom)


def teacher_token(app: web.Application) -> str | None:
    """The teacher's token once the app has started in class mode; None otherwise."""
    classroom = app.get(CLASSROOM)
    return None if classroom is None else classroom.token


async def _classroom(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    if not config.class_mode:
        yield
        return
    store, hub = app[STORE], app[HUB]
    token = await load_or_make_token(store)
    classroom = Classroom(
        token=token,
        hub=hub,
        store=store,
        roster=Roster(store, config.class_name),
        language=config.language or SOURCE_LANGUAGE,
    )
    await classroom.start()
    # Off the loop: looking up this machine's own name may wait on DNS.
    hosts = [] if config.public_url else await asyncio.to_thread(reachable_hosts, config.host)
    app[JOIN_ADDRESS] = JoinAddress(config.public_url, hosts)
    app[CLASSROOM] = classroom
    logger.info("class mode", extra={"class": config.class_name})
    try:
        yield
    finally:
        classroom.stop()


def admin_only(handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """``handler`` behind the checks of the module docstring, in their order."""

    async def checked(request: web.Request) -> web.StreamResponse:
        classroom = request.app.get(CLASSROOM)
        if classroom is None:
            return error_response(
                404,
                AdminError.CLASS_MODE_OFF,
                "this server is not running for a class: start it with --class NAME",
            )
        if not bearer_matches(request.headers.get("Authorization"), classroom.token):
            return error_response(
                401,
                AdminError.UNAUTHORIZED,
                "send the teacher's token: Authorization: Bearer TOKEN "
                "(the token is in the teacher's link that boardroom serve printed)",
                headers={"WWW-Authenticate": 'Bearer realm="Boardroom teacher"'},
            )
        try:
            return await handler(request, classroom)
        except RefusedError as refusal:
            return error_response(
                refusal.status, refusal.code, refusal.message, extra=refusal.extra
            )
        except UnknownStudentError as unknown:
            return error_response(404, AdminError.UNKNOWN_STUDENT, str(unknown))
        except UnknownRoomError as unknown:
            return error_response(404, AdminError.UNKNOWN_ROOM, str(unknown))
        except UnknownPlayerError as unknown:
            return error_response(404, AdminError.UNKNOWN_PLAYER, str(unknown))
        except AlreadyRevokedError as revoked:
            return error_response(409, AdminError.ALREADY_REVOKED, str(revoked))
        except SameStudentError as same:
            return error_response(400, AdminError.INVALID_FIELD, str(same))
        except MergeRefusedError as refused:
            return error_response(409, AdminError.MERGE_REFUSED, str(refused))

    return checked


async def read_body(request: web.Request, kind: type[_Body], *, hint: str = "") -> _Body:
    """The request's JSON body as ``kind``; :class:`RefusedError` otherwise
    (``hint`` is added to a field's refusal: what would be accepted)."""
    raw = await request.read()
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as error:
        raise RefusedError(AdminError.INVALID_FIELD, f"{error}{hint}") from None
    except msgspec.DecodeError as error:
        raise RefusedError(AdminError.MALFORMED_JSON, f"the body is not JSON: {error}") from None
