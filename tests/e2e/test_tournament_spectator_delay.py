"""A tournament game's spectators see it late; the teacher and the wall see it live.

A real class-mode server with real clients: ann and bob play a tic-tac-toe
tournament game; eve watches by the room's watch code (the code players pass
round) and sees it two plies late (``--spectator-delay``, 2 by default); the
teacher watches through the Watch link of the teacher's page (its ``watch_by``:
the join code) and sees each move at once, as the wall's ``GET /api/admin/rooms``
does.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, running_server
from terminal_helpers import client_process
from tournament_helpers import WAIT

from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.tournaments.spec import TournamentSpec
from boardroom.shared.protocol.messages import Clock


async def seated_students(
    server: Any, spectator_delay: int | None = None, spectator_delay_seconds: float | None = None
) -> tuple[Player, Player, dict[str, Any]]:
    """ann and bob, on the roster, seated in their tournament game (its spectators
    ``spectator_delay`` plies late, or ``spectator_delay_seconds`` seconds; None:
    the server's); ann's ``match``."""
    ann = await Player.join_server(server.ws_url, "ann")
    bob = await Player.join_server(server.ws_url, "bob")
    teacher = Teacher(server)
    entrants = (
        f"student:{await teacher.student_id('ann')}",
        f"student:{await teacher.student_id('bob')}",
    )
    spec = TournamentSpec(
        name="Delay",
        game="tictactoe",
        format="round_robin",
        rounds=1,
        double=False,
        clock=Clock(),
        no_show_seconds=WAIT,
        entrants=entrants,
        spectator_delay=spectator_delay,
        spectator_delay_seconds=spectator_delay_seconds,
    )
    await server.app[DIRECTOR].create(spec)
    matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
    for name, player in (("ann", ann), ("bob", bob)):
        joined = await player.request({"type": "join", "code": matches[name]["code"]})
        assert joined["type"] == "state", joined
    first, second = (ann, bob) if matches["ann"]["side"] == "first" else (bob, ann)
    return first, second, matches["ann"]


async def test_a_spectator_sees_the_game_two_plies_late_and_the_teacher_live(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "d.db", class_name="7B") as server:
        first, second, match = await seated_students(server)
        room = match["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]
        teacher = Teacher(server)
        (listed,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert listed["watch_by"] == match["code"]  # the teacher's Watch link: the join code

        eve = await Player.join_server(server.ws_url, "eve", client="spectator")
        watched = await eve.request({"type": "watch", "code": state["watch_code"]})
        assert watched["room"]["delayed"] == 2
        live = await Player.join_server(server.ws_url, "Teacher", client="spectator")
        watched = await live.request({"type": "watch", "code": listed["watch_by"]})
        assert "delayed" not in watched["room"]

        for mover, text, ply in ((first, "b2", 0), (second, "a1", 1), (first, "c3", 2)):
            await mover.request({"type": "move", "room": room, "move": text, "ply": ply})
            seen = await live.expect("moved")
            assert (seen["ply"], seen["move"]) == (ply, text)
        late = await eve.expect("moved")
        assert (late["ply"], late["move"], late["board"]) == (0, "b2", ["...", ".X.", "..."])
        assert "clocks" not in late

        eve_state = (await eve.request({"type": "get_state", "room": room}))["room"]
        assert (eve_state["moves"], eve_state["ply"], eve_state["delayed"]) == ("b2", 1, 2)
        teacher_state = (await live.request({"type": "get_state", "room": room}))["room"]
        assert (teacher_state["moves"], teacher_state["ply"]) == ("b2 a1 c3", 3)
        (wall,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert (wall["moves"], wall["ply"]) == ("b2 a1 c3", 3)  # the wall: live

        await second.request({"type": "resign", "room": room})
        caught_up = [await eve.expect("moved"), await eve.expect("moved")]
        assert [(m["ply"], m["move"]) for m in caught_up] == [(1, "a1"), (2, "c3")]
        over = await eve.expect("game_over")
        assert over["moves"] == "b2 a1 c3"
        for player in (first, second, eve, live):
            await player.close()


async def test_a_tournament_created_with_no_delay_shows_its_spectators_the_game_live(
    tmp_path: Path,
) -> None:
    """``spectator_delay: 0`` in the teacher's form: eve, by the watch code, sees
    each move at once."""
    async with running_server(tmp_path / "e.db", class_name="7B") as server:
        first, second, match = await seated_students(server, spectator_delay=0)
        room = match["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]
        eve = await Player.join_server(server.ws_url, "eve", client="spectator")
        watched = await eve.request({"type": "watch", "code": state["watch_code"]})
        assert "delayed" not in watched["room"]
        await first.request({"type": "move", "room": room, "move": "b2", "ply": 0})
        seen = await eve.expect("moved")
        assert (seen["ply"], seen["move"]) == (0, "b2")
        for player in (first, second, eve):
            await player.close()


async def test_a_spectator_sees_each_move_seconds_late_and_the_teacher_live(
    tmp_path: Path,
) -> None:
    """A server whose tournaments delay their spectators by 2 seconds
    (``--spectator-delay-seconds``): eve's state says so (``delayed_seconds``,
    no ``delayed``); the teacher gets each move at once, eve each one no sooner
    than 2 s after it was made, in order; when the game ends the move she has
    not seen yet comes before ``game_over``."""
    late = 2.0
    async with running_server(
        tmp_path / "s.db", class_name="7B", spectator_delay_seconds=late
    ) as server:
        first, second, match = await seated_students(server)
        room = match["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]
        teacher = Teacher(server)
        (listed,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        eve = await Player.join_server(server.ws_url, "eve", client="spectator")
        watched = await eve.request({"type": "watch", "code": state["watch_code"]})
        assert watched["room"]["delayed_seconds"] == late
        assert "delayed" not in watched["room"]
        live = await Player.join_server(server.ws_url, "Teacher", client="spectator")
        watched = await live.request({"type": "watch", "code": listed["watch_by"]})
        assert "delayed_seconds" not in watched["room"]

        made: list[float] = []
        for mover, text, ply in ((first, "b2", 0), (second, "a1", 1)):
            made.append(time.monotonic())
            await mover.request({"type": "move", "room": room, "move": text, "ply": ply})
            seen = await live.expect("moved")
            assert (seen["ply"], seen["move"]) == (ply, text)
        for ply, text in ((0, "b2"), (1, "a1")):
            shown = await eve.expect("moved")
            assert time.monotonic() - made[ply] >= late  # the server held it back
            assert (shown["ply"], shown["move"]) == (ply, text)
            assert "clocks" not in shown
        eve_state = (await eve.request({"type": "get_state", "room": room}))["room"]
        assert (eve_state["moves"], eve_state["delayed_seconds"]) == ("b2 a1", late)

        await first.request({"type": "move", "room": room, "move": "c3", "ply": 2})
        await second.request({"type": "resign", "room": room})
        caught_up = await eve.expect("moved")
        assert (caught_up["ply"], caught_up["move"]) == (2, "c3")
        over = await eve.expect("game_over")
        assert over["moves"] == "b2 a1 c3"
        for player in (first, second, eve, live):
            await player.close()


async def test_the_terminal_client_says_a_watched_tournament_game_is_behind(
    tmp_path: Path,
) -> None:
    """``boardroom watch WATCH_CODE`` on a tournament game says it is two moves
    behind, shows the first move once the third is played, and the two held
    back when the game ends."""
    async with running_server(tmp_path / "g.db", class_name="7B") as server:
        first, second, match = await seated_students(server)
        room = match["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]
        async with client_process(
            "watch", state["watch_code"], "--server", server.ws_url, "--name", "eve",
            config_home=tmp_path,
        ) as eve:  # fmt: skip
            await eve.expect(r"You are watching room")
            await eve.expect(r"You see this game 2 moves behind while it is played")
            for mover, text, ply in ((first, "b2", 0), (second, "a1", 1), (first, "c3", 2)):
                await mover.request({"type": "move", "room": room, "move": text, "ply": ply})
            await eve.expect(r"ann played b2")
            await second.request({"type": "resign", "room": room})
            await eve.expect(r"bob played a1")
            await eve.expect(r"ann played c3")
            eve.close_input()
            assert await eve.finish() == 0
        for player in (first, second):
            await player.close()


async def test_the_terminal_client_says_a_game_is_seconds_behind(tmp_path: Path) -> None:
    """``boardroom watch`` on a tournament game delayed by 30 seconds says so."""
    async with running_server(
        tmp_path / "t.db", class_name="7B", spectator_delay_seconds=30
    ) as server:
        first, second, match = await seated_students(server)
        state = (await first.request({"type": "get_state", "room": match["room"]}))["room"]
        async with client_process(
            "watch", state["watch_code"], "--server", server.ws_url, "--name", "eve",
            config_home=tmp_path,
        ) as eve:  # fmt: skip
            await eve.expect(r"You see this game 30 s behind while it is played")
            await first.request({"type": "move", "room": match["room"], "move": "b2", "ply": 0})
            await second.request({"type": "resign", "room": match["room"]})
            await eve.expect(r"ann played b2")  # held back until the end
            eve.close_input()
            assert await eve.finish() == 0
        for player in (first, second):
            await player.close()
