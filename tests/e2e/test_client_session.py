"""The client's session layer against a real server: requests and replies, rooms
kept current from events, refusals as typed errors, and reconnecting after a cut."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from harness import TIMEOUT, CuttableProxy, running_server, wait_until
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as serve_websockets

from boardroom.client.errors import ConnectionLostError, RequestRefusedError, ServerUnreachableError
from boardroom.client.session import Disconnected, Reconnected, Session, SessionEnded, SessionEvent
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import (
    CreateRoom,
    GameOver,
    Join,
    Leave,
    Left,
    MakeMove,
    Moved,
    Ping,
    Pong,
    State,
    Watch,
    Welcome,
)


async def next_event(
    queue: asyncio.Queue[SessionEvent], kind: type, timeout: float = TIMEOUT
) -> SessionEvent:
    """The next event of type ``kind`` (others before it are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            event = await queue.get()
            if isinstance(event, kind):
                return event


async def test_a_session_plays_a_game_against_the_ai_and_tracks_the_room(db_path: Path) -> None:
    """The reply to a request comes back from request(); the room is kept current
    from the events that follow, through the end of the game."""
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as session:
        events = session.subscribe()
        reply = await session.request(CreateRoom(game="tictactoe", ai_level="perfect"))
        assert isinstance(reply, State) and reply.room.you == "first"
        code = reply.room.code
        await wait_until(lambda: session.rooms[code].my_turn)
        room = session.rooms[code]
        while room.playing:
            await session.request(MakeMove(room=code, move=room.legal_moves[0], ply=room.state.ply))
            await wait_until(lambda: room.my_turn or not room.playing)  # the AI has answered
        over = await next_event(events, GameOver)
        assert isinstance(over, GameOver)
        assert room.state.status == "finished"
        assert room.state.result == over.result
        assert room.state.moves == over.moves
        assert over.result.winner == "second"  # first legal move every time loses to perfect
        assert room.winning_cells == list(over.result.line)


async def test_a_listener_sees_each_event_before_the_requester_does(db_path: Path) -> None:
    """A listener is called at once with every event, the rooms already changed:
    by the time request() returns the reply, the listener has seen it; one that
    raises is logged and stops nothing; a removed listener hears no more."""
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as session:
        seen: list[tuple[str, bool]] = []

        def listener(event: SessionEvent) -> None:
            seen.append((type(event).__name__, bool(session.rooms)))

        def broken(event: SessionEvent) -> None:
            raise RuntimeError("a listener's bug")

        session.add_listener(broken)
        session.add_listener(listener)
        reply = await session.request(CreateRoom(game="tictactoe"))
        assert isinstance(reply, State)
        assert seen == [("State", True)]
        left = await session.request(Leave(room=reply.room.code))
        assert isinstance(left, Left)
        assert seen == [("State", True), ("Left", False)]
        session.remove_listener(listener)
        assert isinstance(await session.request(Ping()), Pong)
        assert len(seen) == 2


async def test_a_refused_request_raises_with_the_servers_code_and_changes_nothing(
    db_path: Path,
) -> None:
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as session:
        reply = await session.request(CreateRoom(game="connect4"))
        assert isinstance(reply, State)
        code = reply.room.code
        with pytest.raises(RequestRefusedError) as refused:
            await session.request(MakeMove(room=code, move="4"))
        assert refused.value.code == "game_not_started"
        with pytest.raises(RequestRefusedError) as refused:
            await session.request(Join(code="NOSUCH"))
        assert refused.value.code == "unknown_room"
        assert session.rooms[code].state.moves == ""
        assert isinstance(await session.request(Ping()), Pong)


async def test_a_bad_name_is_refused_at_start(db_path: Path) -> None:
    async with running_server(db_path) as server:
        session = Session(server.ws_url, "x" * 40)
        with pytest.raises(RequestRefusedError) as refused:
            await session.start()
        assert refused.value.code == "bad_name"
        assert not session.connected


async def test_no_server_is_server_unreachable(unused_tcp_port: int) -> None:
    session = Session(f"127.0.0.1:{unused_tcp_port}", "ann", open_timeout=2)
    with pytest.raises(ServerUnreachableError, match="cannot reach a Boardroom server"):
        await session.start()


async def test_a_flood_of_requests_gets_rate_limited_errors_and_nothing_hangs(
    db_path: Path,
) -> None:
    """Unpaced, an error without an id (rate_limited) refuses the oldest waiting request."""
    async with (
        running_server(db_path) as server,
        Session(server.ws_url, "ann", pace=None) as session,
    ):
        results = await asyncio.gather(
            *(session.request(Ping(), timeout=TIMEOUT) for _ in range(80)),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, RequestRefusedError)]
        assert refused and all(r.code == "rate_limited" for r in refused)
        assert all(isinstance(r, Pong | RequestRefusedError) for r in results)


async def test_a_paced_session_stays_under_the_rate_limit(db_path: Path) -> None:
    """By default requests wait their turn instead of being refused."""
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as session:
        replies = await asyncio.gather(*(session.request(Ping()) for _ in range(60)))
        assert all(isinstance(reply, Pong) for reply in replies)


async def test_a_cut_connection_reconnects_resumes_the_seat_and_finishes_the_game(
    db_path: Path,
) -> None:
    async with (
        running_server(db_path) as server,
        CuttableProxy(server.port) as proxy,
        Session(proxy.ws_url, "ann") as ann,
        Session(server.ws_url, "bob") as bob,
    ):
        ann_events = ann.subscribe()
        created = await ann.request(CreateRoom(game="tictactoe"))
        assert isinstance(created, State)
        code = created.room.code
        await bob.request(Join(code=code))
        await wait_until(lambda: code in ann.rooms and ann.rooms[code].my_turn)
        await ann.request(MakeMove(room=code, move="a1", ply=0))

        proxy.cut()
        dropped = await next_event(ann_events, Disconnected)
        assert isinstance(dropped, Disconnected) and dropped.will_retry
        # Down until the reader has reconnected: a request fails at once, typed.
        assert not ann.connected
        with pytest.raises(ConnectionLostError):
            await ann.request(Ping())
        back = await next_event(ann_events, Reconnected)
        assert isinstance(back, Reconnected)
        assert back.resumed_rooms == [code] and back.lost_rooms == []

        # Bob moved while ann was away? Either way her copy catches up from state.
        await bob.request(MakeMove(room=code, move="b1", ply=1))
        await wait_until(lambda: ann.rooms[code].my_turn and ann.rooms[code].state.ply == 2)
        for ply, (mover, move) in enumerate([(ann, "a2"), (bob, "b2"), (ann, "a3")], start=2):
            await mover.request(MakeMove(room=code, move=move, ply=ply))
        over = await next_event(ann_events, GameOver)
        assert isinstance(over, GameOver)
        assert over.result.winner == "first"
        assert ann.rooms[code].state.moves == "a1 b1 a2 b2 a3"


async def test_a_spectator_watches_again_after_a_cut(db_path: Path) -> None:
    async with (
        running_server(db_path) as server,
        CuttableProxy(server.port) as proxy,
        Session(server.ws_url, "ann") as ann,
        Session(proxy.ws_url, "cat") as cat,
    ):
        created = await ann.request(CreateRoom(game="connect4", ai_level="random"))
        assert isinstance(created, State)
        code = created.room.code
        await cat.request(Watch(code=code))
        events = cat.subscribe()
        proxy.cut()
        await next_event(events, Reconnected)
        await wait_until(lambda: code in ann.rooms and ann.rooms[code].my_turn)
        await ann.request(MakeMove(room=code, move="4", ply=0))
        moved = await next_event(events, Moved)
        assert isinstance(moved, Moved) and moved.room == code
        await wait_until(lambda: cat.rooms[code].state.ply >= 1)
        assert cat.rooms[code].you is None
        assert cat.rooms[code].state.moves.startswith("4")


async def test_a_spectator_cut_again_while_watching_again_still_watches_again(
    db_path: Path,
) -> None:
    """Cat's connection is cut, and cut again the moment Cat is back, before its
    watch again is answered (as a cluster's process closes a spectator whose room
    moved, 1012, right after the takeover welcomed it). The room was forgotten:
    the next reconnection watched nothing, and Cat never saw another move. It is
    watched again once the connection holds."""
    async with (
        running_server(db_path) as server,
        CuttableProxy(server.port) as proxy,
        Session(server.ws_url, "ann") as ann,
        Session(proxy.ws_url, "cat") as cat,
    ):
        created = await ann.request(CreateRoom(game="connect4", ai_level="random"))
        assert isinstance(created, State)
        code = created.room.code
        await cat.request(Watch(code=code))
        events = cat.subscribe()
        cuts = [proxy.cut]

        def cut_once_more(event: SessionEvent) -> None:
            if isinstance(event, Reconnected) and cuts:
                cuts.pop()()  # the watch again is on its way, or about to be

        cat.add_listener(cut_once_more)
        proxy.cut()
        await next_event(events, Reconnected)
        await next_event(events, Reconnected)
        await wait_until(lambda: code in ann.rooms and ann.rooms[code].my_turn)
        await ann.request(MakeMove(room=code, move="4", ply=0))
        moved = await next_event(events, Moved)
        assert isinstance(moved, Moved) and moved.room == code


async def test_a_session_taken_over_by_its_token_ends_without_reconnecting(
    db_path: Path,
) -> None:
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as first:
        events = first.subscribe()
        async with Session(server.ws_url, "ann", resume_token=first.resume_token) as second:
            ended = await next_event(events, SessionEnded)
            assert isinstance(ended, SessionEnded)
            assert "taken over" in ended.reason
            assert not first.connected
            assert isinstance(await second.request(Ping()), Pong)


async def test_a_token_the_server_no_longer_knows_starts_a_new_session(db_path: Path) -> None:
    async with (
        running_server(db_path) as server,
        Session(server.ws_url, "ann", resume_token="not-a-token-it-knows") as session,
    ):
        assert session.resume_token not in (None, "not-a-token-it-knows")
        assert isinstance(await session.request(Ping()), Pong)


async def test_a_session_without_a_player_token_is_made_a_player_and_keeps_its_token(
    db_path: Path,
) -> None:
    """The first hello mints a player, whose token the session keeps; a later
    session with that token is the same player, not a new one."""
    async with running_server(db_path) as server:
        async with Session(server.ws_url, "ann") as first:
            assert first.new_player
            assert first.player_token is not None and first.player_token.startswith("bp_")
            assert first.player_id is not None and first.player_id.startswith("p")
        async with Session(server.ws_url, "ann", player_token=first.player_token) as again:
            assert not again.new_player
            assert again.player_id == first.player_id
            assert again.player_token == first.player_token


async def test_a_reconnection_says_hello_as_the_same_player(db_path: Path) -> None:
    """After a cut the session presents the token it was given at its first welcome:
    the player is the same (a hello without it would have minted another)."""
    async with (
        running_server(db_path) as server,
        CuttableProxy(server.port) as proxy,
        Session(proxy.ws_url, "ann") as ann,
    ):
        events = ann.subscribe()
        player_id, token = ann.player_id, ann.player_token
        proxy.cut()
        await next_event(events, Reconnected)
        assert (ann.player_id, ann.player_token) == (player_id, token)
        assert ann.new_player  # still: this session's player was made for it


async def test_an_unknown_player_token_is_refused_at_start_and_the_caller_may_start_afresh(
    db_path: Path,
) -> None:
    """bad_player_token fails start() with nothing started; with the token dropped
    the same session starts as a new player."""
    unknown = "bp_" + "A" * 43
    async with running_server(db_path) as server:
        session = Session(server.ws_url, "ann", player_token=unknown)
        with pytest.raises(RequestRefusedError) as refused:
            await session.start()
        assert refused.value.code == "bad_player_token"
        assert not session.connected and session.player_id is None
        session.player_token = None
        try:
            await session.start()
            assert session.new_player and session.player_token not in (None, unknown)
            assert isinstance(await session.request(Ping()), Pong)
        finally:
            await session.close()


async def test_a_reconnection_the_server_refuses_as_an_unknown_player_ends_the_session(
    tmp_path: Path,
) -> None:
    """Reconnected to a server that does not know the player (another database),
    the session ends with the reason, at once, rather than retrying a hello that
    would be refused again."""
    async with (
        running_server(tmp_path / "first.db") as first,
        running_server(tmp_path / "other.db") as other,
        CuttableProxy(first.port) as proxy,
        Session(proxy.ws_url, "ann") as ann,
    ):
        events = ann.subscribe()
        proxy.target_port = other.port
        proxy.cut()
        ended = await next_event(events, SessionEnded)
        assert isinstance(ended, SessionEnded)
        assert "the server refused this player" in ended.reason, ended.reason
        assert not ann.connected


async def test_a_server_busy_making_new_players_is_asked_again_until_it_makes_one(
    db_path: Path,
) -> None:
    """One new player an address every 3 s: the second new player's hello is
    refused ``rate_limited``, and start() says hello again after the server's
    ``retry_after`` (said to ``on_busy`` first) and is welcomed; a refusal of the
    player itself stays final, with no wait."""
    async with running_server(db_path, new_players_per_address=1, new_player_seconds=3.0) as server:
        async with Session(server.ws_url, "ann"):
            pass  # the address's one new player
        waits: list[float] = []
        bob = Session(server.ws_url, "bob")
        bob.on_busy = waits.append
        await bob.start()
        try:
            assert bob.new_player and bob.name == "bob"
            # The server's retry_after (at most 3 s here), and some jitter.
            assert waits and 0 < waits[0] <= 3.0 * 1.2, waits
            assert isinstance(await bob.request(Ping()), Pong)
        finally:
            await bob.close()

        unknown = Session(server.ws_url, "cat", player_token="bp_" + "A" * 43)
        unknown.on_busy = waits.append
        waited = len(waits)
        with pytest.raises(RequestRefusedError) as refused:
            await unknown.start()
        assert refused.value.code == "bad_player_token"
        assert len(waits) == waited


async def test_a_hello_closed_with_1013_is_said_again_and_the_session_resumes(
    unused_tcp_port: int,
) -> None:
    """A cluster still taking over a dead process's rooms closes a resuming
    hello with 1013 (try again later): start() says it again, with the same
    resume token, and is welcomed (a stand-in server: the first hello is
    closed, the second welcomed)."""
    hellos: list[dict[str, object]] = []

    async def serve(ws: ServerConnection) -> None:
        hellos.append(json.loads(await ws.recv()))
        if len(hellos) == 1:
            await ws.close(1013, "try again")
            return
        welcome = Welcome(name="ann", version=1, resume_token="tok", resumed_rooms=["ROOM"], id=0)
        await ws.send(encode_message(welcome))
        await ws.wait_closed()

    async with serve_websockets(serve, "127.0.0.1", unused_tcp_port):
        session = Session(f"ws://127.0.0.1:{unused_tcp_port}/ws", "ann", resume_token="tok")
        welcome = await session.start()
        try:
            assert welcome.resumed_rooms == ["ROOM"]
            assert [hello["resume_token"] for hello in hellos] == ["tok", "tok"]
        finally:
            await session.close()
