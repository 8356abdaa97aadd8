"""Who a student is, in Chromium on a real class server (issue 24): a join link
with a character changed says it is not valid and signs nobody in; a student
of the class has no "Change name" (the roster names them); a server busy with
new players is retried by the page until it lets the student in; the teacher's
roster of hundreds shows a page at a time.

Screenshots go to the test's temporary directory (printed), to be looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import WebPlayer, WebSession, stored, web_session
from classroom_helpers import Teacher, a_class_of
from harness import wait_until
from playwright.async_api import expect
from test_browser_teacher import open_teacher

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
NOT_VALID = "This link is not valid: ask your teacher for your card."
DASH = "\N{EN DASH}"  # the page writes a range of students as print does


async def accounts(teacher: Teacher, *names: str) -> list[dict[str, Any]]:
    made = await teacher.call("POST", "/api/admin/students", {"names": list(names)})
    assert made[0] == 201, made
    students: list[dict[str, Any]] = made[1]["students"]
    return students


def mistyped(link: str) -> str:
    """``link`` with one character of its key changed (``I`` read as ``l``)."""
    at = link.index("bp_") + 10
    return link[:at] + ("l" if link[at] != "l" else "I") + link[at + 1 :]


async def open_link(web: WebSession, link: str, viewport: dict[str, int]) -> WebPlayer:
    return await web.open("/" + link[link.index("#") :], viewport=viewport)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
async def test_a_mistyped_join_link_says_it_is_not_valid_and_adds_nobody(
    db_path: Path, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """Bob Smith's link with one character of its key changed: the page says
    "This link is not valid: ask your teacher for your card", shows no lobby
    and no name; the roster is still Bob Smith alone, not connected; the page
    kept neither the key nor the name, so a reload asks for a name rather than
    signing anyone in. His right link then works in the same browser."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        (bob,) = await accounts(teacher, "Bob Smith")
        student = await open_link(web, mistyped(bob["join_link"]), viewport)
        page = student.page
        notice = page.locator(".invalid-link")
        await expect(notice).to_be_visible()
        await expect(notice.locator("h1")).to_have_text("Your card's link did not work")
        await expect(notice).to_contain_text(NOT_VALID)
        await expect(page.locator(".lobby-view")).to_have_count(0)
        await expect(page.locator("#you")).to_be_hidden()
        box = await notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot = tmp_path / f"invalid-link-{viewport['width']}.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")

        roster = await teacher.get("/api/admin/roster")
        assert [(s["name"], s["connected"]) for s in roster["students"]] == [("Bob Smith", False)]
        assert roster["total"] == 1
        assert await stored(page, "boardroom.playerToken") is None
        assert await stored(page, "boardroom.name") is None
        assert "bp_" not in page.url

        await page.reload()
        await expect(page.locator("#name-input")).to_be_visible()
        assert (await teacher.get("/api/admin/roster"))["total"] == 1

        await page.goto("/" + bob["join_link"][bob["join_link"].index("#") :])
        await page.reload()  # a hash change alone would not load the page again
        await expect(page.locator(".lobby-view")).to_be_visible()
        await expect(page.locator("#player-name")).to_have_text("Bob Smith")
        rows = await wait_until(
            lambda: teacher.get("/api/admin/roster"),
            lambda roster: roster["students"][0]["connected"],
        )
        assert rows["total"] == 1


async def test_a_student_of_the_class_has_no_change_name_and_keeps_the_rosters_name(
    db_path: Path, tmp_path: Path
) -> None:
    """Zoë joins by typing her name: her page offers no "Change name". A browser
    that kept another name for her key ("xXdragonXx") is shown as Zoë, the
    roster's name, and keeps that name from then on. Outside class mode the
    page still offers "Change name"."""
    async with web_session(db_path, class_name="7B") as web:
        zoe = await web.person("Zoë")
        await expect(zoe.page.locator(".lobby-view")).to_be_visible()
        await expect(zoe.page.locator("#player-name")).to_have_text("Zoë")
        await expect(zoe.page.locator("#change-name")).to_be_hidden()
        shot = tmp_path / "no-change-name.png"
        await zoe.page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")

        await zoe.page.evaluate("() => localStorage.setItem('boardroom.name', 'xXdragonXx')")
        await zoe.page.reload()
        await expect(zoe.page.locator(".lobby-view")).to_be_visible()
        await expect(zoe.page.locator("#player-name")).to_have_text("Zoë")
        await expect(zoe.page.locator("#change-name")).to_be_hidden()
        assert await stored(zoe.page, "boardroom.name") == "Zoë"
        teacher = Teacher(web.server)
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Zoë"]


async def test_outside_class_mode_the_page_offers_change_name(db_path: Path) -> None:
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        await expect(ann.page.locator("#change-name")).to_be_visible()


async def test_a_server_busy_with_new_players_is_tried_again_until_it_lets_the_student_in(
    db_path: Path, tmp_path: Path
) -> None:
    """One new player per eight seconds from this address: Ann gets in; Bob's
    hello is refused rate_limited, and his page says the server is busy and
    tries again by itself after the server's retry_after: he gets in, with no
    click, and is on the roster once."""
    async with web_session(
        db_path, class_name="7B", new_players_per_address=1, new_player_seconds=8.0
    ) as web:
        ann = await web.person("Ann")
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        bob = await web.open("/", viewport=PHONE)
        await bob.class_code_settled()  # else the name may land in the class code
        await bob.page.get_by_label("Your name").fill("Bob")
        await bob.page.get_by_role("button", name="Enter").click()
        await expect(bob.banner).to_be_visible()
        await expect(bob.banner).to_contain_text("the server is busy")
        shot = tmp_path / "busy-390.png"
        await bob.page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        await expect(bob.page.locator(".lobby-view")).to_be_visible()
        await expect(bob.page.locator("#player-name")).to_have_text("Bob")
        await expect(bob.banner).to_be_hidden()
        roster = (await Teacher(web.server).get("/api/admin/roster"))["students"]
        assert sorted(s["name"] for s in roster) == ["Ann", "Bob"]


async def test_the_teachers_roster_of_hundreds_shows_a_page_at_a_time(
    db_path: Path, tmp_path: Path
) -> None:
    """450 students: the roster shows the first 200, says which and of how many,
    and pages with Next and Previous (Previous off on the first page, Next off
    on the last); the count says 450. (The class is stored before the server
    starts, as the API's bulk add stores it but without the 450 class codes'
    scrypt, which took most of this test's time: the roster never shows them.)"""
    await a_class_of(db_path, 450, name="student {n:03d}")
    async with web_session(db_path, class_name="7B", http_rate=0) as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        page = desk.page
        rows = page.locator(".roster tbody tr")
        pages = page.locator(".roster-pages")
        await expect(rows).to_have_count(200)
        await expect(pages.locator(".page-of")).to_have_text(f"Students 1{DASH}200 of 450")
        await expect(page.locator(".roster-panel .updated")).to_have_text("450 on the roster")
        previous = pages.get_by_role("button", name="Previous")
        following = pages.get_by_role("button", name="Next")
        await expect(previous).to_be_disabled()
        await expect(rows.first).to_have_attribute("data-name", "student 000")

        await following.click()
        await expect(pages.locator(".page-of")).to_have_text(f"Students 201{DASH}400 of 450")
        await expect(rows.first).to_have_attribute("data-name", "student 200")
        await following.click()
        await expect(pages.locator(".page-of")).to_have_text(f"Students 401{DASH}450 of 450")
        await expect(rows).to_have_count(50)
        await expect(following).to_be_disabled()
        await pages.scroll_into_view_if_needed()
        await expect_one_line(pages)
        form = page.locator(".entrant-list[aria-label=Students] .entrant")
        await expect(form).to_have_count(200)  # the roster's first page, whatever page it shows
        await expect(form.first).to_have_text(" student 000")
        await expect(page.locator("#more-students")).to_have_text(
            "Only the roster's first 200 of its 450 students are listed here."
        )
        shot = tmp_path / "roster-pages.png"
        await page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        await previous.click()
        await expect(pages.locator(".page-of")).to_have_text(f"Students 201{DASH}400 of 450")


async def expect_one_line(pager: Any) -> None:
    """The pager's text and its buttons in one size on one line: their middles
    within a pixel of each other, so that the words sit on the buttons' baseline."""
    placed = await pager.evaluate(
        """nav => [...nav.children].map(el => {
            const box = el.getBoundingClientRect();
            return [box.top + box.height / 2, getComputedStyle(el).fontSize];
        })"""
    )
    middles = [middle for middle, _ in placed]
    assert max(middles) - min(middles) <= 1, placed
    assert len({size for _, size in placed}) == 1, placed
