"""A cluster loop that catches RedisError still stops when it is cancelled.

redis-py can turn a cancellation that lands inside one of its calls into a
``RedisError`` (a timeout, a broken connection). The heartbeat and the inbox
catch ``RedisError`` and go on; :func:`stop_if_cancelled` is what keeps them from
going on after ``close()`` cancelled them (a process's stop waited for its 20 s
deadline once because of it)."""

from __future__ import annotations

import asyncio

import pytest
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from boardroom.server.cluster.process import stop_if_cancelled


async def a_redis_call_that_turns_a_cancel_into_an_error(lap: int) -> None:
    """The first call waits for a reply until cancelled; later ones fail at once
    (Redis is gone), so a loop that goes on after its cancel laps quickly."""
    if lap > 1:
        raise RedisTimeoutError("Timeout connecting to the server")
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        raise RedisTimeoutError("Timeout reading from the socket") from None


async def a_loop_that_retries(*, check: bool, laps: list[int]) -> None:
    while len(laps) < 50:
        laps.append(1)
        try:
            await a_redis_call_that_turns_a_cancel_into_an_error(len(laps))
        except RedisError:
            if check:
                stop_if_cancelled()
        await asyncio.sleep(0.01)


async def test_a_cancel_that_comes_out_as_a_redis_error_stops_the_loop() -> None:
    laps: list[int] = []
    task = asyncio.create_task(a_loop_that_retries(check=True, laps=laps))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 2)
    assert laps == [1]


async def test_without_the_check_the_loop_goes_on_after_its_cancel() -> None:
    # The failure the check prevents, shown: the loop laps again after the cancel.
    laps: list[int] = []
    task = asyncio.create_task(a_loop_that_retries(check=False, laps=laps))
    await asyncio.sleep(0.05)
    task.cancel()
    await asyncio.sleep(0.05)
    assert not task.done()
    assert len(laps) >= 2
    await asyncio.wait_for(task, 5)  # it ends only when its laps run out
    assert len(laps) == 50


def test_outside_a_cancelled_task_it_does_nothing() -> None:
    async def not_cancelled() -> str:
        stop_if_cancelled()
        return "went on"

    assert asyncio.run(not_cancelled()) == "went on"
