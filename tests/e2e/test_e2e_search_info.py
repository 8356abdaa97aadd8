"""The AI's search on the wire (``hello.search_info``, ``moved.search``), on a real server.

A session that asked gets how the AI found each move with the move; one that did
not (a bot, an older client) gets exactly the ``moved`` it always did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, assert_alive, running_server


async def hello(url: str, name: str, **fields: Any) -> Player:
    """A connection greeted with ``fields`` added to a version-2 hello."""
    player = await Player.connect(url)
    welcome = await player.request({"type": "hello", "name": name, "version": 2, **fields})
    assert welcome["type"] == "welcome", welcome
    player.token = welcome["resume_token"]
    return player


async def test_a_session_that_asked_gets_the_search_with_the_ai_move(tmp_path: Path) -> None:
    """Ann asked: the AI's ``moved`` carries its search (positions, depth, the line
    starting with its move, one line for people). Bob watches without asking, and
    a version-1 client watches too: their copies are the same ``moved`` without it."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await hello(server.ws_url, "ann", search_info=True)
        created = await ann.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "perfect"}
        )
        code = created["room"]["code"]
        bob = await hello(server.ws_url, "bob")
        old = await Player.join_server(server.ws_url, "cat")  # version 1
        for watcher in (bob, old):
            assert (await watcher.request({"type": "watch", "code": code}))["type"] == "state"
        mine = await ann.request({"type": "move", "room": code, "move": "b2"})
        assert mine["type"] == "moved" and "search" not in mine  # a person's move

        theirs = await ann.expect("moved", ply=1)
        search = theirs["search"]
        assert search["nodes"] > 0 and search["depth"] >= 1 and search["exact"] is True
        assert search["pv"][0] == theirs["move"] and search["value"] == "draw"
        assert search["summary"].startswith("searched ")
        assert search["summary"].endswith("proven draw")
        assert search["elapsed_ms"] >= 0 and search["nodes_per_second"] >= 0
        plain = {key: value for key, value in theirs.items() if key != "search"}
        for watcher in (bob, old):
            assert await watcher.expect("moved", ply=1) == plain


async def test_a_search_info_flag_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    """``"search_info": "yes"`` is not a boolean: a typed error naming the field and
    the type it takes; the connection survives and a good hello is welcomed."""
    async with running_server(tmp_path / "games.db") as server:
        player = await Player.connect(server.ws_url)
        error = await player.request(
            {"type": "hello", "name": "ann", "version": 2, "search_info": "yes"}
        )
        assert error["type"] == "error" and error["code"] == "invalid_field"
        assert "search_info" in error["message"] and "bool" in error["message"]
        welcome = await player.request(
            {"type": "hello", "name": "ann", "version": 2, "search_info": True}
        )
        assert welcome["type"] == "welcome"
        await assert_alive(player)


async def test_a_resumed_session_follows_the_flag_of_its_new_hello(tmp_path: Path) -> None:
    """The flag goes with the connection: ann asked, dropped, and came back with her
    resume token but without the flag, so the AI's next move reaches her without its
    search; after a hello that asks again, the one after comes with it."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await hello(server.ws_url, "ann", search_info=True)
        created = await ann.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "perfect"}
        )
        code = created["room"]["code"]
        await ann.close()

        back = await hello(server.ws_url, "ann", resume_token=ann.token)
        await back.request({"type": "move", "room": code, "move": "b2"})
        reply = await back.expect("moved", ply=1)
        assert "search" not in reply
        await back.close()

        again = await hello(server.ws_url, "ann", resume_token=ann.token, search_info=True)
        free = next(cell for cell in ("a1", "c1", "a3", "c3") if cell != reply["move"])
        await again.request({"type": "move", "room": code, "move": free})
        assert (await again.expect("moved", ply=3))["search"]["nodes"] > 0


async def test_while_hints_are_off_the_search_comes_without_the_expected_line(
    tmp_path: Path,
) -> None:
    """A class starts with hints off: the AI's move comes with its figures and its
    own move, but not the line after it (the next move of that line would be the
    engine's move for Ann), to Ann and to Cy watching alike. The teacher turns
    hints on: the next AI move comes with its whole line."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        ann = await hello(server.ws_url, "ann", search_info=True)
        created = await ann.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "perfect"}
        )
        code = created["room"]["code"]
        assert created["room"]["hints"] is False
        cy = await hello(server.ws_url, "cy", search_info=True)
        assert (await cy.request({"type": "watch", "code": code}))["type"] == "state"
        await ann.request({"type": "move", "room": code, "move": "b2"})
        for player in (ann, cy):
            theirs = await player.expect("moved", ply=1)
            search = theirs["search"]
            assert search["pv"] == [theirs["move"]] and search["line_hidden"] is True
            assert search["nodes"] > 0 and search["value"] == "draw"
        await Teacher(server).post("/api/admin/hints", {"allowed": True})
        free = next(cell for cell in ("a1", "c1", "a3", "c3") if cell != theirs["move"])
        await ann.request({"type": "move", "room": code, "move": free})
        whole = (await cy.expect("moved", ply=3))["search"]
        assert len(whole["pv"]) > 1 and "line_hidden" not in whole, whole
