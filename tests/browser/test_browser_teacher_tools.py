"""The teacher's page's tools for a lesson, in Chromium against a real class server:
each room's Watch link (a tab that only watches), finished rooms folded under
"Finished", the tournament form's "All students" and its rounds hints (with
the roster's order kept across a restart), and bot tokens made, copied and
revoked from the page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from browser import WebPlayer, WebSession, web_session
from classroom_helpers import Teacher
from harness import Player, running_server
from playwright.async_api import expect

SHOTS = os.environ.get("BOARDROOM_SHOTS")
"""A folder for screenshots of what these tests see, to look at; none if unset."""


async def open_teacher(web: WebSession, teacher: Teacher, **sizes: Any) -> WebPlayer:
    """The teacher's page, once it shows the class."""
    desk = await web.open(f"/teacher#token={teacher.token}", **sizes)
    await expect(desk.page.locator(".class-name")).to_have_text("Class 7B")
    return desk


async def shot(person: WebPlayer, name: str) -> None:
    if SHOTS:
        await person.page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


async def test_watch_opens_a_room_in_a_tab_that_only_watches_and_finished_rooms_fold(
    db_path: Path,
) -> None:
    """Each room's Watch link opens it in a new tab as a spectator: no name asked,
    no player kept in the browser, nobody new on the roster; a private room is
    watched by its join code. A room whose game is over leaves the list for
    the folded "Finished (1)", which opens on a click and stays open."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        public = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(web.server.ws_url, "bob")
        await bob.request({"type": "join", "code": public})
        cy = await Player.join_server(web.server.ws_url, "cy")
        made = await cy.request({"type": "create_room", "game": "connect4", "public": False})
        private, join_code = made["room"]["code"], made["room"]["join_code"]
        desk = await open_teacher(web, teacher)
        page = desk.page

        watch = page.get_by_role("link", name=f"Watch room {public}")
        await expect(watch).to_have_attribute("href", f"/#/watch/{public}?spectator")
        await expect(watch).to_have_attribute("target", "_blank")
        private_watch = page.get_by_role("link", name=f"Watch room {private}")
        await expect(private_watch).to_have_attribute("href", f"/#/watch/{join_code}?spectator")
        await shot(desk, "teacher-rooms-watch")

        async with page.context.expect_page() as opened:
            await watch.click()
        tab = WebPlayer(await opened.value, web.base_url)
        await expect(tab.room).to_have_attribute("data-status", "playing")
        assert await tab.data("you") == ""  # watching, no seat
        await expect(tab.page.locator(".name-view")).to_have_count(0)  # no name was asked
        await expect(tab.page.locator("#you")).to_contain_text("Watching as Teacher")
        await expect(page.locator(f".rooms tr[data-room='{public}']")).to_contain_text("1 watching")
        kept = await tab.page.evaluate("localStorage.getItem('boardroom.playerToken')")
        assert kept is None
        await tab.page.reload()  # still a spectator's tab
        await expect(tab.room).to_have_attribute("data-status", "playing")
        await shot(tab, "teacher-watch-tab")
        names = [s["name"] for s in (await teacher.get("/api/admin/roster"))["students"]]
        assert names == ["ann", "bob", "cy"]

        async with page.context.expect_page() as opened:
            await private_watch.click()
        second = WebPlayer(await opened.value, web.base_url)
        await expect(second.room).to_have_attribute("data-status", "waiting")
        assert await second.data("you") == ""

        for ply, cell in enumerate(["a1", "a2", "b1", "b2", "c1"]):
            await (ann, bob)[ply % 2].request({"type": "move", "room": public, "move": cell})
        await ann.expect("game_over")
        finished = page.locator(".finished-rooms")
        row = page.locator(f"tr[data-room='{public}']")
        await expect(finished.locator("summary")).to_have_text("Finished (1)")
        await expect(row).to_be_hidden()  # folded
        await expect(page.locator(".rooms-panel > table.rooms tr[data-room]")).to_have_count(1)
        await finished.locator("summary").click()
        await expect(row).to_be_visible()
        await expect(row).to_have_attribute("data-status", "finished")
        async with page.expect_response(re.compile(r"/api/admin/rooms$")):
            pass  # a refresh keeps it open
        await expect(row).to_be_visible()
        await shot(desk, "teacher-rooms-finished")
        await expect(tab.turn).to_contain_text("wins")
        for player in (ann, bob, cy):
            await player.close()


async def test_all_students_and_the_rounds_hints_with_the_roster_order_after_a_restart(
    db_path: Path,
) -> None:
    """Five students added at once, on a server that was stopped since: the
    form lists them in the order they were added. "All students" ticks them
    all (and clears them); the hints say how many rounds the players ticked
    make, and a Swiss started with the field blank has that many."""
    added = ["Zoë", "Ann", "Mo", "Dmitri", "Bea"]
    async with running_server(db_path, class_name="7B") as first:
        status, made, _ = await Teacher(first).call("POST", "/api/admin/students", {"names": added})
        assert status == 201 and [s["name"] for s in made["students"]] == added
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher, viewport={"width": 1280, "height": 720})
        page = desk.page
        students = page.locator(".entrant-list[aria-label=Students] .entrant")
        await expect(students).to_have_text([f" {name}" for name in added])
        swiss_hint = page.locator("#swiss-rounds-hint")
        robin_hint = page.locator("#robin-rounds-hint")
        await expect(robin_hint).to_have_text("Tick the players to see how many rounds they make.")

        every = page.get_by_label("All students")
        await every.check()
        boxes = students.locator("input")
        for index in range(len(added)):
            await expect(boxes.nth(index)).to_be_checked()
        odd = "one player sits out each round"
        await expect(robin_hint).to_have_text(f"5 players: 5 rounds, {odd}.")
        await page.get_by_label("Double: every pair plays twice, sides swapped").check()
        await expect(robin_hint).to_have_text(f"5 players: 10 rounds, {odd}.")
        await boxes.nth(1).uncheck()
        assert await every.evaluate("box => box.indeterminate")
        await expect(robin_hint).to_have_text("4 players: 6 rounds.")
        await every.check()  # from some to all
        await page.get_by_label("AI (easy)").check()
        await expect(robin_hint).to_have_text("6 players: 10 rounds.")

        await page.get_by_label("Swiss: a few rounds, equal scores meet").check()
        await expect(robin_hint).to_be_hidden()
        await expect(swiss_hint).to_have_text(
            "Recommended for 6 players: 3 rounds (enough to find a winner)."
        )
        await page.get_by_label("AI (easy)").uncheck()
        await every.uncheck()
        for index in range(len(added)):
            await expect(boxes.nth(index)).not_to_be_checked()
        await expect(swiss_hint).to_have_text(
            "Tick the players to see the recommended number of rounds."
        )
        await every.check()
        await expect(swiss_hint).to_have_text(
            "Recommended for 5 players: 3 rounds (enough to find a winner)."
        )
        await shot(desk, "teacher-tournament-form")
        await page.locator("#tournament-name").fill("Friday cup")
        await page.get_by_role("button", name="Start the tournament").click()
        await expect(page.locator(".tournament-name")).to_have_text("Friday cup")
        (tournament,) = (await teacher.get("/api/admin/tournaments"))["tournaments"]
        assert (tournament["format"], tournament["rounds"]) == ("swiss", 3)


async def test_a_bot_token_is_made_copied_and_revoked_from_the_page(db_path: Path) -> None:
    """The teacher names a bot: its token shows once, with Copy; a bot saying
    hello with it is that player. A bad name is refused beside the form and
    makes nothing. Revoke (two clicks) closes the bot's connection, and the
    token opens nothing more."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await web.open(f"/teacher#token={teacher.token}", allowed_statuses=(400,))
        page = desk.page
        await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        panel = page.locator(".bots-panel")
        name = panel.get_by_label("The bot's name")
        await name.fill("   ")
        await panel.get_by_role("button", name="Make a token").click()
        await expect(panel.locator(".form-error").first).to_have_text(
            "Name is empty: choose 1 to 32 characters"
        )
        await expect(panel.locator(".bot-token-item")).to_have_count(0)

        await name.fill("annbot")
        await panel.get_by_role("button", name="Make a token").click()
        item = panel.locator(".bot-token-item")
        await expect(item).to_have_count(1)
        await expect(panel.locator("form .form-error")).to_be_hidden()
        await expect(name).to_have_value("")
        token = await item.locator(".bot-token").input_value()
        assert token.startswith("bp_")
        await item.get_by_role("button", name="Copy the token of annbot").click()
        await expect(item.locator("[role=status]")).to_have_text("Copied")
        assert await page.evaluate("navigator.clipboard.readText()") == token
        await shot(desk, "teacher-bot-token")

        bot = await Player.connect(web.server.ws_url)
        hello = {"type": "hello", "name": "annbot", "version": 2, "client": "bot"}
        welcome = await bot.request({**hello, "player_token": token})
        assert welcome["type"] == "welcome", welcome
        assert welcome["player_id"] == await item.get_attribute("data-player")

        revoke = item.get_by_role("button", name="Revoke the token of annbot")
        await revoke.click()
        await expect(revoke).to_have_text("Click again")
        await revoke.click()
        await expect(item).to_have_attribute("data-revoked", "true")
        await expect(item.locator(".bot-state")).to_have_text("revoked: its token opens nothing")
        await expect(item.locator(".bot-token")).to_have_value("")
        assert await bot.closed() == 4004
        again = await Player.connect(web.server.ws_url)
        refused = await again.request({**hello, "player_token": token})
        assert (refused["type"], refused["code"]) == ("error", "player_token_revoked")
