"""Gomocup brains: the Piskvork translator (pure), and the process adapter
driving the test brain (``tests/bots/pbrain_test.py``, a real process)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT
from room_states import room_in_play

from boardroom.client.bots.errors import (
    BotFailedError,
    BotLoadError,
    FailureKind,
    ProtocolMismatchError,
)
from boardroom.client.bots.gomocup_bot import GomocupBrains
from boardroom.client.bots.gomocup_protocol import (
    Ask,
    BoardShape,
    LineKind,
    board_shape,
    cell_text,
    info_lines,
    line_kind,
    move_request,
    parse_about,
    protocol_cell,
    refusal_of,
    start_line,
    time_left_line,
)
from boardroom.client.bots.pipe_bot import StderrLog
from boardroom.client.bots.state import GameState, game_state
from boardroom.shared.games import GridGame, Player, get_game
from boardroom.shared.protocol.messages import Clock

BRAIN = f"{sys.executable} {REPO_ROOT / 'tests' / 'bots' / 'pbrain_test.py'}"


def grid(name: str) -> GridGame:
    rules = get_game(name)
    assert isinstance(rules, GridGame)
    return rules


# -- the translator ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "shape", "line"),
    [
        ("gomoku", BoardShape(15, 15), "START 15"),
        ("mnk-19-19-5", BoardShape(19, 19), "START 19"),
        ("mnk-9-7-5", BoardShape(9, 7), "RECTSTART 9,7"),
        ("mnk-5-12-5", BoardShape(5, 12), "RECTSTART 5,12"),
    ],
)
def test_five_in_a_row_boards_start_square_or_oblong(
    game: str, shape: BoardShape, line: str
) -> None:
    assert board_shape(get_game(game)) == shape
    assert start_line(shape) == line


@pytest.mark.parametrize(
    ("game", "words"),
    [
        ("tictactoe", "tictactoe is 3 in a row"),
        ("mnk-15-15-6", "mnk-15-15-6 is 6 in a row"),
        ("connect4", "on a board without gravity (gomoku, or mnk-M-N-5), not connect4"),
        ("othello", "not othello"),
    ],
)
def test_games_other_than_five_in_a_row_are_refused_in_words(game: str, words: str) -> None:
    with pytest.raises(ProtocolMismatchError, match=re.escape(words)):
        board_shape(get_game(game))


def test_every_cell_goes_to_the_protocol_and_back() -> None:
    """x from the left, y from the top, both from 0; a1 is the bottom-left corner."""
    rules = grid("mnk-9-7-5")
    start = rules.new()
    seen = set()
    for move in rules.legal_moves(start):
        coordinates = protocol_cell(rules, move)
        seen.add(coordinates)
        assert cell_text(rules, coordinates) == rules.format_move(move)
    assert len(seen) == 63
    assert protocol_cell(rules, rules.parse_move(start, "a1")) == "0,6"
    assert protocol_cell(rules, rules.parse_move(start, "i7")) == "8,0"


@pytest.mark.parametrize(
    ("answer", "move"),
    [("4,3", "e4"), (" 4 , 3 ", "e4"), ("9,0", "9,0"), ("-1,2", "-1,2"), ("hello", None)],
)
def test_answers_off_the_board_stay_in_the_brains_words(answer: str, move: str | None) -> None:
    assert cell_text(grid("mnk-9-7-5"), answer) == move


def test_a_brain_is_asked_by_begin_turn_or_board() -> None:
    """BEGIN on an empty board, TURN for the one new move, BOARD when what it
    knows is not the game less one move (1: its stones, 2: the opponent's)."""
    rules = grid("gomoku")
    after = rules.from_moves("h8 h9 i9")
    first, second, third = after.moves
    assert move_request(rules, rules.new(), Player.FIRST, []) == (Ask.BEGIN, ["BEGIN"])
    assert move_request(rules, after, Player.SECOND, [first, second]) == (Ask.TURN, ["TURN 8,6"])
    board = ["BOARD", "7,7,2", "7,6,1", "8,6,2", "DONE"]
    assert move_request(rules, after, Player.SECOND, None) == (Ask.BOARD, board)
    assert move_request(rules, after, Player.SECOND, []) == (Ask.BOARD, board)
    assert move_request(rules, after, Player.SECOND, [third]) == (Ask.BOARD, board)


@pytest.mark.parametrize(
    ("clock", "opponent", "turn", "match", "game_type"),
    [
        (Clock(), "ai", 1500, 0, 1),
        (Clock(kind="per_move", per_move=10), "bot", 10000, 0, 1),
        (Clock(kind="increment", initial=120, increment=2), "human", 120000, 120000, 0),
    ],
)
def test_the_rooms_time_and_opponent_become_info_lines(
    clock: Clock, opponent: str, turn: int, match: int, game_type: int
) -> None:
    assert info_lines(clock, move_timeout=1.5, opponent_kind=opponent) == [
        f"INFO timeout_turn {turn}",
        f"INFO timeout_match {match}",
        "INFO max_memory 0",
        f"INFO game_type {game_type}",
        "INFO rule 0",
    ]


def test_time_left_is_told_only_with_a_clock_for_the_game() -> None:
    assert time_left_line(Clock(kind="increment", initial=60), 41234) == "INFO time_left 41234"
    assert time_left_line(Clock(kind="per_move", per_move=5), 4000) is None
    assert time_left_line(Clock(), 30000) is None


def test_the_brains_lines_are_answers_or_chatter() -> None:
    assert [line_kind(line) for line in ("", "  ", "OK", "ok")] == [
        LineKind.EMPTY,
        LineKind.EMPTY,
        LineKind.OK,
        LineKind.OK,
    ]
    for chatter in ("MESSAGE hi", "DEBUG x", "ERROR size", "UNKNOWN", "suggest 1,1"):
        assert line_kind(chatter) is LineKind.CHATTER
    assert line_kind("7,7") is LineKind.ANSWER
    assert refusal_of("ERROR unsupported size") == "unsupported size"
    assert refusal_of("UNKNOWN") == "UNKNOWN"
    assert refusal_of("MESSAGE hi") is None
    assert parse_about('name="x", version="1", author="a b"') == {
        "name": "x",
        "version": "1",
        "author": "a b",
    }
    assert parse_about("7,7") == {}


# -- the process adapter -----------------------------------------------------------------------


def state_of(game: str, moves: str = "", side: Player = Player.FIRST) -> GameState:
    return game_state(room_in_play(game, moves, you=side))


def brains(tmp_path: Path, command: str = BRAIN) -> GomocupBrains:
    return GomocupBrains(command, StderrLog(tmp_path / "brain.log"), move_timeout=5)


def log_of(tmp_path: Path) -> str:
    return (tmp_path / "brain.log").read_text()


async def test_a_brain_plays_moves_and_is_kept_for_the_next_game(tmp_path: Path) -> None:
    """START, INFO, BEGIN; the game over, RESTART gives the same process the next one."""
    source = brains(tmp_path)
    try:
        brain = source.new_brain("ABCDEF game 1")
        start = state_of("gomoku")
        await brain.start(start)
        assert brain.process is not None
        pid = brain.process.program.process.pid
        assert await brain.choose(start, timeout=5, time_ms=5000) == "h8"
        after = state_of("gomoku", "h8 a1")
        move = await brain.choose(after, timeout=5, time_ms=5000)
        assert move in after.legal_moves
        await brain.close()
        again = source.new_brain("ABCDEF game 2")
        second = state_of("gomoku", "h8", side=Player.SECOND)
        await again.start(second)
        assert again.process is not None
        assert again.process.program.process.pid == pid
        assert await again.choose(second, timeout=5, time_ms=5000) in second.legal_moves
        await again.close()
    finally:
        await source.close()
    log = log_of(tmp_path)
    assert "[ABCDEF game 1] DEBUG info timeout_turn=5000" in log
    assert "[ABCDEF game 1] DEBUG asked by BEGIN" in log
    assert "[ABCDEF game 1] DEBUG asked by TURN" in log
    assert f"[ABCDEF game 2] DEBUG pid {pid} game 2" in log


async def test_a_brain_without_restart_is_ended_and_a_new_one_started(tmp_path: Path) -> None:
    source = brains(tmp_path, BRAIN + " --no-restart")
    try:
        first = source.new_brain("game 1")
        await first.start(state_of("gomoku"))
        assert first.process is not None
        old = first.process.program.process
        await first.close()
        second = source.new_brain("game 2")
        await second.start(state_of("gomoku"))
        assert second.process is not None
        assert second.process.program.process.pid != old.pid
        assert old.returncode == 0  # it was sent END and exited by itself
        await second.close()
    finally:
        await source.close()
    assert "[game 2] UNKNOWN RESTART is not supported" in log_of(tmp_path)


async def test_after_a_reconnection_the_brain_gets_restart_and_the_board(tmp_path: Path) -> None:
    source = brains(tmp_path)
    try:
        brain = source.new_brain("game 1")
        await brain.start(state_of("gomoku"))
        await brain.choose(state_of("gomoku"), timeout=5, time_ms=5000)
        brain.reconnected()
        later = state_of("gomoku", "h8 a1 h9 a2")
        assert await brain.choose(later, timeout=5, time_ms=5000) in later.legal_moves
        await brain.close()
    finally:
        await source.close()
    assert "DEBUG asked by BOARD with 4 stones" in log_of(tmp_path)


async def test_a_brain_cut_off_while_thinking_is_killed_not_kept(tmp_path: Path) -> None:
    source = brains(tmp_path, BRAIN + " --hang-at 1")
    try:
        brain = source.new_brain("game 1")
        await brain.start(state_of("gomoku"))
        assert brain.process is not None
        process = brain.process.program.process
        with pytest.raises(BotFailedError) as failed:
            await brain.choose(state_of("gomoku"), timeout=0.3, time_ms=300)
        assert failed.value.kind is FailureKind.HUNG
        await brain.close()
        assert process.returncode is not None
        assert source._idle == []
    finally:
        await source.close()


async def test_a_brain_that_refuses_the_board_size_fails_the_game(tmp_path: Path) -> None:
    refuser = tmp_path / "pbrain-small"
    refuser.write_text(
        "#!/usr/bin/env bash\nwhile read -r line; do echo 'ERROR only 20x20, sorry'; done\n"
    )
    refuser.chmod(0o755)
    source = brains(tmp_path, str(refuser))
    try:
        brain = source.new_brain("game 1")
        with pytest.raises(BotFailedError, match=r"the brain refused START 15: only 20x20, sorry"):
            await brain.start(state_of("gomoku"))
        await brain.close()
    finally:
        await source.close()


async def test_a_game_the_protocol_cannot_describe_fails_at_its_start(tmp_path: Path) -> None:
    """Joined by code, the game is known only at its start: the brain fails it."""
    source = brains(tmp_path)
    with pytest.raises(BotLoadError, match="--gomocup: a Gomocup brain plays five"):
        source.check_game("connect4")
    brain = source.new_brain("game 1")
    with pytest.raises(BotFailedError, match="not connect4"):
        await brain.start(state_of("connect4"))
    await brain.close()
    await source.close()


def test_the_brains_about_names_the_player(tmp_path: Path) -> None:
    source = brains(tmp_path)
    assert source.name == "pbrain_test"
    assert source.read_about()["author"] == "Boardroom tests"
    assert source.name == "testbrain"


async def test_with_minutes_each_the_brain_is_told_its_time_left_before_each_move(
    tmp_path: Path,
) -> None:
    clock = Clock(kind="increment", initial=60, increment=1)
    state = game_state(room_in_play("gomoku", clock=clock))
    source = brains(tmp_path)
    try:
        brain = source.new_brain("game 1")
        await brain.start(state)
        assert await brain.choose(state, timeout=None, time_ms=58765) == "h8"
        await brain.close()
    finally:
        await source.close()
    log = log_of(tmp_path)
    assert "DEBUG info timeout_match=60000" in log
    assert "DEBUG info time_left=58765" in log
