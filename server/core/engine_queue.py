"""The engine's queue as pure scheduling: which search a free worker takes next.

Every AI search of the server (an AI's move, a hint, an AI match's move, a
position of a game under analysis) waits here for a worker of the engine pool
(:mod:`boardroom.server.engine_pool`, the asyncio adapter around this module).
First come, first served let one session starve everybody: four gomoku AI
matches from one session delayed another player's ``easy`` AI by 12 s, a hint
flood from twelve rooms by 34 s (issue 28). So the queue orders its searches:

1. **by priority** (:class:`EnginePriority`), highest first:

   - ``SEATED``: the move of the AI a person sits opposite. Someone is waiting
     at the board for it, on a clock maybe, and it is the cheapest search there
     is for most levels; nothing is more urgent.
   - ``HINT``: a person asked and waits too, but it is optional help that a
     flood can be made of (a hint per room per move).
   - ``AI_MATCH``: two AIs playing each other: someone watches, at a pace they
     chose, and nobody's game stalls when a move comes late.
   - ``ANALYSIS``: a finished game's review: nobody waits at a board; it may
     take the idle time.

2. **within a priority, by fair share**: the submitter (a :class:`Submitter`:
   the session the search is for, and its network address) served least
   recently goes first: addresses take turns, and within one address its
   sessions do, and within one session its searches come in order. So one
   session's (or one address's) sixty searches delay another's by one search
   at most, not by sixty. A submitter with nothing waiting or running is
   forgotten: when it comes back it is served first.

3. **with aging**, so that no search waits for ever: each ``aging_seconds`` a
   search has waited raise it one priority, up to ``SEATED``.

4. **with workers kept for seated players**: the searches below ``SEATED`` (by
   their own priority, not an aged one) hold at most ``workers`` slots at once,
   so ``reserved`` more are always free or running a seated player's move.
   The pool does not interrupt a search that has started: without a free
   worker, a person's ``easy`` AI move (milliseconds of search) would wait for
   a 3 s gomoku search to end, whatever its priority.

Admission bounds what is waiting or running (an :class:`EngineQueue` refuses
at once, with the reason, rather than let the queue grow): ``max_queue`` in
all; of that, the priorities below ``SEATED`` together take at most three
quarters (the rest is kept for seated players' moves); one session at most a
quarter, and the searches below ``SEATED`` of one address at most half. The
server's own submitter (empty session) has no share of its own.

The module does no I/O and reads no clock: ``now`` is passed in, and requests
are opaque tickets (ints) that the adapter maps to its own waiters.

>>> queue = EngineQueue(workers=1, reserved=0, max_queue=8)
>>> flood, other = Submitter("s1", "10.0.0.1"), Submitter("s2", "10.0.0.2")
>>> for ticket in (1, 2, 3):
...     queue.wait(ticket, EnginePriority.AI_MATCH, flood, now=0.0)
>>> queue.wait(4, EnginePriority.SEATED, other, now=0.5)
>>> queue.start_next(now=1.0)
4
>>> queue.finished(4); queue.start_next(now=2.0)
1
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K")

DEFAULT_RESERVED_WORKERS = 1
"""Worker slots kept for seated players' AI moves, beyond the pool's own workers
(``--engine-reserve``). One is enough for a person's ``easy`` to ``hard`` AI to
answer in milliseconds however busy the pool is; its process costs the memory
of one engine worker and, idle, no CPU."""

DEFAULT_AGING_SECONDS = 10.0
"""Seconds of waiting that raise a search by one priority: an AI match's move
that waited 20 s behind seated players' moves and hints competes with them on
equal terms (in turn, by fair share), so it is slowed, never stopped."""


class EnginePriority(enum.IntEnum):
    """How urgent a search is; lower runs first (the module docstring says why)."""

    SEATED = 0
    """The move of an AI a person plays against."""
    HINT = 1
    """A hint a player asked for."""
    AI_MATCH = 2
    """A move in an AI match (the AI takes both seats)."""
    ANALYSIS = 3
    """A position of a finished game under analysis."""


@dataclass(frozen=True, slots=True)
class Submitter:
    """Whom a search is for: a session (any stable string; empty for the server's
    own work, which has no share of its own) and its network address."""

    session: str = ""
    address: str = ""


SERVER = Submitter()
"""The submitter of searches nobody in particular asked for."""


@dataclass(frozen=True, slots=True)
class _Entry:
    ticket: int
    priority: EnginePriority
    submitter: Submitter
    since: float
    order: int


class EngineQueue:
    """The waiting searches, the running ones, and the rule for the next one.

    Not thread-safe; the pool uses it from the event loop only. Memory: one entry
    per waiting or running search and per submitter with one.
    """

    def __init__(
        self,
        *,
        workers: int,
        max_queue: int,
        reserved: int = DEFAULT_RESERVED_WORKERS,
        aging_seconds: float = DEFAULT_AGING_SECONDS,
    ) -> None:
        """``workers`` slots run any search, ``reserved`` more only ``SEATED`` ones;
        ``max_queue`` searches may wait or run at once. Raise ValueError unless
        ``workers`` and ``max_queue`` are 1 or more, ``reserved`` 0 or more and
        ``aging_seconds`` more than 0."""
        if workers < 1 or max_queue < 1 or reserved < 0:
            raise ValueError(
                f"workers={workers}, max_queue={max_queue}, reserved={reserved}: "
                "give 1 or more workers and max_queue, 0 or more reserved"
            )
        if not aging_seconds > 0:
            raise ValueError(f"aging_seconds={aging_seconds}: give more than 0")
        self._slots = workers + reserved
        self._general = workers
        self._max_queue = max_queue
        self._aging = aging_seconds
        self._below_seated_share = max(1, max_queue - max_queue // 4)
        self._session_share = max(1, max_queue // 4)
        self._address_share = max(1, max_queue // 2)
        self._waiting: dict[int, _Entry] = {}
        self._running: dict[int, _Entry] = {}
        self._order = 0
        # Admission: searches accepted (waiting, running, or between two tries).
        self._accepted = 0
        self._accepted_below_seated = 0
        self._accepted_by_session: dict[str, int] = {}
        self._accepted_below_by_address: dict[str, int] = {}
        # Fair share: when each address and session was last served, while it has
        # a search waiting or running (`_active`); forgotten when it has none.
        self._served: dict[tuple[str, str], int] = {}
        self._active: dict[tuple[str, str], int] = {}

    # -- admission -----------------------------------------------------------------------

    @property
    def slots(self) -> int:
        """Searches that may run at once: the workers and the reserved ones."""
        return self._slots

    @property
    def accepted(self) -> int:
        """Searches admitted and not yet released."""
        return self._accepted

    def admit(self, priority: EnginePriority, submitter: Submitter) -> str | None:
        """Count one more search for ``submitter`` at ``priority``, or say why not
        (the bound reached, in words) and count nothing. Every admitted search is
        :meth:`release` d once, when it is answered (or given up)."""
        below = priority is not EnginePriority.SEATED
        if self._accepted >= self._max_queue:
            return f"the engine is busy ({self._max_queue} searches queued)"
        if below and self._accepted_below_seated >= self._below_seated_share:
            return (
                f"the engine is busy ({self._accepted_below_seated} searches queued "
                "besides the AI moves of seated players)"
            )
        session, address = submitter.session, submitter.address
        if session:
            if self._accepted_by_session.get(session, 0) >= self._session_share:
                return f"you already have {self._session_share} searches queued; wait for them"
            if below and self._accepted_below_by_address.get(address, 0) >= self._address_share:
                return (
                    f"the players at your address already have {self._address_share} "
                    "searches queued; wait for them"
                )
        self._accepted += 1
        if below:
            self._accepted_below_seated += 1
        if session:
            _add(self._accepted_by_session, session, 1)
            if below:
                _add(self._accepted_below_by_address, address, 1)
        return None

    def release(self, priority: EnginePriority, submitter: Submitter) -> None:
        """Undo one :meth:`admit` that returned None."""
        below = priority is not EnginePriority.SEATED
        self._accepted -= 1
        if below:
            self._accepted_below_seated -= 1
        if submitter.session:
            _add(self._accepted_by_session, submitter.session, -1)
            if below:
                _add(self._accepted_below_by_address, submitter.address, -1)

    # -- scheduling ----------------------------------------------------------------------

    @property
    def waiting(self) -> int:
        """Searches waiting for a slot."""
        return len(self._waiting)

    @property
    def running(self) -> int:
        """Searches holding a slot (started, not yet :meth:`finished`)."""
        return len(self._running)

    def wait(
        self, ticket: int, priority: EnginePriority, submitter: Submitter, *, now: float
    ) -> None:
        """Put ``ticket`` (new: not waiting nor running) in the queue at ``now``."""
        if ticket in self._waiting or ticket in self._running:
            raise ValueError(f"ticket {ticket} is already in the queue")
        self._waiting[ticket] = _Entry(ticket, priority, submitter, now, self._order)
        self._order += 1
        for key in _keys(submitter):
            _add(self._active, key, 1)

    def cancel(self, ticket: int) -> bool:
        """Take a waiting ``ticket`` out (its room closed, its caller gave up):
        True if it was waiting. A running one is not stopped: :meth:`finished`
        frees its slot when its worker is done."""
        entry = self._waiting.pop(ticket, None)
        if entry is None:
            return False
        self._forget(entry)
        return True

    def start_next(self, *, now: float) -> int | None:
        """The ticket that takes a free slot now (it counts as running from here
        on), or None when no slot is free for any waiting one."""
        free = self._slots - len(self._running)
        if free <= 0 or not self._waiting:
            return None
        # At most `workers` slots hold searches below SEATED: the reserved ones are
        # always free or running a seated player's move.
        below = sum(entry.priority is not EnginePriority.SEATED for entry in self._running.values())
        general_free = below < self._general
        candidates = [
            entry
            for entry in self._waiting.values()
            if general_free or entry.priority is EnginePriority.SEATED
        ]
        if not candidates:
            return None
        chosen = min(candidates, key=lambda entry: self._rank(entry, now))
        del self._waiting[chosen.ticket]
        self._running[chosen.ticket] = chosen
        self._order += 1
        for key in _keys(chosen.submitter):
            self._served[key] = self._order
        return chosen.ticket

    def finished(self, ticket: int) -> None:
        """The running ``ticket``'s worker is free again (idempotent)."""
        entry = self._running.pop(ticket, None)
        if entry is not None:
            self._forget(entry)

    def effective_priority(self, ticket: int, *, now: float) -> EnginePriority | None:
        """The waiting ``ticket``'s priority at ``now``, raised by aging; None if
        it is not waiting."""
        entry = self._waiting.get(ticket)
        return None if entry is None else self._aged(entry, now)

    def _aged(self, entry: _Entry, now: float) -> EnginePriority:
        steps = int(max(0.0, now - entry.since) // self._aging)
        return EnginePriority(max(EnginePriority.SEATED, entry.priority - steps))

    def _rank(self, entry: _Entry, now: float) -> tuple[int, int, int, int]:
        address, session = _keys(entry.submitter)
        return (
            self._aged(entry, now),
            self._served.get(address, -1),
            self._served.get(session, -1),
            entry.order,
        )

    def _forget(self, entry: _Entry) -> None:
        for key in _keys(entry.submitter):
            if _add(self._active, key, -1) == 0:
                self._served.pop(key, None)


def _keys(submitter: Submitter) -> tuple[tuple[str, str], tuple[str, str]]:
    """The fair-share keys of ``submitter``: its address, and its session (within
    the address: one session id is one address's, whatever another says)."""
    return ("address", submitter.address), ("session", submitter.session)


def _add(counts: dict[K, int], key: K, step: int) -> int:
    """Add ``step`` to ``counts[key]``, dropping it at 0; the new count."""
    value = counts.get(key, 0) + step
    if value:
        counts[key] = value
    else:
        counts.pop(key, None)
    return value
