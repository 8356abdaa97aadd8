"""Python bots: loading a script (functions or a Bot class) and running its code safely.

Scripts are written to a temporary folder and loaded for real; the brains run
them in threads or on the loop, and every way a bot can fail becomes a
:class:`BotFailedError` of the right kind.
"""

from __future__ import annotations

import asyncio
import random
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT
from room_states import room_in_play

from boardroom.client.bots.errors import BotFailedError, BotLoadError, FailureKind
from boardroom.client.bots.loader import load_script
from boardroom.client.bots.python_bot import PythonBrain, ScriptBrains
from boardroom.client.bots.state import GameState, game_result, game_state
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import ResultInfo, SeatInfo

EXAMPLES = REPO_ROOT / "examples"


@pytest.fixture(autouse=True)
def restore_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a script adds its folder to ``sys.path``: undone after each test, so
    no temporary folder lingers there for later tests (or the processes they spawn)."""
    monkeypatch.setattr(sys, "path", list(sys.path))


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(source))
    return path


def state(moves: str = "", you: str = Player.FIRST) -> GameState:
    seats = [SeatInfo(side=Player.FIRST, name="bot"), SeatInfo(side=Player.SECOND, name="AI")]
    return game_state(room_in_play("tictactoe", moves, seats=seats, you=you))


def brain(path: Path, timeout: float = 5.0) -> PythonBrain:
    return ScriptBrains(load_script(path), hook_timeout=timeout).new_brain("ABCDEF game 1")


# -- loading -------------------------------------------------------------------------------


def test_the_example_bot_loads_and_needs_no_boardroom_import() -> None:
    """examples/random_bot.py is a module of functions importing nothing of ours."""
    source = (EXAMPLES / "random_bot.py").read_text()
    assert "client" not in source and "shared" not in source
    code_lines = [line for line in source.splitlines() if line.strip()]
    assert len(code_lines) <= 15
    script = load_script(EXAMPLES / "random_bot.py")
    assert (script.name, script.bot_class) == ("random_bot", None)


async def test_the_example_bot_takes_a_win_then_blocks_then_plays_legal_moves() -> None:
    bot = brain(EXAMPLES / "random_bot.py")
    await bot.start(state())
    assert await bot.choose(state("a1 b1 a2 b2"), timeout=5, time_ms=5000) == "a3"
    assert await bot.choose(state("a1 b1 c3 b2", you=Player.FIRST), timeout=5, time_ms=5000) == "b3"
    random.seed(7)
    for _ in range(20):
        assert await bot.choose(state("b2"), timeout=5, time_ms=5000) in state("b2").legal_moves


async def test_a_script_of_functions_gets_its_hooks_called(tmp_path: Path) -> None:
    """on_game_start and on_game_end are called with the state (and the result)."""
    path = write(
        tmp_path,
        "hooks.py",
        """
        calls = []

        def on_game_start(state):
            calls.append(("start", state.you))

        def choose_move(state):
            calls.append(("move", state.ply))
            return state.legal_moves[0]

        def on_game_end(state, result):
            calls.append(("end", result.outcome))
        """,
    )
    bot = brain(path)
    await bot.start(state())
    assert await bot.choose(state(), timeout=5, time_ms=5000) == "a1"
    result = game_result(
        ResultInfo(winner=Player.SECOND, reason="resignation"), ("a1",), Player.FIRST
    )
    await bot.end(state("a1"), result)
    module = sys.modules["boardroom_bot_hooks"]
    assert module.calls == [("start", "X"), ("move", 0), ("end", "loss")]


async def test_a_bot_class_gets_a_fresh_instance_for_every_game(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "counting.py",
        """
        from boardroom.client.bots import Bot

        class Counting(Bot):
            def on_game_start(self, state):
                self.turns = 0

            def choose_move(self, state):
                self.turns += 1
                return state.legal_moves[self.turns - 1]
        """,
    )
    script = load_script(path)
    assert script.bot_class is not None and script.bot_class.__name__ == "Counting"
    brains = ScriptBrains(script, hook_timeout=5)
    for _ in range(2):
        bot = brains.new_brain("game")
        await bot.start(state())
        moves = [await bot.choose(state(), timeout=5, time_ms=5000) for _ in range(2)]
        assert moves == ["a1", "b1"]  # counting from 0 again: a new instance


async def test_plain_choose_move_runs_in_a_worker_thread_and_async_on_the_loop(
    tmp_path: Path,
) -> None:
    """A slow plain function cannot stall the event loop; an async one runs on it."""
    path = write(
        tmp_path,
        "threads.py",
        """
        import threading, time

        def choose_move(state):
            time.sleep(0.3)  # the subject: a slow plain function
            return threading.current_thread().name
        """,
    )
    bot = brain(path)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)  # the subject: a ticker that counts the loop's turns
            ticks += 1

    ticker = asyncio.create_task(tick())
    thread_name = await bot.choose(state(), timeout=5, time_ms=5000)
    ticker.cancel()
    assert thread_name != threading.current_thread().name
    assert ticks >= 10  # the loop kept running while the bot slept

    async_path = write(
        tmp_path,
        "coroutine.py",
        """
        import asyncio, threading

        async def choose_move(state):
            await asyncio.sleep(0)  # the subject: a coroutine that awaits
            return threading.current_thread().name
        """,
    )
    assert await brain(async_path).choose(state(), timeout=5, time_ms=5000) == (
        threading.current_thread().name
    )


async def test_a_column_number_is_taken_as_its_string(tmp_path: Path) -> None:
    path = write(tmp_path, "number.py", "def choose_move(state):\n    return 4\n")
    assert await brain(path).choose(state(), timeout=5, time_ms=5000) == "4"


# -- failures during a game ----------------------------------------------------------------


async def test_an_exception_in_choose_move_fails_with_its_traceback(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "raising.py",
        """
        def choose_move(state):
            return helper(state)

        def helper(state):
            raise ValueError("no idea what to play")
        """,
    )
    with pytest.raises(BotFailedError) as caught:
        await brain(path).choose(state(), timeout=5, time_ms=5000)
    failure = caught.value
    assert failure.kind is FailureKind.RAISED
    assert "ValueError: no idea what to play" in failure.message
    assert "raising.py" in failure.message and "line 6" in failure.message
    assert "python_bot.py" not in failure.message  # only the bot's own frames


async def test_a_move_that_is_not_a_string_fails(tmp_path: Path) -> None:
    path = write(tmp_path, "none.py", "def choose_move(state):\n    pass\n")
    with pytest.raises(BotFailedError, match=r"returned None, not a move.*'a1'") as caught:
        await brain(path).choose(state(), timeout=5, time_ms=5000)
    assert caught.value.kind is FailureKind.RAISED


async def test_a_bot_that_does_not_return_in_time_fails_as_hung(tmp_path: Path) -> None:
    """The thread cannot be killed, but the game does not wait for it."""
    # The subject: a bot that sleeps far past its 0.2 s.
    path = write(
        tmp_path,
        "slow.py",
        "import time\n\ndef choose_move(state):\n    time.sleep(3)\n    return 'a1'\n",
    )
    started = time.monotonic()
    with pytest.raises(BotFailedError, match=r"did not return within 0.2 s") as caught:
        await brain(path).choose(state(), timeout=0.2, time_ms=200)
    assert caught.value.kind is FailureKind.HUNG
    assert time.monotonic() - started < 2.0  # not the 3 s the bot sleeps


async def test_a_failing_constructor_or_start_hook_fails_the_start(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "broken_start.py",
        "def on_game_start(state):\n    1 / 0\n\ndef choose_move(state):\n    return 'a1'\n",
    )
    with pytest.raises(BotFailedError, match="on_game_start raised ZeroDivisionError"):
        await brain(path).start(state())


# -- scripts that cannot be bots -------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = 1\n", "defines no choose_move"),
        ("def choose_move():\n    return 'a1'\n", "choose_move must take state"),
        ("choose_move = 3\n", "choose_move must be a function"),
        (
            "def choose_move(state):\n    return 'a1'\ndef on_game_end(state):\n    pass\n",
            "on_game_end must take state, result",
        ),
        ("def choose_move(state)\n    return 'a1'\n", "line 1: syntax error"),
        ("import no_such_module_here\n", "failed to load, line 1: ModuleNotFoundError"),
        (
            "from boardroom.client.bots import Bot\nclass A(Bot):\n    pass\n",
            "class A must define choose_move",
        ),
        (
            "from boardroom.client.bots import Bot\n"
            "class A(Bot):\n    def choose_move(self, state):\n        return 'a1'\n"
            "class B(Bot):\n    def choose_move(self, state):\n        return 'a1'\n",
            "several Bot classes (A, B)",
        ),
        (
            "from boardroom.client.bots import Bot\n"
            "class A(Bot):\n    def __init__(self, depth):\n        pass\n"
            "    def choose_move(self, state):\n        return 'a1'\n",
            "creatable without arguments",
        ),
    ],
)
def test_a_script_that_is_not_a_bot_is_refused_with_one_line(
    tmp_path: Path, source: str, message: str
) -> None:
    path = write(tmp_path, "notabot.py", source)
    with pytest.raises(BotLoadError) as caught:
        load_script(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_script_is_refused() -> None:
    with pytest.raises(BotLoadError, match=r"no such file: nowhere/bot\.py"):
        load_script("nowhere/bot.py")


def test_a_script_named_like_a_standard_module_does_not_replace_it(tmp_path: Path) -> None:
    """A student's random.py is loaded under a name of its own, and its folder
    comes after the standard library's on the import path."""
    path = write(tmp_path, "random.py", "def choose_move(state):\n    return 'a1'\n")
    load_script(path)
    assert sys.modules["random"] is random
    assert sys.path.index(str(tmp_path)) > sys.path.index(str(Path(random.__file__).parent))


def test_a_script_imports_the_modules_beside_it(tmp_path: Path) -> None:
    write(tmp_path, "tactics.py", "FIRST = 'b2'\n")
    path = write(
        tmp_path,
        "uses_tactics.py",
        "from tactics import FIRST\n\ndef choose_move(state):\n    return FIRST\n",
    )
    assert load_script(path).module.FIRST == "b2"
