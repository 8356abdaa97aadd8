"""``boardroom bench cluster`` runs whole, with tiny numbers: its own Redis and
PostgreSQL, one process on each store, a cluster of two, and both tables."""

from __future__ import annotations

import re

import pytest
from services import PostgresServer as SessionPostgres
from services import require

from boardroom.client.bench.cluster import main
from boardroom.client.bench.services import PostgresServer

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
    assert len(rows) == 6, printed  # each setup in both tables
    results = [line for line in printed.splitlines() if line.endswith("| 0, 0 |")]
    assert len(results) == 3, printed  # no errors, no lost games
    assert "| 1 process, SQLite |" in results[0] and "| 1.00 |" in results[0]
    per_move = printed.split("Per move")[1]
    cluster = next(line for line in per_move.splitlines() if "2 processes" in line)
    cells = [cell.strip() for cell in cluster.strip("|").split("|")]
    publishes, commits = float(cells[3]), float(cells[6])
    assert publishes > 0 and commits > 0, cluster
