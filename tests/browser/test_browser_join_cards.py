"""The class's join cards in Chromium, on a real server in class mode: the
teacher's page says which address students use when it is itself open on
loopback."""

from __future__ import annotations

import re
from pathlib import Path

from browser import LAPTOP, web_session
from classroom_helpers import Teacher
from playwright.async_api import expect
from test_browser_players import player_id, stored_player_token
from test_browser_teacher import open_teacher

from boardroom.server.classroom.class_codes import ALPHABET
from boardroom.server.classroom.qr_codes import qr_data_uri
from boardroom.server.net_addresses import is_loopback, reachable_hosts

SCREENSHOTS = Path("/tmp/boardroom-cards")
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}


async def test_the_teacher_page_on_loopback_says_which_address_students_use(
    db_path: Path,
) -> None:
    """A server on every interface, the teacher's page opened at 127.0.0.1 (the
    first link ``serve`` prints): a notice above the class says students cannot
    use 127.0.0.1 and gives the network address their cards carry. Opened at
    that network address, the page shows no notice."""
    outward = [host for host in reachable_hosts("0.0.0.0") if not is_loopback(host)]
    # A failure, not a skip: a machine where this cannot run must not pass it.
    assert outward, "this machine has no network address but loopback: run it on one that has"
    async with web_session(db_path, class_name="7B", host="0.0.0.0") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        notice = desk.page.locator("#address-notice")
        lan = f"http://{outward[0]}:{web.server.port}/"
        await expect(notice).to_be_visible()
        await expect(notice).to_contain_text("This page is open at 127.0.0.1")
        await expect(notice).to_contain_text("students cannot use it")
        await expect(notice).to_contain_text(f"Give them {lan}")
        box = await notice.bounding_box()
        assert box is not None and box["y"] < 200  # above the class, seen at once
        SCREENSHOTS.mkdir(exist_ok=True)
        await desk.page.screenshot(path=str(SCREENSHOTS / "loopback-notice.png"))

        # Not one of web.people, whose pages must all stay on 127.0.0.1.
        context = await web.browser.new_context(viewport=LAPTOP)
        there = await context.new_page()
        await there.goto(f"{lan}teacher#token={teacher.token}")
        await expect(there.locator(".class-name")).to_have_text("Class 7B")
        await expect(there.locator("#address-notice")).to_be_hidden()
        await context.close()


async def test_a_server_on_loopback_only_is_told_on_the_teacher_page(db_path: Path) -> None:
    """Bound to 127.0.0.1 only, no student's machine reaches the server: the
    notice says so and how to start it so that they can."""
    async with web_session(db_path, class_name="7B") as web:
        desk = await open_teacher(web, Teacher(web.server))
        notice = desk.page.locator("#address-notice")
        await expect(notice).to_be_visible()
        await expect(notice).to_contain_text("listens on this computer only")
        await expect(notice).to_contain_text("--host 0.0.0.0")


async def test_a_student_types_their_class_code_on_the_start_page(db_path: Path) -> None:
    """On a class's server the start page asks "Have a class code?" under the
    name. A mistyped code says "This code is not valid: ask your teacher for
    your card" and makes nobody; Ann's code, typed in small letters, signs the
    browser in as Ann, exactly as her join link does (her token kept, no name
    asked), and a reload is still Ann."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
        assert status == 201, made
        (ann,) = made["students"]
        token = ann["join_link"].split("/#/account/")[1].split("?")[0]

        kid = await web.open("/", viewport=PHONE, allowed_statuses=(404,))
        field = kid.page.get_by_label("Have a class code?")
        await expect(field).to_be_visible()
        wrong = "".join("2" if c != "2" else "3" for c in ann["code"])
        await field.fill(wrong)
        await kid.page.get_by_role("button", name="Join with code").click()
        await expect(kid.page.locator(".class-code .form-error")).to_have_text(
            "This code is not valid: ask your teacher for your card."
        )
        SCREENSHOTS.mkdir(exist_ok=True)
        await kid.page.screenshot(path=str(SCREENSHOTS / "code-refused.png"))
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Ann"]
        await kid.page.set_viewport_size(SMALL_PHONE)  # the field and its button still fit
        for part in (field, kid.page.get_by_role("button", name="Join with code")):
            box = await part.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box

        await field.fill(ann["code"].lower())
        await kid.page.get_by_role("button", name="Join with code").click()
        await expect(kid.page.locator(".lobby-view")).to_be_visible()
        await expect(kid.page.locator("#player-name")).to_have_text("Ann")
        assert await stored_player_token(kid.page) == token
        assert await player_id(kid.page) == ann["player_id"]
        await kid.page.reload()
        await expect(kid.page.locator(".lobby-view")).to_be_visible()
        assert await player_id(kid.page) == ann["player_id"]
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [(s["name"], s["connected"]) for s in roster] == [("Ann", True)]


async def test_without_a_class_the_start_page_asks_only_the_name(db_path: Path) -> None:
    async with web_session(db_path) as web:
        someone = await web.open("/")
        await expect(someone.page.locator("#name-input")).to_be_visible()
        await expect(someone.page.locator("form.class-code")).to_be_hidden()


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF that Chromium printed (each a ``/Type /Page`` object)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


async def test_the_printed_sheet_fits_eight_cards_a_page_with_qr_and_code(db_path: Path) -> None:
    """The teacher adds 16 students: each card shows the name, a QR code of the
    join link, the class code and the link in full. Printed (print media, A4
    and Letter) the sheet is the cards alone, eight a page: 16 cards make two
    pages; a 17th (a new link from the roster) a third. The QR code read back
    from the page's image is the card's link."""
    names = [f"Student {n:02d}" for n in range(1, 17)]
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        await desk.page.get_by_label("Names, one per line").fill("\n".join(names))
        await desk.page.get_by_role("button", name="Add students").click()
        cards = desk.page.locator(".account-card")
        await expect(cards).to_have_count(16)
        first = cards.first
        await expect(first.locator(".card-name")).to_have_text("Student 01")
        code = await first.locator(".card-code").inner_text()
        assert re.fullmatch(f"[{ALPHABET}]{{6}}", code), code
        link = await first.locator(".card-link").inner_text()
        assert "/#/account/bp_" in link
        qr = first.locator("img.card-qr")
        await expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
        assert await qr.evaluate("(img) => img.complete && img.naturalWidth > 0")
        assert (await qr.get_attribute("src") or "") == qr_data_uri(link)

        await desk.page.emulate_media(media="print")
        await expect(desk.page.locator(".class-panel")).to_be_hidden()
        await expect(desk.page.locator(".account-sheet .panel-head")).to_be_hidden()
        for paper in ("A4", "Letter"):
            pages = pdf_pages(await desk.page.pdf(format=paper))
            assert pages == 2, (paper, pages)
        boxes = [await card.bounding_box() for card in await cards.all()]
        assert all(box is not None for box in boxes)
        columns = sorted({round(box["x"]) for box in boxes if box is not None})
        assert len(columns) == 2, columns  # two cards side by side
        await desk.page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        await desk.page.evaluate("window.scrollTo(0, 0)")
        SCREENSHOTS.mkdir(exist_ok=True)
        await desk.page.screenshot(path=str(SCREENSHOTS / "printed-sheet.png"))
        await desk.page.emulate_media(media="screen")

        renew = desk.page.get_by_role("button", name="New link for Student 16")
        await renew.click()
        await expect(renew).to_have_text("Click again")
        await renew.click()
        await expect(cards).to_have_count(17)
        await desk.page.emulate_media(media="print")
        assert pdf_pages(await desk.page.pdf(format="A4")) == 3


async def test_add_students_lists_every_bad_line_at_once(db_path: Path) -> None:
    """Ann is on the roster. The teacher pastes seven lines (one blank) of which
    four cannot be added: the page lists all four under the box, each with its
    line number as the box counts them, the name and the problem; nobody is
    added and no sheet shows. Fixed, the same box adds everyone."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
        assert status == 201, made
        desk = await open_teacher(web, teacher, refusals=(400,))
        long_name = "Bartholomew Maximilian Fitzgerald"
        box = desk.page.get_by_label("Names, one per line")
        await box.fill("\n".join(["Bob", "ann", "", "Cy", "bob", long_name, "Dee", "Cy"]))
        await desk.page.get_by_role("button", name="Add students").click()
        error = desk.page.locator(".accounts-panel .form-error")
        await expect(error).to_contain_text("Nobody was added: fix 4 lines")
        await expect(error.locator("li")).to_have_text(
            [
                "Line 2 “ann”: on the roster already: give each one name",
                "Line 5 “bob”: on line 1 already: give each one name",
                f"Line 6 “{long_name}”: name is 33 characters long: choose 1 to 32",
                "Line 8 “Cy”: on line 4 already: give each one name",
            ]
        )
        await error.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(exist_ok=True)
        await desk.page.screenshot(path=str(SCREENSHOTS / "bulk-add-problems.png"))
        await expect(desk.page.locator(".account-sheet")).to_be_hidden()
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Ann"]

        await box.fill("\n".join(["Bob", "", "Cy", "Bart Fitzgerald", "Dee"]))
        await desk.page.get_by_role("button", name="Add students").click()
        await expect(desk.page.locator(".account-card")).to_have_count(4)
        await expect(error).to_be_hidden()


async def test_the_teachers_token_leaves_the_address_of_the_teacher_page_and_the_wall(
    db_path: Path,
) -> None:
    """Opened by the teacher's link, the teacher's page takes the token out of
    the address at once (no ``token`` in the address bar nor in the history's
    entry) and a reload still shows the class; so does the wall, which keeps its
    other settings in the address (``finished=``). The wall link on the teacher's
    page still opens the wall."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        desk = await open_teacher(web, teacher)
        assert "token" not in desk.page.url and teacher.token not in desk.page.url
        assert desk.page.url.endswith("/teacher"), desk.page.url
        await desk.page.reload()
        await expect(desk.page.locator(".class-name")).to_have_text("Class 7B")
        assert teacher.token not in desk.page.url
        # The tab's history: the blank page it opened on, then the teacher's page
        # without the token (its entry was replaced, not added to).
        assert await desk.page.evaluate("history.length") == 2
        await desk.page.go_back()
        assert desk.page.url == "about:blank"
        await desk.page.go_forward()
        await expect(desk.page.locator(".class-name")).to_have_text("Class 7B")
        assert desk.page.url.endswith("/teacher"), desk.page.url

        wall_link = desk.page.get_by_role("link", name="Open the wall")
        async with desk.page.context.expect_page() as opened:
            await wall_link.click()
        wall = await opened.value
        await expect(wall.locator("body")).not_to_contain_text("needs the teacher's token")
        await expect(wall).to_have_url(re.compile(r"/wall$"))

        projector = await web.open(
            f"/wall#token={teacher.token}&finished=5", allowed_statuses=(404,)
        )
        await expect(projector.page).to_have_url(re.compile(r"/wall#finished=5$"))
        await projector.page.reload()
        assert teacher.token not in projector.page.url
        await expect(projector.page.locator("body")).not_to_contain_text(
            "needs the teacher's token"
        )
