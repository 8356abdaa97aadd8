"""The wall (``/wall#token=...``) in Chromium, on a projector-sized screen.

A real server in class mode, real protocol players (:class:`harness.Player`)
making the moves, and the wall page polling the admin API as it does in a
classroom: each move must appear on the wall's board as it is made, and the
result at the end.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser import WebSession, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import Page, expect
from test_browser_teacher import open_teacher
from tournament_helpers import pair_ann_and_bob

PROJECTOR = {"width": 1920, "height": 1080}

GAME = (("first", "a1"), ("second", "a3"), ("first", "b2"), ("second", "b3"), ("first", "c3"))
"""X takes the diagonal a1-b2-c3 while O builds the top row."""


async def test_the_wall_shows_a_live_game_move_by_move_and_its_result(db_path: Path) -> None:
    """Ann and Bob play tic-tac-toe over the protocol; after each move the wall's
    board holds that stone and names the player to move; at the end the tile
    shows Ann's win and the admin API gives the same result. With no tournament
    the standings panel stays hidden. A room opened after comes first, and a
    wall told to keep finished games one second drops the finished one."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await Player.join_server(web.server.ws_url, "ann")
        bob = await Player.join_server(web.server.ws_url, "bob")
        created = await ann.request({"type": "create_room", "game": "tictactoe", "public": True})
        code = created["room"]["code"]
        await bob.request({"type": "join", "code": code})

        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        tile = wall.page.locator(f".tile[data-room='{code}']")
        await expect(tile).to_have_attribute("data-status", "playing")
        await expect(wall.page.locator("#wall-title")).to_have_text("Class 7B")
        await expect(tile.locator(".tile-seat.first")).to_have_text("Xann")
        await expect(tile.locator(".tile-seat.second")).to_have_text("Obob")
        await expect(tile.locator(".tile-turn")).to_have_text("X ann to move")
        await expect(wall.page.locator("#wall-tournament")).to_be_hidden()

        players = {"first": ann, "second": bob}
        symbols = {"first": "X", "second": "O"}
        for ply, (side, cell) in enumerate(GAME):
            await players[side].request({"type": "move", "room": code, "move": cell, "ply": ply})
            shown = tile.locator(f".cell[data-cell='{cell}']")
            await expect(shown).to_have_text(symbols[side])
            await expect(shown).to_have_class(re.compile(rf"\bcell {side} last\b"))
            if ply < len(GAME) - 1:
                other = "second" if side == "first" else "first"
                await expect(tile).to_have_attribute("data-to-move", other)
        await expect(tile.locator(".cell.first")).to_have_count(3)
        await expect(tile.locator(".cell.second")).to_have_count(2)

        await expect(tile).to_have_attribute("data-status", "finished")
        await expect(tile.locator(".tile-turn")).to_have_text(
            "X ann wins: three in a row, a1-b2-c3"
        )
        await expect(tile.locator(".cell.win")).to_have_count(3)
        await expect(tile.locator(".tile-seat.first")).to_have_class("tile-seat first winner")
        (room,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert room["result"] == {"winner": "first", "reason": "line", "line": ["a1", "b2", "c3"]}

        # A game still to play comes first; a finished one leaves the wall after
        # the time the fragment gives (30 s unless told).
        waiting = await ann.request({"type": "create_room", "game": "tictactoe", "public": True})
        live = waiting["room"]["code"]
        await expect(wall.page.locator(".tile").first).to_have_attribute("data-room", live)
        await expect(tile).to_have_count(1)
        brief = await web.open(f"/wall#token={teacher.token}&finished=1", viewport=PROJECTOR)
        await expect(brief.page.locator(f".tile[data-room='{live}']")).to_have_count(1)
        await expect(brief.page.locator(f".tile[data-room='{code}']")).to_have_count(0)


LAPTOP_PROJECTOR = {"width": 1366, "height": 768}
"""The other screen a wall is often shown on: a laptop's, mirrored to a projector."""

LINES_OF_EACH_CELL = """table => [...table.querySelectorAll("th, td")].map(cell => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
  return [cell.textContent, tops.size];
})"""
"""Each cell of a table, with the number of lines its text takes on screen."""


async def class_of(web: WebSession, names: list[str]) -> list[Player]:
    """Students ``names``, on the roster (each has said hello), over the protocol."""
    return [await Player.join_server(web.server.ws_url, name) for name in names]


async def test_the_standings_keep_each_figure_on_one_line(db_path: Path) -> None:
    """Six students, some with long names, in a round robin: on a 1920x1080
    projector and on a 1366x768 laptop screen, every cell of the wall's
    standings (place, points, W-D-L, forfeits, the names cut short) takes one line,
    and the table stays inside its panel; on 1024x768 and 1280x720 projectors too."""
    names = ["Alexandra Kowalczyk", "Bo", "Maximilian Oberhauser", "Dee", "Evangeline", "Fox"]
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        await class_of(web, names)
        entrants = [f"student:{await teacher.student_id(name)}" for name in names]
        body = {"name": "Cup", "game": "tictactoe", "format": "round_robin", "entrants": entrants}
        status, _, _ = await teacher.call("POST", "/api/admin/tournaments", body)
        assert status == 201
        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        panel = wall.page.locator("#wall-tournament")
        table = panel.locator(".standings")
        await expect(table.locator("tbody tr")).to_have_count(len(names))
        for screen in (PROJECTOR, LAPTOP_PROJECTOR, *SCREENS[:2]):
            await wall.page.set_viewport_size(screen)
            lines = await table.evaluate(LINES_OF_EACH_CELL)
            assert {text for text, _ in lines} >= {"0-0-0", "W-D-L", "+/\u2212"}, lines
            wrapped = [(text, count) for text, count in lines if count != 1]
            assert wrapped == [], f"at {screen}: {wrapped}"
            shown, inside = await table.bounding_box(), await panel.bounding_box()
            assert shown is not None and inside is not None
            assert shown["x"] + shown["width"] <= inside["x"] + inside["width"], (screen, shown)


async def side_colours(page: Page, marks: dict[str, str]) -> set[tuple[str, str]]:
    """The colour each of ``marks`` (a selector: the CSS property that carries
    the side's colour there) shows, as (selector, colour) pairs, for every
    element the selector finds (at least one)."""
    found = set()
    for selector, prop in marks.items():
        elements = page.locator(selector)
        await expect(elements.first).to_be_attached()
        # One script reads every element at once: pages that redraw on a timer
        # (the teacher's list of rooms) would otherwise detach an element between
        # listing and reading it, and a detached element's computed colour is "".
        colours = await elements.evaluate_all(f"els => els.map(e => getComputedStyle(e)[{prop!r}])")
        assert colours, f"no {selector} on the page"
        found |= {(selector, colour) for colour in colours}
    return found


def marks_of(side: str) -> dict[str, str]:
    """What shows a side: its badge (a disc of its colour), its discs, its X or O."""
    return {
        f".stone.{side}": "backgroundColor",
        f".disc.{side}": "backgroundColor",
        f".cell.{side}": "color",
    }


async def test_each_side_has_one_colour_on_every_page(db_path: Path) -> None:
    """Ann and Bob play a tic-tac-toe and a Connect Four game. On the wall, in the
    room a spectator watches, and in the teacher's list of rooms, the first
    side's badge, discs and X are one colour, and the second side's badge,
    discs and O another."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann, bob = await class_of(web, ["ann", "bob"])
        codes = {}
        for game, moves in (("tictactoe", ("a1", "a3")), ("connect4", ("1", "2"))):
            created = await ann.request({"type": "create_room", "game": game, "public": True})
            codes[game] = created["room"]["code"]
            await bob.request({"type": "join", "code": codes[game]})
            for ply, (player, move) in enumerate(zip((ann, bob), moves, strict=True)):
                await player.request(
                    {"type": "move", "room": codes[game], "move": move, "ply": ply}
                )

        colours: dict[str, set[str]] = {"first": set(), "second": set()}
        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        await expect(wall.page.locator(".tile[data-moves='12']")).to_have_count(1)
        desk = await open_teacher(web, teacher)
        dee = await web.person("dee")
        await dee.by_code("Watch", codes["connect4"])
        for side in colours:
            for page, marks in (
                (wall.page, marks_of(side)),
                (
                    dee.page,
                    {f".stone.{side}": "backgroundColor", f".disc.{side}": "backgroundColor"},
                ),
            ):
                colours[side] |= {colour for _, colour in await side_colours(page, marks)}
        await dee.page.get_by_role("button", name="Stop watching").click()
        await dee.by_code("Watch", codes["tictactoe"])
        for side in colours:
            found = await side_colours(dee.page, {f".cell.{side}": "color"})
            colours[side] |= {colour for _, colour in found}
        assert len(colours["first"]) == 1, colours
        assert len(colours["second"]) == 1, colours
        assert colours["first"] != colours["second"]
        for side in colours:
            found = await side_colours(desk.page, {f".side-mark.{side}": "color"})
            assert {colour for _, colour in found} == colours[side]


async def test_a_connect_four_win_stands_out(db_path: Path) -> None:
    """Ann wins Connect Four with four discs in column 1: on the wall and in the
    room a spectator watches, each winning disc has a thick ring (3 px at
    least) and every other disc is faded to half or less."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann, bob = await class_of(web, ["ann", "bob"])
        created = await ann.request({"type": "create_room", "game": "connect4", "public": True})
        code = created["room"]["code"]
        await bob.request({"type": "join", "code": code})
        dee = await web.person("dee")
        await dee.by_code("Watch", code)
        for ply, move in enumerate("1212121"):
            player = ann if ply % 2 == 0 else bob
            await player.request({"type": "move", "room": code, "move": move, "ply": ply})
        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        for board in (
            wall.page.locator(f".tile[data-room='{code}'] .board"),
            dee.page.locator(".board"),
        ):
            await expect(board.locator(".disc.win")).to_have_count(4)
            rings = await board.locator(".disc.win").evaluate_all(
                "discs => discs.map(d => [getComputedStyle(d).outlineStyle,"
                " parseFloat(getComputedStyle(d).outlineWidth)])"
            )
            assert all(style == "solid" and width >= 3 for style, width in rings), rings
            faded = await board.locator(".disc:not(.win)").evaluate_all(
                "discs => discs.map(d => parseFloat(getComputedStyle(d).opacity))"
            )
            assert len(faded) == 6 * 7 - 4 and max(faded) <= 0.5, faded


async def play_game(players: dict[str, Player], code: str) -> None:
    """Play :data:`GAME` in room ``code``, ``players`` by side: the first side wins."""
    for ply, (side, cell) in enumerate(GAME):
        await players[side].request({"type": "move", "room": code, "move": cell, "ply": ply})


async def test_a_finished_room_its_players_left_still_names_them(db_path: Path) -> None:
    """Ann beats Bob while Cat watches; Ann and Bob leave, Cat stays, so the room
    stays open with two empty seats: the wall still names Ann and Bob, on
    their seats and in the result."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann, bob, cat = await class_of(web, ["ann", "bob", "cat"])
        created = await ann.request({"type": "create_room", "game": "tictactoe", "public": True})
        code = created["room"]["code"]
        await bob.request({"type": "join", "code": code})
        await cat.request({"type": "watch", "code": code})
        await play_game({"first": ann, "second": bob}, code)
        for player in (ann, bob):
            await player.request({"type": "leave", "room": code})
        (room,) = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert [seat["name"] for seat in room["players"]] == [None, None]

        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        tile = wall.page.locator(f".tile[data-room='{code}']")
        await expect(tile).to_have_attribute("data-status", "finished")
        await expect(tile.locator(".tile-seat.first")).to_have_text("Xann")
        await expect(tile.locator(".tile-seat.second")).to_have_text("Obob")
        await expect(tile.locator(".tile-turn")).to_have_text(
            "X ann wins: three in a row, a1-b2-c3"
        )


async def test_a_tournament_game_names_who_is_missing_and_stays_once_over(
    db_path: Path,
) -> None:
    """Ann and Bob are paired in a tournament. While the room waits, the wall
    names who has not sat down, with the seconds left (their names greyed on
    their seats). Both sit down and play; the winner and the loser leave the
    room as soon as the game ends, as bots do, so the server drops the room:
    the wall keeps showing the game, its players and its result. The standings
    beside the boards while the tournament runs shrink to a strip of its podium
    at the bottom once it is over."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann, bob = await class_of(web, ["ann", "bob"])
        pairing = await pair_ann_and_bob(teacher, ann, bob, "Cup")
        matches, code = pairing.matches, pairing.room
        sides, by_side = pairing.sides, pairing.by_side

        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        tile = wall.page.locator(f".tile[data-room='{code}']")
        turn = tile.locator(".tile-turn")
        column = wall.page.locator("#wall-tournament")
        strip = wall.page.locator("#wall-tournament-strip")
        await expect(column.locator(".standings tbody tr")).to_have_count(2)
        await expect(strip).to_be_hidden()
        both = f"{by_side['first']} and {by_side['second']}"
        await expect(turn).to_have_text(
            re.compile(rf"^Waiting for {both} to sit down \(\d+ s left\)$")
        )
        await ann.request({"type": "join", "code": matches["ann"]["code"]})
        await expect(turn).to_have_text(re.compile(r"^Waiting for bob to sit down \(\d+ s left\)$"))
        bob_seat = tile.locator(f".tile-seat.{sides['bob']}")
        await expect(bob_seat).to_have_text(f"{'X' if sides['bob'] == 'first' else 'O'}bob")
        await expect(bob_seat).to_have_class(re.compile(r"\babsent\b"))

        await bob.request({"type": "join", "code": matches["bob"]["code"]})
        await expect(tile).to_have_attribute("data-status", "playing")
        await expect(bob_seat).not_to_have_class(re.compile(r"\babsent\b"))
        players = {sides["ann"]: ann, sides["bob"]: bob}
        await play_game(players, code)
        for player in (ann, bob):
            await player.expect("game_over")
            await player.request({"type": "leave", "room": code})
        assert (await teacher.get("/api/admin/rooms"))["rooms"] == []
        for _ in range(2):  # two polls of the wall after the room was dropped
            async with wall.page.expect_response(lambda answer: "/api/admin/rooms" in answer.url):
                pass
        await expect(tile).to_have_attribute("data-status", "finished")
        await expect(tile.locator(".tile-seat.first")).to_have_text(f"X{by_side['first']}")
        await expect(tile.locator(".tile-seat.second")).to_have_text(f"O{by_side['second']}")
        await expect(turn).to_have_text(f"X {by_side['first']} wins: three in a row, a1-b2-c3")

        # One game was the whole tournament: its standings leave the boards' side
        # for a strip at the bottom, which names the winner first.
        await expect(strip).to_have_text(
            f"Cup, finished: 1. {by_side['first']} 1 pt \u00b7 2. {by_side['second']} 0 pts"
        )
        await expect(column).to_be_hidden()
        rooms, screen = wall.page.locator("#wall-rooms"), wall.page.viewport_size
        box = await rooms.bounding_box()
        assert box is not None and screen is not None
        assert box["width"] > screen["width"] - 100, box  # the boards have the width back


# -- the wall at the sizes projectors have ------------------------------------------------

SCREENS = (
    {"width": 1024, "height": 768},
    {"width": 1280, "height": 720},
    {"width": 1366, "height": 768},
    {"width": 1920, "height": 1080},
)
"""An old projector, a common one, a laptop's screen mirrored, a full-HD one."""

STUDENTS = (
    "Maximilian", "Evangeline", "Alexandra", "Bo", "Chloe", "Dmitri", "Ema", "Finn",
    "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Nia", "Omar",
    "Pia", "Quinn", "Rosa", "Sam", "Tom", "Uma", "Vic", "Xia",
)  # fmt: skip
"""Names a class has, the longest of ten letters (those play the first games)."""

OPENINGS = (
    ("tictactoe", ("b2", "a1", "c3")),
    ("connect4", ("4", "3", "4", "5")),
    ("tictactoe4", ("b2", "c3")),
    ("gomoku", ("h8", "g7", "h9")),
)
"""A game of each kind on the wall, and a few moves of it."""

RESULTS = {
    "X Maximilian wins: three in a row, b1-b2-b3",
    "O Alexandra wins: X Evangeline resigned",
}
"""The two games over on the wall in the test of its sizes, as their tiles say."""

MIN_BOARD_PX = 120
"""The least a board may be tall on the wall: its stones still read at the back."""

PAGE_SECONDS = 0.5
"""The wall's pages turn this often in these tests (``&page=``), 12 s in class:
what looks at every page waits for each to come (:func:`every_page`), and one
turned by between two looks is seen when it comes round, so a half-second page
only makes the tests wait less."""

LOOK_AT_THE_PAGE = """(rooms, least) => {
  const tiles = [...rooms.querySelectorAll(".tile")];
  const problems = [];
  const inside = (inner, outer) =>
    inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5
    && inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5;
  const screen = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  for (const tile of tiles) {
    const code = tile.dataset.room;
    const box = tile.getBoundingClientRect();
    if (!inside(box, screen)) problems.push(`${code}: the tile goes off the screen`);
    const board = tile.querySelector(".board").getBoundingClientRect();
    if (board.height < least) problems.push(`${code}: its board is ${board.height} px tall`);
    if (!inside(board, box)) problems.push(`${code}: its board goes out of the tile`);
    for (const text of tile.querySelectorAll(".tile-title, .tile-code, .tile-name, .tile-turn")) {
      const name = `${code} ${text.className} "${text.textContent}"`;
      if (text.scrollWidth > text.clientWidth) problems.push(`${name} is cut (width)`);
      if (text.scrollHeight > text.clientHeight) problems.push(`${name} is cut (height)`);
      if (!inside(text.getBoundingClientRect(), box)) problems.push(`${name} goes out of the tile`);
    }
  }
  return { page: rooms.dataset.page, pages: rooms.dataset.pages,
           codes: tiles.map(tile => tile.dataset.room), problems,
           lines: tiles.map(tile => tile.querySelector(".tile-turn").textContent) };
}"""
"""The page of boards on screen, looked at in one go (a page cannot turn meanwhile):
its number, how many there are, its rooms, the line under each board, and what
is wrong with its tiles (``least``: the least height of a board)."""


async def open_games(web: WebSession, count: int) -> tuple[list[Player], list[str]]:
    """``count`` games in progress between :data:`STUDENTS`, each of whom plays
    two (the one they open, the next one's), a few moves into each: the
    players, and the rooms' codes (the first player opened the first room)."""
    players = await class_of(web, list(STUDENTS[:count]))
    codes = []
    opponents = players[1:] + players[:1]
    for index, (player, opponent) in enumerate(zip(players, opponents, strict=True)):
        game, moves = OPENINGS[index % len(OPENINGS)]
        created = await player.request({"type": "create_room", "game": game, "public": True})
        code = created["room"]["code"]
        await opponent.request({"type": "join", "code": code})
        for ply, move in enumerate(moves[: 1 + index % len(moves)]):
            mover = (player, opponent)[ply % 2]
            await mover.request({"type": "move", "room": code, "move": move, "ply": ply})
        codes.append(code)
    return players, codes


async def every_page(wall: Page, look: str = LOOK_AT_THE_PAGE) -> list[dict[str, Any]]:
    """What each page of the wall shows (``look`` at it), in page order: one look
    at the page on screen, then one each time the page turns by itself, until
    every page has been seen (one look when there is a single page). A page that
    turned by between two looks, on a busy machine, is seen when it comes round."""
    rooms = wall.locator("#wall-rooms")
    last = await rooms.evaluate(look, MIN_BOARD_PX)
    seen = {last["page"]: last}
    while len(seen) < int(last["pages"]):
        await expect(rooms).not_to_have_attribute("data-page", last["page"])
        last = await rooms.evaluate(look, MIN_BOARD_PX)
        seen.setdefault(last["page"], last)
    return [seen[page] for page in sorted(seen, key=int)]


async def test_every_board_stays_legible_at_projector_sizes_and_the_pages_turn(
    db_path: Path,
) -> None:
    """24, then 12, then 4 games (the teacher closes the others), two of them
    over with the longest results (Maximilian's line, Evangeline's
    resignation), each on the wall at 1024x768, 1280x720, 1366x768 and
    1920x1080: every board on screen is 120 px tall or more, no name, title or
    line is cut or leaves its tile, and no tile leaves the screen. What does
    not fit is on further pages, which turn by themselves under a "Page 1/3"
    mark, and every game is on one of them. 24 games take more than a page
    everywhere; 4 fit one."""
    async with web_session(
        db_path, class_name="7B", max_connections_per_address=64, max_rooms_per_address=0
    ) as web:
        teacher = Teacher(web.server)
        players, codes = await open_games(web, len(STUDENTS))
        maximilian, evangeline = players[:2]
        for ply, move in enumerate(("a1", "b1", "a2", "b3"), start=1):  # X: b1-b2-b3
            mover = (maximilian, evangeline)[ply % 2]
            await mover.request({"type": "move", "room": codes[0], "move": move, "ply": ply})
        await evangeline.request({"type": "resign", "room": codes[1]})
        # Finished games stay as long as the test looks (30 s in class).
        wall = await web.open(f"/wall#token={teacher.token}&page={PAGE_SECONDS}&finished=600")
        page = wall.page
        mark = page.locator("#wall-page")
        for count in (24, 12, 4):
            for code in codes[count:]:
                await teacher.post(f"/api/admin/rooms/{code}/close")
            codes = codes[:count]
            playing = f"{count - 2} games in progress"
            await expect(page.locator("#wall-counts")).to_have_text(playing)
            for screen in SCREENS:
                await page.set_viewport_size(screen)
                shown = await every_page(page)
                where = f"{count} games at {screen['width']}x{screen['height']}"
                assert [problem for look in shown for problem in look["problems"]] == [], where
                pages = len(shown)
                assert sorted(code for look in shown for code in look["codes"]) == sorted(codes)
                assert sorted(int(look["page"]) for look in shown) == list(range(1, pages + 1))
                lines = {line for look in shown for line in look["lines"]}
                assert lines >= RESULTS, (where, lines)
                if pages > 1:
                    await expect(mark).to_have_text(re.compile(rf"^Page [1-9]/{pages}$"))
                else:
                    await expect(mark).to_be_hidden()
                if count == 24:
                    assert pages > 1, where
                if count == 4:
                    assert pages == 1, where
                print(f"{where}: {pages} pages of {[len(look['codes']) for look in shown]}")


async def test_the_teachers_message_shows_on_the_wall_and_no_request_fails(db_path: Path) -> None:
    """Ten games on a 1280x720 projector, and no tournament: none of the wall's
    requests fails (no 404 while it looks for a tournament) and it shows no
    standings. The teacher sends a message: it shows under the title, above
    the boards, which keep their legible size and stay on the screen."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        await open_games(web, 10)
        failed: list[str] = []
        wall = await web.open(
            f"/wall#token={teacher.token}&page={PAGE_SECONDS}",
            viewport={"width": 1280, "height": 720},
        )
        page = wall.page
        page.on("requestfailed", lambda request: failed.append(f"{request.url} failed"))
        page.on(
            "response",
            lambda answer: (
                failed.append(f"{answer.url}: {answer.status}") if answer.status >= 400 else None
            ),
        )
        for _ in range(2):  # the wall looks for a tournament on its first poll, then every third
            async with page.expect_response(
                lambda answer: "/api/tournaments/current" in answer.url
            ) as looked:
                pass
            assert await (await looked.value).json() == {"tournament": None}
        await expect(page.locator("#wall-tournament")).to_be_hidden()
        await expect(page.locator("#wall-tournament-strip")).to_be_hidden()
        await expect(page.locator("#wall-announcement")).to_be_hidden()

        text = "Ten minutes left: finish your game, then look at the wall."
        await teacher.post("/api/admin/broadcast", {"text": text})
        message = page.locator("#wall-announcement")
        await expect(message).to_have_text(f"From the teacher {text}")
        shown = await message.bounding_box()
        assert shown is not None
        for look in await every_page(page):
            assert look["problems"] == [], look
        tops = await page.locator(".tile").evaluate_all(
            "tiles => tiles.map(tile => tile.getBoundingClientRect().top)"
        )
        assert min(tops) >= shown["y"] + shown["height"], (shown, tops)
        assert failed == []
