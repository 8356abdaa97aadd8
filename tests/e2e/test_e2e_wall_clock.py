"""The server's wall clock stepping back (an NTP correction) never gives a
player time back: the room is handed a time that never decreases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from harness import Player, running_server

import boardroom.server.room_host


class SteppableClock:
    """``time.time()`` as the room host reads it, but ``behind`` seconds slow."""

    def __init__(self) -> None:
        self.behind = 0.0

    def time(self) -> float:
        return time.time() - self.behind


async def test_a_clock_stepping_back_gives_no_time_back(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One minute each, no increment: ann moves, the wall clock steps back 60 s,
    bob moves. Bob's clock has not gained the minute the wall clock lost."""
    clock = SteppableClock()
    monkeypatch.setattr(boardroom.server.room_host, "time", clock)
    async with running_server(db_path) as server_:
        ann = await Player.join_server(server_.ws_url, "ann")
        timed = {"kind": "increment", "initial": 60, "increment": 0}
        created = await ann.request({"type": "create_room", "game": "tictactoe", "clock": timed})
        code = created["room"]["code"]
        bob = await Player.join_server(server_.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        first = await ann.request({"type": "move", "room": code, "move": "b2"})
        assert first["type"] == "moved", first
        clock.behind = 60.0
        second = await bob.request({"type": "move", "room": code, "move": "a1"})
        assert second["type"] == "moved", second
        assert second["clocks"]["second_ms"] <= 60_000, second
        assert first["clocks"]["first_ms"] <= 60_000, first
