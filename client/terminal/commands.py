"""Reading what the user types: command words, their arguments, and room options.

Pure: every function takes text and returns values or raises :class:`InputError`,
whose message says in plain words what was wrong and what would be accepted, so
the caller only has to print it and prompt again. Nothing here talks to a server.

Command words are case-insensitive and may start with ``/`` (``/quit``), as in
chat programs. In a room, a line that is not a command is a move.

The one-line form of ``new``, for scripts (every option may be left out; they
can come in any order)::

    new [GAME] [ai|ai=LEVEL|LEVEL|human] [public|private] [clock=none|SECONDSs|MINUTES+INCREMENT]
        [seat=first|second|random] [m=M n=N k=K]

>>> create = parse_new_room("connect4 ai=hard clock=5+3 private seat=second")
>>> create.game, str(create.ai_level), create.public, create.seat, create.clock.initial
('connect4', 'hard', False, 'second', 300.0)
>>> parse_new_room("").game
'connect4'
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from boardroom.client.room_options import (
    CLOCK_HELP,
    DEFAULT_GAME,
    InputError,
    game_choices,
    parse_clock,
    parse_game,
    parse_level,
)
from boardroom.shared.games import GameSpec, Player, game_specs, spec_of
from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import LEVELS, Clock, CreateRoom, Level, seat_choice

DEFAULT_AI_LEVEL = Level.MEDIUM
"""The level of ``ai`` without one: a fair game for most people."""

SeatChoice = Player | Literal["random"]
"""Where the creator sits: a side, or ``random`` (drawn when the first game starts)."""


@dataclass(frozen=True)
class Typed:
    """One line typed by the user: its first word (lower case, without a leading
    ``/``) and the rest, as typed."""

    word: str
    rest: str
    line: str


def split_line(line: str) -> Typed | None:
    """The command word and its arguments, or None for a blank line.

    >>> split_line("  /Chat  hello there ")
    Typed(word='chat', rest='hello there', line='/Chat  hello there')
    """
    stripped = line.strip()
    if not stripped:
        return None
    word, _, rest = stripped.partition(" ")
    return Typed(word=word.lstrip("/").lower(), rest=rest.strip(), line=stripped)


LOBBY_COMMANDS = {
    "rooms": "rooms",
    "list": "rooms",
    "ls": "rooms",
    "new": "new",
    "create": "new",
    "join": "join",
    "quick": "quick",
    "watch": "watch",
    "help": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
}
"""Lobby command words (and their aliases) to the command they name."""

ROOM_COMMANDS = {
    "resign": "resign",
    "draw": "draw",
    "accept": "accept",
    "decline": "decline",
    "rematch": "rematch",
    "r": "rematch",
    "chat": "chat",
    "say": "chat",
    "ai": "ai",
    "board": "board",
    "why": "why",
    "info": "why",
    "hint": "hint",
    "help": "help",
    "?": "help",
    "leave": "leave",
    "quit": "quit",
    "exit": "quit",
}
"""Room command words (and their aliases); anything else typed in a room is a move."""

HELP_WIDTH = 79
"""Every line of the help fits in this many columns: an 80-column terminal (the
narrowest in use, where a longer line would wrap mid-word) with one to spare."""


def help_table(rows: list[tuple[str, str]], *, indent: int = 2, column: int = 22) -> list[str]:
    """``rows`` of (what to type, what it does) as help lines: the descriptions
    start at ``column`` and wrap between words within :data:`HELP_WIDTH`; a term
    too long for its column gets a line of its own.

    >>> print("\\n".join(help_table([("quit", "leave"), ("a-very-long-command", "x")],
    ...                            column=12)))
      quit      leave
      a-very-long-command
                x
    """
    lines: list[str] = []
    for term, text in rows:
        wrapped = textwrap.wrap(
            text, HELP_WIDTH - column, break_long_words=False, break_on_hyphens=False
        )
        head = " " * indent + term
        if len(head) < column - 1:
            lines.append(head.ljust(column) + wrapped[0])
        else:
            lines += [head, " " * column + wrapped[0]]
        lines += [" " * column + line for line in wrapped[1:]]
    return lines


def help_text(intro: str, *tables: list[str]) -> str:
    """The help: ``intro`` wrapped within :data:`HELP_WIDTH`, then the tables."""
    lines = textwrap.wrap(intro, HELP_WIDTH, break_long_words=False, break_on_hyphens=False)
    for table in tables:
        lines += table
    return "\n".join(lines)


_EXAMPLE_GAME = next(
    (spec.name for spec in game_specs() if spec.board is not spec_of(DEFAULT_GAME).board),
    DEFAULT_GAME,
)
"""The game of the help's example of ``new``: the first on another kind of board than
the default's (Connect Four's columns), so the help shows more than one."""


def _new_options() -> list[str]:
    return help_table(
        [
            ("GAME", f"{game_choices()} [{DEFAULT_GAME}]"),
            (
                "ai=LEVEL",
                _(
                    "play the AI: {levels} (ai alone: {default}); "
                    "human (the default) waits for a person to join",
                    levels=", ".join(LEVELS),
                    default=DEFAULT_AI_LEVEL,
                ),
            ),
            ("private", _("only people you give the join code to can join [public]")),
            (
                "clock=30s",
                _(
                    "30 seconds a move; clock=5+3: 5 minutes each, 3 s added a move; "
                    "clock=none [none]"
                ),
            ),
            ("seat=SEAT", _("first, second or random: first plays X and moves first [first]")),
        ],
        indent=4,
    )


def lobby_help() -> str:
    """The lobby's help, in the language spoken now."""
    return help_text(
        _("Lobby commands:"),
        help_table(
            [
                ("rooms", _("list the open public rooms")),
                ("new", _("open a room: a few questions (Enter takes the default)")),
                (
                    "new GAME [OPTIONS]",
                    _(
                        "open a room in one line: {example}",
                        example="new " + _EXAMPLE_GAME + " ai=hard clock=5+3",
                    ),
                ),
            ]
        ),
        _new_options(),
        help_table(
            [
                (
                    "join CODE",
                    _("take the free seat in a room (its code, or a private join code)"),
                ),
                ("quick GAME", _("play the next person asking for the same game (or wait)")),
                ("watch CODE", _("watch a game (room code, join code or watch code)")),
                ("help", _("this list")),
                ("quit", _("leave Boardroom")),
            ]
        ),
    )


def room_help() -> str:
    """The room's help for a player, in the language spoken now."""
    return help_text(
        _(
            "In a room, type a move to play it: a cell like b2 (a1 is bottom-left), or a "
            "column 1-7 in Connect Four. Commands:"
        ),
        help_table(
            [
                ("resign", _("concede the game")),
                ("draw", _("offer a draw, or accept the one offered to you")),
                ("accept, decline", _("answer a draw offer")),
                (
                    "rematch, r",
                    _("ask for another game, sides swapped (or accept the one asked for)"),
                ),
                ("chat TEXT", _("say something to the room (also: say TEXT)")),
                (
                    "ai [LEVEL]",
                    _("seat the AI in the empty seat (levels: {levels})", levels=", ".join(LEVELS)),
                ),
                ("board", _("draw the board again")),
                (
                    "why, info",
                    _("how the AI found its last move: positions searched, depth, its line"),
                ),
                (
                    "hint",
                    _(
                        "on your move, ask the engine for a move and what it is worth (where "
                        "hints are allowed; kept with the game, shown in its review)"
                    ),
                ),
                ("help", _("this list")),
                ("leave", _("back to the lobby (during a game this resigns it)")),
                (
                    "quit",
                    _("leave Boardroom (your seat is held for a while, nothing is resigned)"),
                ),
            ]
        ),
    )


def spectator_help() -> str:
    """The room's help for a spectator: only what a spectator can do."""
    return help_text(
        _("You are watching: the players' moves show as they are made. Commands:"),
        help_table(
            [
                ("chat TEXT", _("say something to the room (also: say TEXT)")),
                ("board", _("draw the board again")),
                (
                    "why, info",
                    _("how the AI found its last move: positions searched, depth, its line"),
                ),
                ("help", _("this list")),
                ("leave", _("stop watching")),
                ("quit", _("leave Boardroom")),
            ]
        ),
    )


PLAYER_COMMANDS = frozenset({"resign", "draw", "accept", "decline", "rematch", "ai", "hint"})
"""Room commands for the players alone: a spectator is told so without asking the server."""


# -- room options ----------------------------------------------------------------------


def parse_opponent(text: str) -> Level | None:
    """Who plays the other seat: ``human`` (None: wait for a person), or the AI at a
    level (``ai`` alone, ``ai=hard``, ``ai hard`` or just ``hard``)."""
    answer = text.strip().lower()
    if answer in ("", "human", "person", "vs=human", "h"):
        return None
    for prefix in ("vs=", "ai=", "ai "):
        if answer.startswith(prefix):
            answer = answer[len(prefix) :].strip()
    if answer in ("ai", "computer", ""):
        return DEFAULT_AI_LEVEL
    try:
        return parse_level(answer)
    except InputError:
        raise InputError(
            _(
                "{text!r} is not an opponent: type human, or ai, or an AI level ({levels})",
                text=text.strip(),
                levels=", ".join(LEVELS),
            )
        ) from None


def parse_visibility(text: str) -> bool:
    """True for a public room (listed, anyone may join), False for a private one."""
    answer = text.strip().lower()
    if answer in ("", "public", "pub", "open"):
        return True
    if answer in ("private", "priv", "secret"):
        return False
    raise InputError(_("{text!r}: type public or private", text=text.strip()))


def parse_seat(text: str) -> SeatChoice:
    """Where the creator sits: ``first`` (X, moves first), ``second`` (O) or ``random``."""
    answer = text.strip().lower()
    if answer.startswith("seat="):
        answer = answer[len("seat=") :]
    seats: dict[str, SeatChoice] = {
        "": Player.FIRST,
        "first": Player.FIRST,
        "x": Player.FIRST,
        "1": Player.FIRST,
        "second": Player.SECOND,
        "o": Player.SECOND,
        "2": Player.SECOND,
        "random": "random",
        "any": "random",
    }
    if answer in seats:
        return seats[answer]
    raise InputError(
        _("{text!r} is not a seat: type first (X), second (O) or random", text=text.strip())
    )


def parse_new_room(text: str) -> CreateRoom:
    """The ``create_room`` request for the one-line form of ``new`` (see the module
    docstring); every option has a default, so ``new`` alone is a public tic-tac-toe
    room waiting for a person, with no clock, you playing X."""
    game_name: str | None = None
    sizes: dict[str, int] = {}
    level: Level | None = None
    public = True
    clock = Clock()
    seat: SeatChoice = Player.FIRST
    for token in text.split():
        lowered = token.lower()
        key, has_value, value = lowered.partition("=")
        if key in _SIZE_KEYS and has_value:
            if not value.isdigit():
                raise InputError(
                    _("{token!r}: {key} takes a whole number, e.g. {key}=5", token=token, key=key)
                )
            sizes[key] = int(value)
        elif key in ("ai", "vs", "opponent") or lowered in ("human", "person"):
            level = parse_opponent(lowered if key != "opponent" else value)
        elif lowered in LEVELS:
            level = parse_level(lowered)
        elif lowered in ("public", "private"):
            public = parse_visibility(lowered)
        elif key == "clock":
            if not has_value:
                raise InputError(
                    _(
                        "clock needs a value, e.g. clock=30s or clock=5+3: {help}",
                        help=_(CLOCK_HELP),
                    )
                )
            clock = parse_clock(value)
        elif key == "seat" or lowered in ("first", "second", "random"):
            seat = parse_seat(value if has_value else lowered)
        elif key == "game" and has_value:
            game_name = value
        elif has_value:
            raise InputError(
                _(
                    "unknown option {token!r}: the options are ai=LEVEL, human, public, "
                    "private, clock=..., seat=..., {sizes} (type help for the details)",
                    token=token,
                    sizes=_size_options(),
                )
            )
        elif game_name is None:
            game_name = lowered
        else:
            raise InputError(
                _(
                    "{token!r}: the game is already {game!r}; type help for the options of new",
                    token=token,
                    game=game_name,
                )
            )
    if sizes:
        game_name = _sized_game_name(game_name, sizes)
    game = parse_game(game_name or "")
    return CreateRoom(
        game=game.name, public=public, seat=seat_choice(seat), clock=clock, ai_level=level
    )


_FAMILIES = tuple(spec for spec in game_specs() if spec.is_family)
"""The registry's families of boards (m,n,k), whose sizes ``new`` also takes as
options (``new mnk m=5 n=5 k=4``)."""
_SIZE_KEYS = frozenset(size.name for family in _FAMILIES for size in family.sizes)


def _size_options() -> str:
    """The size options for the list of options: ``and m=, n=, k= for mnk``."""
    return ", ".join(
        _(
            "and {keys} for {family}",
            keys=", ".join(f"{size.name}=" for size in family.sizes),
            family=family.name,
        )
        for family in _FAMILIES
    )


def _sized_game_name(game_name: str | None, sizes: dict[str, int]) -> str:
    """The board name (``mnk-5-5-4``) for a family's name and its sizes as options."""
    family = next((spec for spec in _FAMILIES if spec.name == game_name), None)
    if family is None or not set(sizes) <= {size.name for size in family.sizes}:
        family = next(spec for spec in _FAMILIES if set(sizes) & {s.name for s in spec.sizes})
        keys = _and_list([f"{size.name}=" for size in family.sizes])
        raise InputError(
            _(
                "{keys} go with the game {family} only ({example})",
                keys=keys,
                family=family.name,
                example=" ".join(["new", family.name, _sizes_example(family)]),
            )
        )
    missing = [size.name for size in family.sizes if size.name not in sizes]
    if missing:
        raise InputError(
            _(
                "{family} needs {sizes}: {missing} missing ({example})",
                family=family.name,
                sizes=_and_list([size.name for size in family.sizes]),
                missing=", ".join(missing),
                example=_sizes_example(family),
            )
        )
    return "-".join([family.name, *(str(sizes[size.name]) for size in family.sizes)])


def _sizes_example(family: GameSpec) -> str:
    """The family's example board as options: ``m=5 n=5 k=4``."""
    values = str(family.extra.get("example", "")).split("-")[1:]
    if len(values) != len(family.sizes):
        values = [str(size.low) for size in family.sizes]
    return " ".join(
        f"{size.name}={value}" for size, value in zip(family.sizes, values, strict=True)
    )


def _and_list(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("{some} and {last}", some=", ".join(words[:-1]), last=words[-1])


@dataclass(frozen=True)
class Question:
    """One question of the guided ``new``: what to ask (in the language spoken
    when it is asked), the default shown in brackets, and how an answer becomes an
    option of the one-line form."""

    ask: Callable[[], str]
    default: str
    to_option: Callable[[str], str]
    """The one-line option for an answer; raises :class:`InputError` for a bad one."""
    then: Callable[[str], Question | None] = lambda option: None
    """The question to ask next about an option (None: none), whose option
    replaces it: the AI's level, for ``ai`` said without one."""

    @property
    def prompt(self) -> str:
        """The question, in the language spoken now."""
        return self.ask()

    def option(self, answer: str) -> str:
        """The option for ``answer``, or for the default when the answer is blank."""
        return self.to_option(answer.strip() or self.default)


def _opponent_option(answer: str) -> str:
    """``human``, ``ai=LEVEL``, or ``ai`` alone when the answer names no level
    (the guided ``new`` then asks for one: see :data:`AI_LEVEL_QUESTION`)."""
    if answer.strip().lower() in ("ai", "computer"):
        return "ai"
    level = parse_opponent(answer)
    return "human" if level is None else f"ai={level}"


def _clock_option(answer: str) -> str:
    parse_clock(answer)
    return "clock=" + answer.replace(" ", "")


AI_LEVEL_QUESTION = Question(
    lambda: _("AI level: {levels} or {last}", levels=", ".join(LEVELS[:-1]), last=LEVELS[-1]),
    DEFAULT_AI_LEVEL,
    lambda answer: "ai=" + parse_level(answer.strip().lower().removeprefix("ai=")),
)
"""Asked after the opponent question when its answer was ``ai`` without a level."""

NEW_ROOM_QUESTIONS = (
    Question(
        lambda: _("Game: {games}", games=game_choices(examples=False)),
        DEFAULT_GAME,
        lambda answer: parse_game(answer).name,
    ),
    Question(
        lambda: _("Opponent: human, or the AI at {levels}", levels="/".join(LEVELS)),
        "human",
        _opponent_option,
        then=lambda option: AI_LEVEL_QUESTION if option == "ai" else None,
    ),
    Question(
        lambda: _("Public or private"),
        "public",
        lambda answer: "public" if parse_visibility(answer) else "private",
    ),
    Question(
        lambda: _("Clock: none, seconds a move (30s), or minutes+increment (5+3)"),
        "none",
        _clock_option,
    ),
    Question(
        lambda: _("Your seat: first (X, moves first), second (O) or random"),
        "first",
        lambda answer: "seat=" + parse_seat(answer),
    ),
)
"""The questions of the guided ``new``, in order. Their options, joined, are a
one-line ``new`` for :func:`parse_new_room`."""
CANCEL_WORDS = frozenset({"cancel", "/cancel", "quit", "/quit"})
"""Answers that abandon the guided ``new`` and go back to the lobby."""


def parse_code(text: str, what: str) -> str:
    """A room, join or watch code as the server reads it (upper case), or an error
    naming the command ``what`` needs it for."""
    code = text.strip().upper()
    if not code:
        raise InputError(
            _("{what} needs a code: {what} CODE (the room code, or a private code)", what=what)
        )
    if " " in code or len(code) > 32:
        raise InputError(
            _("{text!r} is not a room code: codes are one word, like C9FVBQ", text=text.strip())
        )
    return code
