"""A match played locally: pairs of games between bots A and B, no server.

Pair ``n`` starts from opening ``n`` of the suite (round and round again when
the suite is shorter than the match), A first in its first game and B first in
its second. Games run ``concurrency`` at a time, each bot a fresh brain every
game (a new process for ``--cmd``), as ``boardroom bot`` plays them. A pair is
counted when both its games are over; after each, the SPRT (if any) decides
whether to stop, and the games still in progress are called off.

How a game ends, for the record (``reason``): the rules' endings (``line``,
``full_board``, ``count``, ``no_moves``); ``timeout`` (a clock ran out);
``illegal_move``; ``crashed``, ``hung`` or ``raised`` (the bot failed: it loses);
``adjudicated`` (see :class:`Adjudicator`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError
from boardroom.client.bots.state import GameState, game_result, game_state
from boardroom.client.match.stats import Sprt, pair_class
from boardroom.shared.engine import solve, solves_in_time
from boardroom.shared.errors import GameError
from boardroom.shared.games import Game, Player, Position
from boardroom.shared.protocol.messages import Clock, ResultInfo, RoomState, SeatInfo

Letter = Literal["A", "B"]

GRACE = 0.5
"""Seconds past a bot's time before the runner stops waiting for it (a bot that
answers in time never meets it)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game of a match."""

    pair: int
    """The pair it belongs to, from 0."""
    a_first: bool
    """True when A moved first (the pair's first game)."""
    opening: str
    moves: str
    """Every move, the opening's included."""
    winner: Letter | None
    reason: str
    """How it ended (module docstring)."""
    detail: str | None = None
    """What a failing bot did, in words (a crash's last stderr lines...)."""

    @property
    def adjudicated(self) -> bool:
        return self.reason == "adjudicated"

    @property
    def a_score(self) -> float:
        """A's points: 1 a win, 1/2 a draw, 0 a loss."""
        return 0.5 if self.winner is None else 1.0 if self.winner == "A" else 0.0


@dataclass(slots=True)
class Tally:
    """The match so far, counted for A."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    adjudicated: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    """Pairs by A's points (0, 1/2, 1, 3/2, 2): :mod:`~boardroom.client.match.stats`."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def add_pair(self, first: GameRecord, second: GameRecord) -> None:
        for record in (first, second):
            if record.winner is None:
                self.draws += 1
            elif record.winner == "A":
                self.wins += 1
            else:
                self.losses += 1
            self.adjudicated += record.adjudicated
        self.pentanomial[pair_class(first.a_score, second.a_score)] += 1


@dataclass(frozen=True, slots=True)
class Adjudicator:
    """Ends a game once its value is exactly known and few cells are left, as
    fastchess ends chess games from tablebases: at most ``max_empty`` empty
    cells (None: a third of the board's), in a position the exact solver
    solves in time (:func:`~boardroom.shared.engine.solves_in_time`: never on
    gomoku's board or Othello's). The solver's value is the result: a win for
    the side it says wins, with best play from there; a draw when it says so.
    ``max_empty`` 0 never adjudicates."""

    max_empty: int | None = None

    def limit(self, game: Game) -> int:
        """The empty cells at which ``game``'s games are adjudicated (0: never).

        >>> from boardroom.shared.games import get_game
        >>> Adjudicator().limit(get_game("connect4")), Adjudicator(5).limit(get_game("connect4"))
        (14, 5)
        """
        if self.max_empty is not None:
            return self.max_empty
        return _cells(game, game.new()) // 3

    def applies(self, game: Game, position: Position) -> bool:
        limit = self.limit(game)
        if limit <= 0:
            return False
        return _cells(game, position) <= limit and solves_in_time(game, position)

    @staticmethod
    def winner(game: Game, position: Position) -> Player | None:
        """The side that wins with best play from ``position`` (None: a draw)."""
        score = solve(game, position)
        mover = game.to_move(position)
        return None if score == 0 else mover if score > 0 else mover.other


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """What a local match plays."""

    game: Game
    openings: tuple[str, ...]
    clock: Clock
    move_timeout: float
    """Seconds a move may take without a clock."""
    max_games: int
    """Games at most (rounded down to whole pairs); 0: no limit (an SPRT decides)."""
    concurrency: int
    sprt: Sprt | None
    adjudicator: Adjudicator
    names: tuple[str, str]
    """A's and B's names, as each bot is told its opponent's."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How the match ended: the tally, every game counted (whole pairs, first
    game first), and the SPRT's decision."""

    tally: Tally
    records: tuple[GameRecord, ...]
    decision: Literal["H0", "H1"] | None


class PairBook:
    """Counts finished games into pairs and asks the SPRT after each pair,
    wherever the games are played (here, or on a server)."""

    def __init__(self, sprt: Sprt | None, on_pair: Callable[[Tally], None] | None) -> None:
        self.sprt = sprt
        self.on_pair = on_pair
        self.tally = Tally()
        self.records: list[GameRecord] = []
        self.decision: Literal["H0", "H1"] | None = None
        self._waiting: dict[int, GameRecord] = {}

    def count(self, record: GameRecord) -> None:
        """Count ``record`` once its pair is complete (nothing once decided)."""
        if self.decision is not None:
            return
        partner = self._waiting.pop(record.pair, None)
        if partner is None:
            self._waiting[record.pair] = record
            return
        # Only whole pairs count, and are recorded: a game whose partner is
        # still being played when the test decides is left out of both.
        first, second = (partner, record) if partner.a_first else (record, partner)
        self.records.extend((first, second))
        self.tally.add_pair(first, second)
        if self.sprt is not None:
            self.decision = self.sprt.decision(self.tally.pentanomial)
        if self.on_pair is not None:
            self.on_pair(self.tally)

    def outcome(self) -> MatchOutcome:
        return MatchOutcome(self.tally, tuple(self.records), self.decision)


class LocalMatch:
    """Plays one match (see the module docstring); :meth:`run` once."""

    def __init__(self, setup: MatchSetup, a: BrainSource, b: BrainSource) -> None:
        self.setup = setup
        self.sources: dict[Letter, BrainSource] = {"A": a, "B": b}
        self._done = asyncio.Event()

    async def run(self, on_pair: Callable[[Tally], None] | None = None) -> MatchOutcome:
        """Play until the SPRT decides or ``max_games`` are played; ``on_pair``
        is called after each pair is counted."""
        book = PairBook(self.setup.sprt, on_pair)
        max_pairs = self.setup.max_games // 2 if self.setup.max_games else None
        jobs: Iterator[tuple[int, bool]] = (
            (pair, a_first)
            for pair in (range(max_pairs) if max_pairs is not None else itertools.count())
            for a_first in (True, False)
        )
        workers: list[asyncio.Task[Any]] = [
            asyncio.create_task(self._worker(jobs, book))
            for _ in range(max(1, self.setup.concurrency))
        ]
        waiter: asyncio.Task[Any] = asyncio.create_task(self._done.wait())
        try:
            running = set(workers)
            while running and not self._done.is_set():
                finished, _still = await asyncio.wait(
                    running | {waiter}, return_when=asyncio.FIRST_COMPLETED
                )
                for task in finished - {waiter}:
                    task.result()  # a worker's error ends the match
                running -= finished
        finally:
            # Decided: the games still in progress are called off (their bots closed).
            waiter.cancel()
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, waiter, return_exceptions=True)
        return book.outcome()

    async def _worker(self, jobs: Iterator[tuple[int, bool]], book: PairBook) -> None:
        # The workers share one iterator of jobs: taking the next one never awaits,
        # so two workers never take the same.
        while not self._done.is_set():
            job = next(jobs, None)
            if job is None:
                return
            pair, a_first = job
            record = await self.play_game(pair, a_first)
            if not self._done.is_set():
                book.count(record)
                if book.decision is not None:
                    self._done.set()

    async def play_game(self, pair: int, a_first: bool) -> GameRecord:
        """Play game ``a_first`` (A first) of pair ``pair`` to its end."""
        setup = self.setup
        game = setup.game
        opening = setup.openings[pair % len(setup.openings)]
        seat_of: dict[Player, Letter] = (
            {Player.FIRST: "A", Player.SECOND: "B"}
            if a_first
            else {Player.FIRST: "B", Player.SECOND: "A"}
        )
        label = f"pair {pair + 1} game {1 if a_first else 2}"
        brains: dict[Player, Brain] = {
            side: self.sources[seat_of[side]].new_brain(f"{label} {seat_of[side]}")
            for side in Player
        }
        names = {
            side: setup.names[0] if seat_of[side] == "A" else setup.names[1] for side in Player
        }
        position = game.from_moves(opening)
        clocks = _Clocks(setup.clock, setup.move_timeout)

        def record(winner: Player | None, reason: str, detail: str | None = None) -> GameRecord:
            return GameRecord(
                pair=pair,
                a_first=a_first,
                opening=opening,
                moves=game.move_string(position),
                winner=None if winner is None else seat_of[winner],
                reason=reason,
                detail=detail,
            )

        try:
            for side in Player:
                try:
                    await brains[side].start(self._state(position, side, names, clocks))
                except BotFailedError as error:
                    return record(side.other, error.kind.value, error.message)
            while True:
                outcome = game.outcome(position)
                if outcome.is_over:
                    reason = outcome.termination.value if outcome.termination else "line"
                    result = record(outcome.winner, reason)
                    break
                if setup.adjudicator.applies(game, position):
                    winner = await asyncio.to_thread(Adjudicator.winner, game, position)
                    result = record(winner, "adjudicated")
                    break
                side = game.to_move(position)
                state = self._state(position, side, names, clocks)
                timeout = clocks.allowed(side)
                started = asyncio.get_running_loop().time()
                try:
                    async with asyncio.timeout(timeout + GRACE):
                        text = await brains[side].choose(
                            state, timeout=timeout, time_ms=int(timeout * 1000)
                        )
                except TimeoutError:
                    result = record(side.other, "timeout")
                    break
                except BotFailedError as error:
                    reason = "timeout" if error.kind.value == "hung" else error.kind.value
                    result = record(side.other, reason, error.message)
                    break
                if not clocks.spend(side, asyncio.get_running_loop().time() - started):
                    result = record(side.other, "timeout")
                    break
                try:
                    position = game.play(position, game.parse_move(position, text.strip()))
                except GameError as error:
                    result = record(side.other, "illegal_move", f"{text.strip()!r}: {error}")
                    break
            await self._end(brains, position, result, names, clocks, seat_of)
            return result
        finally:
            for brain in brains.values():
                await brain.close()

    async def _end(
        self,
        brains: dict[Player, Brain],
        position: Position,
        result: GameRecord,
        names: dict[Player, str],
        clocks: _Clocks,
        seat_of: dict[Player, Letter],
    ) -> None:
        """Tell both bots how the game ended (a failure here changes nothing)."""
        winner = next((side for side in Player if seat_of[side] == result.winner), None)
        info = ResultInfo(winner=winner, reason=_room_reason(result.reason))
        moves = tuple(self.setup.game.format_move(move) for move in position.moves)
        for side in Player:
            state = self._state(position, side, names, clocks, finished=True)
            with contextlib.suppress(BotFailedError):
                await brains[side].end(state, game_result(info, moves, side))

    def _state(
        self,
        position: Position,
        side: Player,
        names: dict[Player, str],
        clocks: _Clocks,
        *,
        finished: bool = False,
    ) -> GameState:
        game = self.setup.game
        room = RoomState(
            code="MATCH",
            game=game.name,
            title=game.title,
            status="finished" if finished else "playing",
            public=False,
            clock=self.setup.clock,
            seats=[SeatInfo(side=s, name=names[s], kind="bot") for s in Player],
            moves=game.move_string(position),
            ply=position.ply,
            to_move=None if finished else game.to_move(position),
            you=side,
        )
        return game_state(
            room,
            time_left_ms=clocks.left_ms(side),
            opponent_time_left_ms=clocks.left_ms(side.other),
        )


def _cells(game: Game, position: Position) -> int:
    """The empty cells of ``position``."""
    return sum(row.count(".") for row in game.board_rows(position))


def _room_reason(reason: str) -> str:
    """The reason a bot's ``on_game_end`` is told, in the room's words."""
    if reason in ("crashed", "hung", "raised", "illegal_move"):
        return "resignation"
    if reason == "adjudicated":
        return "agreement"
    return reason


class _Clocks:
    """The two clocks of a local game: none (``move_timeout`` a move), a limit a
    move, or time each plus an increment."""

    def __init__(self, clock: Clock, move_timeout: float) -> None:
        self.clock = clock
        self.move_timeout = move_timeout
        initial = clock.initial or 0.0
        self.left = {Player.FIRST: initial, Player.SECOND: initial}

    def allowed(self, side: Player) -> float:
        """Seconds the side may take on this move."""
        if self.clock.kind == "per_move":
            return self.clock.per_move or self.move_timeout
        if self.clock.kind == "increment":
            return max(0.0, self.left[side])
        return self.move_timeout

    def left_ms(self, side: Player) -> int | None:
        """The side's time left as a bot is told it (None without a clock)."""
        if self.clock.kind == "none":
            return None
        return int(self.allowed(side) * 1000)

    def spend(self, side: Player, seconds: float) -> bool:
        """Charge ``seconds`` to the side; False if its time ran out."""
        if self.clock.kind == "increment":
            self.left[side] -= seconds
            if self.left[side] < 0:
                return False
            self.left[side] += self.clock.increment
            return True
        return seconds <= self.allowed(side) + GRACE / 2
