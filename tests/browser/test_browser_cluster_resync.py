"""The web client on a cluster whose Redis subscription broke: a move whose
reply was lost is not shown as refused.

Two real ``boardroom serve --cluster`` processes on a Redis of the test's own and
a new PostgreSQL database; Ann plays through the first (a protocol client), Bob
in the browser through the second. The fault is injected as
tests/e2e/test_e2e_cluster_faults.py does: the second's pub/sub connection is
killed while it is stopped (SIGSTOP), so that the owner's reply reaches nobody.
"""

from __future__ import annotations

import signal
from pathlib import Path

from browser import LAPTOP, TIMEOUT_MS, SharedChromium, WebPlayer, chromium_path
from cluster_helpers import reply_lost_while_unsubscribed
from harness import Player, ServerProcess
from playwright.async_api import expect
from redis.asyncio import Redis
from services import PostgresServer, start_redis


async def ann_moves(ann: Player, code: str, move: str) -> None:
    reply = await ann.request({"type": "move", "room": code, "move": move})
    assert reply["type"] == "moved", reply


async def test_a_move_made_whose_reply_was_lost_is_not_shown_refused(
    postgres_server: PostgresServer, shared_chromium: SharedChromium, tmp_path: Path
) -> None:
    """Bob's b2 reaches the owner (stopped); its reply is published while the
    second process is stopped and unsubscribed. Subscribed again, the second
    process resyncs: the room's whole state (b2 made), then the move sent
    again, refused as ``stale_move``. The page said "The position changed
    before your move arrived" under a board showing the move played; now it
    says nothing. Bob's chat line, sent after, comes after that answer (the
    owner takes his messages in order): once it shows, the answer was dealt with."""
    database = postgres_server.new_database()
    with start_redis() as server:
        flags = ("--cluster", server.url, "--cluster-name", "browser", "--engine", "python")
        first = await ServerProcess.start(database, *flags)
        second = await ServerProcess.start(database, *flags)
        redis = Redis.from_url(server.url)
        browser = await shared_chromium.browser(chromium_path())
        base_url = f"http://127.0.0.1:{second.port}"
        context = await browser.new_context(viewport=LAPTOP, base_url=base_url)
        try:
            ann = await Player.join_server(first.ws_url, "ann")
            code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
            page = await context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            bob = WebPlayer(page, base_url)
            await page.goto("/")
            await bob.enter_name("bob")
            await bob.by_code("Join", code)
            await ann_moves(ann, code, "a1")
            await bob.play("a2")
            await ann_moves(ann, code, "b1")
            await expect(bob.room).to_have_attribute("data-ply", "3")
            await reply_lost_while_unsubscribed(
                first, second, redis, lambda: bob.cell("b2").click()
            )
            await expect(bob.room).to_have_attribute("data-moves", "a1 a2 b1 b2")
            await bob.page.get_by_label("Chat message").fill("your move")
            await bob.page.get_by_role("button", name="Send").click()
            await expect(bob.chat_log()).to_contain_text("bob: your move")
            await expect(bob.refusal).to_have_text("")
            await expect(bob.turn).to_have_text("X ann to move")
            shot = tmp_path / "cluster-resync-move-made.png"
            await page.screenshot(path=str(shot))
            print(f"\nscreenshot: {shot}")
            await ann_moves(ann, code, "c1")
            await expect(bob.room).to_have_attribute("data-status", "finished")
            await expect(bob.refusal).to_have_text("")
            bob.check_clean()
        finally:
            await context.close()
            await redis.aclose()
            for process in (first, second):
                await process.stop(signal.SIGKILL)
