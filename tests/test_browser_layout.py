"""The web client on small laptop screens: every board whole, no sideways scrolling.

Boards scale to the height left on screen; a 15x15 gomoku board, Connect Four
and tic-tac-toe must each show in full, without horizontal scrolling, at the
common small laptop sizes and at 800x600; the lobby must fit the width too.
"""

from __future__ import annotations

from pathlib import Path

from browser import WebPlayer, web_session
from playwright.async_api import expect

SCREENS = ((1366, 768), (1280, 720), (1024, 600), (800, 600))
"""Small laptops, a netbook, and a small window."""


async def assert_fits(person: WebPlayer, selector: str, width: int, height: int) -> None:
    """``selector`` shows whole within a ``width`` x ``height`` window, and the page
    has nothing to scroll sideways."""
    await person.page.set_viewport_size({"width": width, "height": height})
    box = await person.page.locator(selector).bounding_box()
    assert box is not None, selector
    where = f"{selector} at {width}x{height}: {box}"
    assert box["x"] >= 0 and box["y"] >= 0, where
    assert box["x"] + box["width"] <= width, where
    assert box["y"] + box["height"] <= height, where
    scroll_width = await person.page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{where}: the page scrolls sideways ({scroll_width} px)"


async def test_every_board_shows_whole_on_small_screens(db_path: Path) -> None:
    """Gomoku, Connect Four and tic-tac-toe rooms, each at every small screen size:
    the whole board is on screen and nothing scrolls sideways."""
    async with web_session(db_path) as web:
        lee = await web.person("lee", viewport={"width": 800, "height": 600})
        for width, height in SCREENS:
            await assert_fits(lee, ".lobby-view #new-room", width, height)
        for game in ("gomoku", "connect4", "tictactoe"):
            await lee.create_room(game, ai="random")
            await expect(lee.room).to_have_attribute("data-status", "playing")
            for width, height in SCREENS:
                await assert_fits(lee, ".board", width, height)
            await lee.page.get_by_role("button", name="← Lobby").click()
