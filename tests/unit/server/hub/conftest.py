"""A hub over fakes for each test, its rooms' timers stopped after it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hub_fakes import MemoryStore, make_hub

from boardroom.server.hub import GameServer


@pytest.fixture
async def hub_and_store() -> AsyncIterator[tuple[GameServer, MemoryStore]]:
    hub, store = make_hub()
    yield hub, store
    await hub.stop()


@pytest.fixture
def hub(hub_and_store: tuple[GameServer, MemoryStore]) -> GameServer:
    return hub_and_store[0]


@pytest.fixture
def store(hub_and_store: tuple[GameServer, MemoryStore]) -> MemoryStore:
    return hub_and_store[1]
