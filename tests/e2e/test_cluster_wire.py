"""The relay's connections to Redis written and read by hand (server/cluster/wire.py,
issue 29), on a real Redis: a publish's reply, a subscription's messages in
order, a login and a database as the URL says, and a connection that stops
answering closed rather than waited on for good."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from services import RedisServer

from boardroom.server.cluster import wire
from boardroom.server.cluster.wire import Subscription, Wire, pack, pack_publish, wire_options


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_server.url)
    yield client
    await client.aclose()


def options_of(url: str) -> dict[str, Any]:
    pool = Redis.from_url(url).connection_pool
    options = wire_options(pool.connection_class, pool.connection_kwargs)
    assert options is not None
    return options


def test_tls_and_unix_sockets_are_left_to_redis_py() -> None:
    for url in ("rediss://127.0.0.1:6379/0", "unix:///tmp/redis.sock"):
        pool = Redis.from_url(url).connection_pool
        assert wire_options(pool.connection_class, pool.connection_kwargs) is None


async def test_publishes_are_answered_in_order_with_their_receivers(
    redis_server: RedisServer, redis: Redis
) -> None:
    channel = f"test-{secrets.token_hex(4)}"
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(channel)
    connection = await Wire.connect(options_of(redis_server.url), 5.0)
    packed = pack_publish(channel.encode(), b"one") + pack_publish(b"nobody", b"two")
    assert await connection.send(packed, 2) == [1, 0]  # one subscriber, then none
    connection.close()
    with pytest.raises(RedisConnectionError):
        await connection.send(pack_publish(b"nobody", b"three"), 1)
    await pubsub.aclose()  # type: ignore[no-untyped-call]


async def test_a_subscription_delivers_in_order_and_keeps_what_came_before_start(
    redis_server: RedisServer, redis: Redis
) -> None:
    channels = [f"test-{secrets.token_hex(4)}", f"test-{secrets.token_hex(4)}"]
    subscription = await Subscription.connect(options_of(redis_server.url), channels, 5.0)
    await redis.publish(channels[0], "early")
    await redis.publish(channels[1], "other channel")
    got: list[bytes] = []
    arrived = asyncio.Event()

    def deliver(data: bytes) -> None:
        got.append(data)
        if data == b"last":
            arrived.set()

    await asyncio.sleep(0.1)  # the early ones are read before start, and kept
    subscription.start(deliver)
    for data in ("a", "b", "last"):
        await redis.publish(channels[0], data)
    await asyncio.wait_for(arrived.wait(), 10)
    assert got == [b"early", b"other channel", b"a", b"b", b"last"]
    assert not subscription.closed.done()
    await redis.client_kill_filter(_type="pubsub")
    await asyncio.wait_for(subscription.closed, 10)  # its owner subscribes again
    subscription.close()


async def test_a_login_and_a_database_as_the_url_says(
    redis_server: RedisServer, redis: Redis
) -> None:
    user, password = f"wire-{secrets.token_hex(3)}", secrets.token_hex(8)
    await redis.execute_command("ACL", "SETUSER", user, "on", f">{password}", "~*", "&*", "+@all")
    url = f"redis://{user}:{password}@127.0.0.1:{redis_server.port}/3"
    connection = await Wire.connect(options_of(url), 5.0)
    (info,) = await connection.send(pack(b"CLIENT", b"INFO"), 1)
    assert f"user={user}".encode() in info
    assert b" db=3 " in info
    connection.close()
    channel = f"test-{secrets.token_hex(4)}"
    subscription = await Subscription.connect(options_of(url), [channel], 5.0)
    subscription.close()
    wrong = f"redis://{user}:not-the-password@127.0.0.1:{redis_server.port}/0"
    with pytest.raises(RedisConnectionError):
        await Wire.connect(options_of(wrong), 5.0)
    with pytest.raises(RedisConnectionError):
        await Subscription.connect(options_of(wrong), [channel], 5.0)
    await redis.execute_command("ACL", "DELUSER", user)


async def test_a_redis_that_stops_answering_fails_the_wire_and_closes_the_subscription(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server that confirms the subscription, then never answers anything: the
    publish's reply is given up at its deadline, and the quiet subscription,
    pinged and unanswered, is closed (its owner subscribes again)."""
    monkeypatch.setattr(wire, "SUBSCRIPTION_PING_S", 0.1)
    writers: list[asyncio.StreamWriter] = []

    async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)
        if b"SUBSCRIBE" in await reader.read(1000):
            writer.write(b"*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n")
        await reader.read()  # then silence, pings and all

    server = await asyncio.start_server(mute, "127.0.0.1", 0)
    options = options_of(f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0")
    connection = await Wire.connect(options, 0.2)
    with pytest.raises(RedisTimeoutError):
        await connection.send(pack_publish(b"ch", b"lost"), 1)
    subscription = await Subscription.connect(options, ["ch"], 5.0)
    subscription.start(lambda data: None)
    await asyncio.wait_for(subscription.closed, 10)
    for writer in writers:
        writer.close()
    server.close()
    await server.wait_closed()
