"""``boardroom bench faults``: a cluster's faults injected under play, and what they cost.

For each fault it starts a private Redis and PostgreSQL
(:mod:`boardroom.client.bench.services`) and two ``boardroom serve --cluster``
processes sharing one port (``--reuse-port``), seats ``--games`` games of
Connect Four between pairs of bots (the bot SDK's
:class:`~boardroom.client.bots.runner.BotRunner`, as ``boardroom bot`` runs
them, every bot connected through the shared port), injects the fault once
every game has a few moves, and waits for the games to end. The faults::

    kill     SIGKILL to the process that owns the most rooms; its bots
             reconnect at once, through the same port, to the survivor
    redis    Redis stopped and started again, empty, on the same port
    postgres PostgreSQL stopped (SIGSTOP) for ``outage_seconds``, then
             continued (SIGCONT)

The PostgreSQL outage is a freeze, not a shutdown, because a freeze is the
outage the store can least tell from a slow answer, so the one that costs
most: the server neither answers nor refuses, as a hung host or a cut
network does; every write under way waits for the store's timeout, a COMMIT
sent just before it may be stored although its answer never comes (the
recorder must recognise the move when it is sent again), new connections wait
unanswered. A shutdown refuses every connection at once, which is quicker to
notice and covered by tests/e2e/test_e2e_storage_outage.py. A freeze also
lasts exactly as long as asked (a restart adds PostgreSQL's own start-up to
it) and leaves the database as it was, so it can be the test suite's own
server.

It prints, per fault: games lost (a game that did not end on the board: not
ended, abandoned, or a bot that lost its seat), moves lost (a ``moved`` a bot
was told of that its stored record, ``GET /api/games/{id}``, lacks), the
longest pause (the longest time between two moves of one game, the fault's
included), the first move after the fault's end (in any game) and the waits
for storage (each time a bot's session was refused ``storage_unavailable`` and
waited to send again). docs/benchmarks.md, "Faults under play", reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from boardroom.client.bench.services import (
    INSTALL_HINT,
    PostgresServer,
    RedisServer,
    ServiceError,
    free_port,
    missing_programs,
    start_postgres,
    stop_process,
)
from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import BotRunner, Entry, RunOptions
from boardroom.client.bots.state import GameState
from boardroom.client.conditions import condition_lines
from boardroom.client.local_server import LocalProcess, LocalServerError, local_process
from boardroom.client.session import Reconnected, Session, SessionEvent
from boardroom.shared.games import default_game
from boardroom.shared.protocol.messages import GameOver, Moved

FAULTS = ("kill", "redis", "postgres")
GAME = default_game().name
"""The game the bots play: the registry's default (Connect Four, a few dozen moves)."""
PLIES_BEFORE_FAULT = 3
"""Moves every game has before the fault is injected."""
GAMES_END_WITHIN_S = 120.0
"""How long the games may take after the fault before the rest count as lost."""
OUTAGE_S = 10.0
"""How long PostgreSQL is stopped by default: the figure issue 28 measured."""


class _SlowRandom(Brain):
    """Wins when it can, else a random move, after ``think`` seconds; not before
    ``start`` is set."""

    def __init__(self, think: float, start: asyncio.Event) -> None:
        self._think = think
        self._start = start

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        await self._start.wait()
        await asyncio.sleep(self._think)
        return random.choice(state.winning_moves() or state.legal_moves)


class _SlowRandomBrains(BrainSource):
    name = "fault-bot"

    def __init__(self, think: float, start: asyncio.Event) -> None:
        self._think = think
        self._start = start

    def new_brain(self, label: str) -> Brain:
        return _SlowRandom(self._think, self._start)


@dataclass
class _Bot:
    session: Session
    task: asyncio.Task[None]
    listener: asyncio.Task[None]
    heard: list[tuple[float, SessionEvent]] = field(default_factory=list)
    """What the bot's session heard, each with when (``time.monotonic``)."""
    storage_waits: list[float] = field(default_factory=list)
    """Each wait of the session after a ``storage_unavailable`` refusal, in seconds."""


async def _listen(
    events: asyncio.Queue[SessionEvent], heard: list[tuple[float, SessionEvent]]
) -> None:
    while True:
        event = await events.get()
        heard.append((time.monotonic(), event))


@dataclass(frozen=True)
class Outcome:
    """One fault's figures."""

    fault: str
    games: int
    lost_games: int
    acknowledged_moves: int
    lost_moves: int
    longest_pause_s: float
    recovered_s: float
    """From the end of the fault (the kill; Redis started again; PostgreSQL
    continued) to the first move after it, in any game."""
    storage_waits: int = 0
    """Requests refused ``storage_unavailable`` and sent again, over every bot."""
    why: tuple[str, ...] = ()
    """Each lost game and what became of it (``ROOM: not ended``...)."""


def main(
    *,
    faults: Sequence[str],
    games: int,
    think: float,
    outage_seconds: float = OUTAGE_S,
    postgres: PostgresServer | None = None,
) -> int:
    """Inject each fault and print the table; 1 if a service could not run.

    ``outage_seconds``: how long the ``postgres`` fault stops PostgreSQL.
    ``postgres``: a PostgreSQL already running (each fault gets a new database
    of it; the ``postgres`` fault stops and continues it); None, what the
    command does: one of the benchmark's own."""
    missing = missing_programs()
    if missing:
        print(f"bench faults: {', '.join(missing)} missing: {INSTALL_HINT}", file=sys.stderr)
        return 1
    print("Boardroom faults benchmark: a two-process cluster's faults under play")
    conditions = [
        ("load", f"{games} games of {GAME} between bots, {think:g} s a move"),
        ("servers", "2 processes, one port (--reuse-port), one engine worker each"),
    ]
    if "postgres" in faults:
        conditions.append(("outage", f"PostgreSQL stopped (SIGSTOP) {outage_seconds:g} s"))
    for line in condition_lines(conditions):
        print(line)
    print("Everything shares these cores: bots, server processes, Redis, PostgreSQL.", flush=True)
    try:
        outcomes = asyncio.run(_run(faults, games, think, outage_seconds, postgres))
    except (ServiceError, LocalServerError) as error:
        print(f"bench faults: {error}", file=sys.stderr)
        return 1
    print()
    print(render(outcomes))
    return 0


async def _run(
    faults: Sequence[str],
    games: int,
    think: float,
    outage_seconds: float,
    running: PostgresServer | None,
) -> list[Outcome]:
    outcomes = []
    own_postgres = start_postgres() if running is None else contextlib.nullcontext(running)
    with own_postgres as postgres:
        for fault in faults:
            print(f"\n{fault} ...", flush=True)
            with _RestartableRedis() as redis:
                database = postgres.url(postgres.new_database())
                load = _Load(games, think, outage_seconds)
                outcomes.append(await _inject(fault, redis, postgres, database, load))
    return outcomes


class _RestartableRedis:
    """A private ``redis-server`` without persistence that :meth:`restart` stops
    and starts again, empty, on the same port."""

    def __init__(self) -> None:
        self.server = RedisServer(free_port())
        self._folder = tempfile.TemporaryDirectory(prefix="boardroom-bench-redis-")
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> _RestartableRedis:
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            stop_process(self._process)
        self._folder.cleanup()

    def _start(self) -> None:
        folder = Path(self._folder.name)
        command = [
            "redis-server", "--port", str(self.server.port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(folder),
            "--logfile", str(folder / "redis.log"),
        ]  # fmt: skip
        self._process = subprocess.Popen(command, stdout=subprocess.DEVNULL)  # noqa: S603 - our arguments
        for _ in range(200):
            with contextlib.suppress(subprocess.CalledProcessError):
                if self.server.command("PING").strip() == "PONG":
                    return
            time.sleep(0.05)
        raise ServiceError("redis-server did not start")

    def restart(self) -> None:
        assert self._process is not None
        stop_process(self._process)
        self._start()


@contextlib.asynccontextmanager
async def _cluster(
    redis: RedisServer, database: str
) -> AsyncIterator[list[tuple[LocalProcess, str]]]:
    """Two processes of a new cluster on one port: (process, its node id)."""
    name = f"faults-{secrets.token_hex(3)}"
    flags = [
        "--pool-size", "1", "--engine", "python", "--database", database,
        "--cluster", redis.url, "--cluster-name", name,
        "--reuse-port", "--max-connections-per-address", "1000",
        "--max-rooms-per-address", "0",
    ]  # fmt: skip

    def nodes() -> set[str]:
        return set(redis.command("SMEMBERS", f"{name}:nodes").split())

    async with contextlib.AsyncExitStack() as stack:
        first = await stack.enter_async_context(
            local_process("boardroom.server", flags, own_session=True, label="server process 1")
        )
        (first_node,) = nodes()
        second = await stack.enter_async_context(
            local_process(
                "boardroom.server",
                [*flags, "--port", str(first.port)],
                own_session=True,
                label="server process 2",
            )
        )
        (second_node,) = nodes() - {first_node}
        yield [(first, first_node), (second, second_node)]


async def _start_bot(url: str, name: str, entry: Entry, think: float, start: asyncio.Event) -> _Bot:
    session = Session(url, name, client_kind="bot", reconnect_for=GAMES_END_WITHIN_S)
    waits: list[float] = []
    session.on_saving_paused = waits.append
    await session.start()
    heard: list[tuple[float, SessionEvent]] = []
    listener = asyncio.create_task(_listen(session.subscribe(), heard))
    brains = _SlowRandomBrains(think, start)
    report = Report(out=io.StringIO(), err=io.StringIO())
    runner = BotRunner(session, brains, RunOptions(entry=entry, games=1, move_timeout=30), report)
    return _Bot(session, asyncio.create_task(runner.run()), listener, heard, waits)


@dataclass(frozen=True)
class _Load:
    games: int
    think: float
    outage_seconds: float


async def _inject(
    fault: str, redis: _RestartableRedis, postgres: PostgresServer, database: str, load: _Load
) -> Outcome:
    think = load.think
    # Every game is seated before any bot moves: on a loaded machine seating 20
    # pairs takes seconds, and a game started first could otherwise end before
    # the last has its moves, and meet no fault.
    start = asyncio.Event()
    async with _cluster(redis.server, database) as processes:
        url = f"ws://127.0.0.1:{processes[0][0].port}/ws"
        pairs: list[tuple[_Bot, _Bot, str]] = []
        try:
            for number in range(load.games):
                create = Entry("create", game=GAME)
                creator = await _start_bot(url, f"c{number}", create, think, start)
                while not creator.session.rooms:
                    await asyncio.sleep(0.02)
                (code,) = creator.session.rooms
                join = Entry("join", code=code)
                joiner = await _start_bot(url, f"j{number}", join, think, start)
                pairs.append((creator, joiner, code))
            start.set()
            while not all(_ready(creator, code) for creator, _, code in pairs):
                await asyncio.sleep(0.05)
            if fault == "kill":
                owners = [_owner(redis.server, code) for _, _, code in pairs]
                victim, _ = max(processes, key=lambda pair: owners.count(pair[1]))
                with contextlib.suppress(ProcessLookupError):
                    os.kill(victim.pid, signal.SIGKILL)
            elif fault == "redis":
                redis.restart()
            else:
                with postgres.frozen():
                    await asyncio.sleep(load.outage_seconds)
            over = time.monotonic()  # the fault is over: Redis or PostgreSQL answers again
            tasks = [bot.task for pair in pairs for bot in pair[:2]]
            await asyncio.wait(tasks, timeout=GAMES_END_WITHIN_S)
            return await _count(fault, pairs, over, url)
        finally:
            for creator, joiner, _ in pairs:
                for bot in (creator, joiner):
                    for task in (bot.task, bot.listener):
                        task.cancel()
                        with contextlib.suppress(BaseException):
                            await task
                    await bot.session.close()


def _ready(bot: _Bot, code: str) -> bool:
    """Whether room ``code``'s game has its moves before the fault, or is over
    (its room is gone from the session: waiting for its moves would never end)."""
    room = bot.session.rooms.get(code)
    return room is None or len(room.state.moves.replace(" ", "")) >= PLIES_BEFORE_FAULT


def _owner(redis: RedisServer, code: str) -> str:
    """The node that owns room ``code``, as the directory says."""
    keys = redis.command("KEYS", f"*:room:{code}").split()
    return redis.command("HGET", keys[0], "owner").strip() if keys else ""


async def _count(fault: str, pairs: list[tuple[_Bot, _Bot, str]], at: float, url: str) -> Outcome:
    base = url.replace("ws://", "http://").removesuffix("/ws")
    acknowledged = lost_moves = 0
    why: list[str] = []
    longest = 0.0
    first_after = float("inf")
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        for creator, joiner, code in pairs:
            heard = [item for bot in (creator, joiner) for item in bot.heard]
            overs = [event for _, event in heard if isinstance(event, GameOver)]
            lost_seat = any(
                isinstance(event, Reconnected) and code in event.lost_rooms
                for _, event in heard
                if not overs
            )
            told: dict[int, tuple[float, str]] = {}
            for when, event in heard:
                if isinstance(event, Moved) and event.room == code:
                    told.setdefault(event.ply, (when, event.move))
            acknowledged += len(told)
            times = sorted(when for when, _ in told.values())
            longest = max([longest, *(b - a for a, b in itertools.pairwise(times))])
            first_after = min([first_after, *(when for when in times if when > at)])
            if not overs:
                why.append(f"{code}: not ended ({len(told)} moves)")
            elif lost_seat or overs[0].result.reason == "abandonment":
                why.append(f"{code}: {'a seat lost' if lost_seat else 'abandoned'}")
            if not overs or overs[0].game_id is None:
                continue  # no record to read: the game counts as lost, its moves not
            async with http.get(f"{base}/api/games/{overs[0].game_id}") as answer:
                body = await answer.json() if answer.status == 200 else {"moves": []}
            stored = [move["move"] for move in body["moves"]]
            missing = [ply for ply, (_, move) in told.items() if stored[ply : ply + 1] != [move]]
            if missing:
                why.append(f"{code}: plies {missing} told but not stored")
            lost_moves += len(missing)
    recovered = first_after - at if first_after != float("inf") else float("nan")
    lost_games = len({line.split(":")[0] for line in why if "not stored" not in line})
    waits = sum(len(bot.storage_waits) for pair in pairs for bot in pair[:2])
    return Outcome(
        fault,
        len(pairs),
        lost_games,
        acknowledged,
        lost_moves,
        longest,
        recovered,
        waits,
        tuple(why),
    )


def render(outcomes: list[Outcome]) -> str:
    lines = [
        "| fault | games | games lost | moves acknowledged | moves lost | longest pause s "
        "| first move after the fault's end s | waits for storage |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for o in outcomes:
        lines.append(
            f"| {o.fault} | {o.games} | {o.lost_games} | {o.acknowledged_moves} | {o.lost_moves} "
            f"| {o.longest_pause_s:.1f} | {o.recovered_s:.1f} | {o.storage_waits} |"
        )
    for o in outcomes:
        if o.why:  # figures are read with their failures, never without them
            lines.append(f"Lost, {o.fault}: {'; '.join(o.why)}")
    return "\n".join(lines)
