"""The teacher's HTTP API, under ``/api/admin/``: the token, input checks, JSON.

Routes (``docs/operations.md``, "Class mode", says the same for people)::

    GET  /api/admin/class                      the class at a glance
    GET  /api/admin/roster                     the students, with their results
    GET  /api/admin/rooms                      every room, public and private; those ended lately
    POST /api/admin/students/{id}/rename       {"name": "..."}
    POST /api/admin/students/{id}/kind         {"kind": "human" | "bot"}
    POST /api/admin/students/{id}/remove
    POST /api/admin/pause                      every game at once
    POST /api/admin/resume
    POST /api/admin/rooms/{code}/close
    POST /api/admin/broadcast                  {"text": "..."} (1 to 500 characters, one line)
    GET  /api/admin/export/results.csv         one row per finished game
    GET  /api/admin/export/games.zip           the CSV files and every game record

and the tournaments' (:mod:`server.tournaments.routes`, behind :func:`admin_only`)::

    POST /api/admin/tournaments                create one; round 1 starts at once
    GET  /api/admin/tournaments                every tournament, newest first
    POST /api/admin/tournaments/{id}/cancel

Every request is checked in this order, and the first failure answers:

1. class mode off (no ``--class``): **404** ``class_mode_off``, token or not;
2. no ``Authorization: Bearer TOKEN`` with the teacher's token: **401**
   ``unauthorized`` (with ``WWW-Authenticate: Bearer``);
3. a body that is not JSON (``malformed_json``), not an object of the right
   fields (``invalid_field``, naming the field), a bad name (``bad_name``) or
   a blank text (``invalid_field``): **400**;
4. an unknown (or removed) student, ``unknown_student``, or room,
   ``unknown_room``: **404**; what else a handler refuses (:class:`RefusedError`)
   with its own status.

A refused request changes nothing. Errors are ``{"error": CODE, "message": TEXT}``,
like the rest of the HTTP API. Answers are JSON, but for the exports.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from aiohttp import web

from server.classroom.admin_token import bearer_matches, load_or_make_token
from server.classroom.roster import Roster
from server.classroom.teacher import Classroom, UnknownRoomError, UnknownStudentError
from server.core.records import PlayerKind
from server.lifecycle import CONFIG, HUB, STORE
from shared.protocol.codec import check_chat_text, check_player_name
from shared.protocol.errors import ProtocolError

logger = logging.getLogger(__name__)

CLASSROOM = web.AppKey("classroom", Classroom)
"""The running class's controls; absent when class mode is off."""

_Body = TypeVar("_Body", bound=msgspec.Struct)
Handler = Callable[[web.Request, Classroom], Awaitable[web.StreamResponse]]


class AdminError(enum.StrEnum):
    """The ``error`` codes of the admin API. Those that the wire protocol has too
    (:class:`~shared.protocol.errors.ErrorCode`) mean the same here."""

    CLASS_MODE_OFF = "class_mode_off"
    """The server runs without ``--class``: there are no teacher's controls."""
    UNAUTHORIZED = "unauthorized"
    """No ``Authorization: Bearer`` header with the teacher's token."""
    MALFORMED_JSON = "malformed_json"
    """The body is not JSON."""
    INVALID_FIELD = "invalid_field"
    """A field missing, of the wrong type, or out of range (named in the message)."""
    BAD_NAME = "bad_name"
    """A name that is empty, over 32 characters, or holds control characters."""
    UNKNOWN_STUDENT = "unknown_student"
    """No student with that id on the roster."""
    UNKNOWN_ROOM = "unknown_room"
    """No room with that room code."""
    UNKNOWN_GAME = "unknown_game"
    """A tournament's game that the server does not play (server.tournaments)."""
    UNKNOWN_TOURNAMENT = "unknown_tournament"
    """No tournament with that id."""
    TOURNAMENT_RUNNING = "tournament_running"
    """A tournament is running already: one at a time."""
    TOURNAMENT_OVER = "tournament_over"
    """The tournament is finished: it cannot be cancelled."""


# -- bodies ------------------------------------------------------------------------------


class RenameBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students/{id}/rename``."""

    name: str


class KindBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students/{id}/kind``."""

    kind: Literal["human", "bot"]


class BroadcastBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/broadcast``: as long as a chat line may be."""

    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class RefusedError(Exception):
    """A refused request, answered with ``status`` (400: bad input) before anything changes."""

    def __init__(self, code: AdminError, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


# -- the routes --------------------------------------------------------------------------


def add_admin_routes(app: web.Application) -> None:
    """Route ``/api/admin/`` on ``app``, and set up class mode at start-up when
    the config asks for it. Call after the app's own start-up is added (the
    controls need its hub and store)."""
    app.cleanup_ctx.append(_class_mode)
    get, post = app.router.add_get, app.router.add_post
    get("/api/admin/class", admin_only(_class))
    get("/api/admin/roster", admin_only(_roster))
    get("/api/admin/rooms", admin_only(_rooms))
    post("/api/admin/students/{id}/rename", admin_only(_rename))
    post("/api/admin/students/{id}/kind", admin_only(_kind))
    post("/api/admin/students/{id}/remove", admin_only(_remove))
    post("/api/admin/pause", admin_only(_pause))
    post("/api/admin/resume", admin_only(_resume))
    post("/api/admin/rooms/{code}/close", admin_only(_close_room))
    post("/api/admin/broadcast", admin_only(_broadcast))
    get("/api/admin/export/results.csv", admin_only(_results_csv))
    get("/api/admin/export/games.zip", admin_only(_games_zip))


def teacher_token(app: web.Application) -> str | None:
    """The teacher's token once the app has started in class mode; None otherwise."""
    classroom = app.get(CLASSROOM)
    return None if classroom is None else classroom.token


async def _class_mode(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    if not config.class_mode:
        yield
        return
    store, hub = app[STORE], app[HUB]
    token = await load_or_make_token(store)
    classroom = Classroom(
        token=token, hub=hub, store=store, roster=Roster(store, config.class_name)
    )
    await classroom.start()
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
            return error_response(refusal.status, refusal.code, refusal.message)
        except UnknownStudentError as unknown:
            return error_response(404, AdminError.UNKNOWN_STUDENT, str(unknown))
        except UnknownRoomError as unknown:
            return error_response(404, AdminError.UNKNOWN_ROOM, str(unknown))

    return checked


# -- handlers ----------------------------------------------------------------------------


async def _class(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response(classroom.summary())


async def _roster(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"class": classroom.name, "students": await classroom.roster()})


async def _rooms(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"rooms": classroom.rooms(), "ended": classroom.ended_rooms()})


async def _rename(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, RenameBody)
    try:
        name = check_player_name(body.name)
    except ProtocolError as refusal:
        raise RefusedError(AdminError.BAD_NAME, refusal.message) from None
    student = await classroom.rename(request.match_info["id"], name)
    return json_response({"student": student})


async def _kind(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, KindBody, hint="; choose human or bot")
    student = await classroom.set_kind(request.match_info["id"], PlayerKind(body.kind))
    return json_response({"student": student})


async def _remove(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    student_id = request.match_info["id"]
    await classroom.remove(student_id)
    return json_response({"removed": student_id})


async def _pause(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"paused": True, "rooms": await classroom.pause()})


async def _resume(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"paused": False, "rooms": await classroom.resume()})


async def _close_room(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    code = request.match_info["code"]
    await classroom.close_room(code)
    return json_response({"closed": code.strip().upper()})


async def _broadcast(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, BroadcastBody)
    text = body.text.strip()
    if not text:
        raise RefusedError(AdminError.INVALID_FIELD, "text is blank: write 1 to 500 characters")
    try:
        check_chat_text(text)  # it is printed on every student's screen, as chat is
    except ProtocolError as error:
        raise RefusedError(AdminError.INVALID_FIELD, error.message) from None
    return json_response({"sent_to": classroom.announce(text)})


async def _results_csv(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return _download(await classroom.results_csv(), "text/csv; charset=utf-8", "results.csv")


async def _games_zip(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return _download(await classroom.games_zip(), "application/zip", "games.zip")


# -- plumbing ----------------------------------------------------------------------------


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


def json_response(body: Any) -> web.Response:
    return web.Response(body=msgspec.json.encode(body), content_type="application/json")


def _download(data: bytes, content_type: str, filename: str) -> web.Response:
    response = web.Response(body=data)
    response.headers["Content-Type"] = content_type
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def error_response(
    status: int, code: AdminError, message: str, headers: dict[str, str] | None = None
) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status, headers=headers)
