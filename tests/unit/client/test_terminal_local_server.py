"""``--local``'s server: a real ``python -m boardroom.server`` child on a free loopback port,
stopped afterwards; a server that cannot start is a clear error."""

from __future__ import annotations

import asyncio

import pytest
from harness import Player

from boardroom.client.local_server import LocalServerError, local_server

pytestmark = pytest.mark.e2e
"""Each test starts ``python -m boardroom.server`` as a child process."""


async def test_a_local_server_serves_until_the_block_ends_and_then_stops() -> None:
    async with local_server() as url:
        assert url.startswith("ws://127.0.0.1:")
        player = await Player.join_server(url, "ann")
        assert player.name == "ann"
        await player.close()
    port = int(url.split(":")[2].split("/")[0])
    with pytest.raises(OSError):
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.close()


async def test_a_missing_server_package_is_named_in_the_error() -> None:
    with pytest.raises(LocalServerError, match="'no_such_server' package is not installed"):
        async with local_server(server_module="no_such_server"):
            pass


async def test_a_server_that_exits_at_once_is_reported_with_its_last_words() -> None:
    """The exit status and the end of its error output say what went wrong."""
    with pytest.raises(LocalServerError, match=r"exited with status 2:\n.*(?s:.*)--bogus"):
        async with local_server(extra_flags=("--bogus",)):
            pass
