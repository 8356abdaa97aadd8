"""Caps on open rooms, and the room list a page at a time, end to end.

Pins docs/protocol.md ("Limits", ``too_many_rooms``; ``list_rooms`` and
``GET /api/rooms`` with ``offset``, ``limit`` and ``total``): a real server, real
WebSockets, and a second client address (127.0.0.2: loopback answers from all
of 127.0.0.0/8) to show that one address's cap is not everybody's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Player, RunningServer, running_server
from terminal_helpers import client_process
from test_e2e_bad_input import LENIENT, assert_alive, assert_error

from boardroom.server.core.room_caps import DEFAULT_ROOMS_PER_ADDRESS, DEFAULT_ROOMS_PER_SESSION
from boardroom.shared.protocol.messages import ROOMS_PAGE_DEFAULT

OTHER_ADDRESS = "127.0.0.2"


async def open_room(player: Player, game: str = "connect4", **options: Any) -> str:
    """``player`` opens a room, which must succeed; its code."""
    reply = await player.request({"type": "create_room", "game": game, **options})
    assert reply["type"] == "state", reply
    code: str = reply["room"]["code"]
    return code


async def refused_a_room(player: Player, *words: str) -> dict[str, Any]:
    """``player`` asks for a room and gets ``too_many_rooms`` naming ``words``."""
    reply = await player.request({"type": "create_room", "game": "gomoku"})
    return assert_error(reply, "too_many_rooms", *words)


async def room_total(server: RunningServer) -> int:
    """How many rooms the server holds (public and private)."""
    health = await server.get_json("/healthz")
    rooms: int = health["rooms"]
    return rooms


async def test_a_script_opening_rooms_in_a_loop_stops_at_the_default_caps(
    tmp_path: Path,
) -> None:
    """What once opened 11,144 rooms: connections from one address asking for
    rooms as fast as they can. Each session gets its first four rooms and the
    address sixty in all; every other request is ``too_many_rooms``, and opens
    nothing. A client from another address still opens rooms."""
    async with running_server(tmp_path / "games.db") as server:
        opened, refused = 0, 0
        for number in range(20):
            script = await Player.join_server(server.ws_url, f"script{number}")
            ids = list(range(1000 * number, 1000 * number + 6))
            for request_id in ids:
                await script.send({"type": "create_room", "game": "tictactoe", "id": request_id})
            for _ in ids:
                reply = await script.recv()
                while reply.get("id") not in ids:  # a room's other news, if any
                    reply = await script.recv()
                if reply["type"] == "state":
                    opened += 1
                else:
                    assert_error(reply, "too_many_rooms", "open rooms")
                    refused += 1
            assert opened <= DEFAULT_ROOMS_PER_SESSION * (number + 1)
        assert opened == DEFAULT_ROOMS_PER_ADDRESS == 60
        assert refused == 20 * 6 - 60
        assert await room_total(server) == 60
        elsewhere = await Player.join_server(server.ws_url, "dan", source=OTHER_ADDRESS)
        await open_room(elsewhere)
        assert await room_total(server) == 61


async def test_a_player_at_its_cap_is_refused_until_it_finishes_or_leaves_a_room(
    tmp_path: Path,
) -> None:
    """With two rooms per player: a third ``create_room`` (or a ``quick_match``
    that would open a room) is ``too_many_rooms`` naming the cap, the open rooms
    and what to do, and opens nothing. Finishing the game against the AI frees
    a place; so does leaving a room. Joining someone else's room is not capped."""
    async with running_server(tmp_path / "games.db", max_rooms_per_session=2) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        waiting = await open_room(ann)
        against_ai = await open_room(ann, "tictactoe", ai_level="random")
        before = await server.get_json("/api/rooms")
        assert before["total"] == 2
        for code in (waiting, against_ai):
            await refused_a_room(ann, "2 open rooms", code, "finish", "leave")
        quick = await ann.request({"type": "quick_match", "game": "gomoku"})
        assert_error(quick, "too_many_rooms", "2 open rooms")
        assert await server.get_json("/api/rooms") == before
        assert await room_total(server) == 2
        await assert_alive(ann)

        bob = await Player.join_server(server.ws_url, "bob")
        bobs = await open_room(bob, "gomoku")
        joined = await ann.request({"type": "join", "code": bobs})  # joining opens nothing
        assert joined["type"] == "state" and joined["room"]["status"] == "playing", joined

        over = await ann.request({"type": "resign", "room": against_ai})
        assert over["type"] == "game_over", over
        third = await open_room(ann, "tictactoe")  # a finished room does not count
        await refused_a_room(ann, waiting, third)
        left = await ann.request({"type": "leave", "room": waiting})
        assert left["type"] == "left", left
        await open_room(ann)
        await refused_a_room(ann)


async def test_sessions_of_one_address_share_its_cap_and_another_address_does_not(
    tmp_path: Path,
) -> None:
    """Two rooms a player, three an address: ann's two and bob's one fill the
    address, so bob and cat (same address) are refused, naming the address cap;
    dan, from another address, opens his. When ann leaves one, bob gets it."""
    caps = {"max_rooms_per_session": 2, "max_rooms_per_address": 3}
    async with running_server(tmp_path / "games.db", **caps) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        cat = await Player.join_server(server.ws_url, "cat")
        anns = [await open_room(ann), await open_room(ann, public=False)]
        bobs = await open_room(bob)
        await refused_a_room(bob, "network address", "3 open rooms", f"yours: {bobs}")
        refusal = await refused_a_room(cat, "network address")
        assert "yours" not in refusal["message"], refusal
        quick = await cat.request({"type": "quick_match", "game": "gomoku"})
        assert_error(quick, "too_many_rooms", "network address")
        assert await room_total(server) == 3

        dan = await Player.join_server(server.ws_url, "dan", source=OTHER_ADDRESS)
        await open_room(dan)
        await open_room(dan, "tictactoe")
        assert await room_total(server) == 5

        left = await ann.request({"type": "leave", "room": anns[0]})
        assert left["type"] == "left", left
        await open_room(bob)
        await refused_a_room(cat, "network address")


async def test_list_rooms_and_the_api_answer_a_page_with_the_total(tmp_path: Path) -> None:
    """55 public rooms (and a private one): ``list_rooms`` and ``GET /api/rooms``
    give 50, with ``total`` 55; ``offset`` and ``limit`` page through the same
    list without gap or overlap; a ``limit`` over 100 or under 1 is refused,
    naming it."""
    settings = {**LENIENT, "max_rooms_per_session": 100}
    async with running_server(tmp_path / "games.db", **settings) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        codes = [await open_room(ann, "tictactoe") for _ in range(55)]
        await open_room(ann, "tictactoe", public=False)

        first = await ann.request({"type": "list_rooms"})
        assert first["type"] == "rooms" and first["total"] == 55, first
        assert [r["code"] for r in first["rooms"]] == codes[:ROOMS_PAGE_DEFAULT]
        rest = await ann.request({"type": "list_rooms", "offset": 50, "limit": 20})
        assert [r["code"] for r in rest["rooms"]] == codes[50:] and rest["total"] == 55
        some = await ann.request({"type": "list_rooms", "game": "tictactoe", "limit": 7})
        assert len(some["rooms"]) == 7 and some["total"] == 55
        none = await ann.request({"type": "list_rooms", "game": "gomoku"})
        assert none["rooms"] == [] and none["total"] == 0, none
        for bad in ({"limit": 101}, {"limit": 0}, {"offset": -1}):
            reply = await ann.request({"type": "list_rooms", **bad})
            assert_error(reply, "invalid_field", f"$.{next(iter(bad))}")

        page = await server.get_json("/api/rooms")
        assert page["total"] == 55 and [r["code"] for r in page["rooms"]] == codes[:50]
        tail = await server.get_json("/api/rooms?offset=50")
        assert [r["code"] for r in tail["rooms"]] == codes[50:] and tail["total"] == 55
        small = await server.get_json("/api/rooms?game=tictactoe&offset=3&limit=2")
        assert [r["code"] for r in small["rooms"]] == codes[3:5]
        for query in ("limit=101", "limit=0", "limit=abc", "offset=-1", "offset=" + "9" * 5000):
            status, _, body = await server.get(f"/api/rooms?{query}")
            name = query.split("=")[0]
            assert status == 400 and '"invalid_field"' in body and name in body, (query, body)


async def test_the_terminal_lists_a_page_and_says_how_many_rooms_there_are(
    tmp_path: Path,
) -> None:
    """``rooms`` in ``boardroom play`` shows the page the server sends, and a line
    saying it is the first 50 of 55 and how to find the others."""
    settings = {**LENIENT, "max_rooms_per_session": 100}
    async with running_server(tmp_path / "games.db", **settings) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        codes = [await open_room(ann, "tictactoe") for _ in range(55)]
        async with client_process(
            "play", "--server", server.ws_url, "--name", "sam", config_home=tmp_path
        ) as client:
            client.send("rooms")
            client.close_input()
            assert await client.finish() == 0
    transcript = client.transcript
    assert "The first 50 of 55 public rooms. rooms GAME lists one game's" in transcript
    assert codes[49] in transcript and codes[50] not in transcript
