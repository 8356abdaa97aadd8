"""The web client shows how the AI thought: "How did the AI think?" under the board.

The page asks for the AI's search in its ``hello`` (``search_info``); after each AI
move the toggle under the board opens on one line (positions searched, depth,
what the AI concluded) and the line of play it expects, starting with its move.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import web_session
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
