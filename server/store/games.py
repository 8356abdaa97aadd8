"""The games: created, seated, started, each move, finished; read back whole, and
every unfinished game restored after a restart. The methods, their contracts and
their checks, and the group commit of moves, for either backend.

:meth:`GamesStorage.append_move` makes the store's first promise: when it returns,
the move survives a SIGKILL of the server and a power cut. Moves appended while a
write is under way are committed together in the next transaction (group commit:
one flush for the lot), each caller still returning only once its own move is on
disk; a refused move in such a batch fails alone. A game's creation and its end
join the same group commit (issue 29: alone, they were two fsyncs of their own a
game), each refused or failed alone too; and the move that ends a game is written
with that end, both or neither (:meth:`GamesStorage.append_final_move`): a game
that ends on a move costs one transaction for both, not two.

Records are append-only (see :mod:`boardroom.server.core.records` for the order they are
written in); each backend's schema holds the same rules.
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from boardroom.server.core.records import GameRecord, GameState, SeatRecord, Termination
from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.checks import (
    NewGame,
    PendingMove,
    check_ending,
    check_game_id,
    check_side,
    check_time,
    new_game,
    pending_move,
    seat_row,
)
from boardroom.server.store.errors import GameNotFoundError, StoreError
from boardroom.server.store.rows import GAME_COLUMNS
from boardroom.shared.games import Player

__all__ = [
    "BatchResult",
    "Ending",
    "GamesOf",
    "GamesStorage",
    "PendingEnd",
    "PendingGame",
    "PendingWrite",
    "SeatRow",
    "game_queries",
]

GamesOf = Literal["id", "unfinished", "class"]
"""Which games a read selects: the one of an id, every one waiting or in play, or
every one a student of a class (its name the parameter) held a seat in. Each
backend turns it into a fixed clause of its own: no text from outside reaches the SQL."""

SeatRow = tuple[str, str, str | None, str | None, str | None]
"""A seat's ``name, kind, ai_level, session, player``, checked."""

Ending = tuple[int | None, Termination, float]
"""How a game ended, checked: the winner's side (None: no winner), the
termination, and when."""

_WHERE: dict[GamesOf, str] = {
    "id": "g.id = {0}",
    "unfinished": "g.state <> 'finished'",
    "class": "g.id IN (SELECT s.game_id FROM seats s JOIN students st"
    " ON st.player = s.player WHERE st.class = {0})",
}


def _batch_name(batch: Sequence[PendingWrite]) -> str:
    """What a group commit stores, for its errors: ``storing 3 moves, 1 new game``."""
    moves = sum(isinstance(pending, PendingMove) for pending in batch)
    games = sum(isinstance(pending, PendingGame) for pending in batch)
    ends = sum(
        isinstance(pending, PendingEnd)
        or (isinstance(pending, PendingMove) and pending.ending is not None)
        for pending in batch
    )
    parts = [
        f"{count} {one if count == 1 else many}"
        for count, one, many in (
            (moves, "move", "moves"),
            (games, "new game", "new games"),
            (ends, "game's end", "games' ends"),
        )
        if count
    ]
    return "storing " + ", ".join(parts)


def game_queries(which: GamesOf, parameter: str) -> tuple[str, str, str]:
    """The queries of the games ``which`` selects, their seats and their moves
    (the rows :func:`~boardroom.server.store.rows.game_records` takes), with ``parameter``
    (the backend's spelling of the first parameter: ``?``, ``$1``) where the
    selection takes one. Fixed clauses: no text from outside reaches the SQL."""
    where = _WHERE[which].format(parameter)
    return (
        f"SELECT {GAME_COLUMNS} FROM games g WHERE {where} ORDER BY g.id",  # noqa: S608
        "SELECT s.game_id, s.side, s.name, s.kind, s.ai_level, s.session, s.player"  # noqa: S608
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}",
        "SELECT m.game_id, m.ply, m.move, m.at, m.clock_ms, m.autopilot"  # noqa: S608
        f" FROM moves m JOIN games g ON g.id = m.game_id WHERE {where} ORDER BY m.game_id, m.ply",
    )


@dataclass(eq=False)
class PendingGame:
    """A new game, checked, waiting for the next group commit; its future gets its id."""

    new: NewGame
    stored: asyncio.Future[int]


@dataclass(eq=False)
class PendingEnd:
    """A game's end, checked, waiting for the next group commit."""

    game_id: int
    ending: Ending
    stored: asyncio.Future[None]


PendingWrite = PendingMove | PendingGame | PendingEnd
"""One write of a group commit: a move, a new game or a game's end."""

BatchResult = StoreError | int | None
"""How one write of a group commit fared: the refusal or failure that kept it out
(nothing of it written), a new game's id, or None for a move or an end written."""


class GamesStorage(StoreBase[Handle]):
    """The games: created, seated, started, each move (group commit), finished,
    and read back whole. See :mod:`boardroom.server.store` for the contracts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Writes waiting for the next group commit, and the task that will commit them.
        self._pending_writes: list[PendingWrite] = []
        self._write_batch: asyncio.Task[None] | None = None

    # -- writes -----------------------------------------------------------------------

    async def create_game(
        self,
        room: str,
        game: str,
        seats: Sequence[SeatRecord | None] = (None, None),
        *,
        options: Mapping[str, Any] | None = None,
        at: float,
        number: int = 1,
        started_at: float | None = None,
    ) -> int:
        """Store a new game and return its id.

        ``room`` is the room's code; ``game`` a game name, stored in its canonical
        form (``"mnk-3-3-3"`` is stored as ``"tictactoe"``); ``seats`` the players
        already seated, first player's seat first, None where empty; ``options``
        a JSON object (public or private, who moves first, clock settings), stored
        as given; ``at`` the creation time; ``number`` the game's number within
        its room (1, then 2, 3, ... for rematches).

        The game is :attr:`~GameState.WAITING`, unless ``started_at`` is given:
        then it is created already :attr:`~GameState.PLAYING` from that time, in
        the same transaction (as :meth:`start_game` would, so both seats must be
        taken), and no crash can leave it created but not started.
        """
        new = new_game(room, game, seats, options, at, number, started_at)
        stored: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._join_batch(PendingGame(new, stored))
        # Shielded: a cancelled caller stops waiting; the game is stored or not as a whole.
        return await asyncio.shield(stored)

    async def update_seat(self, game_id: int, side: Player, player: SeatRecord | None) -> None:
        """Put ``player`` in seat ``side`` (replacing whoever was there), or empty
        it with None. Only while the game is :attr:`~GameState.WAITING`: the players
        of a started game are part of its record."""
        check_game_id(game_id)
        side = check_side(side)
        row = None if player is None else seat_row(player)
        await self._seat(game_id, side.number, row, what=f"seating game {game_id}")

    async def start_game(self, game_id: int, at: float) -> None:
        """Mark the game :attr:`~GameState.PLAYING` from ``at``; moves may follow.

        Raises :class:`GameStateError` unless it is waiting with both seats taken.
        """
        check_game_id(game_id)
        started_at = check_time("at", at)
        await self._start(game_id, started_at, what=f"starting game {game_id}")

    async def append_move(
        self,
        game_id: int,
        ply: int,
        move: str,
        at: float,
        clock_ms: int | None = None,
        *,
        autopilot: bool = False,
    ) -> None:
        """Append the move ``move`` (its notation) at ``ply`` to a game in play.

        When this returns, the move is on disk and survives a crash or a power
        cut: only then may the room announce it. ``ply`` is the number of moves
        before this one (:attr:`GameRecord.next_ply`), so a duplicate or an
        out-of-order write raises :class:`StaleWriteError`, and a game not in play
        :class:`GameStateError`; neither changes anything. ``at`` is when the
        move was made and ``clock_ms`` the mover's time left when it moved,
        before any increment (None without a clock); ``autopilot``: the server's
        engine made it for an absent player. The rules are the room's
        business: the store does not check that the move is legal.

        Moves appended while a write is under way share the next transaction
        (group commit); a refused one fails alone.
        """
        pending = pending_move(game_id, ply, move, at, clock_ms, autopilot)
        self._join_batch(pending)
        # A cancelled caller stops waiting: its future is cancelled, and the batch,
        # which skips a future already done, stores its move or not as a whole all
        # the same (asyncio.shield would add a future and two callbacks a move).
        await pending.stored

    async def append_final_move(
        self,
        game_id: int,
        ply: int,
        move: str,
        at: float,
        clock_ms: int | None = None,
        *,
        autopilot: bool = False,
        winner: Player | None,
        termination: Termination,
        finished_at: float,
    ) -> None:
        """Append the move that ends the game and record the end, **both or
        neither**, in one write: :meth:`append_move` then :meth:`finish_game` in one
        transaction (and one flush) rather than two (issue 29).

        The arguments and refusals are theirs: the move's (:class:`StaleWriteError`,
        :class:`GameStateError`) are checked first, then the end's; a refusal of
        either writes nothing of both. When it returns, both are on disk. It joins
        the group commit as a move does.
        """
        side = check_ending(winner, termination)
        ending = (side, termination, check_time("finished_at", finished_at))
        pending = pending_move(game_id, ply, move, at, clock_ms, autopilot, ending)
        self._join_batch(pending)
        # A cancelled caller stops waiting; both are stored or neither all the same
        # (as in append_move).
        await pending.stored

    def _join_batch(self, pending: PendingWrite) -> None:
        """Queue ``pending`` for the next group commit, scheduled now if none is.

        The batch is scheduled after the write called last; writes queued until it
        starts join it, so a write queued later may land before another kind of
        write called in between (never before one of its own caller's, who awaits
        each). Raises StoreClosedError (before queueing) if the store is closed."""
        if self._write_batch is None:
            self._write_batch = self._schedule(self._commit_batch, write=True)
        self._pending_writes.append(pending)

    async def _commit_batch(self, handle: Handle) -> None:
        """Commit the writes waiting now, in one transaction, and tell their callers."""
        batch, self._pending_writes = self._pending_writes, []
        self._write_batch = None  # writes queued from now on wait for the next batch
        what = _batch_name(batch)
        try:
            results = await self._store_batch(handle, batch, what=what)
        except BaseException as error:
            for pending in batch:
                if not pending.stored.done():
                    pending.stored.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        for pending, result in zip(batch, results, strict=True):
            if pending.stored.done():
                continue
            if isinstance(result, StoreError):
                pending.stored.set_exception(result)
            elif isinstance(pending, PendingGame):
                assert isinstance(result, int)
                pending.stored.set_result(result)
            else:
                pending.stored.set_result(None)

    async def finish_game(
        self, game_id: int, winner: Player | None, termination: Termination, at: float
    ) -> None:
        """Record the end of the game: ``winner`` (None for a draw or no result),
        how it ended, and when. Nothing can be written to it afterwards.

        ``winner`` must fit ``termination`` (:meth:`Termination.allows`), else
        :class:`InvalidRecordError`. A game that never started can only be
        :attr:`~Termination.ABORTED`; a finished game cannot finish again
        (:class:`GameStateError`).
        """
        check_game_id(game_id)
        side = check_ending(winner, termination)
        finished_at = check_time("at", at)
        ending = (side, termination, finished_at)
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._join_batch(PendingEnd(game_id, ending, stored))
        await asyncio.shield(stored)

    # -- reads ------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        """The whole record of one game. Raises :class:`GameNotFoundError`, and
        :class:`UnreadableRecordError` for a game a newer Boardroom ended in a way
        this one does not know."""
        check_game_id(game_id)
        records = await self._read_games("id", (game_id,), what=f"reading game {game_id}")
        if not records:
            raise GameNotFoundError(game_id)
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game waiting or in play, whole, oldest first: what the server
        restores after a restart."""
        return await self._read_games("unfinished", (), what="reading unfinished games")

    async def games_by_state(self) -> dict[GameState, int]:
        """How many games are in each state (every state present), for ``/metrics``."""
        counts = dict.fromkeys(GameState, 0)
        for state, count in await self._count_states(what="counting games"):
            counts[GameState(state)] = count
        return counts

    # -- what a backend supplies --------------------------------------------------------

    @abstractmethod
    async def _seat(self, game_id: int, side: int, row: SeatRow | None, *, what: str) -> None:
        """Set or empty the seat in one write, refused (``check_seat_change``)
        unless the game, read and locked in it, is waiting."""

    @abstractmethod
    async def _start(self, game_id: int, started_at: float, *, what: str) -> None:
        """Mark the game playing in one write, refused (``check_start``) by its
        state and seats as read in it."""

    @abstractmethod
    async def _store_batch(
        self, handle: Handle, batch: Sequence[PendingWrite], *, what: str
    ) -> list[BatchResult]:
        """Write ``batch`` in its order, in one transaction on ``handle`` run now: each
        move that fits its game (else its refusal, ``move_refusal``), each new game
        with its seats (its id), each end the game's state allows (else its refusal,
        ``check_finish``), and a move with its ``ending`` as one write (the move's
        check, then the end's; a savepoint around both). A new game, an end or a
        move with its end that the database refuses fails alone (a savepoint around
        it), as a StorageFailedError. Per write, a :data:`BatchResult`."""

    @abstractmethod
    async def _read_games(
        self, which: GamesOf, parameters: tuple[Any, ...], *, what: str
    ) -> list[GameRecord]:
        """The whole records of the games ``which`` selects, oldest first, in one read."""

    @abstractmethod
    async def _count_states(self, *, what: str) -> Iterable[tuple[str, int]]:
        """``(state, count)`` of the states that have games, in one read."""
