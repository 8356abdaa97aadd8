"""The project's own clients under class mode: a bot waits out a pause, a removed
player's session ends instead of reconnecting."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from classroom_helpers import Teacher
from harness import running_server

from client.session import Session, SessionEnded

ROOT = Path(__file__).resolve().parent.parent
SLOW_BOT = """
import time

def choose_move(state):
    time.sleep(0.3)
    return state.legal_moves[0]
"""


async def test_a_bot_waits_out_a_pause_and_finishes_its_game(tmp_path: Path) -> None:
    """Paused mid-game (the bot thinking or about to move), the bot neither gives
    up nor goes silent: after the resume it plays the game to its end."""
    bot = tmp_path / "slow_bot.py"
    bot.write_text(SLOW_BOT)
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "client.cli", "bot", "--server", server.ws_url, "--script", str(bot)),
            *("--create", "tictactoe", "--ai", "random", "--games", "1"),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        await asyncio.sleep(0.8)  # the bot has moved at least once, and thinks again
        await teacher.post("/api/admin/pause")
        await asyncio.sleep(1.0)
        rooms = await teacher.get("/api/admin/rooms")
        assert process.returncode is None, "the bot gave up during the pause"
        await teacher.post("/api/admin/resume")
        try:
            out, err = await asyncio.wait_for(process.communicate(), 30)
        except TimeoutError:
            process.kill()
            out, err = await process.communicate()
            raise AssertionError(
                f"the bot never finished: {out.decode()!r} {err.decode()!r}"
            ) from None
    assert process.returncode == 0, err.decode()
    assert "game 1: " in out.decode()
    assert any(room["status"] == "playing" for room in rooms["rooms"]), rooms


async def test_a_removed_players_session_ends_without_reconnecting(tmp_path: Path) -> None:
    """Close code 4003 ends the client session at once, with the reason in words."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        session = Session(server.ws_url, "ann", pace=None)
        events = session.subscribe()
        await session.start()
        try:
            await teacher.post(f"/api/admin/students/{await teacher.student_id('ann')}/remove")
            while not isinstance(event := await asyncio.wait_for(events.get(), 10), SessionEnded):
                pass
            assert "removed" in event.reason
            assert session.ended is not None
        finally:
            await session.close()
