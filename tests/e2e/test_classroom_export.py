"""The export for grading, checked against the games actually played.

A class plays a few games (a win, a draw by agreement, an abort against the AI,
one still in progress), the teacher renames and removes students, and the
export must show every finished game once, under the roster's names, with
each student's records in their folder.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from classroom_helpers import Teacher
from harness import Player, running_server, wait_until

from boardroom.shared.engine.analysis import accuracy, analyse_game

ISO_WITH_OFFSET = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"
"""A time as the export writes it: ISO 8601, to the second, with the zone's offset."""

PARIS = "Europe/Paris"


@pytest.fixture
def paris_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[ZoneInfo]:
    """The test process (and so its server) in Paris's time zone: +01:00 in
    winter, +02:00 in summer; back to the usual zone after the test."""
    monkeypatch.setenv("TZ", PARIS)
    time.tzset()
    yield ZoneInfo(PARIS)
    monkeypatch.undo()
    time.tzset()


async def test_results_csv_and_games_zip_hold_the_games_played(
    tmp_path: Path, compiled_solver_ready: None
) -> None:
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        # Game 1: ann (X) beats bob along the bottom row.
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        for mover, cell in zip([ann, bob] * 3, ["a1", "a2", "b1", "b2", "c1"], strict=False):
            assert (await mover.request({"type": "move", "room": code, "move": cell}))[
                "type"
            ] == "moved"
        await bob.expect("game_over")
        # Game 2, the rematch: bob is X now; one move, then a draw by agreement.
        await ann.request({"type": "rematch", "room": code})
        await bob.request({"type": "rematch", "room": code})
        await bob.request({"type": "move", "room": code, "move": "b2"})
        await ann.request({"type": "offer_draw", "room": code})
        await bob.request({"type": "accept_draw", "room": code})
        # Game 3: a bot whose name looks like a formula resigns before any move.
        robo = await Player.join_server(server.ws_url, "=robo", client="bot")
        created = await robo.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "random", "seat": "first"}
        )
        robo_room = created["room"]["code"]
        await robo.expect("state")  # the game started with the AI seated
        await robo.request({"type": "resign", "room": robo_room})
        # Game 4, still in progress: ann against cat.
        other = (await ann.request({"type": "create_room", "game": "connect4"}))["room"]["code"]
        cat = await Player.join_server(server.ws_url, "cat")
        await cat.request({"type": "join", "code": other})

        ids = {name: await teacher.student_id(name) for name in ("ann", "bob", "=robo", "cat")}
        await teacher.post(f"/api/admin/students/{ids['bob']}/rename", {"name": "Robert"})
        await teacher.post(f"/api/admin/students/{ids['=robo']}/remove")

        # The class's finished games are analysed in the background: wait for
        # them, so that both exports below show the same, complete analyses.
        for game_id in (1, 2, 3):
            await wait_until(
                lambda game_id=game_id: server.get(f"/api/games/{game_id}/analysis"),
                lambda answer: answer[0] == 200,
            )
        status, body, headers = await teacher.call("GET", "/api/admin/export/results.csv")
        assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
        assert 'filename="results.csv"' in headers["Content-Disposition"]
        assert body.startswith("\ufeff".encode())  # for spreadsheets: UTF-8
        rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
        shown = [
            (
                r["id"],
                r["room"],
                r["first_player"],
                r["second_player"],
                r["result"],
                r["termination"],
                r["moves"],
                r["first_student"],
                r["second_student"],
            )
            for r in rows
        ]
        a, b, r = ids["ann"], ids["bob"], ids["=robo"]
        assert shown == [
            ("1", code, "ann", "Robert", "1-0", "line", "5", a, b),
            ("2", code, "Robert", "ann", "½-½", "agreement", "1", b, a),
            ("3", robo_room, "'=robo", "AI (random)", "*", "aborted", "0", r, ""),
        ]
        judged = [
            (r["first_accuracy"], r["second_accuracy"], r["first_blunders"], r["second_blunders"])
            for r in rows
        ]
        expected_first = _export_columns("a1 a2 b1 b2 c1")
        assert judged == [expected_first, _export_columns("b2"), ("", "", "", "")]
        assert {(r["first_hints"], r["second_hints"]) for r in rows} == {("0", "0")}
        assert {row["game"] for row in rows} == {"tictactoe"}
        assert {(row["tournament"], row["round"]) for row in rows} == {("", "")}  # casual games
        for row in rows:
            assert re.fullmatch(ISO_WITH_OFFSET, row["finished_at"])

        status, archive_bytes, headers = await teacher.call("GET", "/api/admin/export/games.zip")
        assert status == 200 and headers["Content-Type"] == "application/zip"
        with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
            names = set(archive.namelist())
            folders = {
                "ann": f"students/ann-{ids['ann']}/",
                "bob": f"students/Robert-{ids['bob']}/",
                "robo": f"students/robo-{ids['=robo']}/",  # removed, but it played
                "cat": f"students/cat-{ids['cat']}/",
            }
            assert names == {
                "results.csv",
                "students.csv",
                *folders.values(),
                *(folders["ann"] + f"game-0000{n}.txt" for n in (1, 2, 4)),
                *(folders["bob"] + f"game-0000{n}.txt" for n in (1, 2)),
                folders["robo"] + "game-00003.txt",
                folders["cat"] + "game-00004.txt",
            }
            assert archive.read("results.csv") == body
            first = archive.read(folders["bob"] + "game-00001.txt").decode()
            assert first == archive.read(folders["ann"] + "game-00001.txt").decode()
            assert "X         ann (human)" in first and "O         Robert (human)" in first
            assert "Result    1-0, X (ann) wins with a line" in first
            assert "in progress" in archive.read(folders["cat"] + "game-00004.txt").decode()
            students = list(
                csv.DictReader(io.StringIO(archive.read("students.csv").decode("utf-8-sig")))
            )
            assert [
                (s["name"], s["removed"], s["played"], s["won"], s["drawn"], s["lost"])
                for s in students
            ] == [
                ("ann", "", "2", "1", "1", "0"),
                ("Robert", "", "2", "0", "1", "1"),
                ("cat", "", "0", "0", "0", "0"),
                ("'=robo", "yes", "1", "0", "0", "0"),
            ]


def _export_columns(moves: str) -> tuple[str, str, str, str]:
    """The accuracy and blunder columns of a tic-tac-toe game, by the analysis
    core itself (exact values: the same in any run)."""
    reviews = list(analyse_game("tictactoe", moves))
    first, second = (f"{round(accuracy(reviews, side), 1)}" for side in "XO")
    blunders = [str(sum(r.side == s and r.judgement == "blunder" for r in reviews)) for s in "XO"]
    return first, second, blunders[0], blunders[1]


async def test_the_export_writes_the_servers_time_zone_and_marks_hinted_moves(
    tmp_path: Path, paris_time: ZoneInfo
) -> None:
    """On a server whose local zone is Paris, ``results.csv`` and the game's
    text file write each time with Paris's offset at that time (ISO 8601); the
    text file marks the moves played after a hint with the hinted move, and
    counts each side's hints."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await teacher.post("/api/admin/hints", {"allowed": True})
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        hinted = {}
        # X's diagonal a3-b2-c1; ann asks a hint before her first two moves.
        for ply, cell in enumerate(["b2", "a1", "a3", "b1", "c1"]):
            mover = (ann, bob)[ply % 2]
            if ply in (0, 2):
                hint = await mover.request({"type": "hint", "room": code})
                assert hint["type"] == "hint", hint
                hinted[ply] = hint["move"]
            moved = await mover.request({"type": "move", "room": code, "move": cell})
            assert moved["type"] == "moved", moved
        await bob.expect("game_over")

        status, body, _ = await teacher.call("GET", "/api/admin/export/results.csv")
        assert status == 200
        (row,) = csv.DictReader(io.StringIO(body.decode("utf-8-sig")))
        record = await server.get_json("/api/games/1")
        finished = datetime.fromisoformat(record["finished_at"]).astimezone(paris_time)
        assert row["finished_at"] == finished.isoformat(timespec="seconds")
        assert re.fullmatch(ISO_WITH_OFFSET, row["finished_at"])
        assert row["finished_at"].endswith(("+01:00", "+02:00"))
        assert (row["first_hints"], row["second_hints"]) == ("2", "0")

        status, archive_bytes, _ = await teacher.call("GET", "/api/admin/export/games.zip")
        with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
            ann_id = await teacher.student_id("ann")
            text = archive.read(f"students/ann-{ann_id}/game-00001.txt").decode()
        lines = text.splitlines()
        assert f"Finished  {row['finished_at']}" in lines
        created = datetime.fromisoformat(record["created_at"]).astimezone(paris_time)
        assert f"Created   {created.isoformat(timespec='seconds')}" in lines
        assert "Hints     X (ann) 2, O (bob) 0" in lines
        moves = [line for line in lines if re.match(r"\d\. ", line)]
        assert f"hint {hinted[0]})" in moves[0].split("  ")[0]  # 1. b2 (…, hint …)
        assert "hint" not in moves[0].split("  ")[1]  # bob's a1: no hint
        assert f"hint {hinted[2]})" in moves[1].split("  ")[0]
        assert "hint" not in moves[2]


async def test_a_spanish_class_exports_its_game_records_in_spanish(tmp_path: Path) -> None:
    """``serve --class 7B --lang es``: the records in games.zip speak the class's
    language (labels, kinds, how the game ended), while the CSV columns and
    ``GET /api/games/{id}?format=text`` (the wire) stay English."""
    async with running_server(tmp_path / "games.db", class_name="7B", language="es") as server:
        teacher = Teacher(server)
        ann = await Player.join_server(server.ws_url, "ann")
        code = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        for mover, cell in zip([ann, bob] * 3, ["a1", "a2", "b1", "b2", "c1"], strict=False):
            await mover.request({"type": "move", "room": code, "move": cell})
        await bob.expect("game_over")
        status, archive_bytes, _headers = await teacher.call("GET", "/api/admin/export/games.zip")
        _status, _type, english = await server.get("/api/games/1?format=text")
        await ann.close()
        await bob.close()

    assert status == 200
    with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
        name = next(n for n in archive.namelist() if n.endswith("game-00001.txt"))
        record = archive.read(name).decode()
        results = archive.read("results.csv").decode("utf-8-sig")
    assert f", partida 1 en la sala {code}" in record.splitlines()[0], record
    assert "X          ann (persona)" in record and "O          bob (persona)" in record
    assert "Resultado  1-0, gana X (ann) con una línea" in record, record
    assert results.startswith("id,finished_at,game,room,first_player,second_player,result")
    assert "Result    1-0, X (ann) wins with a line" in english, english
