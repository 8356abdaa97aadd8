"""``boardroom play`` in a class tournament: it says each match and joins its room
by itself, from the lobby and from the room of the game before."""

from __future__ import annotations

from pathlib import Path

from classroom_helpers import Teacher
from harness import Player, running_server
from terminal_helpers import client_process
from tournament_helpers import tournament, wait_until


async def test_the_terminal_client_follows_its_matches(tmp_path: Path) -> None:
    async with (
        running_server(tmp_path / "t.db", class_name="7B") as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as ann,
    ):
        await ann.expect(r"Welcome, ann!")
        bob = await Player.join_server(server.ws_url, "bob")
        teacher = Teacher(server)
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        status, answer, _ = await teacher.call(
            "POST",
            "/api/admin/tournaments",
            {
                "name": "Cup",
                "game": "tictactoe",
                "format": "round_robin",
                "double": True,
                "entrants": entrants,
            },
        )
        assert status == 201, answer

        # Round 1, from the lobby: ann is X.
        first = await ann.expect(r'Tournament "Cup", round 1: you play X against bob in room (\w+)')
        match = await bob.expect("match", round=1)
        assert first.group(1) == match["room"]
        await bob.request({"type": "join", "code": match["code"]})
        await ann.expect(r"Game 1 starts: X ann vs O bob\. You play X and move first\.")
        ann.send("a1")
        await bob.expect("moved", ply=0)
        await bob.request({"type": "resign", "room": match["room"]})
        await ann.expect(r"Result: ")

        # Round 2 opens while ann still looks at the finished game: she moves on to it.
        await ann.expect(r'Tournament "Cup", round 2: you play O against bob in room (\w+)')
        match = await bob.expect("match", round=2)
        await bob.request({"type": "join", "code": match["code"]})
        await ann.expect(r"Game 1 starts: X bob vs O ann\. You play O\.")
        await bob.request({"type": "move", "room": match["room"], "move": "a1"})
        ann.send("b2")
        await bob.expect("moved", ply=1)
        await bob.request({"type": "resign", "room": match["room"]})
        await ann.expect(r"Result: ")
        await ann.expect(r'Announcement: Tournament "Cup" is over: ann wins with 2 points\.')
        ann.close_input()
        assert await ann.finish() == 0

        shown = await wait_until(
            lambda: tournament(server.http_url(""), answer["tournament"]["id"]),
            lambda t: t["status"] == "finished",
        )
        results = [g["result"] for r in shown["rounds_played"] for g in r["games"]]
        assert results == ["1-0", "0-1"]
        await bob.close()
