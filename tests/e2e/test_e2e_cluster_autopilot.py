"""End to end: the engine autopilot in a cluster (issue 31 §1, "works across a
restart and in the cluster: the room's owner runs the autopilot").

Two real ``boardroom serve --cluster`` children on the test's own Redis and a new
PostgreSQL database (tests/services.py), each on a port of its own so that the
test chooses which process a client talks to: the room lives in the first (its
owner), and the players reach it through the second, as a player whose
connection the kernel gave the other process of a shared port does. The owner
is killed with SIGKILL while its engine plays a seat: the second process takes
the room over from the store and its own engine plays the seat on. The windows
are short (1 s): long enough for a takeover's re-attachment of the waiting
player, short for the suite's time budget.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from harness import Player, ServerProcess
from redis.asyncio import Redis
from services import PostgresServer, RedisServer

from boardroom.server.store import open_store

GRACE = 1.0
LEVEL = "medium"
ANN_BEFORE_KILL = ("2", "6", "2", "6")
"""Ann's moves (Connect Four columns) while the owner lives: two short stacks,
no four in a row."""
BOB_OWN = ("1", "7")
"""Bob's own moves, plies 1 and 5: columns 1 and 7 are in no line of four
together, so the engine's two moves for him (plies 3 and 7) win nothing and the
game is still on when the owner dies."""
TAKEOVER_S = 20.0
"""How long the survivor may take to bring the room back (the heartbeat's TTL
and a beat, some 4 s, on an idle machine)."""


@dataclass
class Cluster:
    """The owner and the gateway: two processes of one cluster, on one database."""

    owner: ServerProcess
    gateway: ServerProcess
    nodes: tuple[str, str]
    """Each one's node id, (owner, gateway)."""
    redis: Redis
    name: str
    database: str

    async def owner_of(self, room: str) -> str:
        """The node id of the process that owns ``room``, as the directory says."""
        value = await self.redis.hget(f"{self.name}:room:{room}", "owner")
        assert value is not None, room
        return value.decode()

    async def live_nodes(self) -> set[str]:
        return {node.decode() for node in await self.redis.smembers(f"{self.name}:nodes")}


@asynccontextmanager
async def owner_and_gateway(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> AsyncIterator[Cluster]:
    """Two ``boardroom serve`` children of one new cluster with :data:`GRACE`
    windows and the server's autopilot off (the room chooses its own), killed
    at the end whatever their state."""
    name = f"test-{secrets.token_hex(4)}"
    database = postgres_server.new_database()
    flags = (
        *("--cluster", redis_server.url, "--cluster-name", name, "--engine", "python"),
        *("--grace-seconds", str(GRACE)),
    )
    redis = Redis.from_url(redis_server.url)
    processes: list[ServerProcess] = []
    try:
        processes.append(await ServerProcess.start(database, *flags))
        cluster = Cluster(processes[0], processes[0], ("", ""), redis, name, database)
        (first,) = await cluster.live_nodes()
        processes.append(await ServerProcess.start(database, *flags))
        (second,) = await cluster.live_nodes() - {first}
        cluster.gateway, cluster.nodes = processes[1], (first, second)
        yield cluster
    finally:
        await redis.aclose()
        for process in processes:
            await process.stop(signal.SIGKILL)


async def play(player: Player, code: str, move: str) -> dict[str, Any]:
    """``player``'s ``move``, answered ``moved``: the reply."""
    reply = await player.request({"type": "move", "room": code, "move": move})
    assert reply["type"] == "moved" and "autopilot" not in reply, reply
    return reply


async def state_after(player: Player, plies: int) -> dict[str, Any]:
    """The first room state ``player`` gets with ``plies`` moves played (those
    before it, queued from earlier, are passed over), within :data:`TAKEOVER_S`."""
    async with asyncio.timeout(TAKEOVER_S):
        while True:
            room: dict[str, Any] = (await player.expect("state", timeout=TAKEOVER_S))["room"]
            if len(room["moves"].replace(" ", "")) == plies:
                return room


async def engine_takes_bob(ann: Player, ply: int) -> dict[str, Any]:
    """Ann hears Bob drop, then, his window run out, that the engine plays for
    him at :data:`LEVEL`; the engine's move for him at ``ply`` (``moved``, flagged)."""
    await ann.expect("player_status", side="second", connected=False)
    took = await ann.expect("player_status", side="second", autopilot=LEVEL)
    assert took["connected"] is False, took
    engine_move = await ann.expect("moved", side="second", ply=ply)
    assert engine_move["autopilot"] is True, engine_move
    return engine_move


async def test_the_owner_plays_a_dropped_seat_and_its_takeover_plays_on(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """Ann opens a Connect Four room with ``autopilot: medium`` in process A and
    plays through B; Bob joins through B. Bob drops on his turn: when his window
    runs out A's engine plays his move. He comes back through A with his token,
    takes his seat back between two moves, and plays one himself. He drops again
    and the engine plays for him again; A is killed (SIGKILL) then. B takes the
    room over from the store, re-attaches Ann, holds Bob's seat a window, and its
    own engine plays his seat to the end of the game: no abandonment, and the
    stored record flags exactly the engine's moves."""
    async with owner_and_gateway(redis_server, postgres_server) as cluster:
        ann = await Player.join_server(cluster.owner.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "connect4", "autopilot": LEVEL})
        assert created["type"] == "state", created
        code = created["room"]["code"]
        assert await cluster.owner_of(code) == cluster.nodes[0]
        await ann.close()  # from here on Ann plays through B
        ann = await Player.join_server(cluster.gateway.ws_url, "ann", token=ann.token)
        assert ann.seen[0]["resumed_rooms"] == [code], ann.seen[0]
        await ann.expect("state")
        bob = await Player.join_server(cluster.gateway.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["status"] == "playing", joined

        # Plies 0-2, then Bob drops on his turn and A's engine plays ply 3.
        await play(ann, code, ANN_BEFORE_KILL[0])
        await play(bob, code, BOB_OWN[0])
        await play(ann, code, ANN_BEFORE_KILL[1])
        await bob.close()
        await engine_takes_bob(ann, 3)
        assert await cluster.owner_of(code) == cluster.nodes[0]  # A's engine played

        # Bob comes back through A (the other process) while Ann is to move.
        bob = await Player.join_server(cluster.owner.ws_url, "bob", token=bob.token)
        state = await bob.expect("state")
        room = state["room"]
        assert (room["you"], room["to_move"], len(room["moves"].replace(" ", ""))) == (
            "second",
            "first",
            4,
        )
        assert "autopilot" not in room["seats"][1], room
        await ann.expect("player_status", side="second", connected=True)
        await play(ann, code, ANN_BEFORE_KILL[2])
        await bob.expect("moved", side="first", ply=4)
        await play(bob, code, BOB_OWN[1])
        mine = await ann.expect("moved", side="second", ply=5)
        assert "autopilot" not in mine, mine
        await play(ann, code, ANN_BEFORE_KILL[3])
        await bob.expect("moved", side="first", ply=6)

        # Bob drops again; the engine takes his seat and plays ply 7; A dies.
        await bob.close()
        await engine_takes_bob(ann, 7)
        await cluster.owner.stop(signal.SIGKILL)

        # B brings the room back and re-attaches Ann, who is to move.
        room = await state_after(ann, 8)
        assert room["to_move"] == "first" and room["status"] == "playing", room
        assert await cluster.owner_of(code) == cluster.nodes[1]
        await play(ann, code, room["legal"][0])
        # Bob's window from the takeover runs out: B's engine plays him to the end.
        took = await ann.expect("player_status", side="second", autopilot=LEVEL)
        assert took["connected"] is False, took
        while (message := await ann.recv()).get("type") != "game_over":
            # (Moves before the takeover, still queued, are passed over.)
            moved = message.get("type") == "moved"
            if moved and message["side"] == "second" and message["ply"] > 8:
                assert message.get("autopilot") is True, message
                if message["legal"]:
                    await play(ann, code, message["legal"][0])
        assert message["result"]["reason"] != "abandonment", message
        await ann.close()

        async with open_store(cluster.database) as store:
            record = await store.get_game(message["game_id"])
        flags = [(move.side, move.autopilot) for move in record.moves]
        expected = [
            (side, side == "second" and ply not in (1, 5)) for ply, (side, _) in enumerate(flags)
        ]
        assert flags == expected, flags
        assert len(flags) > 9, flags  # B's engine played at least once (ply 9)


async def test_a_takeover_does_not_make_again_the_moves_sent_without_a_ply(
    redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """Ann and Bob play two moves without a ``ply`` through B in a room of A, and
    A is killed (SIGKILL) right after, well within the time B keeps what it sent
    on. B's takeover sends again only what cannot be carried out twice: the two
    moves, answered long before, are not made a second time in the later
    position (both columns are still open), so the game goes on from two moves
    with Ann to move, and her next move is hers. (Before the fix, her first move
    was made again at ply 2 and her own refused: ``not_your_turn``.)"""
    async with owner_and_gateway(redis_server, postgres_server) as cluster:
        ann = await Player.join_server(cluster.owner.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "connect4"})
        code = created["room"]["code"]
        await ann.close()
        ann = await Player.join_server(cluster.gateway.ws_url, "ann", token=ann.token)
        await ann.expect("state")
        bob = await Player.join_server(cluster.gateway.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": code})
        assert joined["room"]["status"] == "playing", joined
        await play(ann, code, "4")
        await play(bob, code, "4")
        await cluster.owner.stop(signal.SIGKILL)

        room = await state_after(ann, 2)
        assert await cluster.owner_of(code) == cluster.nodes[1]
        assert room["to_move"] == "first", room
        await asyncio.sleep(1.0)  # room for a resend, were one made, to land first
        await play(ann, code, "1")
        await bob.expect("moved", side="first", ply=2, move="1")
        state = await ann.request({"type": "get_state", "room": code})
        assert state["room"]["moves"].replace(" ", "") == "441", state
        await ann.close()
        await bob.close()
