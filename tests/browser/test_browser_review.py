"""The review page (``#/review/GAME_ID``) in a real Chromium against a real server.

A game is reviewed by the engine over ``GET /api/games/{id}/analysis``: the page
asks, is answered 202 with the moves judged so far while the server works, asks
again each second, and fills the moves in until a 200 has them all. The board
steps through the game (buttons, arrow keys, Home and End, a click on a move or
a turning point); the move list marks inaccuracies, mistakes and blunders as
Lichess does (?!, ?, ??) and names the better move; the graph plots X's winning
chances after each move, exact values filled and estimates hollow. A player
opens it from the end of a game ("Review this game"); a teacher from the
tournament's pairings. What cannot be reviewed is said so in words.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from browser import WebPlayer, web_session
from classroom_helpers import Teacher
from harness import Player, play_out
from playwright.async_api import Response, expect
from test_browser_layout import assert_in_window
from test_browser_teacher import open_teacher

BLUNDER = "b2 a2 a1 c3 c1 b1 a3"
"""Tic-tac-toe: O's a2 throws the draw away (X then wins), the rest is best play."""
ESTIMATED = (
    "Some values are estimates: the engine cannot solve this board, or did not in time. "
    "Judgements on estimates are cautious: none is a blunder."
)
THROWN_WIN = "444444325622223332666661111115335577777755"
"""Connect Four: X's 9th move (5) turns a win in 17 into a loss in 17 (bitbully
says so, tests/unit/shared/test_analysis_judgements.py); then both play perfectly
(bitbully's moves) and O wins with the last stone."""
SHOTS = Path("/tmp/boardroom-review")


def analysis_statuses(person: WebPlayer) -> list[int]:
    """Record the status of each analysis answer the page gets, in order."""
    statuses: list[int] = []

    def seen(response: Response) -> None:
        if re.search(r"/api/games/\d+/analysis$", response.url):
            statuses.append(response.status)

    person.page.on("response", seen)
    return statuses


def review(person: WebPlayer) -> Any:
    return person.page.locator(".review-view")


async def test_a_player_reviews_the_game_just_played_from_its_end(db_path: Path) -> None:
    """Sam plays tic-tac-toe against the AI; at the end, "Review this game" opens
    its review. The first answer is a 202 (the analysis starts with it), the page
    asks again until a 200, and every move ends up judged. The board then steps
    with the arrow keys, Home and End, and the buttons; the board and its buttons
    fit a 1280x720 and an 800x600 window."""
    async with web_session(db_path) as web:
        sam = await web.person("sam")
        statuses = analysis_statuses(sam)
        await sam.create_room("tictactoe", ai="easy")
        while await sam.wait_turn():
            free = sam.page.locator(".cell:not(.first):not(.second)").first
            await sam.play(await free.get_attribute("data-cell") or "")
        moves = await sam.data("moves")
        plies = len(moves.split())
        link = sam.page.get_by_role("link", name="Review this game")
        await expect(link).to_be_visible()
        await link.click()
        page = review(sam)
        await expect(page).to_have_attribute("data-complete", "true")
        assert re.fullmatch(r"#/review/\d+", await sam.page.evaluate("location.hash"))
        await expect(sam.page.locator(".review-status")).to_have_text(
            f"Analysis complete: {plies} moves reviewed."
        )
        assert statuses[0] == 202 and statuses[-1] == 200 and set(statuses) == {200, 202}
        await expect(page).to_have_attribute("data-reviewed", str(plies))
        await expect(sam.page.locator(".review-move")).to_have_count(plies)
        await expect(sam.page.locator(".review-move.pending")).to_have_count(0)
        await expect(sam.page.locator(".graph-point")).to_have_count(plies)
        # Tic-tac-toe is solved: every value is exact, every point filled.
        await expect(sam.page.locator(".graph-point.estimate")).to_have_count(0)
        # Stepping: the keys anywhere on the page, the buttons.
        await expect(page).to_have_attribute("data-ply", "0")
        await sam.page.keyboard.press("ArrowRight")
        await expect(page).to_have_attribute("data-ply", "1")
        first = moves.split()[0]
        await expect(sam.cell(first)).to_have_class(re.compile(r"\bfirst\b.*\blast\b"))
        await sam.page.keyboard.press("End")
        await expect(page).to_have_attribute("data-ply", str(plies))
        await expect(sam.page.get_by_role("button", name="Next move")).to_be_disabled()
        await sam.page.keyboard.press("ArrowLeft")
        await expect(page).to_have_attribute("data-ply", str(plies - 1))
        await sam.page.keyboard.press("Home")
        await expect(page).to_have_attribute("data-ply", "0")
        await expect(sam.page.locator(".cell.first, .cell.second")).to_have_count(0)
        await sam.page.get_by_role("button", name="Last move").click()
        await expect(page).to_have_attribute("data-ply", str(plies))
        await expect(sam.page.locator(".cell.first, .cell.second")).to_have_count(plies)
        await sam.page.get_by_role("button", name="Previous move").click()
        await expect(page).to_have_attribute("data-ply", str(plies - 1))
        for width, height in ((1280, 720), (800, 600)):
            await sam.page.set_viewport_size({"width": width, "height": height})
            await assert_in_window(sam, ".review-view .board", width, height)
            await assert_in_window(sam, ".review-controls", width, height)
            await assert_in_window(sam, ".review-now", width, height)


async def test_the_review_marks_a_blunder_and_plots_the_chances(db_path: Path) -> None:
    """Ann and Bob's game where Bob's a2 throws the draw away: the move list marks
    it ?? (a blunder, in its colour) with "better: a1", the other moves plain; the
    graph has a point per move, X's chances reaching +1 after the blunder; the
    turning point, clicked, shows the position after it; the accuracy reads
    100.0% for Ann and 69.5% for Bob. The graph is saved in /tmp/boardroom-review
    for a look."""
    async with web_session(db_path) as web:
        game_id = await play_out(web.server.ws_url, "tictactoe", BLUNDER.split())
        lee = await web.open(f"/#/review/{game_id}")
        page = review(lee)
        await expect(page).to_have_attribute("data-complete", "true")
        # Nobody was asked a name: a review needs no session.
        await expect(lee.page.get_by_label("Your name")).to_have_count(0)
        await expect(lee.page.locator(".review-view h2")).to_have_text(
            f"Review: Tic-tac-toe, game {game_id}"
        )
        await expect(lee.page.locator(".review-view .room-meta")).to_have_text(
            "X ann v O bob · X ann won (line)"
        )
        entries = lee.page.locator(".review-move")
        await expect(entries).to_have_count(7)
        blunder = entries.nth(1)
        await expect(blunder).to_have_text("2.O a2?? better: a1")
        await expect(blunder).to_have_class(re.compile(r"\bblunder\b"))
        await expect(blunder).to_have_attribute(
            "aria-label", "Move 2, O a2, blunder, better was a1"
        )
        colour = await blunder.locator(".move-mark").evaluate("e => getComputedStyle(e).color")
        plain = await entries.nth(0).evaluate("e => getComputedStyle(e).color")
        assert colour != plain, (colour, plain)
        await expect(lee.page.locator(".move-mark")).to_have_count(1)
        await expect(lee.page.locator(".move-better")).to_have_count(1)
        points = lee.page.locator(".graph-point")
        await expect(points).to_have_count(7)
        await expect(lee.page.locator(".graph-point.exact")).to_have_count(7)
        top = float(await points.nth(1).get_attribute("cy") or "nan")
        even = float(await points.nth(0).get_attribute("cy") or "nan")
        assert top < even, (top, even)  # X's chances went up: O blundered
        await expect(lee.page.locator(".graph-legend")).to_contain_text("exact")
        await expect(lee.page.locator(".graph-legend")).to_contain_text("estimate")
        # The blunder is marked ?? over its point; every value is exact, nothing estimated.
        mark = lee.page.locator(".graph-mark")
        await expect(mark).to_have_count(1)
        await expect(mark).to_have_text("??")
        assert await mark.get_attribute("data-ply") == "1"
        await expect(lee.page.locator(".graph-legend")).to_contain_text(
            "?? lowered the game's value"
        )
        await expect(lee.page.locator(".review-estimated")).to_be_hidden()
        SHOTS.mkdir(exist_ok=True)
        await lee.page.locator(".review-figure").screenshot(path=str(SHOTS / "blunder-graph.png"))
        await expect(lee.page.locator(".review-accuracy")).to_have_text(
            "Accuracy: X ann 100.0% · O bob 69.5%"
        )
        turning = lee.page.locator(".turning-point")
        await expect(turning).to_have_count(1)
        await expect(turning).to_contain_text("threw away the draw")
        await turning.click()
        await expect(page).to_have_attribute("data-ply", "2")
        await expect(blunder).to_have_attribute("aria-current", "step")
        await expect(lee.page.locator(".review-now")).to_have_text(
            "Move 2 of 7: O a2??, blunder; after it loss in 3; better was a1"
        )
        await expect(lee.cell("a2")).to_have_class(re.compile(r"\bsecond\b.*\blast\b"))
        await expect(points.nth(1)).to_have_class(re.compile(r"\bcurrent\b"))
        await entries.nth(4).click()
        await expect(page).to_have_attribute("data-ply", "5")
        await points.nth(6).click()
        await expect(page).to_have_attribute("data-ply", "7")


async def test_the_turning_points_read_as_the_servers_words(db_path: Path) -> None:
    """The page words each turning point itself (words.js, for translation) from
    the endpoint's data: the same sentence as the server's ``text`` (the
    terminal's), for each kind in two games: a draw thrown away letting X win in
    one, a win in one missed, wins turned into losses (one letting X win in one)."""
    games = ("b2 a1 c3 a3 a2 b1 c1 c2 b3", "b1 c2 a1 a2 c1")
    kinds: set[str] = set()
    async with web_session(db_path) as web:
        for moves in games:
            game_id = await play_out(web.server.ws_url, "tictactoe", moves.split())
            lee = await web.open(f"/#/review/{game_id}")
            await expect(review(lee)).to_have_attribute("data-complete", "true")
            body = await web.server.get_json(f"/api/games/{game_id}/analysis")
            points = body["turning_points"]
            assert len(points) >= 2, points
            await expect(lee.page.locator(".turning-point")).to_have_text(
                [point["text"] for point in points]
            )
            kinds |= {point["kind"] for point in points}
            assert any(point["lets_win_in_one"] for point in points), points
    assert kinds == {"threw_away_draw", "missed_win_in_one", "win_to_loss"}


async def test_estimates_show_hollow_and_moves_fill_in_as_judged(db_path: Path) -> None:
    """A gomoku game is beyond the engine's proof: its values are estimates, drawn
    hollow. The page shows each answer as it comes: the first has no move judged
    yet ("Analysing… 0 of 9", every move still pending), the last all nine."""
    cells = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "b1", "h12"]  # X wins
    async with web_session(db_path) as web:
        game_id = await play_out(web.server.ws_url, "gomoku", cells)
        lee = await web.open(f"/#/review/{game_id}")
        page = review(lee)
        shown: list[str] = []
        await lee.page.expose_function("seen", lambda text: shown.append(text))
        # The view draws its status line once the page's modules ran: observed before, no node.
        await lee.page.locator(".review-status").wait_for(state="attached")
        await lee.page.evaluate(
            """() => new MutationObserver(() => window.seen(
                 document.querySelector('.review-status').textContent))
               .observe(document.querySelector('.review-status'), {childList: true})"""
        )
        await expect(page).to_have_attribute("data-complete", "true", timeout=60_000)
        await expect(lee.page.locator(".review-move")).to_have_count(9)
        await expect(lee.page.locator(".review-move.pending")).to_have_count(0)
        await expect(lee.page.locator(".graph-point.estimate").first).to_be_visible()
        # Judged on estimates: said above the graph, and no blunder among them.
        await expect(lee.page.locator(".review-estimated")).to_have_text(ESTIMATED)
        await expect(lee.page.locator(".review-move.blunder")).to_have_count(0)
    assert shown[-1] == "Analysis complete: 9 moves reviewed.", shown
    assert all(re.fullmatch(r"Analysing… \d of 9", text) for text in shown[:-1]), shown


IN_PROGRESS = "This game is still being played: its review opens once it is over."


async def test_a_connect_four_review_fits_a_laptop_and_a_phone(
    db_path: Path, compiled_solver_ready: None
) -> None:
    """The issue's game, reviewed: the board, its buttons and the line about the
    move fit a 1280x720 window, a 1024x768 projector and a 390x844 phone with
    nothing to scroll sideways; screenshots of each, at move 9, are saved in
    /tmp/boardroom-review for a look. On the compiled solver, as `boardroom
    serve` runs it, every value is proven: move 9 is the blunder and the
    turning point, marked ?? on the graph."""
    async with web_session(db_path, engine="auto") as web:
        game_id = await play_out(web.server.ws_url, "connect4", list(THROWN_WIN))
        lee = await web.open(f"/#/review/{game_id}")
        page = review(lee)
        await expect(page).to_have_attribute("data-complete", "true", timeout=60_000)
        await lee.page.locator(".review-move").nth(8).click()
        await expect(page).to_have_attribute("data-ply", "9")
        body = await web.server.get_json(f"/api/games/{game_id}/analysis")
        ninth = body["reviews"][8]
        assert ninth["exact_before"] and ninth["exact_after"], ninth
        assert ninth["judgement"] == "blunder", ninth
        assert 8 in [point["ply"] for point in body["turning_points"]]
        await expect(lee.page.locator(".graph-mark[data-ply='8']")).to_have_text("??")
        await expect(lee.page.locator(".review-estimated")).to_be_hidden()
        SHOTS.mkdir(exist_ok=True)
        for width, height in ((1280, 720), (1024, 768), (390, 844)):
            await lee.page.set_viewport_size({"width": width, "height": height})
            # The click on move 9 scrolled its entry into view: the page's top is what fits.
            await lee.page.evaluate("window.scrollTo(0, 0)")
            for part in (".review-view .board", ".review-controls", ".review-now"):
                await assert_in_window(lee, part, width, height)
            scroll_width = await lee.page.evaluate("document.documentElement.scrollWidth")
            assert scroll_width <= width, (width, scroll_width)
            await lee.page.screenshot(
                path=str(SHOTS / f"review-{width}x{height}.png"), full_page=True
            )


async def test_what_cannot_be_reviewed_is_said_in_words(db_path: Path) -> None:
    """An id with no game, a game still played, an address whose id is not a
    number, and a game a newer Boardroom ended in a way this server does not know
    (409 ``unreadable_record``, not "still being played"): the page says which,
    and shows no board."""
    async with web_session(db_path) as web:
        ann = await Player.join_server(web.server.ws_url, "ann")
        bob = await Player.join_server(web.server.ws_url, "bob")
        room = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]
        await bob.request({"type": "join", "code": room["code"]})
        await ann.request({"type": "move", "room": room["code"], "move": "b2"})
        newer = await play_out(web.server.ws_url, "tictactoe", ["a1", "b1", "a2", "b2", "a3"])
        with closing(sqlite3.connect(db_path)) as db, db:
            db.execute("UPDATE games SET termination = 'from_the_future' WHERE id = ?", (newer,))
        cases = (
            ("/#/review/99", (404,), "There is no game 99 on this server."),
            (
                "/#/review/1",
                (409,),
                "This game is still being played: its review opens once it is over.",
            ),
            ("/#/review/abc", (), '"abc" is not a game id: a game id is a number, like 12.'),
            (
                f"/#/review/{newer}",
                (409,),
                re.compile(
                    rf"^The server could not review this game: game {newer} ended by "
                    "'from_the_future', .*upgrade Boardroom to read it$"
                ),
            ),
        )
        for path, statuses, text in cases:
            person = await web.open(path, allowed_statuses=statuses)
            status = person.page.locator(".review-status")
            await expect(status).to_have_text(text)
            await expect(status).to_have_attribute("data-kind", "error")
            await expect(person.page.locator(".review-view .board")).to_have_count(0)
        await ann.close()
        await bob.close()


async def test_the_teacher_opens_a_tournament_games_review_in_a_new_tab(db_path: Path) -> None:
    """An AI-only round robin plays itself; on the teacher's page each game played
    to its end has a Review link, which opens that game's review in a new tab,
    for the projector."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        body = {"name": "AIs", "game": "tictactoe", "format": "round_robin"}
        status, answer, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": ["ai:random", "ai:easy"]}
        )
        assert status == 201, answer
        desk = await open_teacher(web, teacher)
        panel = desk.page.locator(".tournament")
        await expect(panel).to_have_attribute("data-status", "finished", timeout=60_000)
        tournament = (await web.server.get_json("/api/tournaments/current"))["tournament"]
        (game,) = tournament["rounds_played"][0]["games"]
        link = panel.get_by_role("link", name="Review AI (random) \u2013 AI (easy)")
        await expect(link).to_have_attribute("href", f"/#/review/{game['game_id']}")
        async with desk.page.context.expect_page() as opened:
            await link.click()
        tab = await opened.value
        page = tab.locator(".review-view")
        await expect(page).to_have_attribute("data-complete", "true")
        await expect(page).to_have_attribute("data-game-id", str(game["game_id"]))
        await expect(tab.locator(".review-view .room-meta")).to_contain_text(
            "X AI (random) v O AI (easy)"
        )


async def test_the_review_link_stays_when_the_opponent_leaves_after_the_end(
    db_path: Path,
) -> None:
    """Ann (in the browser) beats Bob (a protocol client); Bob leaves the room at
    once, which sends Ann a new state of the room: "Review this game" stays, with
    the id game_over gave, and opens the game Ann just played."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await Player.join_server(web.server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        for ply, move in enumerate(BLUNDER.split()):
            if ply % 2 == 0:
                assert await ann.wait_turn()
                await ann.play(move)
            else:
                await bob.request({"type": "move", "room": code, "move": move})
        over = await bob.expect("game_over")
        await expect(ann.room).to_have_attribute("data-status", "finished")
        link = ann.page.get_by_role("link", name="Review this game")
        await expect(link).to_have_attribute("href", f"#/review/{over['game_id']}")
        await bob.request({"type": "leave", "room": code})
        await expect(ann.page.locator(".seat[data-side='second'] .seat-name")).to_have_text(
            "bob (left)"
        )
        await expect(link).to_be_visible()
        await expect(link).to_have_attribute("href", f"#/review/{over['game_id']}")
        await link.click()
        await expect(review(ann)).to_have_attribute("data-complete", "true")
        await expect(ann.page.locator(".review-move.blunder")).to_have_count(1)
        await bob.close()


async def test_the_review_badges_a_hinted_move_and_counts_the_hints(db_path: Path) -> None:
    """Ann asks for a hint before her first move and plays it (b2); before her
    third she asks again and plays another cell. The review badges both moves
    ("hint", then "hint: …" naming the cell the engine gave), and the accuracy
    line counts her two hints and Bob's none."""
    async with web_session(db_path) as web:
        ann = await Player.join_server(web.server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(web.server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        hints: dict[int, str] = {}
        for ply, move in enumerate(BLUNDER.split()):
            mover = (ann, bob)[ply % 2]
            if ply in (0, 2):
                hint = await ann.request({"type": "hint", "room": code})
                assert hint["type"] == "hint", hint
                hints[ply] = hint["move"]
            reply = await mover.request({"type": "move", "room": code, "move": move})
            assert reply["type"] == "moved", reply
        game_id = int((await ann.expect("game_over"))["game_id"])
        await ann.close()
        await bob.close()
        assert hints[0] == "b2"
        lee = await web.open(f"/#/review/{game_id}")
        await expect(review(lee)).to_have_attribute("data-complete", "true")
        entries = lee.page.locator(".review-move")
        await expect(lee.page.locator(".hint-badge")).to_have_count(2)
        await expect(entries.nth(0).locator(".hint-badge")).to_have_text("hint")
        await expect(entries.nth(0)).to_have_attribute(
            "aria-label", re.compile(r", played the hint$")
        )
        third = BLUNDER.split()[2]
        expected = "hint" if hints[2] == third else f"hint: {hints[2]}"
        await expect(entries.nth(2).locator(".hint-badge")).to_have_text(expected)
        await expect(lee.page.locator(".review-hints")).to_have_text(" · Hints used: X 2, O 0")
