"""The browser lobby with a paged room list and the cap on open rooms, in Chromium.

The server sends the public rooms a page at a time with the total
(docs/protocol.md, "Rooms and codes"), and refuses a room past the cap with
``too_many_rooms`` (docs/protocol.md, "Limits"): the lobby shows the page and
says that more rooms exist, and shows the refusal's words.
"""

from __future__ import annotations

from pathlib import Path

from browser import web_session
from harness import Player
from playwright.async_api import expect


async def test_the_lobby_shows_a_page_of_rooms_and_how_many_there_are(db_path: Path) -> None:
    """55 public rooms: the lobby lists the first 50 and says "the first 50 of 55"."""
    settings = {"rate": 1000.0, "burst": 1000, "max_rooms_per_session": 100}
    async with web_session(db_path, **settings) as web:
        ann = await Player.join_server(web.server.ws_url, "ann")
        for _ in range(55):
            reply = await ann.request({"type": "create_room", "game": "tictactoe"})
            assert reply["type"] == "state", reply
        sam = await web.person("sam")
        await expect(sam.page.locator(".lobby-view tr[data-room]")).to_have_count(50)
        await expect(sam.page.locator(".lobby-view .updated")).to_contain_text("the first 50 of 55")


async def test_a_player_at_the_cap_is_told_which_rooms_to_finish_or_leave(db_path: Path) -> None:
    """With one open room a player: sam opens one, goes back to the lobby and asks
    for another; the form says why not, naming the room, and no room opens."""
    async with web_session(db_path, max_rooms_per_session=1) as web:
        sam = await web.person("sam")
        code = await sam.create_room("tictactoe")
        await sam.page.get_by_role("button", name="← Lobby").click()
        await expect(sam.page.locator(".lobby-view")).to_be_visible()
        await sam.page.get_by_role("button", name="Create room").click()
        refusal = sam.page.locator("#new-room").get_by_text("open room")
        await expect(refusal).to_contain_text(f"You already have 1 open room ({code})")
        await expect(refusal).to_contain_text("leave one")
        health = await web.server.get_json("/healthz")
        assert health["rooms"] == 1, health
