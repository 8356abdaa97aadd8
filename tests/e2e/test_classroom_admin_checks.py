"""Nobody but the teacher reaches the controls, and bad input changes nothing.

Every endpoint of ``/api/admin/`` is tried without the token, with a wrong one,
and on a server without ``--class``; then each kind of bad input. One class
server (and one without class mode) serves the whole module: a refused request
must leave it as it was, which each test checks.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from classroom_helpers import NO_TOKEN, Teacher
from harness import Player, RunningServer, running_server
from repo_paths import REPO_ROOT

from boardroom.server.classroom.class_mode import AdminError

pytestmark = pytest.mark.asyncio(loop_scope="module")

ENDPOINTS: list[tuple[str, str, Any]] = [
    ("GET", "/api/admin/class", None),
    ("GET", "/api/admin/roster", None),
    ("GET", "/api/admin/rooms", None),
    ("POST", "/api/admin/students/{student}/rename", {"name": "mallory"}),
    ("POST", "/api/admin/students/{student}/kind", {"kind": "bot"}),
    ("POST", "/api/admin/students/{student}/remove", None),
    ("POST", "/api/admin/students", {"names": ["mallory"]}),
    ("POST", "/api/admin/students/{student}/merge", {"into": "{student}"}),
    ("POST", "/api/admin/students/{student}/new-link", None),
    ("POST", "/api/admin/pause", None),
    ("POST", "/api/admin/resume", None),
    ("POST", "/api/admin/hints", {"allowed": True}),
    ("POST", "/api/admin/autopilot", {"level": "easy"}),
    ("POST", "/api/admin/rooms/{room}/close", None),
    ("POST", "/api/admin/broadcast", {"text": "the answers are 42"}),
    ("POST", "/api/admin/bots", {"name": "mallorybot"}),
    ("POST", "/api/admin/players/{player}/revoke", None),
    ("GET", "/api/admin/export/results.csv", None),
    ("GET", "/api/admin/export/games.zip", None),
    (
        "POST",
        "/api/admin/tournaments",
        {"name": "Cup", "game": "tictactoe", "format": "swiss", "entrants": ["ai:easy", "ai:hard"]},
    ),
    ("GET", "/api/admin/tournaments", None),
    ("POST", "/api/admin/tournaments/{tournament}/cancel", None),
    ("GET", "/api/admin/tournaments/{tournament}/worth-a-look", None),
]
ENDPOINT_IDS = [f"{method} {path}" for method, path, _ in ENDPOINTS]


@dataclass
class Class:
    """A class server with ann and bob playing in one room."""

    server: RunningServer
    teacher: Teacher
    ann: Player
    bob: Player
    ann_id: str
    room: str
    ann_player: str

    def path(self, template: str) -> str:
        return template.format(
            student=self.ann_id, room=self.room, tournament="1", player=self.ann_player
        )

    async def unchanged(self) -> None:
        """Both still on the roster under their names, as humans, connected, in
        their game, and nothing paused. (Asked over HTTP: the players' sockets
        would soon be rate limited; what they were sent is checked once, last.)"""
        summary = await self.teacher.get("/api/admin/class")
        assert summary == {
            "class": "7B",
            "paused": False,
            "hints": False,
            "autopilot": "off",
            "students": 2,
            "connected": 2,
            "rooms": 1,
            "games_in_progress": 1,
            "announcement": None,
            "join_base": self.server.http_url("/"),
            "join_reachable": False,  # the tests' server listens on 127.0.0.1 only
        }
        roster = await self.teacher.get("/api/admin/roster")
        shown = [(s["name"], s["kind"], s["connected"], s["rooms"]) for s in roster["students"]]
        assert shown == [("ann", "human", True, [self.room]), ("bob", "human", True, [self.room])]
        (room,) = (await self.teacher.get("/api/admin/rooms"))["rooms"]
        assert (room["code"], room["status"], room["paused"]) == (self.room, "playing", False)
        assert [player["name"] for player in room["players"]] == ["ann", "bob"]
        # No player made or revoked (POST /api/admin/bots, .../revoke).
        with closing(sqlite3.connect(self.server.config.database)) as db:
            players = db.execute("SELECT name, revoked_at FROM players ORDER BY name").fetchall()
        assert players == [("ann", None), ("bob", None)]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def klass(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Class]:
    database = tmp_path_factory.mktemp("class") / "games.db"
    # Hundreds of calls to one server in a few seconds: the HTTP rate limit
    # (tested in test_e2e_http_limits.py) would answer 429 here.
    async with running_server(database, class_name="7B", http_rate=0) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        room = created["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": room})
        teacher = Teacher(server)
        ann_player = ann.seen[0]["player_id"]  # its welcome
        yield Class(server, teacher, ann, bob, await teacher.student_id("ann"), room, ann_player)
        await ann.close()
        await bob.close()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def no_class(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[RunningServer]:
    database = tmp_path_factory.mktemp("plain") / "games.db"
    async with running_server(database, http_rate=0) as server:
        yield server


OPERATIONS_DOC = REPO_ROOT / "docs" / "operations.md"


def _canonical(path: str) -> str:
    """The route as aiohttp names it: each placeholder is {id} or {code}."""
    return (
        path.replace("{student}", "{id}")
        .replace("{room}", "{code}")
        .replace("{tournament}", "{id}")
        .replace("{player}", "{id}")
    )


async def test_the_operations_guide_names_every_route_and_error_code(klass: Class) -> None:
    """docs/operations.md ("Class mode") is the admin API's contract."""
    text = OPERATIONS_DOC.read_text()
    for _, path, _ in ENDPOINTS:
        shown = _canonical(path)
        assert shown.rsplit("/api/admin/", 1)[1] in text, path
    for code in AdminError:
        assert f"`{code.value}`" in text, code


async def test_the_list_covers_every_admin_route(klass: Class) -> None:
    """A new endpoint cannot slip past these tests: every route under
    /api/admin/ is in ENDPOINTS."""
    routes = {
        (route.method, route.resource.canonical)
        for route in klass.server.app.router.routes()
        if route.resource is not None
        and route.resource.canonical.startswith("/api/admin/")
        and route.method != "HEAD"
    }
    listed = {(method, _canonical(path)) for method, path, _ in ENDPOINTS}
    assert routes == listed


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
@pytest.mark.parametrize(
    "token",
    [NO_TOKEN, "not-the-token", ""],
    ids=["no token", "a wrong token", "an empty token"],
)
async def test_every_admin_action_is_refused_without_the_token(
    klass: Class, method: str, path: str, body: Any, token: object
) -> None:
    """401 with a typed JSON error and a WWW-Authenticate header; nothing changes."""
    status, answer, headers = await klass.teacher.call(method, klass.path(path), body, token=token)
    assert status == 401
    assert answer["error"] == "unauthorized" and "Bearer" in answer["message"]
    assert headers["WWW-Authenticate"].startswith("Bearer")
    await klass.unchanged()


NON_ASCII_AUTHORIZATION = {
    "bytes that are not UTF-8": lambda token: b"Bearer \xe9\xff",
    "UTF-8 beyond ASCII": lambda token: "Bearer ①".encode(),
    "the token then a Latin-1 byte": lambda token: b"Bearer " + token.encode() + b"\xe9",
    "a Latin-1 scheme": lambda token: b"B\xe9arer " + token.encode(),
}


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
@pytest.mark.parametrize("header", NON_ASCII_AUTHORIZATION.values(), ids=NON_ASCII_AUTHORIZATION)
async def test_a_non_ascii_authorization_header_is_refused_like_a_wrong_token(
    klass: Class,
    method: str,
    path: str,
    body: Any,
    header: Callable[[str], bytes],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Any bytes in the header are compared, never an exception: 401
    ``unauthorized``, no traceback in the server's log, nothing changes.
    (Sent byte for byte: aiohttp's client will not send bytes that are not UTF-8.)"""
    token = klass.teacher.token
    assert token is not None
    raw_body = b"" if body is None else json.dumps(body).encode()
    status, headers, answer = await klass.server.raw_http(
        method, klass.path(path), b"Authorization: " + header(token) + b"\r\n", raw_body
    )
    assert (status, answer["error"]) == (401, "unauthorized"), answer
    assert headers["WWW-Authenticate"].startswith("Bearer")
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    await klass.unchanged()


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
async def test_the_token_is_not_taken_from_the_query_or_another_scheme(
    klass: Class, method: str, path: str, body: Any
) -> None:
    """Only the Authorization header with the Bearer scheme counts: not ?token=,
    not Basic (the token must never sit in a URL, where logs keep it)."""
    token = klass.teacher.token
    in_query = f"{klass.path(path)}?token={token}"
    status, _, _ = await klass.teacher.call(method, in_query, body, token=NO_TOKEN)
    assert status == 401
    async with aiohttp.ClientSession() as session:
        response = await session.request(
            method,
            klass.server.http_url(klass.path(path)),
            headers={"Authorization": f"Basic {token}"},
        )
        assert response.status == 401
    await klass.unchanged()


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=ENDPOINT_IDS)
async def test_without_class_mode_every_admin_endpoint_is_404(
    no_class: RunningServer, method: str, path: str, body: Any
) -> None:
    """Without --class there are no controls: 404, whatever the token, and no
    token is ever made."""
    teacher = Teacher(no_class, token="anything")
    assert teacher.token == "anything"
    concrete = path.format(
        student="a1b2c3d4", room="ABCDEF", tournament="1", player="p0123456789abcdef"
    )
    for token in (NO_TOKEN, "anything"):
        status, answer, _ = await teacher.call(method, concrete, body, token=token)
        assert status == 404
        assert answer["error"] == "class_mode_off" and "--class" in answer["message"]
    with closing(sqlite3.connect(no_class.config.database)) as db:
        assert db.execute("SELECT count(*) FROM settings").fetchone() == (0,)


# -- bad input -----------------------------------------------------------------------------


BAD_INPUT: list[tuple[str, bytes, int, str, str]] = [
    ("/students/{student}/rename", b'{"name": ""}', 400, "bad_name", "empty"),
    ("/students/{student}/rename", b'{"name": "   "}', 400, "bad_name", "empty"),
    ("/students/{student}/rename", b'{"name": "' + b"x" * 33 + b'"}', 400, "bad_name", "32"),
    ("/students/{student}/rename", b'{"name": "a\\u0007b"}', 400, "bad_name", "control"),
    ("/students/{student}/rename", b'{"nom": "ann"}', 400, "invalid_field", "`name`"),
    ("/students/{student}/rename", b'{"name": 7}', 400, "invalid_field", "$.name"),
    ("/students/{student}/rename", b'{"name": "an', 400, "malformed_json", "not JSON"),
    ("/students/{student}/rename", b"", 400, "malformed_json", "not JSON"),
    ("/students/{student}/rename", b'["ann"]', 400, "invalid_field", "object"),
    ("/students/{student}/kind", b'{"kind": "robot"}', 400, "invalid_field", "human or bot"),
    ("/students/{student}/kind", b'{"kind": "ai"}', 400, "invalid_field", "human or bot"),
    ("/students/zzzzzzzz/rename", b'{"name": "eve"}', 404, "unknown_student", "zzzzzzzz"),
    ("/students/zzzzzzzz/kind", b'{"kind": "bot"}', 404, "unknown_student", "zzzzzzzz"),
    ("/students/zzzzzzzz/remove", b"", 404, "unknown_student", "zzzzzzzz"),
    ("/rooms/NOSUCH/close", b"", 404, "unknown_room", "NOSUCH"),
    ("/broadcast", b'{"text": ""}', 400, "invalid_field", "$.text"),
    ("/broadcast", b'{"text": "  \\n "}', 400, "invalid_field", "blank"),
    ("/broadcast", b'{"text": "' + b"y" * 501 + b'"}', 400, "invalid_field", "500"),
    ("/broadcast", b"{text: hi}", 400, "malformed_json", "not JSON"),
    ("/broadcast", b"", 400, "malformed_json", "not JSON"),
    ("/bots", b"{}", 400, "invalid_field", "`name`"),
    ("/bots", b'{"name": ""}', 400, "bad_name", "empty"),
    ("/bots", b'{"name": "' + b"x" * 33 + b'"}', 400, "bad_name", "32"),
    ("/bots", b'{"name": "a\\u0007b"}', 400, "bad_name", "control"),
    ("/bots", b'{"name": ["bot"]}', 400, "invalid_field", "$.name"),
    ("/bots", b"", 400, "malformed_json", "not JSON"),
    ("/players/p0123456789abcdef/revoke", b"", 404, "unknown_player", "p0123456789abcdef"),
    ("/students", b'{"names": []}', 400, "invalid_field", "1 to 200 names"),
    (
        "/students",
        b'{"names": [' + b",".join(b'"s%d"' % i for i in range(201)) + b"]}",
        400,
        "invalid_field",
        "1 to 200 names",
    ),
    ("/students", b'{"names": "ann"}', 400, "invalid_field", "$.names"),
    ("/students", b'{"name": ["zed"]}', 400, "invalid_field", "`names`"),
    ("/students", b'{"names": ["zed", "ANN"]}', 400, "bad_names", "line 2 ('ANN'): on the roster"),
    ("/students", b'{"names": ["zed", "ZED"]}', 400, "bad_names", "on line 1 already"),
    ("/students", b'{"names": ["", "  "]}', 400, "invalid_field", "blank"),
    ("/students", b'{"names": ["zed", "a\\u0007b"]}', 400, "bad_names", "control"),
    ("/students", b'{"names": ["zed", "' + b"x" * 33 + b'"]}', 400, "bad_names", "32"),
    ("/students", b"", 400, "malformed_json", "not JSON"),
    ("/students/{student}/merge", b"{}", 400, "invalid_field", "`into`"),
    ("/students/{student}/merge", b'{"into": "zzzzzzzz"}', 404, "unknown_student", "zzzzzzzz"),
    ("/students/zzzzzzzz/merge", b'{"into": "zzzzzzzy"}', 404, "unknown_student", "zzzzzzzz"),
    ("/students/zzzzzzzz/new-link", b"", 404, "unknown_student", "zzzzzzzz"),
]


@pytest.mark.parametrize(
    ("path", "raw", "status", "code", "words"),
    BAD_INPUT,
    ids=[f"{path} {raw[:20]!r} {code}" for path, raw, _, code, _ in BAD_INPUT],
)
async def test_bad_input_gets_a_typed_error_and_changes_nothing(
    klass: Class, path: str, raw: bytes, status: int, code: str, words: str
) -> None:
    answer_status, answer, _ = await klass.teacher.call(
        "POST", "/api/admin" + klass.path(path), raw=raw
    )
    assert (answer_status, answer["error"]) == (status, code), answer
    assert words in answer["message"]
    await klass.unchanged()


async def test_a_student_merged_into_itself_is_refused(klass: Class) -> None:
    status, answer, _ = await klass.teacher.call(
        "POST", f"/api/admin/students/{klass.ann_id}/merge", {"into": klass.ann_id}
    )
    assert (status, answer["error"]) == (400, "invalid_field")
    assert "itself" in answer["message"]
    await klass.unchanged()


async def test_no_refused_request_reached_a_player(klass: Class) -> None:
    """Last: after every refusal above, the players were sent nothing (no
    announcement, no state): a ping's answer is the first thing they get."""
    for player in (klass.ann, klass.bob):
        await player.request({"type": "ping"})
        kinds = [message["type"] for message in player.seen]
        assert kinds[-1] == "pong" and "announcement" not in kinds and "room_closed" not in kinds
        assert kinds.count("state") <= 2  # the room's start, nothing since
