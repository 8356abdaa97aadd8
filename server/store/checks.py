"""The checks both stores (SQLite's and PostgreSQL's) make: of the arguments, before
any transaction, so that a refused write touches nothing (each raises
:class:`InvalidRecordError`), and of what a transaction read, before it writes
(the refusals of a game's state: :class:`GameStateError`, :class:`StaleWriteError`).
They also turn arguments into the rows both databases store, in one column order."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from boardroom.server.core.players import PlayerRecord
from boardroom.server.core.records import GameState, PlayerKind, SeatRecord, Termination
from boardroom.server.store.errors import (
    GameNotFoundError,
    GameStateError,
    InvalidRecordError,
    StaleWriteError,
    StoreError,
)
from boardroom.server.store.rows import (
    ClassCodeRecord,
    EntrantRecord,
    PairingRecord,
    StudentRecord,
    TournamentRecord,
)
from boardroom.shared.errors import GameError
from boardroom.shared.games import Player, get_game


def check_time(name: str, at: object) -> float:
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at) or at < 0:
        raise InvalidRecordError(f"{name} must be a time in Unix seconds (time.time()), not {at!r}")
    return float(at)


def options_json(options: Mapping[str, Any] | None) -> str:
    if options is None:
        return "{}"
    if not isinstance(options, Mapping) or not all(isinstance(key, str) for key in options):
        raise InvalidRecordError(f"options must be a JSON object with string keys, not {options!r}")
    try:
        return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidRecordError(f"options must be JSON: {error}") from error


# -- games --------------------------------------------------------------------------------


def check_game_id(game_id: object) -> None:
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        raise InvalidRecordError(f"a game id is an int, not {game_id!r}")


def check_side(side: object) -> Player:
    if isinstance(side, Player):
        return side
    if isinstance(side, int) and not isinstance(side, bool) and side in (0, 1):
        return Player.numbered(side)
    raise InvalidRecordError(f"a seat is Player.FIRST or Player.SECOND, not {side!r}")


def canonical_game(game: object) -> str:
    if not isinstance(game, str):
        raise InvalidRecordError(f"game must be a game name, not {game!r}")
    try:
        return get_game(game).name
    except GameError as error:
        raise InvalidRecordError(str(error)) from error


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game's row and seats' rows, checked (see ``create_game``)."""

    room: str
    number: int
    game: str
    options: str
    state: GameState
    created_at: float
    started_at: float | None
    seats: list[tuple[int, str, str, str | None, str | None, str | None]]

    @property
    def row(self) -> tuple[object, ...]:
        """``room, number, game, options, state, created_at, started_at``."""
        return (
            self.room,
            self.number,
            self.game,
            self.options,
            self.state.value,
            self.created_at,
            self.started_at,
        )


def new_game(
    room: object,
    game: object,
    seats: Sequence[SeatRecord | None],
    options: Mapping[str, Any] | None,
    at: object,
    number: object,
    started_at: object,
) -> NewGame:
    """The checked rows of ``create_game``'s arguments (:class:`InvalidRecordError`)."""
    if not isinstance(room, str) or not room:
        raise InvalidRecordError(f"room must be a non-empty string, not {room!r}")
    name = canonical_game(game)
    seat_rows = seat_rows_of(seats)
    options_text = options_json(options)
    created_at = check_time("at", at)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InvalidRecordError(f"number must be an int of at least 1, not {number!r}")
    state, start = GameState.WAITING, None
    if started_at is not None:
        state, start = GameState.PLAYING, check_time("started_at", started_at)
        if len(seat_rows) != 2:
            raise InvalidRecordError("a game created already started needs both seats taken")
    return NewGame(room, number, name, options_text, state, created_at, start, seat_rows)


def seat_rows_of(
    seats: Sequence[SeatRecord | None],
) -> list[tuple[int, str, str, str | None, str | None, str | None]]:
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or len(seats) != 2:
        raise InvalidRecordError(
            f"seats must be two entries (first player's, second's), SeatRecord or None, "
            f"not {seats!r}"
        )
    return [(side, *seat_row(seat)) for side, seat in enumerate(seats) if seat is not None]


def seat_row(seat: SeatRecord) -> tuple[str, str, str | None, str | None, str | None]:
    """``name, kind, ai_level, session, player`` of a seat, checked."""
    if not isinstance(seat, SeatRecord):
        raise InvalidRecordError(f"a seat is a SeatRecord or None, not {seat!r}")
    if not isinstance(seat.name, str) or not seat.name.strip():
        raise InvalidRecordError(f"a player's name must be a non-empty string, not {seat.name!r}")
    if not isinstance(seat.kind, PlayerKind):
        raise InvalidRecordError(f"a player's kind must be a PlayerKind, not {seat.kind!r}")
    is_ai = seat.kind is PlayerKind.AI
    if is_ai != (isinstance(seat.ai_level, str) and bool(seat.ai_level)):
        raise InvalidRecordError(
            "an AI seat needs its level (ai_level) and no other seat may have one; "
            f"got kind {seat.kind.value!r} with ai_level {seat.ai_level!r}"
        )
    # A session is who may reclaim the seat: the server's AI is nobody's to reclaim.
    # The messages leave the session's value out: it is private, and errors get logged.
    if seat.session is not None and is_ai:
        raise InvalidRecordError("an AI seat has no session (session must be None)")
    if seat.session is not None and (not isinstance(seat.session, str) or not seat.session):
        raise InvalidRecordError("a seat's session must be None or a non-empty string")
    # The player must be stored already (a foreign key): the hub stores it at its hello.
    if seat.player is not None and (is_ai or not isinstance(seat.player, str) or not seat.player):
        raise InvalidRecordError(
            f"a seat's player must be None or, for a human or bot, a player id, not {seat.player!r}"
        )
    return (seat.name, seat.kind.value, seat.ai_level, seat.session, seat.player)


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move checked and waiting for the next group commit, and the future its
    caller awaits (``append_move``); with ``ending``, the game's end it brings
    (``append_final_move``: the winner's side as stored, how, when), written with
    it, both or neither."""

    game_id: int
    ply: int
    move: str
    at: float
    clock_ms: int | None
    stored: asyncio.Future[None]
    autopilot: bool = False
    ending: tuple[int | None, Termination, float] | None = None


_WHITESPACE: Final = re.compile(r"\s")
"""A character ``str.isspace`` calls whitespace (what ``\\s`` matches in a str
pattern), found in C: a move's notation is checked on every move."""


def pending_move(
    game_id: object,
    ply: object,
    move: object,
    at: object,
    clock_ms: object,
    autopilot: object,
    ending: tuple[int | None, Termination, float] | None = None,
) -> PendingMove:
    """``append_move``'s arguments, checked, with a new future to await (``ending``:
    ``append_final_move``'s end, checked already)."""
    check_game_id(game_id)
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise InvalidRecordError(f"ply must be an int of at least 0, not {ply!r}")
    if not isinstance(move, str) or not move or _WHITESPACE.search(move):
        raise InvalidRecordError(
            f"move must be one move's notation, non-empty and without spaces, not {move!r}"
        )
    made_at = check_time("at", at)
    if clock_ms is not None and (
        not isinstance(clock_ms, int) or isinstance(clock_ms, bool) or clock_ms < 0
    ):
        raise InvalidRecordError(f"clock_ms must be None or an int >= 0, not {clock_ms!r}")
    if not isinstance(autopilot, bool):
        raise InvalidRecordError(f"autopilot must be True or False, not {autopilot!r}")
    assert isinstance(game_id, int)  # checked above
    stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    return PendingMove(game_id, ply, move, made_at, clock_ms, stored, autopilot, ending)


def move_refusal(pending: PendingMove, state: str | None, expected_ply: int) -> StoreError | None:
    """Why a move cannot be appended to its game, in ``state`` (None: no such
    game) with ``expected_ply`` next, read in the batch's transaction; None if it can."""
    game_id = pending.game_id
    if state is None:
        return GameNotFoundError(game_id)
    if GameState(state) is not GameState.PLAYING:
        return GameStateError(f"game {game_id} is {state}: moves are added only to a game in play")
    if pending.ply != expected_ply:
        return StaleWriteError(game_id, pending.ply, expected_ply)
    return None


def game_state(game_id: int, state: str | None) -> GameState:
    """The state read of game ``game_id`` (None: :class:`GameNotFoundError`)."""
    if state is None:
        raise GameNotFoundError(game_id)
    return GameState(state)


def check_seat_change(game_id: int, state: GameState) -> None:
    if state is not GameState.WAITING:
        raise GameStateError(
            f"game {game_id} is {state.value}: seats can change only before it starts"
        )


def check_start(game_id: int, state: GameState, seated: int) -> None:
    if state is not GameState.WAITING:
        raise GameStateError(f"game {game_id} is {state.value}: it cannot start again")
    if seated != 2:
        raise GameStateError(f"game {game_id} cannot start with an empty seat")


def check_ending(winner: object, termination: object) -> int | None:
    """``finish_game``'s ``winner`` as stored (0, 1 or None), checked against ``termination``."""
    if not isinstance(termination, Termination):
        raise InvalidRecordError(f"termination must be a Termination, not {termination!r}")
    side = None if winner is None else check_side(winner)
    if not termination.allows(side):
        having = "no winner" if side is None else f"a winner ({side.symbol})"
        raise InvalidRecordError(f"a game ended by {termination.value} cannot have {having}")
    return None if side is None else side.number


def check_finish(game_id: int, state: GameState, termination: Termination) -> None:
    if state is GameState.FINISHED:
        raise GameStateError(f"game {game_id} is already finished")
    if state is GameState.WAITING and termination is not Termination.ABORTED:
        raise GameStateError(
            f"game {game_id} never started: it can end only as aborted, not by {termination.value}"
        )


# -- players and students -----------------------------------------------------------------


def is_hash(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def player_row(player: PlayerRecord, token_hash: str | None) -> tuple[object, ...]:
    """The players row (``id, token_hash, name, kind, created_at, last_seen``) of a
    new player, checked (see ``add_player``)."""
    if not isinstance(player, PlayerRecord):
        raise InvalidRecordError(f"a player is a PlayerRecord, not {player!r}")
    if player.kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
        raise InvalidRecordError(f"a player is a human or a bot, not {player.kind!r}")
    if not isinstance(player.name, str) or not player.name.strip():
        raise InvalidRecordError(f"a player's name must be non-empty, not {player.name!r}")
    if token_hash is not None and not is_hash(token_hash):
        raise InvalidRecordError("a token hash is 64 lower-case hex digits")
    return (
        player.id,
        token_hash,
        player.name,
        player.kind.value,
        check_time("created_at", player.created_at),
        None if player.last_seen is None else check_time("last_seen", player.last_seen),
    )


def player_not_new(row: Sequence[object]) -> InvalidRecordError:
    # The message leaves the hash out: errors get logged.
    return InvalidRecordError(f"player {row[0]!r} is not new (its id or token is stored already)")


def student_row(student: StudentRecord) -> tuple[object, ...]:
    """The students row (``id, class, player, name, kind, removed, first_seen,
    merged_into, session``) of a new student, checked (see ``add_student``)."""
    if not isinstance(student, StudentRecord):
        raise InvalidRecordError(f"a student is a StudentRecord, not {student!r}")
    if student.kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
        raise InvalidRecordError(f"a student is a human or a bot, not {student.kind!r}")
    if not all((student.id, student.class_name, student.player, student.name.strip())):
        raise InvalidRecordError("a student needs an id, a class, a player and a name")
    return (
        student.id,
        student.class_name,
        student.player,
        student.name,
        student.kind.value,
        int(student.removed),
        check_time("first_seen", student.first_seen),
        student.merged_into,
        student.session or None,
    )


def student_not_new(row: Sequence[object]) -> InvalidRecordError:
    return InvalidRecordError(
        f"student {row[0]!r} is not new (its id, or its player on the roster of "
        f"{row[1]!r}, is stored already), or player {row[2]!r} is unknown"
    )


def enrolment(
    accounts: Sequence[tuple[PlayerRecord, str, StudentRecord]],
) -> list[tuple[tuple[object, ...], tuple[object, ...]]]:
    """The players' and students' rows of ``enrol``'s accounts, checked."""
    rows = [
        (player_row(player, token_hash), student_row(student))
        for player, token_hash, student in accounts
    ]
    for player, _, student in accounts:
        if student.player != player.id:
            raise InvalidRecordError(f"student {student.id!r} is not player {player.id!r}")
    return rows


def class_code_row(code: ClassCodeRecord) -> tuple[str, str, str]:
    """The class_codes row (``lookup, student, sealed``) of a code, checked."""
    if not isinstance(code, ClassCodeRecord):
        raise InvalidRecordError(f"a class code is a ClassCodeRecord, not {code!r}")
    lookup_ok = len(code.lookup) == 64 and all(c in "0123456789abcdef" for c in code.lookup)
    if not (lookup_ok and code.student and code.sealed):
        raise InvalidRecordError(
            "a class code needs a student, 64 hex digits to find it, and a seal"
        )
    return (code.lookup, code.student, code.sealed)


def class_codes_of(
    students: Sequence[StudentRecord], codes: Sequence[ClassCodeRecord]
) -> list[tuple[str, str, str]]:
    """``enrol``'s codes as rows, checked: each of a student being enrolled, one each."""
    ids = {student.id for student in students}
    rows = [class_code_row(code) for code in codes]
    if any(code.student not in ids for code in codes) or len({c.student for c in codes}) < len(
        codes
    ):
        raise InvalidRecordError("each class code must be of a student enrolled with it, one each")
    return rows


def student_changes(
    name: str | None, kind: PlayerKind | None, removed: bool | None
) -> dict[str, object]:
    """``update_student``'s changes by column (fixed names: no outside text reaches the SQL)."""
    changes: dict[str, object] = {}
    if name is not None:
        if not isinstance(name, str) or not name.strip():
            raise InvalidRecordError(f"a student's name must be non-empty, not {name!r}")
        changes["name"] = name
    if kind is not None:
        if kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
            raise InvalidRecordError(f"a student is a human or a bot, not {kind!r}")
        changes["kind"] = kind.value
    if removed is not None:
        changes["removed"] = int(bool(removed))
    return changes


def pairing_changes(
    room: str | None, starts_by: float | None, game_id: int | None, result: str | None
) -> dict[str, object]:
    """``update_pairing``'s changes by column (fixed names: no outside text reaches the SQL)."""
    changes: dict[str, object] = {}
    if room is not None:
        changes["room"] = room
    if starts_by is not None:
        changes["starts_by"] = check_time("starts_by", starts_by)
    if game_id is not None:
        changes["game_id"] = game_id
    if result is not None:
        changes["result"] = result
    return changes


# -- tournaments --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A new tournament's row and its entrants' rows (``create_tournament``), and
    the record it makes once stored (:meth:`stored`). The values the schema
    checks (format, rounds, name's length...) are left to it."""

    row: tuple[object, ...]
    """``class, name, game, format, rounds, double, clock, no_show_seconds,
    created_at, hints, autopilot``."""
    entrants: list[tuple[int, str, str, str]]
    """``seed, entrant, name, kind``, in seed order."""
    record: TournamentRecord

    def stored(self, tournament_id: int) -> TournamentRecord:
        """The record of the tournament stored under ``tournament_id``."""
        return dataclasses.replace(self.record, id=tournament_id)


def new_tournament(
    class_name: str,
    name: str,
    game: str,
    format: str,
    rounds: int,
    double: bool,
    clock: Mapping[str, Any],
    no_show_seconds: float,
    entrants: Sequence[EntrantRecord],
    at: float,
    hints: bool,
    autopilot: str = "off",
) -> NewTournament:
    clock_text = options_json(clock)
    created_at = check_time("at", at)
    row = (class_name, name, game, format, rounds, int(double), clock_text)
    record = TournamentRecord(
        id=0,
        class_name=class_name,
        name=name,
        game=game,
        format=format,
        rounds=rounds,
        double=double,
        clock=dict(clock),
        no_show_seconds=no_show_seconds,
        status="running",
        created_at=created_at,
        finished_at=None,
        entrants=tuple(entrants),
        byes={},
        hints=hints,
        autopilot=autopilot,
        pairings=(),
    )
    return NewTournament(
        (*row, no_show_seconds, created_at, int(hints), autopilot),
        [(seed, e.entrant, e.name, e.kind.value) for seed, e in enumerate(entrants, start=1)],
        record,
    )


def pairing_rows(pairings: Sequence[PairingRecord]) -> list[tuple[object, ...]]:
    """``board, first, second, room, game_id, starts_by, result`` of each pairing of a round."""
    return [
        (p.board, p.first, p.second, p.room, p.game_id, p.starts_by, p.result) for p in pairings
    ]
