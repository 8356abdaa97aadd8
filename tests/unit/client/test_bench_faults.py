"""``boardroom bench faults`` runs whole, with tiny numbers: its own Redis, a
two-process cluster on one port, and each fault injected under play."""

from __future__ import annotations

import re

import pytest
from services import PostgresServer as SessionPostgres
from services import require

from boardroom.client.bench.faults import main
from boardroom.client.bench.services import PostgresServer

pytestmark = pytest.mark.e2e  # servers and Redis started, killed and restarted: seconds


def test_each_fault_is_injected_and_loses_no_game(
    capsys: pytest.CaptureFixture[str], postgres_server: SessionPostgres
) -> None:
    """Both faults under three games each: the table has a row per fault, every
    game ended on the board and no move told of is missing from its record (the
    pause is printed, not asserted). On the session's PostgreSQL, as the cluster
    bench's test is."""
    require("redis-server")
    postgres = PostgresServer.running(postgres_server.port, postgres_server.user)
    assert main(faults=["kill", "redis"], games=3, think=0.2, postgres=postgres) == 0
    printed = capsys.readouterr().out
    rows = re.findall(r"^\| (kill|redis) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|", printed, re.M)
    assert [row[0] for row in rows] == ["kill", "redis"], printed
    for fault, games, lost_games, told, lost_moves in rows:
        assert (games, lost_games, lost_moves) == ("3", "0", "0"), (fault, printed)
        assert int(told) > 0, printed
