"""The cluster's directory (server/cluster/directory.py) on a real Redis: the
promises the relay rests on, each checked against Redis itself.

- a code is claimed by one process only, all of a room's codes or none;
- a code opens what it is for: a public room by its code, a private room by its
  join code (seat or watch) or watch code (watch only), a member's room by its code;
- the lobby pages as one server's lobby does: free seats first, then oldest;
- a dropped room leaves no key behind;
- a room is claimed back only from a dead owner.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from services import RedisServer

from boardroom.server.cluster.directory import Directory
from boardroom.server.cluster.relay import Publisher
from boardroom.server.core.lobby import RoomCodes
from boardroom.shared.protocol.messages import RoomSummary


@pytest.fixture
async def directory(redis_server: RedisServer) -> AsyncIterator[Directory]:
    redis = Redis.from_url(redis_server.url)
    yield Directory(redis, f"test-{secrets.token_hex(4)}")
    await redis.aclose()


def summary(code: str, players: list[str], game: str = "tictactoe") -> RoomSummary:
    return RoomSummary(
        code=code, game=game, title=game, status="waiting", players=players, spectators=0
    )


async def write(directory: Directory, *commands: object) -> None:
    """Run directory commands through a real publisher, in order, and wait for them."""
    publisher = Publisher(directory.redis, directory)
    publisher.start()
    for command in commands:
        publisher.do(command)  # type: ignore[arg-type]
    await publisher.close()


async def test_codes_are_claimed_by_one_process_all_or_none(directory: Directory) -> None:
    assert await directory.claim_codes(RoomCodes("AAAAAA", "JJJJJJJJ", "WWWWWWWW"), "n1")
    # Any one code already taken refuses the whole claim, and nothing of it is kept.
    assert await directory.claim_codes(RoomCodes("BBBBBB", None, None), "n2")
    assert not await directory.claim_codes(RoomCodes("CCCCCC", "JJJJJJJJ", "XXXXXXXX"), "n2")
    assert await directory.locate("XXXXXXXX", "watch") is None
    assert await directory.locate("CCCCCC", "member") is None
    assert await directory.owner("AAAAAA") == "n1"
    # Many processes racing for one code: exactly one wins.
    wins = await asyncio.gather(
        *(directory.claim_codes(RoomCodes("DDDDDD", None, None), f"n{i}") for i in range(20))
    )
    assert sum(wins) == 1


async def test_a_code_opens_what_it_is_for(directory: Directory) -> None:
    await directory.claim_codes(RoomCodes("PUBLIC", None, None), "n1")
    await directory.claim_codes(RoomCodes("SECRET", "JOINCODE", "WATCHCOD"), "n1")
    # Found from the claim on, before its lobby line is written: the creator may
    # hand the code out the moment the room opens (a bug found under load).
    assert await directory.locate("public", "seat") == "PUBLIC"  # read as codes are typed
    assert await directory.locate("PUBLIC", "watch") == "PUBLIC"
    assert await directory.locate("SECRET", "seat") is None  # a private room's own code
    assert await directory.locate("SECRET", "watch") is None
    assert await directory.locate("SECRET", "member") == "SECRET"
    assert await directory.locate("JOINCODE", "seat") == "SECRET"
    assert await directory.locate("JOINCODE", "watch") == "SECRET"
    assert await directory.locate("WATCHCOD", "seat") is None
    assert await directory.locate("WATCHCOD", "watch") == "SECRET"
    assert await directory.locate("NOTHING", "watch") is None


async def test_the_lobby_pages_free_seats_first_then_oldest(directory: Directory) -> None:
    for code in ("FULL11", "FREE22", "FREE33", "GOMOKU"):
        await directory.claim_codes(RoomCodes(code, None, None), "n1")
    await write(
        directory,
        directory.list_room("FULL11", summary("FULL11", ["ann", "bob"]), False),
        directory.list_room("FREE22", summary("FREE22", ["cy"]), True),
        directory.list_room("FREE33", summary("FREE33", ["di"]), False),
        directory.list_room("GOMOKU", summary("GOMOKU", ["ed"], "gomoku"), False),
    )
    page = await directory.public_page(None, 0, 10)
    assert [room.code for room in page.rooms] == ["FREE22", "FREE33", "GOMOKU", "FULL11"]
    assert page.total == 4
    page = await directory.public_page("tictactoe", 1, 2)
    assert [room.code for room in page.rooms] == ["FREE33", "FULL11"]
    assert page.total == 3
    assert await directory.quick_rooms("tictactoe") == ["FREE22"]
    # A change keeps the room's place; a quick room that filled leaves the queue.
    await write(directory, directory.list_room("FREE22", summary("FREE22", ["cy", "fy"]), False))
    assert await directory.quick_rooms("tictactoe") == []
    page = await directory.public_page("tictactoe", 0, 10)
    assert [room.code for room in page.rooms] == ["FREE33", "FULL11", "FREE22"]


async def test_a_dropped_room_leaves_no_key_behind(directory: Directory) -> None:
    before = set(await directory.redis.keys("*"))
    await directory.claim_codes(RoomCodes("GONE11", "JOINGONE", "WATCHGON"), "n1")
    await write(directory, directory.list_room("GONE11", summary("GONE11", ["ann"]), True))
    await write(directory, directory.drop_room("GONE11"))
    left = {key.decode() for key in set(await directory.redis.keys("*")) - before}
    assert left <= {f"{directory.name}:seq"}, left
    assert await directory.owned("n1") == []


async def test_a_room_is_claimed_back_only_from_a_dead_owner(directory: Directory) -> None:
    await directory.beat("alive")
    await directory.claim_codes(RoomCodes("ROOM11", None, None), "alive")
    await directory.claim_codes(RoomCodes("ROOM22", None, None), "dead")
    assert not await directory.claim_room("ROOM11", "n3")
    assert await directory.claim_room("ROOM22", "n3")
    assert await directory.owner("ROOM22") == "n3"
    assert await directory.owned("n3") == ["ROOM22"]
    assert await directory.owned("dead") == []
    assert await directory.claim_room("NEVERSEEN", "n3")  # a stored room the directory lost
    live, dead = await directory.nodes()
    assert live == ["alive"] and dead == []
    # Only one process takes a dead one over.
    takers = await asyncio.gather(*(directory.start_takeover("dead", f"n{i}") for i in range(9)))
    assert sum(takers) == 1
