"""Fair play on the pages, in Chromium: the spectator delay from the teacher's
form to a spectator's page, and the "Worth a look" list on the teacher's page.

The teacher starts a tournament from the form with spectators 3 moves behind;
ann and bob (protocol players) play its game; eve watches it in the browser by
its watch code and sees the board three plies late, her page saying so, then
the whole game once it is over. Screenshots in /tmp/boardroom-spectator-delay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import LAPTOP, web_session
from classroom_helpers import Teacher
from harness import Player, wait_until
from playwright.async_api import expect
from test_browser_teacher import open_teacher
from tournament_helpers import WAIT, engine_copier_tournament

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


async def test_a_delay_in_seconds_from_the_form_reaches_a_spectators_page(db_path: Path) -> None:
    """The teacher gives 30 seconds instead of moves in the form; eve, watching
    on a phone, reads "30 seconds behind" and her board stays at the start
    after the first move (which the players have at once)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        bob = await Player.join_server(web.server.ws_url, "bob")
        desk = await open_teacher(web, teacher)
        form = desk.page.locator("#new-tournament")
        await form.get_by_label("Name").fill("Quick")
        await form.locator("#tournament-game").select_option("tictactoe")
        await form.get_by_label("ann").check()
        await form.get_by_label("bob").check()
        await form.get_by_label("Or seconds behind instead (0: by moves)").fill("30")
        await form.get_by_role("button", name="Start the tournament").click()
        matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
        for name, player in (("ann", ann), ("bob", bob)):
            await player.request({"type": "join", "code": matches[name]["code"]})
        first, second = (ann, bob) if matches["ann"]["side"] == "first" else (bob, ann)
        room = matches["ann"]["room"]
        state = (await first.request({"type": "get_state", "room": room}))["room"]

        eve = await web.open(f"/#/watch/{state['watch_code']}?spectator", viewport=PHONE)
        await expect(eve.room).to_have_attribute("data-status", "playing")
        await expect(eve.page.locator(".room-view")).to_contain_text("30 seconds behind")
        await first.request({"type": "move", "room": room, "move": "b2", "ply": 0})
        await second.expect("moved")
        await expect(eve.room).to_have_attribute("data-ply", "0")
        await eve.page.screenshot(path=str(SCREENSHOTS / "spectator-seconds-390x844.png"))
        await second.request({"type": "resign", "room": room})
        await expect(eve.room).to_have_attribute("data-status", "finished")
        await expect(eve.room).to_have_attribute("data-ply", "1")
        await expect(eve.page.locator(".room-view")).not_to_contain_text("seconds behind")
        for player in (ann, bob):
            await player.close()


async def test_the_teachers_page_lists_a_student_who_copied_the_engine(db_path: Path) -> None:
    """Cleo copied the perfect engine in the tournament and played badly before:
    once the analyses are in, the finished tournament's panel lists her under
    "Worth a look" with her numbers and links to her games' reviews; a
    student's page never asks for the list."""
    SCREENSHOTS.mkdir(exist_ok=True)
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        tournament_id, ids, players = await engine_copier_tournament(web.server)
        path = f"/api/admin/tournaments/{tournament_id}/worth-a-look"

        def analysed(body: dict[str, Any]) -> bool:
            listed = body["worth_a_look"]
            return bool(listed) and len(listed[0]["games"]) + len(listed[0]["usual_games"]) == 6

        (found,) = (await wait_until(lambda: teacher.get(path), analysed, timeout=WAIT))[
            "worth_a_look"
        ]
        for viewport, size in ((PROJECTOR, "1280x720"), (LAPTOP, "1366x768")):
            desk = await web.open(f"/teacher#token={teacher.token}", viewport=viewport)
            look = desk.page.locator(".tournament .worth-a-look")
            await expect(look).to_be_visible()
            item = look.locator(f"li[data-student='{ids['cleo']}']")
            await expect(item).to_contain_text("cleo")
            await expect(item).to_contain_text(
                f"in 4 tournament games, {found['usual_accuracy']:g} in 2 other games; "
                "100% of their moves as good as the engine's"
            )
            await expect(item.locator("a.review-link")).to_have_count(6)
            await expect(look.locator("li")).to_have_count(1)  # not dan
            await look.scroll_into_view_if_needed()
            await desk.page.screenshot(path=str(SCREENSHOTS / f"worth-a-look-{size}.png"))
        for player in players:
            await player.close()
