"""The web client while the server cannot save: the move waits, a notice says so.

The server's SQLite file is locked by another connection (as the ``sqlite3``
shell in a long transaction would) while Ann, in Chromium, plays Bob, a
protocol client. Her move is refused ``storage_unavailable``; the page says
"Saving is paused" and sends it again by itself; once the lock is let go the
move is played, Bob sees it, and the game goes on. Screenshots of the notice
(laptop and phone) go to the test's temporary directory (printed)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from browser import web_session
from harness import Player
from playwright.async_api import expect

from boardroom.server.store.sqlite import base as sqlite_base


async def test_a_move_made_while_the_database_is_locked_is_played_once_it_is_free(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite waits 0.3 s for the lock, not 5 s: the same refusal, sooner.
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)
    async with web_session(db_path) as web:
        ann = await web.person("ann")
        code = await ann.create_room("tictactoe")
        bob = await Player.join_server(web.server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": code}))["type"] == "state"
        await ann.wait_turn()
        await ann.play("a1")
        reply = await bob.request({"type": "move", "room": code, "move": "b1", "ply": 1})
        assert reply["type"] == "moved", reply
        await ann.wait_turn()

        holder = sqlite3.connect(db_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            await ann.cell("a2").click()
            notices = ann.page.locator("#notices")
            await expect(notices).to_contain_text("Saving is paused on the server", timeout=20_000)
            assert await ann.data("ply") == "2"  # not played yet
            for name, size in (("laptop", None), ("phone", {"width": 390, "height": 844})):
                if size is not None:
                    await ann.page.set_viewport_size(size)
                shot = tmp_path / f"saving-paused-{name}.png"
                await ann.page.screenshot(path=str(shot))
                print(f"\nscreenshot: {shot}")
        finally:
            holder.execute("ROLLBACK")
            holder.close()

        seen = await bob.expect("moved", ply=2, timeout=60)
        assert seen["move"] == "a2"
        await expect(ann.room).to_have_attribute("data-ply", "3", timeout=30_000)
        assert not [m for m in bob.seen if m.get("type") == "room_closed"]
        reply = await bob.request({"type": "move", "room": code, "move": "b2", "ply": 3})
        assert reply["type"] == "moved", reply
        await ann.play("a3")
        await expect(ann.room).to_have_attribute("data-status", "finished")
        await bob.close()
