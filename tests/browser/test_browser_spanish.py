"""The student's pages in Spanish: a browser set to ``es-ES`` (Playwright's
``locale``, so ``navigator.languages`` is ``["es-ES"]``) gets every word of the
start page, the lobby, a whole Connect Four game against the AI, its result and
its review in Spanish, with ``<html lang="es">``; the header's switch turns the
page to English and back, and the choice outlives a reload. The same at a
projector's 1280x720 and two phones' 390x844 and 360x640, where no Spanish word
may overflow its button, label or line (screenshots of each step are saved,
``BOARDROOM_SHOTS`` names where, to be looked at).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from browser import WebPlayer, stored, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import Page, expect
from test_browser_leaderboard import lose_to_the_ai
from test_browser_play import first_free_column
from tournament_helpers import start_round_robin

SIZES = {
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
}

ENGLISH_WORDS = re.compile(r"\b(You|your|wins?|move|Draw|Resign|Rematch|Review|Lobby|game)\b")
"""English words that would give away a message the Spanish page left untranslated."""

OVERFLOWING = """() => {
  const wide = document.documentElement.scrollWidth > document.documentElement.clientWidth + 1
    ? ["the page itself"] : [];
  const parts = document.querySelectorAll(
    "button, a, label, h1, h2, h3, legend, th, select, .turn, .seat, .code-label, p");
  for (const element of parts) {
    if (!element.offsetParent || element.closest(".offscreen")) continue;  // hidden
    const style = getComputedStyle(element);
    if (style.textOverflow === "ellipsis") continue;  // cut on purpose, with an ellipsis
    if (element.scrollWidth > element.clientWidth + 1 && style.overflowX !== "auto") {
      const name = `${element.tagName.toLowerCase()}.${element.className}`;
      wide.push(`${name}: ${element.textContent.trim()}`);
    }
  }
  return wide;
}"""
"""The visible elements whose words do not fit their box (and the page, if it
scrolls sideways): none may, in any language, at any size."""


def shots_folder(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BOARDROOM_SHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def look(page: Page, folder: Path, name: str) -> None:
    """Save what the page shows, and check that nothing on it overflows."""
    await page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    assert await page.evaluate(OVERFLOWING) == [], name


ACTING_SIZE = "360x640"
"""Where the whole game is played: the smallest phone, where a word is likeliest not to fit."""


async def look_at_every_size(page: Page, folder: Path, name: str) -> None:
    """:func:`look` at the page at each of :data:`SIZES` in turn (the browser's
    window resized, so the page lays itself out again), then back to
    :data:`ACTING_SIZE`."""
    for size, viewport in SIZES.items():
        await page.set_viewport_size(viewport)
        await look(page, folder, f"{name}-{size}")
    await page.set_viewport_size(SIZES[ACTING_SIZE])


async def enter_name_in_spanish(person: WebPlayer, name: str) -> None:
    page = person.page
    await expect(page.locator("html")).to_have_attribute("lang", "es")
    await expect(page.get_by_role("heading", level=1)).to_have_text(
        "Te damos la bienvenida a Boardroom"
    )
    await expect(page.locator(".name-view")).to_contain_text("Conecta 4")
    await page.get_by_label("Tu nombre").fill(name)
    await page.get_by_role("button", name="Entrar", exact=True).click()
    await expect(page.locator(".lobby-view")).to_be_visible()
    await expect(page.locator("body")).to_have_attribute("data-connection", "open")
    await expect(page.locator("#you")).to_contain_text(f"Juegas como {name}")


async def test_a_whole_game_in_spanish(db_path: Path, tmp_path: Path) -> None:
    """From the start page to the review, a student whose browser speaks Spanish
    reads Spanish: the lobby's form, the AI's levels, the room's buttons and
    turns, the result ("Ganas tú: cuatro en línea, ..."), the seat of the AI
    ("IA (aleatorio)") and the review's words. She plays on the smallest phone;
    each page is looked at on all three screens (one game, not one a screen:
    the words are the same, what fits is the window's)."""
    folder = shots_folder(tmp_path)
    async with web_session(db_path) as web:
        ana = await web.person(viewport=SIZES[ACTING_SIZE], locale="es-ES")
        page = ana.page
        await look_at_every_size(page, folder, "es-start")
        await enter_name_in_spanish(ana, "ana")

        lobby = page.locator(".lobby-view")
        for heading in ("Nueva partida", "Entrar en una partida", "Salas públicas"):
            await expect(lobby.get_by_role("heading", name=heading)).to_be_visible()
        await expect(page.locator("#new-game option[value='connect4']")).to_have_text("Conecta 4")
        await expect(page.locator("#new-level option[value='random']")).to_have_text("aleatorio")
        await expect(page.locator("#new-seat option[value='first']")).to_have_text("X (empieza)")
        await look_at_every_size(page, folder, "es-lobby")

        await page.locator("#new-game").select_option("connect4")
        await page.get_by_label("La IA", exact=True).check()
        await page.locator("#new-level").select_option("random")
        await page.locator("#new-seat").select_option("first")
        await page.get_by_role("button", name="Crear sala").click()
        await expect(ana.room).to_have_attribute("data-status", "playing")
        await expect(page.locator(".room-title")).to_have_text("Conecta 4")
        await expect(ana.turn).to_have_text("Te toca")
        await expect(page.locator(".seat[data-side='second'] .seat-name")).to_have_text(
            "IA (aleatorio)"
        )
        await expect(page.get_by_role("button", name="Abandonar")).to_be_visible()
        await expect(page.get_by_role("button", name="Ofrecer empate")).to_be_visible()
        await expect(ana.cell("4")).to_have_attribute("aria-label", re.compile(r"^Columna 4: "))
        await look_at_every_size(page, folder, "es-room")

        while await ana.wait_turn():
            await ana.play(await first_free_column(ana))
        record = await web.server.get_json("/api/games/1")
        result = await ana.turn.inner_text()
        assert not ENGLISH_WORDS.search(result), result
        if record["winner"] == "first":
            assert result.startswith("Ganas tú"), result
        elif record["winner"] == "second":
            assert result.startswith("Gana O IA (aleatorio)"), result
        else:
            assert result.startswith("Empate"), result
        if record["termination"] == "line":
            assert "cuatro en línea" in result, result
        await expect(page.get_by_role("button", name="Revancha")).to_be_visible()
        await look_at_every_size(page, folder, "es-result")

        await page.get_by_role("link", name="Repasar esta partida").click()
        view = page.locator(".review-view")
        await expect(view).to_have_attribute("data-complete", "true")
        await expect(page.locator("#review-title")).to_have_text("Repaso: Conecta 4, partida 1")
        await expect(page.locator(".review-status")).to_have_text(
            re.compile(r"^Análisis completo: \d+ jugadas repasadas\.$")
        )
        await expect(view.get_by_role("heading", name="Momentos clave")).to_be_visible()
        await expect(view.get_by_role("heading", name="Jugadas")).to_be_visible()
        await expect(page.locator(".review-accuracy")).to_contain_text("Precisión:")
        await expect(page.locator(".review-now")).to_have_text(
            re.compile(r"^Inicio: quedan \d+ jugadas$")
        )
        await page.keyboard.press("End")
        now = await page.locator(".review-now").inner_text()
        assert now.startswith("Jugada "), now
        assert not ENGLISH_WORDS.search(now), now
        points = await page.locator(".turning-points li").all_inner_texts()
        assert points and not any(ENGLISH_WORDS.search(point) for point in points), points
        await look_at_every_size(page, folder, "es-review")


async def test_the_switch_turns_the_page_to_english_and_back(db_path: Path, tmp_path: Path) -> None:
    """The header's language switch, on a phone: a target a finger can hit (44 px
    tall); choosing English reloads the page in English (``<html lang="en">``),
    and a reload keeps it, though the browser asks for Spanish; choosing Spanish
    brings it back."""
    folder = shots_folder(tmp_path)
    async with web_session(db_path) as web:
        ana = await web.person(viewport=SIZES["390x844"], locale="es-ES")
        page = ana.page
        await enter_name_in_spanish(ana, "ana")
        switch = page.locator("header.top .language-switch")
        await expect(switch).to_have_accessible_name("Idioma")
        await expect(switch).to_have_value("es")
        box = await switch.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
        await look(page, folder, "es-header-390x844")

        await switch.select_option("en")
        await expect(page.locator("html")).to_have_attribute("lang", "en")
        await expect(page.get_by_role("heading", name="New game")).to_be_visible()
        await expect(page.locator("#you")).to_contain_text("Playing as ana")
        assert await stored(page, "boardroom.language") == "en"
        await page.reload()
        await expect(page.locator("html")).to_have_attribute("lang", "en")
        await expect(page.get_by_role("button", name="Create room")).to_be_visible()
        await look(page, folder, "en-lobby-390x844")

        await page.locator("header.top .language-switch").select_option("es")
        await expect(page.locator("html")).to_have_attribute("lang", "es")
        await expect(page.get_by_role("button", name="Crear sala")).to_be_visible()
        await page.reload()
        await expect(page.get_by_role("heading", name="Nueva partida")).to_be_visible()


async def test_the_leaderboard_in_spanish(db_path: Path, tmp_path: Path) -> None:
    """The leaderboard speaks the browser's Spanish too: its headings, its
    columns, the games' titles on its tabs and the AI's name ("IA (difícil)"),
    with the same switch in its header."""
    folder = shots_folder(tmp_path)
    async with web_session(db_path) as web:
        ana = await Player.join_server(web.server.ws_url, "ana")
        await lose_to_the_ai(ana, "connect4", "hard")
        lee = await web.open("/leaderboard", viewport=SIZES["390x844"], locale="es-ES")
        page = lee.page
        await expect(page.locator("html")).to_have_attribute("lang", "es")
        await expect(page).to_have_title("Puntuaciones · Boardroom")
        await expect(page.get_by_role("heading", level=1)).to_have_text("Puntuaciones")
        await expect(page.get_by_role("link", name="Volver a las partidas")).to_be_visible()
        await expect(page.get_by_role("tab", name="Conecta 4")).to_be_visible()
        await expect(page.locator("#ratings th").nth(2)).to_have_text("Puntuación")
        await expect(page.locator("#rows")).to_contain_text("IA (difícil)")
        await expect(page.locator("header.top .language-switch")).to_have_value("es")
        await look(page, folder, "es-leaderboard-390x844")


async def test_the_hint_and_the_ais_search_in_spanish(db_path: Path) -> None:
    """Against the perfect AI at tic-tac-toe: the hint reads "Pista: b2 — empate"
    (the engine's value in words, not the server's English), and the AI's
    search under "¿Cómo pensó la IA?" is worded on the page from its figures
    ("búsqueda de ... posiciones en ... , profundidad ...: empate demostrado"),
    its numbers as Spanish writes them."""
    async with web_session(db_path) as web:
        ana = await web.person(locale="es-ES")
        await enter_name_in_spanish(ana, "ana")
        page = ana.page
        await page.locator("#new-game").select_option("tictactoe")  # Connect Four is the default
        await page.get_by_label("La IA", exact=True).check()
        await page.locator("#new-level").select_option("perfect")
        await page.locator("#new-seat").select_option("first")
        await page.get_by_role("button", name="Crear sala").click()
        await expect(ana.turn).to_have_text("Te toca")
        await page.get_by_role("button", name="Pista").click()
        await expect(page.locator(".hint-line")).to_have_text("Pista: b2 — empate")
        await ana.play("b2")
        await expect(ana.turn).to_have_text("Te toca")
        await page.get_by_text("¿Cómo pensó la IA?").click()
        summary = await page.locator(".ai-search-summary").inner_text()
        searched = (
            r"búsqueda de [\d,]+( [kMG])? posici(ón|ones) en [\d,]+ (ms|s), "
            r"profundidad \d+: empate demostrado"
        )
        book = r"del libro de aperturas, resuelto de antemano: empate demostrado"
        pattern = rf"^O IA \(perfecto\) jugó [a-c][1-3]: ({searched}|{book})$"
        assert re.match(pattern, summary), summary


async def test_refusals_are_worded_from_their_codes_in_spanish(db_path: Path) -> None:
    """What the server refuses reads in Spanish, from the refusal's code (its
    English message is for English pages and bots): a code no room has, a
    move typed out of turn, a column the board does not have."""
    async with web_session(db_path) as web:
        ana = await web.person(locale="es-ES")
        await enter_name_in_spanish(ana, "ana")
        page = ana.page
        await page.locator("#code-input").fill("ZZZZZZZZ")
        await page.locator("#by-code").get_by_role("button", name="Entrar", exact=True).click()
        await expect(page.locator("#by-code .form-error")).to_have_text(
            "Ninguna sala tiene ese código: revísalo y vuelve a probar"
        )
        bob = await Player.join_server(web.server.ws_url, "bob")
        created = await bob.request({"type": "create_room", "game": "connect4"})
        await page.locator("#code-input").fill(created["room"]["code"])
        await page.locator("#by-code").get_by_role("button", name="Entrar", exact=True).click()
        await expect(ana.turn).to_have_text("Turno de X bob")
        await page.get_by_role("textbox", name="O escribe una columna").fill("4")
        await page.get_by_role("button", name="Jugar", exact=True).click()
        await expect(ana.refusal).to_have_text("No es tu turno: espera a que juegue X bob")
        await bob.request({"type": "move", "room": created["room"]["code"], "move": "4", "ply": 0})
        await expect(ana.turn).to_have_text("Te toca")
        await page.get_by_role("textbox", name="O escribe una columna").fill("9")
        await page.get_by_role("button", name="Jugar", exact=True).click()
        await expect(ana.refusal).to_have_text("Esa jugada no está permitida aquí: elige otra")


async def test_a_mistyped_join_link_in_spanish(db_path: Path) -> None:
    """A class's student whose card's link lost a character, on a Spanish phone:
    the page says so in Spanish and offers the class code instead."""
    async with web_session(db_path, class_name="7B") as web:
        key = ("bp_" + "wrong" * 9)[:46]  # a key of the right shape that the class does not know
        kid = await web.open(
            f"/#/account/{key}?name=Ana", viewport=SIZES["360x640"], locale="es-ES"
        )
        page = kid.page
        notice = page.locator(".invalid-link")
        await expect(notice.locator("h1")).to_have_text("El enlace de tu tarjeta no funcionó")
        await expect(notice).to_contain_text(
            "Este enlace no es válido: pídele tu tarjeta a tu docente."
        )
        await expect(page).to_have_title("Enlace no válido · Boardroom")
        await expect(page.get_by_role("link", name="Escribe tu código de clase")).to_be_visible()
        assert await page.evaluate(OVERFLOWING) == []


async def test_a_tournament_s_end_in_spanish(db_path: Path) -> None:
    """Ana, whose browser speaks Spanish, plays Bob in a one-game tournament of a
    class: its end (the server's announcement, English) reads in Spanish on her
    page, from the tournament's standings, and the final standings' heading too."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ana = await web.person(viewport=SIZES["390x844"], locale="es-ES")
        await enter_name_in_spanish(ana, "ana")
        bob = await Player.join_server(web.server.ws_url, "bob")
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ana", "bob")]
        status, answer, _ = await teacher.call(
            "POST",
            "/api/admin/tournaments",
            {"name": "Copa", "game": "tictactoe", "format": "round_robin", "entrants": entrants},
        )
        assert status == 201, answer
        match = await bob.expect("match", round=1)
        await bob.request({"type": "join", "code": match["code"]})
        await expect(ana.room).to_have_attribute("data-status", "playing")
        await bob.request({"type": "resign", "room": match["room"]})

        notice = ana.page.locator("#pinned .pinned.server")
        await expect(notice.locator(".pinned-label")).to_have_text("Del servidor")
        await expect(notice.locator(".pinned-text")).to_have_text(
            "El torneo «Copa» terminó: gana ana con 1 punto."
        )
        view = ana.page.locator(".standings-view")
        await expect(view.locator("h2")).to_have_text("Clasificación final: Copa")
        await bob.close()


async def test_a_room_closed_by_the_teacher_says_why_in_spanish(
    db_path: Path, tmp_path: Path
) -> None:
    """Ana, whose browser speaks Spanish, waits in her room when the teacher
    closes it: the server says why as a code (``teacher``), and her page words
    it in Spanish, not in the server's English ``reason``."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ana = await web.person(viewport=SIZES["1280x720"], locale="es-ES")
        await enter_name_in_spanish(ana, "ana")
        await ana.page.locator("#new-game").select_option("tictactoe")
        await ana.page.get_by_role("button", name="Crear sala").click()
        await expect(ana.room).to_be_visible()
        code = await ana.data("room")
        assert await teacher.post(f"/api/admin/rooms/{code.lower()}/close") == {"closed": code}

        await expect(ana.page.locator(".lobby-view")).to_be_visible()
        closed = f"Se cerró la sala {code} (Tres en raya): la cerró tu docente"
        await expect(ana.page.locator(".notice").filter(has_text=closed)).to_have_count(1)
        await expect(ana.page.locator(".notice").filter(has_text="teacher")).to_have_count(0)
        await look(ana.page, shots_folder(tmp_path), "es-closed-by-the-teacher-1280x720")


async def test_a_tournament_no_show_says_who_forfeited_in_spanish(
    db_path: Path, tmp_path: Path
) -> None:
    """Ana, whose browser speaks Spanish, sits down to her tournament game and
    Bob never comes: the room closes for the no-show (``no_show``, with who was
    absent and who wins), and her page says so in Spanish."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ana = await web.person(viewport=SIZES["390x844"], locale="es-ES")
        await enter_name_in_spanish(ana, "ana")
        bob = await Player.join_server(web.server.ws_url, "bob")
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ana", "bob")]
        # 4 s to sit down, not the API's 10 s at least: what the page says is the test.
        await start_round_robin(web.server, "Copa", entrants, no_show_seconds=4)
        match = await bob.expect("match", round=1)
        await expect(ana.room).to_have_attribute("data-room", match["room"])  # sent there at once

        closed = (
            f"Se cerró la sala {match['room']} (Tres en raya): "
            "bob no se sentó a tiempo y pierde por no presentarse: gana ana"
        )
        notice = ana.page.locator(".notice").filter(has_text=closed)
        await expect(notice).to_have_count(1, timeout=20_000)
        await look(ana.page, shots_folder(tmp_path), "es-no-show-390x844")
        await bob.close()
