"""The tournaments' HTTP API (``docs/operations.md``, "Tournaments").

The teacher's routes sit behind the admin API's checks and error codes
(:func:`boardroom.server.classroom.class_mode.admin_only`)::

    POST /api/admin/tournaments              create one; round 1 starts at once (201)
    GET  /api/admin/tournaments              every tournament of the class, newest first
    POST /api/admin/tournaments/{id}/cancel  cancel the running one
    GET  /api/admin/tournaments/{id}/worth-a-look  students whose games stand out
                                             (:mod:`boardroom.server.classroom.worth_a_look`)

and the public ones, for the wall and the students (no token; 404
``class_mode_off`` without ``--class``)::

    GET  /api/tournaments                    every tournament, newest first
    GET  /api/tournaments/current            the running one, else the latest finished;
                                             {"tournament": null} if there is neither
    GET  /api/tournaments/{id}               one

Refusals: 400 ``malformed_json``, ``invalid_field`` (naming the field) or
``unknown_game`` for a bad body; 404 ``unknown_student`` for an entrant not on
the roster and ``unknown_tournament`` for an id; 409 ``tournament_running``
(one at a time) and ``tournament_over`` (cancelling a finished one).

:func:`add_tournament_routes` also starts the :class:`TournamentDirector` with
class mode, after the classroom (call it after
:func:`~boardroom.server.classroom.class_mode.add_class_mode`, which
:func:`~boardroom.server.classroom.admin_routes.add_admin_routes` calls).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import msgspec
from aiohttp import web

from boardroom.server.classroom.class_mode import CLASSROOM, AdminError, RefusedError, admin_only
from boardroom.server.classroom.teacher import Classroom
from boardroom.server.classroom.tournament_director import (
    DirectorError,
    TournamentDirector,
    TournamentOverError,
    TournamentRunningError,
    UnknownEntrantError,
    UnknownTournamentError,
)
from boardroom.server.classroom.worth_a_look import worth_a_look_answer
from boardroom.server.core.path_ids import parse_id
from boardroom.server.http_api import error_response, json_response
from boardroom.server.lifecycle import HUB, STORE
from boardroom.server.tournaments.spec import SpecError, UnplayableGameError, spec_from_body

__all__ = ["DIRECTOR", "add_tournament_routes"]

logger = logging.getLogger(__name__)

DIRECTOR = web.AppKey("tournament_director", TournamentDirector)
"""The class's tournament director; absent when class mode is off."""

_STATUS = {
    UnknownTournamentError: (404, AdminError.UNKNOWN_TOURNAMENT),
    UnknownEntrantError: (404, AdminError.UNKNOWN_STUDENT),
    TournamentRunningError: (409, AdminError.TOURNAMENT_RUNNING),
    TournamentOverError: (409, AdminError.TOURNAMENT_OVER),
}


def add_tournament_routes(app: web.Application) -> None:
    """Route the tournaments' API on ``app`` and run the director in class mode."""
    app.cleanup_ctx.append(_director)
    app.router.add_post("/api/admin/tournaments", admin_only(_refusing(_create)))
    app.router.add_get("/api/admin/tournaments", admin_only(_refusing(_list)))
    app.router.add_post("/api/admin/tournaments/{id}/cancel", admin_only(_refusing(_cancel)))
    app.router.add_get("/api/admin/tournaments/{id}/worth-a-look", admin_only(_worth_a_look))
    app.router.add_get("/api/tournaments", _public(_list))
    app.router.add_get("/api/tournaments/current", _public(_current))
    # {id} may be empty, so /api/tournaments/ gets the JSON 404 too
    app.router.add_get("/api/tournaments/{id:[^{}/]*}", _public(_one))


async def _director(app: web.Application) -> AsyncIterator[None]:
    classroom = app.get(CLASSROOM)
    if classroom is None:
        yield
        return
    hub = app[HUB]
    director = TournamentDirector(
        hub=hub,
        store=app[STORE],
        roster=classroom.class_roster,
        outage_limit=hub.config.storage_outage_limit,
    )
    await director.start()
    app[DIRECTOR] = director
    try:
        yield
    finally:
        await director.stop()


Handler = Callable[[web.Request, TournamentDirector], Awaitable[web.StreamResponse]]


def _refusing(
    handler: Handler,
) -> Callable[[web.Request, Classroom], Awaitable[web.StreamResponse]]:
    """``handler`` for :func:`admin_only`: the director's refusals as typed errors."""

    async def refusing(request: web.Request, classroom: Classroom) -> web.StreamResponse:
        return await _answer(request, handler)

    return refusing


def _public(handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def public(request: web.Request) -> web.StreamResponse:
        if request.app.get(CLASSROOM) is None:
            return error_response(
                404,
                AdminError.CLASS_MODE_OFF,
                "this server is not running for a class: tournaments need --class NAME",
            )
        return await _answer(request, handler)

    return public


async def _answer(request: web.Request, handler: Handler) -> web.StreamResponse:
    director = request.app[DIRECTOR]
    try:
        return await handler(request, director)
    except DirectorError as refusal:
        status, code = _STATUS[type(refusal)]
        return error_response(status, code, str(refusal))


# -- handlers ------------------------------------------------------------------------------


async def _create(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
    raw = await request.read()
    try:
        spec = spec_from_body(raw)
    except msgspec.DecodeError as error:
        raise RefusedError(AdminError.MALFORMED_JSON, f"the body is not JSON: {error}") from None
    except UnplayableGameError as error:
        raise RefusedError(AdminError.UNKNOWN_GAME, str(error)) from None
    except SpecError as error:
        raise RefusedError(AdminError.INVALID_FIELD, str(error)) from None
    tournament = await director.create(spec)
    response = json_response({"tournament": tournament})
    response.set_status(201)
    return response


async def _list(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
    return json_response({"tournaments": await director.views()})


async def _cancel(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
    return json_response({"tournament": await director.cancel(_id(request))})


async def _worth_a_look(request: web.Request, classroom: Classroom) -> web.StreamResponse:
    async def answer(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
        tournament_id = _id(request)
        store = request.app[STORE]
        found = [t for t in await store.tournaments(classroom.name) if t.id == tournament_id]
        if not found:
            raise UnknownTournamentError(f"no tournament {tournament_id} in this class")
        students = classroom.class_roster.everyone()
        return json_response(await worth_a_look_answer(store, found[0], students))

    return await _answer(request, answer)


async def _current(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
    # No tournament yet is the usual state of a class, not a missing resource: a
    # 404 here would be logged as an error by the wall's browser every few seconds.
    try:
        current = await director.current()
    except UnknownTournamentError:
        return json_response({"tournament": None})
    return json_response({"tournament": current})


async def _one(request: web.Request, director: TournamentDirector) -> web.StreamResponse:
    return json_response({"tournament": await director.view(_id(request))})


def _id(request: web.Request) -> int:
    raw = request.match_info["id"]
    tournament_id = parse_id(raw)
    if tournament_id is None:
        shown = raw if len(raw) <= 24 else f"{raw[:20]}..."
        raise UnknownTournamentError(f"no tournament {shown!r}: ids are numbers")
    return tournament_id
