"""The tournaments' HTTP API: bad bodies refused naming the field, the public
reads, one tournament at a time, cancel, and what the students are sent.

Real servers (class mode and not) and real WebSocket clients.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server, wait_until
from tournament_helpers import WAIT, tournament

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Class:
    server: RunningServer
    teacher: Teacher
    ann: str
    bob: str
    ann_player: Player

    def body(self, **fields: Any) -> dict[str, Any]:
        body = {
            "name": "Cup",
            "game": "tictactoe",
            "format": "swiss",
            "entrants": [self.ann, self.bob, "ai:easy"],
        }
        return {**body, **fields}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def klass(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Class]:
    database = tmp_path_factory.mktemp("class") / "games.db"
    async with running_server(database, class_name="7B") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        teacher = Teacher(server)
        ids = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        yield Class(server, teacher, *ids, ann_player=ann)
        await ann.close()
        await bob.close()


BAD_BODIES: list[tuple[dict[str, Any] | bytes, int, str, str]] = [
    ({"name": None}, 400, "invalid_field", "$.name"),
    ({"name": "   "}, 400, "invalid_field", "name: give 1 to 60"),
    ({"name": "x" * 61}, 400, "invalid_field", "name: give 1 to 60"),
    ({"game": "chess"}, 400, "unknown_game", "chess"),
    ({"game": "mnk"}, 400, "unknown_game", "game:"),
    ({"format": "league"}, 400, "invalid_field", "$.format"),
    ({"entrants": "ai:easy"}, 400, "invalid_field", "$.entrants"),
    ({"entrants": ["ai:easy"]}, 400, "invalid_field", "entrants: give 2 to 64"),
    ({"entrants": [f"ai:{i}" for i in range(65)]}, 400, "invalid_field", "entrants: give 2 to 64"),
    ({"entrants": ["ai:easy", "robot:1"]}, 400, "invalid_field", "'robot:1' is not an entrant"),
    ({"entrants": ["ai:easy", "ai:genius"]}, 400, "invalid_field", "'ai:genius'"),
    ({"entrants": ["ai:easy", "ai:easy"]}, 400, "invalid_field", "listed twice: ai:easy"),
    ({"entrants": ["ai:easy", "student:zzzz9999"]}, 404, "unknown_student", "zzzz9999"),
    ({"format": "round_robin", "rounds": 2}, 400, "invalid_field", "rounds:"),
    ({"rounds": 0}, 400, "invalid_field", "rounds: a swiss of 3 entrants has 1 to 3"),
    ({"rounds": 4}, 400, "invalid_field", "rounds: a swiss of 3 entrants has 1 to 3"),
    ({"rounds": "2"}, 400, "invalid_field", "$.rounds"),
    ({"double": True}, 400, "invalid_field", "double:"),
    ({"clock": {"kind": "per_move"}}, 400, "invalid_field", "clock:"),
    ({"clock": {"kind": "hourglass"}}, 400, "invalid_field", "$.clock.kind"),
    ({"no_show_seconds": 5}, 400, "invalid_field", "no_show_seconds: give 10 to 600"),
    ({"no_show_seconds": 601}, 400, "invalid_field", "no_show_seconds: give 10 to 600"),
    ({"no_show_seconds": "60"}, 400, "invalid_field", "$.no_show_seconds"),
    ({"spectator_delay": -1}, 400, "invalid_field", "spectator_delay: give 0 to 20 plies"),
    ({"spectator_delay": 21}, 400, "invalid_field", "spectator_delay: give 0 to 20 plies"),
    ({"spectator_delay": 1.5}, 400, "invalid_field", "$.spectator_delay"),
    ({"spectator_delay_seconds": -1}, 400, "invalid_field", "give 0 to 300 seconds"),
    ({"spectator_delay_seconds": 301}, 400, "invalid_field", "give 0 to 300 seconds"),
    ({"spectator_delay_seconds": "5"}, 400, "invalid_field", "$.spectator_delay_seconds"),
    ({"spectator_delay": 2, "spectator_delay_seconds": 5}, 400, "invalid_field", "not both"),
    ({"autopilot": "brutal"}, 400, "invalid_field", "autopilot: choose class, off, random"),
    (b'{"name": "Cup", ', 400, "malformed_json", "not JSON"),
    (b"", 400, "malformed_json", "not JSON"),
    (b'["Cup"]', 400, "invalid_field", "object"),
]


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    BAD_BODIES,
    ids=[f"{str(body)[:40]} {code}" for body, _, code, _ in BAD_BODIES],
)
async def test_a_bad_body_is_refused_naming_the_field_and_creates_nothing(
    klass: Class, body: dict[str, Any] | bytes, status: int, code: str, words: str
) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(klass.body(**body)).encode()
    answer_status, answer, _ = await klass.teacher.call("POST", "/api/admin/tournaments", raw=raw)
    assert (answer_status, answer["error"]) == (status, code), answer
    assert words in answer["message"]
    assert await klass.teacher.get("/api/admin/tournaments") == {"tournaments": []}


async def test_unknown_tournaments_are_404_and_nothing_is_current(klass: Class) -> None:
    """Ids are ASCII digits: '²' or '①' (which str.isdigit passes), or none, are
    unknown, no 500 nor plain text.
    With no tournament yet, the current one is null (200: the wall asks every few
    seconds, and a browser logs each 404 as an error)."""
    for method, path in [
        ("GET", "/api/tournaments/99"),
        ("GET", "/api/tournaments/"),  # an empty id: a JSON 404 like the others (issue 28)
        ("GET", "/api/tournaments/abc"),
        ("GET", "/api/tournaments/%C2%B2"),
        ("GET", f"/api/tournaments/{2**63}"),
        ("POST", "/api/admin/tournaments/%E2%91%A0/cancel"),
        ("POST", "/api/admin/tournaments/99/cancel"),
    ]:
        status, answer, _ = await klass.teacher.call(method, path)
        assert (status, answer["error"]) == (404, "unknown_tournament"), (path, answer)
    assert await klass.server.get_json("/api/tournaments") == {"tournaments": []}
    assert await klass.server.get_json("/api/tournaments/current") == {"tournament": None}


async def test_an_ai_only_round_robin_plays_itself_and_cannot_be_cancelled(klass: Class) -> None:
    """Two AI entrants: the server seats both in the room it opens, and the
    games play out with nobody connected. A finished tournament is current
    (nothing runs), and cancelling it is refused."""
    body = {"name": "AIs", "game": "tictactoe", "format": "round_robin", "double": True}
    status, answer, _ = await klass.teacher.call(
        "POST", "/api/admin/tournaments", {**body, "entrants": ["ai:random", "ai:easy"]}
    )
    assert status == 201, answer
    created = answer["tournament"]
    assert (created["rounds"], created["players"][0]) == (
        2,
        {"id": "ai:random", "name": "AI (random)", "kind": "ai"},
    )
    base = klass.server.http_url("")
    shown = await wait_until(
        lambda: tournament(base, created["id"]), lambda t: t["status"] == "finished", timeout=WAIT
    )
    seats = [(g["first"], g["second"]) for r in shown["rounds_played"] for g in r["games"]]
    assert seats == [("ai:random", "ai:easy"), ("ai:easy", "ai:random")]
    assert await klass.server.get_json("/api/tournaments/current") == {"tournament": shown}
    status, answer, _ = await klass.teacher.call(
        "POST", f"/api/admin/tournaments/{created['id']}/cancel"
    )
    assert (status, answer["error"]) == (409, "tournament_over")


async def test_one_at_a_time_and_cancel_closes_the_rooms(klass: Class) -> None:
    """A second tournament is refused while one runs, and nothing changes;
    cancelling closes the room ann sits in (she is told), and lists the
    tournament as cancelled, newest first."""
    server = klass.server
    status, answer, _ = await klass.teacher.call(
        "POST", "/api/admin/tournaments", klass.body(entrants=[klass.ann, klass.bob])
    )
    assert status == 201, answer
    created = answer["tournament"]
    match = await klass.ann_player.expect("match")
    await klass.ann_player.request({"type": "join", "code": match["code"]})
    shown = await tournament(server.http_url(""), created["id"])
    (game,) = shown["rounds_played"][0]["games"]
    assert shown["round"] == 1 and game["room"] == match["room"] and game["result"] is None

    status, again, _ = await klass.teacher.call("POST", "/api/admin/tournaments", klass.body())
    assert (status, again["error"]) == (409, "tournament_running")
    assert "one at a time" in again["message"]
    assert await tournament(server.http_url(""), created["id"]) == shown

    status, cancelled, _ = await klass.teacher.call(
        "POST", f"/api/admin/tournaments/{created['id']}/cancel"
    )
    assert status == 200 and cancelled["tournament"]["status"] == "cancelled"
    closed = await klass.ann_player.expect("room_closed", room=match["room"])
    assert closed["reason"] == "the teacher cancelled the tournament Cup"
    assert (closed["kind"], closed["names"]) == ("tournament_cancelled", {"tournament": "Cup"})
    said = await klass.ann_player.expect(  # everyone connected is told (ann, among others)
        "announcement",
        text="The tournament Cup was cancelled by the teacher.",
        source="server",
        tournament=created["id"],
    )
    assert (said["kind"], said["tournament_name"]) == ("tournament_cancelled", "Cup")
    status, again, _ = await klass.teacher.call(
        "POST", f"/api/admin/tournaments/{created['id']}/cancel"
    )
    assert (status, again) == (200, cancelled)  # cancelled already: answered as it is
    rooms = (await klass.teacher.get("/api/admin/rooms"))["rooms"]
    assert game["room"] not in [room["code"] for room in rooms]
    listed = await server.get_json("/api/tournaments")
    assert [t["status"] for t in listed["tournaments"]][:2] == ["cancelled", "finished"]


async def test_match_reaches_each_student_and_comes_again_after_a_welcome(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "m.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        eve = await Player.join_server(server.ws_url, "eve")
        entrants = [f"student:{await teacher.student_id(n)}" for n in ("ann", "bob")]
        before = time.time()
        status, answer, _ = await teacher.call(
            "POST",
            "/api/admin/tournaments",
            {"name": "Cup", "game": "connect4", "format": "swiss", "entrants": entrants},
        )
        assert status == 201, answer
        to_ann = await ann.expect("match")
        to_bob = await bob.expect("match")
        assert to_ann["room"] == to_bob["room"] and to_ann["code"] == to_bob["code"]
        assert {to_ann["side"], to_bob["side"]} == {"first", "second"}
        assert (to_ann["opponent"], to_bob["opponent"]) == ("bob", "ann")
        assert to_ann["tournament"] == answer["tournament"]["id"]
        assert (to_ann["tournament_name"], to_ann["round"], to_ann["board"]) == ("Cup", 1, 1)
        assert to_ann["game"] == "connect4"
        assert before + 60 <= to_ann["starts_by"] <= time.time() + 60

        refused = await eve.request({"type": "join", "code": to_ann["code"]})
        assert refused["code"] == "room_full" and "reserved" in refused["message"]

        game = await only_game(server, to_ann["tournament"])
        assert game["starts_by"] == to_ann["starts_by"]
        assert game["seated"] == {"first": False, "second": False}

        joined = await ann.request({"type": "join", "code": to_ann["code"]})
        assert joined["room"]["you"] == to_ann["side"] and joined["room"]["tournament"] is True
        game = await only_game(server, to_ann["tournament"])
        assert game["starts_by"] == to_ann["starts_by"]
        assert game["seated"] == {to_ann["side"]: True, to_bob["side"]: False}
        await ann.close()
        ann = await Player.join_server(server.ws_url, "ann", token=ann.token)
        assert await ann.expect("match") == to_ann  # the game has not started

        await bob.request({"type": "join", "code": to_bob["code"]})
        game = await only_game(server, to_ann["tournament"])
        assert (game["starts_by"], game["seated"]) == (None, None)  # it has started
        await bob.close()
        bob = await Player.join_server(server.ws_url, "bob", token=bob.token)
        await bob.expect("state")  # the game in progress, resumed
        await bob.request({"type": "ping"})
        assert "match" not in [m["type"] for m in bob.seen]  # it has started: no match
        for player in (ann, bob, eve):
            await player.close()


async def only_game(server: RunningServer, tournament_id: int) -> dict[str, Any]:
    """The one game of round 1, as the public API shows it."""
    (game,) = (await tournament(server.http_url(""), tournament_id))["rounds_played"][0]["games"]
    return dict(game)


async def test_the_public_reads_are_off_without_class_mode(tmp_path: Path) -> None:
    async with running_server(tmp_path / "plain.db") as server:
        for path in ("/api/tournaments", "/api/tournaments/current", "/api/tournaments/1"):
            status, _, body = await server.get(path)
            answer = json.loads(body)
            assert (status, answer["error"]) == (404, "class_mode_off"), path
            assert "--class" in answer["message"]
