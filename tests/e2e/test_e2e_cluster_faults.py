"""End to end: faults of a cluster under play, and what they must not cost.

Real ``boardroom serve`` children on the test's own Redis and a new PostgreSQL
database (tests/services.py), and real bots: the bot SDK's
:class:`~boardroom.client.session.Session` driven by its
:class:`~boardroom.client.bots.runner.BotRunner`, as ``boardroom bot`` runs it.
Each fault is injected mid-game; the tests assert what issue 28 asks: every
game finishes, every move a player was told of (``moved``) is in the stored
record, no seat is lost, no game ends in abandonment.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cluster_helpers import (
    SharedPort,
    published_once_more,
    published_so_far,
    reply_lost_while_unsubscribed,
    two_processes,
)
from cluster_helpers import shared_port as cluster_shared_port
from harness import Player, ServerProcess
from services import PostgresServer, RedisServer, start_redis, stop_process
from terminal_helpers import client_process

from boardroom.client.bots.loader import load_script
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import BotRunner, Entry, RunOptions
from boardroom.client.session import Reconnected, Session, SessionEvent
from boardroom.server.store import open_store
from boardroom.shared.protocol.messages import GameOver, Moved, Watch

PAIRS = 6
SPECTATORS = 2
"""Spectators of each game, each through the shared port."""
"""Games played at once: with both processes of one port taking bots, the
kernel's choice puts rooms and players in each of them (the chance that it gives
all twelve bots one process is 2 x 2**-12)."""
SLOW_BOT = """
import asyncio
import random


async def choose_move(state):
    # Slow enough that the fault falls in the middle of every game.
    await asyncio.sleep(0.3)
    return random.choice(state.winning_moves() or state.legal_moves)
"""
GAMES_END_WITHIN_S = 60.0
"""How long the games may take after the fault (they take about 5 s without one)."""


@dataclass
class Bot:
    """One bot playing one game, and everything its session heard."""

    session: Session
    runner: BotRunner
    events: asyncio.Queue[SessionEvent]
    report: Report
    task: asyncio.Task[None] | None = None
    heard: list[SessionEvent] = field(default_factory=list)

    def drain(self) -> list[SessionEvent]:
        while not self.events.empty():
            self.heard.append(self.events.get_nowait())
        return self.heard


async def start_bot(url: str, name: str, script: Path, entry: Entry) -> Bot:
    session = Session(url, name, client_kind="bot", reconnect_for=60.0)
    await session.start()
    events = session.subscribe()
    brains = ScriptBrains(load_script(script), hook_timeout=5)
    await brains.open()
    report = Report(out=io.StringIO(), err=io.StringIO())
    runner = BotRunner(session, brains, RunOptions(entry=entry, games=1, move_timeout=10), report)
    bot = Bot(session, runner, events, report)
    bot.task = asyncio.create_task(runner.run())
    return bot


def shared_port(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> contextlib.AbstractAsyncContextManager[SharedPort]:
    """The two processes of the fault tests, killed at the end whatever their state."""
    return cluster_shared_port(redis_server, postgres_server, stop=signal.SIGKILL)


async def open_rooms(url: str, script: Path) -> list[tuple[Bot, str]]:
    """:data:`PAIRS` rooms of Connect Four, each opened by a bot: (creator, room code)."""
    rooms = []
    for number in range(PAIRS):
        creator = await start_bot(url, f"c{number}", script, Entry("create", game="connect4"))
        for _ in range(200):
            if creator.session.rooms:
                break
            await asyncio.sleep(0.05)
        (code,) = creator.session.rooms
        rooms.append((creator, code))
    return rooms


async def start_games(
    url: str, script: Path, rooms: list[tuple[Bot, str]]
) -> list[tuple[Bot, Bot, str]]:
    """Each room's second bot joins it, and its game starts: (creator, joiner, code)."""
    pairs = []
    for index, (creator, code) in enumerate(rooms):
        joiner = await start_bot(url, f"j{index}", script, Entry("join", code=code))
        pairs.append((creator, joiner, code))
    return pairs


async def mid_game(pairs: list[tuple[Bot, Bot, str]], plies: int) -> None:
    """Until every game has ``plies`` moves."""

    def played(bot: Bot, code: str) -> int:
        room = bot.session.rooms.get(code)
        return 0 if room is None else len(room.state.moves.replace(" ", ""))

    while any(played(creator, code) < plies for creator, _, code in pairs):
        await asyncio.sleep(0.05)


async def spectators(url: str, rooms: list[tuple[Bot, str]]) -> list[tuple[Session, str]]:
    """:data:`SPECTATORS` SDK sessions watching each room: (session, room code)."""
    watching = []
    for number, (_, code) in enumerate(rooms):
        for seat in range(SPECTATORS):
            session = Session(url, f"s{number}x{seat}", client_kind="spectator", reconnect_for=60)
            await session.start()
            watching.append((session, code))
            await session.request(Watch(code=code))
    return watching


async def check_spectators(watching: list[tuple[Session, str]]) -> None:
    """Every spectator saw its game end (re-attached, or told and watching again)."""

    async def game_over(session: Session, code: str) -> None:
        while (room := session.rooms.get(code)) is None or room.state.status != "finished":
            await asyncio.sleep(0.1)

    waits = [asyncio.create_task(game_over(session, code)) for session, code in watching]
    await asyncio.wait(waits, timeout=15)
    blind = []
    for wait, (session, code) in zip(waits, watching, strict=True):
        if not wait.done():
            wait.cancel()
            blind.append((session.name, code))
    assert not blind, f"spectators who did not see their game end: {blind}"


async def check_games(pairs: list[tuple[Bot, Bot, str]], database: str) -> None:
    """Every game ended on the board (no abandonment), no bot lost its seat,
    and each stored record holds every move the bots were told of."""
    bots = [bot for creator, joiner, _ in pairs for bot in (creator, joiner)]
    tasks = [bot.task for bot in bots if bot.task is not None]
    started = time.monotonic()
    done, pending = await asyncio.wait(tasks, timeout=GAMES_END_WITHIN_S)
    print(f"games over {time.monotonic() - started:.1f} s after the fault")
    lost: dict[str, list[str]] = {}
    for bot in bots:
        over: set[str] = set()
        for event in bot.drain():
            if isinstance(event, GameOver):
                over.add(event.room)  # a finished game's room need not come back
            elif isinstance(event, Reconnected) and set(event.lost_rooms) - over:
                lost[bot.session.name] = event.lost_rooms
    assert not lost, f"seats lost on reconnecting: {lost}"
    assert not pending, f"{len(pending)} bots still playing {GAMES_END_WITHIN_S} s after the fault"
    for task in done:
        task.result()  # a run that failed says why
    async with open_store(database) as store:
        for creator, joiner, code in pairs:
            overs = [e for bot in (creator, joiner) for e in bot.drain() if isinstance(e, GameOver)]
            assert overs, f"room {code}: no game_over"
            over = overs[0]
            assert over.result.reason != "abandonment", (code, over.result)
            assert over.game_id is not None
            record = await store.get_game(over.game_id)
            stored = [move.move for move in record.moves]
            # Connect Four's moves are written without spaces (one digit each).
            assert over.moves in (" ".join(stored), "".join(stored)), (code, over.moves, stored)
            told = {
                (e.ply, e.move)
                for bot in (creator, joiner)
                for e in bot.drain()
                if isinstance(e, Moved) and e.room == code
            }
            missing = sorted(m for m in told if m[0] >= len(stored) or stored[m[0]] != m[1])
            assert not missing, f"room {code}: acknowledged moves not stored: {missing}"


async def stop_bots(pairs: list[tuple[Bot, Bot, str]]) -> None:
    for creator, joiner, _ in pairs:
        for bot in (creator, joiner):
            bot.runner.stop()
            if bot.task is not None and not bot.task.done():
                bot.task.cancel()
                with contextlib.suppress(BaseException):
                    await bot.task
            await bot.session.close()


@pytest.fixture
def slow_bot(tmp_path: Path) -> Path:
    script = tmp_path / "slow_bot.py"
    script.write_text(SLOW_BOT)
    return script


async def test_kill_9_mid_game_loses_no_seat_and_no_move(
    redis_server: RedisServer, postgres_server: PostgresServer, slow_bot: Path
) -> None:
    """Issue 28, item 3: one process of a shared port is killed (SIGKILL) while
    six games are played through both; the bots connected to it reconnect at
    once to the same address (so to the survivor), before its takeover of the
    dead one's rooms. Each is held or told to retry, never welcomed without its
    seat: every game is played to its end, with every move."""
    async with shared_port(redis_server, postgres_server) as cluster:
        rooms = await open_rooms(cluster.ws_url, slow_bot)
        watching = await spectators(cluster.ws_url, rooms)
        pairs = [(creator, creator, code) for creator, code in rooms]  # until the joiners come
        try:
            pairs = await start_games(cluster.ws_url, slow_bot, rooms)
            owners = [await cluster.owner(code) for _, _, code in pairs]
            await mid_game(pairs, 2)
            # Kill the process that owns the most rooms (it owns some, most likely).
            victim = max((0, 1), key=lambda index: owners.count(cluster.nodes[index]))
            await cluster.processes[victim].stop(signal.SIGKILL)
            try:
                await check_games(pairs, cluster.database)
                await check_spectators(watching)
            except AssertionError:
                survivor = cluster.processes[1 - victim]
                print(f"the survivor's log ends:\n{survivor.log.read_text()[-6000:]}")
                raise
        finally:
            await stop_bots(pairs)
            for session, _ in watching:
                await session.close()


LINE_GAME = ("a1", "a2", "b1", "b2", "c1")
"""X wins along the bottom row."""


async def seated(ann_url: str, bob_url: str) -> tuple[Player, Player, str]:
    """Ann opens a tic-tac-toe room through ``ann_url``, Bob joins it through
    ``bob_url``, and they play the first two moves."""
    ann = await Player.join_server(ann_url, "ann")
    code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
    bob = await Player.join_server(bob_url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["type"] == "state", joined
    await play_on((ann, bob), code, LINE_GAME[:2])
    return ann, bob, code


async def play_on(players: tuple[Player, Player], code: str, moves: tuple[str, ...]) -> None:
    """Each move by the side to move (Ann at even plies), answered ``moved``."""
    for move in moves:
        ply = LINE_GAME.index(move)
        reply = await players[ply % 2].request({"type": "move", "room": code, "move": move})
        assert reply["type"] == "moved", (code, move, reply)


async def test_a_redis_restart_mid_game_pauses_the_games_and_keeps_the_rooms(
    postgres_server: PostgresServer,
) -> None:
    """Issue 28, item 1: the cluster's Redis restarts empty while games are
    played with players on both processes. Each process puts back what it owns
    (rooms, codes, lobby lines, sessions): the games go on and finish, and a
    room opened before the restart is still listed and joined from the other
    process; a player who resumes through the other process keeps his seat."""
    database = postgres_server.new_database()
    with start_redis() as before:
        flags = ("--cluster", before.url, "--cluster-name", "restart", "--engine", "python")
        first = await ServerProcess.start(database, *flags)
        second = await ServerProcess.start(database, *flags)
        try:
            games = [await seated(first.ws_url, second.ws_url) for _ in range(2)]
            games += [await seated(second.ws_url, first.ws_url) for _ in range(2)]
            host = await Player.join_server(first.ws_url, "host")
            waiting = (await host.request({"type": "create_room", "game": "tictactoe"}))["room"]
            stop_process(before.process)
            with start_redis(before.port):
                # Ann (of A's room, connected to A) resumes through B, which must
                # find her session in the new Redis.
                ann, bob, code = games[0]
                await ann.close()
                back = await Player.connect(second.ws_url)
                welcome = await back.request(
                    {"type": "hello", "name": "ann", "version": 1, "resume_token": ann.token}
                )
                assert welcome.get("resumed_rooms") == [code], welcome
                games[0] = (back, bob, code)
                for ann, bob, code in games:
                    await play_on((ann, bob), code, LINE_GAME[2:])
                    for player in (ann, bob):
                        over = await player.expect("game_over")
                        assert over["moves"] == " ".join(LINE_GAME), over
                guest = await Player.join_server(second.ws_url, "guest")
                listed = await guest.request({"type": "list_rooms"})
                assert waiting["code"] in [room["code"] for room in listed["rooms"]], listed
                joined = await guest.request({"type": "join", "code": waiting["code"]})
                assert joined["type"] == "state", joined
        finally:
            for process in (first, second):
                await process.stop(signal.SIGKILL)


async def test_what_is_published_while_a_subscription_is_down_reaches_its_player(
    postgres_server: PostgresServer,
) -> None:
    """Issue 28, item 1: a room's traffic published to a process whose
    subscription is down (its pub/sub connection killed while the process is
    stopped, so that it cannot subscribe again) reached nobody and was lost.
    Once subscribed again, the process gets its players' rooms' whole state
    from their owner and sends their last moves again: the opponent's move and
    the reply to one's own move come at once, not after a 30 s reply timeout."""
    async with two_processes(postgres_server, "resync") as (first, second, redis):
        # Ann's room lives in the first process; Bob plays it through the second.
        ann, bob, code = await seated(first.ws_url, second.ws_url)
        # Ann's move, published to the second process while it is unsubscribed.
        second.process.send_signal(signal.SIGSTOP)
        try:
            await redis.client_kill_filter(_type="pubsub")
            before = await published_so_far(redis)
            reply = await ann.request({"type": "move", "room": code, "move": "b1"})
            assert reply["type"] == "moved", reply
            await published_once_more(redis, before)
        finally:
            second.process.send_signal(signal.SIGCONT)
        state = await bob.expect("state", timeout=10)  # far below a 30 s timeout
        assert state["room"]["moves"] == "a1 a2 b1", state
        # The reply to Bob's move: the owner (stopped) gets it, then answers
        # while the second process is stopped and unsubscribed.
        move = {"type": "move", "room": code, "move": "b2", "ply": 3, "id": 77}
        await reply_lost_while_unsubscribed(first, second, redis, lambda: bob.send(move))
        answer = await bob.expect("error", timeout=10, id=77)  # made: now stale
        assert answer["code"] == "stale_move", answer
        await play_on((ann, bob), code, LINE_GAME[4:])
        for player in (ann, bob):
            over = await player.expect("game_over")
            assert over["moves"] == " ".join(LINE_GAME), over


async def spectators_seen(player: Player, code: str) -> int | None:
    """How many watch ``code``, as the lobby lists it (None: not listed)."""
    listed = await player.request({"type": "list_rooms"})
    counts = [room["spectators"] for room in listed["rooms"] if room["code"] == code]
    return counts[0] if counts else None


async def test_a_spectator_whose_process_died_sees_the_end_of_a_game_over_meanwhile(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """Cat watches, through the second process, a room of the first. The second
    is killed (SIGKILL); the game ends meanwhile and both players leave. When
    the first takes the dead one's sessions for gone (its takeover), Cat was
    the room's last member: the room closed at once, and Cat, back through the
    first and watching again, got ``unknown_room`` and never saw the end (the
    kill -9 test's flaky "spectators who did not see their game end"). The room
    is kept for a dropped spectator's grace window: Cat sees the finished game."""
    database = postgres_server.new_database()
    name = f"spectator-{secrets.token_hex(4)}"
    flags = ("--cluster", redis_server.url, "--cluster-name", name, "--engine", "python")
    first = await ServerProcess.start(database, *flags)
    second = await ServerProcess.start(database, *flags)
    try:
        ann, bob, code = await seated(first.ws_url, first.ws_url)
        cat = await Player.join_server(second.ws_url, "cat", client="spectator")
        watched = await cat.request({"type": "watch", "code": code})
        assert watched["type"] == "state", watched
        await second.stop(signal.SIGKILL)
        await play_on((ann, bob), code, LINE_GAME[2:])
        for player in (ann, bob):
            await player.expect("game_over")
        # The takeover: the first process takes Cat (of the dead process) for gone.
        while await spectators_seen(ann, code) != 0:
            await asyncio.sleep(0.1)
        for player in (ann, bob):
            left = await player.request({"type": "leave", "room": code})
            assert left["type"] == "left", left
        back = await Player.join_server(first.ws_url, "cat", client="spectator", token=cat.token)
        again = await back.request({"type": "watch", "code": code})
        assert again["type"] == "state", again
        assert again["room"]["status"] == "finished", again
        assert again["room"]["moves"] == " ".join(LINE_GAME), again
        assert again["room"]["result"]["winner"] == "first", again
    finally:
        for process in (first, second):
            await process.stop(signal.SIGKILL)


STALE = re.compile(r"position changed|is not the current one")
"""The terminal's words for a ``stale_move`` (its own, or the server's message)."""


async def test_the_terminal_says_nothing_against_its_own_move_made_whose_reply_was_lost(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """Bob plays in the terminal through the second process, Ann's room being
    the first's. The reply to Bob's move is published while the second's
    subscription is down: once subscribed again, it resyncs (the room's whole
    state, then the move sent again, refused as ``stale_move`` since it was
    made). The terminal showed that refusal ("The position changed before your
    move arrived", or the server's "Ply 3 is not the current one") for a move
    that was played; now it says nothing of it: the state that came first shows
    the move made."""
    async with two_processes(postgres_server, "stale") as (first, second, redis):
        ann = await Player.join_server(first.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        async with client_process(
            "play", "--server", second.ws_url, "--name", "bob", config_home=tmp_path
        ) as bob:
            bob.send(f"join {code.lower()}", "a2")
            await ann.expect("state")  # Bob sat down: the game started
            await play_on((ann, ann), code, ("a1",))
            await ann.expect("moved", move="a2")
            await play_on((ann, ann), code, ("b1",))
            await bob.expect(r"played b1")
            await bob.expect(r"your move")
            # Bob's b2 reaches the owner, stopped; its reply is published
            # while the second process is stopped and unsubscribed.
            await reply_lost_while_unsubscribed(first, second, redis, lambda: bob.send("b2"))
            # The board is drawn once the move's answer is dealt with: the
            # status line after it comes after any word about that answer.
            await bob.expect(r"X to move", timeout=10)
            assert not STALE.search(bob.transcript), bob.transcript
            await play_on((ann, ann), code, ("c1",))
            await bob.expect(r"Result: ")
            assert not STALE.search(bob.transcript), bob.transcript


async def test_a_spectator_of_a_room_elsewhere_keeps_its_connection_through_a_resync(
    postgres_server: PostgresServer,
) -> None:
    """Cat watches, through the second process, Ann and Bob's room on the first
    (by its join code: the room is private). A move is published while the
    second's subscription is down, and lost to Cat. Once subscribed again, the
    second process closed Cat's connection (1012) for the client to watch
    again; now it watches again for Cat: the room's whole state comes, on the
    same connection, and the game's next moves after it."""
    async with two_processes(postgres_server, "watching") as (first, second, redis):
        ann = await Player.join_server(first.ws_url, "ann")
        private = {"type": "create_room", "game": "tictactoe", "public": False}
        opened = await ann.request(private)
        code, join_code = opened["room"]["code"], opened["room"]["join_code"]
        bob = await Player.join_server(first.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": join_code})
        assert joined["type"] == "state", joined
        cat = await Player.join_server(second.ws_url, "cat", client="spectator")
        watched = await cat.request({"type": "watch", "code": join_code, "id": 5})
        assert watched["type"] == "state", watched
        await play_on((ann, bob), code, LINE_GAME[:2])
        second.process.send_signal(signal.SIGSTOP)
        try:
            await redis.client_kill_filter(_type="pubsub")
            before = await published_so_far(redis)
            await play_on((ann, bob), code, LINE_GAME[2:3])  # b1, lost to Cat
            await published_once_more(redis, before)
        finally:
            second.process.send_signal(signal.SIGCONT)
        state = await cat.expect("state", timeout=10, id="resync")
        assert state["room"]["moves"] == " ".join(LINE_GAME[:3]), state
        await play_on((ann, bob), code, LINE_GAME[3:])
        over = await cat.expect("game_over")
        assert over["moves"] == " ".join(LINE_GAME), over
        assert cat.ws.close_code is None  # never closed
