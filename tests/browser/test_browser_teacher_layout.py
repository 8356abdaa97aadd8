"""The teacher's page and the start page as a class sees them (issue 24), in
Chromium on a real class server: the teacher's page with a class of 25 from a
bulk add, rooms in play and one finished, a tournament running and the
loopback notice, at the projector's three sizes; the start page with its class
code field, a wrong code's message and the invalid link page on two phones.
Each checks what a person would trip on: columns that do not line up, text cut
or overflowing, controls off-screen, tap targets too small on a phone.

With BOARDROOM_SHOTS set to a folder, each view is saved there as a PNG, to be
looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import WebPlayer, web_session
from classroom_helpers import Teacher, a_lesson
from playwright.async_api import Page, expect

SHOTS = os.environ.get("BOARDROOM_SHOTS")
PROJECTORS = [
    {"width": 1280, "height": 720},
    {"width": 1024, "height": 768},
    {"width": 1366, "height": 768},
]
PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 640}]
CLASS = [
    "Ann Lee", "Bob Smith", "Chloé Martin", "Dmitri Ivanov", "Emma Brown", "Farid Haddad",
    "Grace Kim", "Hugo Petit", "Isla Murphy", "Jonas Weber", "Kai Tanaka", "Lena Novak",
    "Mateo García", "Nora Olsen", "Oscar Silva", "Priya Sharma", "Quinn Walsh", "Rosa Rossi",
    "Sami Virtanen", "Tomás Ruiz", "Uma Patel", "Victor Dubois", "Wen Zhang", "Yusuf Demir",
    "Zoë Bakker",
]  # fmt: skip


async def shot(page: Page, name: str, *parts: str) -> None:
    """The whole page, and each of ``parts`` (selectors) alone, at full size."""
    if not SHOTS:
        return
    await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
    for part in parts:
        file = Path(SHOTS) / f"{name}-{part.strip('.#').split()[0]}.png"
        await page.locator(part).first.screenshot(path=str(file))


async def overflowing(page: Page, selector: str) -> list[str]:
    """The elements under ``selector`` whose text is wider than their box (cut or
    spilling over their neighbours), by a description."""
    found: list[str] = await page.evaluate(
        """selector => [...document.querySelectorAll(selector)]
            .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
            .map(el => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`)""",
        selector,
    )
    return found


async def column_edges(page: Page, table: str) -> list[float]:
    """The left edges of the header cells of ``table``'s first row."""
    edges: list[float] = await page.evaluate(
        """table => [...document.querySelector(table).querySelectorAll('thead th')]
            .map(th => Math.round(th.getBoundingClientRect().left))""",
        table,
    )
    return edges


async def outside_their_panel(page: Page) -> list[str]:
    """The controls shown (buttons, fields, links) that reach past the side of
    the panel they are in (cut off, or over the next panel), and the panels whose
    content (a table) is wider than they are."""
    found: list[str] = await page.evaluate(
        """() => [...document.querySelectorAll('main .panel')].flatMap(panel => {
            const edge = panel.getBoundingClientRect();
            return [...panel.querySelectorAll('button, input, select, textarea, a')]
                .filter(el => el.offsetParent !== null)
                .filter(el => {
                    const box = el.getBoundingClientRect();
                    return box.left < edge.left - 0.5 || box.right > edge.right + 0.5;
                })
                .map(el => `${panel.className} ${el.tagName}: ${el.textContent.slice(0, 30)}`)
                .concat(panel.scrollWidth > panel.clientWidth + 1
                    ? [`${panel.className} overflows`] : []);
        })"""
    )
    return found


async def test_the_teachers_page_in_a_lesson_fits_the_projectors_sizes(db_path: Path) -> None:
    """A lesson on the teacher's page at 1280x720, 1024x768 and 1366x768 (one
    lesson, the window resized to each): the page does not scroll sideways, no
    text spills out of its box, the finished rooms' columns line up with the
    open rooms' above them, and the roster's paging and the tournament's tables
    stay inside their panels."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        players = await a_lesson(
            web.server.ws_url, teacher, CLASS, tournament="Friday Connect Four cup", entrants=4
        )
        desk = await web.open(f"/teacher#token={teacher.token}", viewport=PROJECTORS[0])
        page = desk.page
        await expect(page.locator(".class-name")).to_have_text("Class 7B")
        await expect(page.locator("#address-notice")).to_be_visible()
        await expect(page.locator(".roster tbody tr")).to_have_count(len(CLASS))
        await expect(page.locator(".tournament-name")).to_have_text("Friday Connect Four cup")
        finished = page.locator(".finished-rooms")
        await expect(finished.locator("summary")).to_have_text("Finished (1)")
        await finished.locator("summary").click()
        # A tournament game's room names who it waits for, not "empty seat" twice.
        (cup,) = (await teacher.get("/api/admin/tournaments"))["tournaments"]
        names = {row["player"]: row["name"] for row in cup["standings"]}
        (kai_room,) = [
            game["room"]
            for game in cup["rounds_played"][0]["games"]
            if "Kai Tanaka" in (names[game["first"]], names[game["second"]])
        ]
        row = page.locator(f".rooms tr[data-room='{kai_room}']")
        await expect(row).to_contain_text("Kai Tanaka (not here yet)")
        await expect(row).to_contain_text("Friday Connect Four cup, round 1")
        await expect(row).not_to_contain_text("empty seat")

        for viewport in PROJECTORS:
            await page.set_viewport_size(viewport)
            where = f"{viewport['width']}x{viewport['height']}"
            await shot(
                page,
                f"teacher-lesson-{where}",
                ".class-panel",
                ".rooms-panel",
                ".roster-panel",
                ".tournament-panel",
            )
            open_edges = await column_edges(page, ".rooms-panel > table.rooms")
            finished_edges = await column_edges(page, ".finished-rooms table.rooms")
            assert open_edges == finished_edges, (where, open_edges)
            assert await outside_their_panel(page) == [], where
            pairing = page.locator(".pairings .pairing").first
            box = await pairing.bounding_box()  # the names on one line, not squeezed by the result
            assert box is not None and box["height"] < 30, (where, box)

            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{where}: the page scrolls sideways: {width} px"
            cut = await overflowing(page, "main th, main td, main button, main label, main h2")
            assert cut == [], where
        for player in players:
            await player.close()


async def small_targets(page: Page) -> list[str]:
    """The buttons and fields shown that are less than 44 px tall: too small for a
    child's finger on a phone."""
    found: list[str] = await page.evaluate(
        """() => [...document.querySelectorAll('button, input, select, textarea')]
            .filter(el => el.offsetParent !== null)
            .filter(el => el.getBoundingClientRect().height < 44)
            .map(el => `${el.tagName}#${el.id}: ${el.textContent || el.placeholder} `
                + `${Math.round(el.getBoundingClientRect().height)} px`)"""
    )
    return found


async def fits_the_phone(person: WebPlayer, width: int) -> None:
    """Nothing wider than the phone, no text spilling out, no tap target too small."""
    page = person.page
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    assert await overflowing(page, "main p, main h1, main label, main button") == []
    assert await small_targets(page) == []


@pytest.mark.parametrize("viewport", PHONES, ids=lambda size: f"{size['width']}")
async def test_the_start_page_and_a_wrong_code_on_a_phone(
    db_path: Path, viewport: dict[str, int]
) -> None:
    """A child's phone on the class's start page: "Have a class code?" first,
    with the cursor in it, then the name; a wrong code's message; a mistyped
    join link's page, whose button leads back to the code. Each inside the
    screen, with buttons and fields a finger can hit (44 px tall)."""
    async with web_session(db_path, class_name="7B") as web:
        kid = await web.open("/", viewport=viewport, allowed_statuses=(404,))
        page = kid.page
        code = page.get_by_label("Have a class code?")
        await expect(code).to_be_visible()
        await expect(code).to_be_focused()  # the card's code first: a name would make a new student
        code_box, name_box = (
            await code.bounding_box(),
            await page.get_by_label("Your name").bounding_box(),
        )
        assert code_box is not None and name_box is not None and code_box["y"] < name_box["y"]
        await fits_the_phone(kid, viewport["width"])
        await code.fill("ZZZZZZ")
        await page.get_by_role("button", name="Join with code").click()
        await expect(page.locator(".class-code .form-error")).to_have_text(
            "This code is not valid: ask your teacher for your card."
        )
        await shot(page, f"start-wrong-code-{viewport['width']}x{viewport['height']}")
        await fits_the_phone(kid, viewport["width"])

        key = ("bp_" + "wrong" * 9)[:46]  # a key of the right shape that the class does not know
        wrong = await web.open(f"/#/account/{key}?name=Ann", viewport=viewport)
        await expect(wrong.page.locator(".invalid-link")).to_be_visible()
        await shot(wrong.page, f"start-invalid-link-{viewport['width']}x{viewport['height']}")
        await fits_the_phone(wrong, viewport["width"])
        onward = wrong.page.get_by_role("link", name="Type your class code instead")
        box = await onward.bounding_box()
        assert box is not None and box["height"] >= 44, box
        await onward.click()  # the start page, with the code field and nobody signed in
        await expect(wrong.page.get_by_label("Have a class code?")).to_be_visible()

        cut = await web.open("/#/account/bp_wrong", viewport=viewport)  # a link cut short
        await expect(cut.page.get_by_text("This join link is incomplete")).to_be_visible()
        await expect(cut.page.get_by_label("Have a class code?")).to_be_visible()
        await shot(cut.page, f"start-cut-link-{viewport['width']}x{viewport['height']}")
        await fits_the_phone(cut, viewport["width"])


@pytest.mark.parametrize("viewport", PROJECTORS[:2], ids=lambda size: f"{size['width']}")
async def test_a_bulk_add_its_cards_and_the_tournament_form_fit_the_projector(
    db_path: Path, viewport: dict[str, int]
) -> None:
    """The teacher pastes the class into "Add students": the sheet of cards that
    follows, and the tournament form listing the 25, stay inside their panels,
    with no text cut."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await web.open(f"/teacher#token={teacher.token}", viewport=viewport)
        page = desk.page
        await page.get_by_label("Names, one per line").fill("\n".join(CLASS))
        await page.get_by_role("button", name="Add students").click()
        await expect(page.locator(".account-card")).to_have_count(len(CLASS))
        await expect(page.locator(".entrant-list[aria-label=Students] .entrant")).to_have_count(
            len(CLASS)
        )
        await page.get_by_label("All students").check()
        hint = await page.locator("#robin-rounds-hint").bounding_box()
        double = await page.get_by_text("Double: every pair plays twice").bounding_box()
        assert hint is not None and double is not None  # the hint under the box, not beside it
        assert hint["y"] >= double["y"] + double["height"], (hint, double)
        await shot(
            page,
            f"teacher-cards-{viewport['width']}x{viewport['height']}",
            ".account-sheet",
            ".tournament-panel",
        )
        assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert await outside_their_panel(page) == []
        assert await overflowing(page, "main h3, main p, main label, main button") == []
