"""Post-game analyses: each finished game's moves judged by the engine, in the pool.

:class:`GameAnalyses` is the adapter around :mod:`boardroom.shared.engine.analysis` (the
pure core): it values a game's positions one at a time in the engine pool (never
on the event loop, and never holding a worker for more than one position, so
the AI's moves in play get their turn), judges each move with
:func:`~boardroom.shared.engine.analysis.review_move` as soon as the position after it is
valued, and stores every review at once (:mod:`boardroom.server.store.analyses`).

Contract:

- :meth:`GameAnalyses.view` answers at once with what is known: the reviews
  stored so far and whether the analysis is complete. The first view of a
  finished game starts its analysis, in a task; later views see it fill in
  (``complete`` turns true with the last move). A game in play is refused
  (:class:`GameInProgressError`): the engine's judgement during a game would be
  help. A game with no moves is complete at once, with no reviews.
- At most ``max_running`` analyses run at once (each on one worker at a time);
  a view that would start one more is refused with :class:`AnalysesBusyError`
  (and ``retry_after``); views of running or complete analyses always answer.
- In class mode (:meth:`GameAnalyses.keep_up`) every game that finishes is
  analysed in the background, one at a time, so that its review and the
  teacher's export are ready when asked for; it counts among ``max_running``.
- An analysis cut short (a restart, a worker that died twice) keeps what it
  stored; the next view resumes from the first move without a review. A stored
  review stands: two analyses of a game may differ where values are estimates.
- Reviews are stored with the rules they were made by
  (:data:`~boardroom.shared.engine.analysis.ANALYSIS_VERSION`): an analysis stored under
  older rules is made again, from the first move, when next viewed (or, in
  class mode, as the background analyses find it), its reviews replaced one by
  one, never shown beside new ones.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import msgspec

from boardroom.server.core.engine_queue import Submitter
from boardroom.server.core.records import GameRecord, GameState
from boardroom.server.engine_pool import EngineBusyError, EnginePool, EnginePoolError
from boardroom.server.store import Store
from boardroom.shared.engine.analysis import (
    ANALYSIS_VERSION,
    DEFAULT_SECONDS_PER_POSITION,
    MoveReview,
    PositionValue,
    review_move,
)
from boardroom.shared.engine.remote import PositionRequest
from boardroom.shared.games import get_game

logger = logging.getLogger(__name__)

MAX_RUNNING = 2
"""Analyses running at once: each takes one worker at a time, for a position's
budget, so two keep a class's requests moving without queueing the AI's moves."""
BUSY_RETRY_SECONDS = 0.5
"""Pause before asking the pool again when it is full of the AI's searches."""


class AnalysisError(Exception):
    """Root of the refusals of :class:`GameAnalyses`."""


class GameInProgressError(AnalysisError):
    """The game is still being played (or waiting for its players)."""


class AnalysesBusyError(AnalysisError):
    """Too many analyses running: ask again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class AnalysisView:
    """What is known of a game's analysis now: the game, the reviews so far (a
    prefix of all its moves, by ply) and whether they are all there."""

    record: GameRecord
    reviews: tuple[MoveReview, ...]
    complete: bool
    hints: Mapping[int, str] = field(default_factory=dict)
    """The hints players were given during the game: the hinted move by ply."""


class GameAnalyses:
    """The server's analyses (see the module docstring). One per server."""

    def __init__(
        self,
        store: Store,
        pool: EnginePool,
        *,
        seconds_per_position: float = DEFAULT_SECONDS_PER_POSITION,
        max_running: int = MAX_RUNNING,
    ) -> None:
        self._store = store
        self._pool = pool
        self._seconds = seconds_per_position
        self._max_running = max_running
        self._running: dict[int, asyncio.Task[bool]] = {}
        self._keeper: asyncio.Task[None] | None = None
        self._closing = False
        self._wake = asyncio.Event()
        self._gave_up: set[int] = set()
        """Games the background analyses could not finish (not tried again by them)."""

    async def view(self, record: GameRecord) -> AnalysisView:
        """The analysis of ``record`` as far as it goes, starting it if need be.
        Raises :class:`GameInProgressError` or :class:`AnalysesBusyError`."""
        if record.state is not GameState.FINISHED:
            raise GameInProgressError(
                f"game {record.id} is still being played: it is analysed once it is over"
            )
        texts, complete = await self._store.analysis(record.id, rules=ANALYSIS_VERSION)
        reviews = tuple(msgspec.json.decode(text, type=MoveReview) for text in texts)
        if not complete and len(reviews) == len(record.moves):
            await self._finish(record.id)
            complete = True
        if not complete and record.id not in self._running and not self._closing:
            if len(self._running) >= self._max_running:
                raise AnalysesBusyError(
                    f"{self._max_running} games are being analysed: ask again in a moment",
                    retry_after=2.0,
                )
            self._start(record, len(reviews))
        return AnalysisView(record, reviews, complete, await self._store.hints(record.id))

    def keep_up(self, *, since: float) -> None:
        """From now on, analyse every game that finishes (at ``since`` or later),
        one at a time, in the background: :meth:`game_finished` says when to
        look (class mode, so that reviews and the export are ready)."""
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep_up(since))

    def game_finished(self) -> None:
        """A game has finished: the background analyses look for it."""
        self._wake.set()

    async def _keep_up(self, since: float) -> None:
        # Checks _closing after each wait: a cancellation that reaches the analysis
        # being awaited may end it without ending this loop (it is the inner task's
        # to raise it, and the engine pool's refusals end an analysis quietly).
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            while not self._closing:
                waiting = await self._store.unanalysed_games(
                    since=since, limit=20, rules=ANALYSIS_VERSION
                )
                todo = [i for i in waiting if i not in self._running and i not in self._gave_up]
                if not todo:
                    break
                for game_id in todo:
                    if self._closing:
                        return
                    record = await self._store.get_game(game_id)
                    texts, _ = await self._store.analysis(game_id, rules=ANALYSIS_VERSION)
                    if game_id in self._running:
                        continue  # someone asked for it meanwhile: it runs already
                    if not await self._start(record, len(texts)):
                        self._gave_up.add(game_id)

    async def close(self) -> None:
        """Stop the analyses under way (what they stored stays) and the background
        ones; no analysis starts after this."""
        self._closing = True
        self._wake.set()  # a background loop waiting for games sees _closing
        tasks: list[asyncio.Task[bool] | asyncio.Task[None]] = [*self._running.values()]
        if self._keeper is not None:
            tasks.append(self._keeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _start(self, record: GameRecord, start: int) -> asyncio.Task[bool]:
        """Run :meth:`_analyse` in a task, known as running until it ends."""
        task = asyncio.create_task(self._analyse(record, start))
        self._running[record.id] = task
        task.add_done_callback(lambda _: self._running.pop(record.id, None))
        return task

    async def _analyse(self, record: GameRecord, start: int) -> bool:
        """Analyse ``record`` from move ``start`` on; True if it is complete."""
        game = get_game(record.game)
        texts = [move.move for move in record.moves]
        position = game.from_moves(" ".join(texts[:start]))
        try:
            before = await self._value(record, texts[:start])
            for ply in range(start, len(texts)):
                if self._closing:
                    return False  # a cancellation the pool's wait_for swallowed
                after = await self._value(record, texts[: ply + 1])
                review = review_move(game, position, texts[ply], before, after)
                text = msgspec.json.encode(review).decode()
                await self._store.add_review(record.id, ply, text, rules=ANALYSIS_VERSION)
                position = game.play(position, game.parse_move(position, texts[ply]))
                before = after
            await self._finish(record.id)
        except (EnginePoolError, OSError) as error:
            logger.warning("analysis of game %d stopped: %s", record.id, error)
        except Exception:
            logger.exception("analysis of game %d failed", record.id)
        else:
            return True
        return False

    async def _value(self, record: GameRecord, moves: list[str]) -> PositionValue:
        request = PositionRequest(record.game, " ".join(moves), self._seconds)
        # Each game's analysis takes its turn with the others' (and after every AI
        # search in play: the engine queue runs analyses last).
        submitter = Submitter(f"analysis {record.id}")
        while True:
            try:
                return await self._pool.analyse(request, submitter=submitter)
            except EngineBusyError:
                await asyncio.sleep(BUSY_RETRY_SECONDS)  # the AI's searches go first

    async def _finish(self, game_id: int) -> None:
        await self._store.finish_analysis(
            game_id, seconds_per_position=self._seconds, at=time.time(), rules=ANALYSIS_VERSION
        )
