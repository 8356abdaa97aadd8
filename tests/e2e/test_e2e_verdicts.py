"""What the engine says in a Connect Four game on a real server, checked against an
independent solver (bitbully, tests/connect4_oracle.py): the review of a whole
game, the hints, and the AI's own explanation of its moves (``moved.search``,
what the terminal's ``why`` prints) all give proven values, and agree with the
solver's at every position (issue 25). The servers run the compiled solver
(``engine="auto"``), as ``boardroom serve`` does: the tests' usual pure one
proves less within a hint's budget."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from connect4_oracle import CONNECT4, move_scores, result, stone_score, value_text
from harness import Player, RunningServer, play_out, running_server, wait_until

from boardroom.shared.engine import search

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

THREW_THE_WIN_AWAY = "444444325"
"""Against the perfect AI: X's 5 at move 9 turns a win in 17 into a loss in 17."""


def perfect_game_from(opening: str) -> list[str]:
    """``opening``, then the perfect level for both sides to the end."""
    position = CONNECT4.from_moves(opening)
    while not CONNECT4.outcome(position).is_over:
        position = CONNECT4.play(position, search(CONNECT4, position, level="perfect").move)
    return [CONNECT4.format_move(move) for move in position.moves]


async def analysis_of(server: RunningServer, game_id: int) -> dict[str, Any]:
    async def answer() -> tuple[int, Any]:
        status, _, body = await server.get(f"/api/games/{game_id}/analysis")
        return status, json.loads(body)

    _, final = await wait_until(answer, lambda reply: reply[0] == 200, timeout=120)
    return dict(final)


async def test_the_review_calls_the_thrown_win_a_blunder_and_a_turning_point(
    tmp_path: Path,
) -> None:
    """The game 4 4 4 4 4 4 3 2 5, played on to its end by perfect play, is reviewed
    over HTTP: every value proven and equal to the solver's; move 9 a blunder,
    "threw away the win", the only turning point; X's accuracy below O's."""
    moves = perfect_game_from(THREW_THE_WIN_AWAY)
    async with running_server(tmp_path / "games.db", engine="auto") as server:
        game_id = await play_out(server.ws_url, "connect4", moves)
        final = await analysis_of(server, game_id)
    played = "".join(moves)
    for review in final["reviews"]:
        ply = review["ply"]
        assert review["exact_before"] and review["exact_after"], review
        assert review["value_before"] == value_text(played[:ply]), review
    ninth = final["reviews"][8]
    assert (ninth["move"], ninth["judgement"]) == ("5", "blunder"), ninth
    assert (ninth["value_before"], ninth["value_after"]) == ("win in 17", "loss in 17")
    (turn,) = final["turning_points"]
    assert turn["ply"] == 8 and "threw away the win" in turn["text"], turn
    assert final["accuracy"]["first"] < final["accuracy"]["second"] == 100.0


async def test_hints_and_the_ais_explanations_agree_with_the_solver_all_game(
    tmp_path: Path,
) -> None:
    """Ann (X) plays Connect Four against the perfect AI with the search shown, and
    asks for a hint before each of her moves. She opens 4 4 3 5 as in the game
    above, then follows the hints but for every fifth move, played at random: a
    long game with slips. Every hint is proven, says the solver's value and
    names a move that keeps it; every AI move comes with a proven value equal to
    the solver's, and keeps it. Nothing falls back to a guess."""
    rng = random.Random(25)
    async with running_server(tmp_path / "games.db", engine="auto") as server:
        ann = await Player.connect(server.ws_url)
        welcome = await ann.request(
            {"type": "hello", "name": "ann", "version": 2, "search_info": True}
        )
        assert welcome["type"] == "welcome", welcome
        created = await ann.request(
            {"type": "create_room", "game": "connect4", "ai_level": "perfect"}
        )
        code = created["room"]["code"]
        played = ""
        opening = ["4", "4", "3", "5"]
        while True:
            hint = await ann.request({"type": "hint", "room": code})
            assert hint["type"] == "hint" and hint["ply"] == len(played), hint
            scores = move_scores(played)
            assert hint["search"]["exact"] is True, (played, hint)
            assert hint["search"]["value"] == value_text(played), (played, hint)
            assert scores[hint["move"]] == max(scores.values()), (played, hint, scores)
            legal = [CONNECT4.format_move(m) for m in CONNECT4.legal_moves(
                CONNECT4.from_moves(played))]  # fmt: skip
            if opening and opening[0] in legal:
                mine = opening.pop(0)
            else:  # the hint, but every fifth move one at random: a long game with slips
                mine = rng.choice(legal) if len(played) % 10 == 0 else hint["move"]
            reply = await ann.request({"type": "move", "room": code, "move": mine})
            assert reply["type"] == "moved", reply
            played += mine
            if CONNECT4.outcome(CONNECT4.from_moves(played)).is_over:
                break
            theirs = await ann.expect("moved", ply=len(played), timeout=30)
            found = theirs["search"]
            assert found["exact"] is True, (played, found)
            assert found["value"] == value_text(played), (played, found)
            best = stone_score(played)
            assert -stone_score(played + theirs["move"]) == best, (played, theirs)
            assert not found["summary"].count("guess"), found
            played += theirs["move"]
            if CONNECT4.outcome(CONNECT4.from_moves(played)).is_over:
                break
        over = await ann.expect("game_over", timeout=30)
    assert len(played) > 24, f"{played}: the game must reach the middle game"
    # Only Ann's moves may lower the value (the AI keeps it), so the game ends
    # with the worst result her moves left her.
    hers = [-stone_score(played[: ply + 1]) for ply in range(0, len(played), 2)]
    expected = min(result(score) for score in hers)
    assert over["result"]["winner"] == {1: "first", 0: None, -1: "second"}[expected], played
