"""The web client while the server cannot save: the move waits, the clocks stand.

The server's SQLite file is locked by another connection (as the ``sqlite3``
shell in a long transaction would) while Ann, in Chromium, plays Bob, a
protocol client, on a clock of 60 s a move. Her move is refused
``storage_unavailable``; the page says "Saving is paused" (a notice, and a
banner from the room's ``saving_paused`` state), her clock stands still where
the server's does, and the move is sent again by itself; once the lock is let
go the move is played, Bob sees it, the banner goes and Bob's clock runs.
Screenshots of the pause (projector 1280x720 and phone 390x844) go to the
test's temporary directory (printed).

A tournament paused past the outage limit is said by the server's
``announcement`` (``tournament_paused``, then ``tournament_resumed``): the
page pins it in its reader's language, the resumption in the pause's place,
and moves nobody to the standings."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from browser import web_session
from harness import Player
from playwright.async_api import expect

from boardroom.server.lifecycle import HUB
from boardroom.server.store.sqlite import base as sqlite_base
from boardroom.shared.protocol.tournament_ending import TournamentEnding

SIZES = (
    ("projector", {"width": 1280, "height": 720}),
    ("phone", {"width": 390, "height": 844}),
    ("small-projector", {"width": 1024, "height": 768}),
)


async def test_a_move_made_while_the_database_is_locked_is_played_once_it_is_free(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite waits 0.3 s for the lock, not 5 s: the same refusal, sooner.
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)
    async with web_session(db_path) as web:
        bob = await Player.join_server(web.server.ws_url, "bob")
        clock = {"kind": "per_move", "per_move": 60}
        created = await bob.request({"type": "create_room", "game": "tictactoe", "clock": clock})
        code = created["room"]["code"]
        ann = await web.person("ann")
        await ann.by_code("Join", code)
        await bob.expect("state")  # the game started
        reply = await bob.request({"type": "move", "room": code, "move": "a1"})
        assert reply["type"] == "moved", reply
        await ann.wait_turn()
        ann_clock = ann.page.locator(".seat[data-side='second'] .clock")
        bob_clock = ann.page.locator(".seat[data-side='first'] .clock")
        await expect(ann_clock).to_have_class("clock running")

        holder = sqlite3.connect(db_path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            await ann.cell("a2").click()
            notices = ann.page.locator("#notices")
            await expect(notices).to_contain_text("Saving is paused on the server", timeout=20_000)
            banner = ann.page.locator(".saving-banner")
            await expect(banner).to_be_visible()
            await expect(banner).to_contain_text("the clocks are stopped")
            await expect(ann.room).to_have_attribute("data-saving-paused", "true")
            assert await ann.data("ply") == "1"  # not played yet
            # The clock she sees stands, as the server's does: not running, not running down.
            await expect(ann_clock).not_to_have_class("clock running")
            shown = await ann_clock.inner_text()
            await asyncio.sleep(2.2)
            assert await ann_clock.inner_text() == shown
            for name, size in SIZES:
                await ann.page.set_viewport_size(size)
                await expect(banner).to_be_in_viewport()
                shots = {"": None}
                if name == "phone":  # the seats are under the board: scrolled to as well
                    shots["-clocks"] = ann_clock
                for suffix, shown_part in shots.items():
                    if shown_part is not None:
                        await shown_part.evaluate("e => e.scrollIntoView({block: 'center'})")
                        await expect(shown_part).to_be_in_viewport(ratio=1)
                    shot = tmp_path / f"saving-paused-{name}{suffix}.png"
                    await ann.page.screenshot(path=str(shot))
                    print(f"\nscreenshot: {shot}")
            assert await ann_clock.inner_text() == shown
        finally:
            holder.execute("ROLLBACK")
            holder.close()

        seen = await bob.expect("moved", ply=1, timeout=60)
        assert seen["move"] == "a2"
        await expect(ann.room).to_have_attribute("data-ply", "2", timeout=30_000)
        await expect(ann.page.locator(".saving-banner")).to_be_hidden()
        await expect(bob_clock).to_have_class("clock running")  # resynced: Bob's move now
        assert not [m for m in bob.seen if m.get("type") == "room_closed"]
        reply = await bob.request({"type": "move", "room": code, "move": "b1", "ply": 2})
        assert reply["type"] == "moved", reply
        await ann.play("b2")
        reply = await bob.request({"type": "move", "room": code, "move": "c1", "ply": 4})
        assert reply["type"] == "moved", reply
        await expect(ann.room).to_have_attribute("data-status", "finished")
        await bob.close()


async def test_a_tournaments_pause_for_saving_is_pinned_and_its_resumption_takes_its_place(
    db_path: Path, tmp_path: Path
) -> None:
    async with web_session(db_path, class_name="7B") as web:
        ann = await web.person("ann", viewport=dict(SIZES[0][1]))
        ana = await web.person(None, viewport=dict(SIZES[1][1]), locale="es-ES")
        await ana.page.get_by_label("Tu nombre").fill("ana")
        await ana.page.get_by_role("button", name="Entrar", exact=True).click()
        await expect(ana.page.locator("body")).to_have_attribute("data-connection", "open")
        hub = web.server.app[HUB]
        said = {
            "paused": ("is paused: the server cannot save", "está en pausa: el servidor no puede"),
            "resumed": ("goes on: its results are saved again", "sigue: sus resultados vuelven"),
        }
        for name, ending in (
            ("paused", TournamentEnding.paused("Cup")),
            ("resumed", TournamentEnding.resumed("Cup")),
        ):
            hub.announce(ending.english(), source="server", tournament=1, ending=ending)
            for person, words, who in ((ann, said[name][0], "en"), (ana, said[name][1], "es")):
                pinned = person.page.locator("#pinned li")
                await expect(pinned).to_have_count(1)
                await expect(pinned).to_contain_text(words)
                assert "#/tournament" not in person.page.url
                shot = tmp_path / f"tournament-{name}-{who}.png"
                await person.page.screenshot(path=str(shot))
                print(f"\nscreenshot: {shot}")
