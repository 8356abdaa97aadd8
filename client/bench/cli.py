"""``boardroom bench``: benchmarks that print their conditions and ratios."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="run a benchmark (see docs/benchmarks.md)",
        description="Run a benchmark; each prints its conditions and baseline ratios.",
    )
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    engine = targets.add_parser("engine", help="the minimax engine against its baselines")
    engine.add_argument(
        "--sample",
        type=int,
        default=None,
        help="positions per Connect Four set (default: all 1000; the medium set takes minutes)",
    )
    engine.add_argument(
        "--peer-sample",
        type=int,
        default=20,
        help="positions per set given to the peer engine, which is much slower (default 20)",
    )
    engine.add_argument(
        "--pure-sample",
        type=int,
        default=100,
        help="positions per set solved again by the pure-Python solver, for the "
        "compiled solver's speed-up (default 100)",
    )
    engine.set_defaults(handler=run_engine_bench)
    from client.bench.levels import run_from_args as run_levels_bench

    levels = targets.add_parser(
        "levels",
        help="matches between adjacent playing levels, to show strength is monotone",
    )
    levels.add_argument(
        "--games",
        type=int,
        default=10,
        metavar="N",
        help="games per pair of levels (default 10; gomoku at most 2)",
    )
    levels.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="at most S seconds per move (default: each level's own budget, up to 3 s)",
    )
    levels.set_defaults(handler=run_levels_bench)


def run_engine_bench(args: argparse.Namespace) -> int:
    from client.bench.engine import main

    return main(sample=args.sample, peer_sample=args.peer_sample, pure_sample=args.pure_sample)
