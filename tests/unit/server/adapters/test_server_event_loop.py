"""The server on uvloop, the --event-loop setting, and the echo baseline server."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sys
import urllib.request
from pathlib import Path

import pytest
from harness import TIMEOUT, Player, ServerProcess
from websockets.asyncio.client import connect

from boardroom.server.config import ServerConfig
from boardroom.server.event_loop import loop_factory, uvloop_available

needs_uvloop = pytest.mark.skipif(not uvloop_available(), reason="uvloop is not installed")


def test_an_unknown_event_loop_is_refused() -> None:
    with pytest.raises(ValueError, match="event_loop='trio'"):
        ServerConfig(event_loop="trio")


def test_asyncio_is_the_standard_loop() -> None:
    assert loop_factory("asyncio") is None


@needs_uvloop
@pytest.mark.e2e  # a server process
async def test_the_server_runs_and_plays_on_uvloop(tmp_path: Path) -> None:
    server = await ServerProcess.start(tmp_path / "games.db", "--event-loop", "uvloop")
    try:
        body = await asyncio.to_thread(_get, f"http://127.0.0.1:{server.port}/healthz")
        assert json.loads(body)["event_loop"] == "uvloop"
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "perfect"}
        )
        assert created["type"] == "state"
        started = await ann.expect("state")
        assert started["room"]["status"] == "playing"
        code = started["room"]["code"]
        await ann.request({"type": "move", "room": code, "move": "b2", "ply": 0})
        answer = await ann.expect("moved", side="second")
        assert answer["ply"] == 1
    finally:
        assert await server.stop() == 0


@pytest.mark.e2e  # a server process
async def test_the_echo_server_sends_each_frame_back() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boardroom.server.echo_server", stdout=asyncio.subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
        match = re.search(rb"Echo server on port (\d+)", line)
        assert match, line
        async with connect(f"ws://127.0.0.1:{int(match[1])}/ws", compression=None) as ws:
            frame = json.dumps({"type": "move", "room": "ABCDEF", "move": "4", "ply": 0})
            await ws.send(frame)
            assert await asyncio.wait_for(ws.recv(), TIMEOUT) == frame
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), TIMEOUT) == 0


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        return str(response.read().decode())
