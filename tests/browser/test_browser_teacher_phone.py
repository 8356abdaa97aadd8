"""The teacher's page on a phone (390x844, 360x640), in English and in Spanish,
with a class of a realistic size: 30 students with long names, rooms in play,
one finished and one waiting, a round robin running. The page must not scroll
sideways, its key controls must be on the screen and clickable, and its
buttons big enough for a finger (44 px). The projector's sizes (1280x720,
1024x768) and a tablet's (768x1024, and 901 px, the narrowest that shows the
tables rather than cards) must keep fitting too, in both languages.

With BOARDROOM_SHOTS set to a folder, each view is saved there as a PNG, to be
looked at."""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from browser import web_session
from classroom_helpers import Teacher, a_lesson
from playwright.async_api import Locator, Page, expect

from boardroom.shared.i18n import translator

SHOTS = os.environ.get("BOARDROOM_SHOTS")
PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 640}]
PROJECTORS = [{"width": 1280, "height": 720}, {"width": 1024, "height": 768}]
TABLETS = [{"width": 768, "height": 1024}, {"width": 901, "height": 900}]
"""A tablet upright, and the narrowest screen that still shows the tables."""
LOCALES = {"en": "en-US", "es": "es-ES"}
CLASS = [
    "María Fernanda Gutiérrez", "José Antonio Hernández", "Ana Sofía Rodríguez",
    "Juan Sebastián Martínez", "Valentina López Castillo", "Santiago Ramírez Ortega",
    "Camila Alejandra Torres", "Mateo Fernández Navarro", "Isabella Domínguez Vega",
    "Diego Alejandro Morales", "Lucía Jiménez Cabrera", "Emiliano Gutiérrez Ríos",
    "Daniela Castañeda Pérez", "Sebastián Villanueva Cruz", "Mariana Echeverría Luna",
    "Nicolás Bustamante Rojas", "Gabriela Santamaría Díaz", "Alejandro Montenegro Gil",
    "Renata Valenzuela Soto", "Tomás Arriaga Mendoza", "Ximena Bermúdez Salazar",
    "Leonardo Quintanilla Paz", "Paula Andrea Restrepo", "Joaquín Sandoval Ibarra",
    "Fernanda Altamirano León", "Maximiliano Cifuentes Mora", "Regina Covarrubias Peña",
    "Rodrigo Benavides Campos", "Victoria Manzanares Ruiz", "Bartolomé Zubizarreta Olmo",
]  # fmt: skip


def say(language: str, message: str, /, **params: Any) -> str:
    """``message`` (an English msgid) as the page writes it in ``language``."""
    return translator(language).gettext(message, **params)


PANELS = (".top", ".account-sheet", ".class-panel", ".rooms-panel", ".roster-panel",
          ".accounts-panel", ".bots-panel", ".tournament-panel", ".new-tournament")  # fmt: skip


async def shot(page: Page, name: str) -> None:
    """The whole page, and each panel alone (its first 1,200 px: the roster is long)."""
    if not SHOTS:
        return
    await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
    for panel in PANELS:
        part = page.locator(panel).first
        box = await part.bounding_box() if await part.is_visible() else None
        if box is None:
            continue
        top = box["y"] + await page.evaluate("window.scrollY")
        clip = {"x": 0, "y": top, "width": await page.evaluate("window.innerWidth"),
                "height": min(box["height"], 1200)}  # fmt: skip
        file = Path(SHOTS) / f"{name}-{panel.strip('.')}.png"
        await page.screenshot(path=str(file), full_page=True, clip=clip)


async def sideways(page: Page) -> list[str]:
    """The elements shown whose right edge is past the window's (what makes the
    page scroll sideways), by a description."""
    found: list[str] = await page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(el => el.offsetParent !== null)
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map(el => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 30)}`)"""
    )
    return found


async def small_targets(page: Page) -> list[str]:
    """The buttons, fields and lists shown in ``main`` that are less than 44 px
    tall: too small for a finger."""
    found: list[str] = await page.evaluate(
        """() => [...document.querySelectorAll(
                'header button, header select, main button,'
                + ' main input:not([type=checkbox], [type=radio]),'
                + ' main select, main summary')]
            .filter(el => el.offsetParent !== null)
            .filter(el => el.getBoundingClientRect().height < 44)
            .map(el => `${el.tagName}#${el.id}.${el.className}: `
                + `${(el.textContent || el.placeholder || '').slice(0, 30)} `
                + `${Math.round(el.getBoundingClientRect().height)} px`)"""
    )
    return found


async def within_reach(page: Page, control: Locator) -> None:
    """``control``, once scrolled to, is inside the window's width, a finger's
    size, and takes a click (Playwright's trial click: shown, still, enabled,
    and nothing over it)."""
    await control.scroll_into_view_if_needed()
    box = await control.bounding_box()
    width = await page.evaluate("window.innerWidth")
    assert box is not None, control
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (control, box)
    assert box["height"] >= 44, (control, box)
    await control.click(trial=True)


async def fits(page: Page, where: str) -> None:
    """The page is no wider than the window (nothing to scroll sideways to)."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    inner = await page.evaluate("window.innerWidth")
    assert width <= inner, (where, width, await sideways(page))


@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_teachers_page_in_a_lesson_fits_a_phone(db_path: Path, language: str) -> None:
    """A lesson of 30 on the teacher's page at 390x844 and 360x640, then at the
    projector's 1280x720 and 1024x768 and a tablet's 768x1024 and 901x900:
    never wider than the window. On the
    phones every button, field and list is a finger's size, and the key
    controls (pause, hints, a room's Watch and Close, a student's Rename, Merge
    and Remove, the tournament's Cancel) are on the screen and take a click.
    Then the tournament is cancelled on the narrowest phone: its form, with the
    30 to tick, fits too."""
    async with web_session(db_path, class_name="7B", language=language) as web:
        teacher = Teacher(web.server)
        players = await a_lesson(
            web.server.ws_url,
            teacher,
            CLASS,
            tournament="Copa de Conecta Cuatro del viernes",
            entrants=6,
        )
        desk = await web.open(
            f"/teacher#token={teacher.token}", viewport=PHONES[0], locale=LOCALES[language]
        )
        page = desk.page
        await expect(page.locator(".class-name")).to_have_text(
            say(language, "Class {name}", name="7B")
        )
        await expect(page.locator(".roster tbody tr")).to_have_count(len(CLASS))
        await expect(page.locator(".tournament-name")).to_have_text(
            "Copa de Conecta Cuatro del viernes"
        )
        await page.locator(".finished-rooms summary").click()
        first = CLASS[0]
        room = (await teacher.get("/api/admin/rooms"))["rooms"][0]["code"]
        button = partial(page.get_by_role, "button")
        controls = [
            page.locator("#pause-toggle"),
            page.locator("#hints-toggle"),
            page.get_by_role("link", name=say(language, "Watch room {code}", code=room)),
            button(name=say(language, "Close room {code}", code=room)),
            button(name=say(language, "Rename {name}", name=first)),
            page.get_by_label(say(language, "Merge {name} into", name=first)),
            button(name=say(language, "Merge {name}", name=first)),
            button(name=say(language, "Remove {name}", name=first)),
            button(name=say(language, "Cancel the tournament")),
        ]
        for viewport in PHONES + PROJECTORS + TABLETS:
            await page.set_viewport_size(viewport)
            size = f"{viewport['width']}x{viewport['height']}"
            await shot(page, f"teacher-phone-{language}-{size}")
            await fits(page, f"{language} {size}")
            if viewport not in PHONES:
                continue
            assert await small_targets(page) == [], (language, size)
            for control in controls:
                await within_reach(page, control)

        await page.set_viewport_size(PHONES[1])
        cancel = page.locator("#cancel-tournament")
        await cancel.click()
        await expect(cancel).to_have_text(say(language, "Click again to cancel it"))
        await cancel.click()
        start = button(name=say(language, "Start the tournament"))
        await expect(start).to_be_visible()
        students = page.locator(f".entrant-list[aria-label='{say(language, 'Students')}'] .entrant")
        await expect(students).to_have_count(len(CLASS))
        await shot(page, f"teacher-phone-{language}-360x640-form")
        await fits(page, f"{language} 360x640, the tournament's form")
        assert await small_targets(page) == [], language
        await within_reach(page, start)

        # Two late students added from the phone: the sheet of their cards; and a bot's token.
        late = ["Guadalupe Etxeberría Villaseñor", "Maximiliano Altamirano"]
        await page.get_by_label(say(language, "Names, one per line")).fill("\n".join(late))
        await button(name=say(language, "Add students")).click()
        await expect(page.locator(".account-card")).to_have_count(len(late))
        await page.get_by_label(say(language, "The bot's name")).fill("annbot")
        await button(name=say(language, "Make a token")).click()
        await expect(page.locator(".bot-token-item")).to_have_count(1)
        await shot(page, f"teacher-phone-{language}-360x640-sheet")
        await fits(page, f"{language} 360x640, the sheet and a bot's token")
        assert await small_targets(page) == [], language
        await within_reach(page, button(name=say(language, "Print")))
        await within_reach(
            page, button(name=say(language, "Copy the token of {name}", name="annbot"))
        )
        for player in players:
            await player.close()


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_students_pages_fit_the_narrowest_phone(db_path: Path, language: str) -> None:
    """A student of the class with a long name on a 360x640 phone: the lobby,
    a game of Gomoku (the widest board) and one of Tic-tac-toe against the AI
    played to its end, that game's review, the wall (a round robin running)
    and the leaderboard. None is wider than the phone."""
    async with web_session(db_path, class_name="7B", language=language) as web:
        teacher = Teacher(web.server)
        status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": CLASS[:2]})
        assert status == 201, made
        link = made["students"][0]["join_link"]
        kid = await web.open(
            "/#/account/" + link.split("/#/account/")[1], viewport=PHONES[1],
            locale=LOCALES[language],
        )  # fmt: skip
        page = kid.page
        await expect(page.locator(".lobby-view")).to_be_visible()
        await expect(page.locator("#player-name")).to_have_text(CLASS[0])
        # What the lobby sends before the server's welcome is refused ("Not sent").
        await expect(page.locator("body")).to_have_attribute("data-connection", "open")
        await shot(page, f"student-{language}-lobby")
        await fits(page, f"{language}: the lobby")

        for game in ("gomoku", "tictactoe"):
            await page.locator("#new-game").select_option(game)
            await page.get_by_label(say(language, "The AI"), exact=True).check()
            await page.get_by_role("button", name=say(language, "Create room")).click()
            await expect(kid.room).to_be_visible()
            await expect(kid.room).to_have_attribute("data-status", "playing")
            await shot(page, f"student-{language}-{game}")
            await fits(page, f"{language}: {game}")
            if game == "gomoku":
                leave = page.get_by_role("button", name=say(language, "Leave"))
                await leave.click()
                await page.get_by_role(
                    "button", name=say(language, "Leaving resigns: click again")
                ).click()
                await expect(page.locator(".lobby-view")).to_be_visible()
        for cell in ("a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"):
            if not await kid.wait_turn():
                break
            if await kid.cell(cell).is_enabled():
                await kid.play(cell)
        await expect(kid.room).to_have_attribute("data-status", "finished")
        await shot(page, f"student-{language}-over")
        await fits(page, f"{language}: the game over")
        await page.get_by_role("link", name=say(language, "Review this game")).click()
        await expect(page.locator(".review-view")).to_be_visible()
        await shot(page, f"student-{language}-review")
        await fits(page, f"{language}: the review")

        body = {
            "name": "Copa de Conecta Cuatro del viernes",
            "game": "connect4",
            "format": "round_robin",
            "entrants": [f"student:{student['id']}" for student in made["students"]]
            + ["ai:easy", "ai:medium"],
            "no_show_seconds": 600,
        }
        status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
        assert status == 201, answer
        wall = await web.open(
            f"/wall#token={teacher.token}", viewport=PHONES[1], locale=LOCALES[language]
        )
        await expect(wall.page.locator("body")).to_have_class(re.compile("with-tournament"))
        await expect(wall.page.locator(".tile").first).to_be_visible()
        await shot(wall.page, f"student-{language}-wall")
        await fits(wall.page, f"{language}: the wall")
        # The boards keep most of the phone's width, and the standings' type stays
        # legible, with the standings under the boards (it was a 28 px board and
        # 5 px type once they fitted the screen's height together).
        drawn = await wall.page.locator(".tile .board").first.bounding_box()
        assert drawn is not None and drawn["width"] >= 240, drawn
        type_px = await wall.page.locator(".standings").evaluate(
            "table => parseFloat(getComputedStyle(table).fontSize)"
        )
        assert type_px >= 12, type_px
        board = await web.open("/leaderboard", viewport=PHONES[1], locale=LOCALES[language])
        await expect(board.page.locator("td.player").first).to_be_visible()
        await shot(board.page, f"student-{language}-leaderboard")
        await fits(board.page, f"{language}: the leaderboard")
