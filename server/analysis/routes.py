"""``GET /api/games/{id}/analysis``: a finished game's moves judged by the engine.

200 when the analysis is complete, 202 while it runs (the first request starts
it; ask again to see it fill in), with the same body::

    {"game_id": 12, "game": "connect4", "title": "Connect Four", "moves": "4453...",
     "move_list": ["4", "4", "5", "3", ...], "autopilot": [], "board_kind": "columns",
     "boards": [[".......", ..., "......."], [".......", ..., "...X..."], ...],
     "players": {"first": "ann", "second": "AI (perfect)"},
     "result": {"winner": "first", "reason": "line", "line": ["d1", "d2", "d3", "d4"]},
     "complete": false, "total": 42, "estimated": false,
     "reviews": [{"ply": 0, "side": "first", "move": "4", "best": "4", "line": [],
                  "value_before": "win in 21", "value_after": "win in 21",
                  "score_before": ..., "score_after": ..., "chances_before": 1.0,
                  "chances_after": 1.0, "exact_before": true, "exact_after": true,
                  "judgement": "best", "seconds": 0.01, "hint": null}],
     "hints": {"first": 0, "second": 1},
     "accuracy": {"first": 97.5, "second": 80.1},
     "turning_points": [{"ply": 6, "side": "first", "text": "move 7 (X): ...",
                         "kind": "threw_away_win", "move": "e3", "best": "d3",
                         "lets_win_in_one": false}]}

Refusals, as JSON ``{"error", "message"}``: 404 ``unknown_game_record`` (as
``GET /api/games/{id}``, a private room's game in progress included, word for
word), 409 ``game_in_progress`` (no analysis while a game is played), 503
``engine_busy`` with ``retry_after`` (seconds, also as a ``Retry-After`` header:
too many
analyses running). ``boards`` holds the board before the first move and after
each (``len(move_list) + 1`` of them), each as ``state.room.board`` gives it (top
row first, ``X``, ``O``, ``.``): the page draws them, with no rules of its own.
``result.line`` is the winning line's cells as
``game_over`` names them (empty without a line). ``autopilot`` lists the plies
the server's engine played for a player whose grace window ran out (the room's
autopilot; empty if none). ``hint`` is the move the
engine gave the mover as a hint before that move (null if none), and ``hints``
counts them per player. ``estimated`` is true when a judged move rests on an
estimate (the engine cannot solve the board: gomoku, large boards), whose
judgements are the cautious ones; clients say so. A turning point's ``kind``,
``move``, ``best`` and ``lets_win_in_one`` say its ``text`` as data
(:class:`~boardroom.shared.engine.analysis.TurningPoint`). What is judged and how:
:mod:`boardroom.shared.engine.analysis`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from boardroom.server.analysis.service import (
    AnalysesBusyError,
    AnalysisView,
    GameAnalyses,
    GameInProgressError,
)
from boardroom.server.core.board_view import board_kind, board_rows
from boardroom.server.core.path_ids import parse_id
from boardroom.server.core.record_access import may_read
from boardroom.server.core.room_output import GameFinished
from boardroom.server.http_api import error_response, json_response
from boardroom.server.hub.boundary import HubEvent
from boardroom.server.lifecycle import CONFIG, HUB, POOL, STORE
from boardroom.server.store import GameNotFoundError
from boardroom.shared.engine.analysis import accuracy, estimated, turning_points, winning_chances
from boardroom.shared.games import Player, get_game

ANALYSES = web.AppKey("analyses", GameAnalyses)


def add_analysis_routes(app: web.Application) -> None:
    """Route ``GET /api/games/{id}/analysis`` on ``app`` (after its own start-up:
    the analyses use its store and engine pool)."""
    app.cleanup_ctx.append(_analyses)
    app.router.add_get("/api/games/{id}/analysis", _analysis)


async def _analyses(app: web.Application) -> AsyncIterator[None]:
    analyses = GameAnalyses(app[STORE], app[POOL])
    app[ANALYSES] = analyses
    hub = app[HUB]

    def hear(event: HubEvent) -> None:
        if isinstance(event, GameFinished):
            analyses.game_finished()

    if app[CONFIG].class_mode:
        # A class's games are analysed as they finish: the reviews and the
        # teacher's export (accuracy, blunders) are ready when asked for.
        analyses.keep_up(since=time.time())
        hub.subscribe(hear)
    try:
        yield
    finally:
        hub.unsubscribe(hear)
        await analyses.close()


async def _analysis(request: web.Request) -> web.Response:
    game_id = parse_id(request.match_info["id"])
    unknown = error_response(
        404, "unknown_game_record", f"no game {request.match_info['id'][:24]!r} to analyse"
    )
    if game_id is None:
        return unknown
    try:
        record = await request.app[STORE].get_game(game_id)
    except GameNotFoundError:
        return unknown
    if not may_read(record, code=request.query.get("code")):
        return unknown  # a private game in progress: as if there were none
    try:
        view = await request.app[ANALYSES].view(record)
    except GameInProgressError as refusal:
        return error_response(409, "game_in_progress", str(refusal))
    except AnalysesBusyError as busy:
        body = {"error": "engine_busy", "message": str(busy), "retry_after": busy.retry_after}
        headers = {"Retry-After": f"{busy.retry_after:g}"}
        return web.json_response(body, status=503, headers=headers)
    response = json_response(view_to_json(view))
    response.set_status(200 if view.complete else 202)
    return response


def view_to_json(view: AnalysisView) -> dict[str, Any]:
    """The body of the route (see the module docstring) for ``view``."""
    record, reviews = view.record, view.reviews
    game = get_game(record.game)
    by_symbol: dict[str, Player] = {player.symbol: player for player in Player}
    positions = [game.new()]
    for played in record.moves:
        before = positions[-1]
        positions.append(game.play_unchecked(before, game.parse_move(before, played.move)))
    final = positions[-1]
    # The winning line's cells, named as the wire names them (``result.line``):
    # the page rings them and writes the line in the game's notation.
    line = [game.cell_name(cell) for cell in game.outcome(final).line]
    return {
        "game_id": record.id,
        "game": record.game,
        "title": game.title,
        "moves": game.move_string(final),
        "move_list": [played.move for played in record.moves],
        # Additive (issue 31): the plies the server's engine played for an absent player.
        "autopilot": [played.ply for played in record.moves if played.autopilot],
        "board_kind": board_kind(game),
        "boards": [board_rows(game, position) for position in positions],
        "players": {
            side: seat.name if seat is not None else None
            for side, seat in zip(Player, record.seats, strict=True)
        },
        "result": {
            "winner": record.winner,
            "reason": record.termination.value if record.termination else None,
            "line": line,
        },
        "complete": view.complete,
        "total": len(record.moves),
        "estimated": estimated(reviews),
        "reviews": [
            {
                "ply": review.ply,
                "side": by_symbol[review.side],
                "move": review.move,
                "best": review.best,
                "line": list(review.line),
                "value_before": review.value_before,
                "value_after": review.value_after,
                "score_before": review.score_before,
                "score_after": review.score_after,
                "chances_before": round(
                    winning_chances(review.score_before, exact=review.exact_before), 4
                ),
                "chances_after": round(
                    winning_chances(review.score_after, exact=review.exact_after), 4
                ),
                "exact_before": review.exact_before,
                "exact_after": review.exact_after,
                "judgement": review.judgement.value,
                "seconds": review.seconds,
                "hint": view.hints.get(review.ply),
            }
            for review in reviews
        ],
        "hints": {side: sum(ply % 2 == side.number for ply in view.hints) for side in Player},
        "accuracy": {
            side: round(accuracy(reviews, symbol), 1) for symbol, side in by_symbol.items()
        },
        "turning_points": [
            {
                "ply": point.ply,
                "side": Player.to_move_at(point.ply),
                "text": point.text,
                "kind": point.kind,
                "move": point.move,
                "best": point.best,
                "lets_win_in_one": point.lets_win_in_one,
            }
            for point in turning_points(reviews)
        ],
    }
