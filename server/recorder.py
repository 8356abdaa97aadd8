"""The adapter between a room's persistence events and the game store.

A :class:`~boardroom.server.core.room.Room` returns, with each
:class:`~boardroom.server.core.room_output.Output`, the events to persist (:class:`GameStarted`,
:class:`MoveMade`, :class:`GameFinished`).
:class:`GameRecorder` writes them to a store (:data:`~boardroom.server.store.Store`) and, after a
crash, rebuilds the rooms from what it wrote.

The contract:

- :meth:`GameRecorder.persist` writes one output's events **in order**, each in
  its own transaction but a move with the end of the game it brings, both in one
  (:func:`~boardroom.server.core.room_output.write_units`), and returns only
  once every one is durable (it survives a SIGKILL or a power cut). The server
  sends the output's messages after that, so no client ever sees a move that a
  crash could lose. If a write fails, the exception propagates and the events
  after it are not written; those before it stay written.
- A game is stored when it starts (:class:`GameStarted`), already playing, in one
  transaction: a room waiting for its players leaves nothing in the store.
- Games are stored by an integer id; the recorder keeps the map from (room code,
  game number) to that id for the games in play (:meth:`~GameRecorder.game_id`).

What :meth:`GameRecorder.restore_rooms` brings back after a restart: every room
with a game in play, as :meth:`Room.restore <boardroom.server.core.room.Room.restore>` rebuilds
it: the game and its number, its moves, its options, its seats (each human or bot
seat held for its session, so its player reclaims it by resuming that session),
and with an increment clock the time each side had left (a per-move clock starts
afresh). A game whose last move was stored but not its end comes back finished,
and the room's ``resume_after_restart`` emits the missing :class:`GameFinished`.

What it does not bring back: draw offers and rematch requests (never stored;
they start afresh), spectators and chat, rooms still waiting for a player,
rooms whose last game had finished, and the connections themselves (players
resume with their token). Records it cannot replay are ended as aborted, with
a warning in the log, and skipped.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from boardroom.server.core.records import GameRecord, GameState, SeatRecord, Termination
from boardroom.server.core.room import Room, RoomOptions
from boardroom.server.core.room_output import (
    GameFinished,
    GameStarted,
    HintGiven,
    MoveMade,
    PersistEvent,
    write_units,
)
from boardroom.server.store import GameStateError, StaleWriteError, Store
from boardroom.shared.errors import GameError
from boardroom.shared.games import Player

__all__ = [
    "GameRecorder",
    "RestoredRoom",
    "UnrecordedGameError",
    "options_from_json",
    "options_to_json",
]

logger = logging.getLogger(__name__)

_OPTION_KEYS: Final = (
    "public",
    "creator_seat",
    "clock",
    "grace_seconds",
    "join_code",
    "watch_code",
    "tournament",
    "ai_match",
    "ai_pace",
    "hints",
    "spectator_delay",
    "spectator_delay_seconds",
    "autopilot",
)


class UnrecordedGameError(LookupError):
    """A move or an end for a game this recorder never stored (or already
    finished): the room and the recorder disagree, and nothing is written."""


@dataclass(frozen=True, slots=True)
class RestoredRoom:
    """A room rebuilt from the store, paused (see :meth:`Room.restore
    <boardroom.server.core.room.Room.restore>`), and the id of its game in play."""

    room: Room
    game_id: int


# -- options ------------------------------------------------------------------------


def options_to_json(options: RoomOptions) -> dict[str, Any]:
    """``options`` as a JSON object for the store: ``public``, ``creator_seat``,
    ``clock`` (the protocol's ``Clock`` as builtins), ``grace_seconds``,
    ``join_code`` and ``watch_code``, ``tournament: true`` (and its ``hints``,
    ``spectator_delay`` and any ``spectator_delay_seconds``) for a tournament
    room, ``ai_match: true`` with ``ai_pace`` for an AI match, and
    ``autopilot`` (its level) when the room has one. The codes are private: the
    record's exports leave them out
    (:data:`boardroom.server.core.records.PRIVATE_OPTIONS`). A tournament room's reserved
    sessions are not stored: a game is stored once both seats are taken, so a
    restored room needs no reservation (and sessions never go into a record's
    options, which are exported)."""
    data: dict[str, Any] = {
        "public": options.public,
        "creator_seat": options.creator_seat,
        "clock": msgspec.to_builtins(options.clock),
        "grace_seconds": options.grace_seconds,
        "join_code": options.join_code,
        "watch_code": options.watch_code,
    }
    if options.tournament:
        data["tournament"] = True
        data["hints"] = options.hints  # its tournament's switch (the class's is not kept)
        data["spectator_delay"] = options.spectator_delay
        if options.spectator_delay_seconds:  # a delay by seconds instead (left out otherwise)
            data["spectator_delay_seconds"] = options.spectator_delay_seconds
    if options.ai_match:
        data["ai_match"] = True
        data["ai_pace"] = options.ai_pace
    if options.autopilot is not None:
        data["autopilot"] = options.autopilot.value  # kept across a restart
    return data


def options_from_json(data: Mapping[str, Any]) -> RoomOptions:
    """The :class:`RoomOptions` that :func:`options_to_json` gave ``data`` for.

    A missing key takes the option's default and unknown keys are ignored, so
    records written with fewer or more options still load. Raises ``ValueError``
    (naming the option) for a value of the wrong type or options that do not fit
    together.
    """
    known = {key: data[key] for key in _OPTION_KEYS if key in data}
    if known.get("tournament") and "hints" not in known:
        known["hints"] = False  # stored before tournaments had hints: they had none
    try:
        # convert checks every type (Clock included) and runs RoomOptions' own checks.
        return msgspec.convert(known, RoomOptions)
    except msgspec.ValidationError as error:
        raise ValueError(f"stored room options do not load: {error}") from error


# -- the recorder ---------------------------------------------------------------------


class GameRecorder:
    """Writes room events to ``store`` and rebuilds rooms from it (see the
    module docstring). One per server, used from the event loop; calls for one
    room must come in the room's order (the server serialises each room)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        # (room code, game number) -> id, for the games in play.
        self._ids: dict[tuple[str, int], int] = {}

    def game_id(self, room: str, game_number: int) -> int | None:
        """The store's id of game ``game_number`` of ``room``, while it is in play."""
        return self._ids.get((room, game_number))

    def forget(self, room: str) -> None:
        """Drop what is kept about ``room`` (call when the server drops the room:
        its codes may be given out again). The store keeps its games."""
        for key in [key for key in self._ids if key[0] == room]:
            del self._ids[key]

    async def persist(self, options: RoomOptions, events: Sequence[PersistEvent]) -> None:
        """Write ``events`` (one output's, of a room with ``options``), in order,
        and return once they are durable. Store errors propagate, and so does
        :class:`UnrecordedGameError` for a move or an end of a game not in play here;
        the events before the failing one stay written. A move followed by the end
        of its game is written with that end, both or neither, in one transaction
        (:func:`write_units`)."""
        for unit in write_units(events):
            match unit:  # the commonest first: a move alone, then a game's last
                case (MoveMade() as event,):
                    game_id = self._id_of(event.room, event.game_number, "a move")
                    try:
                        await self._store.append_move(
                            game_id,
                            event.ply,
                            event.move_text,
                            event.at,
                            event.clock_ms,
                            autopilot=event.autopilot,
                        )
                    except StaleWriteError:
                        if not await self._move_stored(game_id, event):
                            raise
                case (MoveMade() as move, GameFinished() as end):
                    await self._final_move(move, end)
                case (GameStarted() as event,):
                    game_id = await self._store.create_game(
                        event.room,
                        event.game,
                        event.seats,
                        number=event.game_number,
                        options=options_to_json(options),
                        at=event.at,
                        started_at=event.at,
                    )
                    self._ids[event.room, event.game_number] = game_id
                case (GameFinished() as event,):
                    await self._finish(self._id_of(event.room, event.game_number, "the end"), event)
                case (HintGiven() as event,):
                    game_id = self._id_of(event.room, event.game_number, "a hint")
                    await self._store.add_hint(game_id, event.ply, event.move_text, event.at)
                case _:
                    raise TypeError(f"not persistence events: {unit!r}")

    async def _final_move(self, move: MoveMade, end: GameFinished) -> None:
        """The move that ends its game and that end, in one write."""
        game_id = self._id_of(move.room, move.game_number, "a move")
        try:
            await self._store.append_final_move(
                game_id,
                move.ply,
                move.move_text,
                move.at,
                move.clock_ms,
                autopilot=move.autopilot,
                winner=end.winner,
                termination=end.reason,
                finished_at=end.at,
            )
        except (StaleWriteError, GameStateError):
            # Stored already by a write whose answer was lost (sent again)? The move
            # is, or this is a real refusal; its end is then stored as an end alone.
            if not await self._move_stored(game_id, move):
                raise
            await self._finish(game_id, end)
            return
        # Only once stored: a failed write leaves the game in play here too.
        del self._ids[end.room, end.game_number]

    async def _finish(self, game_id: int, event: GameFinished) -> None:
        """Store the end of the game ``game_id``, or find it stored already."""
        try:
            await self._store.finish_game(game_id, event.winner, event.reason, event.at)
        except GameStateError:
            record = await self._store.get_game(game_id)
            ended = record.state is GameState.FINISHED
            if not ended or record.termination != event.reason:
                raise
            logger.info("game %d: its end was stored already", game_id)
        # Only once stored: a failed write leaves the game in play here too.
        del self._ids[event.room, event.game_number]

    async def _move_stored(self, game_id: int, event: MoveMade) -> bool:
        """Whether ``event``'s move is the one stored at its ply already: a write
        whose commit went through although its answer was lost (the database
        stopped or the connection cut at that moment, refused as unavailable),
        sent again. That is the move stored; any other at that ply is not."""
        record = await self._store.get_game(game_id)
        if event.ply >= len(record.moves) or record.moves[event.ply].move != event.move_text:
            return False
        logger.info("game %d: the move of ply %d was stored already", game_id, event.ply)
        return True

    def _id_of(self, room: str, game_number: int, what: str) -> int:
        game_id = self._ids.get((room, game_number))
        if game_id is None:
            raise UnrecordedGameError(
                f"cannot store {what} of game {game_number} of room {room}: "
                "that game was never stored as started, or is already finished"
            )
        return game_id

    async def restore_rooms(
        self,
        rng_for: Callable[[str], random.Random],
        *,
        which: Callable[[str], Awaitable[bool]] | None = None,
    ) -> list[RestoredRoom]:
        """Rebuild every room that had a game in play, oldest first, and take
        their games back into the id map; ``rng_for(code)`` gives each room its
        random source. Each room is paused: the server calls its
        ``resume_after_restart`` once it accepts connections.

        ``which(code)``, if given, is asked once for each room with an unfinished
        game, before anything is done to its games: a room it refuses is left
        exactly as it is (in a cluster, another live process holds it).

        Games that cannot come back are finished as aborted in the store and
        skipped: waiting ones (left by an older server), ones that do not replay
        (logged as a warning with their id), and any older game still open in a
        room that has a newer one. Their end time is the last time in their
        record: the moment nothing more is known to have happened. Only store
        errors propagate.
        """
        records = await self._store.unfinished_games()
        if which is not None:
            taken = {code: await which(code) for code in dict.fromkeys(r.room for r in records)}
            records = [record for record in records if taken[record.room]]
        # The newest open game of each room is its current one; older ones can only
        # be left by an end whose write failed.
        newest: dict[str, int] = {}
        for record in records:
            if record.state is GameState.PLAYING:
                newest[record.room] = record.id
        restored = []
        for record in records:
            if record.state is not GameState.PLAYING:
                await self._abort(record, "it never started")
                continue
            if newest[record.room] != record.id:
                await self._abort(record, "its room has a newer game in play")
                continue
            try:
                room = _restore_room(record, rng_for(record.room))
            except (ValueError, GameError) as error:
                logger.warning(
                    "game %d (room %s, game %d) does not replay, aborting it: %s",
                    record.id,
                    record.room,
                    record.number,
                    error,
                )
                await self._abort(record, "it does not replay")
                continue
            self._ids[record.room, record.number] = record.id
            restored.append(RestoredRoom(room, record.id))
        return restored

    async def _abort(self, record: GameRecord, why: str) -> None:
        logger.info("game %d (room %s): aborted at restart, as %s", record.id, record.room, why)
        times = [record.created_at, record.started_at, *(move.at for move in record.moves)]
        ended = max(at for at in times if at is not None)
        await self._store.finish_game(record.id, None, Termination.ABORTED, ended)


# -- conversions ----------------------------------------------------------------------


def _seat(record: GameRecord, side: Player) -> SeatRecord:
    """Who sat in ``side``; ValueError for an empty seat (the room checks the rest)."""
    seat = record.seats[side.number]
    if seat is None:
        raise ValueError(f"seat {side} is empty in a game in play")
    return seat


def _restore_room(record: GameRecord, rng: random.Random) -> Room:
    """``record``, a game in play, replayed into a paused room. Raises
    ``ValueError`` or :class:`~boardroom.shared.errors.GameError` if it does not replay."""
    assert record.started_at is not None  # the schema's CHECK, for a game in play
    started = GameStarted(
        room=record.room,
        game=record.game,
        game_number=record.number,
        seats=(_seat(record, Player.FIRST), _seat(record, Player.SECOND)),
        at=record.started_at,
    )
    moves = [
        MoveMade(
            room=record.room,
            game_number=record.number,
            ply=move.ply,
            side=Player.to_move_at(move.ply),
            move_text=move.move,
            at=move.at,
            clock_ms=move.clock_ms,
            autopilot=move.autopilot,
        )
        for move in record.moves
    ]
    return Room.restore(
        options=options_from_json(record.options),
        started=started,
        moves=moves,
        finished=None,
        rng=rng,
    )
