"""Whom each AI search is for, and how urgent it is, as the hub tells the engine
pool (server/core/engine_queue.py orders them): the AI's move against a person is
that person's at ``SEATED``, a hint its asker's at ``HINT``, an AI match's move
its opener's at ``AI_MATCH``; each with the session's address."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from hub_fakes import MemoryStore, said_hello

from boardroom.server.config import ServerConfig
from boardroom.server.core.engine_queue import EnginePriority, Submitter
from boardroom.server.hub import GameServer
from boardroom.server.hub.peer import Peer
from boardroom.server.metrics import ServerMetrics
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.recorder import GameRecorder
from boardroom.shared.protocol.messages import AiMatch, AskHint, CreateRoom, Join, Level, MakeMove


@dataclass
class RecordingEngine:
    """An engine pool that notes each search asked of it and never answers."""

    asked: list[tuple[EnginePriority, Submitter]] = field(default_factory=list)
    never: asyncio.Event = field(default_factory=asyncio.Event)

    async def search(self, request: Any, **order: Any) -> Any:
        self.asked.append((order["priority"], order["submitter"]))
        await self.never.wait()


def session_of(player: Peer) -> str:
    assert player.session is not None
    return player.session.id


async def test_each_search_is_asked_for_its_person_at_its_priority() -> None:
    engine = RecordingEngine()
    store = MemoryStore()
    hub = GameServer(
        ServerConfig(),
        recorder=GameRecorder(store),  # type: ignore[arg-type]
        players=PlayerDirectory(store, new_players=0),  # type: ignore[arg-type]
        engine=engine,  # type: ignore[arg-type]
        metrics=ServerMetrics(),
    )
    try:
        ann = await said_hello(hub, "ann", "192.0.2.1")
        await hub.handle(ann, CreateRoom(game="connect4", ai_level=Level.EASY))
        [room] = hub.rooms()
        await hub.handle(ann, MakeMove(room=room.code, move="4"))

        cy, dan = await said_hello(hub, "cy", "192.0.2.3"), await said_hello(hub, "dan")
        await hub.handle(cy, CreateRoom(game="tictactoe"))
        code = next(info.code for info in hub.rooms() if info.code != room.code)
        await hub.handle(dan, Join(code=code))
        await hub.handle(cy, AskHint(room=code))

        eve = await said_hello(hub, "eve", "192.0.2.5")
        match = AiMatch(first=Level.EASY, second=Level.EASY, pace=0.0)
        await hub.handle(eve, CreateRoom(game="tictactoe", ai_match=match))
        for _ in range(10):
            await asyncio.sleep(0)  # the searches' tasks start
        assert engine.asked == [
            (EnginePriority.SEATED, Submitter(session_of(ann), "192.0.2.1")),
            (EnginePriority.HINT, Submitter(session_of(cy), "192.0.2.3")),
            (EnginePriority.AI_MATCH, Submitter(session_of(eve), "192.0.2.5")),
        ]
    finally:
        await hub.stop()
