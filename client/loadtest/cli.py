"""``boardroom loadtest``: can this machine host a class, and where does it end?

Registered in the ``boardroom.commands`` entry-point group. Exit status: 0 when
the run completed, whatever its figures (a run cut short by one Ctrl-C still
prints its report, and exits 130); 1 when it could not run (no server answered,
ours did not start, a worker died); 2 for flags that cannot make a run, with one
line saying which; 130 after a second Ctrl-C and 143 after SIGTERM, which
abandon the run without a report (the servers it started are stopped).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from typing import Any

from boardroom.client.loadtest.errors import CannotRunError, RunAbandonedError, UsageError
from boardroom.client.loadtest.options import LoadOptions, add_arguments, options_from

EXIT_INTERRUPTED = 128 + signal.SIGINT

DESCRIPTION = """\
Drive a server with simulated rooms (pairs of clients playing random legal moves,
rematching until the time is up), idle connections, or an echo baseline, from
several worker processes. Report connections, games, moves a second, move latency,
errors, disconnects, and the server's memory, CPU and event-loop lag. Live progress
goes to stderr, the report to stdout (and to --json FILE).
"""

EXAMPLES = """\
examples:
  boardroom loadtest --start-server --rooms 50 --duration 15
      50 rooms of two players on a server of our own, as fast as the pacing allows
  boardroom loadtest --server 192.168.1.20 --rooms 15 --think 3 --spectators 1
      a class of 30 students thinking 3 s a move, and a projector per room
  boardroom loadtest --start-server --idle 10000 --duration 10
      the server's memory per idle connection
  boardroom loadtest --start-server --compare-echo --rooms 100 --duration 15
      the relay's moves a second against a bare echo server's round trips, and the ratio
  boardroom loadtest --server host:8001,host:8002 --rooms 100 --duration 15
      the processes of one cluster: a room's players on different ones half the time

A running server must allow the run's connections and rooms from one address: start
it with --max-connections-per-address N (the default, 32, is for real classes),
--max-rooms-per-address 0 (the default, 60, likewise) and --new-players-per-address 0
(each simulated client is a new player; the default lets 60 in, then 6 a minute).
"""


def register(subparsers: Any) -> None:
    """Add ``loadtest`` to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "loadtest",
        help="load a server with simulated rooms, and report what it took",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run_loadtest)


def run_loadtest(args: argparse.Namespace) -> int:
    """The ``loadtest`` subcommand: check the flags, run, report; the exit status."""
    try:
        options = options_from(args)
        _check_json_path(options)
    except UsageError as error:
        print(f"boardroom loadtest: {error}", file=sys.stderr)
        return 2
    # Imported here: the report pulls in the whole tool, which `--help` does not need.
    from boardroom.client.loadtest.process_setup import raise_open_file_limit
    from boardroom.client.loadtest.progress import Progress
    from boardroom.client.loadtest.report import (
        machine_conditions,
        render_table,
        report_json,
        write_json,
    )
    from boardroom.client.loadtest.runner import run_load

    raise_open_file_limit()  # before any server is started: it inherits the limit
    machine = machine_conditions()
    try:
        report = asyncio.run(run_load(options, Progress(sys.stderr)))
    except CannotRunError as error:
        print(f"boardroom loadtest: {error}", file=sys.stderr)
        return 1
    except RunAbandonedError as error:
        print(f"boardroom loadtest: {error}; no report", file=sys.stderr)
        return 128 + error.signum
    data = report_json(report, machine)
    table_stream = sys.stderr if options.json_path == "-" else sys.stdout
    print(render_table(data), file=table_stream, flush=True)
    if options.json_path is not None:
        try:
            write_json(data, options.json_path)
        except OSError as error:
            print(f"boardroom loadtest: cannot write {options.json_path}: {error}", file=sys.stderr)
            return 1
    return EXIT_INTERRUPTED if report.interrupted else 0


def _check_json_path(options: LoadOptions) -> None:
    """A report that could not be written at the end would waste the run: check now."""
    path = options.json_path
    if path is None or path == "-":
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"--json {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise UsageError(f"--json {path}: that is a folder; give a file name")
