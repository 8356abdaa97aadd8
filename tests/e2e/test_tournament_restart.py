"""A running tournament carries on after the server is killed and started again.

Real server processes (:class:`harness.ServerProcess`) on one database file:
one game in progress comes back in its room; one whose room was still waiting
for a player gets a new room, a new window and a new ``match``.
"""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path
from typing import Any

from classroom_helpers import admin_call
from harness import Player, ServerProcess, wait_until

TOKEN = re.compile(r"/teacher#token=([\w-]+)")


async def teacher_token(server: ServerProcess) -> str:
    """The token of the teacher's link that ``serve --class`` prints."""
    assert server.process.stdout is not None
    while True:
        line = (await asyncio.wait_for(server.process.stdout.readline(), 30)).decode()
        assert line, "the server printed no teacher's link"
        if match := TOKEN.search(line):
            return match.group(1)


async def test_a_tournament_carries_on_after_a_crash(tmp_path: Path) -> None:
    database = tmp_path / "class.db"
    server = await ServerProcess.start(database, "--class", "7B")
    try:
        token = await teacher_token(server)
        names = ["ann", "bob", "cy", "dan"]
        players = {name: await Player.join_server(server.ws_url, name) for name in names}
        roster = await admin_call(server.port, token, "GET", "/api/admin/roster")
        ids = {s["name"]: f"student:{s['id']}" for s in roster["students"]}
        body = {
            "name": "Crash cup",
            "game": "tictactoe",
            "format": "swiss",
            "rounds": 1,
            "entrants": [ids[name] for name in names],
            "spectator_delay": 3,
        }
        created = (await admin_call(server.port, token, "POST", "/api/admin/tournaments", body))[
            "tournament"
        ]
        matches = {name: await player.expect("match") for name, player in players.items()}
        rooms: dict[str, dict[str, str]] = {}
        for name, match in matches.items():
            rooms.setdefault(match["room"], {})[match["side"]] = name
        (played, played_by), (waiting, waiting_for) = sorted(rooms.items())
        # In the first room both sit down and X moves; in the other only X sits down.
        for side in ("first", "second"):
            name = played_by[side]
            await players[name].request({"type": "join", "code": matches[name]["code"]})
        moved = await players[played_by["first"]].request(
            {"type": "move", "room": played, "move": "b2"}
        )
        assert moved["type"] == "moved"
        early = waiting_for["first"]
        await players[early].request({"type": "join", "code": matches[early]["code"]})

        await server.stop(signal.SIGKILL)
        for player in players.values():
            await player.close()
        server = await ServerProcess.start(database, "--class", "7B")

        back = {
            name: await Player.join_server(server.ws_url, name, token=player.token)
            for name, player in players.items()
        }
        for side in ("first", "second"):
            state = await back[played_by[side]].expect("state")
            assert (state["room"]["code"], state["room"]["moves"]) == (played, "b2")
        watch_codes = [state["room"]["watch_code"]]
        fresh = {name: await back[name].expect("match") for name in waiting_for.values()}
        (new_room,) = {match["room"] for match in fresh.values()}
        assert new_room != waiting
        assert all(m["starts_by"] > matches[early]["starts_by"] for m in fresh.values())
        assert {m["side"]: n for n, m in fresh.items()} == waiting_for

        # Both games end: in each, O resigns (before moving, in the new room: a loss).
        for name, match in fresh.items():
            joined = await back[name].request({"type": "join", "code": match["code"]})
        watch_codes.append(joined["room"]["watch_code"])
        # The tournament's spectator delay, 3, holds in the restored room and in
        # the one opened after the restart (taken back from its stored games).
        eve = await Player.join_server(server.ws_url, "eve", client="spectator")
        for code in watch_codes:
            watched = await eve.request({"type": "watch", "code": code})
            assert watched["room"]["delayed"] == 3, watched
        await eve.close()
        for room, sides in ((played, played_by), (new_room, waiting_for)):
            over = await back[sides["second"]].request({"type": "resign", "room": room})
            assert over["type"] == "game_over", over

        async def shown() -> dict[str, Any]:
            answer = await admin_call(
                server.port, token, "GET", f"/api/tournaments/{created['id']}"
            )
            return dict(answer["tournament"])

        final = await wait_until(shown, lambda t: t["status"] == "finished", timeout=30)
        games = {g["room"]: g for g in final["rounds_played"][0]["games"]}
        assert set(games) == {played, new_room}
        assert all(game["result"] == "1-0" for game in games.values())
        record = await admin_call(
            server.port, token, "GET", f"/api/games/{games[played]['game_id']}"
        )
        assert (record["room"], record["move_string"], record["result"]) == (played, "b2", "1-0")
        points = {s["name"]: s["points"] for s in final["standings"]}
        assert points == {
            played_by["first"]: 1.0,
            waiting_for["first"]: 1.0,
            played_by["second"]: 0.0,
            waiting_for["second"]: 0.0,
        }
        for player in back.values():
            await player.close()
    finally:
        await server.stop()
