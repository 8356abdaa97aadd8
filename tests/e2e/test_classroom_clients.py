"""The project's own clients under class mode: a bot waits out a pause, a removed
player's session ends instead of reconnecting."""

from __future__ import annotations

import asyncio
import io
import sys
import zipfile
from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, running_server, wait_until
from repo_paths import REPO_ROOT
from terminal_helpers import client_process

from boardroom.client.session import Session, SessionEnded

SLOW_BOT = """
import time

def choose_move(state):
    time.sleep(0.3)  # the subject: a bot that is thinking when the pause comes
    return state.legal_moves[0]
"""


def bot_thinks_again(rooms: dict[str, Any]) -> bool:
    """Whether a game in ``rooms`` (GET /api/admin/rooms) is in play after two moves."""
    return any(
        room["status"] == "playing" and len(room["moves"].split()) >= 2 for room in rooms["rooms"]
    )


async def test_a_bot_waits_out_a_pause_and_finishes_its_game(tmp_path: Path) -> None:
    """Paused mid-game (the bot thinking or about to move), the bot neither gives
    up nor goes silent: after the resume it plays the game to its end."""
    bot = tmp_path / "slow_bot.py"
    bot.write_text(SLOW_BOT)
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "boardroom.client.cli", "bot", "--server", server.ws_url, "--script", str(bot)),
            *("--create", "tictactoe", "--ai", "random", "--games", "1"),
            cwd=REPO_ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        # The bot has moved at least once, the AI has answered: the bot thinks again.
        await wait_until(lambda: teacher.get("/api/admin/rooms"), bot_thinks_again)
        await teacher.post("/api/admin/pause")
        await asyncio.sleep(1.0)  # the subject: a pause longer than the bot's thinking
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


async def test_a_watcher_is_no_student_and_cannot_take_a_seat(tmp_path: Path) -> None:
    """``boardroom watch`` in class mode: the watcher sees the game but is not put
    on the roster (nor in games.zip); a spectator session that tries to sit down
    is refused with ``watch_only`` and nothing changes."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]
        async with client_process(
            "watch", code, "--server", server.ws_url, "--name", "projector",
            config_home=tmp_path / "projector",
        ) as watcher:  # fmt: skip
            await watcher.expect(rf"You are watching room {code}")
            roster = await teacher.get("/api/admin/roster")
            assert [s["name"] for s in roster["students"]] == ["ann"], roster

        spectator = await Player.join_server(server.ws_url, "cam", client="spectator")
        for request in (
            {"type": "join", "code": code},
            {"type": "create_room", "game": "connect4"},
            {"type": "quick_match", "game": "tictactoe"},
        ):
            refused = await spectator.request(request)
            assert (refused["type"], refused.get("code")) == ("error", "watch_only"), refused
            assert "spectator" in refused["message"], refused
        watched = await spectator.request({"type": "watch", "code": code})
        assert watched["type"] == "state" and "you" not in watched["room"], watched
        listed = await spectator.request({"type": "list_rooms"})
        assert [r["code"] for r in listed["rooms"]] == [code], listed
        roster = await teacher.get("/api/admin/roster")
        assert [s["name"] for s in roster["students"]] == ["ann"], roster
        status, archive, _ = await teacher.call("GET", "/api/admin/export/games.zip")
        assert status == 200
        with zipfile.ZipFile(io.BytesIO(archive)) as files:
            students = {name.split("/")[1] for name in files.namelist() if name.count("/") > 1}
        assert all(not name.startswith(("projector", "cam")) for name in students), students
