"""The engine as a bot: searches in a real spawned worker process, timed like the server AI."""

from __future__ import annotations

import pytest
from room_states import room_in_play

from boardroom.client.bots.engine_bot import EngineBrains, engine_time_limit
from boardroom.client.bots.errors import BotLoadError
from boardroom.client.bots.state import game_state


def test_time_follows_the_server_ais_rule() -> None:
    """Without a clock, the level's own limit; with one, at most a tenth of the
    time left (never under 50 ms), and never over the level's limit."""
    assert engine_time_limit("perfect", None) is None
    assert engine_time_limit("perfect", 300.0) == 3.0
    assert engine_time_limit("perfect", 10.0) == pytest.approx(1.0)
    assert engine_time_limit("hard", 0.1) == 0.05
    assert engine_time_limit("random", 30.0) == pytest.approx(3.0)  # random has no limit of its own


def test_an_unknown_level_is_refused_with_the_levels_named() -> None:
    with pytest.raises(BotLoadError, match="unknown level 'genius': choose one of random, easy"):
        EngineBrains("genius")


async def test_the_engine_bot_finds_the_win_in_a_worker_process() -> None:
    """X (b2, c3) to move against O (a1, a2): a3 is forced (O threatens it) and
    the perfect engine plays it; the worker is warm, so the move comes quickly."""
    brains = EngineBrains("PERFECT", workers=1)
    assert (brains.level, brains.name) == ("perfect", "engine-perfect")
    await brains.open()
    try:
        state = game_state(room_in_play("tictactoe", "b2 a1 c3 a2"))
        brain = brains.new_brain("ABCDEF game 1")
        assert await brain.choose(state, timeout=None, time_ms=30_000) == "a3"
    finally:
        await brains.close()
