"""``boardroom bench room``: the room program plays every game it was given and
counts its moves from what the room announced; the benchmark runs whole, tiny,
with ``--before`` (this checkout's sources again, reached through ``PYTHONPATH``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.bench.room import main
from boardroom.server.room_bench import measure, random_games


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "gomoku"])
def test_the_room_announces_every_move_of_the_games_and_refuses_none(game: str) -> None:
    measured = measure(game, 3, seed=7)
    played = random_games(game, 3, seed=7)
    assert measured["moves"] == sum(len(moves) for moves in played) > 0
    assert measured["moved"] == measured["moves"]
    assert measured["refused"] == 0
    assert measured["cpu_seconds"] > 0
    assert measured["digest"] == measure(game, 3, seed=7)["digest"]  # the same games, again
    assert measured["digest"] != measure(game, 3, seed=8)["digest"]


@pytest.mark.e2e  # a process a tree and round: seconds
def test_both_trees_are_measured_on_the_same_games_with_the_same_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    before = tmp_path / "before"
    (before / "boardroom").mkdir(parents=True)
    for folder in ("server", "client", "shared"):
        (before / "boardroom" / folder).symlink_to(REPO_ROOT / folder)
    status = main(games={"tictactoe": 2, "connect4": 1}, rounds=1, seed=3, before=before)
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "load average" in printed
    moves = {
        game: sum(map(len, random_games(game, count, 3)))
        for game, count in (("tictactoe", 2), ("connect4", 1))
    }
    for game, count in moves.items():
        assert re.search(
            rf"^round 1, load [\d.?]+: {game}, {count} moves: before [\d.]+ µs, "
            rf"this checkout [\d.]+ µs a move$",
            printed,
            re.M,
        ), printed
        row = re.search(
            rf"^\| {game} \| \d+ \| {count} \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| "
            r"the same in both trees \|$",
            printed,
            re.M,
        )
        assert row is not None, printed
    assert f"before: the room of {before}/boardroom/server/core/room.py" in printed


def test_a_before_folder_without_a_checkout_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(games={"tictactoe": 1}, rounds=1, before=tmp_path) == 1
    assert "no boardroom/server in it" in capsys.readouterr().err
