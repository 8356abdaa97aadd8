"""Take the screenshots of the class-mode pages for the docs (not a test).

Run from the repository root::

    .venv/bin/python tests/screenshots.py [--lang en|es] [OUTPUT_FOLDER]

It starts the real server in class mode on a throwaway database, connects real
protocol players (:class:`harness.Player`) who play casual games and a round
robin tournament (its first round played out, the second under way), puts one
student in the browser client playing the AI, sends an announcement, and saves
what Chromium shows (``docs/images/`` by default):

- ``tournament-form.png``: the teacher's tournament form, filled in, the AI
  at ``medium`` for a student who leaves (the tournament is then started by
  clicking its button);
- ``teacher.png``: the teacher's page, the roster and the running tournament;
- ``wall.png``: the wall on a 1920x1080 projector, live games and standings;
- ``wall-1280x720.png``: the wall on a 1280x720 projector with 20 games in
  progress (a class of its own, on a server of its own) and the teacher's
  message: the first of its pages of boards;
- ``student.png``: the student's game with the teacher's announcement;
- ``phone-notice.png``: the same on a 390x844 phone: the message above the
  whole board;
- ``leaderboard.png``: the ratings after those games;
- ``review.png``: the review of a whole Connect Four game (two ``medium`` AIs'
  moves, played by two students), shown at its first turning point;
- ``hint.png``: a student's Connect Four game against the AI with a hint shown
  (the teacher has turned hints on);
- ``ai-match.png``: two AIs playing Connect Four, opened from the lobby;
- ``cards.png``: the printed sheet of join cards (print media, an A4 page):
  eight students' names, QR codes, class codes and links, on a server of its
  own whose links lead to ``--public-url http://192.168.1.20:8765/``
  (``tests/screenshots.py cards`` takes this one alone).

Each page's function takes a running server and a browser, so that one picture
can be taken again alone (``hint_page`` and ``ai_match_page`` need no class).

``--lang es`` takes the Spanish twins (``docs/es/images/`` by default;
``--lang es cards`` takes the cards alone): every server speaks the language
(``language=``), every browser asks for it (``locale``), the teacher's messages
and the tournament's name are written in it, and the labels the script clicks
are read from the catalogue (:func:`say`), so they are the words on the page.
The students' names stay as they are.

Moves are chosen at random among the legal ones (seeded), so each run looks
alike without being scripted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from browser import CHROMIUM_FLAGS, LAPTOP, chromium_path
from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server, wait_until
from playwright.async_api import Browser, Page, async_playwright, expect

from boardroom.shared.games import get_game
from boardroom.shared.i18n import translator

DOCS = Path(__file__).resolve().parent.parent / "docs"
IMAGES = {"en": DOCS / "images", "es": DOCS / "es" / "images"}
"""Where each language's pictures go by default."""
BROWSER_LOCALES = {"en": "en-US", "es": "es-ES"}
LANG = "en"
"""The language of the pictures (``--lang``); set once, before anything runs."""


def say(message: str, /, **params: Any) -> str:
    """``message`` (an English msgid of the catalogue) as the pages write it in :data:`LANG`."""
    return translator(LANG).gettext(message, **params)


def say_n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural message for ``n`` as the pages write it in :data:`LANG`."""
    return translator(LANG).ngettext(singular, plural, n, **params)


def locale() -> str:
    """The browser's locale (its ``navigator.languages``) for :data:`LANG`."""
    return BROWSER_LOCALES[LANG]


WRITTEN = {
    "en": {
        "announcement": "Ten minutes left: finish your game, then look at the wall.",
        "phone announcement": (
            "Hands off the keyboards for a minute: look at the wall, then finish your game."
        ),
        "tournament": "Friday Connect Four",
    },
    "es": {
        "announcement": "Quedan diez minutos: termina tu partida y luego mira el mural.",
        "phone announcement": (
            "Suelta el teclado un minuto: mira el mural y luego termina tu partida."
        ),
        "tournament": "Copa de Conecta 4 del viernes",
    },
}
"""What the teacher types, in each language (typed, so not in the catalogue)."""


def written(what: str) -> str:
    """The teacher's text ``what`` in :data:`LANG`."""
    return WRITTEN[LANG][what]


PROJECTOR = {"width": 1920, "height": 1080}
CASUAL = (
    ("Ada", "Ben", "tictactoe4", 6),
    ("Chloe", "AI", "connect4", 5),
    ("Dev", "Ema", "gomoku", 9),
    ("Finn", "Gus", "connect4", 8),
    ("Hana", "AI", "tictactoe", 9),
    ("Omar", "Pia", "connect4", 3),
    ("Quinn", "AI", "tictactoe", 3),
    ("Rosa", "Sam", "tictactoe", 4),
    ("Tom", "AI", "connect4", 7),
    ("Uma", "Vic", "tictactoe4", 5),
)
"""(first player, second player or the AI, game, how many moves to play)."""
TOURNAMENT_PLAYERS = ("Ivo", "Jun", "Kai", "Lea")
CLASS_URL = "http://192.168.1.20:8765/"
"""The address students reach the server at, in the pictures."""

PHONE = {"width": 390, "height": 844}

chooser = random.Random(7)
SAVED: list[str] = []
"""The files written, in order."""
running_tasks: set[asyncio.Task[None]] = set()
"""The tournament students, held so that they keep playing."""


async def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        # A lesson's server, as docs/classroom.md starts it: the script's players
        # and the browser's pages all come from one address, as a school's NAT;
        # a network address for the join links, as the teacher's laptop has.
        async with running_server(
            Path(scratch) / "class.db",
            class_name="7B",
            max_connections_per_address=250,
            public_url=CLASS_URL,
            # The compiled solver, as `boardroom serve` runs it: the review and the
            # hint show proven Connect Four values (the tests' pure one estimates).
            engine="auto",
            language=LANG,
        ) as server:
            teacher = Teacher(server)
            await casual_games(server)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=chromium_path(), args=list(CHROMIUM_FLAGS)
                )
                try:
                    await start_tournament(server, teacher, browser, folder)
                    await student_page(server, teacher, browser, folder / "student.png")
                    await phone_notice_page(server, teacher, browser, folder / "phone-notice.png")
                    await teacher_page(server, teacher, browser, folder / "teacher.png")
                    await wall_page(server, teacher, browser, folder / "wall.png")
                    await projector_wall_page(browser, folder / "wall-1280x720.png")
                    await leaderboard_page(server, browser, folder / "leaderboard.png")
                    await review_page(server, browser, folder / "review.png")
                    await teacher.post("/api/admin/hints", {"allowed": True})
                    await hint_page(server, browser, folder / "hint.png")
                    await ai_match_page(server, browser, folder / "ai-match.png")
                    await cards_page(browser, folder / "cards.png")
                finally:
                    await browser.close()
    print(f"Saved {', '.join(SAVED)} in {folder}")


async def cards_only(folder: Path) -> None:
    """``cards.png`` alone."""
    folder.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_path(), args=list(CHROMIUM_FLAGS)
        )
        try:
            await cards_page(browser, folder / "cards.png")
        finally:
            await browser.close()
    print(f"Saved {', '.join(SAVED)} in {folder}")


# -- players ---------------------------------------------------------------------------


async def play_moves(player: Player, room: str, side: str, limit: int | None) -> None:
    """Play random legal moves for ``side`` in ``room`` until the game ends or this
    player has made ``limit`` moves."""

    async def current() -> dict[str, Any]:
        return dict((await player.request({"type": "get_state", "room": room}))["room"])

    def over_or_ours(state: dict[str, Any]) -> bool:
        return state["status"] == "finished" or (
            state["status"] == "playing" and state.get("to_move") == side
        )

    made = 0
    while limit is None or made < limit:
        state = await wait_until(current, over_or_ours, timeout=3600)
        if state["status"] == "finished":
            return
        game = get_game(state["game"])
        position = game.from_moves(state["moves"])
        move = game.format_move(chooser.choice(game.legal_moves(position)))
        await player.request({"type": "move", "room": room, "move": move, "ply": state["ply"]})
        made += 1


async def casual_games(server: RunningServer) -> None:
    for first_name, second_name, game, moves in CASUAL:
        first = await Player.join_server(server.ws_url, first_name)
        message: dict[str, Any] = {"type": "create_room", "game": game, "public": True}
        if second_name == "AI":
            message["ai_level"] = "easy"
        room = (await first.request(message))["room"]["code"]
        if second_name == "AI":
            await play_moves(first, room, "first", (moves + 1) // 2)
            continue
        second = await Player.join_server(server.ws_url, second_name, client="bot")
        await second.request({"type": "join", "code": room})
        for ply in range(moves):
            mover, side = (first, "first") if ply % 2 == 0 else (second, "second")
            await play_moves(mover, room, side, 1)


async def tournament_student(player: Player) -> None:
    """Answer each ``match``: play round 1 out, then a couple of moves of round 2."""
    while True:
        match = await player.expect("match", timeout=3600)
        await player.request({"type": "join", "code": match["code"]})
        limit = None if match["round"] == 1 else 2
        await play_moves(player, match["room"], match["side"], limit)


async def start_tournament(
    server: RunningServer, teacher: Teacher, browser: Browser, folder: Path
) -> None:
    """A Connect Four round robin of four students and the AI, started from the
    teacher's form (saved as ``tournament-form.png``); returns once its first
    round is over."""
    students = [await Player.join_server(server.ws_url, name) for name in TOURNAMENT_PLAYERS]
    tasks = [asyncio.create_task(tournament_student(student)) for student in students]
    running_tasks.update(tasks)
    context = await browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto(f"/teacher#token={teacher.token}")
    form = page.locator("#new-tournament")
    for name in TOURNAMENT_PLAYERS:
        await form.get_by_label(name, exact=True).wait_for()
    await form.get_by_label(say("Name")).fill(written("tournament"))
    await form.locator("#tournament-game").select_option("connect4")
    for name in (*TOURNAMENT_PLAYERS, say("AI ({level})", level=say("easy"))):
        await form.get_by_label(name, exact=True).check()
    # The AI plays for a student who leaves (the class's choice is off until the teacher sets it).
    await form.locator("#field-autopilot").select_option("medium")
    await form.screenshot(path=folder / "tournament-form.png")
    SAVED.append("tournament-form.png")
    await form.get_by_role("button", name=say("Start the tournament")).click()
    await expect(page.locator(".tournament-name")).to_have_text(written("tournament"))
    await context.close()
    await wait_until(
        lambda: teacher.get("/api/admin/tournaments"),
        lambda body: body["tournaments"][0]["round"] >= 2,
        timeout=60,
    )
    # For the pictures, not a wait for an event: the second round's first moves.
    await asyncio.sleep(1.0)


# -- pages -----------------------------------------------------------------------------


async def connect_four_against_the_ai(
    server: RunningServer,
    browser: Browser,
    viewport: dict[str, int],
    name: str,
    columns: tuple[str, ...],
) -> Page:
    """A page at ``viewport`` where ``name`` plays ``columns`` against the easy
    AI at Connect Four, left at their next turn."""
    context = await browser.new_context(
        viewport=viewport, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto("/")
    await page.get_by_label(say("Your name")).fill(name)
    await page.get_by_role("button", name=say("Enter"), exact=True).click()
    await page.locator("#new-game").select_option("connect4")
    await page.get_by_label(say("The AI"), exact=True).check()
    await page.locator("#new-level").select_option("easy")
    await page.get_by_role("button", name=say("Create room"), exact=True).click()
    room = page.locator(".room-view")
    for column in columns:
        await page.locator(".room-view.your-turn").wait_for()
        ply = await room.get_attribute("data-ply")
        await page.locator(f".column[data-column='{column}']").click()
        await expect(room).not_to_have_attribute("data-ply", ply or "")
    await page.locator(".room-view.your-turn").wait_for()
    return page


async def student_page(
    server: RunningServer, teacher: Teacher, browser: Browser, path: Path
) -> None:
    page = await connect_four_against_the_ai(server, browser, LAPTOP, "Mia", ("4", "3", "4"))
    await teacher.post("/api/admin/broadcast", {"text": written("announcement")})
    await expect(page.locator(".pinned.announcement")).to_be_visible()
    await page.screenshot(path=path)
    SAVED.append(path.name)


async def phone_notice_page(
    server: RunningServer, teacher: Teacher, browser: Browser, path: Path
) -> None:
    """Noa plays the AI at Connect Four on a 390x844 phone when the teacher's
    message comes: it stands above the board, which stays whole on screen."""
    page = await connect_four_against_the_ai(server, browser, PHONE, "Noa", ("4", "4", "3"))
    await teacher.post("/api/admin/broadcast", {"text": written("phone announcement")})
    await expect(page.locator(".pinned.announcement").last).to_contain_text(
        written("phone announcement")
    )
    await page.screenshot(path=path)
    SAVED.append(path.name)


async def teacher_page(
    server: RunningServer, teacher: Teacher, browser: Browser, path: Path
) -> None:
    context = await browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto(f"/teacher#token={teacher.token}")
    await page.locator(".roster tbody tr").first.wait_for()
    # For the picture, not a wait for an event: a later poll (every 2 s), every panel filled.
    await asyncio.sleep(2.5)
    await page.screenshot(path=path, full_page=True)
    SAVED.append(path.name)


async def wall_page(server: RunningServer, teacher: Teacher, browser: Browser, path: Path) -> None:
    context = await browser.new_context(
        viewport=PROJECTOR, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto(f"/wall#token={teacher.token}")
    await page.locator(".tile").first.wait_for()
    # For the picture, not a wait for an event: the wall looks at the tournament every
    # third poll (a poll a second), so the standings shown are as fresh as the boards.
    await asyncio.sleep(3.5)
    await page.screenshot(path=path)
    SAVED.append(path.name)


PROJECTOR_CLASS = (
    "Alexandra", "Ben", "Chloe", "Dmitri", "Ema", "Finn", "Gus", "Hana", "Ivo", "Jun",
    "Kai", "Lea", "Maximilian", "Nia", "Omar", "Pia", "Quinn", "Rosa", "Sam", "Tom",
)  # fmt: skip
PROJECTOR_GAMES = ("tictactoe", "connect4", "tictactoe4", "connect4", "gomoku")


async def projector_wall_page(browser: Browser, path: Path) -> None:
    """A class of 20 on a server of its own, each student playing the next one
    (and the last the first), a few moves into each game, and the teacher's
    message: the wall on a 1280x720 projector, its first page of boards."""
    with tempfile.TemporaryDirectory() as scratch:
        # Twenty students on one machine: more connections than one address may
        # hold by default, as for a class behind one address (docs/classroom.md).
        async with running_server(
            Path(scratch) / "wall.db",
            class_name="7B",
            max_connections_per_address=64,
            language=LANG,
        ) as server:
            students = [await Player.join_server(server.ws_url, name) for name in PROJECTOR_CLASS]
            for index, (first, second) in enumerate(
                zip(students, students[1:] + students[:1], strict=True)
            ):
                game = PROJECTOR_GAMES[index % len(PROJECTOR_GAMES)]
                created = await first.request({"type": "create_room", "game": game, "public": True})
                room = created["room"]["code"]
                await second.request({"type": "join", "code": room})
                for ply in range(2 + index % 4):
                    mover, side = (first, "first") if ply % 2 == 0 else (second, "second")
                    await play_moves(mover, room, side, 1)
            teacher = Teacher(server)
            await teacher.post("/api/admin/broadcast", {"text": written("announcement")})
            context = await browser.new_context(
                viewport={"width": 1280, "height": 720},
                base_url=server.http_url(""),
                locale=locale(),
            )
            page = await context.new_page()
            await page.goto(f"/wall#token={teacher.token}")
            await expect(page.locator("#wall-counts")).to_have_text(
                say_n("{n} game in progress", "{n} games in progress", 20)
            )
            await expect(page.locator("#wall-announcement")).to_be_visible()
            await expect(page.locator("#wall-page")).to_have_text(
                say("Page {page}/{pages}", page=1, pages=2)
            )
            await page.screenshot(path=path)
            await context.close()
    SAVED.append(path.name)


async def leaderboard_page(server: RunningServer, browser: Browser, path: Path) -> None:
    context = await browser.new_context(
        viewport=LAPTOP, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto("/leaderboard")
    await page.get_by_role("tab", name=say("Connect Four")).click()
    await page.locator("tbody tr").first.wait_for()
    await page.screenshot(path=path)
    SAVED.append(path.name)


REVIEWED = "426552522655664464414653111113333377227777"
"""A whole 42-move Connect Four game (two ``medium`` AIs, seed 100), a draw: some
values proven, some estimates (tests/e2e/test_e2e_analysis.py plays it too)."""


async def review_page(server: RunningServer, browser: Browser, path: Path) -> None:
    ada = await Player.join_server(server.ws_url, "Wes")
    code = (await ada.request({"type": "create_room", "game": "connect4"}))["room"]["code"]
    ben = await Player.join_server(server.ws_url, "Xia")
    await ben.request({"type": "join", "code": code})
    for ply, move in enumerate(REVIEWED):
        await (ada, ben)[ply % 2].request({"type": "move", "room": code, "move": move})
    game_id = (await ada.expect("game_over"))["game_id"]
    context = await browser.new_context(
        viewport=LAPTOP, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto(f"/#/review/{game_id}")
    await expect(page.locator(".review-view")).to_have_attribute(
        "data-complete", "true", timeout=120_000
    )
    turning = page.locator(".turning-point")
    if await turning.count():
        await turning.first.click()
    await page.screenshot(path=path)
    SAVED.append(path.name)


async def hint_page(server: RunningServer, browser: Browser, path: Path) -> None:
    """Nia plays the AI at Connect Four, asks for a hint on her third move: the
    hint under the board, its column ringed. Hints must be on (class mode: the
    teacher's switch)."""
    context = await browser.new_context(
        viewport=LAPTOP, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto("/")
    await page.get_by_label(say("Your name")).fill("Nia")
    await page.get_by_role("button", name=say("Enter"), exact=True).click()
    await page.locator("#new-game").select_option("connect4")
    await page.get_by_label(say("The AI"), exact=True).check()
    await page.locator("#new-level").select_option("easy")
    await page.get_by_role("button", name=say("Create room"), exact=True).click()
    room = page.locator(".room-view")
    for column in ("4", "3"):
        await page.locator(".room-view.your-turn").wait_for()
        ply = await room.get_attribute("data-ply")
        await page.locator(f".column[data-column='{column}']").click()
        await expect(room).not_to_have_attribute("data-ply", ply or "")
    await page.locator(".room-view.your-turn").wait_for()
    await page.get_by_role("button", name=say("Hint"), exact=True).click()
    await expect(page.locator(".column.hint")).to_have_count(1)
    await page.screenshot(path=path)
    SAVED.append(path.name)


async def ai_match_page(server: RunningServer, browser: Browser, path: Path) -> None:
    """Two AIs (medium as X, perfect as O) at Connect Four, 0.5 s a move, opened
    from the lobby; the picture once twelve moves are on the board."""
    context = await browser.new_context(
        viewport=LAPTOP, base_url=server.http_url(""), locale=locale()
    )
    page = await context.new_page()
    await page.goto("/")
    await page.get_by_label(say("Your name")).fill("Oli")
    await page.get_by_role("button", name=say("Enter"), exact=True).click()
    await page.locator("#new-game").select_option("connect4")
    await page.get_by_label(say("Two AIs (watch)")).check()
    await page.locator("#match-first").select_option("medium")
    await page.locator("#match-second").select_option("perfect")
    await page.locator("#match-pace").select_option("0.5")
    await page.get_by_role("button", name=say("Create room"), exact=True).click()
    await page.wait_for_function(
        "() => Number(document.querySelector('.room-view')?.dataset.ply) >= 12", timeout=60_000
    )
    await page.screenshot(path=path)
    SAVED.append(path.name)


CARD_NAMES = ("Ada Lovelace", "Ben", "Chloe", "Dev Patel", "Ema", "Finn", "Gus", "Hana")
A4_AT_96_DPI = {"width": 794, "height": 1123}


async def cards_page(browser: Browser, path: Path) -> None:
    """The teacher adds eight students; the sheet as printed on an A4 page."""
    with tempfile.TemporaryDirectory() as scratch:
        async with running_server(
            Path(scratch) / "cards.db", class_name="7B", public_url=CLASS_URL, language=LANG
        ) as server:
            teacher = Teacher(server)
            context = await browser.new_context(
                viewport=LAPTOP, base_url=server.http_url(""), locale=locale()
            )
            page = await context.new_page()
            await page.goto(f"/teacher#token={teacher.token}")
            await page.get_by_label(say("Names, one per line")).fill("\n".join(CARD_NAMES))
            await page.get_by_role("button", name=say("Add students")).click()
            await expect(page.locator(".account-card")).to_have_count(len(CARD_NAMES))
            await page.emulate_media(media="print")
            await page.set_viewport_size(A4_AT_96_DPI)
            await page.evaluate("window.scrollTo(0, 0)")
            await page.screenshot(path=path)
            SAVED.append(path.name)


def arguments(argv: list[str]) -> argparse.Namespace:
    """``[--lang en|es] [cards] [FOLDER]``."""
    parser = argparse.ArgumentParser(description="Take the docs' screenshots (not a test).")
    parser.add_argument("--lang", choices=sorted(IMAGES), default="en", help="their language")
    parser.add_argument("what", nargs="*", help="'cards' for cards.png alone; then the folder")
    options = parser.parse_args(argv)
    words = list(options.what)
    options.cards = words[:1] == ["cards"]
    del words[: int(options.cards)]
    if len(words) > 1:
        parser.error("one folder at most")
    options.folder = Path(words[0]) if words else IMAGES[options.lang]
    return options


if __name__ == "__main__":
    # The engine's worker processes import this module again: run only in the parent.
    options = arguments(sys.argv[1:])
    LANG = options.lang
    asyncio.run(cards_only(options.folder) if options.cards else main(options.folder))
