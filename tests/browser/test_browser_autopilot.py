"""The engine autopilot in Chromium (issue 31 §1): the seat of a player whose
grace window ran out reads "AI for bob (medium)", the log says the AI plays for
him, and the review badges the moves the engine made for him. Screenshots in
/tmp/boardroom-autopilot, at a projector's and a phone's size."""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from harness import Player
from playwright.async_api import expect

SHOTS = Path("/tmp/boardroom-autopilot")
SIZES = {
    "projector": {"width": 1280, "height": 720},
    "small-projector": {"width": 1024, "height": 768},
    "phone": {"width": 390, "height": 844},
}


async def test_the_page_shows_the_ai_playing_for_a_dropped_player_and_the_review_marks_it(
    db_path: Path,
) -> None:
    """Ann (in the browser) plays Bob (a protocol client) on a server with
    ``--autopilot medium`` and a short window. Bob drops on his turn; when the
    window runs out Ann's page names his seat "AI for bob (medium)", without a
    countdown, and says so in the log; Ann plays to the end against the engine;
    the review badges exactly Bob's moves "AI"."""
    SHOTS.mkdir(exist_ok=True)
    async with web_session(db_path, grace_seconds=0.3, autopilot="medium") as web:
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await Player.join_server(web.server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": code}))["type"] == "state"
        await ann.play("b2")
        await bob.close()

        seat = ann.page.locator(".seats li").nth(1)
        await expect(seat).to_contain_text("AI for bob (medium)")
        await expect(seat.locator(".seat-presence")).to_have_text("")
        await expect(ann.chat_log()).to_contain_text("The AI plays for O bob until they come back")
        for size, viewport in SIZES.items():
            await ann.page.set_viewport_size(viewport)
            await ann.page.screenshot(path=SHOTS / f"room-{size}.png")
        await ann.page.set_viewport_size(SIZES["projector"])

        while await ann.wait_turn():
            free = ann.page.locator(".cell:not(.first):not(.second)").first
            await ann.play(await free.get_attribute("data-cell") or "")
        plies = len((await ann.data("moves")).split())
        await ann.page.get_by_role("link", name="Review this game").click()
        await expect(ann.page.locator(".review-move")).to_have_count(plies)
        badges = ann.page.locator(".review-moves li:has(.autopilot-badge)")
        await expect(badges).to_have_count(plies // 2)
        for index in range(plies // 2):
            await expect(badges.nth(index)).to_have_attribute("data-ply", str(2 * index + 1))
        await expect(badges.first.locator(".autopilot-badge")).to_have_text("AI")
        await ann.page.screenshot(path=SHOTS / "review-projector.png")
