"""End to end: whole games played over real sockets against a real server.

Every test starts the server in-process (:func:`harness.running_server`: real
SQLite file, real engine pool) and talks to it as bot authors would, with plain
JSON over WebSocket, checking what ``docs/protocol.md`` promises: the messages
each player and spectator receives, and the game records served at
``/api/games/{id}`` (ids count from 1 in a fresh database).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from harness import TIMEOUT, Player, RunningServer, running_server

SIDES = ("first", "second")
CELLS = tuple(f"{column}{row}" for row in "123" for column in "abc")
"""Tic-tac-toe's cells, a1 (bottom left) to c3."""
LINES = (
    *(tuple(f"{c}{r}" for c in "abc") for r in "123"),
    *(tuple(f"{c}{r}" for r in "123") for c in "abc"),
    ("a1", "b2", "c3"),
    ("a3", "b2", "c1"),
)
"""The eight lines of three on a tic-tac-toe board."""
DRAWN_GAME = ("a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2")
"""Nine moves that fill the board with no line."""
LINE_GAME = ("a1", "a2", "b1", "b2", "c1")
"""X wins along the bottom row."""


# -- helpers -----------------------------------------------------------------------------


def other(side: str) -> str:
    return "second" if side == "first" else "first"


def content(message: dict[str, Any]) -> dict[str, Any]:
    """A message without its request ``id``: what every recipient should see alike."""
    return {key: value for key, value in message.items() if key != "id"}


def tictactoe_winner(moves: list[str]) -> str | None:
    """The side with a line of three after ``moves``, if any."""
    for side in SIDES:
        cells = set(moves[SIDES.index(side) :: 2])
        if any(set(line) <= cells for line in LINES):
            return side
    return None


def tictactoe_over(moves: list[str]) -> bool:
    return tictactoe_winner(moves) is not None or len(moves) == len(CELLS)


def tictactoe_board(moves: list[str] | tuple[str, ...]) -> str:
    """The diagram the records show: rows 3 to 1, X and O, column letters below."""
    marks = {cell: "XO"[ply % 2] for ply, cell in enumerate(moves)}
    rows = [f"{r} " + " ".join(marks.get(f"{c}{r}", ".") for c in "abc") for r in "321"]
    return "\n".join([*rows, "  a b c"])


async def expect_state(player: Player, timeout: float = TIMEOUT, **room: Any) -> dict[str, Any]:
    """The next ``state`` whose room has the given fields (earlier ones are dropped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        message = await player.expect("state", timeout=max(0.01, deadline - loop.time()))
        if all(message["room"].get(key) == value for key, value in room.items()):
            return message


async def metric(server: RunningServer, line_start: str) -> float:
    """The value of the ``/metrics`` sample whose line starts with ``line_start``."""
    status, _, body = await server.get("/metrics")
    assert status == 200
    for line in body.splitlines():
        if line.startswith(line_start + " "):
            return float(line.split()[-1])
    return 0.0


@dataclass
class Table:
    """Two seated players in a room with a game in progress, and a spectator."""

    code: str
    first: Player
    second: Player
    watcher: Player

    @property
    def everyone(self) -> list[Player]:
        return [self.first, self.second, self.watcher]

    def seat(self, side: str) -> Player:
        return self.first if side == "first" else self.second

    async def play(self, *moves: str, ply: int = 0) -> None:
        """Play ``moves`` from ``ply``, each by the side to move; everyone sees each."""
        for offset, move in enumerate(moves):
            at, side = ply + offset, SIDES[(ply + offset) % 2]
            request = {"type": "move", "room": self.code, "move": move, "ply": at}
            reply = await self.seat(side).request(request)
            expected = {"type": "moved", "room": self.code, "ply": at, "move": move, "side": side}
            # The position after the move (test_server_room_board.py checks it whole).
            shown = ("id", "clocks", "board", "legal")
            assert {k: v for k, v in reply.items() if k not in shown} == expected
            assert move not in reply["legal"] and len(reply["board"]) == 3
            for player in self.everyone:
                if player is not self.seat(side):
                    assert content(await player.expect("moved", ply=at)) == content(reply)

    async def game_over(
        self, requester: Player | None = None, reply: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``game_over`` that everyone received (the same for all); the
        ``requester`` of the ending got it as the ``reply`` to its request."""
        overs = [
            content(reply if player is requester and reply else await player.expect("game_over"))
            for player in self.everyone
        ]
        assert overs[0] == overs[1] == overs[2], overs
        assert overs[0]["room"] == self.code
        return overs[0]


async def connect(server: RunningServer, name: str) -> Player:
    return await Player.join_server(server.ws_url, name)


async def connect_all(server: RunningServer, *names: str) -> list[Player]:
    return [await connect(server, name) for name in names]


async def two_player_room(server: RunningServer, game: str = "tictactoe", **options: Any) -> Table:
    """``ada`` creates a room (``options`` as in ``create_room``), ``bob`` joins it
    (by join code if it is private), ``carol`` watches; the game has started."""
    ada, bob, carol = await connect_all(server, "ada", "bob", "carol")
    created = await ada.request({"type": "create_room", "game": game, **options})
    assert created["type"] == "state", created
    room = created["room"]
    code = room["code"]
    assert room["status"] == "waiting"
    joined = await bob.request({"type": "join", "code": room.get("join_code") or code})
    assert joined["type"] == "state", joined
    assert joined["room"]["status"] == "playing"
    started = await expect_state(ada, status="playing")
    assert started["room"]["you"] == other(joined["room"]["you"])
    watched = await carol.request({"type": "watch", "code": room.get("watch_code") or code})
    assert watched["type"] == "state", watched
    first, second = (ada, bob) if started["room"]["you"] == "first" else (bob, ada)
    return Table(code, first, second, carol)


async def check_record(
    server: RunningServer,
    game_id: int,
    *,
    code: str,
    moves: tuple[str, ...] | list[str],
    winner: str | None,
    termination: str,
    result: str,
    ending: str,
    players: tuple[str, str] = ("ada", "bob"),
) -> dict[str, Any]:
    """``/api/games/{game_id}`` as JSON and as text shows the finished game."""
    record = await server.get_json(f"/api/games/{game_id}")
    assert record["id"] == game_id
    assert record["room"] == code
    assert record["state"] == "finished"
    assert (record["result"], record["winner"], record["termination"]) == (
        result,
        winner,
        termination,
    )
    assert [p["name"] for p in record["players"]] == list(players)
    assert [(p["side"], p["symbol"]) for p in record["players"]] == [
        ("first", "X"),
        ("second", "O"),
    ]
    assert [(m["ply"], m["side"], m["move"]) for m in record["moves"]] == [
        (ply, SIDES[ply % 2], move) for ply, move in enumerate(moves)
    ]
    assert record["move_string"] == " ".join(moves)
    if record["game"] == "tictactoe":
        assert record["board"] == tictactoe_board(moves)

    status, content_type, text = await server.get(f"/api/games/{game_id}?format=text")
    assert (status, content_type) == (200, "text/plain")
    assert f"game {game_id} in room {code}" in text.splitlines()[0]
    assert re.search(rf"^X +{players[0]} \(", text, re.MULTILINE), text
    assert re.search(rf"^O +{players[1]} \(", text, re.MULTILINE), text
    assert re.search(rf"^Result +{re.escape(result)}, {re.escape(ending)}$", text, re.MULTILINE)
    if record["game"] == "tictactoe":
        assert tictactoe_board(moves) in text
    if moves:
        pairs = [moves[i : i + 2] for i in range(0, len(moves), 2)]
        for number, pair in enumerate(pairs, start=1):
            shown = r"  ".join(rf"{re.escape(move)} \([^)]*\)" for move in pair)
            assert re.search(rf"^{number}\. {shown}$", text, re.MULTILINE), text
    else:
        assert "(no moves)" in text
    return record


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    async with running_server(tmp_path / "games.db") as running:
        yield running


# -- 1. two people play to every ending -------------------------------------------------------


async def test_win_by_line(server: RunningServer) -> None:
    """Three in a row wins: players and spectator get the same moves and game_over
    (with the winning cells), and the record shows a 1-0 win with a line."""
    table = await two_player_room(server)
    await table.play(*LINE_GAME)
    over = await table.game_over()
    assert over["moves"] == " ".join(LINE_GAME)
    assert over["result"]["winner"] == "first"
    assert over["result"]["reason"] == "line"
    assert sorted(over["result"]["line"]) == ["a1", "b1", "c1"]
    await check_record(
        server,
        1,
        code=table.code,
        moves=LINE_GAME,
        winner="first",
        termination="line",
        result="1-0",
        ending="X (ada) wins with a line",
    )


async def test_a_finished_games_state_names_its_players_after_the_winner_leaves(
    server: RunningServer,
) -> None:
    """The winner leaves (as a bot does at once): the loser's and the spectator's
    state have that seat empty, and ``game_players`` still names who played
    each side, so the result can say who won."""
    table = await two_player_room(server)
    await table.play(*LINE_GAME)
    await table.game_over()
    before = (await table.first.request({"type": "get_state", "room": table.code}))["room"]
    names = {seat["side"]: seat["name"] for seat in before["seats"]}
    assert before["game_players"] == names
    left = await table.first.request({"type": "leave", "room": table.code})
    assert left["type"] == "left", left
    for player in (table.second, table.watcher):
        state = (await player.expect("state"))["room"]
        assert state["status"] == "finished" and state["result"]["winner"] == "first"
        assert state["seats"][0] == {"side": "first"}
        assert state["game_players"] == names


async def test_draw_by_full_board(server: RunningServer) -> None:
    """A full board with no line is a draw: no winner on the wire, 1/2-1/2 on record."""
    table = await two_player_room(server)
    await table.play(*DRAWN_GAME)
    over = await table.game_over()
    assert over["moves"] == " ".join(DRAWN_GAME)
    assert over["result"]["reason"] == "full_board"
    assert over["result"].get("winner") is None
    await check_record(
        server,
        1,
        code=table.code,
        moves=DRAWN_GAME,
        winner=None,
        termination="full_board",
        result="1/2-1/2",
        ending="draw, the board is full",
    )


async def test_resignation(server: RunningServer) -> None:
    """Resigning after a move loses: the resigner's reply is the game_over itself."""
    table = await two_player_room(server)
    await table.play("b2", "a1", "c3")
    reply = await table.second.request({"type": "resign", "room": table.code})
    assert reply["type"] == "game_over", reply
    over = await table.game_over(table.second, reply)
    assert over["result"]["winner"] == "first"
    assert over["result"]["reason"] == "resignation"
    assert over["moves"] == "b2 a1 c3"
    await check_record(
        server,
        1,
        code=table.code,
        moves=("b2", "a1", "c3"),
        winner="first",
        termination="resignation",
        result="1-0",
        ending="X (ada) wins as O (bob) resigned",
    )


async def test_draw_offers_declined_lapsed_then_agreed(server: RunningServer) -> None:
    """A declined offer goes to everyone as draw_declined and the game goes on; an
    offer lapses when the other side moves instead; an accepted one ends the game
    as a draw by agreement."""
    table = await two_player_room(server)
    first, second, code = table.first, table.second, table.code
    await table.play("b2")

    # First offers while second is to move; second declines.
    offered = await first.request({"type": "offer_draw", "room": code})
    assert content(offered) == {"type": "draw_offered", "room": code, "side": "first"}
    for player in (second, table.watcher):
        assert content(await player.expect("draw_offered")) == content(offered)
    state = await second.request({"type": "get_state", "room": code})
    assert state["room"]["draw_offer"] == "first"
    declined = await second.request({"type": "decline_draw", "room": code})
    assert content(declined) == {"type": "draw_declined", "room": code, "side": "first"}
    for player in (first, table.watcher):
        assert content(await player.expect("draw_declined")) == content(declined)
    nothing = await second.request({"type": "accept_draw", "room": code})
    assert nothing["type"] == "error" and nothing["code"] == "no_draw_offer"

    # The game goes on; second offers, first moves instead: the offer lapses.
    await table.play("a1", ply=1)
    await second.request({"type": "offer_draw", "room": code})
    await first.expect("draw_offered", side="second")
    await table.play("c3", ply=2)
    for player in table.everyone:
        assert content(await player.expect("draw_declined")) == {
            "type": "draw_declined",
            "room": code,
            "side": "second",
        }

    # Second offers again and first accepts.
    await second.request({"type": "offer_draw", "room": code})
    await first.expect("draw_offered", side="second")
    accepted = await first.request({"type": "accept_draw", "room": code})
    assert accepted["type"] == "game_over", accepted
    over = await table.game_over(first, accepted)
    assert over["result"].get("winner") is None
    assert over["result"]["reason"] == "agreement"
    assert over["moves"] == "b2 a1 c3"
    await check_record(
        server,
        1,
        code=code,
        moves=("b2", "a1", "c3"),
        winner=None,
        termination="agreement",
        result="1/2-1/2",
        ending="draw by agreement",
    )


async def test_crossing_draw_offers_agree(server: RunningServer) -> None:
    """Offering a draw while the opponent's offer stands accepts it."""
    table = await two_player_room(server)
    await table.play("b2", "a1")
    await table.first.request({"type": "offer_draw", "room": table.code})
    await table.second.expect("draw_offered", side="first")
    reply = await table.second.request({"type": "offer_draw", "room": table.code})
    assert reply["type"] == "game_over", reply
    over = await table.game_over(table.second, reply)
    assert over["result"].get("winner") is None
    assert over["result"]["reason"] == "agreement"
    record = await server.get_json("/api/games/1")
    assert (record["result"], record["termination"]) == ("1/2-1/2", "agreement")


async def test_leaving_mid_game_resigns(server: RunningServer) -> None:
    """Leaving a game in progress resigns it: the opponent wins by resignation."""
    table = await two_player_room(server)
    await table.play("b2", "a1", "c3")
    await table.second.send({"type": "leave", "room": table.code})
    over = await table.game_over()
    assert over["result"]["winner"] == "first"
    assert over["result"]["reason"] == "resignation"
    record = await server.get_json("/api/games/1")
    assert (record["result"], record["winner"], record["termination"]) == (
        "1-0",
        "first",
        "resignation",
    )


async def test_timeout(server: RunningServer) -> None:
    """With a per-move clock, the side to move that runs out of time loses; moves
    carry the clocks, and the record keeps the time each mover had left."""
    clock = {"kind": "per_move", "per_move": 0.5}
    table = await two_player_room(server, clock=clock)
    state = await table.first.request({"type": "get_state", "room": table.code})
    assert state["room"]["clock"] == clock
    assert state["room"]["clocks"]["running"] == "first"
    started = time.monotonic()
    reply = await table.first.request({"type": "move", "room": table.code, "move": "a1"})
    assert reply["type"] == "moved"
    assert reply["clocks"]["running"] == "second"
    assert 0 < reply["clocks"]["second_ms"] <= 500
    for player in (table.second, table.watcher):
        assert content(await player.expect("moved", ply=0)) == content(reply)
    over = await table.game_over()
    assert time.monotonic() - started >= 0.4
    assert over["result"] == {"winner": "first", "reason": "timeout"}
    assert over["moves"] == "a1"
    record = await check_record(
        server,
        1,
        code=table.code,
        moves=("a1",),
        winner="first",
        termination="timeout",
        result="1-0",
        ending="X (ada) wins as O (bob) ran out of time",
    )
    assert 0 <= record["moves"][0]["clock_ms"] <= 500


async def test_abandonment(tmp_path: Path) -> None:
    """A player who drops mid-game is reported gone (with the time their seat is
    held until); when the grace window ends, the opponent wins by abandonment."""
    async with running_server(tmp_path / "games.db", grace_seconds=0.5) as server:
        table = await two_player_room(server)
        await table.play("b2", "a1")
        dropped_at = time.time()
        await table.second.close()
        for player in (table.first, table.watcher):
            status = await player.expect("player_status")
            assert status["room"] == table.code
            assert status["side"] == "second"
            assert status["connected"] is False
            # Held for the grace window from the moment the server saw the drop.
            assert dropped_at + 0.5 - 0.01 <= status["gone_until"] <= time.time() + 0.5 + 0.01
        overs = [content(await p.expect("game_over")) for p in (table.first, table.watcher)]
        assert overs[0] == overs[1]
        assert overs[0]["result"]["winner"] == "first"
        assert overs[0]["result"]["reason"] == "abandonment"
        assert overs[0]["moves"] == "b2 a1"
        await check_record(
            server,
            1,
            code=table.code,
            moves=("b2", "a1"),
            winner="first",
            termination="abandonment",
            result="1-0",
            ending="X (ada) wins as O (bob) left the game",
        )


@pytest.mark.parametrize("how", ["resign", "leave"])
async def test_aborted_before_the_first_move(server: RunningServer, how: str) -> None:
    """A game that ends before its first move, by resigning or leaving, is aborted:
    nobody wins and the record has no result."""
    table = await two_player_room(server)
    # No id: the reply to `leave` is not what this test is about.
    await table.first.send({"type": how, "room": table.code})
    over = await table.game_over()
    assert over["result"].get("winner") is None
    assert over["result"]["reason"] == "aborted"
    assert over["moves"] == ""
    await check_record(
        server,
        1,
        code=table.code,
        moves=(),
        winner=None,
        termination="aborted",
        result="*",
        ending="no result, aborted",
    )


# -- 2. against the server AI ---------------------------------------------------------------


async def play_out_against_ai(player: Player, code: str, me: str, rng: random.Random) -> dict:
    """Play random legal tic-tac-toe moves as ``me`` until the game ends; checks
    each AI move as it comes; returns the game_over."""
    moves: list[str] = []
    while not tictactoe_over(moves):
        ply = len(moves)
        if SIDES[ply % 2] == me:
            move = rng.choice([cell for cell in CELLS if cell not in moves])
            reply = await player.request({"type": "move", "room": code, "move": move, "ply": ply})
            assert reply["type"] == "moved", reply
        else:
            reply = await player.expect("moved", ply=ply)
            assert reply["side"] == other(me)
            assert reply["move"] in CELLS and reply["move"] not in moves
        moves.append(reply["move"])
    over = await player.expect("game_over")
    assert over["moves"] == " ".join(moves)
    assert over["result"].get("winner") == tictactoe_winner(moves)
    assert over["result"]["reason"] == (
        "full_board" if over["result"].get("winner") is None else "line"
    )
    return over


@pytest.mark.parametrize("seat", ["first", "second"])
async def test_perfect_ai_never_loses(server: RunningServer, seat: str) -> None:
    """Against the perfect AI, random moves never win, whoever opens; rematches
    swap colours, and each game gets its own record with the AI's seat in it."""
    rng = random.Random(f"perfect-{seat}")
    ada = await connect(server, "ada")
    created = await ada.request(
        {"type": "create_room", "game": "tictactoe", "ai_level": "perfect", "seat": seat}
    )
    assert created["type"] == "state", created
    code = created["room"]["code"]
    state = await expect_state(ada, status="playing")
    games = 6
    for number in range(1, games + 1):
        room = state["room"]
        me = room["you"]
        assert room.get("game_number", 1) == number
        assert me == (seat if number % 2 else other(seat))
        ai_seat = next(s for s in room["seats"] if s["side"] == other(me))
        assert (ai_seat["kind"], ai_seat["level"]) == ("ai", "perfect")
        over = await play_out_against_ai(ada, code, me, rng)
        assert over["result"].get("winner") != me, over
        if number < games:
            state = await ada.request({"type": "rematch", "room": code})
            assert state["type"] == "state", state
            assert state["room"]["status"] == "playing"

    for game_id in range(1, games + 1):
        record = await server.get_json(f"/api/games/{game_id}")
        assert (record["room"], record["number"], record["state"]) == (code, game_id, "finished")
        human_first = (seat == "first") == (game_id % 2 == 1)
        human, ai = record["players"] if human_first else reversed(record["players"])
        assert (human["name"], human["kind"]) == ("ada", "human")
        assert (ai["kind"], ai["ai_level"]) == ("ai", "perfect")
        assert record["winner"] != human["side"]


async def test_connect4_against_easy_ai(server: RunningServer) -> None:
    """The AI answers each move in Connect Four with a `moved` of its own."""
    ada = await connect(server, "ada")
    created = await ada.request({"type": "create_room", "game": "connect4", "ai_level": "easy"})
    code = created["room"]["code"]
    await expect_state(ada, status="playing", you="first")
    played = ""
    for ply, column in zip(range(0, 6, 2), "123", strict=True):
        reply = await ada.request({"type": "move", "room": code, "move": column, "ply": ply})
        board, legal = reply.pop("board"), reply.pop("legal")
        assert len(board) == 6 and legal == list("1234567")  # no column is full yet
        assert content(reply) == {
            "type": "moved",
            "room": code,
            "ply": ply,
            "move": column,
            "side": "first",
        }
        answer = await ada.expect("moved", ply=ply + 1)
        assert answer["side"] == "second"
        assert answer["move"] in "1234567" and len(answer["move"]) == 1
        played += column + answer["move"]
    state = await ada.request({"type": "get_state", "room": code})
    assert state["room"]["moves"] == played
    assert (state["room"]["ply"], state["room"]["to_move"]) == (6, "first")
    over = await ada.request({"type": "resign", "room": code})
    assert over["result"] == {"winner": "second", "reason": "resignation"}
    record = await server.get_json("/api/games/1")
    assert record["move_string"] == played
    assert record["players"][1]["ai_level"] == "easy"


# -- 3. spectators ------------------------------------------------------------------------------


async def test_spectator_sees_everything_and_can_only_chat(server: RunningServer) -> None:
    """Watching a public room by its code gives the whole state (no seat, no codes)
    and every event after it; a spectator cannot play, resign or offer a draw,
    but can chat with the players."""
    ada, bob, carol = await connect_all(server, "ada", "bob", "carol")
    created = await ada.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]
    await bob.request({"type": "join", "code": code})
    await expect_state(ada, status="playing")
    await ada.request({"type": "move", "room": code, "move": "b2", "ply": 0})
    await bob.expect("moved", ply=0)

    watched = await carol.request({"type": "watch", "code": code.lower()})
    assert watched["type"] == "state", watched
    room = watched["room"]
    assert room.get("you") is None
    assert room.get("join_code") is None and room.get("watch_code") is None
    assert (room["code"], room["game"], room["status"]) == (code, "tictactoe", "playing")
    assert (room["moves"], room["ply"], room["to_move"]) == ("b2", 1, "second")
    assert [(s["side"], s["name"], s["kind"]) for s in room["seats"]] == [
        ("first", "ada", "human"),
        ("second", "bob", "human"),
    ]
    rooms = await bob.request({"type": "list_rooms"})
    assert next(r for r in rooms["rooms"] if r["code"] == code)["spectators"] == 1

    for request in (
        {"type": "move", "room": code, "move": "a1"},
        {"type": "resign", "room": code},
        {"type": "offer_draw", "room": code},
        {"type": "rematch", "room": code},
    ):
        refused = await carol.request(request)
        assert refused["type"] == "error" and refused["code"] == "not_seated", refused

    said = await carol.request({"type": "chat", "room": code, "text": "nice centre"})
    assert content(said) == {"type": "chat", "room": code, "name": "carol", "text": "nice centre"}
    for player in (ada, bob):
        assert content(await player.expect("chat")) == content(said)

    table = Table(code, ada, bob, carol)
    await table.play("a1", "c3", "a3", "a2", ply=1)
    state = await carol.request({"type": "get_state", "room": code})
    assert state["room"]["moves"] == "b2 a1 c3 a3 a2"
    resigned = await bob.request({"type": "resign", "room": code})
    over = await table.game_over(bob, resigned)
    assert over["result"]["winner"] == "first"


# -- 4. quick match ------------------------------------------------------------------------------


async def test_quick_match_pairs_players_of_the_same_game(server: RunningServer) -> None:
    """Two quick_match requests for the same game meet in one room and the game
    starts; a seeker for another game waits on its own."""
    ada, bob, carol = await connect_all(server, "ada", "bob", "carol")
    waiting = await ada.request({"type": "quick_match", "game": "tictactoe"})
    assert waiting["type"] == "state" and waiting["room"]["status"] == "waiting"
    other_game = await carol.request({"type": "quick_match", "game": "connect4"})
    assert other_game["type"] == "state" and other_game["room"]["status"] == "waiting"
    assert other_game["room"]["code"] != waiting["room"]["code"]

    paired = await bob.request({"type": "quick_match", "game": "tictactoe"})
    assert paired["type"] == "state", paired
    room = paired["room"]
    assert room["code"] == waiting["room"]["code"]
    assert (room["status"], room["game"], room["to_move"]) == ("playing", "tictactoe", "first")
    assert {s["name"] for s in room["seats"]} == {"ada", "bob"}
    started = await expect_state(ada, status="playing")
    assert started["room"]["code"] == room["code"]
    assert {started["room"]["you"], room["you"]} == set(SIDES)

    state = await carol.request({"type": "get_state", "room": other_game["room"]["code"]})
    assert state["room"]["status"] == "waiting"
    assert [s.get("name") for s in state["room"]["seats"]] == ["carol", None]

    first, second = (ada, bob) if started["room"]["you"] == "first" else (bob, ada)
    table = Table(room["code"], first, second, carol)
    moved = await first.request({"type": "move", "room": table.code, "move": "b2"})
    assert moved["type"] == "moved"
    assert content(await second.expect("moved", ply=0)) == content(moved)


async def test_quick_match_never_starts_a_game_where_one_was_played(
    server: RunningServer,
) -> None:
    """Once a quick-match game is over and one player has left, the next seeker
    waits in a new room: the one still seated asked for no new game (two bots
    leaving one after the other used to get a phantom game, aborted at once)."""
    ada, bob, carol = await connect_all(server, "ada", "bob", "carol")
    waiting = await ada.request({"type": "quick_match", "game": "tictactoe"})
    code = waiting["room"]["code"]
    paired = await bob.request({"type": "quick_match", "game": "tictactoe"})
    assert paired["room"]["code"] == code and paired["room"]["status"] == "playing"
    resigned = await bob.request({"type": "resign", "room": code})
    assert resigned["type"] == "game_over"
    assert (await bob.request({"type": "leave", "room": code}))["type"] == "left"

    seeker = await carol.request({"type": "quick_match", "game": "tictactoe"})
    assert seeker["type"] == "state", seeker
    assert seeker["room"]["code"] != code and seeker["room"]["status"] == "waiting"
    state = await ada.request({"type": "get_state", "room": code})
    assert state["room"]["status"] == "finished"
    assert [s.get("name") for s in state["room"]["seats"] if s.get("name")] == ["ada"]


# -- 5. private rooms ---------------------------------------------------------------------------


async def test_private_room_codes(server: RunningServer) -> None:
    """A private room is not listed; its room code opens nothing to newcomers; the
    join code seats a player, the watch code lets a spectator in and no more."""
    ada, bob, carol = await connect_all(server, "ada", "bob", "carol")
    created = await ada.request({"type": "create_room", "game": "tictactoe", "public": False})
    room = created["room"]
    code, join_code, watch_code = room["code"], room.get("join_code"), room.get("watch_code")
    assert room["public"] is False
    assert join_code and watch_code and len({code, join_code, watch_code}) == 3

    listed = await bob.request({"type": "list_rooms"})
    assert code not in [r["code"] for r in listed["rooms"]]
    api = await server.get_json("/api/rooms")
    assert code not in [r["code"] for r in api["rooms"]]

    for request in ({"type": "join", "code": code}, {"type": "watch", "code": code}):
        refused = await bob.request(request)
        assert refused["type"] == "error" and refused["code"] == "unknown_room", refused

    watched = await carol.request({"type": "watch", "code": watch_code})
    assert watched["type"] == "state", watched
    assert watched["room"]["code"] == code
    assert watched["room"].get("you") is None
    assert watched["room"].get("join_code") is None
    assert watched["room"].get("watch_code") is None
    refused = await carol.request({"type": "join", "code": watch_code})
    assert refused["type"] == "error" and refused["code"] == "unknown_room", refused

    joined = await bob.request({"type": "join", "code": join_code})
    assert joined["type"] == "state", joined
    assert (joined["room"]["status"], joined["room"]["you"]) == ("playing", "second")
    assert joined["room"]["join_code"] == join_code
    started = await expect_state(carol, status="playing")
    assert started["room"].get("join_code") is None
    assert started["room"].get("watch_code") is None
    assert [s["name"] for s in started["room"]["seats"]] == ["ada", "bob"]

    table = Table(code, ada, bob, carol)
    await table.play("b2", "a1")
    status, _, _ = await server.get("/api/games/1")
    assert status == 404  # in progress: only its codes open its record
    record = await server.get_json(f"/api/games/1?code={watch_code}")
    assert join_code not in str(record) and watch_code not in str(record)


# -- 6. the room list, add_ai and rematch -----------------------------------------------------


async def test_room_list_and_add_ai(server: RunningServer) -> None:
    """Public rooms show in list_rooms (filtered by game) and GET /api/rooms;
    add_ai fills the empty seat of a waiting room and the game starts."""
    ada, bob = await connect(server, "ada"), await connect(server, "bob")
    ttt = (await ada.request({"type": "create_room", "game": "tictactoe"}))["room"]["code"]
    c4 = (await bob.request({"type": "create_room", "game": "connect4"}))["room"]["code"]

    everything = await ada.request({"type": "list_rooms"})
    assert everything["type"] == "rooms"
    summaries = {r["code"]: r for r in everything["rooms"]}
    assert set(summaries) == {ttt, c4}
    assert summaries[ttt] == {
        "code": ttt,
        "game": "tictactoe",
        "title": "Tic-tac-toe",
        "status": "waiting",
        "players": ["ada"],
        "spectators": 0,
    }
    assert summaries[c4]["players"] == ["bob"]
    only_c4 = await ada.request({"type": "list_rooms", "game": "connect4"})
    assert [r["code"] for r in only_c4["rooms"]] == [c4]
    api = await server.get_json("/api/rooms")
    assert {r["code"]: r for r in api["rooms"]} == summaries
    api_c4 = await server.get_json("/api/rooms?game=connect4")
    assert [r["code"] for r in api_c4["rooms"]] == [c4]

    started = await ada.request({"type": "add_ai", "room": ttt, "level": "random"})
    assert started["type"] == "state", started
    room = started["room"]
    assert (room["status"], room["you"], room["to_move"]) == ("playing", "first", "first")
    assert room["seats"][1]["kind"] == "ai" and room["seats"][1]["level"] == "random"
    await ada.request({"type": "move", "room": ttt, "move": "b2", "ply": 0})
    answer = await ada.expect("moved", ply=1)
    assert answer["side"] == "second"
    listed = await bob.request({"type": "list_rooms", "game": "tictactoe"})
    assert [(r["code"], r["status"]) for r in listed["rooms"]] == [(ttt, "playing")]


async def test_rematch_swaps_colours_and_records_a_new_game(server: RunningServer) -> None:
    """After a game, both players asking for a rematch starts game 2 in the same
    room with colours swapped; each game has its own record."""
    table = await two_player_room(server)
    ada, bob, code = table.first, table.second, table.code
    await table.play(*LINE_GAME)
    await table.game_over()

    after_the_end = await ada.request({"type": "move", "room": code, "move": "c3"})
    assert after_the_end["type"] == "error" and after_the_end["code"] == "game_over"
    asked = await ada.request({"type": "rematch", "room": code})
    assert (asked["type"], asked["side"]) == ("rematch_offered", "first"), asked
    for other in (bob, table.watcher):  # the opponent and spectators hear who asked
        await other.expect("rematch_offered", room=code, side="first")
    offer = await bob.request({"type": "get_state", "room": code})
    assert (offer["room"]["status"], offer["room"].get("game_number", 1)) == ("finished", 1)
    assert offer["room"]["rematch_offer"] == "first", offer
    started = await bob.request({"type": "rematch", "room": code})
    assert started["type"] == "state", started
    room = started["room"]
    assert (room["status"], room["game_number"], room["you"]) == ("playing", 2, "first")
    assert (room["moves"], room["ply"], room.get("result")) == ("", 0, None)
    assert [s["name"] for s in room["seats"]] == ["bob", "ada"]
    for player, you in ((ada, "second"), (table.watcher, None)):
        state = await expect_state(player, game_number=2)
        assert state["room"].get("you") == you

    game2 = Table(code, bob, ada, table.watcher)
    await game2.play("b2", "a1")
    resigned = await ada.request({"type": "resign", "room": code})
    over = await game2.game_over(ada, resigned)
    assert over["result"] == {"winner": "first", "reason": "resignation"}
    await check_record(
        server,
        1,
        code=code,
        moves=LINE_GAME,
        winner="first",
        termination="line",
        result="1-0",
        ending="X (ada) wins with a line",
    )
    record = await check_record(
        server,
        2,
        code=code,
        moves=("b2", "a1"),
        winner="first",
        termination="resignation",
        result="1-0",
        ending="X (bob) wins as O (ada) resigned",
        players=("bob", "ada"),
    )
    assert record["number"] == 2


# -- 7. get_state, ping, chat -------------------------------------------------------------------


async def test_get_state_ping_and_chat(server: RunningServer) -> None:
    """get_state returns the whole room; ping gets a pong echoing its id; a chat
    line reaches everyone in the room with the sender's name."""
    table = await two_player_room(server)
    ada, bob, code = table.first, table.second, table.code
    await table.play("b2", "a1")
    state = await bob.request({"type": "get_state", "room": code})
    assert state["type"] == "state"
    room = state["room"]
    assert {
        key: room.get(key)
        for key in ("code", "game", "title", "status", "public", "moves", "ply", "to_move", "you")
    } == {
        "code": code,
        "game": "tictactoe",
        "title": "Tic-tac-toe",
        "status": "playing",
        "public": True,
        "moves": "b2 a1",
        "ply": 2,
        "to_move": "first",
        "you": "second",
    }
    assert room.get("game_number", 1) == 1  # the default is not sent
    assert room["clock"].get("kind", "none") == "none"
    assert [(s["side"], s["name"], s["kind"], s["connected"]) for s in room["seats"]] == [
        ("first", "ada", "human", True),
        ("second", "bob", "human", True),
    ]

    await ada.send({"type": "ping", "id": "are-you-there"})
    assert await ada.expect("pong") == {"type": "pong", "id": "are-you-there"}

    said = await bob.request({"type": "chat", "room": code, "text": "good luck ☺"})
    assert content(said) == {"type": "chat", "room": code, "name": "bob", "text": "good luck ☺"}
    for player in (ada, table.watcher):
        assert content(await player.expect("chat")) == content(said)


# -- 8. health and metrics ----------------------------------------------------------------------


async def test_healthz_and_metrics(server: RunningServer) -> None:
    """/healthz says ok; /metrics counts moves played and errors by code."""
    status, content_type, _ = await server.get("/healthz")
    assert (status, content_type) == (200, "application/json")
    health = await server.get_json("/healthz")
    assert health["status"] == "ok"

    moves_before = await metric(server, "boardroom_moves_total")
    illegal = 'boardroom_errors_total{code="illegal_move"}'
    errors_before = await metric(server, illegal)
    table = await two_player_room(server)
    await table.play("b2", "a1", "c3")
    refused = await table.second.request({"type": "move", "room": table.code, "move": "b2"})
    assert refused["type"] == "error" and refused["code"] == "illegal_move", refused
    assert "b2" in refused["message"]

    assert await metric(server, "boardroom_moves_total") == moves_before + 3
    assert await metric(server, illegal) == errors_before + 1
    health = await server.get_json("/healthz")
    assert health["status"] == "ok"
    assert health["connections"] >= 3 and health["rooms"] >= 1
    assert health["event_loop"] == "asyncio"  # pytest's loop
    # The process's own figures, for the load test's memory per connection.
    assert await metric(server, "process_resident_memory_bytes") > 10_000_000
