"""Class accounts in Chromium, on a real server in class mode: the teacher adds
students on the teacher's page and gets the sheet of their join links; a
student's browser opening a link is that student (no name asked, the token
moved from the address to localStorage); the teacher merges two roster entries
that are one person.

A join link is ``http://HOST:PORT/#/account/TOKEN?name=NAME``; the tests open
its fragment on the server under test, as a student's browser would."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from browser import WebPlayer, WebSession, stored, web_session
from classroom_helpers import Teacher
from harness import wait_until
from playwright.async_api import Dialog, Locator, Page, expect
from test_browser_players import player_id, stored_player_token
from test_browser_teacher import open_teacher

JOIN_LINK = re.compile(r"/#/account/(bp_[A-Za-z0-9_-]{43})\?name=")
CARD_NOTE = (
    "Scan the code or open the link: it is your key, keep it to yourself. "
    "Or type your class code on the start page."
)


async def add_students(desk: WebPlayer, names: str) -> None:
    """Paste ``names`` into "Add students" and click the button."""
    await desk.page.get_by_label("Names, one per line").fill(names)
    await desk.page.get_by_role("button", name="Add students").click()


async def card_links(desk: WebPlayer) -> dict[str, str]:
    """The sheet's join links by student name, once it shows."""
    cards = desk.page.locator(".account-card")
    await expect(cards.first).to_be_visible()
    links = {}
    for card in await cards.all():
        name = await card.locator(".card-name").inner_text()
        links[name] = await card.locator(".card-link").inner_text()
    return links


async def open_link(web: WebSession, link: str) -> WebPlayer:
    """A new browser (its own storage) opening the join link ``link``."""
    return await web.open("/" + link[link.index("#") :])


async def roster_rows(teacher: Teacher, name: str) -> list[dict[str, Any]]:
    return [s for s in (await teacher.get("/api/admin/roster"))["students"] if s["name"] == name]


async def answer_confirm(page: Page, button: Locator, *, accept: bool) -> str:
    """Click ``button``, answer the confirm() it opens; the question asked."""
    asked: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def answer(dialog: Dialog) -> None:
        asked.set_result(dialog.message)
        await (dialog.accept() if accept else dialog.dismiss())

    page.once("dialog", answer)
    await button.click()
    return await asyncio.wait_for(asked, timeout=10)


async def stored_name(page: Page) -> str | None:
    return await stored(page, "boardroom.name")


async def test_a_student_opens_the_join_link_from_the_sheet_and_is_that_student(
    db_path: Path,
) -> None:
    """The teacher pastes three names (a blank line and spaces around a name are
    left out): the sheet shows a card for each, with the link in full and what
    to do with it, and says the links show only now. The link opened in a
    browser connects as that student with no name asked; the token leaves the
    address for localStorage, and a reload is the same player, on the roster
    once and connected."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        sheet = desk.page.locator(".account-sheet")
        await expect(sheet).to_be_hidden()
        await add_students(desk, "Ann\nBob Smith\n\n   Carol  \n")

        await expect(desk.page.locator(".account-card")).to_have_count(3)
        links = await card_links(desk)
        assert list(links) == ["Ann", "Bob Smith", "Carol"]
        for name, link in links.items():
            assert link.startswith(f"{web.base_url}/#/account/bp_"), link
            assert JOIN_LINK.search(link), link
            assert link.endswith("?name=" + name.replace(" ", "%20")), link
        await expect(desk.page.locator(".account-card .card-note")).to_have_text([CARD_NOTE] * 3)
        await expect(sheet.locator("h2")).to_have_text("Join links for class 7B: 3 students")
        await expect(sheet.locator(".sheet-warning")).to_contain_text(
            "These links and codes are shown only now"
        )
        await expect(desk.page.get_by_label("Names, one per line")).to_have_value("")
        await expect(desk.page.locator(".roster tbody tr")).to_have_count(3)

        ann = await open_link(web, links["Ann"])
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        await expect(ann.page.locator("#player-name")).to_have_text("Ann")
        await expect(ann.page.locator("#name-input")).to_have_count(0)  # never asked
        assert "bp_" not in ann.page.url and "account" not in ann.page.url
        token = JOIN_LINK.search(links["Ann"]).group(1)  # type: ignore[union-attr]
        assert await stored_player_token(ann.page) == token
        assert await stored_name(ann.page) == "Ann"
        first = await player_id(ann.page)

        await ann.page.reload()
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        assert await player_id(ann.page) == first
        assert "bp_" not in ann.page.url
        (row,) = await roster_rows(teacher, "Ann")
        assert row["connected"]
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert sorted(s["name"] for s in roster) == ["Ann", "Bob Smith", "Carol"]


async def test_one_link_in_two_browsers_is_one_student_and_wins_over_a_kept_player(
    db_path: Path,
) -> None:
    """Bob's link opened in two browsers (two devices) is one player, one row on
    the roster. Pasted into a page that already plays as someone else, the link
    wins: that browser is Bob from then on."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        await add_students(desk, "Bob Smith")
        link = (await card_links(desk))["Bob Smith"]
        token = JOIN_LINK.search(link).group(1)  # type: ignore[union-attr]

        laptop = await open_link(web, link)
        await expect(laptop.page.locator("#player-name")).to_have_text("Bob Smith")
        bob = await player_id(laptop.page)
        tablet = await open_link(web, link)
        await expect(tablet.page.locator("#player-name")).to_have_text("Bob Smith")
        assert await player_id(tablet.page) == bob
        await expect(desk.page.locator(".roster tbody tr")).to_have_count(1)
        (row,) = await roster_rows(teacher, "Bob Smith")
        assert row["connected"]

        zed = await web.person("zed")
        zed_player = await player_id(zed.page)
        await zed.page.goto("/" + link[link.index("#") :])  # same page: a hashchange
        await expect(zed.page.locator("#player-name")).to_have_text("Bob Smith")
        await expect(zed.page.locator("#you")).to_have_attribute("data-player", bob)
        assert "bp_" not in zed.page.url
        assert await stored_player_token(zed.page) == token
        assert await stored_name(zed.page) == "Bob Smith"
        assert bob != zed_player
        assert len(await roster_rows(teacher, "Bob Smith")) == 1


async def test_a_malformed_join_link_keeps_nothing_and_says_so(db_path: Path) -> None:
    """A link cut short (no ``bp_`` token in it) is left out of the address and
    kept nowhere: the page says so and asks the name as on any first visit."""
    async with web_session(db_path, class_name="7B") as web:
        for broken in ("/#/account/", "/#/account/bp_short?name=Eve", "/#/account/?name=Eve"):
            eve = await web.open(broken)
            await expect(eve.page.locator("#notices")).to_contain_text(
                "This join link is incomplete: it holds no student's key"
            )
            await expect(eve.page.get_by_label("Your name")).to_have_value("")
            assert "account" not in eve.page.url
            assert await stored_player_token(eve.page) is None
            assert await stored_name(eve.page) is None


async def test_add_students_refuses_an_empty_list_itself_and_shows_the_apis_refusal(
    db_path: Path,
) -> None:
    """Blank lines only: the page says to write names and calls nothing. Two
    names that are one case-folded: the API's refusal shows under the form, no
    sheet appears, and the names stay in the box to fix."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher, refusals=(400,))
        error = desk.page.locator(".accounts-panel .form-error")
        await add_students(desk, "  \n\n \n")
        await expect(error).to_have_text("Write the students' names first, one per line.")
        assert not [url for url in desk.requests if url.endswith("/api/admin/students")]

        await add_students(desk, "Ann\nann")
        await expect(error).to_contain_text("ann")
        await expect(error).not_to_have_text("Write the students' names first, one per line.")
        await expect(desk.page.locator(".account-sheet")).to_be_hidden()
        await expect(desk.page.get_by_label("Names, one per line")).to_have_value("Ann\nann")
        assert (await teacher.get("/api/admin/roster"))["students"] == []


async def test_the_printed_page_is_the_sheet_alone_one_card_never_split(db_path: Path) -> None:
    """Print calls the browser's print; printed, the page shows the cards and
    nothing else of the teacher's page (not even the sheet's buttons), and a
    card does not break across pages."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        page = desk.page
        await add_students(desk, "Ann\nBob")
        await expect(page.locator(".account-card")).to_have_count(2)
        await page.evaluate("window.print = () => { window.printAsked = true; }")
        await page.locator(".account-sheet").get_by_role("button", name="Print").click()
        assert await page.evaluate("window.printAsked") is True

        await page.emulate_media(media="print")
        await expect(page.locator(".account-card")).to_have_count(2)
        for card in await page.locator(".account-card").all():
            await expect(card).to_be_visible()
            assert await card.evaluate("card => getComputedStyle(card).breakInside") == "avoid"
        for hidden in (".class-panel", ".roster-panel", ".accounts-panel", "header.top"):
            await expect(page.locator(hidden)).to_be_hidden()
        await expect(page.locator(".account-sheet button")).to_have_count(2)
        for button in await page.locator(".account-sheet button").all():
            await expect(button).to_be_hidden()

        await page.emulate_media(media="screen")
        await page.get_by_role("button", name="Close the sheet").click()
        await page.get_by_role("button", name="Click again: the links go").click()
        await expect(page.locator(".account-sheet")).to_be_hidden()
        await expect(page.locator(".account-card")).to_have_count(0)


async def test_the_teacher_merges_two_entries_that_are_one_person(db_path: Path) -> None:
    """Carol joined from two browsers without a link: the roster has ``carol``
    and ``carol 2``. Merge without a choice says what to choose; a dismissed
    confirm changes nothing; an accepted one leaves one carol."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        first = await web.person("carol")
        await player_id(first.page)
        second = await web.person()
        await second.class_code_settled()  # else the name may land in the class code
        await second.page.get_by_label("Your name").fill("carol")
        await second.page.get_by_role("button", name="Enter").click()
        await expect(second.page.locator("#player-name")).to_have_text("carol 2")
        desk = await open_teacher(web, teacher)
        page = desk.page
        carol = await teacher.student_id("carol")
        carol_2 = await teacher.student_id("carol 2")
        row = page.locator(f"tr[data-student='{carol_2}']")
        await expect(page.locator(".roster tbody tr")).to_have_count(2)

        await row.get_by_role("button", name="Merge carol 2").click()
        await expect(row.locator(".form-error")).to_have_text(
            "Choose the entry that carol 2 is the same person as"
        )
        await row.get_by_label("Merge carol 2 into").select_option(carol)
        merge = row.get_by_role("button", name="Merge carol 2")
        question = await answer_confirm(page, merge, accept=False)
        assert f"Merge carol 2 ({carol_2}) into carol ({carol})?" in question
        await expect(row.locator(".form-error")).to_be_hidden()
        assert len((await teacher.get("/api/admin/roster"))["students"]) == 2

        await answer_confirm(page, merge, accept=True)
        await expect(page.locator(".roster tbody tr")).to_have_count(1)
        await expect(page.locator(f"tr[data-student='{carol}']")).to_have_attribute(
            "data-name", "carol"
        )
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [(s["id"], s["name"]) for s in roster] == [(carol, "carol")]


async def test_a_new_link_for_a_lost_card_goes_on_the_sheet_and_opens_as_that_student(
    db_path: Path,
) -> None:
    """New link (click twice) on Dan's row puts a second card for Dan on the
    sheet, with another link; that link opens as Dan, the same roster entry."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        await add_students(desk, "Dan")
        first = (await card_links(desk))["Dan"]
        dan_id = await teacher.student_id("Dan")
        row = desk.page.locator(f"tr[data-student='{dan_id}']")
        new_link = row.get_by_role("button", name="New link for Dan")
        await new_link.click()
        await expect(new_link).to_have_text("Click again")
        await new_link.click()
        cards = desk.page.locator(".account-card")
        await expect(cards).to_have_count(2)
        second = await cards.nth(1).locator(".card-link").inner_text()
        assert JOIN_LINK.search(second) and second != first
        await expect(cards.nth(1).locator(".card-name")).to_have_text("Dan")

        dan = await open_link(web, second)
        await expect(dan.page.locator("#player-name")).to_have_text("Dan")
        # The page shows the name the link stored before its hello is answered:
        # the roster says connected once the server has welcomed it.
        (row_seen,) = await wait_until(
            lambda: roster_rows(teacher, "Dan"), lambda rows: rows[0]["connected"]
        )
        assert row_seen["id"] == dan_id
