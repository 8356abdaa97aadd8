"""A tournament game lost to the database, as a student's page shows it, in Chromium.

Ann (Chromium, English, projector size) plays Bob (a protocol client) in a
one-game round robin; the server's SQLite file is locked mid-game (as the
``sqlite3`` shell in a long transaction would) for longer than
``storage_outage_limit``, and Bob's move, sent again past it, closes the room
(``storage_lost``). Ann's page says the room closed and why, pins the server's
announcement that the game is played again from the start (nobody forfeits it),
and, once the lock is gone, takes her by itself to the pairing's new room,
whose game she finishes. Ana, a Spanish page in the class, reads the
announcement in Spanish. Screenshots (1280x720, 390x844, 1024x768 and Ana's)
go to the test's temporary directory (printed).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from browser import web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import expect

from boardroom.server.store.sqlite import base as sqlite_base

LIMIT_SECONDS = 1.0
SIZES = (
    ("projector", {"width": 1280, "height": 720}),
    ("phone", {"width": 390, "height": 844}),
    ("small-projector", {"width": 1024, "height": 768}),
)


async def test_a_game_lost_to_the_database_is_said_and_its_replay_opened(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)  # the same refusal, sooner
    async with web_session(db_path, class_name="7B", storage_outage_limit=LIMIT_SECONDS) as web:
        ann = await web.person("ann", viewport=dict(SIZES[0][1]))
        ana = await web.person(None, viewport=dict(SIZES[1][1]), locale="es-ES")
        await ana.page.get_by_label("Tu nombre").fill("ana")
        await ana.page.get_by_role("button", name="Entrar", exact=True).click()
        await expect(ana.page.locator("body")).to_have_attribute("data-connection", "open")
        bob = await Player.join_server(web.server.ws_url, "bob")
        teacher = Teacher(web.server)
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        body = {"name": "Lost cup", "game": "tictactoe", "format": "round_robin"}
        status, _, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": entrants}
        )
        assert status == 201
        match = await bob.expect("match")
        lost_room = match["room"]
        await expect(ann.room).to_have_attribute("data-room", lost_room)
        joined = await bob.request({"type": "join", "code": match["code"]})
        assert joined["type"] == "state", joined
        if match["side"] == "first":
            reply = await bob.request({"type": "move", "room": lost_room, "move": "a1"})
            assert reply["type"] == "moved", reply
        assert await ann.wait_turn()
        await ann.play("b2")
        await bob.expect("moved", move="b2")

        holder = sqlite3.connect(db_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            move = {"type": "move", "room": lost_room, "move": "c3"}
            refused = await bob.request(move)
            assert refused["code"] == "storage_unavailable", refused
            await asyncio.sleep(LIMIT_SECONDS + 0.2)
            lost = await bob.request(move)
            assert lost["code"] == "storage_lost", lost
            notices = ann.page.locator("#notices")
            await expect(notices).to_contain_text(
                "closed: the server could not save its game for too long"
            )
            pinned = ann.page.locator("#pinned")
            await expect(pinned).to_contain_text(
                "Round 1 of the tournament Lost cup: ann and bob play their game again "
                "from the start, because the server could not save it. "
                "Nobody loses it by forfeit."
            )
            await expect(ana.page.locator("#pinned")).to_contain_text(
                "Ronda 1 del torneo Lost cup: ann y bob juegan su partida de nuevo desde el "
                "principio, porque el servidor no pudo guardarla. Nadie la pierde por no "
                "presentarse."
            )
            for name, size in SIZES:
                await ann.page.set_viewport_size(size)
                await expect(pinned).to_be_in_viewport()
                shot = tmp_path / f"replayed-{name}.png"
                await ann.page.screenshot(path=str(shot))
                print(f"\nscreenshot: {shot}")
            shot = tmp_path / "replayed-es-phone.png"
            await ana.page.screenshot(path=str(shot))
            print(f"\nscreenshot: {shot}")
            await ann.page.set_viewport_size(SIZES[0][1])
        finally:
            holder.execute("ROLLBACK")
            holder.close()

        again = await bob.expect("match", timeout=30)
        assert again["room"] != lost_room, again
        # Ann's page goes to the new room by itself: nothing holds her elsewhere.
        await expect(ann.room).to_have_attribute("data-room", again["room"], timeout=20_000)
        await expect(ann.page.locator("#pinned .pinned.match")).to_contain_text(
            "Round 1 of Lost cup: you play bob"
        )
        shot = tmp_path / "replay-room-projector.png"
        await ann.page.screenshot(path=str(shot))
        print(f"\nscreenshot: {shot}")
        joined = await bob.request({"type": "join", "code": again["code"]})
        assert joined["type"] == "state", joined
        await expect(ann.room).to_have_attribute("data-status", "playing")
        await bob.close()
