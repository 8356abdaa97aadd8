"""The teacher's controls as the hub carries them out, over fakes: pause, close,
announce, remove; and tournament rooms, reserved for their players."""

from __future__ import annotations

from hub_fakes import MemoryStore, connection, peer, refusal, said_hello, started_game

from boardroom.server.core.players import PlayerId
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import HubEvent, PauseChanged, PlayerRemoved, RoomDropped
from boardroom.shared.games import get_game
from boardroom.shared.protocol.close_codes import CLOSE_REMOVED
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    PROTOCOL_VERSION,
    Announcement,
    Clock,
    CreateRoom,
    GameOver,
    Hello,
    Join,
    MakeMove,
    Moved,
    RoomClosed,
    Welcome,
)


async def test_pause_all_pauses_every_room_and_those_opened_until_the_resume(
    hub: GameServer,
) -> None:
    heard: list[HubEvent] = []
    hub.subscribe(heard.append)
    ann, bob, code = await started_game(hub)

    assert await hub.pause_all() == 1
    assert hub.paused
    assert [event.paused for event in heard if isinstance(event, PauseChanged)] == [True]
    await hub.handle(bob, CreateRoom(game="tictactoe"))
    assert all(room.state.paused for room in hub.rooms())
    await hub.handle(ann, MakeMove(room=code, move="4"))
    assert refusal(ann).code == ErrorCode.PAUSED

    assert await hub.resume_all() == 2
    assert not any(room.state.paused for room in hub.rooms())
    await hub.handle(ann, MakeMove(room=code, move="4"))
    assert isinstance(connection(ann).last(), Moved)


async def test_close_room_tells_its_members_and_drops_it(hub: GameServer) -> None:
    heard: list[HubEvent] = []
    hub.subscribe(heard.append)
    ann, bob, code = await started_game(hub)

    assert await hub.close_room(code, "lesson over")
    assert not hub.has_room(code)
    for player in (ann, bob):
        assert isinstance(connection(player).of_type(GameOver)[-1], GameOver)
        assert connection(player).last() == RoomClosed(room=code, reason="lesson over")
        assert player.session is not None and player.session.rooms == set()
    drops = [event for event in heard if isinstance(event, RoomDropped)]
    assert [(event.room.code, event.room.closed) for event in drops] == [(code, True)]


async def test_closing_a_room_the_hub_does_not_hold_changes_nothing(hub: GameServer) -> None:
    ann = await said_hello(hub, "ann")
    await hub.handle(ann, CreateRoom(game="connect4"))
    before = hub.rooms()
    assert not await hub.close_room("NOROOM", "lesson over")
    assert hub.rooms() == before


async def test_an_announcement_reaches_the_connected_sessions_only(hub: GameServer) -> None:
    ann, bob = await said_hello(hub, "ann"), await said_hello(hub, "bob", "192.0.2.2")
    await hub.disconnected(bob)
    assert hub.announce("tidy up") == 1
    assert connection(ann).last() == Announcement(text="tidy up")
    assert not connection(bob).of_type(Announcement)


async def test_a_removed_player_loses_its_sessions_and_its_game(
    hub: GameServer, store: MemoryStore
) -> None:
    heard: list[HubEvent] = []
    hub.subscribe(heard.append)
    ann, bob, code = await started_game(hub)
    await hub.handle(ann, MakeMove(room=code, move="4"))
    assert bob.session is not None and bob.session.player is not None
    player = PlayerId(bob.session.player)
    resume_token = connection(bob).of_type(Welcome)[0].resume_token

    assert await hub.remove_player(player) == 1
    assert connection(bob).closed is not None and connection(bob).closed[0] == CLOSE_REMOVED
    assert hub.player_sessions(player) == []
    assert [event for event in heard if isinstance(event, PlayerRemoved)] == [
        PlayerRemoved(player, revoked=False)
    ]
    # Its game was resigned, and stored so; the other player heard.
    [game] = store.games.values()
    assert game.termination.value == "resignation"
    result = connection(ann).of_type(GameOver)[-1].result
    assert (result.winner, result.reason) == ("first", "resignation")
    # Its resume token opens nothing now.
    back = peer("192.0.2.2")
    await hub.handle(back, Hello(name="bob", version=PROTOCOL_VERSION, resume_token=resume_token))
    assert refusal(back).code == ErrorCode.BAD_TOKEN


async def test_a_tournament_room_seats_its_reserved_players_only(hub: GameServer) -> None:
    ann, bob = await said_hello(hub, "ann"), await said_hello(hub, "bob", "192.0.2.2")
    eve = await said_hello(hub, "eve", "192.0.2.3")
    assert ann.session is not None and bob.session is not None
    assert ann.session.player is not None and bob.session.player is not None
    code = hub.open_tournament_room(
        get_game("connect4"),
        clock=Clock(),
        first=PlayerId(ann.session.player),
        second=PlayerId(bob.session.player),
    )
    info = hub.room_info(code)
    assert info is not None and info.join_code is not None
    join = info.join_code

    before = hub.rooms()
    await hub.handle(eve, Join(code=join))
    assert refusal(eve).code == ErrorCode.ROOM_FULL
    assert hub.rooms() == before

    await hub.handle(ann, Join(code=join))
    assert await hub.close_room_unless_started(code, "a no-show") == {
        "first": True,
        "second": False,
    }
    assert not hub.has_room(code)
    assert connection(ann).last() == RoomClosed(room=code, reason="a no-show")
