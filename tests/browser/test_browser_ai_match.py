"""An AI match in a real Chromium: opened from the lobby's "New game" with "Two
AIs (watch)", a level for each side and a pace; the creator lands in the room
as a watcher, the board plays itself, and at the end "Next game" starts the
next one (the AIs' sides swapped) and "Review this game" is offered."""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebPlayer, web_session
from playwright.async_api import expect


async def open_ai_match(
    person: WebPlayer, game: str, first: str, second: str, pace: str, *, private: bool = False
) -> str:
    """Fill the lobby's form for two AIs and create the room; its room code."""
    page = person.page
    await page.locator("#new-game").select_option(game)
    await page.get_by_label("Two AIs (watch)").check()
    # A watcher has no seat and no clock to choose.
    await expect(page.locator("#new-seat")).to_be_hidden()
    await expect(page.locator("#new-clock")).to_be_hidden()
    await page.locator("#match-first").select_option(first)
    await page.locator("#match-second").select_option(second)
    await page.locator("#match-pace").select_option(pace)
    if private:
        await page.get_by_label(re.compile("Private")).check()
    await page.get_by_role("button", name="Create room").click()
    await expect(person.room).to_be_visible()
    return await person.data("room")


async def shows_ply(person: WebPlayer, ply: str) -> None:
    """Wait until the room shows ``ply`` moves. Watched at every frame: expect()
    polls ever more slowly (up to 1 s apart), so on a loaded machine it could
    miss a ply an AI match shows for 0.5 s."""
    await person.page.wait_for_function(
        "(ply) => document.querySelector('.room-view').dataset.ply === ply",
        arg=ply,
        polling="raf",
        timeout=10_000,
    )


async def test_two_ais_play_for_the_creator_who_starts_the_next_game(db_path: Path) -> None:
    """Vi opens random against perfect at tic-tac-toe, 0.5 s a move: she watches
    (no board clicks, no hint), moves arrive one by one until the end; "Next
    game" starts game 2, the AIs' sides swapped, and "Review this game" links
    the first game's review."""
    async with web_session(db_path) as web:
        vi = await web.person("vi")
        await open_ai_match(vi, "tictactoe", "random", "perfect", "0.5")
        await expect(vi.room).to_have_attribute("data-you", "")
        await expect(vi.page.locator(".room-meta")).to_contain_text("AI match, 0.5 s a move")
        await expect(vi.page.locator(".room-meta")).to_contain_text("you are watching")
        # The moves come one at a time, at the pace: the first, then a second.
        for ply in ("1", "2"):
            await shows_ply(vi, ply)
        await expect(vi.page.locator(".hint-bar")).to_be_hidden()
        await expect(vi.room).to_have_attribute("data-status", "finished")
        first_moves = await vi.data("moves")
        await expect(vi.page.get_by_role("link", name="Review this game")).to_have_attribute(
            "href", re.compile(r"#/review/\d+")
        )
        next_game = vi.page.get_by_role("button", name="Next game")
        await expect(next_game).to_be_visible()
        seats = vi.page.locator(".seat-name")
        x_before = await seats.nth(0).inner_text()
        await next_game.click()
        await expect(vi.page.locator(".room-meta")).to_contain_text("game 2")
        await expect(next_game).to_be_hidden()
        await expect(seats.nth(1)).to_have_text(x_before)
        # Game 2 is under way: its moves arrive (how many by now depends on the
        # machine's load, at 0.5 s a move).
        await vi.page.wait_for_function(
            "() => Number(document.querySelector('.room-view').dataset.ply) >= 1",
            polling="raf",
            timeout=10_000,
        )
        assert first_moves


async def test_a_private_ai_match_shows_its_watch_code_and_another_watches(db_path: Path) -> None:
    """A private match's creator reads its watch code (no join code: no seat is
    free); Wu watches with it and sees the same game."""
    async with web_session(db_path) as web:
        vi = await web.person("vi")
        code = await open_ai_match(vi, "connect4", "easy", "easy", "5", private=True)
        watch_code = await vi.code("Watch code")
        await expect(vi.page.locator(".code-row").filter(has_text="Join code")).to_have_count(0)
        await expect(vi.page.locator(".codes")).to_contain_text("Private AI match")
        wu = await web.person("wu")
        await wu.by_code("Watch", watch_code)
        assert await wu.data("room") == code
        await expect(wu.page.locator(".room-meta")).to_contain_text("AI match, 5 s a move")
