"""``GET /api/leaderboard``: the ratings per game type, public, class mode or not.

``?game=connect4`` (any name ``create_room`` takes without sizes, such as
``mnk-5-5-4``, read in its canonical form) gives that game alone, with no rows if
none of its games is rated yet; without it, every game type with rated games::

    {"games": [{"game": "connect4", "title": "Connect Four",
                "rows": [{"rank": 1, "player": "Ada", "rating": 1668, "deviation": 184,
                          "provisional": true, "games": 3, "wins": 2, "draws": 1,
                          "losses": 0, "player_id": "p3f2a9c01d4e5b6a7"}],
                "played": 2}]}

``played`` is how many rated games of that type there are (the page opens on
the game played most).

An unknown game is a 400, ``{"error": "unknown_game", "message": ...}``, as for
``/api/rooms``. What is rated and who a player is: :mod:`boardroom.server.ratings.service`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web

from boardroom.server.http_api import error_response, json_response
from boardroom.server.hub import resolve_game
from boardroom.server.lifecycle import CONFIG, STORE
from boardroom.server.ratings.service import Leaderboards
from boardroom.shared.protocol.errors import ProtocolError

LEADERBOARDS = web.AppKey("leaderboards", Leaderboards)


def add_leaderboard_routes(app: web.Application) -> None:
    """Route ``GET /api/leaderboard`` on ``app``. Call after the app's own start-up
    is added (the leaderboards read its store)."""
    app.cleanup_ctx.append(_leaderboards)
    app.router.add_get("/api/leaderboard", _leaderboard)


async def _leaderboards(app: web.Application) -> AsyncIterator[None]:
    config = app[CONFIG]
    app[LEADERBOARDS] = Leaderboards(
        app[STORE],
        config.class_name if config.class_mode else None,
        rate_autopilot=config.rate_autopilot,
    )
    yield


async def _leaderboard(request: web.Request) -> web.Response:
    game = request.query.get("game")
    if game is not None:
        try:
            game = resolve_game(game).name
        except ProtocolError as refusal:
            return error_response(400, refusal.code, refusal.message)
    return json_response({"games": await request.app[LEADERBOARDS].boards(game)})
