"""The hub in a cluster, over fakes: messages relayed from another process acted
on as if their connection were here, and messages for rooms held elsewhere sent
on only when no room here answers (the other processes: FakeElsewhere)."""

from __future__ import annotations

from hub_fakes import FakeConnection, FakeElsewhere, connection, peer, refusal, said_hello

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.sessions import session_id_for
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import SessionRecord
from boardroom.shared.protocol.close_codes import CLOSE_TRY_AGAIN_LATER
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    PROTOCOL_VERSION,
    CreateRoom,
    Hello,
    Join,
    MakeMove,
    State,
    Welcome,
)

TOKEN = "a-resume-token-made-on-another-process"


async def test_a_relayed_message_is_answered_through_the_other_process(hub: GameServer) -> None:
    record = SessionRecord(id=session_id_for(TOKEN), name="ann", kind=PlayerKind.HUMAN)
    there = FakeConnection("198.51.100.7")

    await hub.handle_for(record, there, TOKEN, CreateRoom(game="connect4", id=1))

    state = there.last()
    assert isinstance(state, State) and state.room.you == "first" and state.id == 1
    assert hub.knows(record.id) and hub.outbox_of(record.id) is there
    assert [room.holders.get("first") for room in hub.rooms()] == [record.id]

    await hub.detach(record.id, there)
    assert hub.knows(record.id) and not hub.is_connected(record.id)


async def test_a_session_attached_again_gets_its_rooms_state(hub: GameServer) -> None:
    record = SessionRecord(id=session_id_for(TOKEN), name="ann", kind=PlayerKind.HUMAN)
    first = FakeConnection()
    await hub.handle_for(record, first, TOKEN, CreateRoom(game="connect4"))
    await hub.detach(record.id, first)

    second = FakeConnection()
    session = await hub.attach(record, second, rejoin=True)
    assert hub.live_session(record.id) is session
    assert isinstance(second.last(), State)


async def test_only_a_message_no_room_here_answers_goes_to_the_cluster(
    hub: GameServer,
) -> None:
    elsewhere = FakeElsewhere(rooms={"FARAWY"})
    hub.elsewhere = elsewhere
    ann, bob = await said_hello(hub, "ann"), await said_hello(hub, "bob", "192.0.2.2")
    await hub.handle(ann, CreateRoom(game="connect4"))
    here = hub.rooms()[0].code
    assert elsewhere.claimed[0].room == here  # its codes were claimed cluster-wide
    assert here in elsewhere.changed  # and the public list told of it

    await hub.handle(bob, Join(code=here))
    await hub.handle(bob, Join(code="FARAWY", id=2))
    await hub.handle(bob, MakeMove(room="FARAWY", move="4", id=3))
    assert bob.session is not None
    assert [(who, message.id) for who, message in elsewhere.forwarded] == [
        (bob.session.id, 2),
        (bob.session.id, 3),
    ]

    # No process holds it: refused as by a server alone, and nothing sent on.
    await hub.handle(bob, Join(code="NOWHRE", id=4))
    assert refusal(bob).code == ErrorCode.UNKNOWN_ROOM
    assert len(elsewhere.forwarded) == 2
    assert isinstance(connection(ann).last(), State)


async def test_a_resume_whose_seats_may_be_in_a_takeover_is_told_to_try_again(
    hub: GameServer,
) -> None:
    """The cluster cannot yet say where the session's seats are (a process died
    and its rooms are not taken over within the wait): the hello is not
    welcomed without them; its connection is closed with 1013 (try again),
    the session kept, and the next hello, once the takeover is done, resumes it."""
    elsewhere = FakeElsewhere()
    hub.elsewhere = elsewhere
    ann = await said_hello(hub, "ann")
    welcome = connection(ann).last()
    assert isinstance(welcome, Welcome) and ann.session is not None
    await hub.handle(ann, CreateRoom(game="connect4"))
    await hub.disconnected(ann)

    elsewhere.takeover_pending = True
    early = peer()
    hello = Hello(name="ann", version=PROTOCOL_VERSION, resume_token=welcome.resume_token)
    await hub.handle(early, hello)
    assert connection(early).of_type(Welcome) == []
    assert connection(early).closed is not None
    assert connection(early).closed[0] == CLOSE_TRY_AGAIN_LATER
    assert hub.knows(ann.session.id) and not hub.is_connected(ann.session.id)

    elsewhere.takeover_pending = False
    later = peer()
    await hub.handle(later, hello)
    (again,) = connection(later).of_type(Welcome)
    assert again.resumed_rooms == [hub.rooms()[0].code]
