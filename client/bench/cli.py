"""``boardroom bench``: benchmarks that print their conditions and ratios."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
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
    engine.add_argument(
        "--early",
        type=int,
        default=200,
        help="lines of the early-game set (13-16 stones) solved by ours and bitbully in "
        "section 5 (default 200, all; 0 skips it)",
    )
    engine.set_defaults(handler=run_engine_bench)
    from boardroom.client.bench.levels import run_from_args as run_levels_bench

    levels = targets.add_parser(
        "levels",
        help="matches between adjacent playing levels, to show strength is monotone",
    )
    levels.add_argument(
        "--games",
        type=int,
        default=10,
        metavar="N",
        help="games per pair of levels (default 10; long boards at most 2)",
    )
    levels.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="at most S seconds per move (default: each level's own budget, up to 3 s)",
    )
    levels.set_defaults(handler=run_levels_bench)
    perfect = targets.add_parser(
        "perfect", help="whether the perfect level's moves keep the exact value"
    )
    perfect.add_argument(
        "--sample", type=int, default=20, help="positions per test set (default 20)"
    )
    perfect.add_argument(
        "--early", type=int, default=20, help="early positions, 8 to 14 stones (default 20)"
    )
    perfect.add_argument("--seed", type=int, default=1, help="seed of the early positions")
    perfect.set_defaults(handler=run_perfect_bench)
    analysis = targets.add_parser(
        "analysis", help="how long a whole Connect Four game's analysis takes"
    )
    analysis.add_argument(
        "--games", type=int, default=3, help="42-move games to analyse (1 to 3, default 3)"
    )
    analysis.add_argument(
        "--budget", type=float, default=0.2, help="seconds a position (default 0.2, the server's)"
    )
    analysis.add_argument(
        "--check",
        type=int,
        default=None,
        metavar="N",
        help="instead of timing: play N seeded games (random moves and AI matches), review "
        "them, and check every value and judgement against bitbully",
    )
    analysis.add_argument(
        "--seed", type=int, default=1, help="seed of the --check games (default 1)"
    )
    analysis.set_defaults(handler=run_analysis_bench)
    relay = targets.add_parser(
        "relay",
        help="the relay against an echo server, its CPU a move by stage, the paced p99",
        description="Over --runs runs: an echo server flat out, then each server (this "
        "checkout's, and --before DIR's) flat out and paced; print moves a second, the "
        "ratio to the echo, the server's CPU a move by stage and the paced p99, then "
        "each figure's spread (docs/benchmarks.md, the relay section).",
    )
    relay.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    relay.add_argument("--rooms", type=int, default=100, help="rooms played flat out (default 100)")
    relay.add_argument(
        "--duration", type=float, default=10.0, help="measured seconds a phase (default 10)"
    )
    relay.add_argument(
        "--paced-rooms",
        type=int,
        default=500,
        help="rooms of the paced phase (default 500: 1,000 clients)",
    )
    relay.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="seconds a paced player thinks before a move (default 0.5: about 1,000 "
        "moves a second with 500 rooms)",
    )
    relay.add_argument("--workers", type=int, default=2, help="load worker processes (default 2)")
    add_before_option(relay, "the server")
    relay.set_defaults(handler=run_relay_bench)
    room = targets.add_parser(
        "room",
        help="the pure room's CPU a move (the server's rules stage), random games",
        description="Over --rounds rounds, play the same seeded random games in one room "
        "(three boards, small to large, by default; a rematch after each) in this checkout "
        "and --before DIR's, a fresh process each; print the room's CPU a move, the ratio, "
        "and whether both rooms' wire output was the same (docs/benchmarks.md, the relay "
        "section).",
    )
    room.add_argument(
        "--game",
        action="append",
        default=None,
        metavar="NAME",
        help="a game to measure, repeatable (default: three boards, small to large)",
    )
    room.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
        help="games of each (default: each default board's own number, a few thousand "
        "moves; 100 of any other game)",
    )
    room.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    room.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    add_before_option(room, "the room")
    room.set_defaults(handler=run_room_bench)
    cluster = targets.add_parser(
        "cluster",
        help="the same load on one process and on clusters of several (Redis, PostgreSQL)",
        description="Start a private Redis and PostgreSQL, then measure the same rooms "
        "against 1 process on SQLite (the baseline), 1 on PostgreSQL, and clusters of "
        "each --processes size; print moves a second, latency, CPU, and what a move "
        "costs Redis and PostgreSQL.",
    )
    cluster.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[2, 4],
        metavar="N",
        help="cluster sizes to measure (default 2 4)",
    )
    cluster.add_argument(
        "--rooms", type=int, default=100, help="rooms of two players (default 100)"
    )
    cluster.add_argument(
        "--duration", type=float, default=10.0, help="measured seconds per setup (default 10)"
    )
    cluster.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds before each move, 0.5x to 1.5x (default 0: flat out)",
    )
    cluster.add_argument("--workers", type=int, default=2, help="load worker processes (default 2)")
    cluster.add_argument(
        "--taskset",
        action="store_true",
        help="pin each server process to a core of its own (process i on core i, as "
        "taskset -a -c i -p PID), then compare the clusters with 1 process on PostgreSQL",
    )
    cluster.add_argument(
        "--no-sqlite", action="store_true", help="leave out the 1 process on SQLite setup"
    )
    cluster.add_argument("--runs", type=int, default=1, help="runs of every setup (default 1)")
    cluster.set_defaults(handler=run_cluster_bench)
    faults = targets.add_parser(
        "faults",
        help="a cluster's faults (kill -9, a Redis restart, a PostgreSQL outage) "
        "injected under play",
        description="Start a private Redis and PostgreSQL and two cluster processes on one "
        "port; for each --fault, seat --games games of bots, inject the fault mid-game and "
        "print games lost, moves lost and the longest pause.",
    )
    faults.add_argument(
        "--fault",
        nargs="+",
        choices=["kill", "redis", "postgres"],
        default=["kill", "redis", "postgres"],
        help="faults to inject, one run each (default kill redis postgres)",
    )
    faults.add_argument(
        "--outage-seconds",
        type=float,
        default=10.0,
        help="how long the postgres fault stops PostgreSQL (default 10)",
    )
    faults.add_argument("--games", type=int, default=20, help="games at once (default 20)")
    faults.add_argument(
        "--think", type=float, default=0.3, help="seconds before each bot move (default 0.3)"
    )
    faults.set_defaults(handler=run_faults_bench)


def add_before_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--before DIR``: a benchmark also measures ``what`` of another checkout, in
    the same runs (its sources under DIR/boardroom, run with PYTHONPATH=DIR)."""
    parser.add_argument(
        "--before",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"also measure {what} of another checkout: DIR holds its boardroom/ folder "
        "(server/, client/, shared/), run with PYTHONPATH=DIR",
    )


def run_analysis_bench(args: argparse.Namespace) -> int:
    if args.check is not None:
        from boardroom.client.bench.review_check import main as check

        if args.check < 1:
            print("bench analysis: --check takes 1 or more games", file=sys.stderr)
            return 2
        return check(args.check, seed=args.seed, budget=args.budget)
    from boardroom.client.bench.analysis import GAMES, main

    return main(games=GAMES[: max(1, min(args.games, len(GAMES)))], budget=args.budget)


def run_perfect_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.perfect import main

    return main(sample=args.sample, early=args.early, seed=args.seed)


def run_engine_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.engine import main

    return main(
        sample=args.sample,
        peer_sample=args.peer_sample,
        pure_sample=args.pure_sample,
        early=args.early,
    )


def run_relay_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.relay import main

    if min(args.runs, args.rooms, args.paced_rooms, args.workers) < 1 or not (
        args.duration > 0 and args.think >= 0
    ):
        print(
            "bench relay: give --runs, --rooms, --paced-rooms and --workers 1 or more, "
            "--duration more than 0 and --think 0 or more",
            file=sys.stderr,
        )
        return 2
    return main(
        runs=args.runs,
        rooms=args.rooms,
        duration=args.duration,
        paced_rooms=args.paced_rooms,
        think=args.think,
        workers=args.workers,
        before=args.before,
    )


def run_room_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.room import GAMES, main

    if args.rounds < 1 or (args.games is not None and args.games < 1):
        print("bench room: give --rounds and --games 1 or more", file=sys.stderr)
        return 2
    names = args.game or list(GAMES)
    games = {name: args.games or GAMES.get(name, 100) for name in dict.fromkeys(names)}
    return main(games=games, rounds=args.rounds, seed=args.seed, before=args.before)


def run_cluster_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.cluster import main

    if args.rooms < 1 or args.duration <= 0 or args.think < 0 or args.workers < 1 or args.runs < 1:
        print(
            "bench cluster: give --rooms, --workers and --runs 1 or more, --duration more "
            "than 0 and --think 0 or more",
            file=sys.stderr,
        )
        return 2
    return main(
        sizes=args.processes,
        rooms=args.rooms,
        duration=args.duration,
        think=args.think,
        workers=args.workers,
        taskset=args.taskset,
        sqlite=not args.no_sqlite,
        runs=args.runs,
    )


def run_faults_bench(args: argparse.Namespace) -> int:
    from boardroom.client.bench.faults import main

    if args.games < 1 or args.think < 0 or args.outage_seconds < 0:
        print(
            "bench faults: give --games 1 or more, --think and --outage-seconds 0 or more",
            file=sys.stderr,
        )
        return 2
    return main(
        faults=args.fault, games=args.games, think=args.think, outage_seconds=args.outage_seconds
    )
