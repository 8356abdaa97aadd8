"""Hints in a real Chromium: the player to move asks ("Hint"), the engine's move
shows under the board and is ringed on it until the move; hints off (an AI
match, a class whose teacher has not turned them on) hide the button, and the
teacher's switch shows and hides it at once."""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from playwright.async_api import expect
from test_browser_teacher import open_teacher


async def test_a_player_asks_for_a_hint_sees_it_on_the_board_and_plays_it(db_path: Path) -> None:
    """Sam (X) against Bo: Sam asks, reads "Hint: b2 — draw" (the engine opens in
    the centre, a proven draw), b2 is ringed; he plays it and the hint goes. Bo,
    not to move, has no button."""
    async with web_session(db_path) as web:
        sam = await web.person("sam")
        code = await sam.create_room("tictactoe")
        bo = await web.person("bo")
        await bo.by_code("Join", code)
        await expect(sam.room).to_have_attribute("data-status", "playing")
        hint_button = sam.page.get_by_role("button", name="Hint")
        await expect(hint_button).to_be_visible()
        await expect(bo.page.locator(".hint-bar")).to_be_hidden()
        await hint_button.click()
        await expect(sam.page.locator(".hint-line")).to_have_text("Hint: b2 — draw")
        await expect(sam.room).to_have_attribute("data-hint", "b2")
        await expect(sam.page.locator(".cell.hint")).to_have_count(1)
        await expect(sam.cell("b2")).to_have_class("cell hint")
        await sam.play("b2")
        await expect(sam.page.locator(".cell.hint")).to_have_count(0)
        await expect(sam.page.locator(".hint-bar")).to_be_hidden()
        await expect(bo.page.locator(".hint-bar")).to_be_visible()
        await expect(bo.page.locator(".hint-line")).to_have_text("")


async def test_the_teachers_switch_shows_and_hides_the_students_hint_button(db_path: Path) -> None:
    """Class mode starts with hints off: Sam, to move against the AI, has no Hint
    button, and the teacher's switch reads "Hints: off". The teacher turns
    them on: the button appears on Sam's page and answers; off: it goes."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        sam = await web.person("sam")
        await sam.create_room("connect4", ai="easy")
        await expect(sam.room).to_have_attribute("data-status", "playing")
        await expect(sam.page.locator(".room-view.your-turn")).to_be_visible()
        await expect(sam.page.locator(".hint-bar")).to_be_hidden()
        desk = await open_teacher(web, teacher)
        switch = desk.page.locator("#hints-toggle")
        await expect(switch).to_have_text("Hints: off")
        await expect(switch).to_have_attribute("aria-checked", "false")
        await switch.click()
        await expect(switch).to_have_text("Hints: on")
        assert (await teacher.get("/api/admin/class"))["hints"] is True
        await sam.page.get_by_role("button", name="Hint").click()
        # The engine opens Connect Four in the middle column (its opening book).
        await expect(sam.room).to_have_attribute("data-hint", "4")
        await expect(sam.page.locator(".column.hint")).to_have_count(1)
        await switch.click()
        await expect(switch).to_have_text("Hints: off")
        await expect(sam.page.locator(".hint-bar")).to_be_hidden()
        await expect(sam.page.locator(".column.hint")).to_have_count(0)
