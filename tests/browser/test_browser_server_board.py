"""The page draws the server's state, not its own copy of the rules: the games it
offers are GET /api/games's (the registry's), the board it shows is the one
``state`` and ``moved`` carry, and a click is a move only where the server's
legal moves allow it (docs/protocol.md, "The board")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from browser import LAPTOP, TIMEOUT_MS, WebPlayer, WebSession, web_session
from classroom_helpers import Teacher
from harness import Player, play_out
from playwright.async_api import Route, WebSocketRoute, expect
from test_browser_teacher import open_teacher

from boardroom.server.web.routes import STATIC_DIR
from boardroom.shared.games import default_game, game_specs

SIDE_OF_MARK = {"X": "first", "O": "second"}


def stones_of(rows: list[str]) -> dict[str, str]:
    """The server's rows (top first) as cell name -> side, as the page names cells."""
    stones = {}
    for index, line in enumerate(rows):
        for column, mark in enumerate(line):
            if mark in SIDE_OF_MARK:
                stones[f"{chr(97 + column)}{len(rows) - index}"] = SIDE_OF_MARK[mark]
    return stones


async def page_stones(person: WebPlayer) -> dict[str, str]:
    """The stones the page's board shows: cell name -> side."""
    shown: dict[str, str] = await person.page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll(".room-view .cell.first, .room-view .cell.second")]
              .map((cell) => [
                cell.dataset.cell, cell.classList.contains("first") ? "first" : "second"
              ]))"""
    )
    return shown


async def options(person: WebPlayer, select: str) -> list[tuple[str, str]]:
    pairs: list[list[str]] = await person.page.locator(f"{select} option").evaluate_all(
        "(options) => options.map((option) => [option.value, option.textContent])"
    )
    return [(value, text) for value, text in pairs]


async def test_the_lobby_lists_the_registry_s_games_and_the_family_s_sizes(
    db_path: Path,
) -> None:
    """The lobby's games are GET /api/games's, in its order and with its titles
    (quick match: the single games); a family's size fields take its ranges."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        registry = [(spec.name, spec.title) for spec in game_specs()]
        assert await options(ann, "#new-game") == registry
        singles = [(spec.name, spec.title) for spec in game_specs() if not spec.is_family]
        assert await options(ann, "#quick-game") == singles
        assert any(url.endswith("/api/games") for url in ann.requests)
        for family in (spec for spec in game_specs() if spec.is_family):
            sizes = ann.page.locator(f"fieldset[data-family='{family.name}']")
            await expect(sizes).to_be_hidden()  # until the family is chosen
            await ann.page.locator("#new-game").select_option(family.name)
            await expect(sizes).to_be_visible()
            for size in family.sizes:
                field = sizes.locator(f"input[name='{size.name}']")
                await expect(field).to_have_attribute("min", str(size.low))
                await expect(field).to_have_attribute("max", str(size.high))


async def test_the_tournament_form_lists_the_registry_s_games_too(db_path: Path) -> None:
    """The teacher's tournament form offers GET /api/games's games, families with
    their size fields, as the lobby does."""
    async with web_session(db_path, class_name="7B") as web:
        desk = await open_teacher(web, Teacher(web.server))
        registry = [(spec.name, spec.title) for spec in game_specs()]
        assert await options(desk, "#tournament-game") == registry
        for family in (spec for spec in game_specs() if spec.is_family):
            await desk.page.locator("#tournament-game").select_option(family.name)
            sizes = desk.page.locator(f"#new-tournament fieldset[data-family='{family.name}']")
            for size in family.sizes:
                await expect(sizes.locator(f"input[name='{size.name}']")).to_be_visible()


PROJECTOR = {"width": 1280, "height": 720}


async def test_quick_match_and_the_forms_start_on_the_server_s_default_game(
    db_path: Path, tmp_path: Path
) -> None:
    """GET /api/games's ``default`` (the registry's, Connect Four) is what the
    lobby's quick match, its new-game form and the teacher's tournament form show
    chosen, not the first of the menu; Quick match alone plays it."""
    default = default_game()
    assert default.name != game_specs()[0].name  # else this test could not fail
    async with web_session(db_path, class_name="7B") as web:
        ann = await web.person("ann", viewport=PROJECTOR)
        for select in ("#quick-game", "#new-game"):
            await expect(ann.page.locator(select)).to_have_value(default.name)
            chosen = ann.page.locator(f"{select} option:checked")
            await expect(chosen).to_have_text(default.title)
        await expect(ann.page.locator("#quick-game")).to_be_in_viewport()
        shot = tmp_path / "quick-match-default-1280.png"
        await ann.page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        await ann.page.get_by_role("button", name="Quick match").click()
        await expect(ann.room).to_be_visible()
        await expect(ann.room).to_contain_text(default.title)

        desk = await open_teacher(web, Teacher(web.server))
        await expect(desk.page.locator("#tournament-game")).to_have_value(default.name)


async def test_a_game_the_page_never_heard_of_is_offered_as_the_server_lists_it(
    db_path: Path,
) -> None:
    """The page lists what the server says: a server whose GET /api/games names
    one game more (here the answer is added to on its way) gets it offered in
    the lobby, with its title, and nothing on the page names games itself."""
    async with web_session(db_path) as web:
        newcomer = {
            "name": "hexapawn",
            "title": "Hexapawn (a newer server's game)",
            "summary": "3x3, pawns",
            "board": "cells",
            "moves_help": "a cell such as b2",
            "endings": ["no_moves"],
            "search": "generic",
            "sizes": [],
        }

        async def add_a_game(route: Route) -> None:
            response = await route.fetch()
            body = await response.json()
            await route.fulfill(response=response, json={"games": [*body["games"], newcomer]})

        bea = await opened(web, "bea", {"**/api/games": add_a_game})
        listed = await options(bea, "#new-game")
        assert listed[-1] == ("hexapawn", "Hexapawn (a newer server's game)")
        assert listed[:-1] == [(spec.name, spec.title) for spec in game_specs()]
        assert ("hexapawn", newcomer["title"]) in await options(bea, "#quick-game")


async def opened(
    web: WebSession, name: str, routes: dict[str, Any], *, socket: Any = None
) -> WebPlayer:
    """``name`` at the page, whose requests to each URL pattern of ``routes`` go
    through its handler (which may change the server's answer), and whose
    WebSocket goes through ``socket`` if given."""
    context = await web.browser.new_context(viewport=LAPTOP, base_url=web.base_url)
    for pattern, handler in routes.items():
        await context.route(pattern, handler)
    if socket is not None:
        await context.route_web_socket(re.compile(r"/ws$"), socket)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    person = WebPlayer(page, web.base_url)
    web.people.append(person)
    await page.goto("/")
    await person.enter_name(name)
    return person


async def test_the_board_is_the_server_s_and_a_click_off_the_legal_moves_sends_nothing(
    db_path: Path,
) -> None:
    """Ann (in the browser) plays tic-tac-toe against Bob (a protocol client).
    After every move her board holds exactly the stones of the rows the server
    sent; clicking a taken cell, or any cell on Bob's turn, sends no move (the
    page says why), and the next legal click plays."""
    async with web_session(db_path) as web:
        ann = await web.person()
        sent: list[dict[str, Any]] = []

        def watch(ws: Any) -> None:
            ws.on("framesent", lambda frame: sent.append(json.loads(frame)))

        ann.page.on("websocket", watch)
        await ann.enter_name("ann")
        code = await ann.create_room("tictactoe")
        bob = await Player.join_server(web.server.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["board"] == ["...", "...", "..."]
        assert joined["room"]["board_kind"] == "cells" and len(joined["room"]["legal"]) == 9

        def moves_sent() -> list[str]:
            return [message["move"] for message in sent if message.get("type") == "move"]

        await ann.play("b2")
        moved = await bob.expect("moved", ply=0)
        assert moved["board"] == ["...", ".X.", "..."] and "b2" not in moved["legal"]
        assert await page_stones(ann) == stones_of(moved["board"])

        await ann.cell("c3").click(force=True)  # Bob's turn: nothing is sent
        await expect(ann.refusal).to_have_text("Not your turn: wait for O bob to move")
        reply = await bob.request({"type": "move", "room": code, "move": "a1", "ply": 1})
        await expect(ann.room).to_have_attribute("data-ply", "2")
        assert await page_stones(ann) == stones_of(reply["board"])
        await expect(ann.cell("a1")).to_have_attribute("aria-disabled", "true")
        await expect(ann.cell("c3")).to_have_attribute("aria-disabled", "false")

        await ann.cell("a1").click(force=True)  # taken: not among the legal moves
        await expect(ann.refusal).to_have_text("Cell 'a1' is taken: choose an empty cell")
        await ann.play("c3")
        moved = await bob.expect("moved", ply=2)
        assert await page_stones(ann) == stones_of(moved["board"])
        assert moves_sent() == ["b2", "c3"]  # the refused clicks sent nothing
        await bob.close()


async def test_a_game_s_own_look_plugs_in_by_its_name(db_path: Path) -> None:
    """A module ``look-NAME.js`` draws the game NAME: the server lists it in the
    module it writes (/static/looks.js), and board.js draws that game's board
    with it. Shown with the Othello look standing in for tic-tac-toe's (the
    answers for the two modules are swapped on their way): green cells, and the
    board still plays."""
    async with web_session(db_path) as web:
        status, _, listed = await web.server.get("/static/looks.js")
        assert status == 200 and listed.startswith("export const LOOKS = ")
        looks_shipped = sorted(path.stem[len("look-") :] for path in STATIC_DIR.glob("look-*.js"))
        assert json.loads(listed.removeprefix("export const LOOKS = ").rstrip(";\n")) == (
            looks_shipped
        )
        othello = (STATIC_DIR / "look-othello.js").read_text()
        # The look names its class and its style sheet after its module: here
        # look-tictactoe, whose sheet is Othello's, renamed to match.
        sheet = (STATIC_DIR / "look-othello.css").read_text()
        sheet = sheet.replace(".look-othello", ".look-tictactoe")

        async def looks(route: Route) -> None:
            await route.fulfill(
                content_type="text/javascript", body='export const LOOKS = ["tictactoe"];\n'
            )

        async def look(route: Route) -> None:
            await route.fulfill(content_type="text/javascript", body=othello)

        async def look_sheet(route: Route) -> None:
            await route.fulfill(content_type="text/css", body=sheet)

        routes = {
            "**/static/looks.js": looks,
            "**/static/look-tictactoe.js": look,
            "**/static/look-tictactoe.css": look_sheet,
        }
        dee = await opened(web, "dee", routes)
        page = dee.page
        await dee.create_room("tictactoe", ai="random")
        await expect(page.locator(".room-view .board.look-tictactoe")).to_be_visible()
        await expect(dee.cell("b2")).to_have_css("background-color", "rgb(31, 122, 61)")
        await dee.play("b2")
        await expect(dee.cell("b2")).to_have_class(re.compile(r"\bfirst\b"))


async def test_the_review_steps_through_the_boards_the_analysis_carries(db_path: Path) -> None:
    """A finished Connect Four game's analysis carries its moves one by one and
    the board before and after each; the review page shows, at every step, the
    discs of that step's board, and no others."""
    async with web_session(db_path) as web:
        moves = list("1122334")  # X wins across columns 1 to 4
        game_id = await play_out(web.server.ws_url, "connect4", moves)
        lee = await web.open(f"/#/review/{game_id}")
        page = lee.page.locator(".review-view")
        await expect(page).to_have_attribute("data-complete", "true")
        body = await web.server.get_json(f"/api/games/{game_id}/analysis")
        assert body["move_list"] == moves and body["board_kind"] == "columns"
        assert len(body["boards"]) == len(moves) + 1 and body["boards"][0] == ["......."] * 6
        assert body["boards"][-1][-2:] == ["OOO....", "XXXX..."]
        await expect(page).to_have_attribute("data-ply", "0")
        for ply in range(len(moves) + 1):
            if ply:
                await lee.page.get_by_role("button", name="Next move").click()
            await expect(page).to_have_attribute("data-ply", str(ply))
            shown: dict[str, str] = await lee.page.evaluate(
                """() => Object.fromEntries(
                    [...document.querySelectorAll(
                      ".review-view .disc.first, .review-view .disc.second")]
                      .map((disc) => [
                        disc.dataset.cell, disc.classList.contains("first") ? "first" : "second"
                      ]))"""
            )
            assert shown == stones_of(body["boards"][ply]), ply


async def test_a_legal_move_that_names_no_place_gets_a_button(db_path: Path) -> None:
    """A legal move the board cannot show (Othello's "pass") is offered as a
    button while it is the player's move, and the button sends it. Shown on
    tic-tac-toe with "pass" added to the legal moves on their way to the page:
    the button says "Pass", clicking it sends the move, and the server (whose
    rules have no pass) refuses it in words."""
    sent: list[dict[str, Any]] = []

    async def with_a_pass(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            room = data.get("room") if isinstance(data.get("room"), dict) else data
            if room.get("legal"):
                room["legal"] = [*room["legal"], "pass"]
            ws.send(json.dumps(data))

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    async with web_session(db_path) as web:
        eve = await opened(web, "eve", {}, socket=with_a_pass)
        await eve.create_room("tictactoe")
        pass_button = eve.page.locator(".room-view .other-moves button")
        await expect(pass_button).to_be_hidden()  # nobody to play yet: no legal moves
        bob = await Player.join_server(web.server.ws_url, "bob")
        await bob.request({"type": "join", "code": await eve.data("room")})
        await expect(pass_button).to_have_text("Pass")
        await pass_button.click()
        await expect(eve.refusal).to_contain_text("pass")
        assert [m["move"] for m in sent if m.get("type") == "move"] == ["pass"]
        await eve.play("b2")
        await expect(pass_button).to_be_hidden()  # Bob's move now
        await bob.close()
