"""The class's pages in Spanish (issue 27): the teacher's page, its printed join
cards and the projector's wall, against a real class server started with
``language="es"`` (``serve --lang es``) or with none.

Which language each page speaks: the wall and the cards speak to the class, so
they follow the server's language whatever the browser at the keyboard says;
the teacher's page follows the server's too until the teacher chooses another
with its switch (then the cards stay in the class's language). With no server
language, each page follows its browser (Playwright's ``locale``).

The boards' own lines (whose move, results) are words.js's, translated with
the rest of the student's pages: these tests read the wall's and the teacher
page's own words, and that no Spanish word leaves a tile at projector sizes.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebPlayer, WebSession, web_session
from classroom_helpers import Teacher, a_lesson
from playwright.async_api import Page, expect
from test_browser_join_cards import pdf_pages
from test_browser_teacher_layout import CLASS as LESSON_CLASS
from test_browser_teacher_layout import outside_their_panel, overflowing
from test_browser_wall import (
    LOOK_AT_THE_PAGE,
    PAGE_SECONDS,
    class_of,
    every_page,
    open_games,
    play_game,
)
from tournament_helpers import pair_ann_and_bob

SCREENSHOTS = Path("/tmp/boardroom-class-es")

PROJECTORS = ({"width": 1280, "height": 720}, {"width": 1024, "height": 768})
"""A common projector and an old one."""

LOOK_WHILE_PAUSED = LOOK_AT_THE_PAGE.replace(
    '.tile-turn")', '.tile-turn, .tile-paused:not([hidden])")'
)
"""The wall's look at a page (test_browser_wall), the tiles' "En pausa" mark
included: every tile shows it while the games are paused."""

assert LOOK_WHILE_PAUSED != LOOK_AT_THE_PAGE


async def open_desk(
    web: WebSession,
    teacher: Teacher,
    *,
    locale: str,
    heading: str,
    refusals: tuple[int, ...] = (),
) -> WebPlayer:
    """The teacher's page in a browser set to ``locale``, once it shows ``heading``
    (``refusals``: the HTTP error statuses the test makes the API answer)."""
    desk = await web.open(
        f"/teacher#token={teacher.token}", locale=locale, allowed_statuses=refusals
    )
    await expect(desk.page.locator(".class-name")).to_have_text(heading)
    return desk


async def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


async def test_the_wall_speaks_the_classs_spanish_and_no_word_leaves_a_tile(
    db_path: Path,
) -> None:
    """A class server in Spanish, 24 games on the wall of an English browser
    (the wall follows the server): the title, the count of games in progress
    ("22 partidas en curso"), "Página 1/N", the paused banner and each tile's
    "En pausa", the teacher's message under "De tu docente". At 1280x720 and
    1024x768, paused, no title, name, line or mark is cut or leaves its tile."""
    async with web_session(
        db_path,
        class_name="7B",
        language="es",
        max_connections_per_address=64,
        max_rooms_per_address=0,
    ) as web:
        teacher = Teacher(web.server)
        players, codes = await open_games(web, 24)
        await players[1].request({"type": "resign", "room": codes[1]})
        await players[3].request({"type": "resign", "room": codes[3]})
        wall = await web.open(
            f"/wall#token={teacher.token}&page={PAGE_SECONDS}&finished=600", locale="en-US"
        )
        page = wall.page
        await expect(page.locator("html")).to_have_attribute("lang", "es")
        await expect(page.locator("#wall-title")).to_have_text("Clase 7B")
        await expect(page).to_have_title("7B · Mural · Boardroom")
        await expect(page.locator("#wall-counts")).to_have_text("22 partidas en curso")
        await expect(page.locator("#wall-rooms")).to_have_attribute("aria-label", "Partidas")

        await teacher.post("/api/admin/pause")
        await teacher.post("/api/admin/broadcast", {"text": "Quedan diez minutos"})
        await expect(page.locator("#wall-paused")).to_have_text("En pausa por tu docente")
        message = page.locator("#wall-announcement")
        await expect(message).to_have_text("De tu docente Quedan diez minutos")
        await expect(page.locator(".tile[data-status='playing'] .tile-paused").first).to_have_text(
            "En pausa"
        )
        for screen in PROJECTORS:
            await page.set_viewport_size(screen)
            shown = await every_page(page, LOOK_WHILE_PAUSED)
            where = f"24 games at {screen['width']}x{screen['height']}"
            assert [problem for look in shown for problem in look["problems"]] == [], where  # type: ignore[attr-defined]
            assert len(shown) > 1, where
            await expect(page.locator("#wall-page")).to_have_text(
                re.compile(rf"^Página [1-9]/{len(shown)}$")
            )
            await shot(page, f"wall-{screen['width']}x{screen['height']}")
        await teacher.post("/api/admin/resume")
        await expect(page.locator("#wall-paused")).to_be_hidden()


async def test_the_walls_tournament_in_spanish(db_path: Path) -> None:
    """Ann and Bob are paired in a tournament of a Spanish class. The wall says
    whom it waits for ("Esperando a que ann y bob se sienten (quedan N s)"),
    heads the standings beside the boards in Spanish, and once the one game is
    over shows the podium as "Copa, terminado: 1. … 1 pt · 2. … 0 pts"."""
    async with web_session(db_path, class_name="7B", language="es") as web:
        teacher = Teacher(web.server)
        ann, bob = await class_of(web, ["ann", "bob"])
        pairing = await pair_ann_and_bob(teacher, ann, bob, "Copa")
        matches, code = pairing.matches, pairing.room
        sides, by_side = pairing.sides, pairing.by_side

        wall = await web.open(f"/wall#token={teacher.token}", locale="en-US")
        page = wall.page
        turn = page.locator(f".tile[data-room='{code}'] .tile-turn")
        both = f"{by_side['first']} y {by_side['second']}"
        await expect(turn).to_have_text(
            re.compile(rf"^Esperando a que {both} se sienten \(quedan \d+ s\)$")
        )
        column = page.locator("#wall-tournament")
        await expect(column.locator(".wall-tournament-line")).to_have_text(
            re.compile(r"^Ronda 1 de 1 · todos contra todos · .+ · en marcha$")
        )
        await expect(column.locator(".standings thead th")).to_have_text(
            ["#", "Jugador/a", "Pts", "G-E-P", "+/\u2212"]
        )
        await ann.request({"type": "join", "code": matches["ann"]["code"]})
        await expect(turn).to_have_text(
            re.compile(r"^Esperando a que bob se siente \(quedan \d+ s\)$")
        )
        await shot(page, "wall-tournament-waiting")

        await bob.request({"type": "join", "code": matches["bob"]["code"]})
        await play_game({sides["ann"]: ann, sides["bob"]: bob}, code)
        strip = page.locator("#wall-tournament-strip")
        await expect(strip).to_have_text(
            f"Copa, terminado: 1. {by_side['first']} 1 pt \u00b7 2. {by_side['second']} 0 pts"
        )
        await shot(page, "wall-tournament-over")


async def test_the_teachers_page_roster_bulk_add_cards_and_tournament_form_in_spanish(
    db_path: Path,
) -> None:
    """The teacher of a Spanish class opens the page in an es-ES browser: the
    header's switch says Español; the class line counts in Spanish plurals; the
    roster's heads are Spanish. Pasting names with faults lists each in Spanish
    ("Línea 3 «bob»: ya está en la línea 1: …"); fixed, the sheet of cards is in
    Spanish. The tournament form is in Spanish and refuses one player in Spanish;
    its rounds hint counts "2 jugadores: 1 ronda."."""
    async with web_session(db_path, class_name="7B", language="es") as web:
        teacher = Teacher(web.server)
        await class_of(web, ["ann"])
        desk = await open_desk(web, teacher, locale="es-ES", heading="Clase 7B", refusals=(400,))
        page = desk.page
        await page.set_viewport_size({"width": 1280, "height": 720})
        await expect(page.locator("html")).to_have_attribute("lang", "es")
        await expect(page).to_have_title("7B · Docente · Boardroom")
        switch = page.locator("header .language-switch")
        await expect(switch).to_have_attribute("aria-label", "Idioma")
        await expect(switch.locator("option:checked")).to_have_text("Español")
        await expect(page.locator(".class-counts")).to_have_text(
            "1 estudiante, 1 conectado · 0 salas, 0 partidas en curso"
        )
        await expect(page.locator("#pause-toggle")).to_have_text("Pausar todas las partidas")
        await expect(page.locator("#hints-toggle")).to_have_text("Pistas: desactivadas")
        await expect(page.locator(".roster thead th")).to_have_text(
            ["Nombre", "Juega como", "Presente", "Salas", "Partidas", "G-E-P", "Acciones"]
        )
        await expect(page.locator(".roster tbody tr")).to_have_count(1)
        await expect(page.get_by_role("button", name="Renombrar a ann")).to_have_text("Renombrar")
        await shot(page, "teacher-top")

        box = page.get_by_label("Nombres, uno por línea")
        long_name = "Bartolomé Maximiliano Fitzgerald!"  # 33 characters
        await box.fill("\n".join(["Bob", "ANN", "bob", long_name]))
        await page.get_by_role("button", name="Añadir estudiantes").click()
        error = page.locator(".accounts-panel .form-error")
        await expect(error).to_contain_text(
            "No se añadió a nadie: corrige 3 líneas y vuelve a hacer clic en Añadir estudiantes."
        )
        await expect(error.locator("li")).to_have_text(
            [
                "Línea 2 «ANN»: ya está en la lista de la clase: "
                "da un nombre distinto a cada estudiante",
                "Línea 3 «bob»: ya está en la línea 1: da un nombre distinto a cada estudiante",
                f"Línea 4 «{long_name}»: el nombre tiene 33 caracteres: elige de 1 a 32",
            ]
        )
        await error.scroll_into_view_if_needed()
        await shot(page, "teacher-bulk-add-problems")

        await box.fill("\n".join(CLASS))
        await page.get_by_role("button", name="Añadir estudiantes").click()
        cards = page.locator(".account-card")
        await expect(cards).to_have_count(len(CLASS))
        await expect(page.locator("#sheet-title")).to_have_text(
            "Enlaces de acceso de la clase 7B: 8 estudiantes"
        )
        await expect_spanish_cards(page)
        await expect(page.get_by_role("button", name="Imprimir")).to_be_visible()
        await shot(page, "teacher-card-sheet")
        # Printed, the Spanish cards (a longer note) still fit eight a page, each note whole.
        await page.emulate_media(media="print")
        for paper in ("A4", "Letter"):
            assert pdf_pages(await page.pdf(format=paper)) == 1, paper
        cut = await cards.evaluate_all(CUT_NOTES)
        assert cut == [], cut
        await page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        await page.evaluate("window.scrollTo(0, 0)")
        await shot(page, "printed-sheet")
        await page.emulate_media(media="screen")
        await page.set_viewport_size({"width": 1280, "height": 720})
        await page.locator(".roster").scroll_into_view_if_needed()
        await shot(page, "teacher-roster")

        form = page.locator("#new-tournament")
        await expect(page.locator("#new-tournament-title")).to_have_text("Nuevo torneo")
        await expect(
            form.get_by_label("Todos contra todos: cada jugador/a juega con todos los demás")
        ).to_be_checked()
        await expect(form.locator(".entrant[data-entrant='ai:hard']")).to_have_text(
            re.compile(r"^\s*IA \(difícil\)$")
        )
        await form.get_by_label("Nombre", exact=True).fill("Copa del viernes")
        await form.locator(".entrant[data-entrant='ai:easy'] input").check()
        await form.get_by_role("button", name="Empezar el torneo").click()
        await expect(form.locator(".form-error")).to_have_text("Elige al menos dos jugadores")
        await form.locator(".entrant[data-entrant='ai:hard'] input").check()
        await expect(form.locator("#robin-rounds-hint")).to_have_text("2 jugadores: 1 ronda.")
        await form.scroll_into_view_if_needed()
        await shot(page, "teacher-tournament-form")
        await form.get_by_role("button", name="Empezar el torneo").click()
        tournament = page.locator(".tournament-panel .tournament")
        await expect(tournament.locator(".tournament-line")).to_have_text(
            re.compile(r"^Ronda 1 de 1 · todos contra todos · .+ · (en marcha|terminado)$")
        )
        await expect(tournament.locator("h4").first).to_have_text("Clasificación")
        await shot(page, "teacher-tournament")


CLASS = ("Bob", "Carla", "María José", "Maximiliano", "Guadalupe", "Sebastián", "Ximena", "Leo")
"""The students the teacher adds: a sheet of eight cards, one printed page."""

CUT_NOTES = """(cards) => cards.flatMap((card) => {
  const box = card.getBoundingClientRect();
  return [...card.querySelectorAll("p, h3")]
    .filter((part) => part.scrollWidth > part.clientWidth + 1
      || part.getBoundingClientRect().bottom > box.bottom + 0.5)
    .map((part) => `${card.dataset.name}: ${part.className} "${part.textContent}"`);
})"""
"""The parts of the cards cut or out of their card (none, on a good sheet)."""


async def expect_spanish_cards(page: Page) -> None:
    """The sheet's cards say what to do in Spanish (the class's language)."""
    cards = page.locator(".account-card")
    await expect(cards.first).to_have_attribute("lang", "es")
    await expect(cards.locator(".card-class").first).to_have_text("Boardroom · clase 7B")
    await expect(cards.locator(".card-code-label").first).to_have_text("Código de clase")
    await expect(cards.locator(".card-note").first).to_have_text(
        "Escanea el código o abre el enlace: es tu clave, no se la des a nadie. "
        "O escribe tu código de clase en la página de inicio."
    )


async def test_a_teacher_who_reads_english_prints_the_classs_cards_in_spanish(
    db_path: Path,
) -> None:
    """The class is Spanish; its teacher chooses English with the header's switch
    (remembered: the page reloads in English, the token kept). The page speaks
    English; the cards it prints speak the class's Spanish."""
    async with web_session(db_path, class_name="7B", language="es") as web:
        teacher = Teacher(web.server)
        desk = await open_desk(web, teacher, locale="es-ES", heading="Clase 7B")
        page = desk.page
        await page.locator("header .language-switch").select_option("en")
        await expect(page.locator(".class-name")).to_have_text("Class 7B")
        await expect(page.locator("html")).to_have_attribute("lang", "en")
        await page.get_by_label("Names, one per line").fill("Bob")
        await page.get_by_role("button", name="Add students").click()
        await expect(page.locator("#sheet-title")).to_have_text(
            "Join links for class 7B: 1 student"
        )
        await expect_spanish_cards(page)


async def test_with_no_class_language_each_browser_reads_its_own(db_path: Path) -> None:
    """A class server started without --lang: the teacher's page, its cards and
    the wall speak Spanish to an es-ES browser and English to an en-US one."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        spanish = await open_desk(web, teacher, locale="es-ES", heading="Clase 7B")
        await expect(spanish.page.locator("#pause-toggle")).to_have_text(
            "Pausar todas las partidas"
        )
        await spanish.page.get_by_label("Nombres, uno por línea").fill("Bob")
        await spanish.page.get_by_role("button", name="Añadir estudiantes").click()
        await expect_spanish_cards(spanish.page)

        english = await open_desk(web, teacher, locale="en-US", heading="Class 7B")
        await expect(english.page.locator("html")).to_have_attribute("lang", "en")
        await expect(english.page.locator("#pause-toggle")).to_have_text("Pause all games")
        await english.page.get_by_label("Names, one per line").fill("Cy")
        await english.page.get_by_role("button", name="Add students").click()
        await expect(english.page.locator(".card-code-label")).to_have_text("Class code")

        for locale, words in (("es-ES", "0 partidas en curso"), ("en-US", "0 games in progress")):
            wall = await web.open(f"/wall#token={teacher.token}", locale=locale)
            await expect(wall.page.locator("#wall-counts")).to_have_text(words)
            await expect(wall.page.locator(".wall-message")).to_have_text(
                "Aún no hay partidas." if locale == "es-ES" else "No games yet."
            )


WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5 && el.offsetParent !== null)
  .filter((el) => ![...el.children]
    .some((child) => child.getBoundingClientRect().right > innerWidth + 0.5))
  .map((el) => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`)"""
"""The innermost elements shown that reach past the screen's right edge."""


async def test_the_teachers_page_in_a_spanish_lesson_fits_the_projector(db_path: Path) -> None:
    """The lesson of test_browser_teacher_layout (25 students, rooms in play and
    one finished, a tournament waiting for its players) in a Spanish class, at
    1280x720 and 1024x768 (one lesson, the window resized): the longer Spanish
    words leave no control outside its panel, no text cut in a cell, button,
    label or heading, and the page does not scroll sideways. The rooms name whom
    a tournament game waits for."""
    async with web_session(db_path, class_name="7B", language="es") as web:
        teacher = Teacher(web.server)
        players = await a_lesson(
            web.server.ws_url,
            teacher,
            LESSON_CLASS,
            tournament="Friday Connect Four cup",
            entrants=4,
        )
        desk = await open_desk(web, teacher, locale="es-ES", heading="Clase 7B")
        page = desk.page
        await page.set_viewport_size(PROJECTORS[0])
        await expect(page.locator(".roster tbody tr")).to_have_count(25)
        finished = page.locator(".finished-rooms summary")
        await expect(finished).to_have_text("Terminadas (1)")
        await finished.click()
        await expect(page.locator(".rooms-panel")).to_contain_text("(aún no está)")
        await expect(page.locator(".rooms-panel")).to_contain_text(
            "Friday Connect Four cup, ronda 1"
        )
        await expect(page.locator(".tournament-panel h4").first).to_have_text("Clasificación")
        SCREENSHOTS.mkdir(exist_ok=True)
        for viewport in PROJECTORS:
            await page.set_viewport_size(viewport)
            await page.screenshot(
                path=str(SCREENSHOTS / f"teacher-lesson-{viewport['width']}.png"), full_page=True
            )
            where = f"{viewport['width']}x{viewport['height']}"
            assert await outside_their_panel(page) == [], where
            width = await page.evaluate("document.documentElement.scrollWidth")
            wide = await page.evaluate(WIDER_THAN_THE_SCREEN)
            assert width <= viewport["width"], (
                f"{where}: the page scrolls sideways: {width} px: {wide}"
            )
            cut = await overflowing(page, "main th, main td, main button, main label, main h2")
            assert cut == [], where
        for player in players:
            await player.close()


async def test_the_teachers_page_says_what_went_wrong_in_spanish(db_path: Path) -> None:
    """In an es-ES browser: a wrong token's page, a missing token's and a wall
    opened without the token say what to do in Spanish; a rename to a name with
    an invisible character is refused in the student's row in Spanish (the
    API's code worded by the page), and the row keeps the old name."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        wrong = await web.open(
            "/teacher#token=not-the-token", allowed_statuses=(401,), locale="es-ES"
        )
        await expect(wrong.page.locator(".teacher-message h1")).to_have_text("Enlace equivocado")
        await expect(wrong.page.locator(".teacher-message p")).to_have_text(
            "El token de este enlace no es el token del docente. Abre el enlace del "
            "docente que mostró boardroom serve (termina en #token=…)."
        )
        none = await web.open("/teacher", locale="es-ES")
        await expect(none.page.locator(".teacher-message h1")).to_have_text(
            "Esta página necesita el enlace del docente"
        )
        wall = await web.open("/wall", locale="es-ES")
        await expect(wall.page.locator(".wall-message")).to_have_text(
            "Este mural necesita el token del docente: ábrelo desde la página del docente."
        )

        await class_of(web, ["ann"])
        desk = await open_desk(web, teacher, locale="es-ES", heading="Clase 7B", refusals=(400,))
        row = desk.page.locator(".roster tbody tr[data-name='ann']")
        await row.get_by_role("button", name="Renombrar a ann").click()
        field = row.get_by_label("Nuevo nombre para ann")
        await field.fill("Ana\u200b")  # a zero-width space: invisible, refused
        await row.get_by_role("button", name="Guardar").click()
        await expect(row.locator(".form-error")).to_have_text(
            "Ese nombre no se puede usar: elige de 1 a 32 letras, cifras, espacios "
            "o signos de puntuación."
        )
        await row.get_by_role("button", name="Cancelar").click()
        await expect(row.locator(".student-name")).to_have_text("ann")
