"""``boardroom review GAME_ID``: the real command, as a child process, against a
real server (real engine pool, real SQLite).

It polls ``GET /api/games/{id}/analysis`` while the server analyses the game,
prints a line per move (its mark, judgement, value after, the better move),
then the turning points and the accuracy, and exits 0; it exits 1 with one
clear line on stderr when the server refuses (no such game, a game in
progress, the engine busy) or cannot be reached, and 2 for an id that is not
a number.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

from harness import Player, play_out, run_boardroom, running_server

BLUNDER = "b2 a2 a1 c3 c1 b1 a3"
"""Tic-tac-toe: O's a2 throws the draw away (X then wins), the rest is best play."""


async def test_review_prints_each_move_then_the_turning_points_and_accuracy(
    tmp_path: Path,
) -> None:
    """The first run starts the analysis (stderr says "analysing… 0 of 7": the
    server had judged nothing yet) and prints all seven moves in order, O's a2
    marked ?? as a blunder with a1 the better move; then the turning point and
    the accuracies. A second run answers from the store: the same output, with
    no waiting."""
    async with running_server(tmp_path / "games.db") as server:
        game_id = await play_out(server.ws_url, "tictactoe", BLUNDER.split())
        first = await run_boardroom("review", str(game_id), "--server", server.ws_url)
        again = await run_boardroom("review", str(game_id), "--server", server.ws_url)
        _, _, body = await server.get(f"/api/games/{game_id}/analysis")
    print(f"\n$ boardroom review {game_id}\n{first.out}")
    assert first.status == 0, first
    assert re.search(r"analysing… 0 of 7", first.err), first.err
    lines = first.out.splitlines()
    assert lines[0] == f"Tic-tac-toe #{game_id}: X ann v O bob: X ann won (line)"
    moves = [line for line in lines if re.match(r"\s*\d+\. [XO] ", line)]
    assert [line.split()[2].rstrip("?!") for line in moves] == BLUNDER.split()
    assert re.fullmatch(r"\s*2\. O a2\?\?\s+blunder\s+loss in 3\s+better: a1", moves[1])
    assert all("better" not in line and "?" not in line for line in moves[:1] + moves[2:])
    final = json.loads(body)
    for line, review in zip(moves, final["reviews"], strict=True):
        assert review["judgement"] in line and review["value_after"] in line
    assert "Turning points:" in lines
    assert lines[lines.index("Turning points:") + 1].strip() == final["turning_points"][0]["text"]
    assert lines[-1] == "Accuracy: X ann 100.0%, O bob 69.5%"
    assert (again.status, again.out, again.err) == (0, first.out, "")


async def test_review_refuses_what_it_cannot_review_with_a_reason(tmp_path: Path) -> None:
    """An unknown id, a game still played, a number that is not one, a server
    that is not there: one line each, saying so, and no traceback."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        room = (await ann.request({"type": "create_room", "game": "tictactoe"}))["room"]
        await bob.request({"type": "join", "code": room["code"]})
        await ann.request({"type": "move", "room": room["code"], "move": "b2"})
        unknown = await run_boardroom("review", "99", "--server", server.ws_url)
        playing = await run_boardroom("review", "1", "--server", server.ws_url)
        await ann.close()
        await bob.close()
    not_a_number = await run_boardroom("review", "twelve")
    with socket.socket() as probe:  # a port nobody listens on once it is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    nobody = await run_boardroom("review", "3", "--server", f"127.0.0.1:{port}")
    assert (unknown.status, unknown.out) == (1, "")
    assert unknown.err == "boardroom review: no game 99 on this server\n"
    assert (playing.status, playing.out) == (1, "")
    assert "game 1 is still being played" in playing.err
    assert not_a_number.status == 2
    assert "'twelve' is not a game id" in not_a_number.err
    assert nobody.status == 1 and nobody.out == ""
    assert re.fullmatch(
        r"boardroom review: cannot reach the server at \S+: .*refused\n", nobody.err
    )
    for run in (unknown, playing, not_a_number, nobody):
        assert "Traceback" not in run.err, run.err


async def test_review_says_when_the_engine_is_busy(tmp_path: Path) -> None:
    """Two analyses already run: the third is refused (503 engine_busy), and the
    command says to try again, with the server's delay."""
    cells = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "b1", "h12"]  # first wins
    async with running_server(tmp_path / "games.db") as server:
        ids = [await play_out(server.ws_url, "gomoku", cells) for _ in range(3)]
        for game_id in ids[:2]:
            status, _, _ = await server.get(f"/api/games/{game_id}/analysis")
            assert status == 202
        busy = await run_boardroom("review", str(ids[2]), "--server", server.ws_url)
    assert (busy.status, busy.out) == (1, "")
    assert re.fullmatch(
        r"boardroom review: the server's engine is busy with other analyses: "
        r"try again in \d+(\.\d+)? s\n",
        busy.err,
    ), busy.err
