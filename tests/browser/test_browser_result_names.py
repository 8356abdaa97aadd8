"""A finished game keeps its players' names after they leave, in a real Chromium.

A bot leaves a game it has won at once (as every bot does): the loser's page
still says who won and who played ("O robo wins", "robo (left)"), not "O
wins" beside an "empty seat"; so does the teacher's list of rooms.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect
from test_browser_teacher import open_teacher


async def test_the_loser_reads_the_winners_name_after_the_winner_left(db_path: Path) -> None:
    """Sam (X) plays the teacher's bot robo (O), loses to a1-b1-c1, and robo
    leaves: Sam's page reads "O robo wins" and names both seats; the teacher's
    Rooms list reads "O robo (left)" and "finished: O robo wins"."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        status, made, _ = await teacher.call("POST", "/api/admin/bots", {"name": "robo"})
        assert status == 201, made
        robo = await Player.connect(web.server.ws_url)
        hello = {"type": "hello", "name": "robo", "version": 2, "client": "bot"}
        welcome = await robo.request({**hello, "player_token": made["token"]})
        assert welcome["type"] == "welcome", welcome
        sam = await web.person("sam")
        code = await sam.create_room("tictactoe")
        assert (await robo.request({"type": "join", "code": code}))["type"] == "state"
        await expect(sam.room).to_have_attribute("data-status", "playing")
        for ply, (mine, robos) in enumerate([("a2", "a1"), ("b3", "b1"), ("c3", "c1")]):
            await sam.play(mine)
            reply = await robo.request(
                {"type": "move", "room": code, "move": robos, "ply": 2 * ply + 1}
            )
            assert reply["type"] == "moved", reply
        await expect(sam.room).to_have_attribute("data-status", "finished")
        left = await robo.request({"type": "leave", "room": code})
        assert left["type"] == "left", left
        seats = sam.page.locator(".seat .seat-name")
        await expect(seats).to_have_text(["sam (you)", "robo (left)"])
        await expect(sam.turn).to_have_text(re.compile(r"^O robo wins: three in a row"))

        desk = await open_teacher(web, teacher)
        row = desk.page.locator(f"tr[data-room='{code}']")
        await expect(row).to_contain_text("O robo (left)")
        await expect(row).to_contain_text("finished: O robo wins")
        await expect(row).not_to_contain_text("empty seat")
