"""The fair-play list: a synthetic student who copies the engine in a tournament.

A real class-mode server. Cleo plays two casual games against the AI as badly
as she can (each time the move the perfect engine says is worst), then a round
robin against three AIs copying the perfect engine's every move. Once the
background analyses are in, ``GET /api/admin/tournaments/{id}/worth-a-look``
lists her with the numbers and the games; Dan, who plays the same way
throughout, is not listed; no token, no list; the public tournament API says
nothing of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from classroom_helpers import NO_TOKEN, Teacher
from harness import running_server, wait_until
from tournament_helpers import WAIT, engine_copier_tournament, tournament


async def test_a_student_who_copies_the_engine_is_worth_a_look(tmp_path: Path) -> None:
    async with running_server(tmp_path / "f.db", class_name="7B") as server:
        teacher = Teacher(server)
        tournament_id, ids, players = await engine_copier_tournament(server)
        path = f"/api/admin/tournaments/{tournament_id}/worth-a-look"

        def analysed(body: dict[str, Any]) -> bool:
            # Each game is listed once its analysis is complete: wait for all six of hers.
            listed = body["worth_a_look"]
            return bool(listed) and len(listed[0]["games"]) + len(listed[0]["usual_games"]) == 6

        answer = await wait_until(lambda: teacher.get(path), analysed, timeout=WAIT)
        print(f"\nworth a look: {answer}")  # the figures, for whoever reads the log
        (listed,) = answer["worth_a_look"]
        assert (listed["student"], listed["name"]) == (ids["cleo"], "cleo")
        assert listed["accuracy"] >= 99.0 and listed["perfect_share"] == 1.0
        assert listed["usual_accuracy"] <= listed["accuracy"] - 25
        assert len(listed["games"]) == 4 and len(listed["usual_games"]) == 2
        assert listed["perfect"] == listed["judged"] > 0

        status, refused, _ = await teacher.call("GET", path, token=NO_TOKEN)
        assert status == 401, refused
        public = await tournament(server.http_url(""), tournament_id)
        assert "worth" not in str(public)
        status, unknown, _ = await teacher.call("GET", "/api/admin/tournaments/99/worth-a-look")
        assert (status, unknown["error"]) == (404, "unknown_tournament")
        for player in players:
            await player.close()
