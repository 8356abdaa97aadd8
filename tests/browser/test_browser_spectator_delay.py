"""The spectator delay from the teacher's form to a spectator's page, in Chromium.

The teacher starts a tournament from the form with spectators 3 moves behind;
ann and bob (protocol players) play its game; eve watches it in the browser by
its watch code and sees the board three plies late, her page saying so, then
the whole game once it is over. Screenshots in /tmp/boardroom-spectator-delay.
"""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect
from test_browser_teacher import open_teacher

SCREENSHOTS = Path("/tmp/boardroom-spectator-delay")
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


async def test_the_forms_delay_reaches_a_spectators_page(db_path: Path) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        bob = await Player.join_server(web.server.ws_url, "bob")
        desk = await open_teacher(web, teacher)
        form = desk.page.locator("#new-tournament")
        delay = form.get_by_label("Moves behind that spectators see the games (0: live)")
        await expect(delay).to_have_value("2")
        await form.get_by_label("Name").fill("Friday")
        await form.locator("#tournament-game").select_option("tictactoe")
        await form.get_by_label("ann").check()
        await form.get_by_label("bob").check()
        await delay.fill("3")
        await delay.scroll_into_view_if_needed()
        await desk.page.screenshot(path=str(SCREENSHOTS / "form.png"))
        await form.get_by_role("button", name="Start the tournament").click()

        matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
        for name, player in (("ann", ann), ("bob", bob)):
            await player.request({"type": "join", "code": matches[name]["code"]})
        first, second = (ann, bob) if matches["ann"]["side"] == "first" else (bob, ann)
        room = matches["ann"]["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]

        for viewport, size in ((PROJECTOR, "1280x720"), (PHONE, "390x844")):
            eve = await web.open(f"/#/watch/{state['watch_code']}?spectator", viewport=viewport)
            await expect(eve.room).to_have_attribute("data-status", "playing")
            if size == "1280x720":
                for mover, text, ply in ((first, "b2", 0), (second, "a1", 1), (first, "c3", 2)):
                    await mover.request({"type": "move", "room": room, "move": text, "ply": ply})
                await second.request({"type": "move", "room": room, "move": "a3", "ply": 3})
            await expect(eve.room).to_have_attribute("data-ply", "1")
            await expect(eve.page.locator(".room-view")).to_contain_text("3 moves behind")
            await eve.page.screenshot(path=str(SCREENSHOTS / f"spectator-{size}.png"))

        await first.request({"type": "move", "room": room, "move": "a2", "ply": 4})
        await second.request({"type": "resign", "room": room})
        await expect(eve.room).to_have_attribute("data-status", "finished")
        await expect(eve.room).to_have_attribute("data-ply", "5")
        await expect(eve.page.locator(".room-view")).not_to_contain_text("moves behind")
        await eve.page.screenshot(path=str(SCREENSHOTS / "spectator-over.png"))
        for player in (ann, bob):
            await player.close()
