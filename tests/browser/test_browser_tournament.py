"""A tournament run from the teacher's page, in Chromium, on a real server in
class mode: the form starts it, the students' pages are taken to their games
by the server's ``match``, a game is played by clicking, and the teacher's
page and the wall show the standings the tournament API gives.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

from browser import WebPlayer, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect
from test_browser_teacher import first_free_cell, open_teacher


async def play_out(pages: list[WebPlayer], room: str) -> None:
    """Play the game in ``room`` on ``pages`` (the students seated in it) to its
    end, each student clicking a free cell in turn; a seat no page holds is the
    AI's. The end is when the room says so, or when the pages have moved on to
    the next round's game (which the server opens at once)."""
    watcher = pages[0]
    while True:
        await expect(watcher.room).to_have_attribute("data-status", re.compile("playing|finished"))
        # Read at once: the page may move on to the next game between two reads.
        shown = await watcher.room.evaluate("room => ({ ...room.dataset })")
        if shown["room"] != room or shown["status"] == "finished":
            return
        movers = [page for page in pages if await page.data("you") == shown["toMove"]]
        if movers:
            (mover,) = movers
            assert await mover.wait_turn()
            await mover.play(await first_free_cell(mover))
        else:
            before = f".room-view[data-room='{room}'][data-ply='{shown['ply']}']"
            await expect(watcher.page.locator(before)).to_have_count(0)


async def test_the_teacher_starts_a_tournament_and_follows_its_standings(db_path: Path) -> None:
    """Ann and Bob (browsers) and the AI at easy enter a round robin from the
    form. A refused form says why beside it. Round 1 takes each paired student
    to their game with "Round 1 of …"; once it is played, the teacher's page
    and the wall show the API's standings, and Cancel ends the tournament."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await web.person("ann")
        bob = await web.person("bob")
        desk = await open_teacher(web, teacher, refusals=(400,))
        page = desk.page
        form = page.locator("#new-tournament")
        await expect(form.locator("label.entrant")).to_have_count(2 + 5)  # students, AI levels

        await form.get_by_label("Name").fill("Friday Tic-tac-toe")
        await form.locator("#tournament-game").select_option("tictactoe")
        await form.get_by_label("ann").check()
        await form.get_by_role("button", name="Start the tournament").click()
        await expect(form.locator(".form-error")).to_have_text("Choose at least two players")

        await form.get_by_label("bob").check()
        await form.get_by_label("AI (easy)").check()
        await form.get_by_label(re.compile("^ Swiss")).check()
        await form.get_by_label(re.compile("^Rounds")).fill("9")
        await form.get_by_role("button", name="Start the tournament").click()
        await expect(form.locator(".form-error")).to_contain_text("rounds")
        status, listed, _ = await teacher.call("GET", "/api/admin/tournaments")
        assert (status, listed) == (200, {"tournaments": []})  # the refusal started nothing

        await form.get_by_label(re.compile("^ Round robin")).check()
        await form.get_by_label(re.compile("^ Hints")).check()
        await form.get_by_role("button", name="Start the tournament").click()
        panel = page.locator(".tournament")
        await expect(panel).to_have_attribute("data-status", "running")
        with closing(sqlite3.connect(db_path)) as db:  # the box reached the tournament
            assert db.execute("SELECT hints FROM tournaments").fetchall() == [(1,)]
        await expect(page.locator(".tournament-name")).to_have_text("Friday Tic-tac-toe")
        await expect(page.locator(".tournament-line")).to_contain_text("Round 1 of 3 · round robin")
        await expect(form).to_be_hidden()
        await expect(panel.locator(".standings tbody tr")).to_have_count(3)

        tournament = (await web.server.get_json("/api/tournaments/current"))["tournament"]
        (game,) = tournament["rounds_played"][0]["games"]
        ids = {
            await teacher.student_id(name): person for name, person in (("ann", ann), ("bob", bob))
        }
        seated = [
            ids[entrant.split(":")[1]]
            for entrant in (game["first"], game["second"])
            if entrant.startswith("student:")
        ]
        for student in seated:
            await expect(student.room).to_have_attribute("data-room", game["room"])
            await expect(student.page.locator("#pinned .pinned.match")).to_contain_text(
                re.compile(
                    r"Round 1 of Friday Tic-tac-toe: you play .+ as (first \(X\)|second \(O\))"
                )
            )
        await play_out(seated, game["room"])

        pairing = panel.locator(".round[data-round='1'] li[data-board='1'] .game-result")
        results = re.compile("^(1\u20130|0\u20131|½\u2013½)$")  # as the page writes them: en dashes
        await expect(pairing).to_have_text(results)
        tournament = (await web.server.get_json("/api/tournaments/current"))["tournament"]
        assert tournament["rounds_played"][0]["games"][0]["result"] is not None
        expected = [(row["name"], row["points"]) for row in tournament["standings"]]
        rows = panel.locator(".standings tbody tr")
        shown = [
            (
                await row.locator(".name").inner_text(),
                float((await row.locator(".points").inner_text()).replace("½", ".5")),
            )
            for row in await rows.all()
        ]
        assert shown == expected
        assert sorted(points for _, points in shown) in ([0.0, 0.0, 1.0], [0.0, 0.5, 0.5])

        wall = await web.open(f"/wall#token={teacher.token}")
        await expect(wall.page.locator("#wall-tournament h2")).to_have_text("Friday Tic-tac-toe")
        await expect(wall.page.locator("#wall-tournament .standings tbody tr")).to_have_count(3)

        cancel = page.locator("#cancel-tournament")
        await cancel.click()
        await expect(cancel).to_have_text("Click again to cancel it")
        await cancel.click()
        await expect(panel).to_have_attribute("data-status", "cancelled")
        await expect(form).to_be_visible()


async def test_a_match_waits_for_a_student_in_another_game_and_a_no_show_forfeits(
    db_path: Path,
) -> None:
    """Ann is playing the AI when the tournament calls her to her game against
    Bob: her page stays on her game and pins the match with "Go to the game" and
    the time left; the teacher's page says whom the room waits for. She goes:
    the tournament room offers no codes to share and no AI. Bob never sits
    down: the room closes with the server's reason, the match notice goes, and
    the teacher's page shows the forfeit in the standings (+1 for Ann, minus 1 for
    Bob) with the legend that explains it; the wall, the finished tournament's
    podium in a strip."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await web.person("ann")
        own_room = await ann.create_room("tictactoe", ai="random")
        await expect(ann.room).to_have_attribute("data-status", "playing")
        bob = await Player.join_server(web.server.ws_url, "bob")
        desk = await open_teacher(web, teacher)
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        body = {"name": "Cup", "game": "tictactoe", "format": "round_robin"}
        status, _, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": entrants, "no_show_seconds": 10}
        )
        assert status == 201
        match = await bob.expect("match")

        notice = ann.page.locator("#pinned .pinned.match")
        await expect(notice).to_contain_text("Round 1 of Cup: you play bob as")
        await expect(notice.locator(".pinned-time")).to_have_text(
            re.compile(r"^\d+ s left to sit down$")
        )
        await expect(ann.room).to_have_attribute("data-room", own_room)  # not taken away
        result = desk.page.locator(".round[data-round='1'] li[data-board='1'] .game-result")
        await expect(result).to_have_text(
            re.compile(r"^waiting for (ann and bob|bob and ann) \(\d+ s left\)$")
        )

        await notice.get_by_role("button", name="Go to the game").click()
        await expect(ann.room).to_have_attribute("data-room", match["room"])
        await expect(notice.locator(".pinned-time")).to_be_hidden()  # she has sat down
        await expect(ann.page.locator(".room-view .codes")).to_be_hidden()
        await expect(ann.page.get_by_role("button", name="Play the AI instead")).to_be_hidden()
        await expect(result).to_have_text(re.compile(r"^waiting for bob \(\d+ s left\)$"))

        await expect(ann.page.locator(".notice").last).to_contain_text(
            re.compile(rf"^Room {match['room']} \(Tic-tac-toe\) closed: .*bob"), timeout=20_000
        )
        await expect(notice).to_have_count(0)
        no_show = re.compile("^(\\+ \u2013 \\(no-show\\)|\u2013 \\+ \\(no-show\\))$")  # en dashes
        await expect(result).to_have_text(no_show)
        tournament = (await web.server.get_json("/api/tournaments/current"))["tournament"]
        forfeits = {row["name"]: row["forfeit_wins"] for row in tournament["standings"]}
        assert forfeits == {"ann": 1, "bob": 0}
        standings = desk.page.locator(".tournament")
        rows = standings.locator(".standings tbody tr")
        await expect(rows.filter(has_text="ann").locator(".unplayed")).to_have_text("+1")
        minus = "\u2212"  # as the page writes it: a minus sign
        await expect(rows.filter(has_text="bob").locator(".unplayed")).to_have_text(f"{minus}1")
        await expect(standings.locator(".legend")).to_contain_text(
            f"won (+) or lost ({minus}) by forfeit"
        )
        # The tournament is over (one round): the wall gives it a strip, not a column.
        wall = await web.open(f"/wall#token={teacher.token}")
        await expect(wall.page.locator("#wall-tournament-strip")).to_have_text(
            "Cup, finished: 1. ann 1 pt \u00b7 2. bob 0 pts"
        )
        await expect(wall.page.locator("#wall-tournament")).to_be_hidden()


async def test_a_player_waiting_for_an_absent_opponent_is_told_who_and_how_long(
    db_path: Path,
) -> None:
    """Ann is taken to her tournament game; Bob has not sat down: her page says
    whom she waits for and how long is left before she wins by forfeit, counting
    down (on a phone too, on one screen). While the teacher pauses, no time
    runs and it says so; when Bob sits down the game starts and the line goes."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await web.person("ann", viewport={"width": 390, "height": 844})
        bob = await Player.join_server(web.server.ws_url, "bob")
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        body = {"name": "Cup", "game": "tictactoe", "format": "round_robin"}
        status, _, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": entrants, "no_show_seconds": 60}
        )
        assert status == 201
        match = await bob.expect("match")
        await expect(ann.room).to_have_attribute("data-room", match["room"])
        waiting = re.compile(r"^Waiting for bob to sit down: (\d+) s, then you win by forfeit$")
        await expect(ann.turn).to_have_text(waiting)
        shown = await ann.turn.inner_text()
        await expect(ann.turn).not_to_have_text(shown)  # it counts down
        found = waiting.match(await ann.turn.inner_text())
        assert found is not None and 0 < int(found.group(1)) < 60
        await expect(ann.page.locator(".seat .seat-name")).to_have_text(
            ["ann (you)", "bob (not here yet)"]
            if match["side"] == "second"
            else ["bob (not here yet)", "ann (you)"]
        )
        box = await ann.turn.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390

        await teacher.post("/api/admin/pause")
        await expect(ann.turn).to_have_text("Waiting for bob to sit down (the games are paused)")
        await teacher.post("/api/admin/resume")
        await expect(ann.turn).to_have_text(waiting)

        joined = await bob.request({"type": "join", "code": match["code"]})
        assert joined["type"] == "state", joined
        await expect(ann.room).to_have_attribute("data-status", "playing")
        await expect(ann.turn).not_to_have_text(re.compile("Waiting for bob"))
        seated = ann.page.locator(".seat .seat-name")
        await expect(seated.filter(has_text="bob")).to_have_text("bob")
