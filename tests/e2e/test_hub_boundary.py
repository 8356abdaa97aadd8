"""The hub's boundary for features, on a real server: events, hello checks, room snapshots.

Each test starts the whole server (:func:`harness.running_server`), subscribes
to its hub or adds checks as a feature would, and drives it with real
WebSocket clients. Events are delivered synchronously, one ``publish`` to
every subscriber in turn: once one subscriber has an event, every other one
subscribed then has it too, so "this one heard nothing" needs no waiting.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import TypeVar

import pytest
from classroom_helpers import Teacher
from harness import TIMEOUT, Player, running_server

from boardroom.server.core.records import Termination
from boardroom.server.core.room_output import GameFinished, GameStarted
from boardroom.server.core.sessions import Session, session_id_for
from boardroom.server.hub.boundary import HubEvent, RoomDropped, SessionWelcomed
from boardroom.server.lifecycle import HUB
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError

E = TypeVar("E")


class Heard:
    """A subscriber that keeps every event it hears, in order, for a test to await."""

    def __init__(self) -> None:
        self.events: list[HubEvent] = []
        self._queue: asyncio.Queue[HubEvent] = asyncio.Queue()

    def __call__(self, event: HubEvent) -> None:
        self.events.append(event)
        self._queue.put_nowait(event)

    async def next(self, kind: type[E]) -> E:
        """The next event of ``kind`` not yet taken (those of other kinds before it are passed)."""
        while True:
            event = await asyncio.wait_for(self._queue.get(), TIMEOUT)
            if isinstance(event, kind):
                return event


async def play_a_short_game(url: str, name: str) -> tuple[Player, str]:
    """``name`` opens a room against the AI, resigns at once and leaves: a game
    starts and ends (aborted: no move was made), and the room goes. The player
    and the room code."""
    player = await Player.join_server(url, name)
    created = await player.request({"type": "create_room", "game": "tictactoe", "ai_level": "easy"})
    code: str = created["room"]["code"]
    await player.expect("state", timeout=TIMEOUT)
    assert (await player.request({"type": "resign", "room": code}))["type"] == "game_over"
    assert (await player.request({"type": "leave", "room": code}))["type"] == "left"
    return player, code


# -- the event stream -------------------------------------------------------------------


async def test_two_subscribers_both_hear_every_event(tmp_path: Path) -> None:
    """A hello, a game's start and end, the room let go: each of two subscribers
    hears all of it, in the same order, as the same values."""
    async with running_server(tmp_path / "games.db") as server:
        hub = server.app[HUB]
        first, second = Heard(), Heard()
        hub.subscribe(first)
        hub.subscribe(second)
        ann, code = await play_a_short_game(server.ws_url, "ann")
        dropped = await second.next(RoomDropped)
        assert first.events == second.events
        kinds = [type(event) for event in first.events]
        assert kinds == [SessionWelcomed, GameStarted, GameFinished, RoomDropped]
        welcomed, started, finished, _ = first.events
        assert welcomed == SessionWelcomed(session_id_for(ann.token or ""))
        assert isinstance(started, GameStarted) and started.room == code
        assert isinstance(finished, GameFinished)
        assert (finished.room, finished.winner) == (code, None)
        assert finished.reason is Termination.ABORTED
        room = dropped.room
        assert (room.code, room.status, room.closed) == (code, "finished", False)
        assert room.game_players == {"first": "ann", "second": "AI (easy)"}


async def test_unsubscribing_one_subscriber_leaves_the_other(tmp_path: Path) -> None:
    """Once one of two subscribers unsubscribes, the other still hears every event
    and the first hears nothing more; unsubscribing it again changes nothing."""
    async with running_server(tmp_path / "games.db") as server:
        hub = server.app[HUB]
        gone, staying = Heard(), Heard()
        hub.subscribe(gone)
        hub.subscribe(staying)
        await Player.join_server(server.ws_url, "ann")
        await staying.next(SessionWelcomed)
        heard_before = list(gone.events)
        assert heard_before == staying.events
        hub.unsubscribe(gone)
        hub.unsubscribe(gone)
        _, code = await play_a_short_game(server.ws_url, "bob")
        assert (await staying.next(RoomDropped)).room.code == code
        assert gone.events == heard_before


async def test_a_second_subscriber_leaves_the_class_its_own(tmp_path: Path) -> None:
    """In class mode the classroom and the tournament director are subscribed
    already: one more subscriber hears a room let go, and the class still keeps
    that room's last view for the wall (its own subscription is not replaced)."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        heard = Heard()
        server.app[HUB].subscribe(heard)
        _, code = await play_a_short_game(server.ws_url, "ann")
        assert (await heard.next(RoomDropped)).room.code == code
        ended = (await Teacher(server).get("/api/admin/rooms"))["ended"]
        assert [(room["code"], room["status"]) for room in ended] == [(code, "finished")]


async def test_a_failing_subscriber_costs_the_others_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A subscriber that raises is logged; the one after it still hears each
    event, and the player whose game caused it is answered as usual."""

    def broken(event: HubEvent) -> None:
        raise RuntimeError("a feature's bug")

    async with running_server(tmp_path / "games.db") as server:
        hub = server.app[HUB]
        heard = Heard()
        hub.subscribe(broken)
        hub.subscribe(heard)
        with caplog.at_level(logging.ERROR, logger="boardroom.server.hub_boundary"):
            _, code = await play_a_short_game(server.ws_url, "ann")
            assert (await heard.next(RoomDropped)).room.code == code
        kinds = [type(event) for event in heard.events]
        assert kinds == [SessionWelcomed, GameStarted, GameFinished, RoomDropped]
        failures = [r for r in caplog.records if r.getMessage() == "a hub listener failed"]
        assert len(failures) == len(kinds), failures


# -- hello checks -----------------------------------------------------------------------


async def test_hello_checks_are_asked_in_order_until_one_refuses(tmp_path: Path) -> None:
    """Every check is awaited for a hello, in the order added; the first refusal
    goes back as the error and the checks after it are not asked. Removing the
    refusing check lets the same hello in."""
    asked: list[tuple[str, str]] = []

    async def keep_mallory_out(session: Session) -> None:
        asked.append(("guard", session.name))
        if session.name == "mallory":
            raise ProtocolError(ErrorCode.BAD_NAME, "no mallory here")

    async def note(session: Session) -> None:
        asked.append(("note", session.name))

    async with running_server(tmp_path / "games.db") as server:
        hub = server.app[HUB]
        hub.add_hello_check(keep_mallory_out)
        hub.add_hello_check(note)
        hub.add_hello_check(keep_mallory_out)  # again: still asked once
        await Player.join_server(server.ws_url, "ann")
        assert asked == [("guard", "ann"), ("note", "ann")]

        mallory = await Player.connect(server.ws_url)
        hello = {"type": "hello", "name": "mallory", "version": 1, "client": "human"}
        refused = await mallory.request(hello)
        assert (refused["type"], refused["code"]) == ("error", "bad_name"), refused
        assert asked[2:] == [("guard", "mallory")]
        assert hub.session_count() == 1  # ann; mallory's refused session is forgotten

        hub.remove_hello_check(keep_mallory_out)
        assert (await mallory.request(hello))["type"] == "welcome"
        assert asked[3:] == [("note", "mallory")]


# -- reading rooms -----------------------------------------------------------------------


async def test_a_room_is_read_as_a_snapshot_the_room_does_not_change(tmp_path: Path) -> None:
    """``room_info`` gives the room as it is when asked: its codes, who holds
    which side; a later change shows in a new snapshot, never in an old one,
    and a snapshot cannot be written to."""
    async with running_server(tmp_path / "games.db") as server:
        hub = server.app[HUB]
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe", "public": False})
        code, join_code = created["room"]["code"], created["room"]["join_code"]
        waiting = hub.room_info(code)
        assert waiting is not None
        assert (waiting.code, waiting.status, waiting.join_code) == (code, "waiting", join_code)
        assert waiting.taken == {"first"}
        assert waiting.holders == {"first": session_id_for(ann.token or "")}

        bob = await Player.join_server(server.ws_url, "bob")
        assert (await bob.request({"type": "join", "code": join_code}))["type"] == "state"
        playing = hub.room_info(code)
        assert playing is not None and playing.status == "playing"
        assert playing.taken == {"first", "second"}
        assert playing.holders == {
            "first": session_id_for(ann.token or ""),
            "second": session_id_for(bob.token or ""),
        }
        assert (waiting.status, waiting.taken) == ("waiting", {"first"})
        with pytest.raises(FrozenInstanceError):
            waiting.closed = True  # type: ignore[misc]

        assert [room.code for room in hub.rooms()] == [code] and hub.has_room(code)
        assert hub.room_info("O0O0O0") is None and not hub.has_room("O0O0O0")
