"""The flags of ``boardroom loadtest`` and the checked, immutable run they describe.

:func:`add_arguments` declares the flags; :func:`options_from` turns the parsed
flags into :class:`LoadOptions` or raises :class:`UsageError` with one line that
names the flag at fault and what it takes. Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from typing import Literal

from boardroom.client.commands.server_option import SERVER_ENV
from boardroom.client.loadtest.errors import UsageError
from boardroom.client.pacing import DEFAULT_PACE
from boardroom.client.room_options import InputError, parse_game, parse_level
from boardroom.client.session import DEFAULT_SERVER_URL, normalize_server_url
from boardroom.shared.games import choices_text, game_specs
from boardroom.shared.protocol.messages import LEVELS, Level

LOAD_GAME = game_specs()[0].name
"""The load's game unless --game says: the first of the registry's menu, the
smallest board (tic-tac-toe), not the game people are offered first
(:func:`~boardroom.shared.games.default_game`): a load test measures rooms and
messages, and its published figures (docs/benchmarks.md) were taken on it."""

SERVER_LOOPS = ("asyncio", "uvloop", "auto")
"""Event loops a server started by the tool may run (its ``--event-loop``)."""
SERVER_DEFAULT_CONNECTIONS_PER_ADDRESS = 32
"""The server's default cap on connections from one address (``docs/protocol.md``)."""
DEFAULT_CONNECT_RATE = 250.0
"""New connections a second, over all workers: a ramp that a laptop's server takes
without refusing or timing out handshakes (10,000 idle connections: 40 s)."""

Mode = Literal["rooms", "idle", "echo"]


@dataclass(frozen=True)
class LoadOptions:
    """One load test, as the flags asked for it (see ``boardroom loadtest --help``)."""

    mode: Mode
    """``rooms``: players play games; ``idle``: connections say hello and hold;
    ``echo``: players bounce move-sized frames off an echo server."""
    server_urls: tuple[str, ...]
    """The servers to drive (several: the processes of one cluster, each client
    on one of them, see :func:`boardroom.client.loadtest.rooms.server_for`); empty when the
    tool starts its own."""
    start_server: bool
    compare_echo: bool
    """Run the echo baseline first, then the real server, and give the ratio."""
    echo_url: str | None
    """The echo server of ``--compare-echo`` (None: start one)."""
    game: str
    rooms: int
    spectators: int
    ai_rooms: int
    ai_level: Level
    think: float
    duration: float
    workers: int
    idle: int
    rate: float | None
    """Messages a second one client sends at most; None: no pacing."""
    burst: int
    connect_rate: float
    json_path: str | None
    server_loop: str | None
    seed: int | None

    @classmethod
    def plain(
        cls,
        mode: Mode,
        urls: tuple[str, ...],
        *,
        game: str,
        rooms: int,
        think: float,
        duration: float,
        workers: int,
    ) -> LoadOptions:
        """The load the benchmarks drive: ``rooms`` of ``game`` on running servers
        ``urls`` (or an echo server), players who think ``think`` seconds a move,
        nothing else (no spectators, AI rooms, pacing or JSON), seed 1."""
        return cls(
            mode=mode,
            server_urls=urls,
            start_server=False,
            compare_echo=False,
            echo_url=None,
            game=game,
            rooms=rooms,
            spectators=0,
            ai_rooms=0,
            ai_level=Level.EASY,
            think=think,
            duration=duration,
            workers=workers,
            idle=0,
            rate=None,
            burst=1,
            connect_rate=DEFAULT_CONNECT_RATE,
            json_path=None,
            server_loop=None,
            seed=1,
        )

    @property
    def clients_per_room(self) -> int:
        return 2 + self.spectators

    @property
    def connections(self) -> int:
        """Connections the run opens and holds."""
        if self.mode == "idle":
            return self.idle
        return self.rooms * self.clients_per_room - self.ai_rooms

    @property
    def units(self) -> int:
        """What is spread over the workers: rooms, or idle connections."""
        return self.idle if self.mode == "idle" else self.rooms

    @property
    def worker_count(self) -> int:
        """Workers actually started: no more than there are units to give them."""
        return max(1, min(self.workers, self.units))

    @property
    def starts_a_server(self) -> bool:
        """Whether the tool starts a server process (game or echo) of its own."""
        return self.start_server or (self.compare_echo and self.echo_url is None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare every flag of ``boardroom loadtest`` on ``parser``."""
    where = parser.add_argument_group("which server")
    where.add_argument(
        "--server",
        metavar="URL",
        action="append",
        help="drive this running server: ws://HOST:PORT/ws, or HOST or HOST:PORT "
        f"[env {SERVER_ENV}; default {DEFAULT_SERVER_URL}]. It must allow as many "
        f"connections per address as the run opens (the default cap is "
        f"{SERVER_DEFAULT_CONNECTIONS_PER_ADDRESS}): start it with "
        "--max-connections-per-address N. Several (--server A --server B, or A,B): "
        "the processes of one cluster; the clients are spread over them as a shared "
        "port would, so the two players of a room are on different processes in "
        "most rooms (half of them, for two), and their figures are added up",
    )
    where.add_argument(
        "--start-server",
        action="store_true",
        help="start a server of our own on a free loopback port and a temporary "
        "database (python -m boardroom.server; with --echo,"
        " python -m boardroom.server.echo_server), "
        "with its per-address cap raised for the run",
    )
    where.add_argument(
        "--server-loop",
        choices=SERVER_LOOPS,
        help="the event loop of the servers the tool starts (their --event-loop)",
    )
    what = parser.add_argument_group("what the clients do")
    what.add_argument(
        "--rooms", type=int, default=10, metavar="N", help="rooms of two players (default 10)"
    )
    what.add_argument(
        "--game",
        default=LOAD_GAME,
        help=f"{choices_text(examples=False)} (default {LOAD_GAME})",
    )
    what.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="pause before each move, drawn from 0.5x to 1.5x SECONDS (default 0: "
        "as fast as the pacing allows)",
    )
    what.add_argument(
        "--spectators", type=int, default=0, metavar="K", help="spectators in each room (default 0)"
    )
    what.add_argument(
        "--ai-rooms",
        default="0",
        metavar="N|P%",
        help="rooms (a number, or a share like 25%%) where one player plays the "
        "server's AI instead of a second client (default 0)",
    )
    what.add_argument(
        "--ai-level",
        default="easy",
        metavar="LEVEL",
        help=f"the AI's level: {', '.join(LEVELS)} (default easy)",
    )
    what.add_argument(
        "--idle",
        type=int,
        metavar="N",
        help="instead of rooms: N connections that say hello and hold, to measure the "
        "server's memory per connection",
    )
    what.add_argument(
        "--echo",
        action="store_true",
        help="instead of the game server: clients bounce move-sized frames off an echo "
        "server (with --start-server, or --server URL of one)",
    )
    what.add_argument(
        "--compare-echo",
        action="store_true",
        help="run the echo baseline first (an echo server of our own, or --echo-server), "
        "then the server with the same clients, and print the ratio",
    )
    what.add_argument(
        "--echo-server",
        metavar="URL",
        help="with --compare-echo: a running echo server to use instead of starting one",
    )
    how = parser.add_argument_group("how long and how hard")
    how.add_argument(
        "--duration",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="the measured time, after all connections are open (default 30)",
    )
    how.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="W",
        help=f"client processes (default: one per core, {os.cpu_count()} here)",
    )
    rate, burst = DEFAULT_PACE
    how.add_argument(
        "--rate",
        type=float,
        metavar="R",
        help=f"messages a second each client sends at most (default {rate:g}, under the "
        "server's 20; 0: no pacing, for a server started with a higher --rate, which "
        "--start-server does; --compare-echo with --start-server defaults to 0, as a "
        "ceiling is only measured flat out)",
    )
    how.add_argument(
        "--burst",
        type=int,
        default=burst,
        metavar="B",
        help=f"messages a client may send at once after a pause (default {burst})",
    )
    how.add_argument(
        "--connect-rate",
        type=float,
        default=DEFAULT_CONNECT_RATE,
        metavar="N",
        help=f"new connections a second during the ramp-up (default {DEFAULT_CONNECT_RATE:g})",
    )
    how.add_argument("--seed", type=int, help="seed of the random moves (default: random)")
    out = parser.add_argument_group("output")
    out.add_argument(
        "--json",
        metavar="FILE",
        help="also write the report as JSON to FILE ('-': stdout, and the table goes to stderr)",
    )


def options_from(args: argparse.Namespace) -> LoadOptions:
    """The run the parsed flags describe; :class:`UsageError` if they do not make one."""
    mode: Mode = "idle" if args.idle is not None else "echo" if args.echo else "rooms"
    _check_mode_flags(args, mode)
    _check_numbers(args)
    game = _game(args.game)
    ai_rooms = _ai_rooms(args.ai_rooms, args.rooms)
    ai_level = _level(args.ai_level)
    if args.server is not None and args.start_server:
        raise UsageError("--server and --start-server exclude each other: drive one or start one")
    if mode == "echo" and args.server is None and not args.start_server:
        raise UsageError(
            "--echo needs an echo server: --start-server starts one "
            "(python -m boardroom.server.echo_server), or give --server URL of a running one"
        )
    if args.echo_server is not None and not args.compare_echo:
        raise UsageError("--echo-server goes with --compare-echo")
    if args.server_loop is not None and not (
        args.start_server or (args.compare_echo and args.echo_server is None)
    ):
        raise UsageError("--server-loop is for servers the tool starts: add --start-server")
    server_urls: tuple[str, ...] = ()
    if not args.start_server:
        given = args.server or [os.environ.get(SERVER_ENV, DEFAULT_SERVER_URL)]
        server_urls = _urls("--server", given)
    return LoadOptions(
        mode=mode,
        server_urls=server_urls,
        start_server=args.start_server,
        compare_echo=args.compare_echo,
        echo_url=None if args.echo_server is None else _url("--echo-server", args.echo_server),
        game=game,
        rooms=args.rooms,
        spectators=args.spectators,
        ai_rooms=ai_rooms,
        ai_level=ai_level,
        think=args.think,
        duration=args.duration,
        workers=args.workers,
        idle=args.idle or 0,
        rate=_rate(args),
        burst=args.burst,
        connect_rate=args.connect_rate,
        json_path=args.json,
        server_loop=args.server_loop,
        seed=args.seed,
    )


def _check_mode_flags(args: argparse.Namespace, mode: Mode) -> None:
    if args.echo and args.compare_echo:
        raise UsageError("--echo and --compare-echo exclude each other: --compare-echo runs both")
    if mode == "idle":
        for flag, given in (
            ("--echo", args.echo),
            ("--compare-echo", args.compare_echo),
            ("--spectators", args.spectators),
            ("--ai-rooms", args.ai_rooms not in ("0", "0%")),
            ("--think", args.think),
        ):
            if given:
                raise UsageError(f"--idle connections only say hello and hold: drop {flag}")
    if (mode == "echo" or args.compare_echo) and (
        args.spectators or args.ai_rooms not in ("0", "0%")
    ):
        raise UsageError(
            "the echo baseline has players only: drop --spectators and --ai-rooms "
            "to compare with it"
        )


def _check_numbers(args: argparse.Namespace) -> None:
    problems = (
        (args.rooms < 1, f"--rooms {args.rooms}: give 1 or more"),
        (args.idle is not None and args.idle < 1, f"--idle {args.idle}: give 1 or more"),
        (args.spectators < 0, f"--spectators {args.spectators}: give 0 or more"),
        (not args.duration > 0, f"--duration {args.duration:g}: give more than 0 seconds"),
        (args.duration > 86_400, f"--duration {args.duration:g}: at most a day (86400)"),
        (not args.think >= 0, f"--think {args.think:g}: give 0 or more seconds"),
        (args.workers < 1, f"--workers {args.workers}: give 1 or more"),
        (
            args.rate is not None and not args.rate >= 0,
            f"--rate {args.rate}: give 0 (no pacing) or more",
        ),
        (args.burst < 1, f"--burst {args.burst}: give 1 or more"),
        (not args.connect_rate > 0, f"--connect-rate {args.connect_rate:g}: give more than 0"),
    )
    for wrong, message in problems:
        if wrong:
            raise UsageError(message)


def _rate(args: argparse.Namespace) -> float | None:
    """Messages a second per client, None for no pacing. Unpaced by default only
    when comparing with the echo baseline on servers of our own (whose rate
    limit is raised): pacing would cap both runs alike and the ratio say nothing."""
    if args.rate is None:
        return None if args.compare_echo and args.start_server else DEFAULT_PACE[0]
    return args.rate or None


def _game(text: str) -> str:
    try:
        return parse_game(text).name
    except InputError as error:
        raise UsageError(f"--game: {error}") from None


def _level(text: str) -> Level:
    try:
        return parse_level(text)
    except InputError as error:
        raise UsageError(f"--ai-level: {error}") from None


_SHARE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*%\s*")


def _ai_rooms(text: str, rooms: int) -> int:
    """``--ai-rooms``: a count (``5``) or a share of the rooms (``25%``, rounded)."""
    if match := _SHARE.fullmatch(text):
        share = float(match.group(1))
        if share > 100:
            raise UsageError(f"--ai-rooms {text}: a share is at most 100%")
        return round(rooms * share / 100)
    if not text.strip().isdigit():
        raise UsageError(f"--ai-rooms {text!r}: give a number of rooms (5) or a share (25%)")
    count = int(text)
    if count > rooms:
        raise UsageError(f"--ai-rooms {count}: more than the {rooms} rooms of --rooms")
    return count


def _urls(flag: str, given: list[str]) -> tuple[str, ...]:
    """Every server of the repeated and comma-separated ``flag``, each once."""
    texts = [text.strip() for value in given for text in value.split(",")]
    if not all(texts):
        raise UsageError(f"{flag} {','.join(given)!r}: an empty address in the list")
    urls = tuple(dict.fromkeys(_url(flag, text) for text in texts))
    if len(urls) < len(texts):
        raise UsageError(f"{flag}: a server given twice would take twice its share of clients")
    return urls


def _url(flag: str, text: str) -> str:
    url = normalize_server_url(text)
    if not url.startswith(("ws://", "wss://")):
        raise UsageError(f"{flag} {text!r}: give ws://HOST:PORT/ws, HOST or HOST:PORT")
    return url
