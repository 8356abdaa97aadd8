"""AI matches on a real server: the server AI in both seats, people watching
(``create_room`` with ``ai_match``; docs/protocol.md, "AI matches").

Pace is checked as a lower bound only (the server never shows a move sooner),
which load can only make truer: no timed upper bounds here.
"""

from __future__ import annotations

import itertools
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from harness import Player, assert_alive, running_server, wait_until


async def open_match(player: Player, **match: Any) -> dict[str, Any]:
    """Open an AI match of tic-tac-toe (``match`` overrides its fields); the reply."""
    fields = {"first": "random", "second": "perfect", "pace": 0.0, **match}
    return await player.request({"type": "create_room", "game": "tictactoe", "ai_match": fields})


async def test_the_creator_watches_two_ais_play_at_the_pace_and_starts_the_next_game(
    tmp_path: Path,
) -> None:
    """Ann opens random against perfect at a pace of 0.3 s: she watches (no seat),
    both seats are the AI's, every move comes at least 0.3 s after the one before,
    perfect as the second player does not lose to random, and a second watcher
    sees the same moves. Once it is over, Ann asks for the next game: it starts
    at once with the AIs' sides swapped."""
    pace = 0.3
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        reply = await open_match(ann, pace=pace)
        assert reply["type"] == "state", reply
        room = reply["room"]
        code = room["code"]
        assert room.get("you") is None and room["ai_pace"] == pace
        started = await ann.recv()
        while started["type"] != "state" or started["room"]["status"] != "playing":
            started = await ann.recv()
        seats = {seat["side"]: seat for seat in started["room"]["seats"]}
        assert (seats["first"]["kind"], seats["first"]["level"]) == ("ai", "random")
        assert (seats["second"]["kind"], seats["second"]["level"]) == ("ai", "perfect")
        bob = await Player.join_server(server.ws_url, "bob")
        assert (await bob.request({"type": "watch", "code": code}))["type"] == "state"

        arrivals = [time.monotonic()]
        while True:
            message = await ann.recv()
            if message["type"] == "moved":
                arrivals.append(time.monotonic())
            if message["type"] == "game_over":
                break
        gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
        assert len(gaps) >= 5 and min(gaps) >= pace - 0.05, gaps
        assert message["result"]["winner"] in ("second", None), message
        moves = (await ann.request({"type": "get_state", "room": code}))["room"]["moves"]
        bob_state = await bob.request({"type": "get_state", "room": code})
        assert bob_state["room"]["moves"] == moves and bob_state["room"]["status"] == "finished"

        again = await ann.request({"type": "rematch", "room": code})
        assert again["type"] == "state" and again["room"]["game_number"] == 2, again
        swapped = {seat["side"]: seat["level"] for seat in again["room"]["seats"]}
        assert swapped == {"first": "perfect", "second": "random"}
        assert again["room"]["status"] == "playing"


async def test_a_private_match_gives_its_watchers_the_watch_code(tmp_path: Path) -> None:
    """A private AI match is in no room list; its creator gets the watch code (and
    no join code: there is no seat to take) to put on the wall, and a class
    watches by it."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        reply = await ann.request(
            {
                "type": "create_room",
                "game": "connect4",
                "public": False,
                "ai_match": {"first": "easy", "second": "medium", "pace": 2},
            }
        )
        room = reply["room"]
        assert room["watch_code"] and room.get("join_code") is None
        listed = await ann.request({"type": "list_rooms"})
        assert room["code"] not in [r["code"] for r in listed["rooms"]]
        cy = await Player.join_server(server.ws_url, "cy")
        watched = await cy.request({"type": "watch", "code": room["watch_code"]})
        assert watched["type"] == "state" and watched["room"]["watch_code"] == room["watch_code"]
        refused = await cy.request({"type": "join", "code": room["watch_code"]})
        assert refused["type"] == "error", refused


BAD_MATCHES = [
    ({"ai_level": "easy"}, "bad_options"),
    ({"seat": "second"}, "bad_options"),
    ({"clock": {"kind": "per_move", "per_move": 5}}, "bad_options"),
    ({"ai_match": {"first": "random", "second": "perfect", "pace": 11}}, "invalid_field"),
    ({"ai_match": {"first": "random", "second": "grandmaster"}}, "invalid_field"),
    ({"ai_match": {"first": "random"}}, "invalid_field"),
    ({"ai_match": "random vs perfect"}, "invalid_field"),
]


@pytest.mark.parametrize(("change", "code"), BAD_MATCHES)
async def test_a_bad_ai_match_is_refused_and_opens_nothing(
    tmp_path: Path, change: dict[str, Any], code: str
) -> None:
    """Each refusal is typed and names the problem; no room is opened, nothing is
    stored, and the connection goes on."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        request = {
            "type": "create_room",
            "game": "tictactoe",
            "ai_match": {"first": "random", "second": "perfect"},
            **change,
        }
        error = await ann.request(request)
        assert (error["type"], error["code"]) == ("error", code), error
        assert error["message"]
        assert (await ann.request({"type": "list_rooms"}))["rooms"] == []
        await assert_alive(ann)
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)


def terminations(database: Path) -> list[tuple[str, str | None]]:
    with closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT state, termination FROM games ORDER BY id").fetchall()


async def test_a_match_nobody_watches_is_called_off_after_the_grace_window(
    tmp_path: Path,
) -> None:
    """Gomoku at a 2 s pace: Ann watches, drops out, and comes back within the
    window: the match goes on. Then she leaves, and nobody watches: after the
    window the game ends aborted (no result) and the room is gone, so the
    engine plays for nobody."""
    database = tmp_path / "games.db"
    async with running_server(database, grace_seconds=1.0) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        reply = await ann.request(
            {
                "type": "create_room",
                "game": "gomoku",
                "ai_match": {"first": "easy", "second": "easy", "pace": 2},
            }
        )
        code = reply["room"]["code"]
        await ann.expect("moved", ply=0, timeout=10)
        await ann.close()
        bob = await Player.join_server(server.ws_url, "bob")
        back = await bob.request({"type": "watch", "code": code})
        assert back["type"] == "state" and back["room"]["status"] == "playing"
        left = await bob.request({"type": "leave", "room": code})
        assert left["type"] == "left", left
        await wait_until(lambda: _listed(bob), lambda codes: code not in codes, timeout=10)
        gone = await bob.request({"type": "watch", "code": code})
        assert gone["type"] == "error", gone
    assert terminations(database) == [("finished", "aborted")]


async def _listed(player: Player) -> list[str]:
    rooms = await player.request({"type": "list_rooms"})
    return [room["code"] for room in rooms["rooms"]]


async def test_matches_count_against_their_creators_room_cap(tmp_path: Path) -> None:
    """With one open room allowed per session, a match in play that Ann watches
    is her open room: a second is refused ``too_many_rooms``. Once she stops
    watching, she may open another. (Ann reads none of the matches' moves, so
    her client's queue is full when the server stops: the server still stops
    within its grace time, cutting her connection off, and raises nothing.)"""
    async with running_server(tmp_path / "games.db", max_rooms_per_session=1) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        first = await open_match(ann, first="easy", second="easy", pace=5)
        code = first["room"]["code"]
        refused = await open_match(ann)
        assert (refused["type"], refused["code"]) == ("error", "too_many_rooms"), refused
        assert (await ann.request({"type": "leave", "room": code}))["type"] == "left"
        assert (await open_match(ann))["type"] == "state"


RESTORED_PACE = 0.5
"""The pace of the matches stopped mid-game by a restart: slow enough that the
server stops long before the fifth move could end the game (the first is
awaited, then the server stops at once), fast enough that the match restored
plays out its (at most) eight moves left in 4 s."""


async def test_a_match_comes_back_after_a_restart_and_is_played_out(tmp_path: Path) -> None:
    """The server stops mid-match: on restart the match is restored (nobody to
    hold a seat for) and the AIs play it out, as the record then shows."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        await open_match(ann, first="easy", second="easy", pace=RESTORED_PACE)
        await ann.expect("moved", ply=0, timeout=10)
    assert terminations(database) == [("playing", None)]
    async with running_server(database):
        # At most nine moves, RESTORED_PACE apart (the pace is kept with the room).
        await wait_until(
            lambda: _stored(database), lambda rows: rows[0][0] == "finished", timeout=30
        )
    _, termination = terminations(database)[0]
    assert termination in ("line", "full_board"), termination


async def test_a_restored_match_that_ends_before_its_watcher_is_back_is_kept_for_the_grace(
    tmp_path: Path,
) -> None:
    """The server stops mid-match; restarted, it plays the match out before
    anyone watches again. The room is kept for the grace window from the
    restart, as a live match's is once its last watcher went: Ann, back, can
    still watch it and see how it ended (it was closed at once: issue 28).
    Once she leaves, nobody can come back to it and it is closed."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        opened = await open_match(ann, first="easy", second="easy", pace=RESTORED_PACE)
        code = opened["room"]["code"]
        await ann.expect("moved", ply=0, timeout=10)
    async with running_server(database, grace_seconds=120.0) as server:
        await wait_until(
            lambda: _stored(database), lambda rows: rows[0][0] == "finished", timeout=30
        )
        ann = await Player.join_server(server.ws_url, "ann")
        back = await ann.request({"type": "watch", "code": code})
        assert back["type"] == "state", back
        assert back["room"]["status"] == "finished" and "result" in back["room"], back
        assert (await ann.request({"type": "leave", "room": code}))["type"] == "left"
        gone = await ann.request({"type": "watch", "code": code})
        assert (gone["type"], gone["code"]) == ("error", "unknown_room"), gone


async def _stored(database: Path) -> list[tuple[str, str | None]]:
    return terminations(database)
