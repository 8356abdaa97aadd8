"""``boardroom loadtest``'s flags: what a run they make, and the one-line refusal
(exit status 2) of those that make none."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.loadtest.errors import UsageError
from boardroom.client.loadtest.options import LoadOptions, add_arguments, options_from
from boardroom.client.loadtest.rooms import server_for


@pytest.fixture(autouse=True)
def no_server_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDROOM_SERVER", raising=False)


def parse(*argv: str) -> LoadOptions:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return options_from(parser.parse_args(argv))


def test_by_default_ten_paced_rooms_of_tictactoe_play_the_local_server() -> None:
    options = parse()
    assert options.mode == "rooms"
    assert (options.rooms, options.game, options.think) == (10, "tictactoe", 0.0)
    assert options.server_urls == ("ws://127.0.0.1:8765/ws",)
    assert (options.rate, options.burst) == (18.0, 30)  # under the server's 20/s, 40
    assert options.connections == 20


def test_connections_count_players_spectators_and_not_the_ai() -> None:
    options = parse("--rooms", "5", "--spectators", "2", "--ai-rooms", "1")
    assert options.connections == 5 * 4 - 1


@pytest.mark.parametrize(("given", "rooms"), [("3", 3), ("30%", 3), ("100%", 10), ("0%", 0)])
def test_ai_rooms_are_a_count_or_a_share_of_the_rooms(given: str, rooms: int) -> None:
    assert parse("--rooms", "10", "--ai-rooms", given).ai_rooms == rooms


def test_a_server_is_given_as_a_person_types_it() -> None:
    assert parse("--server", "192.168.1.20").server_urls == ("ws://192.168.1.20:8765/ws",)
    assert parse("--start-server").server_urls == ()


def test_a_cluster_s_processes_are_given_by_repeating_server_or_in_a_comma_list() -> None:
    expected = ("ws://h:8001/ws", "ws://h:8002/ws", "ws://h:8003/ws")
    assert parse("--server", "h:8001", "--server", "h:8002,h:8003").server_urls == expected
    with pytest.raises(UsageError, match="given twice"):
        parse("--server", "h:8001,ws://h:8001/ws")
    with pytest.raises(UsageError, match="empty address"):
        parse("--server", "h:8001,")


def test_clients_spread_over_servers_as_a_shared_port_spreads_them() -> None:
    """Each server opens as many rooms, and a room's two players are on different
    servers in all but one in N of the rooms: half for two, three quarters for four."""
    for servers in (("A", "B"), ("A", "B", "C", "D")):
        rooms = range(len(servers) ** 2 * 5)
        openers = [server_for(servers, room, 0) for room in rooms]
        assert {openers.count(server) for server in servers} == {len(rooms) // len(servers)}
        apart = sum(server_for(servers, room, 0) != server_for(servers, room, 1) for room in rooms)
        assert apart * len(servers) == len(rooms) * (len(servers) - 1)
    assert {server_for(("A",), room, seat) for room in range(9) for seat in range(4)} == {"A"}


def test_the_game_name_is_canonical() -> None:
    assert parse("--game", "MNK-3-3-3").game == "tictactoe"
    assert parse("--game", "connect4").game == "connect4"


def test_the_echo_comparison_runs_flat_out_on_servers_of_our_own_and_paced_elsewhere() -> None:
    assert parse("--compare-echo", "--start-server").rate is None
    assert parse("--compare-echo").rate == 18.0
    assert parse("--compare-echo", "--start-server", "--rate", "10").rate == 10.0
    assert parse("--rate", "0").rate is None


def test_no_more_workers_than_there_are_rooms_to_give_them() -> None:
    assert parse("--rooms", "3", "--workers", "8").worker_count == 3
    assert parse("--idle", "100", "--workers", "4").worker_count == 4


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--rooms", "0"], "--rooms"),
        (["--duration", "0"], "--duration"),
        (["--think", "-1"], "--think"),
        (["--workers", "0"], "--workers"),
        (["--rate", "-2"], "--rate"),
        (["--ai-rooms", "11"], "--ai-rooms"),
        (["--ai-rooms", "lots"], "--ai-rooms"),
        (["--ai-rooms", "150%"], "--ai-rooms"),
        (["--ai-level", "godlike"], "--ai-level"),
        (["--game", "chess"], "--game"),
        (["--server", "h", "--start-server"], "--start-server"),
        (["--echo"], "--echo"),
        (["--echo", "--compare-echo"], "--compare-echo"),
        (["--idle", "10", "--spectators", "1"], "--spectators"),
        (["--compare-echo", "--ai-rooms", "1"], "--ai-rooms"),
        (["--echo-server", "h"], "--echo-server"),
        (["--server-loop", "uvloop"], "--server-loop"),
    ],
)
def test_flags_that_make_no_run_are_refused_naming_the_flag(argv: list[str], named: str) -> None:
    with pytest.raises(UsageError, match=named):
        parse(*argv)


def run_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardroom.client.cli", "loadtest", *argv],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.e2e  # boardroom loadtest as a process
def test_a_bad_flag_is_one_line_on_stderr_and_exit_status_2() -> None:
    run = run_cli("--rooms", "0")
    assert run.returncode == 2
    assert run.stderr == "boardroom loadtest: --rooms 0: give 1 or more\n"
    assert run.stdout == ""


@pytest.mark.e2e  # boardroom loadtest as a process
def test_a_json_file_in_a_missing_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    run = run_cli("--start-server", "--json", str(tmp_path / "nowhere" / "report.json"))
    assert run.returncode == 2
    assert "--json" in run.stderr and "does not exist" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.e2e  # boardroom loadtest as a process
def test_a_flag_that_is_not_a_number_is_refused_by_argparse_with_status_2() -> None:
    run = run_cli("--rooms", "many")
    assert run.returncode == 2
    assert "--rooms: invalid int value: 'many'" in run.stderr
    assert "Traceback" not in run.stderr
