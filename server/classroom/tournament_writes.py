"""The tournament director's store writes, made to survive a storage outage.

Contract: :meth:`DurableWrites.make` makes one write of the running tournament
(a round paired, a room or game or result recorded, a deadline moved, a
withdrawal, the end) and returns once the store has it. While the store refuses
it for now (:class:`~boardroom.server.store.StorageUnavailableError`) the write
is tried again, after 0.25 s, then twice as long each time up to the store's
``retry_after``. The caller holds the director's lock, so the steps behind it
wait their turn and nothing is lost, skipped or done twice: the store is written
first, so memory never runs ahead of it, and what the hub is asked to do after a
write is asked once, after it went through.

A write whose commit was cut off on its way may have been stored: the retry that
the store then refuses (a result already there, a round already paired, an end
already written) is checked against the stored tournament (the write's ``done``)
and taken as done if the store has it. Any other store error is raised as it is.

Past ``outage_limit`` (the config's ``storage_outage_limit``) of refusals the
tournament is *paused*: ``announce`` is handed ``TournamentEnding.paused``
(:mod:`boardroom.shared.protocol.tournament_ending`: everyone connected gets an
``announcement``, ``kind`` ``tournament_paused``), the write goes on being tried
every ``retry_after``, and when it goes through the tournament goes on
(``tournament_resumed``). Meanwhile :meth:`DurableWrites.refuse_in_outage` raises
``StorageUnavailableError``, so the teacher's requests are answered at once
rather than wait behind it. Used from the event loop only.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from boardroom.server.room_host import STORAGE_OUTAGE_LIMIT
from boardroom.server.store import StorageUnavailableError, Store, StoreError, TournamentRecord
from boardroom.server.tournaments.progress import TournamentProgress
from boardroom.shared.protocol.tournament_ending import TournamentEnding

__all__ = ["FIRST_RETRY_SECONDS", "Announce", "DurableWrites", "StoredCheck"]

logger = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 0.25
"""The first wait before a write the store refused for now is tried again; each
next wait is twice as long, up to the store's ``retry_after``."""

StoredCheck = Callable[[TournamentRecord], bool]
"""Whether a tournament as stored has a write's change already
(see :meth:`DurableWrites.make`)."""

Announce = Callable[[TournamentProgress, TournamentEnding], None]
"""Tells everyone connected the tournament's news (its pause for the outage, its resumption)."""


class DurableWrites:
    """The writes of one class's tournaments (see the module docstring)."""

    def __init__(
        self,
        *,
        store: Store,
        class_name: str,
        announce: Announce,
        outage_limit: float = STORAGE_OUTAGE_LIMIT,
    ) -> None:
        """``outage_limit``: seconds of storage refusals after which the running
        tournament is announced paused."""
        self._store = store
        self._class_name = class_name
        self._announce = announce
        self._outage_limit = outage_limit
        self._unsaved_since: float | None = None
        """Monotonic time of the first refusal of the write being tried, if any."""
        self._outage_paused = False
        """The tournament was announced paused for the outage."""

    def refuse_in_outage(self) -> None:
        """The teacher's request is refused for now while a write waits on the store."""
        if self._unsaved_since is not None:
            raise StorageUnavailableError(
                "the tournament's last change is not saved yet: the database is unavailable"
            )

    async def make(
        self,
        progress: TournamentProgress,
        write: Callable[[], Awaitable[None]],
        *,
        done: StoredCheck,
    ) -> None:
        """Make ``write`` (one of the tournament's store writes), trying it again
        while the store refuses it for now (see the module docstring), under the
        caller's lock. ``done`` tells whether the stored tournament has the write's
        change: asked only when a retry is refused otherwise, since a commit cut off
        on its way may have been stored. Any other store error is raised as it is
        (and the outage is over for the teacher's requests: this step failed)."""
        delay = FIRST_RETRY_SECONDS
        refused = False
        try:
            while True:
                try:
                    await write()
                except StorageUnavailableError as outage:
                    self._refused(progress, outage)
                    refused = True
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, max(outage.retry_after, FIRST_RETRY_SECONDS))
                    continue
                except StoreError:
                    if not refused or not await self._has(progress, done):
                        raise
                if refused:
                    self._saved(progress)
                    refused = False
                return
        finally:
            if refused:  # given up (another error, or the director stopped)
                self._unsaved_since = None

    async def _has(self, progress: TournamentProgress, done: StoredCheck) -> bool:
        """Whether the store has the change ``done`` looks for (read while the
        store may still falter: a refusal for now is tried again)."""
        while True:
            try:
                records = await self._store.tournaments(self._class_name)
            except StorageUnavailableError as outage:
                self._refused(progress, outage)
                await asyncio.sleep(max(outage.retry_after, FIRST_RETRY_SECONDS))
                continue
            return any(r.id == progress.id and done(r) for r in records)

    def _refused(self, progress: TournamentProgress, outage: StorageUnavailableError) -> None:
        """A write was refused for now: past the limit, the tournament is paused."""
        now = time.monotonic()
        if self._unsaved_since is None:
            self._unsaved_since = now
            logger.warning(
                "the store is unavailable: the tournament waits (%s)",
                outage,
                extra={"tournament": progress.id},
            )
        if not self._outage_paused and now - self._unsaved_since >= self._outage_limit:
            self._outage_paused = True
            logger.error(
                "the store has been unavailable too long: the tournament is paused",
                extra={"tournament": progress.id},
            )
            self._announce(progress, TournamentEnding.paused(progress.record.name))

    def _saved(self, progress: TournamentProgress) -> None:
        """A write went through after refusals: the tournament goes on."""
        self._unsaved_since = None
        logger.info("the store is back: the tournament goes on", extra={"tournament": progress.id})
        if self._outage_paused:
            self._outage_paused = False
            self._announce(progress, TournamentEnding.resumed(progress.record.name))
