"""The engine autopilot end to end (issue 31 §1): a real server, real clients, a
real SQLite file.

A player who drops mid-game and stays away past the grace window has their seat
played by the server's engine, at the room's level (``create_room``'s
``autopilot``, or the server's ``--autopilot``), to the end; coming back with
the session's token takes the seat back between two moves; with the autopilot
off the window ends in abandonment as before. The windows are short (0.3 s):
the suite is over its time budget.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import Player, RunningServer, running_server
from terminal_helpers import client_process

GRACE = 0.3


async def _started(server: RunningServer, **options: Any) -> tuple[Player, Player, str]:
    """Ann creates a tic-tac-toe room (``options`` in its ``create_room``) and
    Bob joins: the game is on, Ann (first) to move."""
    ann = await Player.join_server(server.ws_url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe", **options})
    assert created["type"] == "state", created
    code = created["room"]["code"]
    bob = await Player.join_server(server.ws_url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing", joined
    return ann, bob, code


async def _drop_on_his_turn(ann: Player, bob: Player, code: str) -> None:
    """Ann plays b2, Bob drops on his turn; Ann hears he is gone."""
    moved = await ann.request({"type": "move", "room": code, "move": "b2"})
    assert moved["type"] == "moved", moved
    await bob.close()
    await ann.expect("player_status", side="second", connected=False)


async def _play_out(ann: Player, code: str) -> dict[str, Any]:
    """Ann plays her first legal move each time it is her turn, until the game ends;
    the engine's moves for Bob come as ``moved`` with ``autopilot``. The game_over."""
    while True:
        message = await ann.recv()
        if message["type"] == "game_over":
            return message
        if message["type"] == "moved" and message["side"] == "second":
            assert message.get("autopilot") is True, message
            if message["legal"]:
                mine = await ann.request(
                    {"type": "move", "room": code, "move": message["legal"][0]}
                )
                assert mine["type"] == "moved" and "autopilot" not in mine, mine


async def test_the_engine_finishes_a_dropped_players_game_at_the_servers_level(
    tmp_path: Path,
) -> None:
    """A server started with ``--autopilot hard``: Bob drops on his turn and stays
    away. When his window runs out Ann hears that the engine plays for him, at
    ``hard``; it plays his moves to the end of the game, and the stored record
    flags exactly those moves. Afterwards his seat is held a window, as any."""
    async with running_server(
        tmp_path / "games.db", grace_seconds=GRACE, autopilot="hard"
    ) as server:
        ann, bob, code = await _started(server)
        await _drop_on_his_turn(ann, bob, code)
        took = await ann.expect("player_status", side="second", autopilot="hard")
        assert took["connected"] is False and "gone_until" not in took, took
        state = await ann.request({"type": "get_state", "room": code})
        seat = state["room"]["seats"][1]
        assert (seat["name"], seat.get("autopilot")) == ("bob", "hard"), seat

        over = await _play_out(ann, code)
        assert over["result"]["reason"] != "abandonment", over

        record = await server.get_json(f"/api/games/{over['game_id']}")
        flags = [(move["side"], move["autopilot"]) for move in record["moves"]]
        assert flags == [(side, side == "second") for side, _ in flags], flags
        assert any(flag for _, flag in flags)
        text = (await server.get(f"/api/games/{over['game_id']}?format=text"))[2]
        assert "played by the engine" in text
        state = await ann.request({"type": "get_state", "room": code})
        seat = state["room"]["seats"][1]
        assert "autopilot" not in seat and seat["gone_until"] is not None, seat
        await ann.close()


async def test_a_player_who_comes_back_takes_the_seat_back_and_plays_on(
    tmp_path: Path,
) -> None:
    """The room's own ``autopilot: easy`` (the server's is off): the engine plays
    Bob's move after his window runs out; Bob comes back with his token on a new
    connection while Ann is to move, and everyone hears he is back. From then
    on the moves on his side are his own: none is flagged."""
    async with running_server(tmp_path / "games.db", grace_seconds=GRACE) as server:
        ann, bob, code = await _started(server, autopilot="easy")
        await _drop_on_his_turn(ann, bob, code)
        await ann.expect("player_status", side="second", autopilot="easy")
        engine_move = await ann.expect("moved", side="second")
        assert engine_move["autopilot"] is True, engine_move

        back = await Player.join_server(server.ws_url, "bob", token=bob.token)
        state = await back.expect("state")
        assert state["room"]["you"] == "second" and state["room"]["to_move"] == "first"
        assert "autopilot" not in state["room"]["seats"][1], state
        await ann.expect("player_status", side="second", connected=True)

        legal = engine_move["legal"]
        mine = await ann.request({"type": "move", "room": code, "move": legal[0]})
        assert mine["type"] == "moved", mine
        seen = await back.expect("moved", side="first")
        his = await back.request({"type": "move", "room": code, "move": seen["legal"][0]})
        assert his["type"] == "moved" and "autopilot" not in his, his
        assert (await ann.expect("moved", side="second")).get("autopilot") is None

        await ann.request({"type": "resign", "room": code})
        over = await back.expect("game_over")
        record = await server.get_json(f"/api/games/{over['game_id']}")
        assert [move["autopilot"] for move in record["moves"]] == [False, True, False, False]
        await ann.close()
        await back.close()


async def test_with_the_autopilot_off_the_window_ends_in_abandonment(tmp_path: Path) -> None:
    """A room that says ``autopilot: off`` on a server whose default is ``medium``
    keeps today's rule: Bob's window runs out and Ann wins by abandonment, his
    seat freed; no engine move is made."""
    async with running_server(
        tmp_path / "games.db", grace_seconds=GRACE, autopilot="medium"
    ) as server:
        ann, bob, code = await _started(server, autopilot="off")
        await _drop_on_his_turn(ann, bob, code)
        over = await ann.expect("game_over")
        assert over["result"] == {"winner": "first", "reason": "abandonment"}, over
        assert not [m for m in ann.seen if m.get("type") == "player_status" and "autopilot" in m]
        await ann.close()


async def test_an_autopilot_that_is_no_level_is_refused(tmp_path: Path) -> None:
    """``create_room`` with an autopilot that is neither a level nor ``off`` gets
    ``bad_options`` and opens nothing."""
    async with running_server(tmp_path / "games.db") as server:
        ann = await Player.join_server(server.ws_url, "ann")
        reply = await ann.request(
            {"type": "create_room", "game": "tictactoe", "autopilot": "grandmaster"}
        )
        assert (reply["type"], reply["code"]) == ("error", "bad_options"), reply
        assert "grandmaster" in reply["message"]
        rooms = await ann.request({"type": "list_rooms"})
        assert rooms["rooms"] == [], rooms
        await ann.close()


async def test_the_terminal_says_the_ai_plays_for_the_dropped_player(
    tmp_path: Path,
) -> None:
    """Cat watches in the terminal client a game of two protocol clients on a
    server with ``--autopilot medium``; Bob drops on his turn. Cat reads that he
    lost the connection, then that the AI plays for him, at ``medium``, and the
    engine's move for him shows as any move."""
    async with running_server(
        tmp_path / "games.db", grace_seconds=GRACE, autopilot="medium"
    ) as server:
        ann, bob, code = await _started(server)
        async with client_process(
            "watch", code, "--server", server.ws_url, "--name", "cat", config_home=tmp_path
        ) as cat:
            await cat.expect(r"You are watching room")
            await _drop_on_his_turn(ann, bob, code)
            await cat.expect(r"The AI plays for O bob \(medium\) until they come back\.")
            await cat.expect(r"O bob played \w\d")
            await cat.expect(r"\| O AI for bob \(medium\) \|")
            await ann.request({"type": "resign", "room": code})
            cat.close_input()
            assert await cat.finish() == 0
        await ann.close()
