"""A tournament in the export for grading: its standings, games and crosstable
in games.zip, and its games marked in results.csv.

A real server: a three-player round robin (ann, a bot called ``=eve`` that
never shows up, the random AI) played to the end, ann resigning to the AI.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from classroom_helpers import Teacher
from harness import Player, running_server, wait_until
from tournament_helpers import WAIT, tournament

from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.tournaments.spec import TournamentSpec
from boardroom.shared.protocol.messages import Clock

WINDOW = 1.5
"""The no-show window, in seconds: =eve's games are forfeited once it passes."""


def rows_of(data: bytes) -> list[dict[str, str]]:
    assert data.startswith("\ufeff".encode())  # UTF-8 for spreadsheets, as results.csv
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


async def test_the_export_holds_each_tournament_with_forfeits_and_roster_names(
    tmp_path: Path,
) -> None:
    async with running_server(tmp_path / "t.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann = await Player.join_server(server.ws_url, "ann")
        eve = await Player.join_server(server.ws_url, "=eve", client="bot")
        await eve.close()
        ids = {name: await teacher.student_id(name) for name in ("ann", "=eve")}
        spec = TournamentSpec(
            name="=Cup",
            game="tictactoe",
            format="round_robin",
            rounds=3,
            double=False,
            clock=Clock(),
            no_show_seconds=WINDOW,
            entrants=(f"student:{ids['ann']}", f"student:{ids['=eve']}", "ai:random"),
        )
        tournament_id = (await server.app[DIRECTOR].create(spec)).id
        for _ in range(2):  # ann's two games: she resigns to the AI, and =eve never comes
            match = await ann.expect("match", timeout=WINDOW + 20)
            joined = await ann.request({"type": "join", "code": match["code"]})
            if match["opponent"] == "AI (random)":
                assert joined["room"]["status"] == "playing"
                await ann.request({"type": "resign", "room": match["room"]})
        shown = await wait_until(
            lambda: tournament(server.http_url(""), tournament_id),
            lambda t: t["status"] == "finished",
            timeout=WAIT,
        )
        await teacher.post(f"/api/admin/students/{ids['ann']}/rename", {"name": "Ann B"})

        status, archive_bytes, _ = await teacher.call("GET", "/api/admin/export/games.zip")
        assert status == 200
        folder = f"tournaments/Cup-{tournament_id}/"
        with zipfile.ZipFile(io.BytesIO(archive_bytes)) as archive:
            assert {n for n in archive.namelist() if n.startswith("tournaments/")} == {
                folder + "standings.csv",
                folder + "games.csv",
                folder + "crosstable.txt",
            }
            standings = rows_of(archive.read(folder + "standings.csv"))
            games = rows_of(archive.read(folder + "games.csv"))
            crosstable = archive.read(folder + "crosstable.txt").decode()
            results = rows_of(archive.read("results.csv"))

        # AI: won against ann (played) and =eve (forfeit); ann: beat =eve by forfeit.
        assert list(standings[0]) == [
            "rank", "place", "player", "points", "played", "wins", "draws", "losses",
            "forfeit_wins", "forfeit_losses", "byes", "sonneborn_berger", "buchholz",
        ]  # fmt: skip
        shown_keys = ("rank", "player", "points", "played", "wins", "losses")
        shown_keys += ("forfeit_wins", "forfeit_losses", "byes")
        assert [tuple(s[key] for key in shown_keys) for s in standings] == [
            ("1", "AI (random)", "2", "1", "1", "0", "1", "0", "0"),
            ("2", "Ann B", "1", "1", "0", "1", "1", "0", "0"),
            ("3", "'=eve", "0", "0", "0", "0", "0", "2", "0"),
        ]
        by_api = {line["name"]: line for line in shown["standings"]}
        for line in standings:  # the tie-breaks are the API's
            api = by_api["ann" if line["player"] == "Ann B" else line["player"].lstrip("'")]
            assert float(line["sonneborn_berger"]) == api["sonneborn_berger"]
            assert float(line["buchholz"]) == api["buchholz"]

        expected_games: list[tuple[str, ...]] = []
        names = {f"student:{ids['ann']}": "Ann B", f"student:{ids['=eve']}": "'=eve"}
        names["ai:random"] = "AI (random)"
        for round_ in shown["rounds_played"]:
            for game in round_["games"]:
                result = {"1/2-1/2": "½-½"}.get(game["result"], game["result"])
                game_id = "" if game["game_id"] is None else str(game["game_id"])
                expected_games.append(
                    (
                        str(round_["round"]),
                        str(game["board"]),
                        names[game["first"]],
                        names[game["second"]],
                        result,
                        game_id,
                    )
                )
        assert [tuple(g.values()) for g in games] == expected_games
        assert sorted(g["result"] for g in games if g["game_id"] == "") == ["+:-", "-:+"]
        (played,) = [g for g in games if g["game_id"]]
        assert {played["first"], played["second"]} == {"Ann B", "AI (random)"}

        lines = crosstable.splitlines()
        assert lines[0].split() == ["Player", "1", "2", "3", "Points"]
        assert lines[1].split() == ["1", "AI", "(random)", "*", "1", "+", "2"]
        assert lines[2].split() == ["2", "Ann", "B", "0", "*", "+", "1"]
        assert lines[3].split() == ["3", "=eve", "-", "-", "*", "0"]

        assert [(r["id"], r["tournament"], r["round"]) for r in results] == [
            (played["game_id"], "'=Cup", played["round"])
        ]
