"""The teacher's autopilot choice on the teacher's page (issue 31), in Chromium
on a real class server: the class's choice under the pause and hints, and the
tournament form's, which starts on the class's; the tournament started with it
says which it has. At the projectors' 1280x720 and 1024x768 and a phone's
390x844 the new controls stay inside their panels and the window (at the
projectors' sizes the page does not scroll sideways). Screenshots in
/tmp/boardroom-teacher-autopilot.
"""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import Page, expect
from test_browser_teacher import open_teacher
from test_browser_teacher_layout import outside_their_panel

SCREENSHOTS = Path("/tmp/boardroom-teacher-autopilot")
SIZES = [
    {"width": 1280, "height": 720},
    {"width": 1024, "height": 768},
    {"width": 390, "height": 844},
]


NEW = "#class-autopilot, label[for=class-autopilot], #field-autopilot, label[for=field-autopilot]"
"""The autopilot's controls and their labels, and the tournament's line that names it."""


async def _fits(page: Page, viewport: dict[str, int]) -> None:
    """The autopilot's controls, their labels and the tournament's line naming
    it inside the window and inside their panel; at the projectors' sizes the
    whole page too (on a phone the tournament's and the roster's tables are
    wider than the screen already, as they were before)."""
    where = f"{viewport['width']}x{viewport['height']}"
    outside: list[str] = await page.evaluate(
        """([selector, width]) => [...document.querySelectorAll(selector)]
            .filter(el => el.offsetParent !== null)
            .filter(el => {
                const box = el.getBoundingClientRect();
                const panel = el.closest('.panel').getBoundingClientRect();
                return box.left < 0 || box.right > Math.min(width, panel.right) + 0.5;
            })
            .map(el => `${el.tagName}#${el.id}: ${el.textContent.slice(0, 30)}`)""",
        [f"{NEW}, .tournament-settings", viewport["width"]],
    )
    assert outside == [], where
    if viewport["width"] >= 1024:
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{where}: the page scrolls sideways: {width} px"
        assert await outside_their_panel(page) == [], where


async def test_the_teacher_chooses_the_autopilot_for_the_class_and_a_tournament(
    db_path: Path,
) -> None:
    """The class's list starts on the server's choice (off) and sets the class's
    autopilot (the API says so); the tournament form's first choice names the
    class's; a tournament started with "hard" says "AI for a player who leaves a
    game: hard" under its line, and the API stored it."""
    SCREENSHOTS.mkdir(exist_ok=True)
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        players = [await Player.join_server(web.server.ws_url, n) for n in ("ann", "bob")]
        desk = await open_teacher(web, teacher)
        page = desk.page
        chosen = page.get_by_label("AI for a student who leaves a game")
        await expect(chosen).to_have_value("off")
        await expect(chosen.locator("option:checked")).to_have_text("Off: they lose the game")
        await chosen.select_option("easy")
        await expect(page.locator("body")).to_have_attribute("data-autopilot", "easy")
        assert (await teacher.get("/api/admin/class"))["autopilot"] == "easy"

        form = page.locator("#new-tournament")
        in_form = form.get_by_label("AI for a player who leaves a game")
        await expect(in_form).to_have_value("class")
        await expect(in_form.locator("option:checked")).to_have_text("The class's choice (easy)")
        await form.get_by_label("Name").fill("Friday")
        await form.locator("#tournament-game").select_option("tictactoe")
        await form.get_by_label("ann").check()
        await form.get_by_label("bob").check()
        await in_form.select_option("hard")
        for viewport in SIZES:
            where = f"{viewport['width']}x{viewport['height']}"
            await page.set_viewport_size(viewport)
            await chosen.scroll_into_view_if_needed()
            await page.locator(".class-panel").screenshot(
                path=str(SCREENSHOTS / f"class-{where}.png")
            )
            await in_form.scroll_into_view_if_needed()
            await form.screenshot(path=str(SCREENSHOTS / f"form-{where}.png"))
            await _fits(page, viewport)

        await form.get_by_role("button", name="Start the tournament").click()
        settings = page.locator(".tournament-settings")
        await expect(settings).to_have_text("AI for a player who leaves a game: hard")
        (cup,) = (await teacher.get("/api/admin/tournaments"))["tournaments"]
        assert cup["autopilot"] == "hard"
        for viewport in SIZES:
            where = f"{viewport['width']}x{viewport['height']}"
            await page.set_viewport_size(viewport)
            await settings.scroll_into_view_if_needed()
            await page.locator(".tournament-panel").screenshot(
                path=str(SCREENSHOTS / f"tournament-{where}.png")
            )
            await _fits(page, viewport)
        for player in players:
            await player.close()
