"""The wall (``/wall#token=...``) in Chromium, on a projector-sized screen.

A real server in class mode, real protocol players (:class:`harness.Player`)
making the moves, and the wall page polling the admin API as it does in a
classroom: each move must appear on the wall's board as it is made, and the
result at the end.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect

PROJECTOR = {"width": 1920, "height": 1080}

GAME = (("first", "a1"), ("second", "a3"), ("first", "b2"), ("second", "b3"), ("first", "c3"))
"""X takes the diagonal a1-b2-c3 while O builds the top row."""


async def test_the_wall_shows_a_live_game_move_by_move_and_its_result(db_path: Path) -> None:
    """Ann and Bob play tic-tac-toe over the protocol; after each move the wall's
    board holds that stone and names the player to move; at the end the tile
    shows Ann's win and the admin API gives the same result. With no tournament
    the standings panel stays hidden. A room opened after comes first, and a
    wall told to keep finished games one second drops the finished one."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        bob = await Player.join_server(web.server.ws_url, "bob")
        created = await ann.request({"type": "create_room", "game": "tictactoe", "public": True})
        code = created["room"]["code"]
        await bob.request({"type": "join", "code": code})

        wall = await web.open(
            f"/wall#token={teacher.token}", viewport=PROJECTOR, allowed_statuses=(404,)
        )
        tile = wall.page.locator(f".tile[data-room='{code}']")
        await expect(tile).to_have_attribute("data-status", "playing")
        await expect(wall.page.locator("#wall-title")).to_have_text("Class 7B")
        await expect(tile.locator(".tile-seat.first")).to_have_text("Xann")
        await expect(tile.locator(".tile-seat.second")).to_have_text("Obob")
        await expect(tile.locator(".tile-turn")).to_have_text("X ann to move")
        await expect(wall.page.locator("#wall-tournament")).to_be_hidden()

        players = {"first": ann, "second": bob}
        symbols = {"first": "X", "second": "O"}
        for ply, (side, cell) in enumerate(GAME):
            await players[side].request({"type": "move", "room": code, "move": cell, "ply": ply})
            shown = tile.locator(f".cell[data-cell='{cell}']")
            await expect(shown).to_have_text(symbols[side])
            await expect(shown).to_have_class(re.compile(rf"\bcell {side} last\b"))
            if ply < len(GAME) - 1:
                other = "second" if side == "first" else "first"
                await expect(tile).to_have_attribute("data-to-move", other)
        await expect(tile.locator(".cell.first")).to_have_count(3)
        await expect(tile.locator(".cell.second")).to_have_count(2)

        await expect(tile).to_have_attribute("data-status", "finished")
        await expect(tile.locator(".tile-turn")).to_have_text(
            "X ann wins: three in a row, a1-b2-c3"
        )
        await expect(tile.locator(".cell.win")).to_have_count(3)
        await expect(tile.locator(".tile-seat.first")).to_have_class("tile-seat first winner")
        (room,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert room["result"] == {"winner": "first", "reason": "line", "line": ["a1", "b2", "c3"]}

        # A game still to play comes first; a finished one leaves the wall after
        # the time the fragment gives (30 s unless told).
        waiting = await ann.request({"type": "create_room", "game": "tictactoe", "public": True})
        live = waiting["room"]["code"]
        await expect(wall.page.locator(".tile").first).to_have_attribute("data-room", live)
        await expect(tile).to_have_count(1)
        brief = await web.open(
            f"/wall#token={teacher.token}&finished=1", viewport=PROJECTOR, allowed_statuses=(404,)
        )
        await expect(brief.page.locator(f".tile[data-room='{live}']")).to_have_count(1)
        await expect(brief.page.locator(f".tile[data-room='{code}']")).to_have_count(0)
