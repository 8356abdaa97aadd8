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

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from classroom_helpers import NO_TOKEN, Teacher
from harness import Player, running_server, wait_until
from tournament_helpers import WAIT, tournament

from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.tournaments.spec import TournamentSpec
from boardroom.shared.engine.search import search
from boardroom.shared.games import get_game
from boardroom.shared.protocol.messages import Clock

GAME = get_game("tictactoe")
Choose = Callable[[str], str]


def engine_move(moves: str) -> str:
    """The perfect engine's move: what a student copying it plays."""
    return search(GAME, GAME.from_moves(moves), level="perfect").move_text


def worst_move(moves: str) -> str:
    """The move after which the opponent stands best, as the perfect engine sees it."""
    position = GAME.from_moves(moves)

    def opponent_score(move: Any) -> int:
        after = GAME.play_unchecked(position, move)
        if GAME.outcome(after).is_over:
            return -1_000_000 if GAME.outcome(after).winner is not None else 0
        return search(GAME, after, level="perfect").score

    return GAME.format_move(max(GAME.legal_moves(position), key=opponent_score))


async def play_game(player: Player, room: str, choose: Choose) -> None:
    """Play ``player``'s side of the game in ``room`` with ``choose`` to its end."""
    while True:
        state = (await player.request({"type": "get_state", "room": room}))["room"]
        if state["status"] == "finished":
            return
        if state["status"] == "playing" and state.get("to_move") == state.get("you"):
            move = {"type": "move", "room": room, "move": choose(state["moves"])}
            await player.request({**move, "ply": state["ply"]})
        else:
            await asyncio.sleep(0.05)  # the AI's move, or the game still to start


async def casual_games(player: Player, count: int, choose: Choose) -> None:
    for _ in range(count):
        created = await player.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "easy", "seat": "first"}
        )
        room = created["room"]["code"]
        await play_game(player, room, choose)
        await player.request({"type": "leave", "room": room})


async def tournament_games(player: Player, count: int, choose: Choose) -> None:
    for _ in range(count):
        match = await player.expect("match", timeout=WAIT)
        await player.request({"type": "join", "code": match["code"]})
        await play_game(player, match["room"], choose)


async def test_a_student_who_copies_the_engine_is_worth_a_look(tmp_path: Path) -> None:
    async with running_server(tmp_path / "f.db", class_name="7B") as server:
        teacher = Teacher(server)
        cleo = await Player.join_server(server.ws_url, "cleo")
        dan = await Player.join_server(server.ws_url, "dan")
        await asyncio.gather(casual_games(cleo, 2, worst_move), casual_games(dan, 2, engine_move))
        ids = {name: await teacher.student_id(name) for name in ("cleo", "dan")}
        spec = TournamentSpec(
            name="Cup",
            game="tictactoe",
            format="round_robin",
            rounds=5,
            double=False,
            clock=Clock(),
            no_show_seconds=WAIT,
            entrants=(
                f"student:{ids['cleo']}",
                f"student:{ids['dan']}",
                "ai:random",
                "ai:easy",
                "ai:medium",
            ),
        )
        tournament_id = (await server.app[DIRECTOR].create(spec)).id
        # Five entrants: four games each, one round sat out.
        await asyncio.gather(
            tournament_games(cleo, 4, engine_move), tournament_games(dan, 4, engine_move)
        )
        await wait_until(
            lambda: tournament(server.http_url(""), tournament_id),
            lambda shown: shown["status"] == "finished",
            timeout=WAIT,
        )
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
        for player in (cleo, dan):
            await player.close()
