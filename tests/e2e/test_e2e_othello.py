"""Othello end to end: a real server, real WebSocket players, the real store.

Othello was added to the registry as its own module (rules, evaluation, tests,
docs): the room, the store and the protocol play it unchanged. Two people play a
game through a forced pass to the end by count, with a spectator; a person plays
the server's AI (``easy``) to the end; the stored records say how the games
ended and a game is reviewed, its values labelled estimates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness import Player, RunningServer, running_server, wait_until
from terminal_helpers import client_process

from boardroom.shared.games import Player as Side
from boardroom.shared.games import Status, get_game

OTHELLO = get_game("othello")
SIDES = ("first", "second")
PASS_LINE = ["d3", "c3", "e6", "d2", "d1", "e1", "b2", "c1"]
"""After these moves Black (first, to move) has no legal move: it must pass."""
WIPEOUT = ["d3", "c3", "f5", "f4", "f3", "d2", "d1", "e3", "b3"]
"""Black takes every disc in nine moves: the game ends by count, 13 to 0."""


def played_out(opening: list[str]) -> list[str]:
    """``opening``, then each side's first legal move (in the rules' order) to the
    end of the game: a scripted player that moves by the rules alone."""
    position = OTHELLO.from_moves(" ".join(opening))
    moves = list(opening)
    while legal := OTHELLO.legal_moves(position):
        moves.append(OTHELLO.format_move(legal[0]))
        position = OTHELLO.play(position, legal[0])
    return moves


async def seated_room(server: RunningServer) -> tuple[str, Player, Player, Player]:
    """ada (first, Black) and bob in an Othello room, carol watching; started."""
    ada, bob, carol = [await Player.join_server(server.ws_url, n) for n in ("ada", "bob", "carol")]
    created = await ada.request({"type": "create_room", "game": "othello", "seat": "first"})
    assert created["type"] == "state", created
    room = created["room"]
    assert (room["game"], room["title"], room["status"]) == ("othello", "Othello", "waiting")
    code = room["code"]
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing" and joined["room"]["you"] == "second"
    watched = await carol.request({"type": "watch", "code": code})
    assert watched["type"] == "state", watched
    return code, ada, bob, carol


async def play(
    code: str,
    players: tuple[Player, Player],
    watchers: list[Player],
    moves: list[str],
    start: int = 0,
) -> None:
    """Each move by the side to move, from ply ``start``; its reply and what the
    others see say it as played."""
    for ply, move in enumerate(moves, start=start):
        mover, other = players[ply % 2], players[1 - ply % 2]
        reply = await mover.request({"type": "move", "room": code, "move": move, "ply": ply})
        assert (reply["type"], reply["move"], reply["side"]) == ("moved", move, SIDES[ply % 2])
        for watcher in (other, *watchers):
            assert (await watcher.expect("moved", ply=ply))["move"] == move


async def test_two_people_play_othello_through_a_forced_pass(tmp_path: Path) -> None:
    """Every move reaches the other seat and the spectator as played, the forced
    ``pass`` included, up to the last move; an illegal disc and a pass while a
    move remains are refused with ``illegal_move`` and change nothing; a hint
    is an estimate in the opening, and ``pass`` when that is the only move."""
    moves = played_out([*PASS_LINE, "pass"])
    assert moves.count("pass") >= 1
    async with running_server(tmp_path / "games.db") as server:
        code, ada, bob, carol = await seated_room(server)
        for bad in ("e3", "pass", "d4", "z9"):
            refused = await ada.request({"type": "move", "room": code, "move": bad})
            assert (refused["type"], refused["code"]) == ("error", "illegal_move"), refused
        hint = await ada.request({"type": "hint", "room": code})
        assert hint["type"] == "hint" and hint["move"] in {"d3", "c4", "f5", "e6"}, hint
        assert hint["search"]["exact"] is False  # an estimate: the opening is beyond proof
        await play(code, (ada, bob), [carol], moves[: len(PASS_LINE)])
        forced = await ada.request({"type": "hint", "room": code})
        assert forced["move"] == "pass", forced
        await play(code, (ada, bob), [carol], moves[len(PASS_LINE) : -1], start=len(PASS_LINE))
        state = (await carol.request({"type": "get_state", "room": code}))["room"]
    assert state["status"] == "playing" and state["moves"] == " ".join(moves[:-1])
    assert state["to_move"] == SIDES[(len(moves) - 1) % 2]


async def test_the_last_move_ends_othello_by_count_and_the_record_says_so(
    tmp_path: Path,
) -> None:
    """The game ends when neither side can move: everyone gets the same
    ``game_over`` with the count as the reason, and the record stores it."""
    moves = played_out([*PASS_LINE, "pass"])
    outcome = OTHELLO.outcome(OTHELLO.from_moves(" ".join(moves)))
    winner = None if outcome.status is Status.DRAW else SIDES[(outcome.winner or Side.FIRST).number]
    async with running_server(tmp_path / "games.db") as server:
        code, ada, bob, carol = await seated_room(server)
        await play(code, (ada, bob), [carol], moves)
        overs = [await player.expect("game_over") for player in (ada, bob, carol)]
        record = await server.get_json(f"/api/games/{overs[0]['game_id']}")
    result = overs[0]["result"]
    assert all(over["result"] == result for over in overs)
    assert overs[0]["moves"] == " ".join(moves)
    assert result["reason"] == "count" and not result.get("line")
    assert result.get("winner") == winner
    assert record["game"] == "othello" and record["state"] == "finished"
    assert (record["termination"], record["winner"]) == ("count", winner)
    assert record["move_string"] == " ".join(moves)


async def play_the_ai(server: RunningServer, *, plies: int | None) -> tuple[Player, Any]:
    """ann (first) against the AI at ``easy``: ann plays her last legal move in the
    rules' order, the AI answers; for ``plies`` plies, or to the end (None).
    Returns ann and the final position."""
    ann = await Player.join_server(server.ws_url, "ann")
    created = await ann.request(
        {"type": "create_room", "game": "othello", "ai_level": "easy", "seat": "first"}
    )
    code = created["room"]["code"]
    await ann.expect("state")
    position = OTHELLO.new()
    while (legal := OTHELLO.legal_moves(position)) and (plies is None or position.ply < plies):
        if OTHELLO.to_move(position) is Side.FIRST:
            move = OTHELLO.format_move(legal[-1])
            reply = await ann.request(
                {"type": "move", "room": code, "move": move, "ply": position.ply}
            )
            assert reply["type"] == "moved", reply
        else:
            move = (await ann.expect("moved", ply=position.ply, timeout=30))["move"]
        # The AI's move is checked by the rules: parse_move refuses an illegal one.
        position = OTHELLO.play(position, OTHELLO.parse_move(position, move))
    return ann, position


async def test_the_ai_at_easy_answers_othello_moves_with_legal_ones(tmp_path: Path) -> None:
    async with running_server(tmp_path / "games.db") as server:
        _, position = await play_the_ai(server, plies=16)
    assert position.ply == 16 and not OTHELLO.outcome(position).is_over


async def test_a_game_against_the_ai_ends_by_count_and_is_recorded(tmp_path: Path) -> None:
    """The AI answers every move with a legal one (a pass when it has to), the
    game ends by count, and the stored record replays to the same board."""
    async with running_server(tmp_path / "games.db") as server:
        ann, position = await play_the_ai(server, plies=None)
        over = await ann.expect("game_over")
        record = await server.get_json(f"/api/games/{over['game_id']}")
    assert over["result"]["reason"] == "count"
    assert over["moves"] == OTHELLO.move_string(position)
    assert record["termination"] == "count"
    assert [p["name"] for p in record["players"]] == ["ann", "AI (easy)"]
    replayed = OTHELLO.from_moves(record["move_string"])
    assert OTHELLO.board_rows(replayed) == OTHELLO.board_rows(position)


async def test_a_finished_othello_game_is_reviewed_and_its_values_are_estimates(
    tmp_path: Path,
) -> None:
    """``GET /api/games/{id}/analysis`` reviews every move; the opening is beyond
    proof, so the review says its values are estimates; the last move, which
    ended the game, is valued exactly."""
    async with running_server(tmp_path / "games.db") as server:
        code, ada, bob, carol = await seated_room(server)
        await play(code, (ada, bob), [carol], WIPEOUT)
        over = await ada.expect("game_over")
        assert (over["result"]["winner"], over["result"]["reason"]) == ("first", "count")

        async def poll() -> tuple[int, Any]:
            status, _, body = await server.get(f"/api/games/{over['game_id']}/analysis")
            return status, json.loads(body)

        _, analysis = await wait_until(poll, lambda answer: answer[0] == 200, timeout=60)
    assert analysis["complete"] and analysis["estimated"]
    reviews = analysis["reviews"]
    assert [r["move"] for r in reviews] == WIPEOUT
    assert reviews[-1]["value_after"] == "win in 1" and reviews[-1]["exact_after"]


async def test_a_person_plays_othello_in_the_terminal(tmp_path: Path) -> None:
    """The terminal client (ann, Black) opens an Othello room, bob joins over the
    protocol; ann's bad input is explained in Othello's terms, her moves and
    bob's are drawn on an 8x8 board labelled a1..h8, and her forced pass is a
    move like any other; she resigns after it."""
    async with (
        running_server(tmp_path / "games.db") as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as ann,
    ):
        ann.send("new othello")
        code = (await ann.expect(r"Others can join it with: join (\w+)")).group(1)
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        await ann.expect(r"bob sits down as O")
        ann.send("zz", "e3")
        await ann.expect(r"'e3' flips nothing")
        for ply, move in enumerate(PASS_LINE):
            if ply % 2 == 0:
                ann.send(move)
                assert (await bob.expect("moved", ply=ply))["move"] == move
            else:
                await bob.request({"type": "move", "room": code, "move": move, "ply": ply})
                await ann.expect(rf"O bob played {move}")
        ann.send("pass")
        assert (await bob.expect("moved", ply=len(PASS_LINE)))["move"] == "pass"
        ann.send("resign")  # an ending the store takes (see the module docstring)
        await ann.expect(r"^Result: O bob wins: you resigned")
        ann.close_input()
        assert await ann.finish() == 0
        await bob.close()
    lines = ann.lines
    assert any(
        "'zz' is neither a command nor a move: a move is a cell such as d3, or pass" in line
        for line in lines
    ), ann.transcript
    assert "   a  b  c  d  e  f  g  h" in lines
    board_tops = [i for i, line in enumerate(lines) if line.startswith("8  ")]
    assert board_tops, ann.transcript
    # The last board drawn (after the pass: the discs bob's c1 left, d1 flipped to
    # White) is the rules' board.
    last = lines[board_tops[-1] : board_tops[-1] + 8]
    expected = OTHELLO.board_rows(OTHELLO.from_moves(" ".join(PASS_LINE)))
    assert ["".join(line[3:].replace("[", " ").replace("]", " ").split()) for line in last] == list(
        expected
    )
