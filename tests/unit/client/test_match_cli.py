"""``boardroom match`` run in-process on tic-tac-toe, where games take
milliseconds: bad input, the verdict, the JSON report, failing bots, the gauntlet.

The Connect Four matches of issue 30's "done means" are in
tests/e2e/test_e2e_match.py (seconds to minutes: the engine's ``hard`` level).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.cli import build_parser, main

FIRST_MOVE_BOT = """
def choose_move(state):
    return state.legal_moves[0]
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``boardroom match ARGV``."""
    try:
        status = main(["match", *argv])
    except SystemExit as exit_:  # argparse's own errors
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--engine", "easy"], "give two bots, A then B"),
        (["--engine", "easy", "--engine", "hard", "--engine", "perfect"], "not 3"),
        (["--engine", "genius", "--engine", "easy"], "unknown level 'genius'"),
        (["--engine", "easy", "--engine", "easy", "--game", "chess"], "unknown game 'chess'"),
        (["--engine", "easy", "--engine", "easy", "--sprt", "elo0=0"], "--sprt needs elo0"),
        (["--engine", "easy", "--engine", "easy", "--sprt", "elo=5"], "write elo0=X elo1=Y"),
        (["--engine", "easy", "--engine", "easy", "--sprt", "elo0=a", "elo1=5"], "are numbers"),
        (["--engine", "easy", "--engine", "easy", "--sprt", "elo0=5", "elo1=0"], "less than"),
        (
            ["--engine", "easy", "--engine", "easy", "--sprt", "elo0=0", "elo1=5", "model=bayes"],
            "normalized or logistic",
        ),
        (
            ["--engine", "easy", "--engine", "easy", "--sprt", "elo0=0", "elo1=5", "--alpha", "0"],
            "alpha must be between",
        ),
        (["--engine", "easy", "--engine", "easy", "--games", "1"], "--games must be 2"),
        (["--engine", "easy", "--engine", "easy", "--concurrency", "0"], "--concurrency"),
        (["--engine", "easy", "--engine", "easy", "--clock", "soon"], "--clock 'soon'"),
        (["--engine", "easy", "--engine", "easy", "--adjudicate", "-1"], "--adjudicate"),
        (["--engine", "easy", "--engine", "easy", "--openings", "no/such.txt"], "no/such.txt"),
        (["--engine", "easy", "--gauntlet", "easy,genius"], "--gauntlet 'easy,genius'"),
        (["--engine", "easy", "--engine", "hard", "--gauntlet", "easy"], "plays one bot"),
        (["--script", "no/such/bot.py", "--engine", "easy"], "no such file: no/such/bot.py"),
    ],
)
def test_bad_input_is_one_clear_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert message in err
    assert out == ""


def test_a_decided_match_says_so_and_writes_its_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report_path = tmp_path / "report.json"
    status, out, _ = run(
        capsys,
        "--engine", "perfect", "--engine", "random", "--game", "tictactoe",
        "--sprt", "elo0=0", "elo1=50", "--seed", "1", "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("A engine-perfect against B engine-random on tictactoe: 9 openings")
    assert "LLR" in lines[1] and "(-2.94, 2.94) [0, 50]" in lines[1] and "pairs " in lines[1]
    verdict = lines[-1]
    assert verdict.startswith(
        "engine-perfect is stronger than engine-random by at least 50 normalized Elo: "
        "H1 accepted after "
    )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["verdict"] == verdict
    assert report["sprt"]["decision"] == "H1"
    assert report["sprt"]["llr"] >= report["sprt"]["upper_bound"]
    assert report["losses"] == 0  # perfect play never loses tic-tac-toe
    assert report["games"] == len(report["records"]) == 2 * sum(report["pentanomial"])
    assert f"after {report['games']} games" in verdict
    first, second = report["records"][:2]
    # A pair: the same opening, colours swapped.
    assert first["pair"] == second["pair"] == 1
    assert first["opening"] == second["opening"] == "a1"
    assert {first["a_first"], second["a_first"]} == {True, False}


def test_the_same_seed_plays_the_same_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    reports = []
    for run_number in range(2):
        path = tmp_path / f"{run_number}.json"
        run(
            capsys,
            "--engine", "easy", "--engine", "random", "--game", "tictactoe",
            "--games", "10", "--seed", "7", "--json", str(path),
        )  # fmt: skip
        reports.append(json.loads(path.read_text(encoding="utf-8")))
    assert [r["moves"] for r in reports[0]["records"]] == [
        r["moves"] for r in reports[1]["records"]
    ]
    assert reports[0]["sprt"] is None
    assert "in 10 games: Elo" in reports[0]["verdict"]


def test_failing_bots_lose_their_games_and_say_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    crasher = tmp_path / "crash.py"
    crasher.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    liar = tmp_path / "liar.py"
    liar.write_text("def choose_move(state):\n    return 'z9'\n", encoding="utf-8")
    report_path = tmp_path / "report.json"
    status, _, _ = run(
        capsys,
        "--cmd", f"{sys.executable} {crasher}", "--script", str(liar), "--game", "tictactoe",
        "--games", "4", "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    reasons = {(r["a_first"], r["winner"], r["reason"]) for r in report["records"]}
    # Each game starts from a one-move opening, so the second player moves first:
    # B (the script answering a cell that does not exist) in A's first game, A
    # (the program that exits at once) in the other. Each loses where it moves.
    assert reasons == {(True, "A", "illegal_move"), (False, "B", "crashed")}
    assert all(record.get("detail") for record in report["records"])


def test_a_program_bot_plays_a_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    status, _, _ = run(
        capsys,
        "--cmd", f"bash {REPO_ROOT / 'examples' / 'random_bot.sh'}", "--engine", "random",
        "--game", "tictactoe", "--games", "4", "--seed", "1", "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["a"] == {
        "name": "random_bot",
        "bot": f"--cmd bash {REPO_ROOT}/examples/random_bot.sh",
    }
    # The program plays its games to their end: no failure among them.
    assert {r["reason"] for r in report["records"]} <= {"line", "full_board", "adjudicated"}


def test_a_bot_out_of_time_loses_on_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(
        "import time\n\n\ndef choose_move(state):\n    time.sleep(5)\n    return 'c3'\n",
        encoding="utf-8",
    )
    report_path = tmp_path / "report.json"
    status, _, _ = run(
        capsys,
        "--engine", "random", "--script", str(sleeper), "--game", "tictactoe", "--games", "2",
        "--clock", "0.3s", "--openings", str(_write(tmp_path / "o.txt", "b2 a1\n")),
        "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    # The sleeper (B) answers after 5 s with a 0.3 s clock: it loses both games
    # on time, at its first move.
    assert [(r["winner"], r["reason"]) for r in report["records"]] == [("A", "timeout")] * 2


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_script_bot_plays_a_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = tmp_path / "first_move.py"
    script.write_text(FIRST_MOVE_BOT, encoding="utf-8")
    status, out, _ = run(
        capsys,
        "--script", str(script), "--engine", "perfect", "--game", "tictactoe", "--games", "4",
    )  # fmt: skip
    assert status == 0
    assert "first_move" in out.splitlines()[-1]
    assert "-0 " not in out.splitlines()[-2]  # it loses games to perfect play


def test_a_gauntlet_says_where_the_bot_stands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report_path = tmp_path / "gauntlet.json"
    status, out, _ = run(
        capsys,
        "--engine", "perfect", "--gauntlet", "random,perfect", "--game", "tictactoe",
        "--games", "6", "--seed", "3", "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    assert "Gauntlet of engine-perfect on tictactoe:" in out
    assert out.splitlines()[-1] == "engine-perfect stands above random; level with perfect"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert [m["b"]["bot"] for m in report["matches"]] == ["--engine random", "--engine perfect"]
    assert report["standing"] == out.splitlines()[-1]


def test_a_gauntlet_names_its_levels_in_the_readers_language(tmp_path: Path) -> None:
    """Under LANG=es the table and the standing say the levels as the terminal
    does (``aleatorio``, ``perfecto``), not their wire codes; the JSON keeps the codes."""
    report_path = tmp_path / "gauntlet.json"
    environ = {**os.environ, "LANG": "es_ES.UTF-8", "LC_ALL": "", "LANGUAGE": ""}
    done = subprocess.run(
        [
            sys.executable, "-m", "boardroom.client.cli", "match", "--engine", "perfect",
            "--gauntlet", "random,perfect", "--game", "tictactoe", "--games", "6",
            "--seed", "3", "--json", str(report_path),
        ],
        capture_output=True, text=True, env=environ, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    table = lines[lines.index("Gauntlet de engine-perfect en tictactoe:") + 1 :]
    assert [row.split()[0] for row in table[:2]] == ["aleatorio", "perfecto"], table
    assert "puntos 50,0 %" in table[1], table  # a Spanish decimal comma too
    assert lines[-1] == "engine-perfect está por encima de aleatorio; a la par de perfecto"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert [m["b"]["bot"] for m in report["matches"]] == ["--engine random", "--engine perfect"]


def test_openings_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    suite = tmp_path / "suite.txt"
    suite.write_text("b2\n", encoding="utf-8")
    report_path = tmp_path / "report.json"
    run(
        capsys,
        "--engine", "perfect", "--engine", "perfect", "--game", "tictactoe", "--games", "4",
        "--openings", str(suite), "--json", str(report_path),
    )  # fmt: skip
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert {r["opening"] for r in report["records"]} == {"b2"}
    assert report["draws"] == 4


def test_adjudication_is_flagged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    status, out, _ = run(
        capsys,
        "--engine", "random", "--engine", "random", "--game", "tictactoe", "--games", "4",
        "--adjudicate", "9", "--seed", "2", "--json", str(report_path),
    )  # fmt: skip
    assert status == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    # From the first move on, tic-tac-toe's value is known: every game is adjudicated,
    # by the solver's value of the opening (a draw after any first move).
    assert all(r["adjudicated"] and r["winner"] is None for r in report["records"])
    assert report["adjudicated"] == 4
    assert "4 adjudicated" in out


def test_the_guide_documents_every_flag() -> None:
    guide = (REPO_ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Matches: is my change stronger?") :]
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    match = subparsers.choices["match"]  # type: ignore[index]
    flags = [option for action in match._actions for option in action.option_strings]
    for flag in flags:
        if flag.startswith("--") and flag not in ("--help", "--lang"):
            assert f"`{flag}" in section, flag


def test_a_kaggle_agent_and_a_gomocup_brain_play_matches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The bots from elsewhere (docs/bots.md) play matches unchanged: a ConnectX
    agent's file on Connect Four, a Piskvork brain on gomoku."""
    bots = REPO_ROOT / "tests" / "bots"
    agent_report, brain_report = tmp_path / "agent.json", tmp_path / "brain.json"
    status, _, err = run(
        capsys,
        "--kaggle", str(bots / "kaggle_agent.py"), "--engine", "random",
        "--game", "connect4", "--games", "2", "--seed", "3", "--json", str(agent_report),
    )  # fmt: skip
    assert status == 0, err
    status, _, err = run(
        capsys,
        "--gomocup", f"{sys.executable} {bots / 'pbrain_test.py'}", "--engine", "random",
        "--game", "gomoku", "--games", "2", "--seed", "3", "--json", str(brain_report),
    )  # fmt: skip
    assert status == 0, err
    for path in (agent_report, brain_report):
        report = json.loads(path.read_text(encoding="utf-8"))
        assert len(report["records"]) == 2
        # Each game ended on the board: neither bot crashed, hung or played illegally.
        assert {r["reason"] for r in report["records"]} <= {"line", "full_board", "adjudicated"}
    assert json.loads(brain_report.read_text(encoding="utf-8"))["a"]["name"] == "testbrain"


def test_a_bot_from_elsewhere_is_refused_a_game_its_protocol_cannot_describe(
    capsys: pytest.CaptureFixture[str],
) -> None:
    agent = REPO_ROOT / "tests" / "bots" / "kaggle_agent.py"
    status, _, err = run(
        capsys, "--kaggle", str(agent), "--engine", "random", "--game", "tictactoe"
    )
    assert status in (1, 2)
    assert "--kaggle" in err and "tictactoe" in err.lower().replace("-", "")
