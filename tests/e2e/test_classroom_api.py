"""The teacher's controls end to end: a class server, real players, the admin API.

Each test starts a server with ``--class`` (:func:`harness.running_server`), has
students say hello and play over real sockets, and drives the controls as the
teacher's page would, with the token from the server.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from classroom_helpers import Teacher
from harness import TIMEOUT, Player, RunningServer, running_server, wait_until

from boardroom.server.classroom.class_mode import CLASSROOM
from boardroom.server.classroom.teacher import ANNOUNCEMENT_SHOWN_SECONDS, ENDED_SHOWN_SECONDS
from boardroom.server.lifecycle import HUB

CELLS = tuple(f"{column}{row}" for row in "123" for column in "abc")
GAME = ("a1", "a3", "b2", "b3", "c3")
"""Ann (X) takes the diagonal a1-b2-c3 while Bob builds the top row."""


async def game_between(
    server: RunningServer, first: str = "ann", second: str = "bob", **options: Any
) -> tuple[Player, Player, str]:
    """``first`` opens a tic-tac-toe room, ``second`` joins it: the game is on."""
    ann = await Player.join_server(server.ws_url, first)
    created = await ann.request({"type": "create_room", "game": "tictactoe", **options})
    code = created["room"]["code"]
    bob = await Player.join_server(server.ws_url, second)
    joined = await bob.request({"type": "join", "code": created["room"].get("join_code", code)})
    assert joined["room"]["status"] == "playing"
    await ann.expect("state", timeout=TIMEOUT)
    return ann, bob, code


async def play(mover: Player, other: Player, code: str, cell: str) -> dict[str, Any]:
    reply = await mover.request({"type": "move", "room": code, "move": cell})
    assert reply["type"] == "moved", reply
    await other.expect("moved", ply=reply["ply"])
    return reply


async def nothing_of(player: Player, kind: str, seconds: float) -> None:
    """``player`` gets no ``kind`` message within ``seconds``."""
    with pytest.raises(TimeoutError):
        await player.expect(kind, timeout=seconds)


async def play_to_the_end(player: Player, code: str, side: str) -> dict[str, Any]:
    """Play the first free cell at each of ``player``'s turns until game_over."""
    moves: list[str] = []
    while True:
        message = await player.recv()
        if message["type"] == "game_over" and message["room"] == code:
            return message
        if message["type"] == "state" and message["room"]["code"] == code:
            moves = message["room"]["moves"].split()
        elif message["type"] == "moved" and message["room"] == code:
            moves.append(message["move"])
        else:
            continue
        free = [cell for cell in CELLS if cell not in moves]
        to_move = "first" if len(moves) % 2 == 0 else "second"
        if to_move == side and free:  # (a move that ends the game is refused: harmless)
            await player.send({"type": "move", "room": code, "move": free[0], "ply": len(moves)})


# -- the roster ------------------------------------------------------------------------


async def test_students_appear_on_the_roster_as_they_join(tmp_path: Path) -> None:
    """A person and a bot say hello: both are on the roster with their kind,
    connected; a seat shows in rooms; a drop shows as not connected."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        empty = {"class": "7B", "students": [], "total": 0, "offset": 0, "limit": 200}
        assert (await teacher.get("/api/admin/roster")) == empty
        ann = await Player.join_server(server.ws_url, "ann")
        robo = await Player.join_server(server.ws_url, "robo", client="bot")
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [(s["name"], s["kind"], s["connected"], s["rooms"]) for s in roster] == [
            ("ann", "human", True, []),
            ("robo", "bot", True, []),
        ]
        assert all(len(s["id"]) == 8 and s["id"] not in (ann.token, robo.token) for s in roster)
        assert roster[0]["first_seen"].endswith("Z")
        assert (roster[0]["played"], roster[0]["won"], roster[0]["drawn"]) == (0, 0, 0)

        created = await ann.request({"type": "create_room", "game": "connect4"})
        await robo.close()
        body = await wait_until(  # the drop reaches the server a moment later
            lambda: teacher.get("/api/admin/roster"),
            lambda body: not body["students"][1]["connected"],
        )
        roster = body["students"]
        assert roster[0]["rooms"] == [created["room"]["code"]]
        assert roster[1]["connected"] is False
        summary = await teacher.get("/api/admin/class")
        assert (summary["students"], summary["connected"], summary["rooms"]) == (2, 1, 1)


async def test_a_rename_reaches_the_opponent_in_the_next_state(tmp_path: Path) -> None:
    """The teacher renames bob: both players (and the room list) see the new
    name at once; his chat and his next rooms carry it; the roster too."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        bob_id = await teacher.student_id("bob")
        renamed = await teacher.post(f"/api/admin/students/{bob_id}/rename", {"name": " Robert "})
        assert renamed["student"]["name"] == "Robert"
        for player in (ann, bob):
            state = await player.expect("state")
            assert [seat["name"] for seat in state["room"]["seats"]] == ["ann", "Robert"]
        await bob.request({"type": "chat", "room": code, "text": "hi"})
        assert (await ann.expect("chat"))["name"] == "Robert"
        assert (await server.get_json("/api/rooms"))["rooms"][0]["players"] == ["ann", "Robert"]
        assert await teacher.student_id("Robert") == bob_id


async def test_the_kind_toggles_between_human_and_bot(tmp_path: Path) -> None:
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await Player.join_server(server.ws_url, "ann")
        ann_id = await teacher.student_id("ann")
        for kind in ("bot", "human", "bot"):
            answer = await teacher.post(f"/api/admin/students/{ann_id}/kind", {"kind": kind})
            assert answer["student"]["kind"] == kind
            (student,) = (await teacher.get("/api/admin/roster"))["students"]
            assert student["kind"] == kind


async def test_a_removed_student_is_closed_with_4003_and_loses_the_game(tmp_path: Path) -> None:
    """Removing bob mid-game: his connection closes with 4003, ann wins by
    resignation and sees his seat empty, his token opens nothing, and he is
    off the roster; a fresh hello makes him a new student."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        await play(ann, bob, code, "b2")
        bob_id = await teacher.student_id("bob")
        assert await teacher.post(f"/api/admin/students/{bob_id}/remove") == {"removed": bob_id}

        await asyncio.wait_for(bob.ws.wait_closed(), TIMEOUT)
        assert (bob.ws.close_code, bob.ws.close_reason) == (4003, "removed by the teacher")
        over = await ann.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "resignation"}
        state = await ann.expect("state")
        assert state["room"]["seats"][1] == {"side": "second"}

        again = await Player.connect(server.ws_url)
        hello = {"type": "hello", "name": "bob", "version": 1, "resume_token": bob.token}
        refused = await again.request(hello)
        assert refused["type"] == "error" and refused["code"] == "bad_token"
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [(s["name"], s["played"], s["won"]) for s in roster] == [("ann", 1, 1)]
        status, answer, _ = await teacher.call(
            "POST", f"/api/admin/students/{bob_id}/rename", {"name": "bobby"}
        )
        assert (status, answer["error"]) == (404, "unknown_student")

        welcome = await again.request({"type": "hello", "name": "bob", "version": 1})
        assert welcome["type"] == "welcome"
        new_id = await teacher.student_id("bob")
        assert new_id != bob_id


# -- pause, resume, close, broadcast ---------------------------------------------------------


async def test_a_pause_stops_the_clocks_and_refuses_moves_until_the_resume(
    tmp_path: Path,
) -> None:
    """Paused, bob's clock does not run down and his move is refused as
    ``paused``; resumed, it runs from where it stopped and the game goes on to
    its end."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        clock = {"kind": "increment", "initial": 60, "increment": 1}
        ann, bob, code = await game_between(server, clock=clock)
        await play(ann, bob, code, "b2")
        assert await teacher.post("/api/admin/pause") == {"paused": True, "rooms": 1}
        paused = [await player.expect("state") for player in (ann, bob)]
        for state in paused:
            assert state["room"]["paused"] is True
            assert state["room"]["clocks"]["running"] is None
        left = paused[1]["room"]["clocks"]["second_ms"]

        await asyncio.sleep(0.3)  # the subject: time passes, and the paused clock keeps it
        refused = await bob.request({"type": "move", "room": code, "move": "a1"})
        assert refused["code"] == "paused" and "the teacher paused" in refused["message"]
        now = await bob.request({"type": "get_state", "room": code})
        assert now["room"]["clocks"]["second_ms"] == left and now["room"]["moves"] == "b2"
        assert (await teacher.get("/api/admin/class"))["paused"] is True

        assert await teacher.post("/api/admin/resume") == {"paused": False, "rooms": 1}
        resumed = await bob.expect("state")
        assert "paused" not in resumed["room"]
        assert resumed["room"]["clocks"]["running"] == "second"
        assert resumed["room"]["clocks"]["second_ms"] == left
        await play(bob, ann, code, "a1")
        await play(ann, bob, code, "a3")
        await play(bob, ann, code, "c3")
        await ann.request({"type": "move", "room": code, "move": "c1"})
        over = await bob.expect("game_over")
        assert over["result"]["winner"] == "first" and over["result"]["reason"] == "line"


async def test_a_game_against_the_ai_opened_in_a_pause_waits_for_the_resume(
    tmp_path: Path,
) -> None:
    """Rooms opened while paused open paused: the AI, to move first, does not
    move until the teacher resumes; then the game is played to its end."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann = await Player.join_server(server.ws_url, "ann")
        await teacher.post("/api/admin/pause")
        create = {
            "type": "create_room",
            "game": "tictactoe",
            "ai_level": "random",
            "seat": "second",
        }
        await ann.request(create)
        started = await ann.expect("state", timeout=TIMEOUT)
        assert started["room"]["status"] == "playing" and started["room"]["paused"] is True
        code = started["room"]["code"]
        await nothing_of(ann, "moved", 0.4)

        await teacher.post("/api/admin/resume")
        over = await play_to_the_end(ann, code, "second")
        assert over["result"]["reason"] in ("line", "full_board")
        assert len(over["moves"].split()) >= 5


async def test_a_closed_room_tells_its_members_and_leaves_the_lobby(tmp_path: Path) -> None:
    """Closing a room mid-game: players and spectator get game_over (aborted,
    no winner) then room_closed; the room is gone from /api/rooms and from
    the admin list; its record ends as aborted."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        cat = await Player.join_server(server.ws_url, "cat")
        await cat.request({"type": "watch", "code": code})
        await play(ann, bob, code, "b2")
        assert await teacher.post(f"/api/admin/rooms/{code.lower()}/close") == {"closed": code}

        for player in (ann, bob, cat):
            over = await player.expect("game_over")
            assert over["result"] == {"winner": None, "reason": "aborted"}
            closed = await player.expect("room_closed")
            assert closed == {
                "type": "room_closed",
                "room": code,
                "reason": "closed by the teacher",
                "kind": "teacher",
            }
            kinds = [message["type"] for message in player.seen]
            assert kinds.index("game_over") < kinds.index("room_closed")
        assert (await server.get_json("/api/rooms"))["rooms"] == []
        assert await teacher.get("/api/admin/rooms") == {"rooms": [], "ended": []}
        gone = await ann.request({"type": "get_state", "room": code})
        assert gone["code"] == "unknown_room"
        record = await server.get_json("/api/games/1")
        assert (record["termination"], record["result"], record["move_string"]) == (
            "aborted",
            "*",
            "b2",
        )


async def test_a_game_whose_players_left_is_ended_while_a_dropped_spectator_may_return(
    tmp_path: Path,
) -> None:
    """Cat watches Ann beat Bob and her connection drops; the players leave. The
    hub keeps the room for Cat's grace window (she would find the game over on
    her return), but its game ended and its players are gone: ``rooms`` no
    longer lists it, ``ended`` does. A room whose players are still seated, or
    that someone watches (Dan, while he does), stays under ``rooms``."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        cat = await Player.join_server(server.ws_url, "cat")
        await cat.request({"type": "watch", "code": code})
        for mover, other, cell in zip((ann, bob) * 3, (bob, ann) * 3, GAME, strict=False):
            await play(mover, other, code, cell)
        for player in (ann, bob, cat):
            await player.expect("game_over")
        listed = await teacher.get("/api/admin/rooms")  # over, but Ann and Bob still sit there
        assert [room["code"] for room in listed["rooms"]] == [code] and listed["ended"] == []

        await cat.close()  # a drop, not a leave: the room is kept for her
        await wait_until(lambda: server.app[HUB].room_info(code).spectators == 0)
        for player in (ann, bob):
            assert (await player.request({"type": "leave", "room": code}))["type"] == "left"
        assert server.app[HUB].has_room(code)  # held for Cat's grace window
        listed = await teacher.get("/api/admin/rooms")
        assert listed["rooms"] == []
        (ended,) = listed["ended"]
        assert (ended["code"], ended["status"], ended["moves"]) == (
            code,
            "finished",
            "a1 a3 b2 b3 c3",
        )
        assert ended["game_players"] == {"first": "ann", "second": "bob"}
        assert [seat["name"] for seat in ended["players"]] == [None, None]

        dan = await Player.join_server(server.ws_url, "dan")  # someone watching it now
        await dan.request({"type": "watch", "code": code})
        listed = await teacher.get("/api/admin/rooms")
        assert [room["code"] for room in listed["rooms"]] == [code] and listed["ended"] == []
        await dan.request({"type": "leave", "room": code})
        listed = await teacher.get("/api/admin/rooms")
        assert listed["rooms"] == [] and [room["code"] for room in listed["ended"]] == [code]


async def test_a_game_everyone_left_stays_listed_as_ended_for_30_s(tmp_path: Path) -> None:
    """Ann wins and both players leave at once, as bots do: the room is gone
    from the lobby and from ``rooms``, but ``ended`` shows it as it ended, with
    the game's players named (their seats are empty), until 30 s after."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        before = await teacher.get("/api/admin/rooms")
        assert before["ended"] == []
        assert before["rooms"][0]["game_players"] == {"first": "ann", "second": "bob"}
        for mover, other, cell in zip((ann, bob) * 3, (bob, ann) * 3, GAME, strict=False):
            await play(mover, other, code, cell)
        for player in (ann, bob):
            await player.expect("game_over")
            assert (await player.request({"type": "leave", "room": code}))["type"] == "left"

        listed = await teacher.get("/api/admin/rooms")
        assert listed["rooms"] == [] and (await server.get_json("/api/rooms"))["rooms"] == []
        (ended,) = listed["ended"]
        assert (ended["code"], ended["status"], ended["moves"]) == (
            code,
            "finished",
            "a1 a3 b2 b3 c3",
        )
        assert ended["result"] == {"winner": "first", "reason": "line", "line": ["a1", "b2", "c3"]}
        assert ended["game_players"] == {"first": "ann", "second": "bob"}
        assert [seat["name"] for seat in ended["players"]] == [None, None]

        classroom = server.app[CLASSROOM]
        assert [room.code for room in classroom.ended_rooms(time.time() + 29)] == [code]
        assert classroom.ended_rooms(time.time() + ENDED_SHOWN_SECONDS) == []
        assert (await teacher.get("/api/admin/rooms"))["ended"] == []


async def test_a_broadcast_reaches_every_connected_client(tmp_path: Path) -> None:
    """Players, a spectator and a bot in no room: each gets the announcement."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob, code = await game_between(server)
        cat = await Player.join_server(server.ws_url, "cat")
        await cat.request({"type": "watch", "code": code})
        robo = await Player.join_server(server.ws_url, "robo", client="bot")
        text = "Pens down: ½ an hour left. Ünïcode too."
        assert await teacher.post("/api/admin/broadcast", {"text": f"  {text}\n"}) == {"sent_to": 4}
        for player in (ann, bob, cat, robo):
            assert await player.expect("announcement") == {"type": "announcement", "text": text}
        escape = "Look\x1b[2J"
        status, refused, _ = await teacher.call("POST", "/api/admin/broadcast", {"text": escape})
        assert (status, refused["error"]) == (400, "invalid_field"), refused
        assert "control character" in refused["message"], refused
        assert (await ann.request({"type": "ping"}))["type"] == "pong"
        assert [m["text"] for m in ann.seen if m["type"] == "announcement"] == [text]


async def test_the_class_summary_carries_the_last_message_for_ten_minutes(
    tmp_path: Path,
) -> None:
    """The wall reads the teacher's message from ``GET /api/admin/class``: none
    before the first, then the latest (a refused one changes nothing), until
    ANNOUNCEMENT_SHOWN_SECONDS after it was sent."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        assert (await teacher.get("/api/admin/class"))["announcement"] is None
        before = time.time()
        for text in ("Pens down", "Ten minutes left"):
            await teacher.post("/api/admin/broadcast", {"text": text})
        status, _, _ = await teacher.call("POST", "/api/admin/broadcast", {"text": " "})
        assert status == 400
        shown = (await teacher.get("/api/admin/class"))["announcement"]
        assert shown["text"] == "Ten minutes left"
        assert before <= shown["sent_at"] <= time.time()
        classroom = server.app[CLASSROOM]
        later = shown["sent_at"] + ANNOUNCEMENT_SHOWN_SECONDS
        assert classroom.summary(later - 1).announcement is not None
        assert classroom.summary(later).announcement is None


async def test_the_admin_views_are_json_for_the_teachers_page(tmp_path: Path) -> None:
    """The rooms list shows private rooms too, with each seat's roster id."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, _bob, code = await game_between(server, public=False)
        status, body, headers = await teacher.call("GET", "/api/admin/rooms")
        assert status == 200 and headers["Content-Type"].startswith("application/json")
        (room,) = body["rooms"]
        assert (room["code"], room["public"], room["status"]) == (code, False, "playing")
        ids = [await teacher.student_id(name) for name in ("ann", "bob")]
        assert [(p["name"], p["student"], p["connected"]) for p in room["players"]] == [
            ("ann", ids[0], True),
            ("bob", ids[1], True),
        ]
        assert json.dumps(body).count(ann.token or "-") == 0
