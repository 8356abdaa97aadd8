"""The Piskvork (Gomocup) protocol as pure translation: positions and moves to
protocol lines, protocol lines to moves. No process, no I/O: the process side
is :mod:`boardroom.client.bots.gomocup_bot`.

The protocol (Petr Laštovička's "new protocol" of the Piskvork manager, which
Gomocup uses) speaks in lines over a brain's stdin and stdout. The manager
sends ``START size`` (or ``RECTSTART width,height``) and gets ``OK``; ``INFO key
value`` lines set limits and rules (no answer); ``BEGIN`` asks for the first
move on an empty board, ``TURN x,y`` gives the opponent's move and asks for
the brain's, ``BOARD`` then ``x,y,who`` lines then ``DONE`` sets a whole position
and asks for a move (``who``: 1 the brain's own stone, 2 the opponent's);
``RESTART`` empties the board for a new game (``OK``), ``END`` ends the brain,
``ABOUT`` asks for a line such as ``name="foo", version="1.0"``. The brain
may write ``MESSAGE``, ``DEBUG``, ``ERROR`` and ``UNKNOWN`` lines at any time;
they are not answers.

Coordinates are as the protocol writes them: ``x`` is the column from the
left, ``y`` the row from the top, both from 0. Boardroom's cells are named
from the bottom left (``a1``), so on a 15x15 board ``a1`` is ``0,14``:

>>> from boardroom.shared.games import get_game
>>> gomoku = get_game("gomoku")
>>> shape = board_shape(gomoku)
>>> shape, start_line(shape)
(BoardShape(width=15, height=15), 'START 15')
>>> protocol_cell(gomoku, gomoku.parse_move(gomoku.new(), "a1")), cell_text(gomoku, "0,14")
('0,14', 'a1')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from boardroom.client.bots.errors import ProtocolMismatchError
from boardroom.shared.games import Game, GridGame, Player, Position
from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import Clock

FIVE = 5
"""The protocol's games are five in a row: its ``rule`` knows no other length."""
RULE_FREESTYLE = 0
"""``INFO rule`` for five or more in a row wins (Boardroom's gomoku: overlines win)."""
GAME_TYPE_HUMAN = 0
GAME_TYPE_BRAIN = 1
"""``INFO game_type``: 0 the opponent is a person, 1 a program."""
CHATTER = ("MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST")
"""Words that start a brain's line that is not an answer: it is logged, and the
manager goes on waiting (an ``ERROR`` or ``UNKNOWN`` in answer to ``START`` or
``RESTART`` is that command refused)."""
_COORDINATES = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


@dataclass(frozen=True)
class BoardShape:
    """The board a brain is started on: ``START width`` when square, else
    ``RECTSTART width,height``."""

    width: int
    height: int

    @property
    def square(self) -> bool:
        return self.width == self.height


def board_shape(rules: Game) -> BoardShape:
    """The board of ``rules`` for ``START``/``RECTSTART``, or
    :class:`ProtocolMismatchError`: the protocol plays five in a row on a board
    without gravity (gomoku, and m,n,k games with k = 5), nothing else.

    >>> from boardroom.shared.games import get_game
    >>> board_shape(get_game("mnk-9-7-5"))
    BoardShape(width=9, height=7)
    >>> try:
    ...     board_shape(get_game("tictactoe"))
    ... except ProtocolMismatchError as error:
    ...     print(error)
    a Gomocup brain plays five in a row (gomoku, or mnk-M-N-5): tictactoe is 3 in a row, \
which the Piskvork protocol cannot describe
    """
    if not isinstance(rules, GridGame) or rules.gravity:
        raise ProtocolMismatchError(
            _(
                "a Gomocup brain plays five in a row on a board without gravity "
                "(gomoku, or mnk-M-N-5), not {game}",
                game=rules.name,
            )
        )
    grid = rules.grid
    if grid.k != FIVE:
        raise ProtocolMismatchError(
            _(
                "a Gomocup brain plays five in a row (gomoku, or mnk-M-N-5): {game} is "
                "{k} in a row, which the Piskvork protocol cannot describe",
                game=rules.name,
                k=grid.k,
            )
        )
    return BoardShape(grid.width, grid.height)


def start_line(shape: BoardShape) -> str:
    """``START 15``, or ``RECTSTART 9,7`` for a board that is not square."""
    if shape.square:
        return f"START {shape.width}"
    return f"RECTSTART {shape.width},{shape.height}"


def info_lines(clock: Clock, *, move_timeout: float, opponent_kind: str | None) -> list[str]:
    """The ``INFO`` lines a brain gets before each game.

    ``timeout_turn`` and ``timeout_match`` in milliseconds (0: no limit): a room
    without a clock gives ``--move-timeout`` a move and no match limit; a clock
    of so much a move, that much a move; a clock of minutes each (plus an
    increment), the minutes as the match's time (and ``time_left`` before each
    move, from :func:`time_left_line`). ``max_memory`` 0 (no limit);
    ``game_type`` 0 against a person, 1 against a program; ``rule`` 0 (five or
    more in a row wins).

    >>> info_lines(Clock(), move_timeout=30, opponent_kind="ai")[:2]
    ['INFO timeout_turn 30000', 'INFO timeout_match 0']
    >>> info_lines(Clock(kind="increment", initial=300, increment=3), move_timeout=30,
    ...            opponent_kind="human")
    ['INFO timeout_turn 300000', 'INFO timeout_match 300000', 'INFO max_memory 0', \
'INFO game_type 0', 'INFO rule 0']
    """
    if clock.kind == "per_move" and clock.per_move is not None:
        turn, match = _ms(clock.per_move), 0
    elif clock.kind == "increment" and clock.initial is not None:
        # No limit a move but the clock: a move may take all that is left.
        turn = match = _ms(clock.initial)
    else:
        turn, match = _ms(move_timeout), 0
    game_type = GAME_TYPE_HUMAN if opponent_kind == "human" else GAME_TYPE_BRAIN
    return [
        f"INFO timeout_turn {turn}",
        f"INFO timeout_match {match}",
        "INFO max_memory 0",
        f"INFO game_type {game_type}",
        f"INFO rule {RULE_FREESTYLE}",
    ]


def time_left_line(clock: Clock, time_ms: int) -> str | None:
    """``INFO time_left MS`` before a move in a game with a match clock; None otherwise
    (with no match limit the protocol's ``time_left`` has nothing to say)."""
    if clock.kind == "increment":
        return f"INFO time_left {max(0, time_ms)}"
    return None


def protocol_cell(rules: GridGame, move: int) -> str:
    """The protocol's ``x,y`` of a move (a cell number, row from the bottom)."""
    width, height = rules.grid.width, rules.grid.height
    row, column = divmod(move, width)
    return f"{column},{height - 1 - row}"


def cell_text(rules: GridGame, answer: str) -> str | None:
    """The move, in Boardroom's notation, that a brain's ``x,y`` names; the answer
    as it was if it is coordinates off the board (for the server to refuse, in the
    brain's own words); None if it is not coordinates at all.

    >>> from boardroom.shared.games import get_game
    >>> board = get_game("mnk-9-7-5")
    >>> cell_text(board, "0,0"), cell_text(board, " 8 , 6 "), cell_text(board, "9,0")
    ('a7', 'i1', '9,0')
    >>> cell_text(board, "hello") is None
    True
    """
    found = _COORDINATES.fullmatch(answer)
    if found is None:
        return None
    move = move_number(rules, answer)
    return answer.strip() if move is None else rules.format_move(move)


def move_number(rules: GridGame, answer: str) -> int | None:
    """The cell number (row from the bottom) of a brain's ``x,y``; None if it is
    not coordinates on the board."""
    found = _COORDINATES.fullmatch(answer)
    if found is None:
        return None
    x, y = int(found[1]), int(found[2])
    width, height = rules.grid.width, rules.grid.height
    if not (0 <= x < width and 0 <= y < height):
        return None
    return (height - 1 - y) * width + x


class Ask(enum.Enum):
    """How the brain is asked for its move."""

    BEGIN = "BEGIN"
    TURN = "TURN"
    BOARD = "BOARD"


def move_request(
    rules: GridGame, position: Position, side: Player, known: Sequence[int] | None
) -> tuple[Ask, list[str]]:
    """The lines that ask the brain for its move in ``position`` (its turn, as
    ``side``), given the moves it ``known`` so far this game (None: it knows nothing
    of this game, or what it knows cannot be trusted, as after a reconnect).

    ``BEGIN`` on an empty board it knows; ``TURN x,y`` when one opponent's move is
    new to it; else ``BOARD``, a line per stone in the order played (1 its own,
    2 the opponent's), ``DONE``.

    >>> from boardroom.shared.games import get_game
    >>> board = get_game("mnk-5-5-5")
    >>> start = board.new()
    >>> move_request(board, start, Player.FIRST, [])
    (<Ask.BEGIN: 'BEGIN'>, ['BEGIN'])
    >>> after = board.from_moves("c3 a1")
    >>> move_request(board, after, Player.FIRST, [after.moves[0]])
    (<Ask.TURN: 'TURN'>, ['TURN 0,4'])
    >>> move_request(board, after, Player.FIRST, None)
    (<Ask.BOARD: 'BOARD'>, ['BOARD', '2,2,1', '0,4,2', 'DONE'])
    """
    moves = position.moves
    if not moves and known is not None and not known:
        return Ask.BEGIN, ["BEGIN"]
    if moves and known is not None and tuple(known) == moves[:-1]:
        return Ask.TURN, [f"TURN {protocol_cell(rules, moves[-1])}"]
    lines = ["BOARD"]
    for ply, move in enumerate(moves):
        mover = Player.to_move_at(ply)
        lines.append(f"{protocol_cell(rules, move)},{1 if mover is side else 2}")
    lines.append("DONE")
    return Ask.BOARD, lines


class LineKind(enum.Enum):
    """What a line a brain wrote is."""

    EMPTY = "empty"
    """Nothing: ignored, as the protocol says."""
    CHATTER = "chatter"
    """``MESSAGE``, ``DEBUG``, ``ERROR``, ``UNKNOWN`` (or ``SUGGEST``): logged."""
    OK = "ok"
    ANSWER = "answer"
    """Anything else: the answer awaited (a move, or garbage)."""


def line_kind(line: str) -> LineKind:
    """What ``line`` is (the brain may write its words in any case).

    >>> [line_kind(text).value for text in ("", "ok", "DEBUG depth 5", "7,7", "error no")]
    ['empty', 'ok', 'chatter', 'answer', 'chatter']
    """
    text = line.strip()
    if not text:
        return LineKind.EMPTY
    word = text.split(maxsplit=1)[0].upper()
    if word == "OK":
        return LineKind.OK
    if word in CHATTER:
        return LineKind.CHATTER
    return LineKind.ANSWER


def refusal_of(line: str) -> str | None:
    """The brain's words when ``line`` refuses a command (``ERROR ...``, ``UNKNOWN ...``)."""
    text = line.strip()
    word, _space, rest = text.partition(" ")
    if word.upper() in ("ERROR", "UNKNOWN"):
        return rest.strip() or word.upper()
    return None


_ABOUT_FIELD = re.compile(r'(\w+)\s*=\s*"([^"]*)"')


def parse_about(line: str) -> dict[str, str]:
    """The fields of an ``ABOUT`` answer (empty if it is not one).

    >>> parse_about('name="Yixin", version="2018", author="Kai Sun", country="CN"')["name"]
    'Yixin'
    """
    return {key.lower(): value for key, value in _ABOUT_FIELD.findall(line)}


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
