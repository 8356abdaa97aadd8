"""End to end: the terminal client (``boardroom play`` / ``boardroom watch``) as a
real process, its input piped as a script, against a real server (in-process,
real SQLite, real engine pool) over real WebSockets.

Scripts list their moves in advance (a move waits for the player's turn), and
tic-tac-toe scripts list all nine cells: the ones the opponent took first are
refused in words and the script goes on, so the game always ends. Assertions are
on the lines the client prints and on the game records the server keeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import signal
import socket
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from classroom_helpers import Teacher
from harness import (
    TIMEOUT,
    CuttableProxy,
    Player,
    play_out,
    run_boardroom,
    running_server,
    wait_until,
)
from terminal_helpers import PURE_PYTHON_ENGINE, client_process
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as websockets_serve

from boardroom.client.errors import RequestRefusedError
from boardroom.client.session import Session, SessionEvent
from boardroom.client.terminal.console import LineConsole
from boardroom.client.terminal.room_screen import RoomScreen
from boardroom.client.terminal.style import Palette
from boardroom.client.terminal.terminal import Terminal
from boardroom.server.core.players import player_id_for
from boardroom.server.store import GameStore
from boardroom.shared.games import choices_text, default_game
from boardroom.shared.protocol.messages import ChatLine, CreateRoom, SendChat, State, Watch

ALL_CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
DRAWN = ["b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"]
"""A whole tic-tac-toe game, drawn."""
PLAIN = Palette(enabled=False)


def board_of_record(board: str) -> list[str]:
    """A record's board diagram ("3 O . X" rows) as rows of symbols only."""
    return [" ".join(row.split()[1:]) for row in board.splitlines()[:-1]]


def last_board_printed(transcript: str) -> list[str]:
    """The last tic-tac-toe board in a transcript, brackets dropped, as rows of symbols."""
    rows = re.findall(r"^([321]) (.*)$", transcript, flags=re.MULTILINE)
    last = rows[-3:]
    return [" ".join(re.sub(r"[\[\]]", " ", cells).split()) for _, cells in last]


def expected_result_line(record: dict[str, object], me: str, opponent: str) -> str:
    """The ``Result:`` line the player ``me`` should see for a finished record."""
    winner = record["winner"]
    if winner is None:
        return "Result: Draw: the board is full"
    players = record["players"]
    assert isinstance(players, list)
    winning = next(player for player in players if player["side"] == winner)
    if winning["name"] == me:
        return "Result: You win: three in a row"
    return f"Result: {winning['symbol']} {opponent} wins: three in a row"


async def test_a_scripted_session_plays_a_whole_game_against_the_ai_and_sees_the_result(
    db_path: Path, tmp_path: Path
) -> None:
    """Bad lobby input is refused in words; then a room against the AI, a game played
    to the end (refused moves explained on the way), and the result the server recorded."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as client,
    ):
        client.send(
            "rooms",
            "bogus",
            "join ZZZZZZ",
            "new chess",
            "new tictactoe ai=perfect",
            "zz",
            "a1",
            "a1",
            *ALL_CELLS,
        )
        client.close_input()
        assert await client.finish() == 0
        record = await server.get_json("/api/games/1")

    transcript = client.transcript
    assert "No open rooms." in transcript
    assert "'bogus' is not a lobby command" in transcript
    assert "No room opens with 'ZZZZZZ'" in transcript
    assert "Unknown game 'chess': choose one of tictactoe" in transcript
    assert "Game 1 starts: X ann vs O AI (perfect). You play X and move first." in transcript
    assert "Others can join" not in transcript  # the AI takes the seat: nobody is invited
    assert "'zz' is neither a command nor a move" in transcript
    assert "'a1' is taken: X already has a stone there" in transcript
    assert record["state"] == "finished"
    result_lines = [line for line in client.lines if line.startswith("Result: ")]
    assert len(result_lines) == 1
    assert result_lines[0].startswith(expected_result_line(record, "ann", "AI (perfect)"))
    assert last_board_printed(transcript) == board_of_record(str(record["board"]))
    assert client.lines[-1] == "Bye."


async def test_two_clients_play_each_other_and_a_spectator_watches(
    db_path: Path, tmp_path: Path
) -> None:
    """Ann opens a private room and passes the codes on; bob joins with the join code,
    cat watches with the watch code; moves, chat and the result reach everyone."""
    async with running_server(db_path) as server:
        ann_config, bob_config, cat_config = (tmp_path / name for name in ("ann", "bob", "cat"))
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=ann_config
        ) as ann:
            ann.send("new tictactoe private", "a1", "chat your move, bob", "a2", "a3")
            ann.close_input()
            codes = await ann.expect(r"join code (\w+) \(spectators: watch code (\w+)\)")
            join_code, watch_code = codes.groups()
            async with client_process(
                "watch", watch_code, "--server", server.ws_url, "--name", "cat",
                config_home=cat_config,
            ) as cat:  # fmt: skip
                cat.close_input()
                await cat.expect(r"You are watching room \w+")
                async with client_process(
                    "play", "--server", server.ws_url, "--name", "bob", config_home=bob_config
                ) as bob:
                    bob.send(f"join {join_code.lower()}", "b1", "b2")
                    bob.close_input()
                    assert await bob.finish() == 0
                assert await ann.finish() == 0
                assert await cat.finish() == 0

    review = f"(game #1: boardroom review 1 --server 127.0.0.1:{server.port})"
    assert f"Result: You win: three in a row a1-a2-a3 {review}" in ann.lines
    assert "bob sits down as O." in ann.lines
    assert f"Result: X ann wins: three in a row a1-a2-a3 {review}" in bob.lines
    assert "X ann played a1" in bob.lines
    assert "[chat] ann: your move, bob" in bob.lines
    assert f"Result: X ann wins: three in a row a1-a2-a3 {review}" in cat.lines
    assert "O bob played b2" in cat.lines
    assert "[chat] ann: your move, bob" in cat.lines


async def test_quick_match_pairs_two_clients_and_a_resignation_ends_the_game(
    db_path: Path, tmp_path: Path
) -> None:
    """Two players ask for the same game and are paired; ann resigns after her first
    move and both see who won and why."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path / "ann"
        ) as ann,
    ):
        ann.send("quick tictactoe", "a1", "resign")
        ann.close_input()
        await ann.expect(r"waiting for an opponent")
        async with client_process(
            "play", "--server", server.ws_url, "--name", "bob", config_home=tmp_path / "bob"
        ) as bob:
            bob.send("quick ttt", "b1")  # before or after the resignation: refused if after
            bob.close_input()
            assert await bob.finish() == 0
        assert await ann.finish() == 0

    assert "Game 1 starts: X ann vs O bob. You play O." in bob.lines
    review = f"(game #1: boardroom review 1 --server 127.0.0.1:{server.port})"
    assert f"Result: You win: X ann resigned {review}" in bob.lines
    assert f"Result: O bob wins: you resigned {review}" in ann.lines


async def test_the_winner_who_leaves_at_once_is_still_named_in_the_result_and_status(
    db_path: Path, tmp_path: Path
) -> None:
    """Bob (a protocol client, as a bot is) wins and leaves the room at once: ann's
    result and status line still name him, as "O bob (left)", never "O (empty seat)"."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as ann,
    ):
        ann.send("new tictactoe", "a1", "c1", "a3")
        code = (await ann.expect(r"^Room (\w+) is open"))[1]
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        for ply, (answered, move) in enumerate([("a1", "b1"), ("c1", "b2"), ("a3", "b3")]):
            await bob.expect("moved", move=answered)
            await bob.request({"type": "move", "room": code, "move": move, "ply": 2 * ply + 1})
        await bob.expect("game_over")
        await bob.request({"type": "leave", "room": code})
        # The leave and the result come in either order: the status after both.
        await ann.expect(r"\| O bob \(left\) \| game over: rematch or leave$")
        ann.close_input()
        assert await ann.finish() == 0
        await bob.close()

    assert "bob left seat O." in ann.lines
    results = [line for line in ann.lines if line.startswith("Result: ")]
    assert len(results) == 1 and results[0].startswith(
        "Result: O bob wins: three in a row b1-b2-b3 "
    ), ann.transcript
    after_the_game = ann.lines[ann.lines.index("bob left seat O.") :]
    assert not any("(empty seat)" in line for line in after_the_game), ann.transcript


async def test_at_80_columns_long_lines_are_broken_between_words(
    db_path: Path, tmp_path: Path
) -> None:
    """A terminal 80 columns wide: the status line and the result line with its
    ``--server`` are broken at spaces, each piece within 80 columns, no word cut."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path, COLUMNS="80"
        ) as ann,
    ):
        ann.send("new tictactoe", "a1")
        code = (await ann.expect(r"^Room (\w+) is open"))[1]
        status = f"Tic-tac-toe, room {code} | X ann (you) | O (empty seat) | waiting for an"
        await ann.expect(f"^{re.escape(status)}$")
        await ann.expect(r"^  opponent$")
        bob = await Player.join_server(server.ws_url, "bob")
        await bob.request({"type": "join", "code": code})
        await bob.expect("moved", move="a1")
        await bob.request({"type": "resign", "room": code})
        await ann.expect(r"^Result: ")
        ann.close_input()
        assert await ann.finish() == 0
        await bob.close()

    assert all(len(line) <= 80 for line in ann.lines), ann.transcript
    at = next(i for i, line in enumerate(ann.lines) if line.startswith("Result: "))
    assert ann.lines[at : at + 2] == [
        "Result: You win: O bob resigned (game #1: boardroom review 1 --server",
        f"  127.0.0.1:{server.port})",
    ], ann.transcript


async def test_a_server_busy_making_new_players_is_waited_for_and_then_lets_the_client_in(
    db_path: Path, tmp_path: Path
) -> None:
    """One new player an address every 5 s, and bob has just been made: ann's first
    run is refused ``rate_limited``; the client says it waits, says hello again
    after the server's ``retry_after`` and plays as a new player."""
    async with running_server(db_path, new_players_per_address=1, new_player_seconds=5.0) as server:
        bob = await Player.join_server(server.ws_url, "bob")
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as ann:
            busy = await ann.expect(r"^The server is busy: trying again in (\d+) s\.$")
            await ann.expect(f"^Welcome, ann! Connected to {re.escape(server.ws_url)}\\.$")
            ann.close_input()
            assert await ann.finish() == 0
        await bob.close()

    # retry_after (5 s at most, less the client's start), rounded up, and some jitter.
    assert int(busy[1]) in range(1, 7), ann.transcript
    assert server.ws_url in profile_of(tmp_path)["players"]  # the player made is kept


async def test_a_client_whose_connection_is_cut_reconnects_and_finishes_the_game(
    db_path: Path, tmp_path: Path
) -> None:
    """The network drops mid-game (a TCP reset): the client says so, reconnects with
    its token by itself, and the rest of the script's moves finish the game."""
    async with (
        running_server(db_path) as server,
        CuttableProxy(server.port) as proxy,
        client_process(
            "play", "--server", proxy.ws_url, "--name", "ann", config_home=tmp_path
        ) as client,
    ):
        client.send("new tictactoe ai=perfect", "b2")
        await client.expect(r"^O AI \(perfect\) played \w\d$")
        proxy.cut()
        # The moves go in while the client is (or is about to be) disconnected:
        # each waits for the connection and for the player's turn.
        client.send(*ALL_CELLS)
        client.close_input()
        await client.expect(r"^Connection lost, reconnecting\.\.\.$")
        await client.expect(r"^Reconnected\.$")
        assert await client.finish() == 0
        record = await server.get_json("/api/games/1")

    assert record["state"] == "finished"
    result_lines = [line for line in client.lines if line.startswith("Result: ")]
    assert len(result_lines) == 1
    assert result_lines[0].startswith(expected_result_line(record, "ann", "AI (perfect)"))
    assert last_board_printed(client.transcript) == board_of_record(str(record["board"]))


async def test_why_says_how_the_ai_found_its_last_move(db_path: Path, tmp_path: Path) -> None:
    """The client asks for the AI's search: ``why`` before the AI has moved says there
    is nothing yet; after its move, how many positions it searched, how deep, that
    tic-tac-toe is a proven draw, and the line it expects, starting with its move."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as client,
    ):
        client.send("new tictactoe ai=perfect", "why")
        await client.expect(r"^No AI move to explain yet")
        client.send("b2")
        played = await client.expect(r"^O AI \(perfect\) played (\w\d)$")
        client.send("why")
        said = await client.expect(
            r"^O AI \(perfect\) played (\w\d): searched ([\d.]+ ?k?) positions? in .*, "
            r"depth (\d+): proven draw$"
        )
        line = await client.expect(r"^  expected line: (\w\d)( \w\d)* \(.* positions a second\)$")
        assert said.group(1) == line.group(1) == played.group(1)
        assert float(said.group(2).rstrip(" k")) > 0 and int(said.group(3)) >= 1
        client.send("quit")
        client.close_input()
        assert await client.finish() == 0


async def test_hint_prints_the_engines_move_for_the_player_to_move(
    db_path: Path, tmp_path: Path
) -> None:
    """On their move, ``hint`` prints the engine's move and its value (tic-tac-toe's
    opening: b2, a proven draw); the player plays it and the game goes on."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as client,
    ):
        client.send("new tictactoe ai=random", "hint")
        await client.expect(r"^Hint: b2 \(draw\): searched .*: proven draw$")
        client.send("b2")
        await client.expect(r"^O AI \(random\) played (\w\d)$")
        client.send("quit")
        client.close_input()
        assert await client.finish() == 0


async def test_the_result_line_gives_the_games_id_and_review_alone_reviews_it(
    db_path: Path, tmp_path: Path
) -> None:
    """A game with a hint: the result line says the game's id and the command that
    reviews it; ``boardroom review`` with no id, from the same profile, reviews
    that game, marking the hinted move and counting the hints used. From another
    profile (no game of its own there) it says to give an id, and exits 1."""
    async with running_server(db_path) as server:
        # Game 1 is ann's and bob's: the id the client keeps must be its own game's.
        await play_out(server.ws_url, "tictactoe", DRAWN)
        async with client_process(
            "play", "--server", server.ws_url, "--name", "dora", config_home=tmp_path
        ) as client:
            client.send("new tictactoe ai=perfect", "hint")
            await client.expect(r"^Hint: b2 ")
            client.send(*ALL_CELLS)
            client.close_input()
            assert await client.finish() == 0
        config = {"XDG_CONFIG_HOME": str(tmp_path)}
        review = await run_boardroom("review", "--server", server.ws_url, env=config)
        other = {"XDG_CONFIG_HOME": str(tmp_path / "elsewhere")}
        nothing = await run_boardroom("review", "--server", server.ws_url, env=other)
        record = await server.get_json("/api/games/2")

    results = [line for line in client.lines if line.startswith("Result: ")]
    assert len(results) == 1, client.transcript
    assert results[0].endswith(
        f" (game #2: boardroom review 2 --server 127.0.0.1:{server.port})"
    ), results[0]
    assert record["players"][0]["name"] == "dora"
    assert review.status == 0, review
    lines = review.out.splitlines()
    assert lines[0].startswith("Tic-tac-toe #2: X dora v O AI (perfect): "), lines[0]
    # The hint said b2; the script played a1 all the same.
    assert lines[1].startswith("  1. X a1 ") and lines[1].endswith("(after a hint: b2)"), lines
    assert not any("after a hint" in line for line in lines[2:]), lines
    assert lines[-2].startswith("Accuracy: X dora "), lines
    assert lines[-1] == "Hints used: X dora 1, O AI (perfect) 0", lines
    assert (nothing.status, nothing.out) == (1, "")
    assert nothing.err == (
        f"boardroom review: no game of yours on {server.ws_url} is known here: give a game's "
        "id, as its result line says (boardroom review 12)\n"
    )


async def test_a_player_who_quits_mid_game_takes_the_seat_back_on_the_next_run(
    db_path: Path, tmp_path: Path
) -> None:
    """Quitting never resigns: the next ``boardroom play`` resumes the same game with
    the remembered token (and name) and finishes it."""
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first_run:
            # The guided new (Enter keeps a default), then the AI seated from the room.
            first_run.send(
                "new", "tictactoe", "a person", "human", "private", "", "", "ai perfect", "b2"
            )
            first_run.close_input()  # the script ends on the player's turn: it quits
            assert await first_run.finish() == 0
        prompt = f"Game: {choices_text(examples=False)} [{default_game().name}]: "
        assert f"{prompt}tictactoe" in first_run.lines
        assert (
            "'a person' is not an opponent: type human, or ai, or an AI level "
            "(random, easy, medium, hard, perfect)" in first_run.lines
        )
        assert "X> ai perfect" in first_run.lines
        assert "AI (perfect) sits down as O." in first_run.lines
        assert any("is held for a while" in line for line in first_run.lines)
        room = re.search(r"Room (\w+) is open \(Tic-tac-toe\)", first_run.transcript)
        assert room is not None

        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.send(*ALL_CELLS)
            again.close_input()
            assert await again.finish() == 0
        record = await server.get_json("/api/games/1")

    assert f"Welcome back: your game in room {room.group(1)} goes on." in again.lines
    assert "Game 1 goes on after 2 moves: X ann vs O AI (perfect). You play X and move first." in (
        again.lines
    )
    assert record["state"] == "finished"
    assert any(line.startswith("Result: ") for line in again.lines)


async def test_a_seat_left_mid_game_is_taken_back_under_another_name(
    db_path: Path, tmp_path: Path
) -> None:
    """The seat is the player's, not the name's: dora quits mid-game, and
    ``play --name dana`` from the same profile is back in her game (told it goes on
    as dora), finishes it, and nobody loses by abandonment."""
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "dora", config_home=tmp_path
        ) as first_run:
            first_run.send("new tictactoe ai=perfect", "b2")
            first_run.close_input()  # the script ends on the player's turn: it quits
            code = (await first_run.expect(r"^Tic-tac-toe, room (\w+) \|")).group(1)
            assert await first_run.finish() == 0
        assert any("is held for a while" in line for line in first_run.lines)

        async with client_process(
            "play", "--server", server.ws_url, "--name", "dana", config_home=tmp_path
        ) as again:
            again.send(*ALL_CELLS)
            again.close_input()
            assert await again.finish() == 0
        record = await server.get_json("/api/games/1")

    assert f"Welcome back: your game in room {code} goes on." in again.lines, again.transcript
    assert (
        f"You are the same player as in room {code}: your game there goes on as dora, "
        "the name it began with." in again.lines
    ), again.transcript
    assert "Game 1 goes on after 2 moves: X dora vs O AI (perfect). You play X and move first." in (
        again.lines
    )
    assert not any("lobby>" in line for line in again.lines), again.transcript
    assert record["state"] == "finished"
    assert record["termination"] != "abandonment", record
    assert len(record["moves"]) > 2, record  # dora moved again after coming back
    assert any(line.startswith("Result: ") for line in again.lines)
    assert not profile_of(tmp_path).get("resume"), profile_of(tmp_path)


async def test_the_guided_new_asks_the_level_of_the_ai(db_path: Path, tmp_path: Path) -> None:
    """Answered ``ai`` without a level, the guided ``new`` asks which (a level that
    is not one is refused and asked again), and the AI sits down at that level."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as client,
    ):
        client.send("new", "", "ai", "grandmaster", "hard", "", "", "", "4")  # Connect Four
        client.close_input()
        await client.expect(r"^AI \(hard\) sits down as O\.$")
        assert await client.finish() == 0

    prompt = "AI level: random, easy, medium, hard or perfect [medium]: "
    assert f"{prompt}grandmaster" in client.lines, client.transcript
    assert (
        "'grandmaster' is not an AI level: choose one of random, easy, medium, hard, perfect"
        in client.lines
    )
    assert f"{prompt}hard" in client.lines
    assert "Game 1 starts: X ann vs O AI (hard). You play X and move first." in client.lines
    # Enter at the game's question opened the default game; 4 was a move in it.
    assert re.search(r"Room \w+ is open \(Connect Four\)", client.transcript), client.transcript
    assert "You played 4" in client.lines, client.transcript


async def test_the_name_is_asked_once_then_remembered(db_path: Path, tmp_path: Path) -> None:
    """Without --name and nothing remembered the client asks; a bad name is refused
    in words and asked again; the next run knows the name."""
    async with running_server(db_path) as server:
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as first:
            first.send("", "dora", "quit")
            first.close_input()
            assert await first.finish() == 0
        async with client_process(
            "play", "--server", server.ws_url, config_home=tmp_path
        ) as second:
            second.close_input()
            assert await second.finish() == 0

    assert "Name is empty: choose 1 to 32 characters." in first.lines
    assert "Your name: dora" in first.lines
    assert "Welcome, dora! Connected to " + server.ws_url + "." in first.lines
    assert "Your name: " not in second.transcript
    assert "Welcome, dora! Connected to " + server.ws_url + "." in second.lines


async def test_watching_a_code_that_opens_nothing_says_so_and_fails(
    db_path: Path, tmp_path: Path
) -> None:
    """``boardroom watch`` with a bad code prints the server's refusal and exits 1."""
    async with (
        running_server(db_path) as server,
        client_process(
            "watch", "NOSUCH", "--server", server.ws_url, config_home=tmp_path
        ) as watcher,
    ):
        watcher.close_input()
        assert await watcher.finish() == 1
    assert any("NOSUCH" in line for line in watcher.lines), watcher.transcript


async def test_no_server_at_the_address_is_a_clear_error(tmp_path: Path) -> None:
    """Nothing listening: the client says where it looked and how to start a server."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free_port = probe.getsockname()[1]
    url = f"ws://127.0.0.1:{free_port}/ws"
    async with client_process("play", "--server", url, "--name", "ann", config_home=tmp_path) as c:
        c.close_input()
        assert await c.finish() == 1
    assert f"cannot reach a Boardroom server at {url}" in c.transcript
    assert "boardroom serve" in c.transcript


async def test_play_local_plays_the_ai_with_no_server_running(tmp_path: Path) -> None:
    """``--local`` starts its own server, opens a room against the AI at once, plays
    a game and a rematch, and stops the server when the client exits."""
    async with client_process(
        "play",
        "--local",
        "--game",
        "tictactoe",
        "--level",
        "perfect",
        "--name",
        "ann",
        config_home=tmp_path,
        **PURE_PYTHON_ENGINE,
    ) as client:
        client.send(*ALL_CELLS, "rematch", *ALL_CELLS)
        client.close_input()
        connected = await client.expect(r"Connected to ws://127\.0\.0\.1:(\d+)/ws\.")
        assert await client.finish() == 0

    assert client.lines[0] == "Starting a local server (it stops when you quit)..."
    assert "Others can join" not in client.transcript  # nobody else reaches a local server
    results = [line for line in client.lines if line.startswith("Result: ")]
    assert not any("boardroom review" in line for line in results), results  # it is gone
    assert "Game 1 starts: X ann vs O AI (perfect). You play X and move first." in client.lines
    # The AI agrees to a rematch at once; sides swap and the AI, now X, moves first.
    assert "Game 2 starts: X AI (perfect) vs O ann. You play O." in client.lines
    assert len([line for line in client.lines if line.startswith("Result: ")]) == 2
    with pytest.raises(OSError):
        _, writer = await asyncio.open_connection("127.0.0.1", int(connected.group(1)))
        writer.close()


async def test_a_spectator_sees_moves_made_by_protocol_clients(
    db_path: Path, tmp_path: Path
) -> None:
    """Watching a room played by two bare protocol clients: every move is announced
    and drawn, and the spectator's chat reaches the players."""
    async with running_server(db_path) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        bob = await Player.join_server(server.ws_url, "bob")
        created = await ann.request({"type": "create_room", "game": "connect4"})
        code = created["room"]["code"]
        await bob.request({"type": "join", "code": code})
        async with client_process(
            "watch", code, "--server", server.ws_url, "--name", "cat", config_home=tmp_path
        ) as cat:
            await cat.expect(r"You are watching room")
            cat.send("help", "resign", "chat hello players")
            chat = await ann.expect("chat")
            for ply, (player, column) in enumerate(
                [(ann, "4"), (bob, "3"), (ann, "4"), (bob, "3"), (ann, "4"), (bob, "3"), (ann, "4")]
            ):
                await player.request({"type": "move", "room": code, "move": column, "ply": ply})
            cat.close_input()
            assert await cat.finish() == 0
        await ann.close()
        await bob.close()

    assert chat["name"] == "cat" and chat["text"] == "hello players"
    # A spectator's own help, without the players' commands; those are refused in words.
    help_at = cat.lines.index("watching> help")
    assert cat.lines[help_at + 1] == (
        "You are watching: the players' moves show as they are made. Commands:"
    )
    shown = cat.lines[help_at + 1 : cat.lines.index("watching> resign")]
    assert any(line.startswith("  chat TEXT ") for line in shown), shown
    assert not any(re.match(r"  (resign|rematch|hint|draw|ai)\b", line) for line in shown)
    assert (
        "Resign is for the players: you are watching (help lists what you can do)." in cat.lines
    ), cat.transcript
    assert "X ann played 4" in cat.lines
    result = (
        "Result: X ann wins: four in a row up column 4"
        f" (game #1: boardroom review 1 --server 127.0.0.1:{server.port})"
    )
    assert result in cat.lines, cat.transcript
    # Connect Four: columns labelled 1 to 7, the winning line in brackets without colour.
    assert " 1  2  3  4  5  6  7" in cat.lines
    assert " .  .  . [X] .  .  ." in cat.lines


async def test_a_terminated_local_client_stops_its_server(tmp_path: Path) -> None:
    """SIGTERM to the client (mid-game, input still open) ends it cleanly: the
    embedded server is stopped too, not left behind."""
    async with client_process(
        "play", "--local", "--name", "ann", config_home=tmp_path, **PURE_PYTHON_ENGINE
    ) as client:
        connected = await client.expect(r"Connected to ws://127\.0\.0\.1:(\d+)/ws\.")
        await client.expect(r"your move")
        client.process.terminate()
        assert await client.finish() == 1
    assert "Stopped." in client.lines
    with pytest.raises(OSError):
        _, writer = await asyncio.open_connection("127.0.0.1", int(connected.group(1)))
        writer.close()


@pytest.mark.parametrize(
    "signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=["SIGKILL", "SIGTERM", "SIGHUP"]
)
async def test_a_client_killed_mid_game_takes_its_seat_back_on_the_next_run(
    db_path: Path, tmp_path: Path, signum: int
) -> None:
    """The seat is remembered as soon as it is taken: a client killed in a game
    (SIGKILL, or SIGTERM and SIGHUP as a closed terminal sends) gets back into the
    same room and seat on the next ``boardroom play``, and plays on."""
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first_run:
            first_run.send("new tictactoe ai=perfect", "b2")  # the input stays open
            code = (await first_run.expect(r"^Tic-tac-toe, room (\w+) \|")).group(1)
            await first_run.expect(r"^O AI \(perfect\) played \w\d$")
            first_run.process.send_signal(signum)
            status = await first_run.finish()
        if signum != signal.SIGKILL:  # a clean exit that says the seat is kept
            assert status == 1, first_run.transcript
            assert first_run.lines[-2:] == [
                f"Your seat in room {code} is held for a while: run boardroom play again "
                "to carry on.",
                "Stopped.",
            ], first_run.transcript
        else:
            assert status == -signal.SIGKILL

        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.send(*ALL_CELLS)
            again.close_input()
            assert await again.finish() == 0
        record = await server.get_json("/api/games/1")

    assert f"Welcome back: your game in room {code} goes on." in again.lines, again.transcript
    assert "Game 1 goes on after 2 moves: X ann vs O AI (perfect). You play X and move first." in (
        again.lines
    )
    assert record["state"] == "finished"
    moves = [(move["side"], move["move"]) for move in record["moves"]]
    assert moves[0] == ("first", "b2") and ("first", "b2") not in moves[1:], moves
    assert len(moves) >= 5, moves  # ann moved again after coming back
    assert any(line.startswith("Result: ") for line in again.lines)


async def test_a_second_client_with_the_same_name_does_not_take_the_first_ones_seat(
    db_path: Path, tmp_path: Path
) -> None:
    """A seat is remembered for the client that holds it: another ``boardroom play``
    with the same name and profile started meanwhile begins a session of its own,
    and the first plays its game to the end undisturbed."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first,
    ):
        first.send("new tictactoe ai=perfect", "b2")
        await first.expect(r"^O AI \(perfect\) played \w\d$")
        url = server.ws_url
        async with client_process("play", "--server", url, config_home=tmp_path) as second:
            second.close_input()
            assert await second.finish() == 0
        first.send(*ALL_CELLS)
        first.close_input()
        assert await first.finish() == 0

    assert "Welcome, ann! Connected to " + server.ws_url + "." in second.lines
    assert (
        "Another boardroom play from this profile is running on this server: this one has "
        "a session of its own." in second.lines
    )
    assert not any("Welcome back" in line for line in second.lines), second.transcript
    assert not any(line.startswith("Disconnected") for line in first.lines), first.transcript
    assert any(line.startswith("Result: ") for line in first.lines)


async def test_a_seat_left_after_the_game_is_not_remembered(db_path: Path, tmp_path: Path) -> None:
    """Once the game is over and the player has left the room, nothing is kept: a
    client killed in the lobby starts afresh next time."""
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first:
            first.send("new tictactoe ai=perfect", *ALL_CELLS)
            await first.expect(r"^Result: ")
            first.send("leave")
            await first.expect(r"^Back in the lobby")
            await first.kill()
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.close_input()
            assert await again.finish() == 0

    assert not any("Welcome back" in line for line in again.lines), again.transcript
    profile = json.loads((tmp_path / "boardroom" / "client.json").read_text())
    assert not profile.get("resume"), profile


async def test_a_seat_whose_grace_window_ran_out_is_said_lost_on_the_next_run(
    db_path: Path, tmp_path: Path
) -> None:
    """Killed in a game and back too late: the client names the room whose seat was
    not kept, starts afresh, and has forgotten the seat."""
    async with running_server(db_path, grace_seconds=0.5) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first:
            first.send("new tictactoe ai=perfect", "b2")
            code = (await first.expect(r"^Tic-tac-toe, room (\w+) \|")).group(1)
            await first.expect(r"^O AI \(perfect\) played \w\d$")
            watcher = await Player.join_server(server.ws_url, "cat")
            await watcher.request({"type": "watch", "code": code})
            await first.kill()
            over = await watcher.expect("game_over")
            await watcher.close()
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.close_input()
            assert await again.finish() == 0

    assert over["result"]["reason"] == "abandonment", over
    assert (
        f"Your seat in room {code} was not kept (the server's grace window ran out)." in again.lines
    ), again.transcript
    assert not any("Welcome back" in line for line in again.lines)
    profile = json.loads((tmp_path / "boardroom" / "client.json").read_text())
    assert not profile.get("resume"), profile


async def test_a_move_typed_during_the_teachers_pause_is_held_and_sent_at_the_resume(
    tmp_path: Path,
) -> None:
    """Class mode: the pause and the resume are said, the status line says the game
    is paused by the teacher, and a move typed in the pause is held (said so) and
    played by itself at the resume."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path / "ann"
        ) as ann:
            ann.send("new tictactoe")
            code = (await ann.expect(r"^Others can join it with: join (\w+)$")).group(1)
            bob = await Player.join_server(server.ws_url, "bob")
            await bob.request({"type": "join", "code": code})
            await ann.expect(r"^Game 1 starts: X ann vs O bob")
            await teacher.post("/api/admin/pause")
            await ann.expect(r"^The teacher paused the games: moves wait until they resume\.$")
            paused = await ann.expect(r"^Tic-tac-toe, room \w+ \| .* \| (paused by the teacher.*)$")
            ann.send("b2")
            await ann.expect(r"^Your move b2 is held: sent when the teacher resumes\.$")
            held = await ann.expect(r"^Tic-tac-toe, room \w+ \| .* \| (paused by the teacher.*)$")
            state = await bob.request({"type": "get_state", "room": code})
            await teacher.post("/api/admin/resume")
            await ann.expect(r"^The teacher resumed the games\.$")
            moved = await bob.expect("moved", ply=0)
            await ann.expect(r"^You played b2$")
            await bob.request({"type": "resign", "room": code})
            ann.close_input()
            assert await ann.finish() == 0
            await bob.close()

    assert paused.group(1) == "paused by the teacher (your move when the games resume)"
    assert held.group(1) == "paused by the teacher: your move b2 is held"
    assert (state["room"]["paused"], state["room"]["ply"]) == (True, 0), state
    assert (moved["move"], moved["side"]) == ("b2", "first")
    # Held by the client, not sent and refused by the server:
    assert not any("you can move once they resume" in line.lower() for line in ann.lines)


async def test_a_move_the_pause_overtook_is_held_and_sent_at_the_resume(tmp_path: Path) -> None:
    """The pause reaches the server before a move sent at the same moment: the
    server refuses it as ``paused``, and the room screen holds it (said so) and
    sends it at the resume, as if it had been typed during the pause."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        session = Session(server.ws_url, "ann", pace=None)
        events = session.subscribe()
        await session.start()
        bob = await Player.join_server(server.ws_url, "bob")
        read_end, write_end = os.pipe()
        output = io.StringIO()
        terminal = Terminal(LineConsole(output, read_end, palette=PLAIN, echo=True), session)
        try:
            created = await session.request(CreateRoom(game="tictactoe"))
            assert isinstance(created, State)
            code = created.room.code
            await bob.request({"type": "join", "code": code})
            await teacher.post("/api/admin/pause")
            while not (isinstance(event := await events.get(), State) and event.room.paused):
                pass
            # As the client saw the room a moment before the pause reached it:
            room = session.rooms[code]
            room.state = msgspec.structs.replace(room.state, paused=False)
            screen = asyncio.create_task(RoomScreen(terminal, code).run())
            os.write(write_end, b"b2\n")
            await wait_until(
                output.getvalue,
                lambda text: "Your move b2 is held: sent when the teacher resumes." in text,
            )
            await teacher.post("/api/admin/resume")
            moved = await bob.expect("moved", ply=0)
            await bob.request({"type": "resign", "room": code})
            os.close(write_end)
            assert await asyncio.wait_for(screen, 10) == "quit"
        finally:
            await terminal.close()
            await session.close()
            await bob.close()
            os.close(read_end)

    assert (moved["move"], moved["side"]) == ("b2", "first")
    assert "you can move once they resume" not in output.getvalue()


HOSTILE_TITLE = "Tic-tac-toe\x1b]0;pwned\x07"
"""A window title change (OSC 0) hidden in a room title."""
CLIPBOARD_WRITE = "\x1b]52;c;cm0gLXJmIH4=\x07"
"""OSC 52: writes "rm -rf ~" to the clipboard of the terminal that prints it."""


@contextlib.asynccontextmanager
async def hostile_server() -> AsyncIterator[str]:
    """A WebSocket server that speaks the protocol with control characters in
    every text a client may print (what the real server refuses to relay, so it
    is played here): the name in ``welcome``, a watched room's title and seats,
    chat, an announcement, an error message and a closing reason. Yields its URL."""

    async def serve(connection: ServerConnection) -> None:
        async def send(message: dict[str, object]) -> None:
            await connection.send(json.dumps(message))

        async for frame in connection:
            message = json.loads(frame)
            kind, request_id = message["type"], message.get("id")
            if kind == "hello":
                welcome = {"name": "cat\x1b[2J", "version": 1, "resume_token": "t" * 22}
                await send({"type": "welcome", **welcome, "id": request_id})
            elif kind == "watch":
                seats = [
                    {"side": "first", "name": "ann\x1b[2J\x1b[H", "connected": True},
                    {"side": "second", "name": "bob\u202e\x9b31m", "connected": True},
                ]
                room = {
                    "code": "ROOM01", "game": "tictactoe", "title": HOSTILE_TITLE,
                    "status": "playing", "public": True, "clock": {}, "seats": seats,
                    "moves": "b2", "ply": 1, "to_move": "second",
                }  # fmt: skip
                await send({"type": "state", "room": room, "id": request_id})
                text = f"{CLIPBOARD_WRITE}gg\rwell played\x08\x08"
                await send({"type": "chat", "room": "ROOM01", "name": "eve\x1b[8m", "text": text})
                await send({"type": "announcement", "text": "Lesson over\u2028Result: You win"})
            elif kind == "chat":
                refusal = {"code": "bad_text", "message": "no\x1b[31m red\x1b[0m for you"}
                await send({"type": "error", **refusal, "id": request_id})
                reason = "closed by the teacher\x1b]0;bye\x07"
                await send({"type": "room_closed", "room": "ROOM01", "reason": reason})

    async with websockets_serve(serve, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws"


async def test_control_characters_in_server_text_are_printed_as_escapes(tmp_path: Path) -> None:
    """Whatever text a server sends (names, a room title, chat, an announcement, an
    error message, a reason), the terminal client prints no control character of
    it: each shows as an escape, and the terminal obeys none."""
    async with (
        hostile_server() as url,
        client_process("watch", "ROOM01", "--server", url, config_home=tmp_path) as cat,
    ):
        await cat.expect(r"^Announcement: ")
        cat.send("chat hello")
        cat.close_input()
        assert await cat.finish() == 0

    printed = "\n".join(cat.lines)
    unsafe = sorted({f"U+{ord(c):04X}" for c in printed if not (c.isprintable() or c == "\n")})
    assert unsafe == [], f"{unsafe} printed:\n{printed}"
    assert "Welcome, cat\\x1b[2J! Connected to " in printed
    assert "You are watching room ROOM01 (Tic-tac-toe\\x1b]0;pwned\\x07)." in cat.lines
    assert "X ann\\x1b[2J\\x1b[H | O bob\\u202e\\x9b31m | O to move" in printed
    assert (
        "[chat] eve\\x1b[8m: \\x1b]52;c;cm0gLXJmIH4=\\x07gg\\x0dwell played\\x08\\x08" in cat.lines
    )
    assert "Announcement: Lesson over\\u2028Result: You win" in cat.lines
    assert "No\\x1b[31m red\\x1b[0m for you" in cat.lines
    assert "Room ROOM01 was closed: closed by the teacher\\x1b]0;bye\\x07." in cat.lines


async def test_a_session_hands_out_server_text_only_in_printable_form(tmp_path: Path) -> None:
    """The session layer, for every client (bots print names and reasons too):
    the rooms it tracks, the events it hands out and the errors it raises hold
    escapes where the server sent control characters."""
    async with hostile_server() as url:
        session = Session(url, "cat", client_kind="spectator", pace=None)
        events = session.subscribe()
        welcome = await session.start()
        try:
            await session.request(Watch(code="ROOM01"))
            chat = await anext(e async for e in queue_items(events) if isinstance(e, ChatLine))
            room = session.rooms["ROOM01"].state
            with pytest.raises(RequestRefusedError) as refused:
                await session.request(SendChat(room="ROOM01", text="hello"))
        finally:
            await session.close()

    assert (welcome.name, session.name) == ("cat\\x1b[2J", "cat\\x1b[2J")
    assert room.title == "Tic-tac-toe\\x1b]0;pwned\\x07"
    assert [seat.name for seat in room.seats] == ["ann\\x1b[2J\\x1b[H", "bob\\u202e\\x9b31m"]
    assert chat.text == "\\x1b]52;c;cm0gLXJmIH4=\\x07gg\\x0dwell played\\x08\\x08"
    assert refused.value.message == "no\\x1b[31m red\\x1b[0m for you"


async def queue_items(queue: asyncio.Queue[SessionEvent]) -> AsyncIterator[SessionEvent]:
    """The items of ``queue`` as they come (each within the harness timeout)."""
    while True:
        yield await asyncio.wait_for(queue.get(), TIMEOUT)


async def test_a_rematch_request_is_shown_to_the_opponent_who_accepts_with_one_letter(
    db_path: Path, tmp_path: Path
) -> None:
    """After a game, ann asks for a rematch: bob is told who asked and what to type,
    ann that she waits for bob, the spectator who asked; bob's ``r`` starts game 2
    with the sides swapped."""
    async with running_server(db_path) as server:
        url, bob_home = server.ws_url, tmp_path / "bob"
        async with (
            client_process("play", "--server", url, "--name", "ann", config_home=tmp_path) as ann,
            client_process("play", "--server", url, "--name", "bob", config_home=bob_home) as bob,
        ):
            ann.send("new tictactoe private", "a1", "a2", "a3")
            codes = await ann.expect(r"join code (\w+) \(spectators: watch code (\w+)\)")
            join_code, watch_code = codes.groups()
            async with client_process(
                "watch", watch_code, "--server", url, "--name", "cat", config_home=tmp_path / "c"
            ) as cat:
                await cat.expect(r"^You are watching room")
                bob.send(f"join {join_code}", "b1", "b2")
                for player in (ann, bob, cat):
                    await player.expect(r"^Result: ")
                ann.send("rematch")
                await ann.expect(r"^You asked for a rematch; waiting for bob\.$")
                await bob.expect(
                    r"^ann asks for a rematch: type rematch \(or r\) to play again, "
                    r"sides swapped\.$"
                )
                await cat.expect(r"^ann asks for a rematch\.$")
                bob.send("r")
                await bob.expect(r"^Game 2 starts: X bob vs O ann\. You play X and move first\.$")
                await ann.expect(r"^Game 2 starts: X bob vs O ann\. You play O\.$")
                await cat.expect(r"^Game 2 starts: X bob vs O ann\.$")
                bob.send("resign")
                for player in (ann, bob, cat):
                    player.close_input()
                    assert await player.finish() == 0

    assert "Rematch asked: waiting for your opponent to agree." not in ann.lines
    assert not any("asks for a rematch" in line for line in ann.lines)


async def test_a_rematch_request_made_while_the_opponent_was_away_is_shown_on_return(
    db_path: Path, tmp_path: Path
) -> None:
    """bob's client is killed after the game; ann asks for a rematch meanwhile. Back
    with ``boardroom play``, bob is told who asked (from the room's state) and
    accepts with ``r``."""
    async with running_server(db_path) as server:
        ann = await Player.join_server(server.ws_url, "ann")
        created = await ann.request({"type": "create_room", "game": "tictactoe"})
        code = created["room"]["code"]
        async with client_process(
            "play", "--server", server.ws_url, "--name", "bob", config_home=tmp_path
        ) as first_run:
            first_run.send(f"join {code}", "b1", "b2")
            await ann.expect("state")  # bob sits down: the game starts
            for ply, move in ((0, "a1"), (2, "a2"), (4, "a3")):
                if ply:
                    await ann.expect("moved", ply=ply - 1)
                await ann.request({"type": "move", "room": code, "move": move, "ply": ply})
            await first_run.expect(r"^Result: ")
            await first_run.kill()
        await ann.expect("player_status", connected=False)
        asked = await ann.request({"type": "rematch", "room": code})
        assert asked["type"] == "rematch_offered", asked
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            await again.expect(
                r"^ann asks for a rematch: type rematch \(or r\) to play again, sides swapped\.$"
            )
            again.send("r")
            await again.expect(r"^Game 2 starts: X bob vs O ann\. You play X and move first\.$")
            again.send("resign")
            again.close_input()
            assert await again.finish() == 0
        await ann.close()

    assert f"Welcome back: your game in room {code} goes on." in again.lines


# -- the player: one identity across runs ---------------------------------------------


def seat_of(record: dict[str, Any], name: str) -> dict[str, Any]:
    """The ``players`` entry of ``name`` in a game record."""
    return next(player for player in record["players"] if player["name"] == name)


def profile_of(config_home: Path) -> dict[str, Any]:
    data = json.loads((config_home / "boardroom" / "client.json").read_text())
    assert isinstance(data, dict)
    return data


async def test_a_client_killed_and_started_again_is_the_same_player(
    db_path: Path, tmp_path: Path
) -> None:
    """The first run is made a player and keeps its token in the profile (owner
    only, never printed); killed (SIGKILL) and run again, even under another name,
    the client is the same player, as the game records say; another profile is
    another player."""
    ann_home, bob_home = tmp_path / "ann", tmp_path / "bob"
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=ann_home
        ) as first:
            first.send("new tictactoe ai=perfect", *ALL_CELLS)  # the input stays open
            await first.expect(r"^Result: ")
            first.send("leave")
            await first.expect(r"^Back in the lobby")
            await first.kill()
        async with client_process(
            "play", "--server", server.ws_url, "--name", "anna", config_home=ann_home
        ) as again:
            again.send("new tictactoe ai=perfect", *ALL_CELLS)
            again.close_input()
            assert await again.finish() == 0
        async with client_process(
            "play", "--server", server.ws_url, "--name", "bob", config_home=bob_home
        ) as other:
            other.send("new tictactoe ai=perfect", *ALL_CELLS)
            other.close_input()
            assert await other.finish() == 0
        records = [await server.get_json(f"/api/games/{number}") for number in (1, 2, 3)]

    first_id = seat_of(records[0], "ann")["player_id"]
    assert isinstance(first_id, str) and first_id.startswith("p"), records[0]
    assert seat_of(records[1], "anna")["player_id"] == first_id, records[1]
    assert seat_of(records[2], "bob")["player_id"] not in (None, first_id), records[2]
    token = profile_of(ann_home)["players"][server.ws_url]
    assert token.startswith("bp_") and token != profile_of(bob_home)["players"][server.ws_url]
    assert stat.S_IMODE((ann_home / "boardroom" / "client.json").stat().st_mode) == 0o600
    for run in (first, again, other):
        assert "bp_" not in run.transcript, run.transcript


async def test_a_player_token_the_server_does_not_know_is_replaced_by_a_new_player(
    db_path: Path, tmp_path: Path
) -> None:
    """A profile whose token this server does not know (another database): one
    notice, the run goes on as a new player, and the new token replaces the old,
    so the next run is that player without a word."""
    unknown = "bp_" + "A" * 43
    async with running_server(db_path) as server:
        profile_path = tmp_path / "boardroom" / "client.json"
        profile_path.parent.mkdir(parents=True)
        profile_path.write_text(
            json.dumps({"name": "ann", "players": {server.ws_url: unknown}}), encoding="utf-8"
        )
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as first:
            first.close_input()
            assert await first.finish() == 0
        kept = profile_of(tmp_path)["players"][server.ws_url]
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.close_input()
            assert await again.finish() == 0

    notice = (
        "The server does not know the player this client kept for it (its database is new, "
        "or another server answers at this address): you play as a new player."
    )
    assert notice in first.lines, first.transcript
    assert kept.startswith("bp_") and kept != unknown
    assert notice not in again.lines, again.transcript
    assert profile_of(tmp_path)["players"][server.ws_url] == kept


async def test_a_second_person_online_under_a_name_is_told_the_name_shown(
    db_path: Path, tmp_path: Path
) -> None:
    """Two people may not be online under one name: the second is welcomed as
    ``ann 2``, and the client says so."""
    async with running_server(db_path) as server, Session(server.ws_url, "ann") as online:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as second:
            second.close_input()
            assert await second.finish() == 0
        assert online.name == "ann"

    assert (
        "Another player is online here as ann: the server shows you as ann 2 (names are told "
        "apart while both are connected)." in second.lines
    ), second.transcript
    assert "Welcome, ann 2! Connected to " + server.ws_url + "." in second.lines


async def test_a_revoked_player_token_stops_the_client_and_the_next_run_is_a_new_player(
    db_path: Path, tmp_path: Path
) -> None:
    """Once the server's admin revoked the player's token, the client says so and
    exits 1, having forgotten the token; the next run is a new player."""
    async with running_server(db_path) as server:
        async with client_process(
            "play", "--server", server.ws_url, "--name", "ann", config_home=tmp_path
        ) as first:
            first.close_input()
            assert await first.finish() == 0
        token = profile_of(tmp_path)["players"][server.ws_url]
        async with GameStore(db_path) as store:
            await store.revoke_player(player_id_for(token), at=1_800_000_000.0)
        url = server.ws_url
        async with client_process("play", "--server", url, config_home=tmp_path) as refused:
            refused.close_input()
            assert await refused.finish() == 1
        forgotten = profile_of(tmp_path).get("players")
        async with client_process("play", "--server", server.ws_url, config_home=tmp_path) as again:
            again.close_input()
            assert await again.finish() == 0

    assert any(
        line.startswith("The server refused this player: ")
        and line.endswith(
            ". The token is forgotten: boardroom play run again starts as a new player."
        )
        for line in refused.lines
    ), refused.transcript
    assert "bp_" not in refused.transcript
    assert forgotten == {}
    assert profile_of(tmp_path)["players"][server.ws_url] not in (None, token)
    assert "Welcome, ann! Connected to " + server.ws_url + "." in again.lines, again.transcript
