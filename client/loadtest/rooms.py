"""The simulated rooms: what the clients of one room do, from joining to the end.

- :class:`PairRoom`: two players, one creates a private room and the other joins
  it with its join code; spectators watch with the watch code. They play random
  legal moves, each after the think time, rematch, and play again.
- :class:`AiRoom`: one player against the server's AI, rematching likewise.
- :class:`EchoRoom`: two raw clients against an echo server, taking turns to send
  a frame the size of a ``move`` and wait for it to come back: the same pattern
  of one frame in flight per room as a game, without the game.

Every room runs until the run's deadline. Its clients' frames arrive in one
inbox, in order, stamped with their arrival time; the room waits there for what
it expects (:meth:`RoomBase.expect_all`). A move's latency is from sending it to
the opponent receiving ``moved`` (both clients live in this process: one clock).

How a game ends, for the report: *finished* (``game_over`` came), *cut short*
(in progress and healthy when time was up: the room stops before its next move)
or *lost* (a client was dropped, a reply did not come within
:data:`STALL_SECONDS`, the AI's move within :data:`AI_STALL_SECONDS`, or a
request was refused). After a lost game the room
closes its clients and starts over with new ones, unless the server refused
the connections for good (``too_many_connections``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from websockets.exceptions import ConnectionClosed

from boardroom.client.loadtest.connection import ABNORMAL_CLOSE, LoadClient
from boardroom.client.loadtest.errors import ConnectFailedError, RoomFailedError
from boardroom.client.loadtest.run_clock import RunClock
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.client.pacing import Pacer
from boardroom.shared.games import Game, Player, Position, get_game
from boardroom.shared.protocol import encode_message
from boardroom.shared.protocol.messages import (
    CreateRoom,
    Error,
    GameOver,
    Join,
    Level,
    MakeMove,
    Moved,
    Rematch,
    State,
    Watch,
)

STALL_SECONDS = 15.0
"""How long a room waits for an expected message before it counts the game as
lost: longer than any AI search (``perfect`` thinks up to 3 s) plus the backlog
of a heavily loaded server, which answers late rather than never."""
AI_STALL_SECONDS = 60.0
"""How long a room waits for the server AI's move before it counts the game as
lost: searches queue for the engine's workers, and a few ``perfect`` players
on one worker make each other wait for many seconds (which the AI reply latency
shows; that is slow, not stuck)."""
RETRY_PAUSE = 2.0
"""Seconds between a room's failure and its fresh start, so that a server in
trouble is not hammered with reconnections."""
REFUSED_FOR_GOOD = "too_many_connections"
"""A connect failure that retrying cannot cure during the run: the server's cap."""


@dataclass
class RoomSetting:
    """What every room of one worker shares."""

    urls: tuple[str, ...]
    """The servers (one, or a cluster's processes): :func:`server_for`."""
    game: str
    stats: WorkerStats
    clock: RunClock
    think: float
    rate: float | None
    burst: int
    spectators: int = 0
    ai_level: Level = Level.EASY
    echo_frame: str = ""
    rng: random.Random = field(default_factory=random.Random)
    handshakes: asyncio.Semaphore | None = None
    """Held while a client connects: bounds the handshakes in flight."""


def server_for(urls: tuple[str, ...], room: int, seat: int) -> str:
    """The server of the ``seat``-th client (0: the room's opener, 1: its
    opponent, then the spectators) of room number ``room``, out of ``urls``.

    As a port shared by a cluster's processes would, every client lands on any
    server alike, independently of the others: the seat's digit in the room's
    number written in base ``len(urls)``. So over every ``len(urls)**2`` rooms
    each server opens as many rooms, and the two players sit on different
    servers in all but one in ``len(urls)`` of them (half, for two servers;
    three quarters, for four): most moves go through the cluster's relay, as
    they do in production.

    >>> [server_for(("A", "B"), room, 0) + server_for(("A", "B"), room, 1) for room in range(4)]
    ['AA', 'BA', 'AB', 'BB']
    """
    place: int = len(urls) ** seat
    return urls[room // place % len(urls)]


Arrival = tuple[LoadClient, object, float]
Wanted = Callable[[LoadClient, object], bool]


class _TimeUpError(Exception):
    """The run's time was up while the room waited for something slow to come
    (the AI's move): the game is cut short, not lost."""


@dataclass(frozen=True)
class _Ended:
    """Put in the inbox when a client's connection ends without our asking."""

    code: int


class RoomBase:
    """A room's clients and the inbox their frames arrive in."""

    def __init__(self, setting: RoomSetting, number: int) -> None:
        self.setting = setting
        self.stats = setting.stats
        self.clock = setting.clock
        self.number = number
        """The room's number in the run (from 0), which places its clients."""
        self.label = f"lt{number}"
        self.in_game = False
        """True from asking for a game (join, rematch) until it ends: a failure
        meanwhile loses the game."""
        self.sent_at: dict[int, float] = {}
        """When each ply of the current game was sent."""
        self._inbox: asyncio.Queue[Arrival] = asyncio.Queue()
        self._clients: list[LoadClient] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Play until the deadline, starting over after each failure."""
        while not self.clock.over:
            try:
                await self.play()
                return
            except ConnectFailedError as failure:
                self.stats.connect_errors[failure.reason] += 1
                if failure.reason == REFUSED_FOR_GOOD:
                    return
            except RoomFailedError as failure:
                self.stats.room_failures[failure.reason] += 1
                if self.in_game:
                    self.stats.games_lost += 1
            finally:
                self.in_game = False
                await self.close()
            await self.clock.pause(RETRY_PAUSE)

    async def play(self) -> None:
        """Open the clients and play until time is up."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close every client cleanly and forget them."""
        for task in self._tasks:
            task.cancel()
        clients, self._clients = self._clients, []
        await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)
        self._inbox = asyncio.Queue()
        self.sent_at.clear()

    async def connect(self, role: str, *, raw: bool = False) -> LoadClient:
        """A new client of this room, open (and greeted unless raw)."""
        setting = self.setting
        pacer = None
        if setting.rate is not None:
            # Start with one message in hand, not a full burst: otherwise the bursts
            # of every client are spent during the first seconds of the window, and
            # its rate is above what the pacing sustains.
            pacer = Pacer(setting.rate, setting.burst, initial_tokens=1.0)
        seat = len(self._clients)
        client = LoadClient(
            f"{self.label}{role[0]}{seat}",
            role,
            self.stats,
            on_frame=self._arrived,
            on_end=self._ended,
            pacer=pacer,
            raw=raw,
        )
        self._clients.append(client)
        await client.open(server_for(setting.urls, self.number, seat), setting.handshakes)
        return client

    async def send(self, client: LoadClient, text: str) -> float:
        """Send through ``client`` (paced); the time it went. A closed connection
        fails the room."""
        try:
            return await client.send(text)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else ABNORMAL_CLOSE
            raise RoomFailedError(f"closed {code}") from None

    async def expect_all(
        self, *wanted: Wanted, stall: float = STALL_SECONDS, until_deadline: bool = False
    ) -> list[Arrival]:
        """Wait until each of ``wanted`` has matched an arrival (each takes the first
        one it matches, in order of arrival); return them in the order of ``wanted``.

        Every other arrival is looked at and dropped: errors are counted (a
        ``rate_limited`` one has the client's last frame sent again after the
        ``retry_after``; any other fails the room), spectators' ``moved`` are
        timed. :class:`RoomFailedError` if a connection ends, or if all that is
        wanted has not come within ``stall`` seconds; with ``until_deadline``,
        :class:`_TimeUpError` if the run's time is up first.
        """
        found: list[Arrival | None] = [None] * len(wanted)
        missing = len(wanted)
        give_up = time.monotonic() + stall
        while missing:
            limit = min(give_up, self.clock.deadline) if until_deadline else give_up
            try:
                async with asyncio.timeout(max(0.0, limit - time.monotonic())):
                    arrival = await self._inbox.get()
            except TimeoutError:
                # Judge by which limit was set, not by the clock now: a timer may
                # fire a little early (uvloop's have millisecond resolution), and
                # the run's end must not then count as a stall.
                if until_deadline and self.clock.deadline <= give_up:
                    raise _TimeUpError from None
                raise RoomFailedError("stalled") from None
            client, message, at = arrival
            if isinstance(message, _Ended):
                raise RoomFailedError(f"closed {message.code}")
            if isinstance(message, Error):
                self._refused(client, message)
                continue
            for index, wants in enumerate(wanted):
                if found[index] is None and wants(client, message):
                    found[index] = arrival
                    missing -= 1
                    break
            else:
                self._noticed(client, message, at)
        return [arrival for arrival in found if arrival is not None]

    def count_move(self, at: float) -> None:
        """A ply (or an echo) made, confirmed by a frame that arrived ``at``."""
        self.stats.moves += 1
        if self.clock.in_window(at):
            self.stats.moves_in_window += 1

    def _arrived(self, client: LoadClient, message: object, at: float) -> None:
        self._inbox.put_nowait((client, message, at))

    def _ended(self, client: LoadClient, code: int) -> None:
        self._inbox.put_nowait((client, _Ended(code), time.monotonic()))

    def _refused(self, client: LoadClient, error: Error) -> None:
        self.stats.errors[error.code] += 1
        if error.code != "rate_limited" or client.last_sent is None:
            raise RoomFailedError(f"error {error.code}")
        # The frame was dropped unread: send it again once the server allows it.
        delay = error.retry_after or 0.05
        self._spawn(self._send_later(client, client.last_sent, delay))

    async def _send_later(self, client: LoadClient, text: str, delay: float) -> None:
        await asyncio.sleep(delay)
        # A closed connection: the reader has seen it too, and the room fails on its _Ended.
        with contextlib.suppress(ConnectionClosed):
            await client.send(text)

    def _noticed(self, client: LoadClient, message: object, at: float) -> None:
        if (
            client.role == "spectator"
            and isinstance(message, Moved)
            and self.clock.in_window(at)
            and (sent := self.sent_at.get(message.ply)) is not None
        ):
            self.stats.spectator_latency.record(at - sent)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _is_reply(client: LoadClient, request_id: int) -> Wanted:
    return lambda c, m: c is client and isinstance(m, State) and m.id == request_id


def _game_start(client: LoadClient, number: int) -> Wanted:
    """``client`` gets the ``state`` of game ``number`` in play."""

    def wants(c: LoadClient, m: object) -> bool:
        return (
            c is client
            and isinstance(m, State)
            and m.room.status == "playing"
            and m.room.game_number == number
        )

    return wants


def _moved(client: LoadClient, ply: int) -> Wanted:
    return lambda c, m: c is client and isinstance(m, Moved) and m.ply == ply


def _game_over(client: LoadClient) -> Wanted:
    return lambda c, m: c is client and isinstance(m, GameOver)


class _GameRoom(RoomBase):
    """What the rooms that play games share: the rules, the moves, the think time."""

    def __init__(self, setting: RoomSetting, number: int) -> None:
        super().__init__(setting, number)
        self.game: Game = get_game(setting.game)
        self.code = ""

    async def watchers(self, watch_code: str) -> None:
        """Open the spectators and have them watch with ``watch_code``."""
        for _ in range(self.setting.spectators):
            spectator = await self.connect("spectator")
            request_id = spectator.next_id()
            await self.send(spectator, encode_message(Watch(code=watch_code, id=request_id)))
            await self.expect_all(_is_reply(spectator, request_id))

    async def think(self) -> bool:
        """Pause for the think time; True if the run goes on."""
        think = self.setting.think
        if think <= 0:
            return not self.clock.over
        return await self.clock.pause(think * self.setting.rng.uniform(0.5, 1.5))

    def pick(self, position: Position) -> tuple[int, str]:
        """A random legal move in ``position``, and its notation."""
        move = self.setting.rng.choice(self.game.legal_moves(position))
        return move, self.game.format_move(move)

    async def send_move(self, mover: LoadClient, ply: int, text: str) -> float:
        """Send the move of ``ply``; the time it went."""
        frame = encode_message(MakeMove(room=self.code, move=text, ply=ply, id=mover.next_id()))
        # Arrivals are only read by this task, later: noting the time after the
        # send cannot miss the opponent's `moved`.
        sent = self.sent_at[ply] = await self.send(mover, frame)
        return sent

    def game_ended(self, finished: bool) -> None:
        """The game in progress ended: ``finished``, or cut short by the deadline."""
        self.in_game = False
        if finished:
            self.stats.games_finished += 1
        else:
            self.stats.games_cut_short += 1


class PairRoom(_GameRoom):
    """Two players (and the spectators) playing each other (module docstring)."""

    async def play(self) -> None:
        creator = await self.connect(Player.FIRST)
        joiner = await self.connect(Player.SECOND)
        request_id = creator.next_id()
        create = CreateRoom(game=self.setting.game, public=False, id=request_id)
        await self.send(creator, encode_message(create))
        ((_, created, _),) = await self.expect_all(_is_reply(creator, request_id))
        room = _message(created, State).room
        self.code = room.code
        assert room.join_code is not None and room.watch_code is not None
        self.in_game = True
        self.stats.games_started += 1
        request_id = joiner.next_id()
        await self.send(joiner, encode_message(Join(code=room.join_code, id=request_id)))
        starts = await self.expect_all(_game_start(creator, 1), _game_start(joiner, 1))
        await self.watchers(room.watch_code)
        number = 1
        while True:
            first = next(c for c, m, _ in starts if _message(m, State).room.you is Player.FIRST)
            second = creator if first is joiner else joiner
            finished = await self.play_game(first, second)
            self.game_ended(finished)
            if not finished or self.clock.over:
                return
            number += 1
            self.in_game = True
            self.stats.games_started += 1
            for player in (creator, joiner):
                rematch = Rematch(room=self.code, id=player.next_id())
                await self.send(player, encode_message(rematch))
            starts = await self.expect_all(
                _game_start(creator, number), _game_start(joiner, number)
            )

    async def play_game(self, first: LoadClient, second: LoadClient) -> bool:
        """Play one game to its end (True), or until time is up (False)."""
        # Cleared now, not at the last game's end: a spectator's copy of its last
        # move may still be in the inbox then.
        self.sent_at.clear()
        position = self.game.new()
        seats = (first, second)
        ply = 0
        while True:
            if not await self.think():
                return False
            mover, opponent = seats[ply % 2], seats[1 - ply % 2]
            move, text = self.pick(position)
            sent = await self.send_move(mover, ply, text)
            position = self.game.play_unchecked(position, move)
            over = self.game.outcome(position).is_over
            wanted = [_moved(opponent, ply)]
            if over:
                wanted += [_game_over(first), _game_over(second)]
            (_, _, at), *_ = await self.expect_all(*wanted)
            self.count_move(at)
            if self.clock.in_window(at):
                self.stats.move_latency.record(at - sent)
            if over:
                return True
            ply += 1


class AiRoom(_GameRoom):
    """One player against the server's AI (and the spectators)."""

    async def play(self) -> None:
        player = await self.connect(Player.FIRST)
        self.in_game = True
        self.stats.games_started += 1
        create = CreateRoom(
            game=self.setting.game,
            public=False,
            ai_level=self.setting.ai_level,
            id=player.next_id(),
        )
        await self.send(player, encode_message(create))
        ((_, started, _),) = await self.expect_all(_game_start(player, 1))
        room = _message(started, State).room
        self.code = room.code
        if room.watch_code is not None:
            await self.watchers(room.watch_code)
        number = 1
        while True:
            you = _message(started, State).room.you
            finished = await self.play_game(player, 0 if you is Player.FIRST else 1)
            self.game_ended(finished)
            if not finished or self.clock.over:
                return
            number += 1
            self.in_game = True
            self.stats.games_started += 1
            await self.send(player, encode_message(Rematch(room=self.code, id=player.next_id())))
            ((_, started, _),) = await self.expect_all(_game_start(player, number))

    async def play_game(self, player: LoadClient, seat: int) -> bool:
        """Play one game against the AI, our moves on the plies of parity ``seat``:
        to its end (True), or until time is up (False): before our move, or while
        the AI thinks (its searches may queue for long)."""
        self.sent_at.clear()
        position = self.game.new()
        ply = 0
        while True:
            ours = ply % 2 == seat
            if ours:
                if not await self.think():
                    return False
                move, text = self.pick(position)
                await self.send_move(player, ply, text)
                position = self.game.play_unchecked(position, move)
            if ours:
                ((_, message, at),) = await self.expect_all(_moved(player, ply))
            else:
                try:
                    ((_, message, at),) = await self.expect_all(
                        _moved(player, ply), stall=AI_STALL_SECONDS, until_deadline=True
                    )
                except _TimeUpError:
                    return False
            if not ours:
                answer = _message(message, Moved).move
                position = self.game.play(position, self.game.parse_move(position, answer))
                self.stats.ai_moves += 1
                sent = self.sent_at.get(ply - 1)
                if sent is not None and self.clock.in_window(at):
                    self.stats.ai_reply.record(at - sent)
            self.count_move(at)
            if self.game.outcome(position).is_over:
                await self.expect_all(_game_over(player))
                return True
            ply += 1


class EchoRoom(RoomBase):
    """Two raw clients taking turns to bounce a move-sized frame off an echo server."""

    async def play(self) -> None:
        clients = (
            await self.connect(Player.FIRST, raw=True),
            await self.connect(Player.SECOND, raw=True),
        )
        turn = 0
        while not self.clock.over:
            client = clients[turn % 2]
            sent = await self.send(client, self.setting.echo_frame)
            ((_, echoed, at),) = await self.expect_all(_from(client))
            if echoed != self.setting.echo_frame:
                # A game server, say: it answers, but not with what it was sent.
                raise RoomFailedError("not an echo: the reply differs from the frame sent")
            self.count_move(at)
            if self.clock.in_window(at):
                self.stats.move_latency.record(at - sent)
            turn += 1


def _from(client: LoadClient) -> Wanted:
    return lambda c, m: c is client


_M = TypeVar("_M")


def _message(message: object, kind: type[_M]) -> _M:
    """``message``, which the room's expectations made sure is a ``kind``."""
    assert isinstance(message, kind), message
    return message
