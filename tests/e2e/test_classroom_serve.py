"""``boardroom serve --class``: the teacher's link it prints, and what lasts a restart.

Real server processes (:class:`harness.ServerProcess`) on one database file.
"""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path

import aiohttp
import pytest
from classroom_helpers import admin_call
from harness import Player, ServerProcess

from boardroom.server.config import ServerConfig, add_arguments, config_from

LINK = re.compile(r"^  Teacher page: (http://127\.0\.0\.1:(\d+)/teacher#token=([\w-]+))$")


async def printed_after_start(server: ServerProcess) -> list[str]:
    """The lines ``serve`` prints after its first, up to "Stop with Ctrl-C"."""
    assert server.process.stdout is not None
    lines = []
    while True:
        line = (await asyncio.wait_for(server.process.stdout.readline(), 30)).decode()
        if not line or line.startswith("Stop with"):
            return lines
        lines.append(line.rstrip("\n"))


async def test_the_teacher_link_works_and_outlives_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--class`` prints the link; its token opens the controls. After a
    restart (class named by BOARDROOM_CLASS this time) the same link is
    printed, the roster kept its rename, and so did the restored game.
    Without class mode there is no link and the API is off."""
    database = tmp_path / "class.db"
    server = await ServerProcess.start(database, "--class", "7B")
    try:
        printed = await printed_after_start(server)
        # The local address, for browsers and for clients.
        local = f"  http://127.0.0.1:{server.port}/    ws://127.0.0.1:{server.port}/ws"
        assert local in printed, printed
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{server.port}/") as page,
        ):
            assert page.status == 200 and "<title>Boardroom</title>" in await page.text()
        assert printed[-2] == (
            'Class "7B": the teacher\'s link holds the controls; keep it to yourself.'
        )
        match = LINK.match(printed[-1])
        assert match is not None, printed
        assert int(match.group(2)) == server.port
        token = match.group(3)
        assert len(token) == 32
        summary = await admin_call(server.port, token, "GET", "/api/admin/class")
        assert summary == {
            "class": "7B",
            "paused": False,
            "hints": False,
            "autopilot": "off",
            "students": 0,
            "connected": 0,
            "rooms": 0,
            "games_in_progress": 0,
            "announcement": None,
            # Listening on 127.0.0.1 only: no student's machine reaches it.
            "join_base": f"http://127.0.0.1:{server.port}/",
            "join_reachable": False,
        }
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "connect4"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        await ann.request({"type": "move", "room": code, "move": "4"})  # a game to restore
        roster = await admin_call(server.port, token, "GET", "/api/admin/roster")
        assert isinstance(roster, dict)
        student = roster["students"][0]
        await admin_call(
            server.port,
            token,
            "POST",
            f"/api/admin/students/{student['id']}/rename",
            {"name": "Annie"},
        )
        await ann.close()
        await bob.close()
    finally:
        assert await server.stop() == 0

    monkeypatch.setenv("BOARDROOM_CLASS", "7B")
    server = await ServerProcess.start(database)
    try:
        again = LINK.match((await printed_after_start(server))[-1])
        assert again is not None and again.group(3) == token
        roster = await admin_call(server.port, token, "GET", "/api/admin/roster")
        assert isinstance(roster, dict)
        names = [(s["id"], s["name"]) for s in roster["students"]]
        assert names[0] == (student["id"], "Annie") and names[1][1] == "bob"
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{server.port}/api/rooms") as response,
        ):
            (restored,) = (await response.json())["rooms"]
        assert restored["code"] == code and restored["players"] == ["Annie", "bob"]
    finally:
        assert await server.stop() == 0

    monkeypatch.delenv("BOARDROOM_CLASS")
    server = await ServerProcess.start(database)
    try:
        printed = await printed_after_start(server)
        assert not [line for line in printed if "Teacher" in line or "token" in line]
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"http://127.0.0.1:{server.port}/api/admin/class",
                headers={"Authorization": f"Bearer {token}"},
            ) as response,
        ):
            assert response.status == 404
    finally:
        assert await server.stop() == 0


def test_class_mode_is_set_by_the_flag_or_the_variable() -> None:
    """``--class NAME`` or ``BOARDROOM_CLASS``; the name is trimmed; off by default."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert config_from(parser.parse_args(["--class", " 7B "]), {}).class_name == "7B"
    from_env = config_from(parser.parse_args([]), {"BOARDROOM_CLASS": "Year 9"})
    assert from_env.class_mode and from_env.class_name == "Year 9"
    assert not ServerConfig().class_mode
    assert not config_from(parser.parse_args([]), {"BOARDROOM_CLASS": "  "}).class_mode
    with pytest.raises(ValueError, match="class="):
        config_from(parser.parse_args(["--class", "x" * 65]), {})
