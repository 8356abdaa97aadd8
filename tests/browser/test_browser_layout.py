"""The web client on small laptop screens: every board whole, no sideways scrolling.

Boards scale to the height left on screen; a 15x15 gomoku board, Connect Four
and tic-tac-toe must each show in full, without horizontal scrolling, at the
common small laptop sizes and at 800x600; the lobby must fit the width too. In
class mode the teacher's message and the pause bar take height from the board,
never push the board or its controls off a 900 px high window.
"""

from __future__ import annotations

from pathlib import Path

from browser import WebPlayer, web_session
from classroom_helpers import Teacher
from playwright.async_api import expect

SCREENS = ((1366, 768), (1280, 720), (1024, 600), (800, 600))
"""Small laptops, a netbook, and a small window."""


async def assert_fits(person: WebPlayer, selector: str, width: int, height: int) -> None:
    """``selector`` shows whole within a ``width`` x ``height`` window, and the page
    has nothing to scroll sideways."""
    await person.page.set_viewport_size({"width": width, "height": height})
    where = await assert_in_window(person, selector, width, height)
    scroll_width = await person.page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{where}: the page scrolls sideways ({scroll_width} px)"


async def assert_in_window(person: WebPlayer, selector: str, width: int, height: int) -> str:
    """``selector``'s box lies within the ``width`` x ``height`` window; a description
    of where it is, for messages."""
    box = await person.page.locator(selector).bounding_box()
    assert box is not None, selector
    where = f"{selector} at {width}x{height}: {box}"
    assert box["x"] >= 0 and box["y"] >= 0, where
    assert box["x"] + box["width"] <= width, where
    assert box["y"] + box["height"] <= height, where
    return where


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


WIDE_LAPTOPS = ((1280, 900), (1440, 900))
"""Laptop windows 900 px high, where a class saw the 3x3 board cut off."""

ROOM_PARTS = (".board", ".turn", ".move-form", ".room-actions")
"""The board and what a player needs beside it: whose turn, the move form, the buttons."""


async def assert_all_on_screen(person: WebPlayer, selectors: tuple[str, ...]) -> None:
    """At each of :data:`WIDE_LAPTOPS`, every one of ``selectors`` shows whole in
    the window and nothing scrolls."""
    for width, height in WIDE_LAPTOPS:
        await person.page.set_viewport_size({"width": width, "height": height})
        for selector in selectors:
            await assert_in_window(person, selector, width, height)
        scrolls = await person.page.evaluate(
            "[document.documentElement, document.getElementById('view')]"
            ".map(e => [e.scrollWidth - e.clientWidth, e.scrollHeight - e.clientHeight])"
        )
        assert scrolls == [[0, 0], [0, 0]], f"{width}x{height}: the page scrolls {scrolls}"


async def test_a_tic_tac_toe_room_fits_a_900_px_window_in_class(db_path: Path) -> None:
    """Lee plays the AI at tic-tac-toe on a 1280x900 and a 1440x900 window: the
    board, the turn line, the move form and the buttons show whole with nothing
    to scroll; so they do with the teacher's message pinned above, with the
    pause bar as well, and with a refused move explained under the board."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        lee = await web.person("lee", viewport={"width": 1280, "height": 900})
        await lee.create_room("tictactoe", ai="random")
        await expect(lee.room).to_have_attribute("data-status", "playing")
        await assert_all_on_screen(lee, ROOM_PARTS)

        text = "Ten minutes left: finish your game, then look at the wall."
        await teacher.post("/api/admin/broadcast", {"text": text})
        await expect(lee.page.locator("#pinned .pinned")).to_have_count(1)
        await assert_all_on_screen(lee, ROOM_PARTS)

        await teacher.post("/api/admin/pause")
        await expect(lee.page.locator(".lesson-paused")).to_be_visible()
        await assert_all_on_screen(lee, (*ROOM_PARTS, ".lesson-paused"))

        await teacher.post("/api/admin/resume")
        await expect(lee.page.locator(".lesson-paused")).to_be_hidden()
        await lee.page.get_by_label("Or type a cell").fill("z9")
        await lee.page.get_by_role("button", name="Play", exact=True).click()
        await expect(lee.refusal).to_be_visible()
        await assert_all_on_screen(lee, (*ROOM_PARTS, ".refusal"))
