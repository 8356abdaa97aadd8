"""The hub's dispatch over fakes: each message to what it asks for, each refusal
an ``error`` that changes nothing (the store in memory, connections that keep
what they are sent; see hub_fakes.py)."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest
from hub_fakes import (
    MemoryStore,
    connection,
    make_hub,
    peer,
    refusal,
    said_hello,
    started_game,
)

from boardroom.server.core.room_output import GameStarted
from boardroom.server.core.sessions import Session
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import HubEvent, SessionWelcomed
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    PROTOCOL_VERSION,
    CreateRoom,
    Hello,
    Join,
    Leave,
    MakeMove,
    Moved,
    Ping,
    Pong,
    State,
    Watch,
    Welcome,
)


def snapshot(hub: GameServer, store: MemoryStore) -> Any:
    """Everything a refused request must leave as it was."""
    return (hub.rooms(), hub.session_count(), copy.deepcopy(store.games), dict(store.players))


async def test_a_ping_is_answered_before_any_hello() -> None:
    hub, _ = make_hub()
    anyone = peer()
    await hub.handle(anyone, Ping(id=7))
    assert connection(anyone).sent == [Pong(id=7)]


async def test_a_request_before_hello_is_refused_and_opens_nothing(
    hub: GameServer, store: MemoryStore
) -> None:
    before = snapshot(hub, store)
    stranger = peer()
    await hub.handle(stranger, CreateRoom(game="connect4", id=3))
    assert refusal(stranger).code == ErrorCode.HELLO_REQUIRED
    assert refusal(stranger).id == 3
    assert snapshot(hub, store) == before


async def test_hello_makes_a_stored_player_and_numbers_a_name_already_online(
    hub: GameServer, store: MemoryStore
) -> None:
    first = await said_hello(hub, "ann")
    second = await said_hello(hub, "Ann", "192.0.2.2")
    bot = await said_hello(hub, "ann", "192.0.2.3", client="bot")
    welcomes = [connection(p).last() for p in (first, second, bot)]
    assert [w.name for w in welcomes if isinstance(w, Welcome)] == ["ann", "Ann 2", "ann"]
    assert all(isinstance(w, Welcome) and w.new_player and w.player_token for w in welcomes)
    assert {w.player_id for w in welcomes if isinstance(w, Welcome)} == set(store.players)
    assert hub.session_count() == 3


async def test_a_hello_in_a_version_not_spoken_is_refused_and_makes_nobody(
    hub: GameServer, store: MemoryStore
) -> None:
    before = snapshot(hub, store)
    newcomer = peer()
    await hub.handle(newcomer, Hello(name="ann", version=PROTOCOL_VERSION + 1))
    assert refusal(newcomer).code == ErrorCode.UNSUPPORTED_VERSION
    assert snapshot(hub, store) == before
    assert newcomer.session is None


async def test_a_hello_a_feature_refuses_is_answered_with_its_code_and_forgets_the_session(
    hub: GameServer,
) -> None:
    async def closed_class(session: Session) -> None:
        raise ProtocolError(ErrorCode.UNKNOWN_CLASS_TOKEN, "not in this class")

    hub.add_hello_check(closed_class)
    newcomer = peer()
    await hub.handle(newcomer, Hello(name="ann", version=PROTOCOL_VERSION))
    assert refusal(newcomer).code == ErrorCode.UNKNOWN_CLASS_TOKEN
    assert hub.session_count() == 0
    assert newcomer.session is None

    hub.remove_hello_check(closed_class)
    await said_hello(hub, "ann")
    assert hub.session_count() == 1


async def test_create_room_then_join_starts_a_game_that_is_stored_and_heard(
    hub: GameServer, store: MemoryStore
) -> None:
    heard: list[HubEvent] = []
    hub.subscribe(heard.append)
    ann, bob, code = await started_game(hub)

    assert [type(event) for event in heard] == [SessionWelcomed, SessionWelcomed, GameStarted]
    info = hub.room_info(code)
    assert info is not None and info.status == "playing"
    assert dict(info.game_players) == {"first": "ann", "second": "bob"}
    assert [game.room for game in store.games.values()] == [code]
    for player in (ann, bob):
        state = connection(player).last()
        assert isinstance(state, State) and state.room.status == "playing"
    assert ann.session is not None and ann.session.rooms == {code}


async def test_a_move_reaches_both_players_once_it_is_stored(
    hub: GameServer, store: MemoryStore
) -> None:
    ann, bob, code = await started_game(hub)
    await hub.handle(ann, MakeMove(room=code, move="4", id=5))
    # The board after the move and the moves left come with it (the client draws them).
    board = ["......."] * 5 + ["...X..."]
    legal = ["1", "2", "3", "4", "5", "6", "7"]
    moved = Moved(room=code, ply=0, move="4", side="first", board=board, legal=legal)
    assert connection(bob).last() == moved
    assert connection(ann).last() == msgspec.structs.replace(moved, id=5)
    assert store.games[1].moves == ["4"]


@pytest.mark.parametrize(
    ("who", "message", "code"),
    [
        ("bob", MakeMove(room="ROOM", move="4"), ErrorCode.NOT_YOUR_TURN),
        ("ann", MakeMove(room="ROOM", move="9"), ErrorCode.ILLEGAL_MOVE),
        ("ann", MakeMove(room="NOROOM", move="4"), ErrorCode.UNKNOWN_ROOM),
        ("bob", Join(code="NOROOM"), ErrorCode.UNKNOWN_ROOM),
        ("bob", Watch(code="NOROOM"), ErrorCode.UNKNOWN_ROOM),
        ("ann", CreateRoom(game="chess"), ErrorCode.UNKNOWN_GAME),
    ],
    ids=["out-of-turn", "illegal", "move-unknown-room", "join-unknown", "watch-unknown", "game"],
)
async def test_a_refused_request_is_answered_and_changes_nothing(
    hub: GameServer, store: MemoryStore, who: str, message: Any, code: ErrorCode
) -> None:
    ann, bob, room = await started_game(hub)
    if getattr(message, "room", None) == "ROOM":
        message = type(message)(**{**_fields(message), "room": room})
    sender = {"ann": ann, "bob": bob}[who]
    before = snapshot(hub, store)
    sent = {player: len(connection(player).sent) for player in (ann, bob)}

    await hub.handle(sender, message)

    assert refusal(sender).code == code
    assert snapshot(hub, store) == before
    # The error went to the sender alone: nobody else heard of it.
    other = bob if sender is ann else ann
    assert len(connection(other).sent) == sent[other]
    assert len(connection(sender).sent) == sent[sender] + 1


async def test_a_spectator_session_may_watch_but_not_open_a_room(
    hub: GameServer, store: MemoryStore
) -> None:
    _, _, code = await started_game(hub)
    watcher = await said_hello(hub, "parent", "192.0.2.9", client="spectator")
    before = snapshot(hub, store)
    await hub.handle(watcher, CreateRoom(game="connect4"))
    assert refusal(watcher).code == ErrorCode.WATCH_ONLY
    assert snapshot(hub, store) == before

    await hub.handle(watcher, Watch(code=code, id=4))
    state = connection(watcher).last()
    assert isinstance(state, State) and state.room.you is None and state.id == 4


async def test_a_resumed_session_is_given_back_its_seat(hub: GameServer) -> None:
    ann, _, code = await started_game(hub)
    welcome = connection(ann).of_type(Welcome)[0]
    await hub.disconnected(ann)
    assert not hub.is_connected(ann.session.id if ann.session else "")

    back = peer()
    await hub.handle(
        back, Hello(name="ann", version=PROTOCOL_VERSION, resume_token=welcome.resume_token)
    )
    again = connection(back).of_type(Welcome)
    assert again and again[0].resumed_rooms == [code] and again[0].name == "ann"
    assert back.session is ann.session
    state = connection(back).last()
    assert isinstance(state, State) and state.room.you == "first"


async def test_a_session_that_left_its_room_is_no_member_of_it(hub: GameServer) -> None:
    ann, _, code = await started_game(hub)
    await hub.handle(ann, Leave(room=code))
    assert ann.session is not None and ann.session.rooms == set()
    info = hub.room_info(code)
    assert info is not None and ann.session.id not in info.holders.values()


def _fields(message: Any) -> dict[str, Any]:
    return {name: getattr(message, name) for name in message.__struct_fields__}
