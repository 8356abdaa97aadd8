"""The web client in Chromium: whole games played by clicking, as people would.

Each test starts a real server and a real headless Chromium
(:func:`browser.web_session`); people open the page, type their names, and use
the lobby and the board. What the pages show is checked against what the server
stored (``/api/games/{id}``) and against plain protocol clients
(:class:`harness.Player`) where a test needs an opponent it controls. Every page
must make requests only to the server that served it (checked when each
session ends).
"""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebPlayer, web_session
from harness import Player
from playwright.async_api import Locator, expect

COLUMN_PREFERENCE = ("4", "3", "5", "2", "6", "1", "7")
"""A student's way of choosing a Connect Four column: near the middle, if it has room."""


async def first_free_column(player: WebPlayer) -> str:
    for column in COLUMN_PREFERENCE:
        if "full" not in (await player.cell(column).get_attribute("class") or ""):
            return column
    raise AssertionError("every column is full, yet the game goes on")


async def test_a_student_plays_a_whole_game_against_the_ai(db_path: Path) -> None:
    """A student enters a name, opens a Connect Four room against the AI, and clicks
    columns until the game ends; the page shows the result the server stored."""
    async with web_session(db_path) as web:
        sam = await web.person()
        await expect(sam.page.get_by_label("Your name")).to_be_focused()
        await sam.enter_name("sam")
        await sam.create_room("connect4", ai="easy")
        await expect(sam.room).to_have_attribute("data-status", "playing")
        assert await sam.data("you") == "first"

        clicks = 0
        while await sam.wait_turn():
            await sam.play(await first_free_column(sam))
            clicks += 1
        assert clicks >= 4

        record = await web.server.get_json("/api/games/1")
        assert record["state"] == "finished"
        assert [p["name"] for p in record["players"]] == ["sam", "AI (easy)"]
        assert record["move_string"] == await sam.data("moves")
        shown = await sam.turn.inner_text()
        if record["winner"] == "first":
            assert shown.startswith("You win"), shown
        elif record["winner"] == "second":
            assert shown.startswith("O AI (easy) wins"), shown
        else:
            assert shown.startswith("Draw"), shown
        if record["termination"] == "line":
            # The line is written by the board's column numbers, never as grid cells.
            written = re.search(
                r"(four|five|six|seven) in a row, "
                r"(up column [1-7]|(diagonally )?across columns [1-7] to [1-7])$",
                shown,
            )
            assert written, shown
            stones = ["four", "five", "six", "seven"].index(written.group(1)) + 4
            await expect(sam.page.locator(".disc.win")).to_have_count(stones)
        await expect(sam.page.get_by_role("button", name="Rematch")).to_be_visible()


async def test_two_people_play_by_join_code_while_a_third_watches(db_path: Path) -> None:
    """Ann opens a private room; Bob joins with its join code, Cat watches with its
    watch code. Every move, the chat and the result appear on all three pages;
    Cat's board is read-only."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        await ann.create_room("tictactoe", private=True)
        await expect(ann.turn).to_have_text("Waiting for an opponent")
        join_code, watch_code = await ann.code("Join code"), await ann.code("Watch code")
        assert re.fullmatch(r"[A-Z2-9]{8}", join_code) and join_code != watch_code

        bob = await web.person("bob")
        await bob.by_code("Join", join_code.lower())  # codes are read case-insensitively
        cat = await web.person("cat")
        await cat.by_code("Watch", watch_code)
        everyone = (ann, bob, cat)
        for person in everyone:
            await expect(person.room).to_have_attribute("data-status", "playing")
        await expect(bob.page.locator(".code-row")).to_have_count(2)  # players pass codes on
        await expect(cat.page.locator(".code-row")).to_have_count(0)  # spectators do not get them
        await expect(cat.room).to_contain_text("you are watching")

        for mover, move in ((ann, "b1"), (bob, "a1"), (ann, "b2"), (bob, "a2")):
            await mover.play(move)
            for person in everyone:
                await expect(person.cell(move)).to_have_attribute(
                    "aria-label", re.compile(rf"^{move}, {'X' if mover is ann else 'O'}")
                )

        # The cells are marked unavailable (aria-disabled) to the spectator, but a
        # mouse can still click them: nothing is played, and the page says why.
        await cat.cell("c3").click(force=True)
        await expect(cat.refusal).to_have_text("You are watching: only the players can move")
        await expect(ann.turn).to_have_text("Your move")
        await expect(bob.turn).to_have_text("X ann to move")
        await expect(cat.turn).to_have_text("X ann to move")
        assert await ann.data("moves") == "b1 a1 b2 a2"

        await bob.page.get_by_label("Chat message").fill("good luck")
        await bob.page.get_by_role("button", name="Send").click()
        for person in everyone:
            await expect(person.chat_log()).to_contain_text("bob: good luck")

        await ann.play("b3")
        await expect(ann.turn).to_have_text("You win: three in a row, b1-b2-b3")
        await expect(bob.turn).to_have_text("X ann wins: three in a row, b1-b2-b3")
        await expect(cat.turn).to_have_text("X ann wins: three in a row, b1-b2-b3")
        for person in everyone:
            await expect(person.page.locator(".cell.win")).to_have_count(3)
            await expect(person.cell("b3")).to_have_attribute(
                "aria-label", "b3, X, last move, winning line"
            )
        record = await web.server.get_json("/api/games/1")
        assert (record["move_string"], record["winner"]) == ("b1 a1 b2 a2 b3", "first")


async def test_a_refused_move_is_explained_and_loses_nothing(db_path: Path) -> None:
    """Clicking out of turn, and then a full column, shows why in words; the board,
    the turn and a half-typed chat line stay as they were, and the next move plays."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("connect4")
        bob = await Player.join_server(web.server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": code}))["type"] == "state"
        await expect(ann.room).to_have_attribute("data-status", "playing")
        await ann.page.get_by_label("Chat message").fill("half a thought")

        for ply in range(6):  # column 1 fills up, alternately
            if ply % 2 == 0:
                await ann.play("1")
            else:
                await ann.cell("3").click(force=True)  # bob's turn (aria-disabled): refused
                await expect(ann.refusal).to_have_text("Not your turn: wait for O bob to move")
                moved = await bob.request({"type": "move", "room": code, "move": "1", "ply": ply})
                assert moved["type"] == "moved", moved
                await expect(ann.room).to_have_attribute("data-ply", str(ply + 1))
        await expect(ann.cell("1")).to_have_attribute("aria-label", re.compile("full"))

        await ann.cell("1").click(force=True)  # full (aria-disabled)
        await expect(ann.refusal).to_have_text(
            re.compile(r"^Column '1' is full: choose a column with room")
        )
        assert await ann.data("moves") == "111111"
        await expect(ann.turn).to_have_text("Your move")
        await expect(ann.page.get_by_label("Chat message")).to_have_value("half a thought")

        await ann.play("4")
        await expect(ann.refusal).to_be_hidden()
        assert await ann.data("moves") == "1111114"
        await bob.close()


async def test_the_keyboard_plays_and_every_cell_is_named(db_path: Path) -> None:
    """Entering a room puts the focus on the board: arrow keys move between cells
    named by their coordinates, Enter plays; in Connect Four a digit drops a disc."""
    async with web_session(db_path) as web:
        kim = await web.person("kim")
        await kim.create_room("tictactoe", ai="random")
        await expect(kim.cell("b2")).to_be_focused()
        await expect(kim.cell("a1")).to_have_attribute("aria-label", "a1, empty")
        await kim.page.keyboard.press("ArrowLeft")
        await kim.page.keyboard.press("ArrowDown")
        await expect(kim.cell("a1")).to_be_focused()
        await kim.page.keyboard.press("Enter")
        await expect(kim.room).to_have_attribute("data-moves", re.compile("^a1 "))
        await expect(kim.cell("a1")).to_have_attribute("aria-label", "a1, X")

        await kim.page.get_by_role("button", name="← Lobby").click()
        await kim.create_room("connect4", ai="random")
        await expect(kim.cell("4")).to_be_focused()
        await kim.page.keyboard.press("6")
        await expect(kim.room).to_have_attribute("data-moves", re.compile("^6."))
        await expect(kim.cell("6")).to_have_attribute("aria-label", re.compile("^Column 6: X"))


async def test_draw_offers_rematch_resign_and_leave_from_the_page(db_path: Path) -> None:
    """Bob joins Ann's public room from the lobby's list. A draw offer is declined,
    the next accepted. Ann asks for a rematch: Bob and Cat, who watches, read
    that Ann asks, Ann that she waits for Bob (after a reload too); Bob accepts
    with one click and the rematch starts with the sides swapped. Bob resigns it
    (a second click confirms); Ann leaves for the lobby."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await web.person("bob")
        await bob.page.get_by_role("button", name="Refresh").click()
        row = bob.page.locator(f"tr[data-room='{code}']")
        await expect(row).to_contain_text("ann")
        await expect(row).to_contain_text("waiting for a player")
        await row.get_by_role("button", name="Join").click()
        await expect(bob.room).to_have_attribute("data-status", "playing")
        await ann.play("b2")

        def button(person: WebPlayer, name: str) -> Locator:
            return person.page.get_by_role("button", name=name, exact=True)

        await button(bob, "Offer a draw").click()
        await expect(bob.room).to_contain_text("You offered a draw")
        await expect(ann.turn).to_have_text("O bob to move · O bob offers a draw")
        await button(ann, "Decline the draw").click()
        await expect(bob.chat_log()).to_contain_text("The draw offer is off")
        await expect(button(bob, "Offer a draw")).to_be_visible()
        await button(bob, "Offer a draw").click()
        await button(ann, "Accept the draw").click()
        for person in (ann, bob):
            await expect(person.turn).to_have_text("Draw by agreement")

        cat = await web.person("cat")
        await cat.by_code("Watch", code)

        def note(person: WebPlayer, text: str) -> Locator:
            return person.page.locator(".room-actions .action-note").filter(has_text=text)

        await button(ann, "Rematch").click()
        await expect(note(ann, "Rematch asked: waiting for bob")).to_be_visible()
        for person in (bob, cat):
            await expect(note(person, "ann asks for a rematch")).to_be_visible()
            await expect(person.chat_log()).to_contain_text("ann asks for a rematch")
        await expect(button(bob, "Rematch")).to_be_hidden()
        await expect(button(cat, "Accept rematch")).to_be_hidden()
        await ann.page.reload()  # the request is read from the room's state
        await expect(note(ann, "Rematch asked: waiting for bob")).to_be_visible()
        await expect(button(ann, "Rematch")).to_be_hidden()
        await button(bob, "Accept rematch").click()
        for person, side in ((ann, "second"), (bob, "first")):
            await expect(person.room).to_have_attribute("data-status", "playing")
            await expect(person.room).to_have_attribute("data-you", side)
        await expect(ann.room).to_contain_text("game 2")

        await bob.play("a1")  # resigning before the first move would abort the game
        await button(bob, "Resign").click()
        await expect(button(bob, "Click again to resign")).to_be_visible()
        await expect(bob.room).to_have_attribute("data-status", "playing")
        await button(bob, "Click again to resign").click()
        await expect(ann.turn).to_have_text("You win: X bob resigned")
        await expect(bob.turn).to_have_text("O ann wins: you resigned")

        await button(ann, "Leave the room").click()
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        # The finished game keeps her name: her seat is free, but she played it.
        await expect(bob.page.locator(".seat[data-side='second']")).to_contain_text("ann (left)")
        await expect(bob.turn).to_have_text("O ann wins: you resigned")
        first, second = [await web.server.get_json(f"/api/games/{n}") for n in (1, 2)]
        assert (first["termination"], first["result"]) == ("agreement", "1/2-1/2")
        assert (second["termination"], second["winner"]) == ("resignation", "second")


async def test_a_rematch_asked_while_the_opponent_is_in_the_lobby_is_one_click_away(
    db_path: Path,
) -> None:
    """Ann resigns to Bob, who goes back to the lobby. Ann asks for a rematch:
    Bob's page says so in a notice with "Accept rematch"; one click starts the
    next game and shows it."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await web.person("bob")
        await bob.by_code("Join", code)
        await ann.play("b2")
        await ann.page.get_by_role("button", name="Resign").click()
        await ann.page.get_by_role("button", name="Click again to resign").click()
        await expect(bob.turn).to_have_text("You win: X ann resigned")
        await bob.page.get_by_role("button", name="← Lobby").click()
        await expect(bob.page.locator(".lobby-view")).to_be_visible()

        await ann.page.get_by_role("button", name="Rematch", exact=True).click()
        notice = bob.page.locator(".notice").filter(has_text="ann asks for a rematch")
        await expect(notice).to_contain_text(f"room {code}")
        await notice.get_by_role("button", name="Accept rematch").click()
        await expect(bob.room).to_have_attribute("data-room", code)
        for person in (ann, bob):
            await expect(person.room).to_have_attribute("data-status", "playing")
        await expect(bob.room).to_contain_text("game 2")


async def test_quick_match_pairs_the_next_two_people_who_ask(db_path: Path) -> None:
    """Two people ask for a quick Connect Four game: the first waits in a new room,
    the second is paired with them, and both pages show the game started."""
    async with web_session(db_path) as web:
        ann, bob = await web.person("ann"), await web.person("bob")
        for person in (ann, bob):
            await person.page.get_by_role("button", name="Quick match").click()
            await expect(person.room).to_be_visible()
        assert await ann.data("room") == await bob.data("room")
        for person, side in ((ann, "first"), (bob, "second")):
            await expect(person.room).to_have_attribute("data-status", "playing")
            await expect(person.room).to_have_attribute("data-you", side)
        await expect(ann.turn).to_have_text("Your move")
        await expect(ann.page.locator(".seat[data-side='second']")).to_contain_text("bob")
