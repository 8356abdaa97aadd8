"""Tasks that make the engine pool's workers crash, hang or overrun, for its tests.

A spawned worker imports a task's module by reference when it first receives the
task, as it imports ``run_search_request`` in production. So these live here,
with nothing to import but the engine the workers have already loaded, and not in
the test module: that one imports pytest and the test harness (the whole server,
aiohttp), which took a niced worker seconds on a busy machine, and turned a crash
into a time-out when it fell within a search's deadline. (The pool now hands its
task over during the warm-up, but a worker that imports little starts faster.)
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

from boardroom.shared.engine import SearchRequest, SearchResult, run_search_request

CRASH_SEED = 13013
"""Requests with this seed make :func:`crash_on_marked_seed` kill its worker."""
HANG_SECONDS = 60.0
"""How long :class:`HangOnce` waits to be killed before it searches after all:
bounded, so that a failing test ends instead of leaving its pool waiting."""


def _first_call(marker: str) -> bool:
    """True for the first call of all processes: it creates the file ``marker``."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return False
    return True


def crash_on_marked_seed(request: SearchRequest) -> SearchResult:
    """Kill the worker process outright for a marked request; search the others."""
    if request.seed == CRASH_SEED:
        os._exit(1)
    return run_search_request(request)


@dataclass(frozen=True)
class CrashOnce:
    """Kill the worker on the first call in any process (``marker`` records it), then search."""

    marker: str

    def __call__(self, request: SearchRequest) -> SearchResult:
        if _first_call(self.marker):
            os._exit(1)
        return run_search_request(request)


@dataclass(frozen=True)
class HangOnce:
    """On the first call in any process, create the file ``marker`` and hang, so that
    the worker is surely still on the request when the test kills it; search on the
    later calls (the retry)."""

    marker: str

    def __call__(self, request: SearchRequest) -> SearchResult:
        if _first_call(self.marker):
            threading.Event().wait(HANG_SECONDS)  # until killed
        return run_search_request(request)


def sleep_then_search(request: SearchRequest) -> SearchResult:
    """Overrun any short deadline: sleep a second first."""
    time.sleep(1.0)  # the subject: a worker slower than its deadline
    return run_search_request(request)
