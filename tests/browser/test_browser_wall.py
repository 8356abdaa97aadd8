"""The wall (``/wall#token=...``) in Chromium, on a projector-sized screen.

A real server in class mode, real protocol players (:class:`harness.Player`)
making the moves, and the wall page polling the admin API as it does in a
classroom: each move must appear on the wall's board as it is made, and the
result at the end.
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebSession, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import Page, expect
from test_browser_teacher import open_teacher

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
    and the table stays inside its panel."""
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
        for screen in (PROJECTOR, LAPTOP_PROJECTOR):
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
        for element in await elements.all():
            colour = await element.evaluate(f"e => getComputedStyle(e)[{prop!r}]")
            found.add((selector, colour))
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
    the wall keeps showing the game, its players and its result."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann, bob = await class_of(web, ["ann", "bob"])
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        body = {"name": "Cup", "game": "tictactoe", "format": "round_robin"}
        status, _, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": entrants, "no_show_seconds": 60}
        )
        assert status == 201
        matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
        code = matches["ann"]["room"]
        sides = {name: match["side"] for name, match in matches.items()}
        by_side = {side: name for name, side in sides.items()}

        wall = await web.open(f"/wall#token={teacher.token}", viewport=PROJECTOR)
        tile = wall.page.locator(f".tile[data-room='{code}']")
        turn = tile.locator(".tile-turn")
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
