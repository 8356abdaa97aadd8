"""Hints on a real server: the player to move asks (``hint``), the engine answers
them alone, the hint is kept with the game and shown in its analysis; in class
mode the teacher's switch turns hints on and off (off at first)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from classroom_helpers import Teacher
from harness import Player, assert_alive, running_server, wait_until

from boardroom.server.engine_pool import PoolSearchOutcome
from boardroom.server.lifecycle import POOL
from boardroom.shared.engine.remote import SearchRequest


async def test_a_hint_goes_to_the_asker_alone_and_shows_in_the_analysis(tmp_path: Path) -> None:
    """Ann (X) against Bob, Cy watching: Ann asks, gets the engine's move with
    its value; Bob and Cy get nothing. She plays it; the game goes on to its end,
    and the analysis says which move was hinted, and how many hints each used."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        cy = await Player.join_server(server.ws_url, "cy")
        watched = await cy.request({"type": "watch", "code": code})
        assert watched["room"].get("hints", True) is True
        hint = await ann.request({"type": "hint", "room": code})
        assert (hint["type"], hint["room"], hint["ply"]) == ("hint", code, 0), hint
        assert hint["search"]["exact"] is True and hint["search"]["value"] == "draw"
        hinted_move = hint["move"]
        assert hinted_move == "b2"  # perfect opens in the centre
        # Ann plays it; then O throws the draw away (the analysis' blunder).
        played = ["b2", "a2", "a1", "c3", "c1", "b1", "a3"]
        movers = (ann, bob)
        for ply, cell in enumerate(played):
            reply = await movers[ply % 2].request({"type": "move", "room": code, "move": cell})
            assert reply["type"] == "moved", reply
        over = await ann.expect("game_over")
        for other in (bob, cy):
            assert not [m for m in other.seen if m["type"] == "hint"]
        game_id = over["game_id"]

        async def analysis() -> tuple[int, dict[str, object]]:
            status, _, body = await server.get(f"/api/games/{game_id}/analysis")
            return status, json.loads(body)

        _, final = await wait_until(analysis, lambda answer: answer[0] == 200, timeout=30)
    reviews = final["reviews"]
    assert isinstance(reviews, list)
    assert reviews[0]["hint"] == hinted_move
    assert all(review["hint"] is None for review in reviews[1:])
    assert final["hints"] == {"first": 1, "second": 0}


async def test_a_hint_out_of_turn_or_for_no_room_is_refused_and_nothing_changes(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        waiting = await ann.request({"type": "hint", "room": code})
        assert waiting["code"] == "game_not_started", waiting
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        for player, request, expected in [
            (bob, {"type": "hint", "room": code}, "not_your_turn"),
            (ann, {"type": "hint", "room": "ZZZZZZ"}, "unknown_room"),
            (ann, {"type": "hint"}, "invalid_field"),
            (ann, {"type": "hint", "room": 7}, "invalid_field"),
        ]:
            error = await player.request(request)
            assert (error["type"], error["code"]) == ("error", expected), (request, error)
            await assert_alive(player)
        state = await ann.request({"type": "get_state", "room": code})
        assert state["room"]["moves"] == "" and state["room"]["status"] == "playing"


async def test_the_teacher_turns_hints_on_and_off_for_the_class(tmp_path: Path) -> None:
    """Class mode starts with hints off: a student's hint is refused hints_off.
    The teacher turns them on: the students' rooms say so at once, and hints
    come; off again, and they stop. A body that is not a boolean is refused."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        assert (await teacher.get("/api/admin/class"))["hints"] is False
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "connect4", "ai_level": "easy"}))[
            "room"
        ]["code"]
        await ann.expect("state")
        refused = await ann.request({"type": "hint", "room": code})
        assert refused["code"] == "hints_off", refused
        turned = await teacher.post("/api/admin/hints", {"allowed": True})
        assert turned == {"hints": True, "rooms": 1}
        told = await ann.expect("state")
        assert told["room"].get("hints", True) is True
        hint = await ann.request({"type": "hint", "room": code})
        assert hint["type"] == "hint" and hint["move"] in "1234567", hint
        await teacher.post("/api/admin/hints", {"allowed": False})
        assert (await ann.request({"type": "hint", "room": code}))["code"] == "hints_off"
        status, body, _ = await teacher.call("POST", "/api/admin/hints", {"allowed": "yes"})
        assert (status, body["error"]) == (400, "invalid_field"), body
        assert (await teacher.get("/api/admin/class"))["hints"] is False


@pytest.mark.parametrize("hints", [False, True])
async def test_a_tournament_has_hints_only_if_it_asked_for_them(
    tmp_path: Path, hints: bool
) -> None:
    """A tournament's games follow its own switch (``hints`` when it is made, off
    by default), whatever the class's says: here the class's says the opposite."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await teacher.post("/api/admin/hints", {"allowed": not hints})
        ann = await Player.join_server(server.ws_url, "ann")
        body = {
            "name": "Cup",
            "game": "tictactoe",
            "format": "round_robin",
            "entrants": [f"student:{await teacher.student_id('ann')}", "ai:easy"],
            "hints": hints,
        }
        status, made, _ = await teacher.call("POST", "/api/admin/tournaments", body)
        assert status == 201, made
        match = await ann.expect("match", timeout=15)
        joined = await ann.request({"type": "join", "code": match["code"]})
        assert joined["type"] == "state" and joined["room"].get("hints", True) is hints, joined
        room = match["room"]
        await wait_until(
            lambda: ann.request({"type": "get_state", "room": room}),
            lambda got: (
                got["room"]["status"] == "playing" and got["room"].get("to_move") == match["side"]
            ),
        )
        answer = await ann.request({"type": "hint", "room": room})
        if hints:
            assert answer["type"] == "hint", answer
        else:
            assert (answer["type"], answer["code"]) == ("error", "hints_off"), answer


async def test_a_hint_asked_before_the_teacher_turns_hints_off_is_not_delivered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann asks for a hint; the engine's answer is held until the teacher has
    turned hints off (a gate on the real pool's search, so the order is the
    test's, not the clock's). The answer then comes back to a room where hints
    are off: Ann gets ``hints_off`` for her request instead of the move, and the
    game's analysis counts no hint."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await teacher.post("/api/admin/hints", {"allowed": True})
        pool = server.app[POOL]
        searching, release = asyncio.Event(), asyncio.Event()
        real_search = pool.search

        async def gated(request: SearchRequest, **order: Any) -> PoolSearchOutcome:
            searching.set()
            await release.wait()
            return await real_search(request, **order)

        monkeypatch.setattr(pool, "search", gated)
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        asked = asyncio.create_task(ann.request({"type": "hint", "room": code}))
        await searching.wait()
        assert await teacher.post("/api/admin/hints", {"allowed": False}) == {
            "hints": False,
            "rooms": 1,
        }
        release.set()
        answer = await asked
        assert (answer["type"], answer["code"]) == ("error", "hints_off"), answer
        assert "turned off" in answer["message"]
        assert not [m for m in ann.seen if m["type"] == "hint"]
        for ply, cell in enumerate(["a1", "b1", "a2", "b2", "a3"]):
            await (ann, bob)[ply % 2].request({"type": "move", "room": code, "move": cell})
        over = await ann.expect("game_over")

        async def analysis() -> tuple[int, dict[str, object]]:
            status, _, body = await server.get(f"/api/games/{over['game_id']}/analysis")
            return status, json.loads(body)

        _, final = await wait_until(analysis, lambda answer: answer[0] == 200, timeout=30)
    assert final["hints"] == {"first": 0, "second": 0}, final
