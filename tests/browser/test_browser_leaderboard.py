"""The /leaderboard page in Chromium: what a class sees on the projector.

A real server and a real headless Chromium (:func:`browser.web_session`); the
games are played by plain protocol clients (:class:`harness.Player`), and the
page is checked against what ``GET /api/leaderboard`` answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import LAPTOP, TIMEOUT_MS, WebPlayer, WebSession, web_session
from harness import Player
from playwright.async_api import Page, expect

REFRESH_MS = 10_000
"""The page refreshes every 10 s (``leaderboard.js`` ``REFRESH_MS``)."""


async def open_leaderboard(web: WebSession, *, own_clock: bool = False) -> Page:
    """A new browser (its own context) on /leaderboard; checked like every page.
    ``own_clock``: the page's timers run on Playwright's clock (``page.clock``),
    which runs at the real pace until the test moves it on."""
    context = await web.browser.new_context(viewport=LAPTOP, base_url=web.base_url)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    web.people.append(WebPlayer(page, web.base_url))
    if own_clock:
        await page.clock.install()
    await page.goto("/leaderboard")
    return page


async def resign_after_a_move(game: str, winner: Player, loser: Player) -> None:
    """``winner`` opens a room, ``loser`` joins, ``winner`` moves, ``loser`` resigns."""
    created = await winner.request({"type": "create_room", "game": game})
    code = created["room"]["code"]
    await loser.request({"type": "join", "code": code})
    move = "4" if game == "connect4" else "b2"
    await winner.request({"type": "move", "room": code, "move": move, "ply": 0})
    await loser.expect("moved", room=code, ply=0)
    over = await loser.request({"type": "resign", "room": code})
    assert over["result"]["reason"] == "resignation", over


async def lose_to_the_ai(player: Player, game: str, level: str) -> None:
    created = await player.request({"type": "create_room", "game": game, "ai_level": level})
    code = created["room"]["code"]
    await player.request({"type": "move", "room": code, "move": "4", "ply": 0})
    await player.expect("moved", room=code, ply=1)
    await player.request({"type": "resign", "room": code})


def cells(row: dict[str, Any]) -> list[str]:
    """A row of the API as the page shows it."""
    rating = f"{row['rating']}{'?' if row['provisional'] else ''}"
    counts = [row[key] for key in ("games", "wins", "draws", "losses")]
    return [str(row["rank"]), row["player"], rating, f"±{row['deviation']}", *map(str, counts)]


async def shown_rows(page: Page) -> list[list[str]]:
    return [
        await row.locator("td").all_inner_texts() for row in await page.locator("#rows tr").all()
    ]


async def test_the_page_shows_each_games_table_and_follows_new_games(db_path: Path) -> None:
    """Empty at first; once games finish, the page shows them at its next refresh,
    a tab per game, each row as the API has it; the chosen tab stays across a
    reload, and a link leads back to the games. The page's clock is moved on by
    its 10 s refresh rather than waited for: the refresh it fires is the page's own."""
    async with web_session(db_path) as web:
        page = await open_leaderboard(web, own_clock=True)
        await expect(page.get_by_text("No rated games yet")).to_be_visible()
        await expect(page.get_by_role("tab")).to_have_count(0)
        back = page.get_by_role("link", name="Back to the games")
        assert await back.get_attribute("href") == "/"

        ann, bob = [await Player.join_server(web.server.ws_url, n) for n in ("ann", "bob")]
        await resign_after_a_move("tictactoe", ann, bob)
        await lose_to_the_ai(ann, "connect4", "easy")
        api = {g["game"]: g for g in (await web.server.get_json("/api/leaderboard"))["games"]}
        assert list(api) == ["tictactoe", "connect4"]

        tabs = page.get_by_role("tab")
        await expect(tabs).to_have_count(0)  # nothing new before the refresh
        await page.clock.fast_forward(REFRESH_MS)
        await expect(tabs).to_have_text(["Tic-tac-toe", "Connect Four"])
        await expect(page.get_by_text("No rated games yet")).to_be_hidden()
        await expect(tabs.first).to_have_attribute("aria-selected", "true")
        assert await shown_rows(page) == [cells(row) for row in api["tictactoe"]["rows"]]
        assert [row[1] for row in await shown_rows(page)] == ["ann", "bob"]

        await page.get_by_role("tab", name="Connect Four").click()
        await expect(page.locator("#rows tr").first).to_have_attribute("data-player", "AI (easy)")
        assert await shown_rows(page) == [cells(row) for row in api["connect4"]["rows"]]
        assert page.url.endswith("/leaderboard#connect4")

        await page.reload()
        selected = page.get_by_role("tab", selected=True)
        await expect(selected).to_have_text("Connect Four")
        await expect(page.locator("#rows tr")).to_have_count(2)
        assert await shown_rows(page) == [cells(row) for row in api["connect4"]["rows"]]


async def test_two_players_under_one_name_show_the_start_of_their_ids(db_path: Path) -> None:
    """A person and a bot both called bob are two rows, each "bob" followed by
    the start of its player id (the API's player_id); ann, whose name nobody
    shares, is her name alone."""
    async with web_session(db_path) as web:
        ann, bob = [await Player.join_server(web.server.ws_url, n) for n in ("ann", "bob")]
        bot_bob = await Player.join_server(web.server.ws_url, "bob", client="bot")
        await resign_after_a_move("tictactoe", ann, bob)
        await resign_after_a_move("tictactoe", bot_bob, ann)
        page = await open_leaderboard(web)
        await expect(page.locator("#rows tr")).to_have_count(3)

        (board,) = (await web.server.get_json("/api/leaderboard"))["games"]
        ids = {p.seen[0]["player_id"] for p in (bob, bot_bob)}
        assert {row["player_id"] for row in board["rows"] if row["player"] == "bob"} == ids

        def shown_name(row: dict[str, Any]) -> str:
            return (
                f"{row['player']} · {row['player_id'][:6]}"
                if row["player"] == "bob"
                else row["player"]
            )

        assert await shown_rows(page) == [
            [*cells(row)[:1], shown_name(row), *cells(row)[2:]] for row in board["rows"]
        ]
        shown_ids = [
            await row.get_attribute("data-player-id")
            for row in await page.locator("#rows tr").all()
        ]
        assert shown_ids == [row["player_id"] for row in board["rows"]]


async def test_the_page_opens_on_the_game_the_class_played_most(db_path: Path) -> None:
    """A class plays one game of tic-tac-toe (first in the tabs' order) and two of
    Connect Four: the page opens on Connect Four, the API saying how many of
    each were played; an address naming a game still opens on that one."""
    async with web_session(db_path, class_name="7B") as web:
        ann, bob = [await Player.join_server(web.server.ws_url, n) for n in ("ann", "bob")]
        await resign_after_a_move("tictactoe", ann, bob)
        await resign_after_a_move("connect4", ann, bob)
        await lose_to_the_ai(bob, "connect4", "easy")
        api = (await web.server.get_json("/api/leaderboard"))["games"]
        assert [(g["game"], g["played"]) for g in api] == [("tictactoe", 1), ("connect4", 2)]

        page = await open_leaderboard(web)
        tabs = page.get_by_role("tab")
        await expect(tabs).to_have_text(["Tic-tac-toe", "Connect Four"])
        await expect(page.get_by_role("tab", selected=True)).to_have_text("Connect Four")
        await expect(page.locator("#rows tr")).to_have_count(3)  # ann, bob and the AI
        assert page.url.endswith("/leaderboard")  # nothing chosen: the address stays bare

        await page.goto("/leaderboard#tictactoe")
        await page.reload()
        await expect(page.get_by_role("tab", selected=True)).to_have_text("Tic-tac-toe")
        await expect(page.locator("#rows tr")).to_have_count(2)
