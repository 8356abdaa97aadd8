"""The pipe bridge: real programs on stdin and stdout, and everything they can do wrong.

Each test starts a real process (small bash or Python programs written to a
temporary folder) through :class:`PipeProgram` and checks what the bridge makes
of it: an answer, a crash with its exit status and last stderr lines, a hang cut
off in time, an over-long line; and that stopping kills every process the
program started.
"""

from __future__ import annotations

import os
import stat
import sys
import textwrap
import time
from pathlib import Path

import pytest
from harness import wait_until
from repo_paths import REPO_ROOT
from room_states import room_in_play

from boardroom.client.bots.errors import BotFailedError, BotLoadError, FailureKind
from boardroom.client.bots.pipe_bot import (
    MAX_LINE_BYTES,
    PipeBrains,
    PipeProgram,
    StderrLog,
    command_name,
    parse_command,
)
from boardroom.client.bots.state import GameState, game_state

EXAMPLES = REPO_ROOT / "examples"
FIRST_LINE = "tictactoe X 30000 - a1,b1,c1,a2,b2,c2,a3,b3,c3"


def program(folder: Path, name: str, source: str) -> Path:
    """An executable file ``name`` with ``source`` (its first line the #! line)."""
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip())
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def start_state() -> GameState:
    return game_state(room_in_play())


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs. A killed process whose new parent has not
    reaped it yet (a zombie: PID 1 of a container may never) counts as dead."""
    if not Path("/proc").is_dir():  # no /proc to tell zombies apart: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    try:
        status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return status != "Z"


async def test_the_example_answers_a_legal_move_and_logs_its_stderr() -> None:
    """examples/random_bot.sh reads the turn line and answers one of the legal moves."""
    logged: list[str] = []
    bot = await PipeProgram.start([str(EXAMPLES / "random_bot.sh")], logged.append)
    try:
        for _ in range(3):
            answer = await bot.ask(FIRST_LINE, timeout=5)
            assert answer in FIRST_LINE.split()[-1].split(",")
    finally:
        await bot.stop()
    assert bot.process.returncode == 0  # it ended by itself when its stdin closed
    assert logged[0] == "tictactoe as X: 30000 ms left, moves so far: -"


async def test_a_program_that_exits_before_answering_is_a_crash_with_its_last_words(
    tmp_path: Path,
) -> None:
    path = program(
        tmp_path,
        "crash.sh",
        """
        #!/usr/bin/env bash
        read -r line
        for n in 1 2 3 4 5 6 7; do echo "line $n" >&2; done
        exit 3
        """,
    )
    bot = await PipeProgram.start([str(path)], lambda line: None)
    with pytest.raises(BotFailedError) as caught:
        await bot.ask(FIRST_LINE, timeout=5)
    await bot.stop()
    failure = caught.value
    assert failure.kind is FailureKind.CRASHED
    assert "exit status 3" in failure.message
    assert "line 3" in failure.message and "line 7" in failure.message
    assert "line 2" not in failure.message  # the last five lines only


async def test_a_program_killed_by_a_signal_says_which(tmp_path: Path) -> None:
    path = program(tmp_path, "segv.sh", "#!/usr/bin/env bash\nread -r line\nkill -SEGV $$\n")
    bot = await PipeProgram.start([str(path)], lambda line: None)
    with pytest.raises(BotFailedError, match=r"killed by SIGSEGV.*wrote nothing on stderr"):
        await bot.ask(FIRST_LINE, timeout=5)
    await bot.stop()


async def test_a_program_gone_before_the_question_is_a_crash(tmp_path: Path) -> None:
    path = program(tmp_path, "quits.sh", "#!/usr/bin/env bash\necho 'bye' >&2\nexit 0\n")
    bot = await PipeProgram.start([str(path)], lambda line: None)
    await bot.process.wait()
    with pytest.raises(BotFailedError, match=r"exit status 0(.|\n)*bye") as caught:
        await bot.ask(FIRST_LINE, timeout=5)
    await bot.stop()
    assert caught.value.kind is FailureKind.CRASHED


async def test_a_program_that_does_not_answer_in_time_hangs_and_is_killed_with_its_children(
    tmp_path: Path,
) -> None:
    """The timeout fails the question at once; stopping kills the program and the
    ``sleep`` it started (its whole process group)."""
    pids = tmp_path / "pids"
    path = program(
        tmp_path,
        "hang.sh",
        f"""
        #!/usr/bin/env bash
        read -r line
        sleep 100 &
        echo "$$ $!" > {pids}
        wait
        """,
    )
    bot = await PipeProgram.start([str(path)], lambda line: None)
    started = time.monotonic()
    with pytest.raises(BotFailedError, match=r"did not answer within 0\.3 s") as caught:
        await bot.ask(FIRST_LINE, timeout=0.3)
    assert caught.value.kind is FailureKind.HUNG
    await bot.stop()
    assert time.monotonic() - started < 2.0  # killed at once, no grace for a hung program
    shell, sleeper = (int(pid) for pid in pids.read_text().split())
    # SIGKILL is sent; the kernel ends the processes a moment later.
    await wait_until(lambda: not alive(shell) and not alive(sleeper))


async def test_an_over_long_line_is_refused_as_not_a_move(tmp_path: Path) -> None:
    path = program(
        tmp_path,
        "flood.py",
        f"""
        #!{sys.executable}
        import sys
        sys.stdin.readline()
        print("x" * {MAX_LINE_BYTES * 2}, flush=True)
        sys.stdin.readline()
        """,
    )
    bot = await PipeProgram.start([str(path)], lambda line: None)
    with pytest.raises(BotFailedError, match="not a move") as caught:
        await bot.ask(FIRST_LINE, timeout=5)
    await bot.stop()
    assert caught.value.kind is FailureKind.REFUSED


async def test_answers_are_stripped_and_a_last_line_without_newline_counts(
    tmp_path: Path,
) -> None:
    path = program(
        tmp_path,
        "lazy.sh",
        "#!/usr/bin/env bash\nread -r line\necho '  b2 \r'\nread -r line\nprintf c3\n",
    )
    bot = await PipeProgram.start([str(path)], lambda line: None)
    assert await bot.ask(FIRST_LINE, timeout=5) == "b2"
    assert await bot.ask(FIRST_LINE, timeout=5) == "c3"
    await bot.stop()


async def test_a_brain_starts_a_fresh_process_per_game_and_logs_with_its_label(
    tmp_path: Path,
) -> None:
    """Each game's brain runs its own process; stderr lines go to the log file,
    prefixed with the game's label."""
    path = program(
        tmp_path,
        "pid.sh",
        """
        #!/usr/bin/env bash
        while read -r game me time_ms moves legal; do echo "pid $$" >&2; echo "$$"; done
        """,
    )
    log_path = tmp_path / "bots.log"
    brains = PipeBrains(str(path), StderrLog(log_path))
    pids = []
    for game in (1, 2):
        brain = brains.new_brain(f"ABCDEF game {game}")
        await brain.start(start_state())
        pids.append(await brain.choose(start_state(), timeout=5, time_ms=5000))
        await brain.close()
    await brains.close()
    assert pids[0] != pids[1]
    assert log_path.read_text().splitlines() == [
        f"[ABCDEF game 1] pid {pids[0]}",
        f"[ABCDEF game 2] pid {pids[1]}",
    ]


async def test_a_program_that_cannot_start_is_a_crash(tmp_path: Path) -> None:
    with pytest.raises(BotFailedError, match="could not start") as caught:
        await PipeProgram.start([str(tmp_path / "gone")], lambda line: None)
    assert caught.value.kind is FailureKind.CRASHED


# -- the command line -------------------------------------------------------------------------


def test_commands_are_split_like_a_shell_and_named_after_the_program() -> None:
    argv = parse_command(f"{sys.executable} -u 'my bots/smart.py'")
    assert argv[1:] == ["-u", "my bots/smart.py"]
    assert command_name(argv) == "smart"
    assert command_name([str(EXAMPLES / "random_bot.sh")]) == "random_bot"


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("", "--cmd is empty"),
        ("'unclosed", "No closing quotation"),
        ("./no/such/bot", "no such program: ./no/such/bot"),
        ("no-such-program-anywhere", "not found on PATH"),
    ],
)
def test_a_command_that_cannot_run_is_refused_before_anything_starts(
    command: str, message: str
) -> None:
    with pytest.raises(BotLoadError, match=message):
        parse_command(command)


def test_a_file_that_is_not_executable_gets_advice(tmp_path: Path) -> None:
    path = tmp_path / "bot.sh"
    path.write_text("echo a1\n")
    with pytest.raises(BotLoadError, match=r"not executable: run 'chmod \+x"):
        parse_command(str(path))
