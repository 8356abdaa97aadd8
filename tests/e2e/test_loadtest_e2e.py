"""End to end: ``boardroom loadtest`` as a real process against real servers.

Each test runs ``python -m boardroom.client.cli loadtest ...`` as a child process (its
worker processes, spawned, under it), either against a server started in this
process (:func:`harness.running_server`: real SQLite, real engine pool) or with
``--start-server``, which starts ``python -m boardroom.server`` (or the echo server) on a
free port. Runs are a few rooms for a second or three: enough for whole games,
figures and the JSON report, quick enough for every test run.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harness import Player, raw_upgrade, running_server
from repo_paths import REPO_ROOT
from services import PostgresServer, RedisServer

from boardroom.client.loadtest.connection import LoadClient
from boardroom.client.loadtest.errors import ConnectFailedError
from boardroom.client.loadtest.stats import WorkerStats

RUN_TIMEOUT = 90.0
"""Seconds a whole load test may take here: generous, for a loaded CI machine."""
LATENCY_KEYS = {"count", "mean", "p50", "p95", "p99", "max"}
GAMES_FINISHED_IN_WINDOW = re.compile(rb"\] measuring .*  games [1-9]")
"""A progress line of the measured window, once a game has finished."""


@dataclass
class LoadRun:
    """A finished ``boardroom loadtest`` process, and its JSON report if it wrote one."""

    status: int
    out: str
    err: str
    report: dict[str, Any] | None


async def start_loadtest(tmp_path: Path, *argv: str) -> asyncio.subprocess.Process:
    """Start ``boardroom loadtest ARGV``. A server it starts (``--start-server``) spawns
    its engine workers with the pure-Python solver (``BOARDROOM_ENGINE``, the variable
    of the server's ``--engine``), as the tests' other servers do: loading the
    compiled one costs each about 1 s of CPU, for the few searches of a load test's
    AI rooms of tic-tac-toe."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "boardroom.client.cli",
        "loadtest",
        *argv,
        "--json",
        str(tmp_path / "report.json"),
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "BOARDROOM_ENGINE": "python"},
    )


async def finish(process: asyncio.subprocess.Process, tmp_path: Path) -> LoadRun:
    out, err = await asyncio.wait_for(process.communicate(), RUN_TIMEOUT)
    assert process.returncode is not None
    path = tmp_path / "report.json"
    report = json.loads(path.read_text()) if path.exists() else None
    return LoadRun(process.returncode, out.decode(), err.decode(), report)


async def run_loadtest(tmp_path: Path, *argv: str) -> LoadRun:
    return await finish(await start_loadtest(tmp_path, *argv), tmp_path)


def assert_latency(summary: dict[str, Any] | None) -> None:
    assert summary is not None
    assert set(summary) == LATENCY_KEYS
    assert summary["count"] > 0
    assert 0 < summary["p50"] <= summary["p95"] <= summary["p99"] <= summary["max"]


async def test_rooms_play_whole_games_against_a_running_server(tmp_path: Path) -> None:
    """Three rooms (one against the AI, each with a spectator) for three seconds:
    games finish and rematch, every figure is there, nothing goes wrong."""
    async with running_server(tmp_path / "games.db") as server:
        run = await run_loadtest(
            tmp_path,
            "--server",
            server.ws_url,
            "--rooms",
            "3",
            "--ai-rooms",
            "1",
            "--spectators",
            "1",
            "--duration",
            "3",
            "--workers",
            "2",
        )
        health = await server.get_json("/healthz")
    assert run.status == 0, run.err
    assert run.report is not None
    assert set(run.report) == {"format", "conditions", "result", "interrupted", "notes"}
    conditions = run.report["conditions"]
    assert conditions["python"].startswith(f"{sys.version_info[0]}.{sys.version_info[1]}.")
    assert conditions["cores"] >= 1 and conditions["workers"] == 2
    assert conditions["server_event_loop"] == "asyncio"  # what /healthz said
    assert conditions["message_bytes"] == {"move": 59, "moved": 67}
    assert (conditions["rooms"], conditions["clients"], conditions["duration_seconds"]) == (
        3,
        3 * 3 - 1,
        3.0,
    )
    result = run.report["result"]
    assert result["connections"]["held_at_end"] == 8
    games = result["games"]
    assert games["finished"] >= 3 and games["lost"] == 0, (
        result["room_failures"],
        result["errors"],
        result["disconnects"],
        run.err[-2000:],
    )
    assert games["started"] == games["finished"] + games["cut_short"] + games["lost"]
    assert result["errors"] == {} and result["disconnects"] == {}
    assert result["room_failures"] == {} and result["undecodable"] == 0
    assert result["moves"]["per_second"] > 0 and result["moves"]["by_ai"] > 0
    assert_latency(result["move_latency_ms"])
    assert_latency(result["spectator_latency_ms"])
    assert_latency(result["ai_reply_ms"])
    figures = result["server"]
    assert figures["rss_bytes"]["before"] > 10_000_000
    assert figures["cpu_share"] is not None and figures["cpu_share"] >= 0
    assert figures["event_loop_lag"]["p99_at_most_ms"] is not None
    assert run.report["interrupted"] is False
    assert "Results: server" in run.out and "move latency" in run.out
    assert "[server]" in run.err  # the progress lines
    assert health["status"] == "ok"  # the server took it in its stride


ACCEPTED = re.compile(r"^boardroom_connections_total ([0-9.e+]+)$", re.MULTILINE)


async def test_rooms_spread_over_a_cluster_s_processes_play_through_the_relay(
    tmp_path: Path, redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """``--server A --server B``: the clients of four rooms are spread over the two
    processes of a cluster (two rooms with both players on one process, two with
    one on each, whose moves go through Redis); every game finishes, and the
    report adds both processes' figures up."""
    settings: dict[str, Any] = {
        "cluster": redis_server.url,
        "cluster_name": f"test-{secrets.token_hex(4)}",
    }
    database: Any = postgres_server.new_database()  # a URL, where a Path is typed
    async with (
        running_server(database, **settings) as a,
        running_server(database, **settings) as b,
    ):
        run = await run_loadtest(
            tmp_path,
            *("--server", f"{a.ws_url},{b.ws_url}", "--rooms", "4", "--spectators", "1"),
            *("--duration", "2", "--workers", "1"),
        )
        accepted = []
        for server in (a, b):
            _, _, metrics = await server.get("/metrics")
            match = ACCEPTED.search(metrics)
            assert match is not None
            accepted.append(float(match.group(1)))
    assert run.status == 0, run.err
    assert run.report is not None
    conditions, result = run.report["conditions"], run.report["result"]
    assert conditions["server_urls"] == [a.ws_url, b.ws_url]
    assert "2 processes of one cluster" in run.out
    assert sum(accepted) == conditions["clients"] == 12 and min(accepted) > 0, accepted
    games = result["games"]
    assert games["finished"] >= 4 and games["lost"] == 0, (result, run.err[-2000:])
    assert result["errors"] == {} and result["room_failures"] == {}
    assert_latency(result["move_latency_ms"])
    assert_latency(result["spectator_latency_ms"])


async def test_a_server_whose_per_address_cap_is_too_low_is_named_with_the_cure(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "games.db", max_connections_per_address=4) as server:
        run = await run_loadtest(
            tmp_path, "--server", server.ws_url, "--rooms", "3", "--duration", "1"
        )
    assert run.status == 0, run.err
    assert run.report is not None
    result = run.report["result"]
    # The third room is refused at the cap; within the run it may try again, and a
    # refusal that lands while the client is still in its handshake reads as
    # "closed during handshake". Both are the cap, and nothing else may fail.
    refused = result["connections"]["connect_errors"]
    assert set(refused) <= {"too_many_connections", "closed during handshake"}, refused
    assert refused.get("too_many_connections", 0) >= 1, refused
    assert set(result["errors"]) == {"too_many_connections"}, result["errors"]
    # Rooms that got both their clients in play on: two, unless the rooms' clients
    # reached the cap interleaved (a room with one in, one refused, retries).
    assert result["connections"]["held_at_end"] in (2, 4), result["connections"]
    assert result["games"]["finished"] > 0
    assert any("--max-connections-per-address" in note for note in run.report["notes"])


async def test_a_503_at_the_cap_counts_as_the_cap(tmp_path: Path) -> None:
    """Over the per-address cap while another refusal is still being told (its
    close unanswered), the server refuses the next upgrade with an HTTP 503
    whose JSON says ``too_many_connections``: the load client counts it as that
    refusal, as it does the close 1013, not as an unexplained ``http 503``."""
    async with running_server(tmp_path / "games.db", max_connections_per_address=1) as server:
        held = await Player.join_server(server.ws_url, "ann")
        reader, writer = await raw_upgrade(server.port)
        told = b""
        while b"too_many_connections" not in told:  # the 101, then the refusal, unanswered
            told += await asyncio.wait_for(reader.read(4096), 10)
        stats = WorkerStats()
        client = LoadClient(
            "bob", "first", stats, on_frame=lambda *_: None, on_end=lambda *_: None, pacer=None
        )
        with pytest.raises(ConnectFailedError) as refused:
            await client.open(server.ws_url)
        assert refused.value.reason == "too_many_connections", refused.value
        assert stats.errors == {"too_many_connections": 1}, stats.errors
        writer.close()
        await held.close()


async def test_idle_connections_give_the_servers_memory_per_connection(tmp_path: Path) -> None:
    run = await run_loadtest(
        tmp_path, "--start-server", "--idle", "40", "--duration", "1", "--workers", "2"
    )
    assert run.status == 0, run.err
    assert run.report is not None
    result = run.report["result"]
    assert "games" not in result and "moves" not in result
    idle = result["idle"]
    assert idle["connections_held"] == 40
    assert idle["rss_before_bytes"] > 10_000_000
    assert idle["rss_held_bytes"] > idle["rss_before_bytes"]
    assert idle["rss_per_connection_bytes"] > 0
    assert result["errors"] == {} and result["disconnects"] == {}
    assert run.report["conditions"]["server_started_by_tool"] is True
    assert "--max-connections-per-address" in run.report["conditions"]["server_flags"]
    assert "--max-rooms-per-address" in run.report["conditions"]["server_flags"]
    assert "memory per connection" in run.out


async def test_the_echo_mode_bounces_move_sized_frames_off_an_echo_server(tmp_path: Path) -> None:
    run = await run_loadtest(
        tmp_path, "--echo", "--start-server", "--rooms", "2", "--duration", "1"
    )
    assert run.status == 0, run.err
    assert run.report is not None
    result = run.report["result"]
    assert result["kind"] == "echo"
    assert result["round_trips"]["per_second"] > 0
    assert_latency(result["round_trip_ms"])
    assert result["errors"] == {} and result["disconnects"] == {}
    assert result["room_failures"] == {}
    # An echo server has no /metrics: ours is read from /proc, without a loop lag.
    assert result["server"]["rss_bytes"]["before"] > 1_000_000
    assert result["server"]["cpu_share"] is not None
    assert result["server"]["event_loop_lag"]["p99_at_most_ms"] is None
    assert "Results: echo server" in run.out


async def test_compare_echo_runs_the_baseline_then_the_server_and_gives_the_ratio(
    tmp_path: Path,
) -> None:
    run = await run_loadtest(
        tmp_path, "--start-server", "--compare-echo", "--rooms", "2", "--duration", "1"
    )
    assert run.status == 0, run.err
    assert run.report is not None
    echo, server = run.report["echo"], run.report["result"]
    assert (echo["kind"], server["kind"]) == ("echo", "server")
    assert echo["round_trips"]["per_second"] > 0 and server["moves"]["per_second"] > 0
    assert echo["errors"] == {} and server["errors"] == {}
    assert echo["server"]["cpu_share"] is not None and server["server"]["cpu_share"] is not None
    comparison = run.report["comparison"]
    assert comparison["throughput_ratio"] == round(
        server["moves"]["per_second"] / echo["round_trips"]["per_second"], 3
    )
    assert comparison["latency_p50_ratio"] > 0
    # Flat out on both: the started server's rate limit is raised out of the way.
    assert run.report["conditions"]["pacing"] is None
    assert "--rate" in run.report["conditions"]["server_flags"]
    assert "Relay against the echo baseline" in run.out


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_no_server_is_exit_status_1_with_one_clear_line(tmp_path: Path) -> None:
    run = await run_loadtest(tmp_path, "--server", f"127.0.0.1:{free_port()}", "--duration", "1")
    assert run.status == 1
    assert run.err.startswith("boardroom loadtest: no Boardroom server answers at ws://127.0.0.1:")
    assert "--start-server" in run.err and "Traceback" not in run.err
    assert run.report is None and run.out == ""


async def test_ctrl_c_ends_the_window_early_and_still_reports(tmp_path: Path) -> None:
    process = await start_loadtest(
        tmp_path, "--start-server", "--rooms", "2", "--duration", "60", "--workers", "1"
    )
    assert process.stderr is not None
    # The first progress line comes once the workers are given their timeline.
    line = await asyncio.wait_for(process.stderr.readline(), RUN_TIMEOUT)
    assert b"[server]" in line
    # Cut the window once a progress line (one every 5 s) counts a finished game.
    while not GAMES_FINISHED_IN_WINDOW.search(line):
        line = await asyncio.wait_for(process.stderr.readline(), RUN_TIMEOUT)
        assert line, "the load test ended before a game finished"
    process.send_signal(signal.SIGINT)
    run = await finish(process, tmp_path)
    assert run.status == 130, run.err
    assert run.report is not None and run.report["interrupted"] is True
    result = run.report["result"]
    assert 0 < result["window_seconds"] < 10
    assert result["games"]["finished"] > 0 and result["games"]["lost"] == 0
    assert result["disconnects"] == {}
    # The window's last reading was taken when it was cut, not at the planned end.
    assert result["server"]["rss_bytes"]["window_end"] > 10_000_000
    assert "Interrupted" in run.out
