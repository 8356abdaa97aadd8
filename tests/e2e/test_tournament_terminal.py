"""``boardroom play`` in a class tournament: it says each match and joins its room
by itself, from the lobby and from the room of the game before."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from pathlib import Path

from classroom_helpers import Teacher
from harness import Player, running_server, wait_until
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from terminal_helpers import client_process
from tournament_helpers import WAIT, tournament

from boardroom.client.session import Session
from boardroom.client.terminal.console import PromptConsole
from boardroom.client.terminal.lobby import Lobby
from boardroom.client.terminal.style import Palette
from boardroom.client.terminal.terminal import Terminal


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
        # Ann's client sits down first (bob waits for it: else the game starts
        # at her join): no code to pass on, the server seats the opponent.
        await ann.expect(r"it is a tournament game, and the server seats your opponent")
        await bob.request({"type": "join", "code": match["code"]})
        await ann.expect(r"Game 1 starts: X ann vs O bob\. You play X and move first\.")
        assert "It is private" not in ann.transcript and "private: join" not in ann.transcript
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
        # From the server, not the teacher, naming the tournament for its standings.
        await bob.expect("announcement", source="server", tournament=answer["tournament"]["id"])
        ann.close_input()
        assert await ann.finish() == 0
        assert "rematch" not in ann.transcript  # a tournament game has none

        shown = await wait_until(
            lambda: tournament(server.http_url(""), answer["tournament"]["id"]),
            lambda t: t["status"] == "finished",
            timeout=WAIT,
        )
        results = [g["result"] for r in shown["rounds_played"] for g in r["games"]]
        assert results == ["1-0", "0-1"]
        await bob.close()


async def test_at_a_terminal_the_prompt_turns_to_the_match_room_at_once(tmp_path: Path) -> None:
    """The lobby follows a match while ``lobby>`` waits for a line: the prompt
    being typed at becomes the room's (``X, your move>`` once bob is seated)
    without a key pressed, and the line typed then is a move in that room."""
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=160), term="xterm")
    async with running_server(tmp_path / "p.db", class_name="7B") as server:
        session = Session(server.ws_url, "ann")
        await session.start()
        bob = await Player.join_server(server.ws_url, "bob")
        with create_pipe_input() as keyboard, create_app_session(input=keyboard, output=output):
            terminal = Terminal(PromptConsole(palette=Palette(enabled=False)), session)
            lobby = asyncio.create_task(Lobby(terminal).run())
            try:
                teacher = Teacher(server)
                entrants = [f"student:{await teacher.student_id(n)}" for n in ("ann", "bob")]
                body = {
                    "name": "Cup",
                    "game": "tictactoe",
                    "format": "round_robin",
                    "entrants": entrants,
                }
                status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
                assert status == 201, answer
                match = await bob.expect("match")
                assert match["side"] == "second"  # ann, first entrant, is X in round 1
                await bob.request({"type": "join", "code": match["code"]})
                await wait_until(
                    lambda: session.rooms.get(match["room"]),
                    lambda room: room is not None and room.my_turn,
                    timeout=WAIT,
                )
                # Not a key pressed: the prompt in flight is redrawn as the room's.
                drawn = await wait_until(
                    lambda: _drawn(screen), lambda text: "your move>" in text, timeout=WAIT
                )
                assert drawn.index("lobby>") < drawn.index("your move>")
                keyboard.send_text("b2\r")
                moved = await bob.expect("moved", ply=0)
                assert moved["move"] == "b2"
            finally:
                lobby.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await lobby
                await terminal.close()
                await session.close()
                await bob.close()


def _drawn(screen: io.StringIO) -> str:
    """What was written to the terminal, without its control sequences (and so
    without the blanks it skips over with them)."""
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", screen.getvalue())
