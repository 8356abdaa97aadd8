"""``boardroom bot doctor``: a good bot passes every check; each way a bot misbehaves
fails its own check, with its own fix in words.

The bots are real programs (small bash or Python files written to a temporary
folder) and real scripts, driven by :class:`Doctor` through the same brains a
real game uses; the pure checklist is also tested on observations made by hand.
One test runs the command as a process; the others run it in-process
(:func:`boardroom.client.cli.main`). Timeouts are short: the misbehaving bots
are made slow or silent by a margin of about half a second either way.
"""

from __future__ import annotations

import random
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.bots import pipe_bot
from boardroom.client.bots.doctor import (
    Answer,
    AnswerKind,
    Ending,
    Examination,
    Session,
    SessionKind,
    Status,
    Verdict,
    all_passed,
    checklist,
    plans,
    render,
)
from boardroom.client.bots.doctor_run import Doctor
from boardroom.client.bots.loader import load_script
from boardroom.client.bots.pipe_bot import PipeBrains, StderrLog
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.cli import main
from boardroom.shared.games import Player, get_game
from boardroom.shared.i18n import current_language, set_default_language

FIRST_LEGAL = 'echo "${legal%%,*}"'

BASH_BOTS = {
    "good": f"""
        while read -r game me time_ms moves legal; do
            {FIRST_LEGAL}
        done
        """,
    "slow": f"""
        while read -r game me time_ms moves legal; do
            sleep 1
            {FIRST_LEGAL}
        done
        """,
    "silent": """
        read -r line
        sleep 60
        """,
    "illegal": f"""
        # plays the opponent's last move again: a taken place
        while read -r game me time_ms moves legal; do
            if [ "$moves" = - ]; then {FIRST_LEGAL}; else echo "${{moves##*,}}"; fi
        done
        """,
    "garbage": f"""
        while read -r game me time_ms moves legal; do
            echo "thinking about $game..."
            {FIRST_LEGAL}
        done
        """,
    "crashes_at_end": f"""
        while read -r game me time_ms moves legal; do
            {FIRST_LEGAL}
        done
        echo "cleanup failed: no such file results.txt" >&2
        exit 3
        """,
    "never_exits": f"""
        while true; do
            if read -r game me time_ms moves legal; then {FIRST_LEGAL}; else sleep 60; fi
        done
        """,
    "crashes_at_start": """
        echo "mybot: cannot open weights.bin" >&2
        exit 1
        """,
    "resumes_badly": f"""
        # believes a game starts with at most one move played: in a game under way, its
        # first move is the game's first, a taken place
        turn=0
        while read -r game me time_ms moves legal; do
            if [ "$turn" = 0 ] && [[ "$moves" == *,* ]]; then echo "${{moves%%,*}}"
            else {FIRST_LEGAL}; fi
            turn=$((turn + 1))
        done
        """,
}

NO_FLUSH = """
    import os
    import sys

    # Buffered as Python's stdout is into a pipe (whatever PYTHONUNBUFFERED says here).
    out = os.fdopen(sys.stdout.fileno(), "w", buffering=65536)
    for line in sys.stdin:
        out.write(line.split()[4].split(",")[0] + "\\n")  # no flush: it waits in the buffer
    out.close()  # at the end of its input: as Python flushes its stdout when it exits
"""


def program(folder: Path, name: str, source: str, interpreter: str = "/usr/bin/env bash") -> str:
    """An executable file ``name`` running ``source``; its path."""
    path = folder / name
    path.write_text(f"#!{interpreter}\n" + textwrap.dedent(source).lstrip())
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


async def examine_command(
    command: str, *, move_timeout: float = 2.0, games: tuple[str, ...] = ("tictactoe",)
) -> list[Verdict]:
    source = PipeBrains(command, StderrLog(Path("/dev/null")))
    doctor = Doctor(source, move_timeout=move_timeout, rng=random.Random(1))
    exam = await doctor.examine(command, [get_game(game) for game in games])
    assert exam.process
    return checklist(exam)


def by_check(verdicts: list[Verdict]) -> dict[str, Verdict]:
    return {verdict.check: verdict for verdict in verdicts}


def failed(verdicts: list[Verdict]) -> set[str]:
    return {verdict.check for verdict in verdicts if verdict.status is Status.FAILED}


async def test_a_good_program_passes_every_check_on_every_game(tmp_path: Path) -> None:
    bot = program(tmp_path, "good.sh", BASH_BOTS["good"])
    verdicts = await examine_command(bot, games=("tictactoe", "connect4", "gomoku"))
    assert [(v.check, v.status) for v in verdicts] == [
        (check, Status.PASSED)
        for check in ("starts", "in_time", "legal", "flushes", "game_end", "reconnect", "exits")
    ]
    assert all_passed(verdicts)


@pytest.mark.parametrize(
    ("bot", "move_timeout", "check", "advice"),
    [
        ("slow", 0.5, "in_time", "your bot took 1"),
        ("silent", 0.5, "in_time", "your bot wrote nothing for"),
        ("illegal", 2.0, "legal", "which is not allowed there: that place is taken"),
        ("garbage", 2.0, "legal", "answered 'thinking about tictactoe...', which is not a move"),
        ("crashes_at_end", 2.0, "game_end", "crashed when the game ended (exit status 3)"),
        ("never_exits", 2.0, "exits", "was still running after its input ended"),
        ("crashes_at_start", 2.0, "starts", "stopped before its first move"),
        ("resumes_badly", 2.0, "reconnect", "picked up in the middle: it played"),
    ],
)
async def test_a_misbehaving_program_fails_its_own_check_with_its_fix(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bot: str,
    move_timeout: float,
    check: str,
    advice: str,
) -> None:
    if bot == "never_exits":  # a shorter grace than a game's, to keep the test quick
        monkeypatch.setattr(pipe_bot, "EXIT_GRACE", 0.3)
    command = program(tmp_path, f"{bot}.sh", BASH_BOTS[bot])
    verdicts = await examine_command(command, move_timeout=move_timeout)
    assert failed(verdicts) == {check}, verdicts
    text = "\n".join(by_check(verdicts)[check].advice)
    assert advice in text
    assert not all_passed(verdicts)


async def test_the_advice_quotes_what_the_bot_said_and_what_to_do(tmp_path: Path) -> None:
    crash = by_check(await examine_command(program(tmp_path, "c.sh", BASH_BOTS["crashes_at_end"])))
    assert "cleanup failed: no such file results.txt" in "\n".join(crash["game_end"].advice)
    start = by_check(
        await examine_command(program(tmp_path, "s.sh", BASH_BOTS["crashes_at_start"]))
    )
    words = "\n".join(start["starts"].advice)
    assert "exit status 1" in words and "mybot: cannot open weights.bin" in words
    assert "type the line below and press Enter" in words
    assert "tictactoe X 2000 - a1,b1,c1,a2,b2,c2,a3,b3,c3" in words  # the line to type
    illegal = by_check(await examine_command(program(tmp_path, "i.sh", BASH_BOTS["illegal"])))
    assert "the last field of the line (LEGAL)" in "\n".join(illegal["legal"].advice)


async def test_a_program_that_never_flushes_is_told_to_flush(tmp_path: Path) -> None:
    command = program(tmp_path, "buffered.py", NO_FLUSH, interpreter=sys.executable)
    verdicts = await examine_command(command, move_timeout=1.0)  # Python's start-up within it
    assert failed(verdicts) == {"flushes"}
    (advice,) = by_check(verdicts)["flushes"].advice
    assert "its move (a1) came out only when its input ended" in advice
    assert "print(move, flush=True)" in advice
    # It could not play at all: the checks that need its moves say they were not made.
    assert by_check(verdicts)["legal"].status is Status.NOT_CHECKED


async def examine_script(path: Path) -> list[Verdict]:
    source = ScriptBrains(load_script(path), hook_timeout=2.0)
    doctor = Doctor(source, move_timeout=2.0, rng=random.Random(1))
    exam = await doctor.examine(str(path), [get_game("connect4")])
    assert not exam.process
    return checklist(exam)


async def test_a_good_script_passes_and_the_program_checks_do_not_apply() -> None:
    verdicts = await examine_script(REPO_ROOT / "examples" / "random_bot.py")
    statuses = {v.check: v.status for v in verdicts}
    assert statuses.pop("flushes") is statuses.pop("exits") is Status.NOT_APPLICABLE
    assert set(statuses.values()) == {Status.PASSED}
    assert all_passed(verdicts)


@pytest.mark.parametrize(
    ("source", "check", "advice"),
    [
        (
            """
            def choose_move(state):
                return state.legal_moves[0]

            def on_game_end(state, result):
                raise KeyError("score")
            """,
            "game_end",
            "failed when the game ended: on_game_end raised KeyError",
        ),
        (
            """
            played = []  # shared by every game: the second game starts with the first's moves

            def choose_move(state):
                if len(played) >= 3:
                    raise RuntimeError("no more room")
                played.append(state.legal_moves[0])
                return played[-1]
            """,
            "game_end",
            "then failed at the start of the next one",
        ),
        (
            """
            def choose_move(state):
                return "up"
            """,
            "legal",
            "your bot returned 'up', which is not a move",
        ),
    ],
)
async def test_a_misbehaving_script_fails_its_own_check(
    tmp_path: Path, source: str, check: str, advice: str
) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(textwrap.dedent(source))
    verdicts = await examine_script(path)
    assert failed(verdicts) == {check}, verdicts
    assert advice in "\n".join(by_check(verdicts)[check].advice)


def test_the_doctors_games_are_real_and_the_same_for_the_same_seed() -> None:
    rules = get_game("connect4")
    first, second, resumed = plans(rules, random.Random(7))
    assert (first.side, second.side) == (Player.FIRST, Player.SECOND)
    assert first.start.ply == second.start.ply == 0
    assert resumed.start.ply == 10 and not rules.outcome(resumed.start).is_over
    assert resumed.side is rules.to_move(resumed.start)
    assert plans(rules, random.Random(7))[2].start == resumed.start


def test_nothing_observed_is_nothing_passed() -> None:
    """A bot that was never asked anything has passed nothing: the exit status is 1."""
    exam = Examination("mybot", True, 2.0, (Session("tictactoe", SessionKind.FIRST, Player.FIRST),))
    verdicts = checklist(exam)
    assert {v.check: v.status for v in verdicts}["in_time"] is Status.NOT_CHECKED
    assert not all_passed(verdicts)
    assert render(exam, ["tictactoe"], verdicts)[-1].startswith("Some checks could not be made")
    assert AnswerKind.MOVE.value == "move"


LINE = "tictactoe X 2000 - a1,b1,c1,a2,b2,c2,a3,b3,c3"


def answer(kind: AnswerKind, text: str = "a1", seconds: float = 0.01) -> Answer:
    return Answer(kind, "tictactoe", LINE, text, seconds, 2.0)


def session(kind: SessionKind, *answers: Answer) -> Session:
    clean = Ending(by_itself=True, status=0, how="exit status 0")
    over = all(a.kind is AnswerKind.MOVE for a in answers)
    return Session("tictactoe", kind, Player.FIRST, answers, reached_end=over, ending=clean)


def test_a_failure_in_a_game_picked_up_midway_is_the_reconnect_checks_alone() -> None:
    good = answer(AnswerKind.MOVE)
    exam = Examination("mybot", True, 2.0, (
        session(SessionKind.FIRST, good, good),
        session(SessionKind.SECOND, good),
        session(SessionKind.RESUMED, answer(AnswerKind.LATE, seconds=3.5)),
    ))  # fmt: skip
    verdicts = by_check(checklist(exam))
    assert {c for c, v in verdicts.items() if v.status is Status.FAILED} == {"reconnect"}
    assert "it did not answer within 2 s" in verdicts["reconnect"].advice[0]
    assert verdicts["reconnect"].advice[1] == "It was asked:\n    " + LINE


def test_a_buffered_move_is_the_flush_checks_and_not_a_slow_one() -> None:
    exam = Examination("mybot", True, 2.0, (
        session(SessionKind.FIRST, answer(AnswerKind.MOVE), answer(AnswerKind.BUFFERED, "b2", 4)),
    ))  # fmt: skip
    verdicts = by_check(checklist(exam))
    assert verdicts["flushes"].status is Status.FAILED
    assert verdicts["in_time"].status is Status.PASSED
    assert verdicts["reconnect"].status is Status.NOT_CHECKED  # the fresh games failed first


def test_a_crash_at_the_start_of_a_second_game_is_reported_whatever_the_first_did() -> None:
    crash = Answer(AnswerKind.CRASHED, "tictactoe", LINE, detail="exit status 1")
    cases = {
        "game_end": session(SessionKind.FIRST, answer(AnswerKind.MOVE)),  # played to its end
        "in_time": session(SessionKind.FIRST, answer(AnswerKind.MOVE), answer(AnswerKind.ILLEGAL)),
    }
    for check, first in cases.items():
        exam = Examination("mybot", True, 2.0, (first, session(SessionKind.SECOND, crash)))
        verdicts = by_check(checklist(exam))
        assert verdicts[check].status is Status.FAILED, check
        assert "exit status 1" in verdicts[check].advice[0]


def test_the_report_wraps_advice_but_never_a_line_the_bot_read() -> None:
    gomoku = "gomoku X 2000 - " + ",".join(
        f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)
    )
    exam = Examination("mybot", True, 2.0, (
        session(SessionKind.FIRST, Answer(AnswerKind.CRASHED, "gomoku", gomoku, detail="gone")),
    ))  # fmt: skip
    lines = render(exam, ["gomoku"], checklist(exam))
    assert lines[0] == "boardroom bot doctor: mybot on gomoku, 2 s a move"
    assert lines[1].split() == ["FAILED", "starts", "and", "answers", "its", "first", "move"]
    assert lines.index(" " * 18 + "    " + gomoku) > 1  # whole, on a line of its own
    assert all(len(line) <= 88 for line in lines if gomoku not in line)
    assert lines[-1] == "1 of 7 checks failed: fix the first one, then run the doctor again."


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(["bot", "doctor", *argv])
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--cmd", "true"], "give the games your bot plays with --game, such as --game connect4"),
        (["--cmd", "true", "--game", "chess"], "unknown game 'chess'"),
        (["--cmd", "./no/such/bot", "--game", "connect4"], "no such program: ./no/such/bot"),
        (["--engine", "easy", "--game", "connect4", "--move-timeout", "0"], "--move-timeout"),
        (["--engine", "easy", "--game", "connect4", "--log", "x.log"], "--log is for"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run_cli(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("boardroom bot doctor: ") and message in err and err.count("\n") == 1


def test_a_failing_bot_prints_its_checks_in_spanish_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    command = program(tmp_path, "illegal.sh", BASH_BOTS["illegal"])
    before = current_language()
    try:
        status, out, _err = run_cli(capsys, "--cmd", command, "--game", "tictactoe", "--lang", "es")
    finally:
        set_default_language(before)  # the CLI made Spanish the process's language
    assert status == 1
    assert "FALLÓ" in out and "esa casilla está ocupada" in out


def test_the_command_as_a_process_passes_a_good_bot_with_status_0(tmp_path: Path) -> None:
    command = program(tmp_path, "good.sh", BASH_BOTS["good"])
    run = subprocess.run(
        [sys.executable, "-m", "boardroom.client.cli", "bot", "doctor", "--cmd", command,
         "--game", "tictactoe,connect4", "--lang", "en"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"boardroom bot doctor: {command} on tictactoe, connect4, 2 s a move"
    assert sum(line.lstrip().startswith("passed") for line in lines) == 7
    assert lines[-1] == "All checks passed: your bot is ready to play."
    assert run.stderr == ""
