"""End to end: ``boardroom bot`` as a real process, playing on a real server.

Every test starts the server in-process (:func:`harness.running_server`: real
SQLite, real engine pool) and runs ``python -m boardroom.client.cli bot ...`` as a child
process, as a bot author would from a terminal. It checks what ``docs/bots.md``
promises: the result lines and summary printed, the exit status, the stored
game records (``/api/games/{id}``), and for bots that crash, hang or answer
garbage, the documented report and outcome, with the server healthy after.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import stat
import sys
import textwrap
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harness import (
    CuttableProxy,
    Player,
    RunningServer,
    lines_until,
    running_server,
    wait_until,
)
from repo_paths import REPO_ROOT

from boardroom.client.commands.bot import TOKEN_ENV
from boardroom.server.store import GameStore

RUN_TIMEOUT = 30.0
"""Seconds a whole bot run may take here: generous, for a loaded CI machine."""
RESULT = re.compile(
    r"^game (?P<number>\d+): (?P<outcome>win|loss|draw|aborted|no result)(?P<how>.*), "
    r"as (?P<you>[XO]) against (?P<opponent>.+) in (?P<game>\S+) room (?P<room>\w+)$"
)
"""A result line of ``boardroom bot``, as docs/bots.md shows it."""
OPPOSITE = {"win": "loss", "loss": "win", "draw": "draw"}
NEW_PLAYER = re.compile(
    r"^boardroom bot: this run is a new player, (?P<id>p[0-9a-f]+)\. To play as it again, "
    r"keep its token and pass it with --token or BOARDROOM_BOT_TOKEN:\n  (?P<token>bp_\S+)\n",
    flags=re.MULTILINE,
)
"""The note a run without a token prints on stderr once the server made it a player."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    async with running_server(tmp_path / "games.db") as running:
        yield running


@dataclass
class BotRun:
    """A finished ``boardroom bot`` process."""

    status: int
    out: str
    err: str

    @property
    def results(self) -> list[dict[str, str]]:
        """The result lines, parsed, in the order printed."""
        return [m.groupdict() for line in self.out.splitlines() if (m := RESULT.match(line))]

    def outcomes(self) -> list[str]:
        return [result["outcome"] for result in self.results]

    @property
    def new_player(self) -> tuple[str, str] | None:
        """(player id, token) from the note of a run made a new player, if it printed one."""
        found = NEW_PLAYER.search(self.err)
        return (found["id"], found["token"]) if found else None

    @property
    def notes(self) -> str:
        """stderr without the new player's note (every run without a token has one)."""
        return NEW_PLAYER.sub("", self.err, count=1)


async def start_bot(
    server: RunningServer, *argv: str, url: str | None = None, token: str | None = None
) -> asyncio.subprocess.Process:
    """Start ``boardroom bot`` on ``server`` (or at ``url``, a proxy in front of it),
    with ``token`` in ``BOARDROOM_BOT_TOKEN`` (without: none, whatever this process has)."""
    environ = {key: value for key, value in os.environ.items() if key != TOKEN_ENV}
    if token is not None:
        environ[TOKEN_ENV] = token
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "boardroom.client.cli",
        "bot",
        "--server",
        url or server.ws_url,
        *argv,
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=environ,
    )


async def finish(process: asyncio.subprocess.Process, timeout: float = RUN_TIMEOUT) -> BotRun:
    """Wait for the run's end; a run still going after ``timeout`` is killed (and
    the test fails with TimeoutError), so no bot outlives its test."""
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return BotRun(process.returncode, out.decode(), err.decode())


async def next_note(process: asyncio.subprocess.Process) -> str:
    """The next line a running bot writes on stderr, past the new player's note."""
    stderr = process.stderr
    assert stderr is not None
    while True:
        line = (await asyncio.wait_for(stderr.readline(), RUN_TIMEOUT)).decode()
        if not line.startswith("boardroom bot: this run is a new player, "):
            return line
        await asyncio.wait_for(stderr.readline(), RUN_TIMEOUT)  # the token, on a line of its own


async def run_bot(
    server: RunningServer, *argv: str, timeout: float = RUN_TIMEOUT, token: str | None = None
) -> BotRun:
    """Run ``boardroom bot --server URL ARGV`` to its end (``token``: as in :func:`start_bot`)."""
    return await finish(await start_bot(server, *argv, token=token), timeout)


async def game_records(server: RunningServer) -> list[dict[str, Any]]:
    """Every stored game, in id order (ids count from 1 in a fresh database)."""
    records = []
    while True:
        status, _, _ = await server.get(f"/api/games/{len(records) + 1}")
        if status == 404:
            return records
        records.append(await server.get_json(f"/api/games/{len(records) + 1}"))


def a_later_game_is_in_play(records: list[dict[str, Any]]) -> bool:
    """Whether a game after the first has moves and is not over."""
    return any(record["state"] == "playing" and record["move_string"] for record in records[1:])


def bot_side(record: dict[str, Any]) -> str:
    """The side the (only) bot played in a game record."""
    (side,) = [player["side"] for player in record["players"] if player["kind"] == "bot"]
    return str(side)


def program(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip())
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a killed one not yet reaped, a zombie, does not)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


async def assert_server_healthy(server: RunningServer) -> None:
    """``/healthz`` answers ok, and a fresh game still plays to its end."""
    health = await server.get_json("/healthz")
    assert health["status"] == "ok"
    check = await run_bot(
        server, "--engine", "random", "--create", "tictactoe", "--ai", "random", "--name", "check"
    )
    assert check.status == 0, check.err
    assert len(check.results) == 1


# -- the examples play -----------------------------------------------------------------------


async def test_the_python_example_plays_full_games_against_the_ai(server: RunningServer) -> None:
    """examples/random_bot.py plays three games in one room (rematches, sides
    swapped each time); each is reported, stored and summed up."""
    run = await run_bot(
        server, "--script", "examples/random_bot.py", "--create", "tictactoe", "--ai", "random",
        "--games", "3",
    )  # fmt: skip
    assert run.status == 0, run.err
    results = run.results
    assert [r["number"] for r in results] == ["1", "2", "3"]
    assert [r["you"] for r in results] == ["X", "O", "X"]
    assert {r["room"] for r in results} == {results[0]["room"]}
    assert all(r["opponent"] == "AI (random)" for r in results)
    # The bot's own on_game_end printed a line per game, too.
    assert run.out.count(f"room {results[0]['room']}: ") == 3
    counts = {word: run.outcomes().count(word) for word in ("win", "loss", "draw")}
    assert run.out.splitlines()[-1] == (
        f"3 games: {counts['win']} win{'s' * (counts['win'] != 1)}, "
        f"{counts['loss']} loss{'es' * (counts['loss'] != 1)}, "
        f"{counts['draw']} draw{'s' * (counts['draw'] != 1)}, 0 aborted"
    )
    records = await game_records(server)
    assert [record["number"] for record in records] == [1, 2, 3]
    for record, result in zip(records, results, strict=True):
        assert record["state"] == "finished"
        assert record["room"] == result["room"]
        side = bot_side(record)
        assert {"first": "X", "second": "O"}[side] == result["you"]
        expected = (
            "draw" if record["winner"] is None else "win" if record["winner"] == side else "loss"
        )
        assert result["outcome"] == expected
        assert [p["name"] for p in record["players"] if p["kind"] == "bot"] == ["random_bot"]


async def test_the_bash_example_plays_connect_four_two_games_at_once(
    server: RunningServer, tmp_path: Path
) -> None:
    """examples/random_bot.sh, four games two at a time (two rooms); its stderr
    lines land in the log, prefixed with the room and the game."""
    log = tmp_path / "bot.log"
    run = await run_bot(
        server, "--cmd", "examples/random_bot.sh", "--create", "connect4", "--ai", "random",
        "--games", "4", "--parallel", "2", "--log", str(log),
    )  # fmt: skip
    assert run.status == 0, run.err
    results = run.results
    assert sorted(int(r["number"]) for r in results) == [1, 2, 3, 4]
    assert len({r["room"] for r in results}) == 2
    assert all(r["outcome"] in ("win", "loss", "draw") for r in results)
    logged = log.read_text().splitlines()
    for r in results:
        prefix = f"[{r['room']} game {r['number']}] connect4 as {r['you']}: 30000 ms left"
        assert any(line.startswith(prefix) for line in logged), prefix
    records = await game_records(server)
    assert len(records) == 4 and all(record["state"] == "finished" for record in records)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
async def test_the_javascript_example_plays(server: RunningServer) -> None:
    run = await run_bot(
        server, "--cmd", "node examples/random_bot.js", "--create", "connect4", "--ai", "easy"
    )
    assert run.status == 0, run.err
    assert len(run.results) == 1 and run.results[0]["outcome"] in ("win", "loss", "draw")


async def test_the_engine_bot_draws_against_the_perfect_ai(
    server: RunningServer, compiled_solver_ready: None
) -> None:
    """The bot's perfect engine runs the compiled solver, which the session has
    put in numba's cache: a first run on a machine does not compile it mid-game."""
    run = await run_bot(
        server, "--engine", "perfect", "--create", "tictactoe", "--ai", "perfect", "--games", "2"
    )
    assert run.status == 0, run.err
    assert run.outcomes() == ["draw", "draw"]
    assert [r["you"] for r in run.results] == ["X", "O"]


async def test_bots_meet_by_quick_match_and_by_join_code_with_rematches(
    server: RunningServer,
) -> None:
    """Two quick-matching bots play each other; a bot opens a room (no AI) and
    prints how to join it, and another bot joins by that code for two games."""
    quick = [
        await start_bot(server, "--script", "examples/random_bot.py", "--quick", "tictactoe"),
        await start_bot(server, "--cmd", "examples/random_bot.sh", "--quick", "tictactoe"),
    ]
    python_run, pipe_run = [await finish(process) for process in quick]
    assert python_run.status == pipe_run.status == 0, python_run.err + pipe_run.err
    (mine,), (theirs,) = python_run.results, pipe_run.results
    assert mine["room"] == theirs["room"]
    assert OPPOSITE[mine["outcome"]] == theirs["outcome"]
    assert {mine["opponent"], theirs["opponent"]} == {"random_bot"}

    host = await start_bot(
        server, "--engine", "random", "--create", "tictactoe", "--games", "2", "--name", "host"
    )
    announcement = await next_note(host)
    code = re.search(r"type: join (\w+)\)", announcement)
    assert code is not None, announcement
    guest = await run_bot(
        server, "--cmd", "examples/random_bot.sh", "--join", code[1], "--games", "2"
    )
    host_run = await finish(host)
    assert guest.status == host_run.status == 0, guest.err + host_run.err
    assert [r["you"] for r in guest.results] == ["O", "X"]
    assert [OPPOSITE[o] for o in guest.outcomes()] == host_run.outcomes()


@pytest.mark.parametrize(
    ("first_in", "parallel"),
    [("engine", 1), ("script", 1), (None, 2)],
    ids=["engine-waits-first", "script-waits-first", "both-at-once-two-in-parallel"],
)
async def test_two_quick_match_bots_play_every_game_asked_for(
    server: RunningServer, first_in: str | None, parallel: int
) -> None:
    """Two bots quick-match each other for connect4, one arriving while the other
    waits (either way round), or both at once with --parallel: every game asked
    for is played to a finish between them, each in a room of its own, and both
    exit 0 with the right count. (They used to meet in a phantom game, started and
    aborted at once in a room one of them was leaving; one of them then waited
    for ever.)"""
    games = 3 if parallel == 1 else 4
    brains = {
        "engine": ("--engine", "random", "--name", "engine"),
        "script": ("--script", "examples/random_bot.py"),
    }
    names = {"engine": "engine", "script": "random_bot"}
    way = ("--quick", "connect4", "--games", str(games), "--parallel", str(parallel))
    order = [first_in, *(b for b in brains if b != first_in)] if first_in else list(brains)
    bots: dict[str, asyncio.subprocess.Process] = {}
    waited = ""
    try:
        for brain in order:
            bots[brain] = await start_bot(server, *brains[brain], *way)
            if brain == first_in:
                waited = await next_note(bots[brain])
                assert waited.startswith("quick match: waiting for an opponent in room ")
        runs = {brain: await finish(process) for brain, process in bots.items()}
    finally:
        for process in bots.values():
            if process.returncode is None:
                process.kill()
                await process.wait()
    for brain, run in runs.items():
        other = names["script" if brain == "engine" else "engine"]
        assert run.status == 0, waited + run.err
        assert sorted(int(r["number"]) for r in run.results) == list(range(1, games + 1))
        assert {r["opponent"] for r in run.results} == {other}, run.out
        assert run.out.splitlines()[-1].startswith(f"{games} games: ")
        assert "seat was lost" not in run.err
    engine = {r["room"]: r["outcome"] for r in runs["engine"].results}
    script = {r["room"]: r["outcome"] for r in runs["script"].results}
    assert len(engine) == games
    assert {room: OPPOSITE[outcome] for room, outcome in script.items()} == engine
    records = await game_records(server)
    assert sorted(record["room"] for record in records) == sorted(engine)
    for record in records:
        assert record["termination"] in ("line", "full_board"), record
        assert {player["name"] for player in record["players"]} == set(names.values())


async def test_a_bot_left_waiting_gives_up_after_its_wait_with_status_1(
    server: RunningServer,
) -> None:
    """Nobody else asks for the game: after --wait seconds the bot says why it
    stops, leaves its room and exits 1, having played nothing."""
    run = await run_bot(server, "--engine", "random", "--quick", "connect4", "--wait", "0.5")
    assert (run.status, run.out) == (1, ""), run.err
    waiting, gave_up = run.notes.splitlines()
    code = waiting.removeprefix("quick match: waiting for an opponent in room ")
    assert gave_up == (
        f"boardroom bot: nobody came to play in room {code} within 0.5 s (--wait 0.5)"
    )
    assert (await server.get_json("/api/rooms"))["rooms"] == []  # it left: the room is gone


async def test_a_dropped_connection_is_resumed_and_the_games_go_on(
    server: RunningServer, tmp_path: Path
) -> None:
    """The connection is cut in the middle of the run: the bot reconnects with its
    token, its seat is given back, and every game is played to its end."""
    slow = tmp_path / "slow_bot.py"
    slow.write_text(
        "import random, time\n\n"
        "def choose_move(state):\n"
        "    time.sleep(0.03)\n"  # the subject: games long enough to be cut in the middle
        "    return random.choice(state.legal_moves)\n"
    )
    async with CuttableProxy(server.port) as proxy:
        bot = await start_bot(
            server, "--script", str(slow), "--create", "connect4", "--ai", "random",
            "--games", "3", url=proxy.ws_url,
        )  # fmt: skip
        assert bot.stdout is not None
        first = await asyncio.wait_for(bot.stdout.readline(), RUN_TIMEOUT)
        await wait_until(lambda: game_records(server), a_later_game_is_in_play)
        proxy.cut()
        run = await finish(bot)
    run.out = first.decode() + run.out
    assert run.status == 0, run.err
    assert "connection lost: " in run.err and "reconnected" in run.err
    assert [r["number"] for r in run.results] == ["1", "2", "3"]
    records = await game_records(server)
    assert len(records) == 3
    assert all(record["termination"] in ("line", "full_board") for record in records)


# -- bots that fail ------------------------------------------------------------------------------


async def test_a_crashing_a_hanging_and_a_garbage_program_each_lose_as_documented(
    server: RunningServer, tmp_path: Path
) -> None:
    """Each plays two games against the AI: as X it fails before any move (the
    game is aborted), as O after the AI's first move (a loss by resignation). Each
    failure is reported as documented, a fresh process plays each game, and the
    server stays healthy."""
    crash = program(
        tmp_path,
        "crash.sh",
        """
        #!/usr/bin/env bash
        read -r line
        echo "giving up on: $line" >&2
        exit 3
        """,
    )
    hang = program(
        tmp_path, "hang.sh", "#!/usr/bin/env bash\nwhile read -r line; do sleep 60; done\n"
    )
    garbage = program(
        tmp_path,
        "garbage.sh",
        "#!/usr/bin/env bash\nwhile read -r line; do echo 'hello there'; done\n",
    )
    common = ("--create", "tictactoe", "--ai", "random", "--games", "2", "--move-timeout", "1")
    runs = await asyncio.gather(
        *(run_bot(server, "--cmd", str(path), *common) for path in (crash, hang, garbage))
    )
    for run in runs:
        assert run.status == 0, run.err
        assert run.outcomes() == ["aborted", "loss"]
        assert run.results[1]["how"] == " by resignation after 1 move"
        assert run.out.splitlines()[-1] == (
            "2 games: 0 wins, 1 loss, 0 draws, 1 aborted; the bot failed in 2 games (see above)"
        )
        room = run.results[0]["room"]
        assert f"game 1 in room {room}: " in run.err and f"game 2 in room {room}: " in run.err
        assert "resigning: no move has been played, so the game is aborted" in run.err
        assert "resigning: the game is lost by resignation" in run.err
    crashed, hung, refused = (run.err for run in runs)
    assert (
        crashed.count("the bot crashed: the program ended without answering (exit status 3)") == 2
    )
    # Its last stderr lines are quoted: each game's program saw its own first turn.
    assert "    giving up on: tictactoe X 1000 - a1,b1,c1,a2,b2,c2,a3,b3,c3" in crashed
    assert re.search(r"    giving up on: tictactoe O 1000 [a-c][1-3] ", crashed)
    assert hung.count("the bot hung: the program did not answer within 1 s") == 2
    assert (
        refused.count(
            "the bot's move was refused: it played 'hello there', and the server answered "
            "illegal_move: 'hello there' is not a move"
        )
        == 2
    )
    records = await game_records(server)
    assert (
        sorted(record["termination"] for record in records) == ["aborted"] * 3 + ["resignation"] * 3
    )
    await assert_server_healthy(server)


async def test_python_bots_that_raise_return_illegal_moves_or_hang_lose_as_documented(
    server: RunningServer, tmp_path: Path
) -> None:
    """The same outcomes for a Python bot: its traceback, the server's refusal, or
    the timeout is reported, and the bot resigns; a thread stuck in the bot's code
    does not keep the process from exiting."""
    scripts = {
        "raising": "def choose_move(state):\n    return {}['no such key']\n",
        "illegal": "def choose_move(state):\n    return 'z9'\n",
        "stuck": "import time\n\ndef choose_move(state):\n    time.sleep(60)\n",  # the subject
    }
    paths = []
    for name, source in scripts.items():
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(source)
    common = ("--create", "tictactoe", "--ai", "random", "--games", "2", "--move-timeout", "1")
    runs = await asyncio.gather(
        *(run_bot(server, "--script", str(path), *common, timeout=15) for path in paths)
    )
    for run in runs:
        assert run.status == 0, run.err
        assert run.outcomes() == ["aborted", "loss"]
    raised, illegal, stuck = (run.err for run in runs)
    assert raised.count("the bot failed: choose_move raised KeyError: 'no such key'") == 2
    assert f'File "{paths[0]}", line 2, in choose_move' in raised
    assert illegal.count("it played 'z9', and the server answered illegal_move: ") == 2
    assert stuck.count("the bot hung: choose_move did not return within 1 s") == 2
    await assert_server_healthy(server)


async def test_a_program_past_its_clock_loses_on_time_and_is_killed(
    server: RunningServer, tmp_path: Path
) -> None:
    """In a room with a clock (1 s a move) the room decides: the first move not
    made aborts the game, a later one loses on time; the bridge reports it and
    kills the program and what it started. The program was told its time left."""
    pids = tmp_path / "pids"
    hang = program(
        tmp_path,
        "slow.sh",
        f"""
        #!/usr/bin/env bash
        while read -r line; do
            echo "asked: $line" >&2
            sleep 60 &
            echo "$$ $!" >> {pids}
            wait
        done
        """,
    )
    run = await run_bot(
        server, "--cmd", str(hang), "--create", "tictactoe", "--ai", "random", "--clock", "1",
        "--games", "2",
    )  # fmt: skip
    assert run.status == 0, run.err
    assert run.outcomes() == ["aborted", "loss"]
    assert run.results[1]["how"] == " on time after 1 move"
    assert run.err.count("the bot hung: no move came before its clock ran out") == 2
    told = [int(ms) for ms in re.findall(r"asked: tictactoe [XO] (\d+) ", run.err)]
    assert len(told) == 2 and all(0 < ms <= 1000 for ms in told)
    assert not any(running(int(pid)) for pid in pids.read_text().split())


# -- stopping -------------------------------------------------------------------------------------


async def test_one_ctrl_c_finishes_the_games_in_progress_then_exits_0(
    server: RunningServer,
) -> None:
    """Until Ctrl-C (--games 0), two at a time: after the interrupt no new game
    starts, and the ones in progress are played to their end."""
    bot = await start_bot(
        server, "--script", "examples/random_bot.py", "--create", "connect4", "--ai", "random",
        "--games", "0", "--parallel", "2",
    )  # fmt: skip
    assert bot.stdout is not None
    first = await asyncio.wait_for(bot.stdout.readline(), RUN_TIMEOUT)
    bot.send_signal(signal.SIGINT)
    run = await finish(bot)
    run.out = first.decode() + run.out
    assert run.status == 0, run.err
    assert "stopping: no new games; finishing the games in progress" in run.err
    played = len(run.results)
    assert played >= 1
    assert run.out.splitlines()[-1].startswith(f"{played} game")
    records = await game_records(server)
    assert len(records) == played  # nothing started after the interrupt...
    assert all(record["termination"] in ("line", "full_board") for record in records)  # ...or cut


async def test_a_second_ctrl_c_or_sigterm_resigns_the_games_in_progress_and_quits(
    server: RunningServer, tmp_path: Path
) -> None:
    """A slow Python bot is interrupted twice (exit 130), a program bot that never
    answers is sent SIGTERM (exit 143): each resigns its game in progress at once,
    and the program (and what it started) is killed."""
    slow_script = tmp_path / "slow_bot.py"
    slow_script.write_text(
        "import time\n\n"
        # the subject: a bot still thinking when the signals come
        "def choose_move(state):\n    time.sleep(0.5)\n    return state.legal_moves[0]\n"
    )
    pids = tmp_path / "pids"
    silent = program(
        tmp_path,
        "silent.sh",
        f"""
        #!/usr/bin/env bash
        while read -r line; do sleep 60 & echo "$$ $!" >> {pids}; wait; done
        """,
    )
    interrupted = await start_bot(
        server, "--script", str(slow_script), "--create", "connect4", "--ai", "random",
        "--games", "0",
    )  # fmt: skip
    terminated = await start_bot(
        server, "--cmd", str(silent), "--create", "tictactoe", "--ai", "random", "--games", "0",
    )  # fmt: skip
    await wait_until(pids.exists, timeout=RUN_TIMEOUT)
    await wait_until(lambda: game_records(server), lambda games: len(games) >= 2, RUN_TIMEOUT)
    interrupted.send_signal(signal.SIGINT)
    assert interrupted.stderr is not None
    said = await lines_until(interrupted.stderr, "stopping: no new games")  # the first is in
    interrupted.send_signal(signal.SIGINT)
    terminated.send_signal(signal.SIGTERM)
    first, second = await finish(interrupted), await finish(terminated)
    first.err = said + first.err
    assert (first.status, second.status) == (130, 143), first.err + second.err
    assert "stopping: no new games" in first.err
    assert "quitting: resigning the games in progress" in first.err
    assert "terminated: resigning the games in progress" in second.err
    records = await game_records(server)
    assert [record["state"] for record in records] == ["finished", "finished"]
    by_game = {record["game"]: record for record in records}
    assert by_game["connect4"]["termination"] in ("resignation", "aborted")
    assert by_game["tictactoe"]["termination"] == "aborted"  # X never moved
    assert not any(running(int(pid)) for pid in pids.read_text().split())


async def test_bad_input_is_one_line_and_status_2_without_a_traceback(
    server: RunningServer,
) -> None:
    run = await run_bot(server, "--script", "no_such_bot.py", "--quick", "tictactoe")
    assert (run.status, run.out) == (2, "")
    assert run.err == "boardroom bot: --script: no such file: no_such_bot.py\n"
    unknown = await run_bot(server, "--engine", "easy", "--join", "ZZZZZZ")
    assert unknown.status == 2
    assert unknown.notes.startswith("boardroom bot: cannot join ZZZZZZ: ")
    assert "(unknown_room)" in unknown.err and "Traceback" not in unknown.err


# -- the bot's player: its token -----------------------------------------------------------


async def test_a_bot_run_twice_with_its_token_is_one_player(server: RunningServer) -> None:
    """A run without a token is made a new player and prints its token once, on
    stderr; runs with that token (BOARDROOM_BOT_TOKEN, or --token, which wins over
    the variable) are the same player and print no token."""
    argv = ("--engine", "random", "--create", "tictactoe", "--ai", "random")
    first = await run_bot(server, *argv)
    assert first.status == 0, first.err
    assert first.new_player is not None, first.err
    player_id, token = first.new_player
    assert "bp_" not in first.out
    from_env = await run_bot(server, *argv, token=token)
    flag_wins = await run_bot(server, *argv, "--token", token, token="bp_" + "A" * 43)
    for run in (from_env, flag_wins):
        assert run.status == 0, run.err
        assert "bp_" not in run.err + run.out and "new player" not in run.err
    records = await game_records(server)

    assert len(records) == 3
    for record in records:
        (bot,) = [player for player in record["players"] if player["kind"] == "bot"]
        assert bot["player_id"] == player_id, record


async def test_an_unknown_bot_token_is_status_2_with_one_line_and_nothing_played(
    server: RunningServer,
) -> None:
    run = await run_bot(
        server, "--engine", "random", "--quick", "tictactoe", token="bp_" + "A" * 43
    )
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith(
        "boardroom bot: the server does not know this bot's token (--token or "
        "BOARDROOM_BOT_TOKEN): "
    ), run.err
    assert run.err.count("\n") == 1 and "bp_" not in run.err
    assert await game_records(server) == []


async def test_a_revoked_bot_token_is_status_2_with_one_line_and_nothing_played(
    server: RunningServer,
) -> None:
    argv = ("--engine", "random", "--create", "tictactoe", "--ai", "random")
    first = await run_bot(server, *argv)
    assert first.status == 0 and first.new_player is not None, first.err
    player_id, token = first.new_player
    async with GameStore(Path(server.config.database)) as store:
        await store.revoke_player(player_id, at=1_800_000_000.0)
    run = await run_bot(server, *argv, token=token)
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith(
        "boardroom bot: this bot's token was revoked (--token or BOARDROOM_BOT_TOKEN): "
    ), run.err
    assert run.err.count("\n") == 1 and "bp_" not in run.err
    assert len(await game_records(server)) == 1  # the first run's game only


async def test_a_new_bot_told_the_server_is_busy_waits_and_then_plays(tmp_path: Path) -> None:
    """One new player an address every 5 s, just made: the new bot's hello is
    refused ``rate_limited``; it says it waits, says hello again after the
    server's ``retry_after`` and plays its game."""
    async with running_server(
        tmp_path / "games.db", new_players_per_address=1, new_player_seconds=5.0
    ) as server:
        ann = await Player.join_server(server.ws_url, "ann")  # the address's new player
        run = await run_bot(
            server, "--engine", "perfect", "--create", "tictactoe", "--ai", "random"
        )
        await ann.close()
    assert run.status == 0, run.err
    assert len(run.results) == 1
    # retry_after (5 s at most, less the bot's start), rounded up, and some jitter.
    assert re.search(
        r"^boardroom bot: the server is busy: trying again in [1-6] s$", run.notes, re.MULTILINE
    ), run.err
