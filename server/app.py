"""The aiohttp application: the WebSocket endpoint and the HTTP API on one port.

Routes::

    GET /                 the browser client's page (server/web)
    GET /static/{name}    the browser client's scripts, style sheet and icon
    GET /ws               the game protocol (docs/protocol.md)
    GET /api/games        the games this server offers, as the registry describes them
    GET /api/i18n         the browser's catalogue in its reader's language (server/web)
    GET /api/rooms        public rooms as JSON, a page at a time (?game=connect4
                          to filter; ?offset=50&limit=50 for the next page)
    GET /api/games/{id}   a game's record as JSON, or as text with ?format=text
                          (or Accept: text/plain); a private room's game in
                          progress only with ?code= (boardroom.server.core.record_access)
    GET /healthz          liveness and a few figures, as JSON
    GET /metrics          Prometheus text format
    GET /api/leaderboard  the ratings per game type (?game=connect4 for one; server/ratings)
    GET /api/games/{id}/analysis  a finished game's moves judged (server/analysis)
    /api/admin/...        the teacher's controls in class mode (server/classroom)
    /api/tournaments...   a class's tournaments (server/tournaments)

:func:`create_app` builds the application; its start-up opens the database,
starts and warms the engine pool and restores the games in progress, and its
shutdown tells every client (close code 1001), stops the rooms, then closes the
pool and the database (every write has been waited for). Each of those resources
is one ``cleanup_ctx`` entry of :mod:`boardroom.server.lifecycle`, whose keys (the hub, the
store...) the routes here and the features read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import time

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from boardroom.server import stage_clock
from boardroom.server.admission import add_admission
from boardroom.server.analysis.routes import add_analysis_routes
from boardroom.server.classroom.admin_routes import add_admin_routes
from boardroom.server.classroom.admin_token import bearer_matches
from boardroom.server.classroom.class_mode import teacher_token
from boardroom.server.classroom.code_routes import add_code_routes
from boardroom.server.classroom.tournament_routes import add_tournament_routes
from boardroom.server.cluster.node import CLOSE_TRY_AGAIN, CLUSTER, Route
from boardroom.server.cluster.proxy import class_home_middleware
from boardroom.server.config import ServerConfig
from boardroom.server.connection import Connection
from boardroom.server.core.client_address import TrustedProxies
from boardroom.server.core.limits import DEFAULT_ABUSE_STRIKES, DEFAULT_ABUSE_WINDOW, RateLimiter
from boardroom.server.core.path_ids import MAX_ID, parse_id
from boardroom.server.core.record_access import may_read
from boardroom.server.core.records import record_to_json, record_to_text
from boardroom.server.event_loop import event_loop_name
from boardroom.server.http_api import (
    error_response,
    json_response,
    query_number,
    revalidated_json,
    unreadable_record_middleware,
)
from boardroom.server.http_limits import rate_limit_middleware
from boardroom.server.hub import Peer, resolve_game
from boardroom.server.lifecycle import CONFIG, HUB, LAG, METRICS, POOL, STORE, add_resources
from boardroom.server.ratings.routes import add_leaderboard_routes
from boardroom.server.store import GameNotFoundError
from boardroom.server.web.i18n_routes import add_i18n_routes
from boardroom.server.web.routes import add_web_routes
from boardroom.shared.games import default_game, game_specs
from boardroom.shared.protocol.close_codes import CLOSE_ABUSE
from boardroom.shared.protocol.codec import MAX_FRAME_BYTES, decode_client_message
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import ROOMS_PAGE_DEFAULT, ROOMS_PAGE_MAX

HARD_FRAME_BYTES = 16 * MAX_FRAME_BYTES
"""Frames above the protocol's cap and up to this size (1 MiB, this size included)
get ``frame_too_large`` and the connection goes on; above it, aiohttp closes the
connection (1009) without reading the rest, so nobody can make the server buffer
more than this."""
_AIOHTTP_MAX_MSG_SIZE = HARD_FRAME_BYTES + 1
"""aiohttp refuses a frame of ``max_msg_size`` bytes *or more*, so a hard cap that
is itself allowed (docs/protocol.md: "up to 1 MiB") is one byte less than it."""
SHUTDOWN_GRACE_SECONDS = 3.0
"""How long shutdown waits for clients' queues to drain before closing anyway."""

CONNECTIONS = web.AppKey("connections", set)
"""The open WebSocket connections, told to go away at shutdown."""


def create_app(config: ServerConfig) -> web.Application:
    """The application for ``config`` (start it with an aiohttp runner, and clean
    the runner up even if its ``setup()`` fails: see :mod:`boardroom.server.lifecycle`)."""
    app = web.Application()
    add_resources(app, config)  # the database, engine pool, hub... at start-up, in order
    metrics = app[METRICS]
    limit = rate_limit_middleware(
        config.http_rate, config.http_burst, on_refused=metrics.count_http_rate_limited
    )
    if limit is not None:
        app.middlewares.append(limit)  # server/http_limits.py: 429 over the API's rate
    app.middlewares.append(unreadable_record_middleware)  # 409, not 500, for a newer record
    if config.cluster:
        app.middlewares.append(class_home_middleware)  # a class's HTTP is its home's
    add_admission(
        app,
        limit=config.max_connections_per_address,
        handshake_seconds=config.handshake_seconds,
        metrics=metrics,
        trusted=TrustedProxies.parse(config.trusted_proxies),
    )
    app[CONNECTIONS] = set()
    app.on_shutdown.append(_close_connections)
    app.router.add_get("/ws", _websocket)
    app.router.add_get("/api/rooms", _rooms)
    app.router.add_get("/api/games", _games)  # exactly: /api/games/ is a record's 404
    # {id} may be empty, so /api/games/ gets the JSON 404 too
    app.router.add_get("/api/games/{id:[^{}/]*}", _game_record)
    app.router.add_get("/healthz", _healthz)
    app.router.add_get("/metrics", _metrics)
    add_web_routes(app)
    add_i18n_routes(app)
    add_admin_routes(app)
    add_code_routes(app)
    add_tournament_routes(app)  # after the admin routes: its director needs the classroom
    add_leaderboard_routes(app)
    add_analysis_routes(app)
    return app


async def _close_connections(app: web.Application) -> None:
    """Tell every client the server is going away, and let their queues drain."""
    connections: set[Connection] = app[CONNECTIONS]
    for connection in list(connections):
        connection.close(WSCloseCode.GOING_AWAY, "server shutting down")
    waits = [connection.wait_closed() for connection in list(connections)]
    if waits:
        try:
            await asyncio.wait_for(asyncio.gather(*waits), SHUTDOWN_GRACE_SECONDS)
        except TimeoutError:
            # A client that stopped reading (its own queue full) never answers the
            # close: the server goes all the same, cutting such connections off.
            for connection in list(connections):
                connection.drop()


# -- the WebSocket endpoint ---------------------------------------------------------------


async def _websocket(request: web.Request) -> web.StreamResponse:
    # Its address's cap is checked at the door (server/admission.py), on accept or,
    # behind a trusted proxy, as the request came; `remote` is the client's
    # address, the one the door counted (X-Forwarded-For from a trusted proxy).
    address = request.remote or "unknown"
    ws = web.WebSocketResponse(
        heartbeat=request.app[CONFIG].heartbeat_seconds,
        compress=False,  # messages are small; deflate costs ~0.3 MB a connection
        max_msg_size=_AIOHTTP_MAX_MSG_SIZE,
    )
    await ws.prepare(request)
    await _serve(request.app, ws, address, request.transport)
    return ws


async def _serve(
    app: web.Application,
    ws: web.WebSocketResponse,
    address: str,
    transport: asyncio.Transport | None,
) -> None:
    config, metrics, hub = app[CONFIG], app[METRICS], app[HUB]
    connection = Connection(ws, address, transport)
    peer = Peer(connection)
    node = app.get(CLUSTER)
    route = Route.HERE if node is None else node.route()
    if route is Route.NOWHERE:
        connection.close(CLOSE_TRY_AGAIN, "the class's server is restarting: try again")
        await connection.wait_closed()
        return
    # A cluster running a class: the class lives in its home; this process carries
    # the connection's frames there, whole (boardroom.server.cluster.node.Route).
    carried = node.carry(connection) if node is not None and route is Route.HOME else None
    limiter = RateLimiter(
        config.rate,
        config.burst,
        abuse_strikes=DEFAULT_ABUSE_STRIKES,
        abuse_window=DEFAULT_ABUSE_WINDOW,
    )
    app[CONNECTIONS].add(connection)
    metrics.connection_opened()
    try:
        async for frame in ws:
            if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break  # an error: aiohttp has closed the socket (e.g. 1009, too big)
            retry_after = limiter.check(time.monotonic())
            if retry_after is not None:
                metrics.count_rate_limited()
                hub.refuse(
                    peer,
                    ErrorCode.RATE_LIMITED,
                    f"too many messages: at most {config.rate:g} a second "
                    f"(bursts of {config.burst}); retry in {retry_after:.2f} s",
                    retry_after=round(retry_after, 3),
                )
                if limiter.abusive:
                    connection.close(CLOSE_ABUSE, "flooding: too many messages after warnings")
                    break
                continue
            if frame.type is WSMsgType.BINARY:
                hub.refuse(
                    peer, ErrorCode.BINARY_FRAME, "binary frames are not read: send JSON as text"
                )
                continue
            if carried is not None:
                assert node is not None
                node.carry_frame(carried, frame.data)  # read, checked and answered there
                continue
            started = stage_clock.mark()
            try:
                message = decode_client_message(frame.data)
            except ProtocolError as refusal:
                hub.refuse(peer, refusal.code, refusal.message, refusal.request_id)
                continue
            finally:
                stage_clock.add("decode", started)
            await hub.handle(peer, message)
    finally:
        app[CONNECTIONS].discard(connection)
        metrics.connection_closed()
        if carried is not None:
            assert node is not None
            node.hang_up(carried)
        else:
            await hub.disconnected(peer)
        connection.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(connection.wait_closed(), SHUTDOWN_GRACE_SECONDS)


# -- HTTP -----------------------------------------------------------------------------------


@functools.cache
def _game_list() -> tuple[bytes, str]:
    """The body of ``GET /api/games`` and its ETag: fixed for the process's life."""
    games = [spec.describe() for spec in game_specs()]
    body = msgspec.json.encode({"games": games, "default": default_game().name})
    return body, hashlib.sha256(body).hexdigest()[:32]


async def _games(request: web.Request) -> web.Response:
    """Every game the server offers, in menu order, and the one offered first:
    ``{"games": [GameSpec.describe()], "default": NAME}``.
    ``Cache-Control: no-cache`` with an ETag, as the pages' files: a browser asks
    again each time and gets ``304 Not Modified`` until the server's games change."""
    body, etag = _game_list()
    return revalidated_json(request, body, etag)


async def _rooms(request: web.Request) -> web.Response:
    game = request.query.get("game")
    if game is not None:
        try:
            game = resolve_game(game).name
        except ProtocolError as refusal:
            return error_response(400, refusal.code, refusal.message)
    try:
        offset = query_number(request, "offset", 0, 0, MAX_ID)
        limit = query_number(request, "limit", ROOMS_PAGE_DEFAULT, 1, ROOMS_PAGE_MAX)
    except ValueError as error:
        return error_response(400, ErrorCode.INVALID_FIELD, str(error))
    page = await request.app[HUB].lobby_page(game, offset=offset, limit=limit)
    return json_response({"rooms": page.rooms, "total": page.total})


async def _game_record(request: web.Request) -> web.Response:
    raw_id = request.match_info["id"]
    game_id = parse_id(raw_id)
    if game_id is None:
        shown = raw_id if len(raw_id) <= 24 else f"{raw_id[:20]}..."
        return error_response(
            404, "unknown_game_record", f"no game {shown!r}: ids are numbers, from 1 up"
        )
    # A private game in progress is answered as an unknown id, word for word:
    # stepping through ids must not tell anyone that it exists
    # (boardroom.server.core.record_access).
    unknown = error_response(
        404,
        "unknown_game_record",
        f"no game {game_id} (a private room's game in progress shows only with "
        "?code= its join or watch code)",
    )
    try:
        record = await request.app[STORE].get_game(game_id)
    except GameNotFoundError:
        return unknown
    token = teacher_token(request.app)
    teacher = token is not None and bearer_matches(request.headers.get("Authorization"), token)
    if not may_read(record, code=request.query.get("code"), teacher=teacher):
        return unknown
    wants_text = request.query.get("format") == "text" or (
        "format" not in request.query and "text/plain" in request.headers.get("Accept", "")
    )
    if wants_text:
        return web.Response(text=record_to_text(record), content_type="text/plain")
    return web.json_response(record_to_json(record))


async def _healthz(request: web.Request) -> web.Response:
    app = request.app
    hub, lag = app[HUB], app[LAG]
    body = {
        "status": "ok",
        "connections": len(app[CONNECTIONS]),
        "rooms": sum(hub.room_counts().values()),
        "sessions": hub.session_count(),
        "event_loop_lag_p99_ms": round(lag.percentile(99) * 1000, 2),
        "event_loop": event_loop_name(),
    }
    return web.json_response(body)


async def _metrics(request: web.Request) -> web.Response:
    app = request.app
    metrics, hub, pool = app[METRICS], app[HUB], app[POOL]
    metrics.set_rooms(hub.room_counts())
    games = await app[STORE].games_by_state()
    metrics.set_games({state.value: count for state, count in games.items()})
    engine = pool.metrics()
    metrics.set_engine(
        queue_depth=engine.queue_depth,
        busy_workers=engine.busy_workers,
        restarts=engine.restarts,
        waiting=engine.waiting,
    )
    body, content_type = metrics.render()
    response = web.Response(body=body)
    response.headers["Content-Type"] = content_type
    return response
