"""Othello in the browser: the page draws it with its own look (look-othello.js:
green felt, black and white discs), shows the discs each move flips as the
server's board says them (the page has no rules: it never flips anything
itself), and offers the forced pass as a button."""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from harness import Player
from playwright.async_api import expect
from test_browser_server_board import page_stones, stones_of

PASS_LINE = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]
"""After these moves Black (first, to move) has no legal move: it must pass."""


async def test_othello_is_drawn_from_the_server_s_board_flips_and_pass_included(
    db_path: Path,
) -> None:
    """Ann (Black, in the browser) plays Bob (a protocol client). Her first disc,
    d3, flips d4: her board shows the server's rows, d4 black. Through to a
    position where her only legal move is a pass: no cell takes a click, and
    the Pass button plays it."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("othello")
        await expect(ann.page.locator(".room-view .board.look-othello")).to_be_visible()
        bob = await Player.join_server(web.server.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": code})
        assert await page_stones(ann) == stones_of(joined["room"]["board"])
        assert sorted(joined["room"]["legal"]) == ["c4", "d3", "e6", "f5"]
        for ply, move in enumerate(PASS_LINE):
            if ply % 2 == 0:
                await ann.play(move)
                moved = await bob.expect("moved", ply=ply)
            else:
                moved = await bob.request({"type": "move", "room": code, "move": move, "ply": ply})
                await expect(ann.room).to_have_attribute("data-ply", str(ply + 1))
            assert await page_stones(ann) == stones_of(moved["board"]), ply
            if ply == 0:
                assert (await page_stones(ann))["d4"] == "first"  # flipped by d3
        assert moved["legal"] == ["pass"]
        await expect(ann.page.locator(".room-view .cell[aria-disabled='false']")).to_have_count(0)
        pass_button = ann.page.locator(".room-view .other-moves button")
        await expect(pass_button).to_have_text("Pass")
        await pass_button.click()
        passed = await bob.expect("moved", ply=len(PASS_LINE))
        assert passed["move"] == "pass" and passed["side"] == "first"
        await expect(ann.room).to_have_attribute("data-ply", str(len(PASS_LINE) + 1))
        await expect(pass_button).to_be_hidden()
        await bob.close()


async def test_an_othello_room_shows_its_sides_in_the_discs_colours(db_path: Path) -> None:
    """The seats' badges in an Othello room are black (first) and white (second),
    as its discs, not the red and yellow of the k-in-a-row games; a tic-tac-toe
    room opened next, on the same page, is red and yellow again (the look's
    colours belong to its room, not to the page). At a phone's width too."""
    async with web_session(db_path) as web:
        ann = await web.person("ann", viewport={"width": 390, "height": 844})
        await ann.create_room("othello")
        first = ann.page.locator(".room-view .stone.first").first
        second = ann.page.locator(".room-view .stone.second").first
        await expect(first).to_have_css("background-color", "rgb(26, 26, 26)")
        await expect(second).to_have_css("background-color", "rgb(244, 244, 244)")
        await ann.page.screenshot(path=str(db_path.parent / "othello-sides-390x844.png"))
        await ann.page.get_by_role("button", name="Leave").click()
        await ann.create_room("tictactoe")
        await expect(ann.page.locator(".room-view .stone.first").first).to_have_css(
            "background-color", "rgb(225, 29, 72)"
        )
