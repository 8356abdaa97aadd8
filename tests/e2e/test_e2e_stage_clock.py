"""The stage clock end to end (server/stage_clock.py): a game played on a real
server shows on ``/metrics`` as CPU time in each stage of the relay path, and the
stages never add up to more than the process's CPU time."""

from __future__ import annotations

from pathlib import Path

from harness import Player, RunningServer, running_server

from boardroom.client.loadtest.metrics_probe import (
    STAGES,
    ServerReading,
    cpu_per_move,
    parse_prometheus_text,
)


async def reading(server: RunningServer) -> ServerReading:
    text = (await server.get("/metrics"))[2]
    return ServerReading.from_samples(parse_prometheus_text(text), 0.0)


async def test_a_game_shows_in_every_stage_and_the_stages_fit_in_the_process_cpu(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "games.db") as server:
        before = await reading(server)
        assert set(before.stage_cpu) == set(STAGES)
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["status"] == "playing", joined
        for player, move in zip(
            (ann, bob, ann, bob, ann), ("a1", "a2", "b1", "b2", "c1"), strict=True
        ):
            moved = await player.request({"type": "move", "room": code, "move": move})
            assert moved["type"] == "moved", moved
        await ann.expect("game_over")
        after = await reading(server)

    for stage in STAGES:
        assert after.stage_cpu[stage] > before.stage_cpu[stage], stage
    assert after.cpu_seconds is not None
    assert sum(after.stage_cpu.values()) <= after.cpu_seconds
    assert after.moves == 5
    split = cpu_per_move(before, after)
    assert split is not None and split["total"] > 0
