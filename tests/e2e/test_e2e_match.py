"""``boardroom match`` decides on Connect Four (issue 30, "done means"): the
engine's ``hard`` level against ``easy`` accepts H1 at ``elo1=50``, and two
copies of one level accept H0, with a fixed seed; each run as the real command,
in its own process.

Kept short for the suite: ``hard`` searches eight plies, a quarter of a second
a move on Connect Four, so the H1 match gives each move a half-second clock
(``hard`` then stops at a tenth of it, 50 ms, the least a search is given, as
the server's AI does under a clock) and adjudicates from 20 empty cells, where
the exact solver answers at once: about 45 games and 11 s of CPU (with a
one-second clock: 40 games and 17 s, for the same verdict). The H0 match pits
``random`` against ``random`` (no clock: fully replayable), about 500 games in a
few seconds. Then games at once, and a match played on a real server.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from harness import running_server
from repo_paths import REPO_ROOT

RUN_TIMEOUT = 240.0
PURE_PYTHON = {**os.environ, "BOARDROOM_ENGINE": "python"}
"""The environment of a match whose engines need no compiled solver: ``random``
and tic-tac-toe's ``perfect``, and the exact solver's adjudication of Connect Four
from 14 empty cells, play the same moves and values with the pure-Python one, and
each engine worker then starts without loading the compiled one (about 1 s of
CPU apiece: 2.3 s a run of the games-at-once test, for the same 34 games)."""


def match(tmp_path: Path, *argv: str, env: dict[str, str] | None = None) -> tuple[str, dict]:
    """Run ``boardroom match ARGV --json`` (in ``env``, default ours): its stdout and
    its report."""
    report_path = tmp_path / "report.json"
    started = time.perf_counter()
    finished = subprocess.run(
        [sys.executable, "-m", "boardroom.client.cli", "match", *argv, "--json", str(report_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
        env=env,
    )
    print(f"boardroom match {' '.join(argv)}: {time.perf_counter() - started:.1f} s")
    assert finished.returncode == 0, finished.stderr
    return finished.stdout, json.loads(report_path.read_text(encoding="utf-8"))


def test_hard_is_stronger_than_easy(tmp_path: Path) -> None:
    out, report = match(
        tmp_path,
        "--engine", "hard", "--engine", "easy", "--game", "connect4",
        "--sprt", "elo0=0", "elo1=50", "--seed", "1", "--clock", "0.5s", "--adjudicate", "20",
    )  # fmt: skip
    assert report["sprt"]["decision"] == "H1"
    verdict = out.splitlines()[-1]
    assert verdict == (
        "engine-hard is stronger than engine-easy by at least 50 normalized Elo: "
        f"H1 accepted after {report['games']} games"
    )
    assert report["sprt"]["llr"] >= report["sprt"]["upper_bound"]
    assert report["wins"] > 3 * report["losses"]
    # Adjudicated games are flagged, in the report and on the live line.
    adjudicated = [record for record in report["records"] if record["adjudicated"]]
    assert len(adjudicated) == report["adjudicated"]
    if adjudicated:
        assert f"{report['adjudicated']} adjudicated" in out


def test_two_copies_of_one_level_are_not_50_elo_apart(tmp_path: Path) -> None:
    out, report = match(
        tmp_path,
        "--engine", "random", "--engine", "random", "--game", "connect4",
        "--sprt", "elo0=0", "elo1=50", "--seed", "1",
        env=PURE_PYTHON,
    )  # fmt: skip
    assert report["sprt"]["decision"] == "H0"
    assert report["sprt"]["llr"] <= report["sprt"]["lower_bound"]
    assert out.splitlines()[-1] == (
        "engine-random (A) is not stronger than engine-random (B) by 50 normalized Elo: "
        f"H0 accepted after {report['games']} games"
    )
    # Pairs: every opening of the suite in turn, each played with both colours.
    openings = [record["opening"] for record in report["records"]]
    assert openings[0] == openings[1] == "1122"
    assert len(set(openings)) == 101


def test_games_at_once_count_whole_pairs_and_stop_at_the_decision(tmp_path: Path) -> None:
    # Three games at once, the engine in worker processes: the test decides on
    # whole pairs, and the games still running then are called off, not counted.
    out, report = match(
        tmp_path,
        "--engine", "perfect", "--engine", "random", "--game", "tictactoe",
        "--sprt", "elo0=0", "elo1=50", "--concurrency", "3", "--seed", "2",
        env=PURE_PYTHON,
    )  # fmt: skip
    assert report["sprt"]["decision"] == "H1"
    assert report["games"] == 2 * sum(report["pentanomial"])
    pairs: dict[int, list[bool]] = {}
    for record in report["records"]:
        pairs.setdefault(record["pair"], []).append(record["a_first"])
    assert all(sorted(colours) == [False, True] for colours in pairs.values())
    assert report["losses"] == 0
    assert out.splitlines()[-1].endswith(f"H1 accepted after {report['games']} games")


async def test_a_match_on_a_server_is_stored_there(db_path: Path, tmp_path: Path) -> None:
    # --server: both bots connect as bots, the pairs are rematches in one room
    # (the server swaps the seats), and every game is stored by the server.
    report_path = tmp_path / "report.json"
    async with running_server(db_path) as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "boardroom.client.cli", "match",
            "--engine", "perfect", "--engine", "random", "--game", "tictactoe",
            "--sprt", "elo0=0", "elo1=50", "--seed", "1", "--server", server.ws_url,
            "--json", str(report_path),
            cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=PURE_PYTHON,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), RUN_TIMEOUT)
        assert process.returncode == 0, err.decode()
        lines = out.decode().splitlines()
        room = re.search(r"the games are in room (\w+): to watch, boardroom watch", out.decode())
        assert room is not None, lines[:2]
        report = json.loads(report_path.read_text(encoding="utf-8"))
        assert report["sprt"]["decision"] == "H1"
        first = report["records"][0]
        assert first["opening"] == "a1" and first["a_first"]
        stored = await server.get_json("/api/games/1")
    assert " ".join(move["move"] for move in stored["moves"]) == first["moves"]


async def test_a_match_on_a_server_is_adjudicated_by_its_players(
    db_path: Path, tmp_path: Path
) -> None:
    """As a local match adjudicates (here from 9 empty cells: at once), a server
    match's players end a game whose result the solver knows, through the room:
    after the opening ``a1 b1 b2`` (first wins) the losing side resigns; after
    ``b2`` (a draw) the side to move offers a draw and the other accepts. The
    room stores each game so, its moves the opening's; the report says
    ``adjudicated``, with the solver's result."""
    suite = tmp_path / "suite.txt"
    suite.write_text("a1 b1 b2\nb2\n", encoding="utf-8")
    report_path = tmp_path / "report.json"
    async with running_server(db_path) as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "boardroom.client.cli", "match",
            "--engine", "random", "--engine", "random", "--game", "tictactoe",
            "--openings", str(suite), "--adjudicate", "9", "--games", "4", "--seed", "1",
            "--server", server.ws_url, "--json", str(report_path),
            cwd=REPO_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), RUN_TIMEOUT)
        assert process.returncode == 0, err.decode()
        assert "adjudicated from 9 empty cells" in out.decode().splitlines()[0]
        report = json.loads(report_path.read_text(encoding="utf-8"))
        stored = [await server.get_json(f"/api/games/{n}") for n in range(1, 5)]
    records = report["records"]
    assert [r["reason"] for r in records] == ["adjudicated"] * 4, records
    assert report["adjudicated"] == 4
    by_opening = {r["opening"]: [] for r in records}
    for r in records:
        by_opening[r["opening"]].append(r)
    # First wins "a1 b1 b2": each of A and B once, with the first seat.
    assert sorted(r["winner"] for r in by_opening["a1 b1 b2"]) == ["A", "B"]
    assert all((r["winner"] == "A") == r["a_first"] for r in by_opening["a1 b1 b2"])
    assert [r["winner"] for r in by_opening["b2"]] == [None, None]
    assert (report["wins"], report["draws"], report["losses"]) == (1, 2, 1)
    endings = sorted((game["termination"], game["move_string"]) for game in stored)
    assert endings == [
        ("agreement", "b2"),
        ("agreement", "b2"),
        ("resignation", "a1 b1 b2"),
        ("resignation", "a1 b1 b2"),
    ], stored
