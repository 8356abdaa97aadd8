"""The web client shows how the AI thought: "How did the AI think?" under the board.

The page asks for the AI's search in its ``hello`` (``search_info``); after each AI
move the toggle under the board opens on one line (positions searched, depth,
what the AI concluded) and the line of play it expects, starting with its move.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from playwright.async_api import expect


async def test_the_page_shows_how_the_ai_found_its_move_on_demand(db_path: Path) -> None:
    """Before the AI has moved there is nothing to show; after its reply the toggle
    appears closed, and opened it tells the AI's search in words."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        await ann.create_room("tictactoe", ai="perfect")
        toggle = ann.page.get_by_text("How did the AI think?")
        await expect(ann.room).to_have_attribute("data-status", "playing")
        await expect(toggle).to_be_hidden()

        await ann.play("b2")
        assert await ann.wait_turn()
        reply = (await ann.data("moves")).split()[-1]
        summary = ann.page.locator(".ai-search-summary")
        await expect(toggle).to_be_visible()
        await expect(summary).to_be_hidden()  # closed until asked

        await toggle.click()
        pattern = (
            rf"^O AI \(perfect\) played {reply}: searched \d+ positions in .*, "
            r"depth \d+: proven draw$"
        )
        await expect(summary).to_have_text(re.compile(pattern))
        line = ann.page.locator(".ai-search-line")
        await expect(line).to_have_text(re.compile(rf"^Expected line: {reply}( [a-c][1-3])*$"))


async def test_while_hints_are_off_the_page_shows_no_expected_line(db_path: Path) -> None:
    """A class starts with hints off: Sam opens "How did the AI think?" and reads
    the AI's search, but where its expected line would be (whose next move is
    the engine's move for him) the page says it is not shown while hints are
    off, and no later move is on the page. The teacher turns hints on: the next
    AI move's line shows whole."""
    async with web_session(db_path, class_name="7B") as web:
        sam = await web.person("sam")
        await sam.create_room("tictactoe", ai="perfect")
        await expect(sam.room).to_have_attribute("data-status", "playing")
        await sam.play("b2")
        assert await sam.wait_turn()
        reply = (await sam.data("moves")).split()[-1]
        await sam.page.get_by_text("How did the AI think?").click()
        summary = sam.page.locator(".ai-search-summary")
        await expect(summary).to_have_text(re.compile(rf"^O AI \(perfect\) played {reply}: "))
        line = sam.page.locator(".ai-search-line")
        await expect(line).to_have_text("Expected line: not shown while hints are off")
        searched = await sam.page.locator(".ai-search").inner_text()
        assert not re.search(r"\b[a-c][1-3]\b", searched.replace(reply, "")), searched

        await Teacher(web.server).post("/api/admin/hints", {"allowed": True})
        await expect(sam.page.get_by_role("button", name="Hint")).to_be_visible()
        free = next(cell for cell in ("a1", "c1", "a3", "c3") if cell != reply)
        await sam.play(free)
        assert await sam.wait_turn()
        second = (await sam.data("moves")).split()[-1]
        await expect(line).to_have_text(re.compile(rf"^Expected line: {second}( [a-c][1-3])+$"))
