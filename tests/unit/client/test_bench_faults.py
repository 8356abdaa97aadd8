"""``boardroom bench faults`` runs whole, with tiny numbers: its own Redis, a
two-process cluster on one port, and each fault injected under play."""

from __future__ import annotations

import re

import pytest
from services import PostgresServer as SessionPostgres
from services import require

from boardroom.client import cli
from boardroom.client.bench.faults import main
from boardroom.client.bench.services import PostgresServer

OUTAGE_SECONDS = 7.0
"""The PostgreSQL outage here: past the store's 5 s timeout (with 2 s to spare
for a loaded machine), so that moves are refused ``storage_unavailable`` and
sent again; the bench's 10 s would cost 3 s more and test nothing more."""


@pytest.mark.e2e  # servers and Redis started, killed and restarted, PostgreSQL stopped: seconds
def test_each_fault_is_injected_and_loses_no_game(
    capsys: pytest.CaptureFixture[str], postgres_server: SessionPostgres
) -> None:
    """The three faults under three games each: the table has a row per fault,
    every game ended on the board and no move told of is missing from its record
    (the pause is printed, not asserted). On the session's PostgreSQL, as the
    cluster bench's test is: the ``postgres`` fault stops it for a while and
    continues it. During that outage the bots' sessions were refused and waited
    to send again, so the outage did reach the players."""
    require("redis-server")
    postgres = PostgresServer.running(postgres_server.port, postgres_server.user)
    faults = ["kill", "redis", "postgres"]
    code = main(faults=faults, games=3, think=0.2, outage_seconds=OUTAGE_SECONDS, postgres=postgres)
    assert code == 0
    printed = capsys.readouterr().out
    rows = re.findall(
        r"^\| (\w+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| [\d.]+ \| [\d.]+ \| (\d+) \|$",
        printed,
        re.M,
    )
    assert [row[0] for row in rows] == faults, printed
    for fault, games, lost_games, told, lost_moves, _ in rows:
        assert (games, lost_games, lost_moves) == ("3", "0", "0"), (fault, printed)
        assert int(told) > 0, printed
    waits = {row[0]: int(row[5]) for row in rows}
    assert waits["postgres"] > 0, printed
    assert "PostgreSQL stopped (SIGSTOP) 7 s" in printed


@pytest.mark.parametrize(
    "flags", [["--outage-seconds", "-1"], ["--games", "0"], ["--think", "-0.5"]]
)
def test_a_run_that_cannot_be_made_is_refused_before_anything_starts(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["bench", "faults", *flags]) == 2
    assert "bench faults: give --games 1 or more" in capsys.readouterr().err


def test_by_default_every_fault_is_injected_and_postgresql_stopped_10_s() -> None:
    args = cli.build_parser().parse_args(["bench", "faults"])
    assert (args.fault, args.outage_seconds) == (["kill", "redis", "postgres"], 10.0)
