"""What a stored game is, and its two exports: JSON for programs, text for people.

Value types only, no I/O: the room state machine can build and read them without
a database, and :mod:`boardroom.server.store` turns them into rows and back.

A record is written in this order, and never rewritten:

1. created (:attr:`GameState.WAITING`), with the room, the game, its options and
   whatever seats are already taken;
2. started (:attr:`GameState.PLAYING`) once both seats are filled (or created
   already started, in one step, when both seats are known at creation);
3. one :class:`MoveRecord` per move, ``ply`` 0, 1, 2, ... (the number of moves
   played before it, as on the wire);
4. finished (:attr:`GameState.FINISHED`) with a winner or none and a
   :class:`Termination`. A game that never started can only end as
   :attr:`Termination.ABORTED`.

Times are Unix seconds (wall clock, ``time.time()``) in the API and in the
database, and ISO 8601 UTC strings in the exports.

The exports are served to anyone who may read the game (``GET /api/games/{id}``;
who that is: :mod:`boardroom.server.core.record_access`), so they leave out what the record
keeps only for the server: each seat's session (who may reclaim it after a
restart) and the room's private codes (:data:`PRIVATE_OPTIONS`).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from boardroom.shared.games import Game, Player, Position, get_game
from boardroom.shared.games.endings import Termination
from boardroom.shared.i18n import N_, SOURCE_LANGUAGE, _, use_language

__all__ = [
    "PRIVATE_OPTIONS",
    "RECORD_FORMAT",
    "GameRecord",
    "GameState",
    "MoveRecord",
    "PgnResult",
    "PlayerKind",
    "SeatRecord",
    "Termination",
    "public_options",
    "record_to_json",
    "record_to_text",
    "replay",
]

RECORD_FORMAT = 1
"""Version of the JSON layout of :func:`record_to_json`; raised when a key changes
meaning or goes away (new keys may be added without raising it)."""

PRIVATE_OPTIONS: frozenset[str] = frozenset({"join_code", "watch_code"})
"""Room options that are secrets (the codes to take a seat in, or watch, a private
room): stored with the record, never exported."""


class GameState(enum.Enum):
    """Where a game is in its life."""

    WAITING = "waiting"
    """Created; a seat is still empty or the first move is not yet due."""
    PLAYING = "playing"
    """Started: moves are being appended."""
    FINISHED = "finished"
    """Over, with a :class:`Termination`; nothing more is written."""


class PlayerKind(enum.Enum):
    """Who sits in a seat: the one name for it, in the room, its sessions, the
    records and the class roster. The values are the wire's (``SeatInfo.kind``,
    ``hello``'s ``client``). A session or a student is a human or a bot; only a
    seat may be the AI."""

    HUMAN = "human"
    """A person at a client."""
    BOT = "bot"
    """A remote program that said it is a bot."""
    AI = "ai"
    """The server's engine, at a level (:attr:`SeatRecord.ai_level`)."""


class PgnResult(enum.Enum):
    """A game's result as PGN writes it: the one spelling of ``"1-0"`` for the
    records, their exports, the ratings and the tournament tables.

    >>> PgnResult.of(Player.SECOND, Termination.TIMEOUT).value
    '0-1'
    >>> PgnResult.of(None, Termination.AGREEMENT).value
    '1/2-1/2'
    >>> PgnResult.of(None, Termination.ABORTED).value
    '*'
    """

    FIRST_WINS = "1-0"
    """The first player (X) won."""
    SECOND_WINS = "0-1"
    """The second player (O) won."""
    DRAW = "1/2-1/2"
    """A draw: a full board or an agreement."""
    NO_RESULT = "*"
    """Not finished, or finished with nobody winning or drawing (aborted, or
    abandoned by both players)."""

    @classmethod
    def of(cls, winner: Player | None, termination: Termination | None) -> PgnResult:
        """The result of a game won by ``winner`` (None: nobody) that ended by
        ``termination`` (None: not yet)."""
        if winner is not None:
            return cls.FIRST_WINS if winner is Player.FIRST else cls.SECOND_WINS
        if termination is not None and termination.is_draw:
            return cls.DRAW
        return cls.NO_RESULT


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """The player in one seat, as the room reports it when a game starts
    (:class:`~boardroom.server.core.room_output.GameStarted`) and the store keeps it.
    ``ai_level`` names the engine level of an :attr:`PlayerKind.AI` seat
    (``"perfect"``) and is None for anyone else.

    ``session`` is the session id that held a human or bot seat (the room's
    ``ClientId``), so that after a restart its player can reclaim the seat; None
    for the AI, and for seats stored before it was kept. It is private: the
    exports leave it out, and so does ``repr`` (records end up in logs).

    ``player`` is the durable player's public id (:mod:`boardroom.server.core.players`),
    exported as ``player_id``; None for the AI, and for seats stored before
    players were kept whose name matched no player then.
    """

    name: str
    kind: PlayerKind = PlayerKind.HUMAN
    ai_level: str | None = None
    session: str | None = field(default=None, repr=False)
    player: str | None = None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move: ``ply`` is the number of moves before it (0 for the first, so the
    mover is ``Player.to_move_at(ply)``), ``move`` its notation (``"b2"``, ``"4"``), ``at``
    when it was made (Unix seconds) and ``clock_ms`` the mover's time left when
    it moved, in milliseconds, before any increment (as the room's ``MoveMade``
    has it), or None without a clock."""

    ply: int
    move: str
    at: float
    clock_ms: int | None = None
    autopilot: bool = False
    """True if the server's engine made it for an absent player (the room's
    autopilot); exported, and shown in the review."""

    @property
    def side(self) -> Player:
        """The player who made the move."""
        return Player.to_move_at(self.ply)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything stored about one game.

    ``game`` is the canonical game name (``"mnk-5-5-4"`` carries its sizes);
    ``options`` the room's options as given (public or private, who moves first,
    clock settings, and the private codes of :data:`PRIVATE_OPTIONS`), a fresh
    dict per record; ``seats`` is indexed by
    :class:`~boardroom.shared.games.Player`, None for an empty seat; ``moves`` holds plies
    0, 1, 2, ... without gaps. ``winner`` and ``termination`` are set once the
    game is finished (``winner`` stays None for a draw or no result).
    ``number`` is the game's number within its room: 1, then 2, 3, ... for
    rematches (1 for games stored before it was kept).
    """

    id: int
    room: str
    game: str
    options: Mapping[str, Any]
    seats: tuple[SeatRecord | None, SeatRecord | None]
    moves: tuple[MoveRecord, ...]
    state: GameState
    winner: Player | None
    termination: Termination | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    # Last, with a default, so that records built before it existed still build.
    number: int = 1

    @property
    def next_ply(self) -> int:
        """The ply the next move must carry: the number of moves stored."""
        return len(self.moves)

    @property
    def result(self) -> str:
        """The result as in PGN (a :class:`PgnResult` value): ``"1-0"`` (first player
        won), ``"0-1"``, ``"1/2-1/2"`` (draw) or ``"*"`` (unfinished, or no result)."""
        return PgnResult.of(self.winner, self.termination).value


def replay(record: GameRecord) -> Position:
    """The position after every move of ``record``, each checked by the rules.

    Raises :class:`~boardroom.shared.errors.UnknownGameError` or
    :class:`~boardroom.shared.errors.IllegalMoveError` if the record does not replay (a
    damaged or hand-edited database).
    """
    game = get_game(record.game)
    position = game.new()
    for move in record.moves:
        position = game.play_unchecked(position, game.parse_move(position, move.move))
    return position


# -- JSON ------------------------------------------------------------------------------


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The record as a JSON-ready dict, the body of ``GET /api/games/{id}``.

    Every key is always present (null when it does not apply yet)::

        record_format  int     RECORD_FORMAT, the version of this layout
        id             int     the game's id in the store
        room           str     the room code it was played in
        number         int     the game's number in its room (1, 2, ... rematches)
        game, title    str     short name ("mnk-5-5-4") and name for people
        options        object  the room's options, as stored, less the private
                               codes (PRIVATE_OPTIONS)
        state          str     "waiting", "playing" or "finished"
        players        list    two objects, first player (X) then second (O):
                               side ("first"/"second"), symbol ("X"/"O"), name,
                               kind ("human"/"bot"/"ai"), ai_level and player_id
                               (the durable player; null for the AI and
                               unknown players); name and kind are null for an
                               empty seat
        moves          list    {ply, side, move, at, clock_ms, autopilot} per
                               move, in order
        move_string    str     the moves as the game's move string ("4453", "b2 a1")
        board          str     text diagram of the position after the last move
        result         str     "1-0", "0-1", "1/2-1/2" or "*" (as in PGN)
        winner         str     "first", "second" or null
        termination    str     a Termination value ("line", "timeout", ...) or null
        created_at, started_at, finished_at
                       str     ISO 8601 UTC times ("2025-05-01T12:00:00.000Z") or null

    ``at`` of a move is an ISO time too; ``clock_ms`` is the mover's time left
    when it moved in milliseconds (before any increment), or null; ``autopilot``
    is true for a move the server's engine made for an absent player (the room's
    autopilot). Seats' sessions are never included.
    """
    game = get_game(record.game)
    position = replay(record)
    return {
        "record_format": RECORD_FORMAT,
        "id": record.id,
        "room": record.room,
        "number": record.number,
        "game": record.game,
        "title": game.title,
        "options": public_options(record.options),
        "state": record.state.value,
        "players": [_seat_json(side, record.seats[side.number]) for side in Player],
        "moves": [
            {
                "ply": move.ply,
                "side": move.side,
                "move": move.move,
                "at": _iso(move.at),
                "clock_ms": move.clock_ms,
                "autopilot": move.autopilot,
            }
            for move in record.moves
        ],
        "move_string": game.move_string(position),
        "board": game.render(position),
        "result": record.result,
        "winner": record.winner,
        "termination": None if record.termination is None else record.termination.value,
        "created_at": _iso(record.created_at),
        "started_at": _iso(record.started_at),
        "finished_at": _iso(record.finished_at),
    }


def public_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` without the private room codes: what the exports show."""
    return {key: value for key, value in options.items() if key not in PRIVATE_OPTIONS}


def _seat_json(side: Player, seat: SeatRecord | None) -> dict[str, Any]:
    # Field by field, never the whole SeatRecord: its session is private.
    return {
        "side": side,
        "symbol": side.symbol,
        "name": None if seat is None else seat.name,
        "kind": None if seat is None else seat.kind.value,
        "ai_level": None if seat is None else seat.ai_level,
        "player_id": None if seat is None else seat.player,
    }


def _iso(at: float | None) -> str | None:
    if at is None:
        return None
    stamp = datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")
    return stamp.removesuffix("+00:00") + "Z"


# -- text ------------------------------------------------------------------------------


def record_to_text(
    record: GameRecord,
    *,
    time_text: Callable[[float], str] | None = None,
    hints: Mapping[int, str] | None = None,
    language: str = SOURCE_LANGUAGE,
) -> str:
    """The record as a person reads it, in ``language`` (English by default: what
    ``GET /api/games/{id}?format=text`` sends; a class's export speaks the class's
    language): a header (game, players, times, result and
    how it ended), the board after the last move, and the numbered move list with
    the time each move took and, with a clock, the mover's time left::

        Tic-tac-toe (tictactoe), game 7 in room K3F9
        X         ada (human)
        O         Boardroom AI (ai, perfect)
        Options   {"public": true}
        Created   2025-05-01 12:00:00 UTC
        Started   2025-05-01 12:00:05 UTC
        Finished  2025-05-01 12:00:15 UTC
        Result    1-0, X (ada) wins with a line

        3 O . X
        2 O X .
        1 X . .
          a b c

        1. a1 (1.2s)  a2 (0.3s)
        2. b2 (5.0s)  a3 (0.2s)
        3. c3 (2.9s)

    With a clock, each move also shows the mover's time left when it moved:
    ``b2 (5.0s, 4m58s left)``. Private room codes and seats' sessions are left out.

    ``time_text`` writes the header's times (a POSIX time in); by default UTC,
    as above (the class's export writes them in the server's time zone). With
    ``hints`` (the engine's hinted move by ply, as the store keeps them), a
    header line counts each side's hints (``Hints     X (ada) 2, O (bob) 0``)
    and each move played after a hint says what the hint was:
    ``c3 (2.9s, hint c3)``.
    """
    with use_language(language):
        return _record_text(record, time_text, {} if hints is None else hints)


def _record_text(
    record: GameRecord, time_text: Callable[[float], str] | None, hints: Mapping[int, str]
) -> str:
    game = get_game(record.game)
    position = replay(record)
    when = _clock_time if time_text is None else time_text
    labels = {name: _(label) for name, label in _LABELS.items()}
    # The labels' column: 9 wide in English, as wide as the longest label and a space.
    width = max(len(label) for label in labels.values()) + 1
    header = [
        _(
            "{title} ({game}), game {id} in room {room}",
            title=_(game.title),
            game=record.game,
            id=record.id,
            room=record.room,
        ),
        *(f"{side.symbol:<{width}} {_seat_text(record.seats[side.number])}" for side in Player),
        f"{labels['options']:<{width}} "
        f"{json.dumps(public_options(record.options), sort_keys=True)}",
        f"{labels['created']:<{width}} {when(record.created_at)}",
    ]
    if record.started_at is not None:
        header.append(f"{labels['started']:<{width}} {when(record.started_at)}")
    if record.finished_at is not None:
        header.append(f"{labels['finished']:<{width}} {when(record.finished_at)}")
    ending = _ending_text(record, game, position)
    header.append(f"{labels['result']:<{width}} {record.result}, {ending}")
    if hints:
        counts = (
            f"{_player_text(record, side)} {sum(ply % 2 == side.number for ply in hints)}"
            for side in Player
        )
        header.append(f"{labels['hints']:<{width}} {', '.join(counts)}")
    moves = _move_lines(record, hints)
    return "\n".join([*header, "", game.render(position), "", *moves]) + "\n"


_LABELS = {
    "options": N_("Options"),
    "created": N_("Created"),
    "started": N_("Started"),
    "finished": N_("Finished"),
    "result": N_("Result"),
    "hints": N_("Hints"),
}
"""The header's labels of a text record."""

_KINDS = {PlayerKind.HUMAN: N_("human"), PlayerKind.AI: N_("ai"), PlayerKind.BOT: N_("bot")}
"""A seat's kind (a code) in words."""


def _seat_text(seat: SeatRecord | None) -> str:
    if seat is None:
        return _("(empty seat)")
    kind = _(_KINDS[seat.kind]) if seat.kind in _KINDS else seat.kind.value
    if seat.ai_level is not None:
        level = _(_LEVELS[seat.ai_level]) if seat.ai_level in _LEVELS else seat.ai_level
        return f"{_seat_name(seat)} ({kind}, {level})"
    return f"{_seat_name(seat)} ({kind})"


_LEVELS = {
    "random": N_("random"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "perfect": N_("perfect"),
}
"""The AI's levels (codes) in words."""


def _seat_name(seat: SeatRecord) -> str:
    """The name of the player in ``seat``: the AI's (``AI (hard)``) in the reader's
    language (the catalogue has its names), anyone else's as it is."""
    return _(seat.name) if seat.kind is PlayerKind.AI and seat.name else seat.name


def _player_text(record: GameRecord, side: Player) -> str:
    seat = record.seats[side.number]
    return side.symbol if seat is None else f"{side.symbol} ({_seat_name(seat)})"


def _ending_text(record: GameRecord, game: Game, position: Position) -> str:
    termination, winner = record.termination, record.winner
    if termination is None:
        if record.state is GameState.WAITING:
            return _("waiting for the game to start")
        return _(
            "in progress, {player} to move",
            player=_player_text(record, game.to_move(position)),
        )
    if winner is None:
        return _(_DRAWN.get(termination, _ABORTED))
    words = _WON.get(termination)
    if words is None:
        return _(
            "{winner} wins ({termination})",
            winner=_player_text(record, winner),
            termination=termination.value,
        )
    return _(words, winner=_player_text(record, winner), loser=_player_text(record, winner.other))


_DRAWN = {
    Termination.FULL_BOARD: N_("draw, the board is full"),
    Termination.AGREEMENT: N_("draw by agreement"),
    Termination.COUNT: N_("draw, equal count"),
    Termination.ABANDONMENT: N_("no result, both players left"),
}
_WON = {
    Termination.LINE: N_("{winner} wins with a line"),
    Termination.COUNT: N_("{winner} wins on count"),
    Termination.NO_MOVES: N_("{winner} wins as {loser} had no move"),
    Termination.RESIGNATION: N_("{winner} wins as {loser} resigned"),
    Termination.TIMEOUT: N_("{winner} wins as {loser} ran out of time"),
    Termination.ABANDONMENT: N_("{winner} wins as {loser} left the game"),
}
"""How a game ended, in words: drawn (or no result), and won."""
_ABORTED = N_("no result, aborted")


def _move_lines(record: GameRecord, hints: Mapping[int, str]) -> list[str]:
    if not record.moves:
        return [_("(no moves)")]
    shown = []
    previous = record.started_at
    for ply, move in enumerate(record.moves):
        details = []
        if previous is not None:
            details.append(_duration(move.at - previous))
        if move.clock_ms is not None:
            details.append(_("{time} left", time=_duration(move.clock_ms / 1000)))
        if ply in hints:
            details.append(_("hint {move}", move=hints[ply]))
        if move.autopilot:
            details.append(_("played by the engine"))
        shown.append(f"{move.move} ({', '.join(details)})" if details else move.move)
        previous = move.at
    width = len(str((len(shown) + 1) // 2))
    return [
        f"{number:>{width}}. {'  '.join(shown[index : index + 2])}"
        for number, index in enumerate(range(0, len(shown), 2), start=1)
    ]


def _duration(seconds: float) -> str:
    """``"3.2s"``, ``"4m05s"``, ``"1h02m"``: short, and exact enough for people."""
    seconds = max(seconds, 0.0)
    if round(seconds, 1) < 60:
        return f"{seconds:.1f}s"
    whole = round(seconds)  # 59.97 s is "1m00s", not "0m60s" nor "0m59s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def _clock_time(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
