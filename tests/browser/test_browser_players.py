"""The web client keeps one player per browser: the player token the server gives
on the first visit lives in localStorage, so a reload or another tab of the same
browser is the same player, and another browser (a new context, with its own
storage) is another. The player id the welcome names is on the page's header
(``#you[data-player]``)."""

from __future__ import annotations

import re
from pathlib import Path

from browser import WebPlayer, stored, web_session
from playwright.async_api import Page, expect

from boardroom.server.store import GameStore

PLAYER_ID = re.compile(r"^p[0-9a-f]{16}$")
UNKNOWN_TOKEN = "bp_" + "A" * 43


async def player_id(page: Page) -> str:
    """The player id the page was welcomed as."""
    you = page.locator("#you")
    await expect(you).to_have_attribute("data-player", PLAYER_ID)
    return await you.get_attribute("data-player") or ""


async def stored_player_token(page: Page) -> str | None:
    return await stored(page, "boardroom.playerToken")


async def test_a_reload_and_a_second_tab_are_the_same_player_and_a_new_browser_another(
    db_path: Path,
) -> None:
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        first = await player_id(ann.page)
        token = await stored_player_token(ann.page)
        assert token is not None and token.startswith("bp_")

        await ann.page.reload()
        await expect(ann.page.locator("#player-name")).to_have_text("ann")
        assert await player_id(ann.page) == first

        tab = WebPlayer(await ann.page.context.new_page(), web.base_url)
        web.people.append(tab)
        await tab.page.goto("/")
        await expect(tab.page.locator(".lobby-view")).to_be_visible()
        assert await player_id(tab.page) == first

        bea = await web.person("bea")
        assert await player_id(bea.page) not in ("", first)
        assert await stored_player_token(bea.page) not in (None, token)
        for page in (ann.page, tab.page):
            assert "bp_" not in page.url
        assert await stored_player_token(ann.page) == token


async def test_a_player_token_the_server_does_not_know_is_replaced_by_a_new_player(
    db_path: Path,
) -> None:
    """The browser kept a token this server does not know (another database): the
    page says so once, goes on as a new player, and keeps that player's token."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        before = await player_id(ann.page)
        await ann.page.evaluate(f"localStorage.setItem('boardroom.playerToken', '{UNKNOWN_TOKEN}')")
        await ann.page.reload()
        await expect(ann.page.locator("#notices")).to_contain_text(
            "The server did not know the player this browser kept: you play as a new player"
        )
        after = await player_id(ann.page)
        kept = await stored_player_token(ann.page)
        assert after != before
        assert kept is not None and kept.startswith("bp_") and kept != UNKNOWN_TOKEN


async def test_a_second_person_under_a_name_is_shown_with_a_number(db_path: Path) -> None:
    """Two people may not be online under one name: the second browser is shown as
    ``ann 2`` while the first is there, and is told why."""
    async with web_session(db_path) as web:
        first = await web.person("ann")
        await player_id(first.page)
        second = await web.person()
        await second.page.get_by_label("Your name").fill("ann")
        await second.page.get_by_role("button", name="Enter").click()
        await expect(second.page.locator("#player-name")).to_have_text("ann 2")
        await expect(second.page.locator("#notices")).to_contain_text(
            "Another player is online as ann: you are shown as ann 2 while both are here"
        )
        await expect(first.page.locator("#player-name")).to_have_text("ann")


async def test_a_revoked_player_stops_the_page_and_a_reload_is_a_new_player(
    db_path: Path,
) -> None:
    """Once the admin revoked the browser's player, the next connection is refused
    (close code 4004): the page says so and stops, the token is forgotten, and a
    reload starts as a new player."""
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        revoked = await player_id(ann.page)
        async with GameStore(db_path) as store:
            await store.revoke_player(revoked, at=1_800_000_000.0)
        await ann.page.reload()
        await expect(ann.page.locator(".removed-view h1")).to_have_text("This player was revoked")
        await expect(ann.page).to_have_title("Revoked · Boardroom")
        assert await stored_player_token(ann.page) is None
        await ann.page.get_by_role("button", name="Reload").click()
        await expect(ann.page.locator(".lobby-view")).to_be_visible()
        assert await player_id(ann.page) != revoked
