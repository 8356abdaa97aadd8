"""Six bots play a round robin and a Swiss to the end through the real server.

The round robin is played by six real ``boardroom bot --tournament``
processes, the Swiss by six bot sessions in this process (the same runner).
The standings the server shows are checked against a count made here from
the game records (``GET /api/games/{id}``), not from the director's numbers.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from classroom_helpers import Teacher
from harness import running_server, wait_until
from repo_paths import REPO_ROOT
from tournament_helpers import (
    RANDOM_BOT,
    WAIT,
    check_standings,
    colour_counts,
    every_pair,
    in_process_bots,
    meetings,
    results_from_records,
    tournament,
)

from boardroom.shared.protocol.messages import Announcement

BOTS = ["ada", "bob", "cy", "dan", "eve", "fay"]


async def create(teacher: Teacher, body: dict[str, Any]) -> dict[str, Any]:
    status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
    assert status == 201, answer
    return dict(answer["tournament"])


async def entrants(teacher: Teacher, names: list[str]) -> list[str]:
    """The entrant ids of the students called ``names``, once all are on the roster."""

    async def roster() -> dict[str, str]:
        body = await teacher.get("/api/admin/roster")
        return {s["name"]: s["id"] for s in body["students"]}

    known = await wait_until(roster, lambda found: set(names) <= set(found), timeout=WAIT)
    return [f"student:{known[name]}" for name in names]


async def test_six_bot_processes_play_a_round_robin_to_the_end(tmp_path: Any) -> None:
    """Every pair meets exactly once, colours alternate, every game is played
    (no forfeit), and the standings are those of the stored games."""
    async with running_server(tmp_path / "rr.db", class_name="7B") as server:
        teacher = Teacher(server)
        processes = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "boardroom.client.cli",
                "bot",
                "--script",
                str(RANDOM_BOT),
                "--tournament",
                "--name",
                name,
                "--server",
                server.ws_url,
                cwd=REPO_ROOT,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for name in BOTS
        ]
        try:
            players = await entrants(teacher, BOTS)
            body = {
                "name": "Friday round robin",
                "game": "tictactoe",
                "format": "round_robin",
                "entrants": players,
            }
            created = await create(teacher, body)
            assert (created["status"], created["round"], created["rounds"]) == ("running", 1, 5)
            base = server.http_url("")
            shown = await wait_until(
                lambda: tournament(base, created["id"]),
                lambda t: t["status"] == "finished",
                timeout=WAIT,
            )
        finally:
            for process in processes:
                process.terminate()
            outputs = [await process.communicate() for process in processes]
        assert sorted(meetings(shown), key=sorted) == sorted(every_pair(players), key=sorted)
        for first, second in colour_counts(shown).values():
            assert first + second == 5 and abs(first - second) <= 1
        assert all(
            game["result"] in ("1-0", "0-1", "1/2-1/2")
            for round_ in shown["rounds_played"]
            for game in round_["games"]
        )
        check_standings(shown, await results_from_records(base, shown))
        assert [cell["player"] for cell in shown["crosstable"]] == [
            s["player"] for s in shown["standings"]
        ]
        for out, _ in outputs:  # each bot played its five games and said so
            assert out.decode().count("\ngame ") + out.decode().startswith("game ") == 5, out


async def test_six_bots_play_a_swiss_without_repeats(tmp_path: Any) -> None:
    """Three rounds: nobody meets anyone twice, colours stay within one of
    even, the standings are those of the stored games, and everyone connected
    hears who won."""
    async with running_server(tmp_path / "swiss.db", class_name="7B") as server:
        teacher = Teacher(server)
        async with in_process_bots(server.ws_url, BOTS) as bots:
            players = await entrants(teacher, BOTS)
            body = {
                "name": "Swiss",
                "game": "tictactoe",
                "format": "swiss",
                "entrants": players,
            }
            created = await create(teacher, body)
            assert created["rounds"] == 3  # the recommended: ceil(log2 6)
            base = server.http_url("")
            shown = await wait_until(
                lambda: tournament(base, created["id"]),
                lambda t: t["status"] == "finished",
                timeout=WAIT,
            )
            announced = await wait_until(lambda: bots[0].received(Announcement), bool, timeout=WAIT)
        games = meetings(shown)
        assert len(games) == 9 and len(set(games)) == 9
        for first, second in colour_counts(shown).values():
            assert first + second == 3 and abs(first - second) <= 1
        check_standings(shown, await results_from_records(base, shown))
        winner = shown["standings"][0]
        assert winner["name"] in announced[-1].text and "Swiss" in announced[-1].text
        current = await tournament(base, created["id"])
        assert current == shown
