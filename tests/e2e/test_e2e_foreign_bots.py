"""End to end: Gomocup brains and Kaggle ConnectX agents through ``boardroom bot``.

As in ``test_e2e_bots.py``, the server runs in-process (real SQLite, real
engine pool) and ``boardroom bot`` is a child process. The bots are written
for the tests, unchanged from what their platforms run: ``tests/bots/pbrain_test.py``
speaks the Piskvork protocol (its misbehaving twins are flags), and
``tests/bots/kaggle_*.py`` are ConnectX agent files. Timeouts are short: a
hang is found in a second.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from harness import CuttableProxy, RunningServer, running_server, wait_until
from repo_paths import REPO_ROOT
from test_e2e_bots import (
    RUN_TIMEOUT,
    finish,
    game_records,
    run_bot,
    start_bot,
)

BOTS = REPO_ROOT / "tests" / "bots"
BRAIN = f"{sys.executable} {BOTS / 'pbrain_test.py'}"
TWICE = ("--games", "2", "--move-timeout", "1")
"""Two games against the AI, rematch sides swapped: the bot is X, then O."""


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    async with running_server(tmp_path / "games.db") as running:
        yield running


def pids_by_game(err: str) -> list[str]:
    """The brain's process id in each game it started (its ``DEBUG pid P game G``)."""
    return re.findall(r"DEBUG pid (\d+) game \d+", err)


# -- Gomocup brains --------------------------------------------------------------------------


async def test_a_gomocup_brain_plays_full_games_on_square_and_oblong_boards(
    server: RunningServer,
) -> None:
    """The test brain wins its games against the random AI: on gomoku (``START 15``,
    one process across both games through ``RESTART``), and on a 9x7 board
    (``RECTSTART 9,7``) as a brain without ``RESTART`` (a new process a game).
    Its ``ABOUT`` name is the player's name; its ``DEBUG`` lines are logged."""
    gomoku, oblong = await asyncio.gather(
        run_bot(server, "--gomocup", BRAIN, "--create", "gomoku", "--ai", "random", *TWICE),
        run_bot(
            server, "--gomocup", BRAIN + " --no-restart", "--create", "mnk-9-7-5",
            "--ai", "random", *TWICE,
        ),
    )  # fmt: skip
    for run in (gomoku, oblong):
        assert run.status == 0, run.err
        assert [result["outcome"] for result in run.results] == ["win", "win"]
        assert "DEBUG asked by BEGIN" in run.err and "DEBUG asked by TURN" in run.err
        assert "DEBUG info rule=0" in run.err and "DEBUG info timeout_turn=1000" in run.err
    first, second = pids_by_game(gomoku.err)
    assert first == second  # RESTART: the same process played both games
    first, second = pids_by_game(oblong.err)
    assert first != second
    assert "UNKNOWN RESTART is not supported" in oblong.err
    assert "the brain does not RESTART: starting a new process" in oblong.err
    records = await game_records(server)
    assert {record["game"] for record in records} == {"gomoku", "mnk-9-7-5"}
    assert all(record["termination"] == "line" for record in records)
    names = {player["name"] for record in records for player in record["players"]}
    assert "testbrain" in names


async def test_gomocup_brains_that_crash_hang_or_play_illegal_moves_lose_as_documented(
    server: RunningServer,
) -> None:
    """Each misbehaves at its first move of each game: as X the game is aborted,
    as O lost by resignation; the report says what happened in the brain's terms,
    and the run goes on to its next game."""
    common = ("--create", "gomoku", "--ai", "random", *TWICE)
    crashed, hung, illegal = await asyncio.gather(
        *(
            run_bot(server, "--gomocup", f"{BRAIN} --{twin}-at 1", *common)
            for twin in ("crash", "hang", "illegal")
        )
    )
    for run in (crashed, hung, illegal):
        assert run.status == 0, run.err
        assert [result["outcome"] for result in run.results] == ["aborted", "loss"]
    assert crashed.err.count("the bot crashed: the program ended without answering") == 2
    assert "    pbrain_test: crashing as asked" in crashed.err
    assert hung.err.count("the bot hung: the program did not answer within 1 s") == 2
    # As X it names a cell off the board, in its own words; as O a taken cell.
    assert "it played '15,0', and the server answered " in illegal.err
    assert re.search(r"it played '[a-o]\d+', and the server answered illegal_move", illegal.err)


async def test_a_gomocup_brain_is_given_the_board_after_a_reconnection(
    server: RunningServer,
) -> None:
    """The connection is cut in the middle of a game: the bot reconnects, the
    brain is sent ``RESTART`` then ``BOARD`` (what it knew may be behind), and
    the game is played to its end by the same process."""
    async with CuttableProxy(server.port) as proxy:
        bot = await start_bot(
            server, "--gomocup", BRAIN + " --slow 0.2", "--create", "gomoku", "--ai", "random",
            url=proxy.ws_url,
        )  # fmt: skip
        await wait_until(
            lambda: game_records(server),
            lambda records: bool(records) and len(records[0]["move_string"].split()) >= 3,
        )
        proxy.cut()
        run = await finish(bot)
    assert run.status == 0, run.err
    assert "reconnected" in run.err
    assert re.search(r"DEBUG asked by BOARD with \d+ stones", run.err)
    assert len(set(pids_by_game(run.err))) == 1
    assert [result["outcome"] for result in run.results] == ["win"]


# -- Kaggle ConnectX agents ---------------------------------------------------------------------


async def test_a_kaggle_agent_plays_full_games_of_connect_four(server: RunningServer) -> None:
    """The test agent plays two games against the random AI (as X, then as O),
    each in a process of its own; its prints go to the log, not into its answers."""
    run = await run_bot(
        server, "--kaggle", str(BOTS / "kaggle_agent.py"), "--create", "connect4",
        "--ai", "random", *TWICE,
    )  # fmt: skip
    assert run.status == 0, run.err
    assert len(run.results) == 2
    assert all(result["outcome"] in ("win", "draw", "loss") for result in run.results)
    assert "agent pid " in run.err
    steps = [int(step) for step in re.findall(r"agent pid \d+ step (\d+)", run.err)]
    assert steps[0] == 0 and 1 in steps  # as X it moves at step 0, as O at step 1
    assert len(set(re.findall(r"agent pid (\d+)", run.err))) == 2
    records = await game_records(server)
    assert all(record["termination"] in ("line", "full_board") for record in records)


async def test_kaggle_agents_that_crash_raise_or_play_off_the_board_lose_as_documented(
    server: RunningServer,
) -> None:
    """Each fails at its first move of each game (aborted as X, lost as O)."""
    common = ("--create", "connect4", "--ai", "random", *TWICE)
    crashed, raised, illegal = await asyncio.gather(
        *(
            run_bot(server, "--kaggle", str(BOTS / f"kaggle_{twin}.py"), *common)
            for twin in ("crash", "raise", "illegal")
        )
    )
    for run in (crashed, raised, illegal):
        assert run.status == 0, run.err
        assert [result["outcome"] for result in run.results] == ["aborted", "loss"]
    assert crashed.err.count("the bot crashed: the program ended without answering") == 2
    assert "    kaggle_crash: crashing as asked" in crashed.err
    assert "the bot failed: the agent raised Traceback" in raised.err
    assert "KeyError: 'no such key'" in raised.err
    assert "the agent returned 'four', not a column (a whole number from 0)" in raised.err
    assert illegal.err.count("it played '8', and the server answered illegal_move") == 2


async def test_a_hanging_kaggle_agent_loses_on_time_and_the_run_goes_on(
    server: RunningServer,
) -> None:
    """In a room with a clock (1 s a move) the room decides: a hanging agent
    loses on time (aborted on the first move), its process is killed, and the
    run finishes its games."""
    run = await run_bot(
        server, "--kaggle", str(BOTS / "kaggle_hang.py"), "--create", "connect4",
        "--ai", "random", "--clock", "1", "--games", "2",
    )  # fmt: skip
    assert run.status == 0, run.err
    assert [result["outcome"] for result in run.results] == ["aborted", "loss"]
    assert run.results[1]["how"] == " on time after 1 move"
    assert run.err.count("the bot hung: no move came before its clock ran out") == 2


async def test_a_kaggle_agent_keeps_its_process_through_a_reconnection(
    server: RunningServer, tmp_path: Path
) -> None:
    """The connection is cut in the middle of a game: the bot reconnects and the
    same agent process (its module state intact) plays the game to its end."""
    slow = tmp_path / "slow_agent.py"
    slow.write_text(
        (BOTS / "kaggle_agent.py").read_text()
        + "\n\nimport time\n_play = agent\n\n\ndef agent(observation, configuration):\n"
        "    time.sleep(0.2)\n    return _play(observation, configuration)\n"
    )
    async with CuttableProxy(server.port) as proxy:
        bot = await start_bot(
            server, "--kaggle", str(slow), "--create", "connect4", "--ai", "random",
            url=proxy.ws_url,
        )  # fmt: skip
        await wait_until(
            lambda: game_records(server),
            lambda records: bool(records) and len(records[0]["move_string"]) >= 3,
        )
        proxy.cut()
        run = await asyncio.wait_for(finish(bot), RUN_TIMEOUT)
    assert run.status == 0, run.err
    assert "reconnected" in run.err
    assert len(run.results) == 1
    assert len(set(re.findall(r"agent pid (\d+)", run.err))) == 1
