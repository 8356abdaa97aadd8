"""A tournament's autopilot, the teacher's choice (issue 31 §1, class mode).

A real class-mode server, real clients, a real SQLite file. The teacher sets
the class's autopilot (``POST /api/admin/autopilot``) and each tournament's
(``autopilot`` in ``POST /api/admin/tournaments``: a level, ``off``, or
``class``: the class's). A student who drops mid-game and stays away past the
grace window has their seat played by the engine at the tournament's level to
the end: the game is played out and scored as played, not lost by
abandonment. With ``off``, the window ends the game by abandonment, as
tournament games always did, whatever the server's ``--autopilot``. Bad values
are refused with ``invalid_field`` and change nothing. The windows are short
(0.3 s): the suite is over its time budget.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server
from tournament_helpers import tournament

from boardroom.server.lifecycle import STORE

GRACE = 0.3


async def _create(teacher: Teacher, **options: Any) -> dict[str, Any]:
    """Start a one-game round robin of tic-tac-toe between the class's ann and
    bob with ``options`` in its body; the tournament as the API answers it."""
    entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
    body = {"name": "Cup", "game": "tictactoe", "format": "round_robin", "entrants": entrants}
    status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body | options)
    assert status == 201, answer
    created: dict[str, Any] = answer["tournament"]
    return created


async def _seated(server: RunningServer, **options: Any) -> tuple[Player, Player, str, int]:
    """ann and bob on the roster, seated in their tournament game (``options``
    in the tournament's body): who plays first, who second, the room's code,
    the tournament's id."""
    ann = await Player.join_server(server.ws_url, "ann")
    bob = await Player.join_server(server.ws_url, "bob")
    created = await _create(Teacher(server), **options)
    matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
    for name, player in (("ann", ann), ("bob", bob)):
        joined = await player.request({"type": "join", "code": matches[name]["code"]})
        assert joined["type"] == "state", joined
    first, second = (ann, bob) if matches["ann"]["side"] == "first" else (bob, ann)
    return first, second, matches["ann"]["room"], created["id"]


async def _second_drops_on_their_turn(first: Player, second: Player, room: str) -> None:
    moved = await first.request({"type": "move", "room": room, "move": "b2"})
    assert moved["type"] == "moved", moved
    await second.close()
    await first.expect("player_status", side="second", connected=False)


async def _result(server: RunningServer, tournament_id: int) -> str | None:
    shown = await tournament(server.http_url(""), tournament_id)
    (game,) = shown["rounds_played"][0]["games"]
    result: str | None = game["result"]
    return result


async def test_the_engine_finishes_a_dropped_students_tournament_game(tmp_path: Path) -> None:
    """A tournament with ``autopilot: easy`` on a server without one: the second
    player drops on their turn; when the window runs out the engine plays their
    seat at ``easy`` (every move of theirs from then on flagged) until the game
    ends by play. The tournament scores that end: a win, loss or draw, not a
    forfeit, and the stored game flags the engine's moves."""
    async with running_server(
        tmp_path / "a.db", class_name="7B", grace_seconds=GRACE, autopilot="off"
    ) as server:
        first, second, room, tournament_id = await _seated(server, autopilot="easy")
        assert (await tournament(server.http_url(""), tournament_id))["autopilot"] == "easy"
        await _second_drops_on_their_turn(first, second, room)
        took = await first.expect("player_status", side="second", autopilot="easy")
        assert took["connected"] is False, took

        engine_moves = 0
        while (message := await first.recv())["type"] != "game_over":
            if message["type"] == "moved" and message["side"] == "second":
                assert message.get("autopilot") is True, message
                engine_moves += 1
                if message["legal"]:
                    await first.request({"type": "move", "room": room, "move": message["legal"][0]})
        assert message["result"]["reason"] in ("line", "full_board"), message
        assert engine_moves >= 1

        result = await _result(server, tournament_id)
        assert result in ("1-0", "0-1", "1/2-1/2"), result
        shown = await tournament(server.http_url(""), tournament_id)
        game_id = shown["rounds_played"][0]["games"][0]["game_id"]
        record = await server.app[STORE].get_game(game_id)
        flagged = [move.ply for move in record.moves if move.autopilot]
        assert len(flagged) == engine_moves and all(ply % 2 == 1 for ply in flagged)
        await first.close()


async def test_with_autopilot_off_a_dropped_student_loses_by_abandonment(tmp_path: Path) -> None:
    """A tournament with ``autopilot: off`` on a server started with
    ``--autopilot medium``: the tournament's choice holds, the window ends the
    game by abandonment and the student who stayed wins it."""
    async with running_server(
        tmp_path / "b.db", class_name="7B", grace_seconds=GRACE, autopilot="medium"
    ) as server:
        first, second, room, tournament_id = await _seated(server, autopilot="off")
        await _second_drops_on_their_turn(first, second, room)
        over = await first.expect("game_over")
        assert over["result"]["reason"] == "abandonment", over
        assert over["result"]["winner"] == "first", over
        assert await _result(server, tournament_id) == "1-0"
        await first.close()


async def test_the_class_default_is_kept_and_taken_by_a_tournament(tmp_path: Path) -> None:
    """The class's autopilot starts as the server's ``--autopilot``; the teacher
    sets it to ``hard``; a tournament that says nothing (or ``class``) takes it
    when it is created; a restart keeps the class's choice."""
    database = tmp_path / "c.db"
    async with running_server(database, class_name="7B", autopilot="medium") as server:
        teacher = Teacher(server)
        assert (await teacher.get("/api/admin/class"))["autopilot"] == "medium"
        assert await teacher.post("/api/admin/autopilot", {"level": "hard"}) == {
            "autopilot": "hard"
        }
        assert (await teacher.get("/api/admin/class"))["autopilot"] == "hard"
        for player in [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]:
            await player.close()
        created = await _create(teacher)
        assert created["autopilot"] == "hard"
        status, _, _ = await teacher.call("POST", f"/api/admin/tournaments/{created['id']}/cancel")
        assert status == 200
        assert (await _create(teacher, autopilot="class"))["autopilot"] == "hard"
    async with running_server(database, class_name="7B", autopilot="medium") as server:
        assert (await Teacher(server).get("/api/admin/class"))["autopilot"] == "hard"


async def test_bad_autopilot_values_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """A level that is none, or not a string, for the class or a tournament:
    400 ``invalid_field`` naming the field; the class keeps its autopilot and
    no tournament is created."""
    async with running_server(tmp_path / "d.db", class_name="7B") as server:
        teacher = Teacher(server)
        await teacher.post("/api/admin/autopilot", {"level": "easy"})
        for body in ({"level": "brutal"}, {"level": 3}, {"level": "class"}, {}):
            status, answer, _ = await teacher.call("POST", "/api/admin/autopilot", body)
            assert (status, answer["error"]) == (400, "invalid_field"), answer
            assert "level" in answer["message"], answer
        assert (await teacher.get("/api/admin/class"))["autopilot"] == "easy"

        for player in [await Player.join_server(server.ws_url, n) for n in ("ann", "bob")]:
            await player.close()
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        body = {"name": "Cup", "game": "tictactoe", "format": "round_robin", "entrants": entrants}
        for bad in ("brutal", "", None, 2):
            status, answer, _ = await teacher.call(
                "POST", "/api/admin/tournaments", body | {"autopilot": bad}
            )
            assert (status, answer["error"]) == (400, "invalid_field"), answer
            assert "autopilot" in answer["message"], answer
        assert (await teacher.get("/api/admin/tournaments"))["tournaments"] == []
