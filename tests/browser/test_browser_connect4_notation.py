"""Connect Four in one notation, the board's: its columns are labelled 1 to 7, its
moves are columns, and so is a winning line wherever a page writes it (the
room's result line, a spectator's, the room's log; the review's moves), never
grid cells such as "c1-c2-c3-c4"."""

from __future__ import annotations

import re
from pathlib import Path

from browser import web_session
from harness import Player
from playwright.async_api import expect

GRID_CELL = re.compile(r"\b[a-g][1-6]\b")
"""A grid cell's name, as the wire names a line's cells: never shown for Connect Four."""


async def test_a_connect_four_win_is_written_by_the_board_s_columns(db_path: Path) -> None:
    """Ann (in the browser) plays X against Bob (a protocol client) while Cat
    watches: Ann fills the floor from column 1 to 4, Bob stacks on top. Ann's
    result and Cat's say "across columns 1 to 4", the board labels 1 to 7 and
    the four discs of the line ringed; the review rings them at its end too,
    and writes its moves as columns; no grid cell is written anywhere."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("connect4")
        bob = await Player.join_server(web.server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": code}))["type"] == "state"
        cat = await web.person("cat")
        await cat.by_code("Watch", code)

        for ply, column in enumerate("1122334"):
            if ply % 2 == 0:
                assert await ann.wait_turn()
                await ann.play(column)
            else:
                reply = await bob.request(
                    {"type": "move", "room": code, "move": column, "ply": ply}
                )
                assert reply["type"] == "moved", reply
        over = await bob.expect("game_over")
        # The wire names the cells, for the board to ring them.
        assert over["result"]["line"] == ["a1", "b1", "c1", "d1"]

        await expect(ann.turn).to_have_text("You win: four in a row, across columns 1 to 4")
        await expect(cat.turn).to_have_text("X ann wins: four in a row, across columns 1 to 4")
        for person in (ann, cat):
            labels = person.page.locator(".room-view .board .label")
            await expect(labels).to_have_text([str(n) for n in range(1, 8)])
            await expect(person.page.locator(".room-view .disc.win")).to_have_count(4)
            for shown in (await person.turn.inner_text(), await person.chat_log().inner_text()):
                assert not GRID_CELL.search(shown), shown

        review = ann.page.get_by_role("link", name="Review this game")
        await review.click()
        meta = ann.page.locator(".review-view .room-meta")
        await expect(meta).to_have_text("X ann v O bob · X ann won (line)")
        # At its end the review rings the line the server names (result.line).
        await ann.page.get_by_role("button", name="Last move").click()
        await expect(ann.page.locator(".review-view .disc.win")).to_have_count(4)
        moves = await ann.page.locator(".review-moves").inner_text()
        assert not GRID_CELL.search(moves), moves
        await bob.close()
