"""The teacher's HTTP API, under ``/api/admin/``: the classroom's routes and their bodies.

Routes (``docs/operations.md``, "Class mode", says the same for people)::

    GET  /api/admin/class                      the class at a glance, and where join links lead
    GET  /api/admin/roster                     the students, with their results, a page at a time
    GET  /api/admin/rooms                      every room, public and private; those ended lately
    POST /api/admin/students                   {"names": [...]}: class accounts, join links and
                                               codes once; every bad line at once (bad_names)
    POST /api/admin/students/{id}/rename       {"name": "..."}
    POST /api/admin/students/{id}/kind         {"kind": "human" | "bot"}
    POST /api/admin/students/{id}/remove
    POST /api/admin/students/{id}/merge        {"into": "ID"}: one person, one entry
    POST /api/admin/students/{id}/new-link     a new join link; the old one opens nothing
    POST /api/admin/pause                      every game at once
    POST /api/admin/resume
    POST /api/admin/hints                      {"allowed": true | false}
    POST /api/admin/autopilot                  {"level": "off" | LEVEL}: the class's default
    POST /api/admin/rooms/{code}/close
    POST /api/admin/broadcast                  {"text": "..."} (1 to 500 characters, one line)
    POST /api/admin/bots                       {"name": "..."}: a bot player; its token, once
    POST /api/admin/players/{id}/revoke        its token opens nothing; its connections close
    GET  /api/admin/export/results.csv         one row per finished game
    GET  /api/admin/export/games.zip           the CSV files and every game record

The tournaments' routes share the prefix (:mod:`boardroom.server.classroom.tournament_routes`).
Every route is behind :func:`~boardroom.server.classroom.class_mode.admin_only`
(:mod:`boardroom.server.classroom.class_mode` gives the checks in their order and the
error codes). A refused request changes nothing. Answers are JSON, but for the
exports.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Literal

import msgspec
from aiohttp import web

from boardroom.server.classroom.class_mode import (
    JOIN_ADDRESS,
    AdminError,
    RefusedError,
    add_class_mode,
    admin_only,
    read_body,
)
from boardroom.server.classroom.join_address import reachable
from boardroom.server.classroom.qr_codes import qr_data_uri
from boardroom.server.classroom.teacher import Classroom, NewAccount
from boardroom.server.core.path_ids import MAX_ID
from boardroom.server.core.records import PlayerKind
from boardroom.server.http_api import json_response, query_number
from boardroom.shared.protocol.codec import MAX_NAME_LENGTH, check_chat_text, check_player_name
from boardroom.shared.protocol.errors import ProtocolError
from boardroom.shared.protocol.messages import AUTOPILOT_OFF, LEVELS, Level

logger = logging.getLogger(__name__)

# -- bodies ------------------------------------------------------------------------------


class RenameBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students/{id}/rename``."""

    name: str


class HintsBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/hints``."""

    allowed: bool


class AutopilotBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/autopilot``: an engine level, or ``off``."""

    level: str


class KindBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students/{id}/kind``."""

    kind: Literal["human", "bot"]


MAX_NEW_STUDENTS = 200
"""Names in one ``POST /api/admin/students``: a large school year at once."""


class NewStudentsBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students``."""

    names: Annotated[list[str], msgspec.Meta(min_length=1, max_length=MAX_NEW_STUDENTS)]


class MergeBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/students/{id}/merge``."""

    into: str


class NewBotBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/bots``."""

    name: str


class BroadcastBody(msgspec.Struct, frozen=True):
    """``POST /api/admin/broadcast``: as long as a chat line may be."""

    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


# -- the routes --------------------------------------------------------------------------


def add_admin_routes(app: web.Application) -> None:
    """Route ``/api/admin/`` on ``app``, and start class mode with it when the
    config asks for it (:func:`~boardroom.server.classroom.class_mode.add_class_mode`).
    Call after the app's resources are added (the controls need its hub and store)."""
    add_class_mode(app)
    get, post = app.router.add_get, app.router.add_post
    get("/api/admin/class", admin_only(_class))
    get("/api/admin/roster", admin_only(_roster))
    get("/api/admin/rooms", admin_only(_rooms))
    post("/api/admin/students", admin_only(_new_students))
    post("/api/admin/students/{id}/rename", admin_only(_rename))
    post("/api/admin/students/{id}/kind", admin_only(_kind))
    post("/api/admin/students/{id}/remove", admin_only(_remove))
    post("/api/admin/students/{id}/merge", admin_only(_merge))
    post("/api/admin/students/{id}/new-link", admin_only(_new_link))
    post("/api/admin/pause", admin_only(_pause))
    post("/api/admin/resume", admin_only(_resume))
    post("/api/admin/hints", admin_only(_hints))
    post("/api/admin/autopilot", admin_only(_autopilot))
    post("/api/admin/rooms/{code}/close", admin_only(_close_room))
    post("/api/admin/broadcast", admin_only(_broadcast))
    post("/api/admin/bots", admin_only(_new_bot))
    post("/api/admin/players/{id}/revoke", admin_only(_revoke))
    get("/api/admin/export/results.csv", admin_only(_results_csv))
    get("/api/admin/export/games.zip", admin_only(_games_zip))


# -- handlers ----------------------------------------------------------------------------


async def _class(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    # Where the join links lead, for the page's notice when it is itself on loopback.
    base = _base_link(request)
    return json_response(
        {
            **msgspec.to_builtins(classroom.summary()),
            "join_base": base,
            "join_reachable": reachable(base),
        }
    )


ROSTER_PAGE_DEFAULT = 200
"""Students in one answer of ``GET /api/admin/roster`` without ``limit``: a whole
school year's classes in one page. A roster filled by thousands (a flood) is
read a page at a time, so one answer stays small and quick to build."""

ROSTER_PAGE_MAX = 500
"""The most ``limit`` may ask for."""


async def _roster(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    try:
        offset = query_number(request, "offset", 0, 0, MAX_ID)
        limit = query_number(request, "limit", ROSTER_PAGE_DEFAULT, 1, ROSTER_PAGE_MAX)
    except ValueError as error:
        raise RefusedError(AdminError.INVALID_FIELD, str(error)) from None
    students, total = await classroom.roster_page(offset, limit)
    return json_response(
        {
            "class": classroom.name,
            "students": students,
            "total": total,
            "offset": offset,
            "limit": limit,
        }
    )


async def _rooms(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"rooms": classroom.rooms(), "ended": classroom.ended_rooms()})


async def _rename(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, RenameBody)
    name = _checked_name(body.name)
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


async def _new_students(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, NewStudentsBody, hint=f" (1 to {MAX_NEW_STUDENTS} names)")
    names = _new_student_names(body.names, classroom)
    accounts = await classroom.add_students(names, _base_link(request))
    # The tokens and codes are in this answer only (in the links and cards): the
    # server keeps their hashes. The QR codes, made off the event loop.
    cards = await asyncio.to_thread(lambda: [_card(account) for account in accounts])
    logger.info("the teacher added students", extra={"students": len(accounts)})
    response = json_response({"class": classroom.name, "students": cards})
    response.set_status(201)
    return response


NameProblemCode = Literal["on_roster", "repeated", "too_long", "invisible_characters"]
"""What is wrong with a new student's name, for a client that says it in its
reader's language (the teacher's page): on the roster already, given on an
earlier line (``first_line``), over 32 characters, or holding control characters."""


class NameProblem(msgspec.Struct, frozen=True):
    """One line of ``POST /api/admin/students`` that cannot be added: its number
    (from 1, blank lines counted, as the teacher's text box numbers them), the
    name as given (trimmed), what is wrong with it in English (``problem``) and
    as a code (``code``); a repeated name's ``first_line`` is where it was given first."""

    line: int
    name: str
    problem: str
    code: NameProblemCode
    first_line: int | None = None


def _new_student_names(said: list[str], classroom: Classroom) -> list[str]:
    """The names of new students, checked: each a valid player name, none said
    twice nor on the roster already (case-folded, as names are compared on the
    server). Blank lines (empty after trimming) are left out. Every line at
    fault is reported at once (``bad_names``, with a :class:`NameProblem` each)."""
    names: list[str] = []
    problems: list[NameProblem] = []
    on_roster = {student.name.casefold() for student in classroom.students()}
    first_line: dict[str, int] = {}
    for line, raw in enumerate(said, start=1):
        given = raw.strip()
        if not given:
            continue
        try:
            name = check_player_name(raw)
        except ProtocolError as refusal:
            # Blank lines were skipped: a name is refused for its length or its characters.
            too_long = len(given) > MAX_NAME_LENGTH
            code: NameProblemCode = "too_long" if too_long else "invisible_characters"
            problems.append(NameProblem(line, given, refusal.message, code))
            continue
        folded = name.casefold()
        if folded in on_roster:
            problems.append(
                NameProblem(line, name, "on the roster already: give each one name", "on_roster")
            )
        elif folded in first_line:
            twice = f"on line {first_line[folded]} already: give each one name"
            problems.append(
                NameProblem(line, name, twice, "repeated", first_line=first_line[folded])
            )
        else:
            first_line[folded] = line
            names.append(name)
    if problems:
        listed = "; ".join(f"line {p.line} ({p.name!r}): {p.problem}" for p in problems)
        count = "1 line" if len(problems) == 1 else f"{len(problems)} lines"
        raise RefusedError(
            AdminError.BAD_NAMES,
            f"nobody was added: {count} cannot be: {listed}",
            extra={"problems": msgspec.to_builtins(problems)},
        )
    if not names:
        raise RefusedError(AdminError.INVALID_FIELD, "names: every name is blank")
    return names


async def _new_link(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    account, ended = await classroom.new_link(request.match_info["id"], _base_link(request))
    logger.info(
        "the teacher gave a student a new link",
        extra={"student": account.view.id, "player": account.player.id, "sessions_ended": ended},
    )
    card = await asyncio.to_thread(_card, account)
    return json_response({**card, "sessions_ended": ended})


def _card(account: NewAccount) -> dict[str, str]:
    """A student's card as the API answers it: who, the join link, the class
    code, and the link as a QR code (an SVG ``data:`` address for an ``<img>``)."""
    return {
        "id": account.view.id,
        "name": account.view.name,
        "player_id": account.player.id,
        "join_link": account.join_link,
        "code": account.code,
        "qr": qr_data_uri(account.join_link),
    }


def _base_link(request: web.Request) -> str:
    """The join links' base: an address the students' machines reach
    (:mod:`boardroom.server.classroom.join_address`), never the teacher's loopback one."""
    return request.app[JOIN_ADDRESS].base(request.scheme, request.host)


async def _merge(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, MergeBody)
    student = await classroom.merge(request.match_info["id"], body.into)
    return json_response({"student": student})


async def _pause(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"paused": True, "rooms": await classroom.pause()})


async def _resume(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return json_response({"paused": False, "rooms": await classroom.resume()})


async def _hints(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, HintsBody)
    rooms = await classroom.set_hints(body.allowed)
    return json_response({"hints": body.allowed, "rooms": rooms})


async def _autopilot(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, AutopilotBody)
    if body.level != AUTOPILOT_OFF and body.level not in LEVELS:
        raise RefusedError(
            AdminError.INVALID_FIELD,
            f"level: choose {AUTOPILOT_OFF} or one of {', '.join(LEVELS)}, not {body.level!r}",
        )
    await classroom.set_autopilot(None if body.level == AUTOPILOT_OFF else Level(body.level))
    logger.info("the teacher set the class's autopilot", extra={"autopilot": body.level})
    return json_response({"autopilot": classroom.autopilot})


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


async def _new_bot(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    body = await read_body(request, NewBotBody)
    name = _checked_name(body.name)
    player, token = await classroom.new_bot(name)
    # The token is in this answer only: the server keeps its hash, logs the id.
    logger.info("the teacher made a bot player", extra={"player": player.id})
    response = json_response({"player_id": player.id, "name": player.name, "token": token})
    response.set_status(201)
    return response


async def _revoke(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    player, ended = await classroom.revoke(request.match_info["id"])
    logger.info(
        "the teacher revoked a player's token",
        extra={"player": player.id, "sessions_ended": ended},
    )
    return json_response(
        {
            "revoked": player.id,
            "name": player.name,
            "kind": player.kind.value,
            "sessions_ended": ended,
        }
    )


async def _results_csv(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return _download(await classroom.results_csv(), "text/csv; charset=utf-8", "results.csv")


async def _games_zip(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    return _download(await classroom.games_zip(), "application/zip", "games.zip")


# -- plumbing ----------------------------------------------------------------------------


def _checked_name(name: str) -> str:
    try:
        return check_player_name(name)
    except ProtocolError as refusal:
        raise RefusedError(AdminError.BAD_NAME, refusal.message) from None


def _download(data: bytes, content_type: str, filename: str) -> web.Response:
    response = web.Response(body=data)
    response.headers["Content-Type"] = content_type
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
