"""Reading what people type: command words, the one-line and guided ``new``,
clocks, levels and codes. Every refusal is an InputError whose message says what
would be accepted."""

from __future__ import annotations

import re

import pytest

from boardroom.client.cli import build_parser
from boardroom.client.commands.play import _start_room
from boardroom.client.terminal.commands import (
    AI_LEVEL_QUESTION,
    LOBBY_COMMANDS,
    NEW_ROOM_QUESTIONS,
    PLAYER_COMMANDS,
    ROOM_COMMANDS,
    InputError,
    lobby_help,
    parse_clock,
    parse_code,
    parse_game,
    parse_new_room,
    parse_opponent,
    parse_seat,
    room_help,
    spectator_help,
    split_line,
)
from boardroom.shared.games import default_game, game_specs
from boardroom.shared.protocol.messages import Clock, CreateRoom


def test_a_line_splits_into_a_lower_case_word_without_slash_and_the_rest() -> None:
    typed = split_line("  /SAY Hello  World ")
    assert typed is not None
    assert (typed.word, typed.rest) == ("say", "Hello  World")
    assert split_line("   ") is None


def test_every_command_word_and_alias_is_in_the_help() -> None:
    """Each command a user can type is documented where they look for it."""
    for commands, help_text in ((LOBBY_COMMANDS, lobby_help()), (ROOM_COMMANDS, room_help())):
        for canonical in set(commands.values()):
            assert re.search(rf"^  (\w+, )*{canonical}\b", help_text, re.MULTILINE), canonical


@pytest.mark.parametrize(
    "help_text", [lobby_help(), room_help(), spectator_help()], ids=["lobby", "room", "spectator"]
)
def test_every_help_line_fits_an_80_column_terminal(help_text: str) -> None:
    """A longer line wraps mid-word at the narrowest terminal in use; a
    description that goes on is indented under itself, never at the margin."""
    lines = help_text.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("  ")) :]
    assert all(line.startswith("  ") and line == line.rstrip() for line in table), table


def test_a_spectators_help_lists_only_what_a_spectator_can_do() -> None:
    """The players' commands (resign, rematch, hint...) are not offered to a
    spectator; chat, board, why, leave and quit are."""
    for command in PLAYER_COMMANDS:
        assert not re.search(rf"^  (\w+, )*{command}\b", spectator_help(), re.MULTILINE), command
    for command in ("chat", "board", "why", "help", "leave", "quit"):
        assert re.search(rf"^  (\w+, )*{command}\b", spectator_help(), re.MULTILINE), command
    assert set(ROOM_COMMANDS.values()) >= PLAYER_COMMANDS


def test_new_alone_is_a_public_room_of_the_default_game_for_a_person_with_no_clock() -> None:
    assert parse_new_room("") == CreateRoom(game="connect4")


def test_the_one_line_new_takes_its_options_in_any_order() -> None:
    create = parse_new_room("private clock=30s Connect4 seat=random ai")
    assert create == CreateRoom(
        game="connect4",
        public=False,
        seat="random",
        clock=Clock(kind="per_move", per_move=30.0),
        ai_level="medium",
    )
    assert parse_new_room("gomoku hard second").ai_level == "hard"
    assert parse_new_room("gomoku hard second").seat == "second"
    assert parse_new_room("tictactoe4 ai=perfect human").ai_level is None


def test_mnk_boards_are_named_with_their_sizes_either_way() -> None:
    assert parse_new_room("mnk-5-5-4").game == "mnk-5-5-4"
    assert parse_new_room("mnk m=5 n=5 k=4").game == "mnk-5-5-4"
    assert parse_new_room("mnk m=3 n=3 k=3").game == "tictactoe"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("chess", "unknown game 'chess'"),
        ("mnk", "mnk needs its sizes"),
        ("mnk m=5 n=5", "k missing"),
        ("connect4 m=5", "go with the game mnk only"),
        ("connect4 ai=genius", "'ai=genius' is not an opponent"),
        ("connect4 clock=soon", "'soon' is not a clock"),
        ("connect4 clock", "clock needs a value"),
        ("connect4 seat=middle", "'middle' is not a seat"),
        ("connect4 colour=red", "unknown option 'colour=red'"),
        ("connect4 gomoku", "the game is already 'connect4'"),
        ("mnk m=five n=5 k=4", "m takes a whole number"),
    ],
)
def test_a_bad_new_says_what_is_wrong_and_what_would_do(text: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_new_room(text)


def test_clocks_read_as_seconds_a_move_or_minutes_plus_increment() -> None:
    assert parse_clock("30s") == Clock(kind="per_move", per_move=30.0)
    assert parse_clock("45") == Clock(kind="per_move", per_move=45.0)
    assert parse_clock("5+3") == Clock(kind="increment", initial=300.0, increment=3.0)
    assert parse_clock(" 0.5 + 0 ") == Clock(kind="increment", initial=30.0, increment=0.0)
    assert parse_clock("none") == Clock()
    assert parse_clock("") == Clock()
    with pytest.raises(InputError, match="0 to 1440 minutes"):
        parse_clock("5000+1")
    with pytest.raises(InputError, match="1 to 86400 seconds"):
        parse_clock("100000s")


def test_opponents_are_human_or_an_ai_level() -> None:
    assert parse_opponent("") is None
    assert parse_opponent("human") is None
    assert parse_opponent("ai") == "medium"
    assert parse_opponent("AI hard") == "hard"
    assert parse_opponent("perfect") == "perfect"


def test_seats_by_name_symbol_or_number() -> None:
    assert [parse_seat(text) for text in ("", "X", "o", "2", "random")] == [
        "first",
        "first",
        "second",
        "second",
        "random",
    ]


def test_the_guided_new_takes_defaults_on_enter_and_builds_the_one_line_form() -> None:
    """Enter on every question is the default room; answers become options."""
    defaults = [question.option("") for question in NEW_ROOM_QUESTIONS]
    assert parse_new_room(" ".join(defaults)) == CreateRoom(game="connect4")
    answers = ["connect4", "ai hard", "private", "5+3", "second"]
    options = [q.option(a) for q, a in zip(NEW_ROOM_QUESTIONS, answers, strict=True)]
    assert parse_new_room(" ".join(options)) == parse_new_room(
        "connect4 ai=hard private clock=5+3 seat=second"
    )


def test_a_guided_answer_that_does_not_fit_is_refused_for_asking_again() -> None:
    with pytest.raises(InputError, match="type public or private"):
        NEW_ROOM_QUESTIONS[2].option("secretive")
    with pytest.raises(InputError, match="not an opponent"):
        NEW_ROOM_QUESTIONS[1].option("grandmaster")


def test_the_guided_new_asks_the_ais_level_when_ai_comes_without_one() -> None:
    """``ai`` alone leads to the level question (Enter: medium, said in its
    brackets); an answer with a level, or human, asks nothing more."""
    opponent = NEW_ROOM_QUESTIONS[1]
    assert opponent.option("ai") == "ai"
    assert opponent.then("ai") is AI_LEVEL_QUESTION
    assert opponent.then(opponent.option("ai hard")) is None
    assert opponent.then(opponent.option("")) is None
    assert AI_LEVEL_QUESTION.default == "medium"
    assert AI_LEVEL_QUESTION.prompt == "AI level: random, easy, medium, hard or perfect"
    assert AI_LEVEL_QUESTION.option("") == "ai=medium"
    assert AI_LEVEL_QUESTION.option(" Perfect ") == "ai=perfect"
    with pytest.raises(InputError, match="'grandmaster' is not an AI level"):
        AI_LEVEL_QUESTION.option("grandmaster")
    assert parse_new_room("ai").ai_level == "medium"  # the one-line form says so in help


def test_codes_are_read_in_upper_case_and_must_be_one_word() -> None:
    assert parse_code(" xtzruwf6 ", "join") == "XTZRUWF6"
    with pytest.raises(InputError, match="join needs a code"):
        parse_code("", "join")
    with pytest.raises(InputError, match="not a room code"):
        parse_code("two words", "watch")


def test_game_nicknames_resolve_to_the_games() -> None:
    assert parse_game("ttt").name == "tictactoe"
    assert parse_game("C4").name == "connect4"
    assert parse_game("").name == "connect4"  # the registry's default game


def test_every_default_game_of_the_cli_is_the_registry_s_default() -> None:
    """``play --local`` (and --level alone), the terminal's quick match and the
    guided new start on the registry's default game (Connect Four, by its spec's
    flag); the load test keeps the smallest board, the first of the menu."""
    parser = build_parser()
    for argv in (["play", "--local"], ["play", "--level", "hard"]):
        room = _start_room(parser.parse_args(argv))
        assert room is not None and room.game == default_game().name == "connect4", argv
    assert NEW_ROOM_QUESTIONS[0].default == "connect4"
    assert "[connect4]" in lobby_help()  # new GAME's default, as the help says
    loadtest = build_parser().parse_args(["loadtest"])
    assert loadtest.game == game_specs()[0].name == "tictactoe"
