"""The cluster's publisher (server/cluster/relay.py) on a real Redis: what one
loop turn sends one process is one publish, in order, and a message for several
clients of one gateway is one ``Deliver`` naming them all (issue 29: a relayed
move cost a publish and a message to read per receiver); and the inbox's read
(server/cluster/inbox.py), straight from its connection."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from services import RedisServer

from boardroom.server.cluster import relay
from boardroom.server.cluster.directory import Directory
from boardroom.server.cluster.envelopes import Deliver, Envelope, Gone, decode_bundle
from boardroom.server.cluster.inbox import read_message
from boardroom.server.cluster.relay import Publisher, RemoteOutbox
from boardroom.shared.protocol.messages import Pong


@pytest.fixture
async def directory(redis_server: RedisServer) -> AsyncIterator[Directory]:
    redis = Redis.from_url(redis_server.url)
    yield Directory(redis, f"test-{secrets.token_hex(4)}")
    await redis.aclose()


async def subscribed(directory: Directory, node: str) -> PubSub:
    pubsub = directory.redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(directory.channel(node))
    return pubsub


async def messages(pubsub: PubSub) -> list[list[Envelope | None]]:
    """Every message on the channel until it is quiet for a moment, each as its envelopes."""
    found = []
    loop = asyncio.get_running_loop()
    quiet_until = loop.time() + 0.5
    while loop.time() < quiet_until:
        # None also for the subscription's own confirmation: read on until quiet.
        item = await pubsub.get_message(timeout=0.1)
        if item is not None:
            found.append(decode_bundle(item["data"]))
            quiet_until = loop.time() + 0.5
    return found


async def test_one_loop_turn_for_one_process_is_one_publish_in_order(
    directory: Directory,
) -> None:
    pubsub = await subscribed(directory, "gw")
    publisher = Publisher(directory.redis, directory)
    publisher.start()
    counts: list[int] = []
    # A move's answers in one loop turn: the mover's reply, then the same
    # frame for two spectators of the gateway, then a close notice.
    outboxes = [RemoteOutbox(publisher, "owner", "gw", session, "") for session in "abc"]
    reply, shared = '{"type":"pong"}', '{"type":"pong","id":"2"}'
    outboxes[0].send(Pong(), reply)
    outboxes[1].send(Pong(id="2"), shared)
    outboxes[2].send(Pong(id="2"), shared)
    publisher.send("gw", Gone("owner", "d"), published=counts.append)
    await publisher.flush()
    (bundle,) = await messages(pubsub)  # one publish for all four
    assert bundle == [
        Deliver("owner", ["a"], reply),
        Deliver("owner", ["b", "c"], shared),  # the frame once, for both
        Gone("owner", "d"),
    ]
    assert counts == [1]  # the gateway's one subscription received it
    await publisher.close()
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_a_frame_equal_but_not_the_same_message_is_sent_for_each(
    directory: Directory,
) -> None:
    """Only the very text the room encoded once for all its receivers is shared:
    two messages that read alike stay two (their order is the order sent)."""
    pubsub = await subscribed(directory, "gw")
    publisher = Publisher(directory.redis, directory)
    publisher.start()
    first = '{"type":"pong"}'
    second = "".join(['{"type":', '"pong"}'])  # equal, another object
    RemoteOutbox(publisher, "owner", "gw", "a", "").send(Pong(), first)
    RemoteOutbox(publisher, "owner", "gw", "b", "").send(Pong(), second)
    await publisher.flush()
    (bundle,) = await messages(pubsub)
    assert bundle == [Deliver("owner", ["a"], first), Deliver("owner", ["b"], second)]
    await publisher.close()
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_writes_to_several_processes_keep_their_order(directory: Directory) -> None:
    """Sends that alternate between processes are published in the order sent,
    each process's own in order; a directory command in the batch goes with them."""
    one, two = await subscribed(directory, "p1"), await subscribed(directory, "p2")
    publisher = Publisher(directory.redis, directory)
    publisher.start()
    for number in range(3):
        publisher.send("p1", Gone("me", f"s{number}"))
        publisher.send("p2", Gone("me", f"t{number}"))
    publisher.do(lambda pipe: pipe.set(directory._key("probe"), "1"))
    publisher.send("p1", Gone("me", "last"))
    await publisher.flush()
    got_one, got_two = await messages(one), await messages(two)
    sessions = [e.session for bundle in got_one for e in bundle if isinstance(e, Gone)]
    assert sessions == ["s0", "s1", "s2", "last"]
    sessions = [e.session for bundle in got_two for e in bundle if isinstance(e, Gone)]
    assert sessions == ["t0", "t1", "t2"]
    assert await directory.redis.get(directory._key("probe")) == b"1"
    await publisher.close()
    for pubsub in (one, two):
        await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_a_line_that_is_no_envelope_spoils_only_itself() -> None:
    data = b'{"type":"gone","sender":"n","session":"a"}\nnot json\n'
    data += b'{"type":"gone","sender":"n","session":"b"}'
    assert decode_bundle(data) == [Gone("n", "a"), None, Gone("n", "b")]


async def test_the_publisher_publishes_again_after_redis_closed_its_connection(
    directory: Directory,
) -> None:
    """Its own connection, broken under it (Redis closed it), is made again and
    what was sent meanwhile is published."""
    pubsub = await subscribed(directory, "gw")
    publisher = Publisher(directory.redis, directory)
    publisher.start()
    publisher.send("gw", Gone("owner", "a"))
    await publisher.flush()
    await directory.redis.client_kill_filter(_type="normal", skipme=True)
    await asyncio.sleep(0.05)
    publisher.send("gw", Gone("owner", "b"))
    await publisher.flush()
    sessions = [
        e.session for bundle in await messages(pubsub) for e in bundle if isinstance(e, Gone)
    ]
    assert sessions == ["a", "b"]
    await publisher.close()
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_the_inbox_reads_each_message_in_order_and_nothing_else(
    directory: Directory,
) -> None:
    """What the inbox reads straight from its connection (issue 29): a message's
    data, in order; None for the subscription's confirmation."""
    pubsub = directory.redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(directory.channel("gw"))
    assert await read_message(pubsub) is None  # "subscribe", confirmed
    for number in range(3):
        await directory.redis.publish(directory.channel("gw"), f"m{number}")
    assert [await read_message(pubsub) for _ in range(3)] == [b"m0", b"m1", b"m2"]
    await pubsub.aclose()  # type: ignore[no-untyped-call]


class Told:
    def __init__(self) -> None:
        self.times = 0

    def connected(self, connection: object) -> None:
        self.times += 1


async def test_the_inbox_subscribes_again_after_redis_closed_its_connection(
    directory: Directory,
) -> None:
    """A read that breaks (Redis closed the subscription's connection) connects
    and subscribes again, telling the connect callbacks (the gateway's resync
    hangs on them), and reads what is published afterwards."""
    channel = directory.channel("gw")
    pubsub = directory.redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    assert await read_message(pubsub) is None
    told = Told()
    assert pubsub.connection is not None
    pubsub.connection.register_connect_callback(told.connected)  # kept as a weak method

    async def publish_once_subscribed_again() -> None:
        while (await directory.redis.pubsub_numsub(channel))[0][1] == 0:
            await asyncio.sleep(0.02)
        await directory.redis.publish(channel, "after")

    killed = await directory.redis.client_kill_filter(_type="pubsub")
    assert killed == 1
    publishing = asyncio.create_task(publish_once_subscribed_again())
    read = [await read_message(pubsub) for _ in range(2)]
    await publishing
    assert [data for data in read if data is not None] == [b"after"]
    assert told.times == 1
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_a_redis_that_never_answers_holds_the_publisher_for_a_deadline_only(
    directory: Directory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The publisher's connection has no timeout of its own: each batch has one
    (:data:`PUBLISH_TIMEOUT_S`), then it is tried again as after a broken
    connection, and given up after :data:`PUBLISH_RETRY_S`."""
    monkeypatch.setattr(relay, "PUBLISH_TIMEOUT_S", 0.2)
    monkeypatch.setattr(relay, "PUBLISH_RETRY_S", 0.5)
    accepted: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)  # reads nothing, answers nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    silent_redis = Redis.from_url(f"redis://127.0.0.1:{port}")
    publisher = Publisher(silent_redis, directory)
    publisher.start()
    publisher.send("gw", Gone("owner", "a"))
    await asyncio.wait_for(publisher.flush(), 10)  # given up, not stuck
    assert len(accepted) >= 2  # connected again after each deadline
    await publisher.close()
    for writer in accepted:
        writer.close()
    server.close()
    await server.wait_closed()
    await silent_redis.aclose()
