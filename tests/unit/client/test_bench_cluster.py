"""``boardroom bench cluster`` runs whole, with tiny numbers: its own Redis and
PostgreSQL, one process on each store, a cluster of two, and both tables."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time

import pytest
from services import PostgresServer as SessionPostgres
from services import require

from boardroom.client.bench.cluster import (
    Measured,
    ProcessCpu,
    Setup,
    main,
    pin,
    render_comparison,
    usable_core_list,
)
from boardroom.client.bench.services import PostgresServer, descendants

pytestmark = pytest.mark.e2e  # servers, Redis and PostgreSQL started and stopped: seconds


def test_one_process_and_a_cluster_are_measured_in_one_run(
    capsys: pytest.CaptureFixture[str], postgres_server: SessionPostgres
) -> None:
    """Every setup plays without an error or a lost game; the cluster's row counts
    Redis's publishes and PostgreSQL's commits per move; the ratios are against
    the first row, measured in the same run. On the session's PostgreSQL (a
    database of its own there), not one of the benchmark's: its ``initdb`` is
    the slowest part of a run this small (docs/benchmarks.md, "Suite time")."""
    require("redis-server")
    postgres = PostgresServer.running(postgres_server.port, postgres_server.user)
    assert postgres.cpu_seconds() > 0  # the postmaster found, so its CPU is measured
    assert main(sizes=[2], rooms=2, duration=1.0, think=0.0, workers=1, postgres=postgres) == 0
    printed = capsys.readouterr().out
    assert "cores" in printed and "Everything shares these cores" in printed
    rows = re.findall(r"^\| (1 process, \w+|2 processes, cluster) \|", printed, re.M)
    assert len(rows) == 10, printed  # each setup in three tables, the cluster compared
    results = [line for line in printed.splitlines() if line.endswith("| 0, 0 |")]
    assert len(results) == 3, printed  # no errors, no lost games
    assert "| 1 process, SQLite |" in results[0] and "| 1.00 |" in results[0]
    per_move = printed.split("Per move")[1]
    cluster = next(line for line in per_move.splitlines() if "2 processes" in line)
    cells = [cell.strip() for cell in cluster.strip("|").split("|")]
    publishes, commits = float(cells[3]), float(cells[6])
    assert publishes > 0 and commits > 0, cluster
    by_process = printed.split("CPU a move by server process")[1]
    cluster = next(line for line in by_process.splitlines() if "2 processes" in line)
    cells = [cell.strip() for cell in cluster.strip("|").split("|")]
    assert float(cells[2]) > 0 and cells[3].endswith("x"), cluster  # its CPU a move, vs 1
    assert len(re.findall(r"\d+ \(\d+%\)", cells[4])) == 2, cluster  # each process's
    assert float(cells[6]) > 0, cluster  # its processes' wakes a move, from /proc
    compared = printed.split("Against 1 process, PostgreSQL")[1]
    assert re.search(r"^\| 2 processes, cluster \| \d\.\d\d \| \d+\.\d\dx \|", compared, re.M)


def test_pin_puts_a_process_and_its_children_on_one_core() -> None:
    """``--taskset``'s pinning: the process, its threads and the processes under
    it run on the one core given, as ``taskset -a -c CORE -p PID`` would."""
    core = usable_core_list()[-1]
    family = subprocess.Popen(["sh", "-c", "sleep 30 & wait"])
    try:
        deadline = time.monotonic() + 5
        while not descendants(family.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        (child,) = descendants(family.pid)
        pin(family.pid, core)
        assert os.sched_getaffinity(family.pid) == {core}
        assert os.sched_getaffinity(child) == {core}
    finally:
        for pid in descendants(family.pid):
            os.kill(pid, signal.SIGKILL)
        family.kill()
        family.wait()


def _measured(setup: Setup, rate: float, cpu_seconds: float, moves: float) -> Measured:
    data = {"result": {"moves": {"per_second": rate}}}
    return Measured(setup, data, {}, {}, processes=[ProcessCpu(cpu_seconds, moves)])


def test_the_comparison_gives_each_run_and_the_spread_over_the_runs() -> None:
    """Each run's cluster against its own one process on PostgreSQL: the share of
    its moves a second, the multiple of its CPU a move; then lowest / median /
    highest over the runs."""
    single, cluster = Setup(1, True), Setup(2, True)
    runs = [
        [_measured(single, 1000, 0.4, 1000), _measured(cluster, 900, 0.5, 1000)],
        [_measured(single, 1000, 0.4, 1000), _measured(cluster, 800, 0.6, 1000)],
        [_measured(single, 1000, 0.4, 1000), _measured(cluster, 1000, 0.44, 1000)],
    ]
    lines = render_comparison(runs).splitlines()
    assert "| 2 processes, cluster | 0.90 | 1.25x | 500 / 400 |" in lines
    assert "| 2 processes, cluster | 1.00 | 1.10x | 440 / 400 |" in lines
    spread = (
        "| 0.80 / 0.90 / 1.00 | 1.10 / 1.25 / 1.50 "
        "| cluster 440 / 500 / 600; 1 process 400 / 400 / 400 |"
    )
    assert f"| 2 processes, cluster, over 3 runs {spread}" in lines
    assert render_comparison([[_measured(cluster, 900, 0.5, 1000)]]) == ""  # nothing to compare
