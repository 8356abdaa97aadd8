"""``boardroom bot`` refuses bad input before connecting: one line, exit status 2.

These run the real command in-process (``boardroom.client.cli.main``); the end-to-end
tests run it as a process against a real server.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.cli import build_parser, main
from boardroom.client.commands.bot import TOKEN_ENV

EXAMPLE = str(REPO_ROOT / "examples" / "random_bot.py")
BRAIN = str(REPO_ROOT / "tests" / "bots" / "pbrain_test.py")
AGENT = str(REPO_ROOT / "tests" / "bots" / "kaggle_agent.py")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Exit status and stderr of ``boardroom bot ARGV``."""
    try:
        status = main(["bot", *argv])
    except SystemExit as exit_:  # argparse's own errors
        status = int(exit_.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--quick", "tictactoe"],
            "one of the arguments --script --cmd --engine --gomocup --kaggle --kaggle-url "
            "is required",
        ),
        (
            ["--engine", "easy"],
            "one of the arguments --join --quick --create --tournament is required",
        ),
        (["--engine", "easy", "--tournament", "--parallel", "2"], "--parallel needs --quick"),
        (["--engine", "easy", "--tournament", "--quick", "connect4"], "not allowed with"),
        (["--engine", "easy", "--script", EXAMPLE, "--quick", "tictactoe"], "not allowed with"),
        (["--engine", "genius", "--quick", "tictactoe"], "--engine: unknown level 'genius'"),
        (["--engine", "easy", "--quick", "chess"], "unknown game 'chess'"),
        (["--engine", "easy", "--quick", "mnk"], "mnk boards are named mnk-M-N-K"),
        (["--engine", "easy", "--join", "ABCDEF", "--parallel", "2"], "--parallel needs --quick"),
        (["--engine", "easy", "--quick", "connect4", "--ai", "easy"], "--ai and --clock go with"),
        (["--engine", "easy", "--create", "connect4", "--ai", "expert"], "--ai 'expert'"),
        (["--engine", "easy", "--create", "connect4", "--clock", "soon"], "--clock 'soon' is not"),
        (["--engine", "easy", "--create", "connect4", "--games", "-1"], "--games must be 0"),
        (["--engine", "easy", "--create", "connect4", "--move-timeout", "0"], "--move-timeout"),
        (["--engine", "easy", "--create", "connect4", "--log", "x.log"], "--log is for"),
        (["--engine", "easy", "--quick", "connect4", "--wait", "-1"], "--wait must be 0"),
        (["--engine", "easy", "--tournament", "--wait", "60"], "--wait is for --join"),
        (["--script", "no/such/bot.py", "--quick", "tictactoe"], "no such file: no/such/bot.py"),
        (["--cmd", "./no/such/bot", "--quick", "tictactoe"], "no such program: ./no/such/bot"),
        (["--gomocup", "./no/such/brain", "--quick", "gomoku"], "--gomocup: no such program"),
        (["--kaggle", "no/such/agent.py", "--quick", "connect4"], "--kaggle: no such file"),
        (["--kaggle-url", "ftp://x", "--quick", "connect4"], "is not an http:// or https://"),
        (["--gomocup", BRAIN, "--quick", "connect4"], "--gomocup: a Gomocup brain plays five"),
        (
            ["--gomocup", BRAIN, "--create", "tictactoe"],
            "--gomocup: a Gomocup brain plays five in a row (gomoku, or mnk-M-N-5): tictactoe "
            "is 3 in a row, which the Piskvork protocol cannot describe",
        ),
        (["--gomocup", BRAIN, "--quick", "mnk-9-9-4"], "mnk-9-9-4 is 4 in a row"),
        (["--kaggle", AGENT, "--quick", "gomoku"], "--kaggle: a Kaggle ConnectX agent plays"),
        (["--kaggle-url", "http://x", "--quick", "othello"], "stones fall (connect4), not othello"),
    ],
)
def test_bad_input_is_one_clear_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert "Traceback" not in err
    if "required" not in message and "not allowed" not in message:
        assert err.count("\n") == 1 and err.startswith("boardroom bot: ")


def test_a_script_without_choose_move_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "empty.py"
    script.write_text("print('hello')\n")
    status, err = run(capsys, "--script", str(script), "--quick", "tictactoe")
    assert status == 2
    assert (
        err == f"boardroom bot: {script} defines no choose_move(state) function and no Bot "
        "class: see docs/bots.md for a 15-line example\n"
    )


def test_no_server_at_the_address_is_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, err = run(
        capsys, "--engine", "random", "--quick", "tictactoe", "--server", f"127.0.0.1:{port}"
    )
    assert status == 1
    assert f"cannot reach a Boardroom server at ws://127.0.0.1:{port}/ws" in err


def test_the_bots_token_comes_from_the_flag_or_else_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--token`` wins over ``BOARDROOM_BOT_TOKEN``; an empty variable is no token."""
    argv = ["bot", "--engine", "easy", "--quick", "tictactoe"]
    monkeypatch.setenv(TOKEN_ENV, "bp_from_env")
    assert build_parser().parse_args(argv).token == "bp_from_env"
    assert build_parser().parse_args([*argv, "--token", "bp_flag"]).token == "bp_flag"
    monkeypatch.setenv(TOKEN_ENV, "")
    assert build_parser().parse_args(argv).token is None
    monkeypatch.delenv(TOKEN_ENV)
    assert build_parser().parse_args(argv).token is None


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def agent(observation, configuration)\n    return 3\n", "line 1: expected ':'"),
        ("x = 3\n", "defines no function: define agent(observation, configuration)"),
        ("import no_such_module_here\n", "ModuleNotFoundError: No module named"),
    ],
)
def test_a_kaggle_file_that_is_no_agent_is_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, message: str
) -> None:
    """The file is loaded in a process of its own before anything connects."""
    agent = tmp_path / "submission.py"
    agent.write_text(source)
    status, err = run(capsys, "--kaggle", str(agent), "--quick", "connect4")
    assert status == 2
    assert err.startswith(f"boardroom bot: --kaggle: {agent}")
    assert message in err
