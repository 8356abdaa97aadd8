"""Post-game analysis over HTTP on a real server (``GET /api/games/{id}/analysis``):
the engine judges each move of a finished game in the pool, the answer fills in
while it runs (202, then 200), it is kept in the store, and it never stalls
other rooms. Round trips are printed (``-s``) and checked against a generous
bound only, as in test_e2e_engine.py."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
import statistics
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from classroom_helpers import Teacher
from harness import Player, RunningServer, play_out, running_server, wait_until

from boardroom.shared.engine.analysis import ANALYSIS_VERSION

BLUNDER = "b2 a2 a1 c3 c1 b1 a3"
"""Tic-tac-toe: O's a2 throws the draw away (X then wins), the rest is best play."""
CONNECT4_42 = "426552522655664464414653111113333377227777"
"""A whole 42-move Connect Four game (two `medium` AIs, seed 100), a draw."""


async def analysis(server: RunningServer, game_id: int | str) -> tuple[int, Any]:
    status, _, body = await server.get(f"/api/games/{game_id}/analysis")
    return status, json.loads(body)


async def completed(server: RunningServer, game_id: int) -> dict[str, Any]:
    """Poll the analysis until it is complete; each answer meanwhile is a 202
    whose reviews are a prefix of the final ones."""
    seen: list[dict[str, Any]] = []

    async def poll() -> tuple[int, Any]:
        status, body = await analysis(server, game_id)
        seen.append(body)
        assert status in (200, 202) and (status == 200) == body["complete"], (status, body)
        return status, body

    _, final = await wait_until(poll, lambda answer: answer[0] == 200, timeout=60)
    for partial in seen:
        assert partial["reviews"] == final["reviews"][: len(partial["reviews"])]
    return dict(final)


async def test_a_finished_game_is_judged_move_by_move_and_kept(tmp_path: Path) -> None:
    """The first request starts the analysis (202, nothing judged yet); it fills
    in; the last answer judges O's a2 a blunder that threw the draw away, every
    other move best, with the accuracies. After a restart the stored analysis
    is answered as it was, complete at once."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        game_id = await play_out(server.ws_url, "tictactoe", BLUNDER.split())
        status, first = await analysis(server, game_id)
        assert (status, first["complete"], first["total"]) == (202, False, 7)
        final = await completed(server, game_id)
    assert final["players"] == {"first": "ann", "second": "bob"}
    assert final["result"] == {"winner": "first", "reason": "line", "line": ["a3", "b2", "c1"]}
    assert final["moves"] == BLUNDER and final["game"] == "tictactoe"
    judged = [(r["side"], r["move"], r["judgement"]) for r in final["reviews"]]
    assert judged[1] == ("second", "a2", "blunder")
    assert {j for _, _, j in judged[:1] + judged[2:]} <= {"best", "forced"}
    blunder = final["reviews"][1]
    assert (blunder["value_before"], blunder["best"]) == ("draw", "a1")
    assert blunder["exact_before"] and blunder["exact_after"]
    assert blunder["chances_before"] == 0.0 and blunder["chances_after"] == -1.0
    assert final["accuracy"] == {"first": 100.0, "second": 69.5}
    (turn,) = final["turning_points"]
    assert turn["ply"] == 1 and turn["side"] == "second" and "threw away the draw" in turn["text"]
    async with running_server(database) as server:
        status, again = await analysis(server, game_id)
    assert status == 200 and again == final


async def test_an_analysis_stored_under_older_rules_is_made_again(tmp_path: Path) -> None:
    """A real SQLite file holding a complete analysis made under the rules before
    issue 25 (rules version 1, as the upgrade to schema 9 leaves such rows; O's a2
    was then judged a mistake): the next view does not show it but makes the
    analysis again (202, then 200 with the blunder), and the new reviews replace
    the old ones in the file."""
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        game_id = await play_out(server.ws_url, "tictactoe", BLUNDER.split())
    old = '{"ply": 1, "side": "O", "move": "a2", "judgement": "mistake"}'
    with closing(sqlite3.connect(database)) as db, db:
        db.executemany(
            "INSERT INTO analysis_moves (game_id, ply, review) VALUES (?, ?, ?)",
            [(game_id, ply, old) for ply in range(7)],
        )
        db.execute(
            "INSERT INTO analyses (game_id, seconds_per_position, finished_at) VALUES (?, 0.2, 0)",
            (game_id,),
        )
    async with running_server(database) as server:
        status, first = await analysis(server, game_id)
        assert status == 202 and all(r["judgement"] != "mistake" for r in first["reviews"])
        final = await completed(server, game_id)
    assert final["reviews"][1]["judgement"] == "blunder"
    assert [point["ply"] for point in final["turning_points"]] == [1]
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT rules_version, count(*) FROM analysis_moves WHERE game_id = ?"
            " GROUP BY rules_version",
            (game_id,),
        ).fetchall()
        done = db.execute("SELECT rules_version FROM analyses WHERE game_id = ?", (game_id,))
        assert (rows, done.fetchall()) == ([(ANALYSIS_VERSION, 7)], [(ANALYSIS_VERSION,)])


async def test_what_cannot_be_analysed_is_refused_with_its_reason(tmp_path: Path) -> None:
    """A game in play: 409 game_in_progress (the engine's judgement would be help);
    a private room's game in play: the same 404 as an unknown id (nothing told);
    ids that name no game: 404 unknown_game_record."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        public = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]
        await bob.request({"type": "join", "code": public["code"]})
        await ann.request({"type": "move", "room": public["code"], "move": "b2"})
        status, body = await analysis(server, 1)
        assert (status, body["error"]) == (409, "game_in_progress"), body
        private = await bob.request({"type": "create_room", "game": "tictactoe", "public": False})
        cy = await Player.join_server(server.ws_url, "cy")
        await cy.request({"type": "join", "code": private["room"]["join_code"]})
        status, body = await analysis(server, 2)
        assert (status, body["error"]) == (404, "unknown_game_record"), body
        for bad in ("99", "abc", "-1", "0"):
            status, body = await analysis(server, bad)
            assert (status, body["error"]) == (404, "unknown_game_record"), (bad, body)


async def test_a_third_analysis_at_once_is_told_to_come_back(tmp_path: Path) -> None:
    """Two analyses run at once; a third request is a 503 engine_busy with
    Retry-After, and is served once one of them is done."""
    cells = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "b1", "h12"]  # first wins
    async with running_server(tmp_path / "games.db") as server:
        ids = [await play_out(server.ws_url, "gomoku", cells) for _ in range(3)]
        for game_id in ids[:2]:
            assert (await analysis(server, game_id))[0] == 202
        status, content_type, text = await server.get(f"/api/games/{ids[2]}/analysis")
        body = json.loads(text)
        assert content_type.startswith("application/json")
        assert (status, body["error"], body["retry_after"]) == (503, "engine_busy", 2.0), body
        await completed(server, ids[0])
        assert (await completed(server, ids[2]))["total"] == len(cells)


async def test_a_42_move_game_is_analysed_while_other_rooms_move_freely(
    tmp_path: Path, compiled_solver_ready: None
) -> None:
    """A whole Connect Four game is analysed while Cy and Dan play gomoku in
    another room: their round trips stay far below a position's search. Prints
    the analysis time and the round trips."""
    async with running_server(tmp_path / "games.db", engine="auto") as server:
        game_id = await play_out(server.ws_url, "connect4", list(CONNECT4_42))
        started = time.perf_counter()
        assert (await analysis(server, game_id))[0] == 202
        cy = await Player.join_server(server.ws_url, "cy")
        room = (await cy.request({"type": "create_room", "game": "gomoku"}))["room"]["code"]
        dan = await Player.join_server(server.ws_url, "dan")
        await dan.request({"type": "join", "code": room})
        cells = [f"{c}{r}" for r in range(1, 16) for c in "abcdefghijklmno"]
        round_trips = []
        for ply, cell in enumerate(cells[:40]):
            sent = time.perf_counter()
            mover, other = (cy, dan) if ply % 2 == 0 else (dan, cy)
            assert (await mover.request({"type": "move", "room": room, "move": cell}))[
                "type"
            ] == "moved"
            await other.expect("moved", ply=ply)
            round_trips.append(time.perf_counter() - sent)
        final = await completed(server, game_id)
        took = time.perf_counter() - started
    exact = sum(r["exact_before"] for r in final["reviews"])
    print(
        f"\n42-move Connect Four analysed in {took:.1f} s ({exact}/42 positions exact); "
        f"round trips meanwhile: median {statistics.median(round_trips) * 1000:.1f} ms, "
        f"max {max(round_trips) * 1000:.1f} ms"
    )
    assert len(final["reviews"]) == 42 and final["result"]["winner"] is None
    assert max(round_trips) < 0.5, round_trips


async def test_a_class_game_is_analysed_as_it_ends_and_the_export_shows_it(
    tmp_path: Path,
) -> None:
    """In class mode nobody needs to ask: the finished game is analysed in the
    background, and results.csv then shows each player's accuracy, blunders and
    hints (empty before the analysis is complete)."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await play_out(server.ws_url, "tictactoe", BLUNDER.split())

        async def rows() -> list[dict[str, str]]:
            status, body, _ = await teacher.call("GET", "/api/admin/export/results.csv")
            assert status == 200
            return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))

        (row,) = await wait_until(rows, lambda found: found and found[0]["first_accuracy"])
    assert (row["first_accuracy"], row["second_accuracy"]) == ("100.0", "69.5")
    assert (row["first_blunders"], row["second_blunders"]) == ("0", "1")
    assert (row["first_hints"], row["second_hints"]) == ("0", "0")


async def test_a_class_server_stops_at_once_while_it_analyses_in_the_background(
    tmp_path: Path,
) -> None:
    """A class's game ends and its analysis starts in the background; the server
    is stopped mid-analysis: it stops within seconds (the background analyses
    end with it), and the analysis resumes from what was stored on the next start."""
    cells = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "b1", "h12"]
    database = tmp_path / "games.db"
    async with asyncio.timeout(60):
        async with running_server(database, class_name="7B") as server:
            game_id = await play_out(server.ws_url, "gomoku", cells)
            await wait_until(
                lambda: _reviews_stored(database, game_id), lambda count: count >= 1, timeout=20
            )
    assert _reviews_stored_now(database, game_id) < len(cells)  # stopped part way
    async with running_server(database, class_name="7B") as server:
        final = await completed(server, game_id)
    assert len(final["reviews"]) == len(cells)


async def _reviews_stored(database: Path, game_id: int) -> int:
    return _reviews_stored_now(database, game_id)


def _reviews_stored_now(database: Path, game_id: int) -> int:
    with closing(sqlite3.connect(database)) as db:
        (count,) = db.execute(
            "SELECT count(*) FROM analysis_moves WHERE game_id = ?", (game_id,)
        ).fetchone()
    return int(count)


async def test_the_room_says_which_stored_game_it_plays_and_played(tmp_path: Path) -> None:
    """``state.room.game_id`` names the stored game from its start, stays once it
    is over (a page reloaded after the end still finds its review), and moves on
    with a rematch; the teacher's room list says it too."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        waiting = await ann.request({"type": "get_state", "room": code})
        assert "game_id" not in waiting["room"]  # nothing stored before the game starts
        bob = await Player.join_server(server.ws_url, "bob")
        joined = await bob.request({"type": "join", "code": code})
        first_id = joined["room"]["game_id"]
        for ply, cell in enumerate(BLUNDER.split()):
            await (ann, bob)[ply % 2].request({"type": "move", "room": code, "move": cell})
        over = await ann.expect("game_over")
        assert over["game_id"] == first_id
        after = await bob.request({"type": "get_state", "room": code})
        assert (after["room"]["status"], after["room"]["game_id"]) == ("finished", first_id)
        (listed,) = (await Teacher(server).get("/api/admin/rooms"))["rooms"]
        assert listed["game_id"] == first_id
        await ann.request({"type": "rematch", "room": code})
        again = await bob.request({"type": "rematch", "room": code})
        assert again["room"]["game_number"] == 2 and again["room"]["game_id"] == first_id + 1
