"""Durable players, end to end: the version negotiation, player tokens in
``hello`` and ``welcome``, the name clash rule, and what the store keeps.

Each test runs the real server on a free port and talks to it over real
WebSockets as plain JSON (``docs/protocol.md``, "Versions" and "Players").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import Player, running_server


@pytest.mark.parametrize("version", [1, 2])
async def test_the_welcome_answers_in_the_clients_own_version(tmp_path: Path, version: int) -> None:
    """Versions 1 and 2 are both spoken: each is welcomed in its own version."""
    async with running_server(tmp_path / "games.db") as server:
        player = await Player.connect(server.ws_url)
        welcome = await player.request({"type": "hello", "name": "ann", "version": version})
        assert welcome["type"] == "welcome", welcome
        assert welcome["version"] == version
        await player.close()
