"""The hub's rooms over fakes: opening, the caps, dropping an emptied room, and
the sweep of idle sessions (time passed in, as the sweeper does)."""

from __future__ import annotations

import time

from hub_fakes import connection, make_hub, refusal, said_hello

from boardroom.server.config import ServerConfig
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import HubEvent, RoomDropped
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    CreateRoom,
    Join,
    Leave,
    Left,
    QuickMatch,
    State,
    Watch,
)


async def test_a_room_opened_is_listed_with_its_opener_seated(hub: GameServer) -> None:
    ann = await said_hello(hub, "ann")
    await hub.handle(ann, CreateRoom(game="connect4", id=1))
    [info] = hub.rooms()
    assert hub.has_room(info.code)
    assert info.status == "waiting" and info.taken == {"first"}
    assert hub.public_rooms().total == 1
    assert hub.room_counts() == {"waiting": 1, "playing": 0, "finished": 0}

    await hub.handle(ann, CreateRoom(game="connect4", public=False, id=2))
    private = [room for room in hub.rooms() if room.code != info.code]
    assert len(private) == 1 and private[0].join_code is not None
    assert hub.public_rooms().total == 1  # a private room is not listed


async def test_quick_match_puts_two_players_in_one_room(hub: GameServer) -> None:
    ann, bob = await said_hello(hub, "ann"), await said_hello(hub, "bob", "192.0.2.2")
    await hub.handle(ann, QuickMatch(game="connect4"))
    await hub.handle(bob, QuickMatch(game="connect4"))
    [info] = hub.rooms()
    assert info.status == "playing"
    assert dict(info.game_players) == {"first": "ann", "second": "bob"}


async def test_a_room_everyone_left_is_dropped_and_its_drop_is_heard(hub: GameServer) -> None:
    dropped: list[HubEvent] = []
    hub.subscribe(dropped.append)
    ann = await said_hello(hub, "ann")
    watcher = await said_hello(hub, "parent", "192.0.2.9", client="spectator")
    await hub.handle(ann, CreateRoom(game="connect4"))
    code = hub.rooms()[0].code
    await hub.handle(watcher, Watch(code=code))

    await hub.handle(ann, Leave(room=code, id=3))
    assert connection(ann).last() == Left(room=code, id=3)
    assert hub.has_room(code)  # the spectator is still in
    await hub.handle(watcher, Leave(room=code))

    assert not hub.has_room(code)
    drops = [event for event in dropped if isinstance(event, RoomDropped)]
    assert [event.room.code for event in drops] == [code]
    # Its code opens nothing now.
    await hub.handle(ann, Join(code=code))
    assert refusal(ann).code == ErrorCode.UNKNOWN_ROOM


async def test_past_the_cap_on_rooms_a_new_room_is_refused_and_nothing_opens() -> None:
    hub, store = make_hub(ServerConfig(max_rooms_per_session=1))
    try:
        ann = await said_hello(hub, "ann")
        await hub.handle(ann, CreateRoom(game="connect4"))
        before = hub.rooms()

        await hub.handle(ann, CreateRoom(game="connect4", id=2))
        assert refusal(ann).code == ErrorCode.TOO_MANY_ROOMS
        assert hub.rooms() == before
        await hub.handle(ann, QuickMatch(game="tictactoe", id=3))
        assert refusal(ann).code == ErrorCode.TOO_MANY_ROOMS
        assert hub.rooms() == before
        assert store.games == {}

        # Once its room is gone, its opener may open another.
        await hub.handle(ann, Leave(room=before[0].code))
        await hub.handle(ann, CreateRoom(game="connect4", id=4))
        assert isinstance(connection(ann).last(), State)
    finally:
        await hub.stop()


async def test_the_sweep_forgets_an_idle_session_only_once_its_grace_is_over() -> None:
    hub, _ = make_hub(ServerConfig(grace_seconds=30))
    try:
        watcher = await said_hello(hub, "parent", client="spectator")
        ann = await said_hello(hub, "ann", "192.0.2.2")
        await hub.handle(ann, CreateRoom(game="connect4"))
        await hub.handle(watcher, Watch(code=hub.rooms()[0].code))
        assert watcher.session is not None
        watcher_id = watcher.session.id

        await hub.disconnected(watcher)  # spectating ends with the connection
        left_at = time.time()
        assert hub.rooms()[0].spectators == 0
        hub.sweep(left_at + 29)
        assert hub.knows(watcher_id)

        hub.sweep(left_at + 31)
        assert not hub.knows(watcher_id)
        assert hub.session_count() == 1  # ann, connected, stays
    finally:
        await hub.stop()


async def test_the_sweep_keeps_a_session_kept_for_a_tournament(hub: GameServer) -> None:
    ann = await said_hello(hub, "ann")
    assert ann.session is not None
    hub.keep_session(ann.session.id, "ann", ann.session.kind)
    await hub.disconnected(ann)
    hub.sweep(time.time() + 3600)
    assert hub.knows(ann.session.id)

    hub.release_session(ann.session.id)
    hub.sweep(time.time() + 3600)
    assert not hub.knows(ann.session.id)
