"""The web client in Chromium when the connection drops, and when the page reloads.

The pages reach the server through :class:`harness.CuttableProxy`, which a test
cuts as a pulled cable or a sleeping laptop would: both ends see a reset. The
page must say it is reconnecting, come back by itself with its resume token, show
what happened meanwhile, watch again what it was watching, and let the game
finish; a reload of the page must return to the same seat.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from browser import web_session
from harness import Player
from playwright.async_api import expect


async def test_the_page_reconnects_by_itself_and_the_game_goes_on(db_path: Path) -> None:
    """Ann (in the browser) plays Bob (a protocol client) while Cat watches in the
    browser. The connection drops; Bob moves while Ann is away; both pages come
    back on their own, show Bob's move, and Ann wins after reloading the page."""
    async with web_session(db_path, through_proxy=True) as web:
        assert web.proxy is not None
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await Player.join_server(web.server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": code}))["type"] == "state"
        cat = await web.person("cat")
        await cat.by_code("Watch", code)

        async def bob_plays(move: str, ply: int) -> None:
            reply = await bob.request({"type": "move", "room": code, "move": move, "ply": ply})
            assert reply["type"] == "moved", reply

        await ann.play("b2")
        await bob_plays("a2", 1)
        await ann.play("c3")

        # Reconnecting takes a fraction of a second: watch for the banner from before the cut.
        banners = [
            asyncio.create_task(person.banner.filter(has_text="Reconnecting…").wait_for())
            for person in (ann, cat)
        ]
        web.proxy.cut()
        await asyncio.gather(*banners)
        await bob.expect("player_status", side="first", connected=False)
        await bob_plays("a3", 3)  # while Ann is away

        await bob.expect("player_status", side="first", connected=True)
        for person in (ann, cat):
            await expect(person.banner).to_be_hidden()
            await expect(person.room).to_have_attribute("data-moves", "b2 a2 c3 a3")
        await expect(ann.turn).to_have_text("Your move")

        await ann.page.reload()
        await expect(ann.room).to_have_attribute("data-moves", "b2 a2 c3 a3")
        assert await ann.data("you") == "first"
        await ann.play("a1")
        await expect(ann.turn).to_have_text("You win: three in a row, a1-b2-c3")
        await expect(cat.turn).to_have_text("X ann wins: three in a row, a1-b2-c3")
        over = await bob.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "line", "line": ["a1", "b2", "c3"]}
        await bob.close()
