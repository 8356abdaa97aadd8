"""The teacher's page (``/teacher#token=...``) in Chromium, against a real server
in class mode.

The teacher works the page as a teacher would (clicks, typing); the students
are web clients in their own browser contexts or plain protocol players
(:class:`harness.Player`); what the pages show is checked against the admin
API (:class:`classroom_helpers.Teacher`) and the stored games.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebPlayer, WebSession, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect

GRID = [f"{column}{row}" for row in (2, 1, 3) for column in "bac"]
"""A student's way of choosing a tic-tac-toe cell: the middle row first."""


async def first_free_cell(student: WebPlayer) -> str:
    for cell in GRID:
        classes = await student.cell(cell).get_attribute("class") or ""
        if "first" not in classes and "second" not in classes:
            return cell
    raise AssertionError("every cell is taken, yet the game goes on")


async def open_teacher(
    web: WebSession, teacher: Teacher, *, refusals: tuple[int, ...] = ()
) -> WebPlayer:
    """The teacher's page, once it shows the class. ``refusals``: the HTTP error
    statuses the test makes the API answer (Chromium logs each as an error)."""
    desk = await web.open(f"/teacher#token={teacher.token}", allowed_statuses=refusals)
    await expect(desk.page.locator(".class-name")).to_have_text("Class 7B")
    return desk


async def test_pause_and_resume_reach_the_students_page_and_the_wall(db_path: Path) -> None:
    """Sam plays the AI in the browser. The teacher clicks Pause: Sam's board says
    "Paused by the teacher", the move he clicks is held (not played), and the
    wall says paused. The teacher clicks Resume: the held move is played, the AI
    answers, and Sam finishes the game."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        sam = await web.person("sam")
        await sam.create_room("tictactoe", ai="random")
        await expect(sam.room).to_have_attribute("data-status", "playing")
        assert await sam.data("you") == "first"
        desk = await open_teacher(web, teacher)
        wall = await web.open(f"/wall#token={teacher.token}")
        await expect(wall.page.locator(".tile")).to_have_count(1)
        await expect(wall.page.locator("#wall-paused")).to_be_hidden()

        toggle = desk.page.locator("#pause-toggle")
        await expect(toggle).to_have_text("Pause all games")
        await toggle.click()
        await expect(toggle).to_have_text("Resume all games")
        await expect(desk.page.locator(".pause-state")).to_have_text("All games are paused")
        await expect(sam.page.locator(".lesson-paused")).to_be_visible()
        await expect(sam.page.locator(".lesson-paused strong")).to_have_text(
            "Paused by the teacher"
        )
        await expect(sam.room).to_have_attribute("data-paused", "true")
        await expect(sam.turn).to_have_text("Paused")  # not "Your move": nobody may move
        await expect(wall.page.locator("#wall-paused")).to_have_text("Paused by the teacher")
        await expect(wall.page.locator(".tile")).to_have_attribute("data-paused", "true")

        await sam.cell("b2").click()
        await expect(sam.room).to_have_attribute("data-held", "b2")
        await expect(sam.page.locator(".held-move")).to_have_text(
            "Your move b2 is held: it is played when the game resumes"
        )
        assert await sam.data("ply") == "0"
        (room,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert (room["moves"], room["paused"]) == ("", True)

        await toggle.click()
        await expect(toggle).to_have_text("Pause all games")
        await expect(sam.page.locator(".lesson-paused")).to_be_hidden()
        await expect(sam.room).to_have_attribute("data-moves", re.compile(r"^b2 [a-c][1-3]"))
        await expect(wall.page.locator("#wall-paused")).to_be_hidden()
        while await sam.wait_turn():
            await sam.play(await first_free_cell(sam))
        record = await web.server.get_json("/api/games/1")
        assert record["state"] == "finished"
        assert record["move_string"].startswith("b2 ")
        await expect(wall.page.locator(".tile")).to_have_attribute("data-status", "finished")


async def test_the_teacher_renames_marks_a_bot_and_removes_a_student(db_path: Path) -> None:
    """Rename in place (a bad name is refused in the row and changes nothing),
    mark as a bot, and remove with a second click: the removed student's page
    says so and does not come back."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        await Player.join_server(web.server.ws_url, "cat")
        bob = await web.person("bob")
        desk = await open_teacher(web, teacher, refusals=(400,))
        cat_id = await teacher.student_id("cat")
        bob_id = await teacher.student_id("bob")
        cat_row = desk.page.locator(f"tr[data-student='{cat_id}']")
        bob_row = desk.page.locator(f"tr[data-student='{bob_id}']")
        await expect(cat_row).to_have_attribute("data-name", "cat")

        await cat_row.get_by_role("button", name="Rename cat").click()
        name_box = cat_row.get_by_label("New name for cat")
        await name_box.fill("   ")
        await name_box.press("Enter")
        await expect(cat_row.locator(".form-error")).to_have_text(
            "Name is empty: choose 1 to 32 characters"
        )
        assert (await teacher.student_id("cat")) == cat_id  # unchanged
        await name_box.fill("Catherine")
        await cat_row.get_by_role("button", name="Save").click()
        await expect(cat_row.locator(".student-name")).to_have_text("Catherine")
        await expect(cat_row.locator(".form-error")).to_be_hidden()
        assert await teacher.student_id("Catherine") == cat_id

        await cat_row.get_by_label("Catherine plays as").select_option("bot")
        await expect(cat_row).to_have_attribute("data-kind", "bot")
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert {s["name"]: s["kind"] for s in roster} == {"Catherine": "bot", "bob": "human"}

        remove = bob_row.get_by_role("button", name="Remove bob")
        await remove.click()
        await expect(remove).to_have_text("Click again")
        await remove.click()
        await expect(bob_row).to_have_count(0)
        await expect(bob.page.locator(".removed-view h1")).to_have_text("Removed by the teacher")
        await expect(bob.page.locator("body")).to_have_attribute("data-connection", "removed")
        await expect(bob.banner).to_contain_text("The teacher removed you from the class")
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Catherine"]
        summary = await teacher.get("/api/admin/class")
        assert summary["connected"] == 1  # bob's page did not connect again


async def test_broadcast_close_a_room_and_export_from_the_page(db_path: Path) -> None:
    """A broadcast says how many it reached and stays on a student's page until
    dismissed (the newest two of them); a blank one is refused beside the box.
    Closing a room (second click, which still counts after the page's
    refreshes, on a button that did not change width when armed) sends its
    player back to the lobby, told why. results.csv downloads with its header
    line."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe", ai="random")
        await Player.join_server(web.server.ws_url, "cat")
        desk = await open_teacher(web, teacher, refusals=(400,))
        page = desk.page

        await page.get_by_label("Message to everyone").fill("   ")
        await page.get_by_role("button", name="Send").click()
        await expect(page.locator(".broadcast .form-error")).to_have_text(
            "Text is blank: write 1 to 500 characters"
        )
        await page.get_by_label("Message to everyone").fill("Ten minutes left")
        await page.get_by_role("button", name="Send").click()
        await expect(page.locator(".broadcast [role=status]")).to_have_text("Sent to 2 connections")
        await expect(page.locator(".broadcast .form-error")).to_be_hidden()
        pinned = ann.page.locator("#pinned .pinned.announcement")
        await expect(pinned).to_have_count(1)
        await expect(pinned.locator(".pinned-text")).to_have_text("Ten minutes left")
        for text in ("Five minutes left", "Time to stop"):  # the newest two stay
            await teacher.post("/api/admin/broadcast", {"text": text})
        await expect(pinned.locator(".pinned-text")).to_have_text(
            ["Five minutes left", "Time to stop"]
        )

        close = page.get_by_role("button", name=f"Close room {code}")
        width = (await close.bounding_box() or {})["width"]
        await close.click()
        await expect(close).to_have_text("Click again")
        assert (await close.bounding_box() or {})["width"] == width  # not moved off the pointer
        for _ in range(2):  # the page refreshes (every 2 s): the button stays armed
            async with page.expect_response(re.compile(r"/api/admin/rooms$")):
                pass
        await expect(close).to_have_text("Click again")
        await close.click()
        await expect(page.locator(f".rooms tr[data-room='{code}']")).to_have_count(0)
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        # Other notices may stand before it (under load, "your game has started"
        # can come before the room's view opened): look for this one by its text.
        closed = f"Room {code} (Tic-tac-toe) closed: closed by the teacher"
        await expect(ann.page.locator(".notice").filter(has_text=closed)).to_have_count(1)
        assert (await teacher.get("/api/admin/rooms"))["rooms"] == []
        await expect(pinned).to_have_count(2)  # the announcements are still there
        await pinned.first.get_by_role("button", name="Dismiss").click()
        await expect(pinned).to_have_count(1)

        async with page.expect_download() as download_info:
            await page.get_by_role("button", name="Download results.csv").click()
        download = await download_info.value
        assert download.suggested_filename == "results.csv"
        saved = Path(await download.path())
        header = saved.read_text(encoding="utf-8-sig").splitlines()[0]
        assert header == (
            "id,finished_at,game,room,first_player,second_player,result,termination,"
            "moves,first_student,second_student,tournament,round,first_accuracy,"
            "second_accuracy,first_blunders,second_blunders,first_hints,second_hints"
        )
        await expect(page.locator(".class-panel .form-error")).to_have_count(3)
        await expect(page.locator(".class-panel .form-error:visible")).to_have_count(0)


async def test_a_wrong_or_missing_token_shows_only_what_to_do(db_path: Path) -> None:
    """The page with a wrong token says the link is wrong, without a token says
    it needs the teacher's link; neither shows any control."""
    async with web_session(db_path, class_name="7B") as web:
        wrong = await web.open("/teacher#token=not-the-token", allowed_statuses=(401,))
        await expect(wrong.page.locator(".teacher-message h1")).to_have_text("Wrong link")
        await expect(wrong.page.locator(".teacher-message p")).to_contain_text(
            "not the teacher's token"
        )
        await expect(wrong.page.locator("#pause-toggle")).to_have_count(0)
        await expect(wrong.page.locator("#links")).to_be_hidden()

        none = await web.open("/teacher")
        await expect(none.page.locator(".teacher-message h1")).to_have_text(
            "This page needs the teacher's link"
        )
        await expect(none.page.locator("#pause-toggle")).to_have_count(0)


async def test_a_finished_game_has_a_review_link_for_the_projector(db_path: Path) -> None:
    """Ann and Bob finish a game and stay in their room: its row on the teacher's
    page, under "Finished", links the game's review (opening in a new tab, for
    the projector)."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(web.server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        desk = await open_teacher(web, teacher)
        row = desk.page.locator(f".rooms tr[data-room='{code}']")
        review = row.get_by_role("link", name=f"Review the last game in room {code}")
        await expect(row).to_have_attribute("data-status", "playing")
        await expect(review).to_be_hidden()
        for ply, cell in enumerate(["a1", "a2", "b1", "b2", "c1"]):
            await (ann, bob)[ply % 2].request({"type": "move", "room": code, "move": cell})
        over = await ann.expect("game_over")
        await expect(row).to_have_attribute("data-status", "finished")
        await desk.page.locator(".finished-rooms summary").click()  # finished rooms are folded
        await expect(review).to_have_attribute("href", f"/#/review/{over['game_id']}")
        await expect(review).to_have_attribute("target", "_blank")
