"""Fakes for the hub's unit tests: the store in memory, a connection that keeps
what it is sent, and an engine that must not be asked.

The hub talks to three outside things (server/lifecycle.py wires them): the
store, through the :class:`~boardroom.server.recorder.GameRecorder` and the
:class:`~boardroom.server.player_directory.PlayerDirectory` (both real here, over
:class:`MemoryStore`); the clients, through each connection's outbox
(:class:`FakeConnection`); and the engine pool, only for the server AI
(:class:`NoEngine`: these tests seat none).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardroom.server.config import ServerConfig
from boardroom.server.core.lobby import RoomCodes, RoomPage
from boardroom.server.core.players import PlayerRecord
from boardroom.server.core.sessions import Session
from boardroom.server.hub import GameServer, Peer
from boardroom.server.hub.boundary import SessionRecord
from boardroom.server.metrics import ServerMetrics
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.recorder import GameRecorder
from boardroom.server.store import PlayerNotFoundError
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import (
    PROTOCOL_VERSION,
    ClientMessage,
    CreateRoom,
    Error,
    Hello,
    Join,
    RoomSummary,
    ServerMessage,
    Welcome,
)


@dataclass
class StoredGame:
    room: str
    game: str
    seats: Sequence[Any]
    number: int
    moves: list[str] = field(default_factory=list)
    winner: Any = None
    termination: Any = None


class MemoryStore:
    """The part of the store that the recorder and the player directory use, in
    memory. It has no unfinished games to restore (a restart is the e2e tests')."""

    def __init__(self) -> None:
        self.games: dict[int, StoredGame] = {}
        self.players: dict[str, PlayerRecord] = {}
        self._tokens: dict[str, str] = {}

    async def create_game(
        self,
        room: str,
        game: str,
        seats: Sequence[Any] = (None, None),
        *,
        options: Mapping[str, Any] | None = None,
        at: float,
        number: int = 1,
        started_at: float | None = None,
    ) -> int:
        game_id = len(self.games) + 1
        self.games[game_id] = StoredGame(room, game, seats, number)
        return game_id

    async def append_move(
        self,
        game_id: int,
        ply: int,
        move: str,
        at: float,
        clock_ms: int | None = None,
        *,
        autopilot: bool = False,
    ) -> None:
        moves = self.games[game_id].moves
        assert ply == len(moves), f"move {ply} stored out of order after {len(moves)}"
        moves.append(move)

    async def finish_game(self, game_id: int, winner: Any, termination: Any, at: float) -> None:
        game = self.games[game_id]
        game.winner, game.termination = winner, termination

    async def append_final_move(
        self,
        game_id: int,
        ply: int,
        move: str,
        at: float,
        clock_ms: int | None = None,
        *,
        autopilot: bool = False,
        winner: Any,
        termination: Any,
        finished_at: float,
    ) -> None:
        await self.append_move(game_id, ply, move, at, clock_ms, autopilot=autopilot)
        await self.finish_game(game_id, winner, termination, finished_at)

    async def add_hint(self, game_id: int, ply: int, move: str, at: float) -> None:
        raise AssertionError("no hints in these tests")

    async def unfinished_games(self) -> list[Any]:
        return []

    async def add_player(self, player: PlayerRecord, token_hash: str | None) -> None:
        self.players[player.id] = player
        if token_hash is not None:
            self._tokens[token_hash] = player.id

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        player_id = self._tokens.get(token_hash)
        return None if player_id is None else self.players[player_id]

    async def get_player(self, player_id: str) -> PlayerRecord:
        if player_id not in self.players:
            raise PlayerNotFoundError(player_id)
        return self.players[player_id]

    async def player_seen(self, player_id: str, *, name: str, at: float) -> None:
        pass


class NoEngine:
    """The engine pool of a hub whose rooms seat no server AI: any use fails the test."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the engine was asked for {name!r}: these tests seat no AI")


@dataclass(eq=False)
class FakeConnection:
    """A client's connection (:class:`~boardroom.server.hub.PeerConnection`): it keeps what
    it is sent, each message as the client would decode it."""

    address: str = "192.0.2.1"
    sent: list[ServerMessage] = field(default_factory=list)
    closed: tuple[int, str] | None = None
    replaced: bool = False

    def send(self, message: ServerMessage, text: str | None = None) -> None:
        # What goes on the wire must be what the message says.
        assert text is None or text == encode_message(message)
        self.sent.append(message)

    def replace(self) -> None:
        self.replaced = True

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def of_type(self, kind: type[ServerMessage]) -> list[Any]:
        """The messages of one type it was sent, in order."""
        return [message for message in self.sent if isinstance(message, kind)]

    def last(self) -> ServerMessage:
        return self.sent[-1]


def make_hub(config: ServerConfig | None = None) -> tuple[GameServer, MemoryStore]:
    """A hub over a :class:`MemoryStore`, with its rooms' randomness seeded."""
    store = MemoryStore()
    hub = GameServer(
        config or ServerConfig(),
        recorder=GameRecorder(store),  # type: ignore[arg-type]
        players=PlayerDirectory(store, new_players=0),  # type: ignore[arg-type]
        engine=NoEngine(),  # type: ignore[arg-type]
        metrics=ServerMetrics(),
        rng=lambda: random.Random(26),
    )
    return hub, store


def peer(address: str = "192.0.2.1") -> Peer:
    """A new connection's peer, before its hello."""
    return Peer(FakeConnection(address))


def connection(of: Peer) -> FakeConnection:
    assert isinstance(of.connection, FakeConnection)
    return of.connection


async def said_hello(hub: GameServer, name: str, address: str = "192.0.2.1", **hello: Any) -> Peer:
    """A peer whose hello ``hub`` welcomed (the test fails otherwise)."""
    new = peer(address)
    await hub.handle(new, Hello(name=name, version=PROTOCOL_VERSION, **hello))
    assert isinstance(connection(new).last(), Welcome), connection(new).sent
    return new


async def started_game(hub: GameServer) -> tuple[Peer, Peer, str]:
    """Two players, ann and bob, in a Connect Four room whose game has started
    (the creator, ann, moves first); its code."""
    ann, bob = await said_hello(hub, "ann"), await said_hello(hub, "bob", "192.0.2.2")
    await hub.handle(ann, CreateRoom(game="connect4", id=1))
    code = hub.rooms()[0].code
    await hub.handle(bob, Join(code=code, id=2))
    return ann, bob, code


def refusal(of: Peer) -> Error:
    """The last message ``of`` got, which must be an ``error``."""
    last = connection(of).last()
    assert isinstance(last, Error), connection(of).sent
    return last


@dataclass
class FakeElsewhere:
    """The other processes of a cluster (:class:`~boardroom.server.hub.boundary.RoomsElsewhere`):
    they hold the rooms in ``rooms`` and keep what they were asked."""

    rooms: set[str] = field(default_factory=set)
    forwarded: list[tuple[str, ClientMessage]] = field(default_factory=list)
    claimed: list[RoomCodes] = field(default_factory=list)
    changed: dict[str, RoomSummary | None] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)
    welcomed_sessions: list[str] = field(default_factory=list)
    takeover_pending: bool = False
    """A process that may hold a resuming session's seats died and its rooms
    are not taken over within the wait: ``rooms_elsewhere`` says None."""

    async def forward(
        self, session: Session, token: str, address: str, message: ClientMessage
    ) -> bool:
        code = getattr(message, "code", None) or getattr(message, "room", None)
        if code not in self.rooms:
            return False
        self.forwarded.append((session.id, message))
        return True

    async def public_page(self, game: str | None, offset: int, limit: int) -> RoomPage:
        return RoomPage(rooms=[], total=0)

    async def claim_codes(self, codes: RoomCodes, *, restored: bool = False) -> bool:
        self.claimed.append(codes)
        return True

    async def release_codes(self, codes: RoomCodes) -> None:
        self.claimed.remove(codes)

    async def recall(self, token: str) -> SessionRecord | None:
        return None

    async def rooms_elsewhere(self, session: Session, token: str) -> list[str] | None:
        return None if self.takeover_pending else []

    def welcomed(self, session: Session, token: str, address: str) -> None:
        self.welcomed_sessions.append(session.id)

    def disconnected(self, session: Session) -> None:
        pass

    def room_changed(self, code: str, summary: RoomSummary | None, quick_open: bool) -> None:
        self.changed[code] = summary

    def room_dropped(self, code: str) -> None:
        self.dropped.append(code)
