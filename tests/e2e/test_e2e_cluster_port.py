"""End to end: two processes of one cluster listening on one port (``--reuse-port``).

Both are real ``boardroom serve`` children on the test's own Redis and a new
PostgreSQL database; the second is given the port the first was given by the
kernel. Clients know one address only. Which process takes a connection is the
kernel's choice (a hash of the connection's addresses), so the tests find out
where a client landed the way the cluster itself records it: the room a client
creates lives in the process it is connected to, and the directory in Redis
names that process as the room's owner.

The three tests share one pair of processes (a module fixture, on the module's
event loop): none changes what another looks at (each opens rooms of its own, and
the refused third process fails at its bind, before it touches the cluster), and
starting two ``boardroom serve`` children costs seconds (docs/benchmarks.md, "The
test suite").
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from cluster_helpers import SharedPort
from cluster_helpers import shared_port as cluster_shared_port
from harness import Player, ServerProcess
from services import PostgresServer, RedisServer

LINE_GAME = ("a1", "a2", "b1", "b2", "c1")
"""X wins along the bottom row."""
CLIENTS = 24
"""Clients that each open a room through the shared port: the chance that the
kernel gives all of them to one of two processes is 2 x 2**-24."""
TRIES = 40
"""Connections a test opens at most to reach the other process than a given one."""


pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared_port(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> AsyncIterator[SharedPort]:
    async with cluster_shared_port(redis_server, postgres_server) as cluster:
        yield cluster


async def test_clients_of_one_port_reach_both_processes(shared_port: SharedPort) -> None:
    """Clients that all connect to one address land on both processes: the rooms
    they open are owned by each of the cluster's two processes."""
    players = [await Player.join_server(shared_port.ws_url, f"p{n}") for n in range(CLIENTS)]
    owners = []
    for player in players:
        created = await player.request({"type": "create_room", "game": "tictactoe"})
        owners.append(await shared_port.owner(created["room"]["code"]))
    assert set(owners) == await shared_port.live_nodes()
    assert len(set(owners)) == 2, owners


async def test_two_players_on_different_processes_of_one_port_play_a_game(
    shared_port: SharedPort,
) -> None:
    """Ann's room lives in the process she reached; Bob, connected to the same
    port, reaches the other one, joins her room through the relay, and they
    play it to the end; the record is readable there."""
    ann = await Player.join_server(shared_port.ws_url, "ann")
    room = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]
    ann_process = await shared_port.owner(room["code"])

    bob = None
    for attempt in range(TRIES):
        candidate = await Player.join_server(shared_port.ws_url, f"bob{attempt}")
        probe = await candidate.request({"type": "create_room", "game": "tictactoe"})
        if await shared_port.owner(probe["room"]["code"]) != ann_process:
            bob = candidate
            break
        await candidate.close()
    assert bob is not None, f"{TRIES} connections all reached the same process"

    joined = await bob.request({"type": "join", "code": room["code"]})
    assert joined["type"] == "state" and joined["room"]["you"] == "second", joined
    for ply, move in enumerate(LINE_GAME):
        mover = (ann, bob)[ply % 2]
        reply = await mover.request({"type": "move", "room": room["code"], "move": move})
        assert reply["type"] == "moved", reply
    for player in (ann, bob):
        over = await player.expect("game_over")
        assert over["result"]["winner"] == "first"
        assert over["moves"] == " ".join(LINE_GAME)


async def test_a_second_process_without_reuse_port_is_refused_the_port(
    shared_port: SharedPort, redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """A process that does not ask to share the port cannot take it from the two
    that did: the start fails, as on any port in use."""
    flags = ("--cluster", redis_server.url, "--cluster-name", shared_port.name)
    with pytest.raises(RuntimeError, match="exited with 1"):
        await ServerProcess.start(
            postgres_server.new_database(), *flags, "--port", str(shared_port.processes[0].port)
        )
