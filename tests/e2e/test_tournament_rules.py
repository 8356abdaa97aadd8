"""Forfeits: a no-show, both absent, a pause holding the deadline, a removed student.

Real servers with real clients. The tournaments are created through the
director itself (the HTTP API's checks are tested in test_tournament_api.py)
so that a no-show window can be a second or two, not the ten seconds the API
allows at least.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, RunningServer, lines_until, running_server, wait_until
from repo_paths import REPO_ROOT
from tournament_helpers import RANDOM_BOT, WAIT, tournament

from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.tournaments.spec import Format, TournamentSpec
from boardroom.shared.protocol.messages import Clock

WINDOW = 1.5
"""The no-show window of these tests, in seconds."""


async def start(
    server: RunningServer, entrants: list[str], *, fmt: Format = "round_robin", rounds: int = 1
) -> int:
    director = server.app[DIRECTOR]
    spec = TournamentSpec(
        name="Rules",
        game="tictactoe",
        format=fmt,
        rounds=rounds,
        double=False,
        clock=Clock(),
        no_show_seconds=WINDOW,
        entrants=tuple(entrants),
    )
    return (await director.create(spec)).id


async def student(server: RunningServer, name: str, *, stay: bool = True) -> tuple[str, Player]:
    """A student on the roster (connected, or gone at once if not ``stay``)."""
    player = await Player.join_server(server.ws_url, name)
    if not stay:
        await player.close()
    return f"student:{await Teacher(server).student_id(name)}", player


def finished(shown: dict[str, Any]) -> bool:
    return shown["status"] == "finished"


def starts_by(database: str) -> list[float]:
    with closing(sqlite3.connect(database)) as db:
        return [row[0] for row in db.execute("SELECT starts_by FROM tournament_games")]


async def test_a_no_show_loses_by_forfeit_and_its_room_closes(tmp_path: Path) -> None:
    """ann sits down, gus never comes: once the window is over ann wins by
    forfeit, her room is closed, and the standings count it as a forfeit."""
    async with running_server(tmp_path / "a.db", class_name="7B") as server:
        ann_id, ann = await student(server, "ann")
        gus_id, _ = await student(server, "gus", stay=False)
        tournament_id = await start(server, [ann_id, gus_id])
        match = await ann.expect("match")
        await ann.request({"type": "join", "code": match["code"]})
        closed = await ann.expect("room_closed", timeout=WINDOW + 10)
        assert closed["reason"] == "gus did not sit down in time: ann wins by forfeit"
        assert (closed["kind"], closed["names"]) == ("no_show", {"absent": "gus", "winner": "ann"})
        shown = await wait_until(
            lambda: tournament(server.http_url(""), tournament_id), finished, timeout=WAIT
        )
        (game,) = shown["rounds_played"][0]["games"]
        assert (game["first"], game["result"], game["game_id"]) == (ann_id, "+:-", None)
        top = shown["standings"][0]
        assert (top["player"], top["points"], top["forfeit_wins"], top["played"]) == (
            ann_id,
            1.0,
            1,
            0,
        )
        assert shown["crosstable"][0]["cells"] == {gus_id: "+"}


async def test_when_neither_shows_up_both_lose(tmp_path: Path) -> None:
    async with running_server(tmp_path / "b.db", class_name="7B") as server:
        gus_id, _ = await student(server, "gus", stay=False)
        hal_id, _ = await student(server, "hal", stay=False)
        tournament_id = await start(server, [gus_id, hal_id])
        shown = await wait_until(
            lambda: tournament(server.http_url(""), tournament_id), finished, timeout=WAIT
        )
        (game,) = shown["rounds_played"][0]["games"]
        assert game["result"] == "-:-"
        assert [(s["points"], s["forfeit_losses"]) for s in shown["standings"]] == [(0, 1)] * 2


async def test_a_pause_holds_the_no_show_deadline_and_moves_it_on(tmp_path: Path) -> None:
    """Paused at once, past the deadline nobody forfeits; at the resume the
    deadline has moved on by the pause's length (ann is sent her ``match``
    again with it), and then it passes."""
    async with running_server(tmp_path / "c.db", class_name="7B") as server:
        teacher = Teacher(server)
        database = server.config.database
        ann_id, ann = await student(server, "ann")
        gus_id, _ = await student(server, "gus", stay=False)
        tournament_id = await start(server, [ann_id, gus_id])
        match = await ann.expect("match")
        (deadline,) = starts_by(database)
        paused_before = time.time()
        await teacher.post("/api/admin/pause")
        paused_after = time.time()
        await asyncio.sleep(WINDOW + 1.0)  # well past the deadline
        shown = await tournament(server.http_url(""), tournament_id)
        (game,) = shown["rounds_played"][0]["games"]
        assert shown["status"] == "running" and game["result"] is None
        rooms = (await teacher.get("/api/admin/rooms"))["rooms"]
        assert [room["code"] for room in rooms] == [match["room"]]
        await ann.request({"type": "join", "code": match["code"]})  # joining works paused

        resumed_before = time.time()
        await teacher.post("/api/admin/resume")
        resumed_after = time.time()
        moved = await wait_until(
            lambda: starts_by(database), lambda d: d != [deadline], timeout=WAIT
        )
        assert resumed_before - paused_after <= moved[0] - deadline <= resumed_after - paused_before
        again = await ann.expect("match")  # her page counts down to the new deadline
        assert (again["room"], again["starts_by"]) == (match["room"], moved[0])
        shown = await wait_until(
            lambda: tournament(server.http_url(""), tournament_id), finished, timeout=WAIT
        )
        assert shown["rounds_played"][0]["games"][0]["result"] == "+:-"


async def test_a_removed_student_forfeits_the_rest_of_a_round_robin(tmp_path: Path) -> None:
    """Three players: bob is removed in round 1. His round-1 game goes to cy
    by forfeit, his round-2 game to ann without a room being opened; round 3
    is played (cy resigns before moving: a loss, not an abort)."""
    async with running_server(tmp_path / "d.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann_id, ann = await student(server, "ann")
        bob_id, _ = await student(server, "bob")
        cy_id, cy = await student(server, "cy")
        tournament_id = await start(server, [ann_id, bob_id, cy_id], rounds=3)
        await cy.expect("match")
        await teacher.post(f"/api/admin/students/{bob_id.split(':')[1]}/remove")
        to_ann = await ann.expect("match", round=3)
        to_cy = await cy.expect("match", round=3)
        await ann.request({"type": "join", "code": to_ann["code"]})
        await cy.request({"type": "join", "code": to_cy["code"]})
        over = await cy.request({"type": "resign", "room": to_cy["room"]})
        assert over["type"] == "game_over" and over["result"]["reason"] == "resignation"
        shown = await wait_until(
            lambda: tournament(server.http_url(""), tournament_id), finished, timeout=WAIT
        )
        games = [
            (g["first"], g["second"], g["result"], g["room"] is not None)
            for r in shown["rounds_played"]
            for g in r["games"]
        ]
        assert games == [
            (bob_id, cy_id, "-:+", True),
            (ann_id, bob_id, "+:-", False),
            (cy_id, ann_id, "0-1", True),
        ]
        points = {s["player"]: s["points"] for s in shown["standings"]}
        assert points == {ann_id: 2.0, cy_id: 1.0, bob_id: 0.0}


async def test_a_bot_that_wins_by_forfeit_is_told_so(tmp_path: Path) -> None:
    """A ``boardroom bot --tournament`` process sits down, its opponent never
    comes: the bot says it won by forfeit, in the server's words, rather than
    only that it is no longer seated there."""
    async with running_server(tmp_path / "f.db", class_name="7B") as server:
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "boardroom.client.cli", "bot", "--script", str(RANDOM_BOT), "--tournament"),
            *("--name", "robo", "--server", server.ws_url),
            cwd=REPO_ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            teacher = Teacher(server)
            roster = await wait_until(
                lambda: teacher.get("/api/admin/roster"),
                lambda body: any(s["name"] == "robo" for s in body["students"]),
                timeout=WAIT,
            )
            (robo,) = [s["id"] for s in roster["students"] if s["name"] == "robo"]
            gus_id, _ = await student(server, "gus", stay=False)
            tournament_id = await start(server, [f"student:{robo}", gus_id])
            await wait_until(
                lambda: tournament(server.http_url(""), tournament_id), finished, timeout=WAIT
            )
            assert bot.stderr is not None
            # The bot says so a moment after the tournament ends: wait for its line.
            said = await lines_until(bot.stderr, "wins by forfeit", timeout=WAIT)
        finally:
            bot.terminate()
            _, rest = await bot.communicate()
    said += rest.decode()
    assert "gus did not sit down in time: robo wins by forfeit" in said, said
    assert "no longer seated there" not in said, said
