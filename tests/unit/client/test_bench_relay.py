"""``boardroom bench relay`` runs whole, with tiny numbers: an echo server, this
checkout's server and, with ``--before``, another checkout's (here: this one's
sources again, reached through ``PYTHONPATH``), each flat out and paced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.client.bench.relay import main

pytestmark = pytest.mark.e2e  # servers started and stopped: seconds


def test_both_servers_are_measured_against_the_echo_with_the_stage_split(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """One run: each server's line has its ratio to the echo and its CPU a move
    split by stage; the summary has a row per server; no error or failure."""
    before = tmp_path / "before"
    (before / "boardroom").mkdir(parents=True)
    for folder in ("server", "client", "shared"):
        (before / "boardroom" / folder).symlink_to(REPO_ROOT / folder)
    status = main(runs=1, rooms=2, duration=1.0, paced_rooms=2, think=0.1, workers=1, before=before)
    printed = capsys.readouterr().out
    assert status == 0, printed
    assert "load average" in printed and "Everything shares these cores" in printed
    lines = re.findall(r"^run 1, load [\d.]+, (.+?): echo .* of the echo; .*$", printed, re.M)
    assert lines == [f"before ({before})", "this checkout"], printed
    assert printed.count("µs: decode ") >= 3, printed  # each run line, and the summary
    assert "errors and room failures" not in printed
    assert re.search(r"^\| this checkout \| [\d.]+ \|", printed, re.M), printed


def test_a_before_folder_without_a_checkout_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(
        runs=1, rooms=1, duration=1.0, paced_rooms=1, think=0.0, workers=1, before=tmp_path
    )
    assert status == 1
    assert "no boardroom/server in it" in capsys.readouterr().err
