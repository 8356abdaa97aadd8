"""Imported once by the tests' engine forkserver (harness.ForkedEnginePool): it
builds the warm-up games' search kernels there, so that every worker forked from it
inherits them built.

Why: each worker's warm-up (``engine_pool._init_worker``: a depth-1 search of each
warm-up game) runs at the workers' ``nice 10``, and a server is ready only when
both of its workers are. Building the kernels was most of that warm-up's CPU
(25 ms of 34 ms), and at ``nice 10`` beside two busy pytest workers those
milliseconds took tenths of a second of wall time, for nearly every test that
starts a server (docs/benchmarks.md, "The test suite"). The workers still run
their whole warm-up, on the kernels they would have built themselves; the pure-
Python search keeps nothing else between searches (``kernel._KERNELS`` is its only
cache).

It warms on the pure-Python solver, whatever ``BOARDROOM_ENGINE`` says, and puts
the variable back: the forkserver must not load the compiled solver (numba's
threads do not survive a fork), and a worker of a server on ``engine="auto"``
still loads it in its own warm-up.
"""

from __future__ import annotations

import os

from boardroom.server.engine_pool import WARM_GAMES
from boardroom.shared.engine import SearchRequest, run_search_request, solvers


def build_the_warm_up_kernels() -> None:
    """A depth-1 search of each warm-up game on the pure-Python solver, as each
    worker's warm-up does, with ``BOARDROOM_ENGINE`` as it was afterwards."""
    before = os.environ.get(solvers.ENGINE_ENV)
    os.environ[solvers.ENGINE_ENV] = "python"
    try:
        for name in WARM_GAMES:
            run_search_request(SearchRequest(name, "", depth=1))
    finally:
        if before is None:
            del os.environ[solvers.ENGINE_ENV]
        else:
            os.environ[solvers.ENGINE_ENV] = before


build_the_warm_up_kernels()
