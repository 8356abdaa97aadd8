"""Which build of the exact solver runs a search: the compiled one where it can.

:func:`exact_searcher` is how the engine gets a solver: a
:class:`~boardroom.shared.engine.native.NativeSearcher` (numba, same algorithm, same node
counts) for the games it supports, else the pure
:class:`~boardroom.shared.engine.negamax.Searcher`. Set the environment variable
``BOARDROOM_ENGINE=python`` to force the pure build everywhere (to compare, or
where numba cannot run); it is read at each search. If numba fails to import,
the pure build runs too.

numba is imported on the first solve that can use it (about 0.3 s, plus loading
the compiled code from its disk cache, or compiling it the first time on a
machine: see :func:`warm_up`), never by merely importing the engine.
"""

from __future__ import annotations

import os
import time
from types import ModuleType

from boardroom.shared.engine import opening_database
from boardroom.shared.engine.kernel import SearchKernel
from boardroom.shared.engine.negamax import Searcher

ENGINE_ENV = "BOARDROOM_ENGINE"
"""``python`` forces the pure solver; unset (or anything else), native where supported."""
ENGINE_BUILDS = ("auto", "python")
"""The values a server's ``--engine`` setting takes (the same variable): ``auto``
is the compiled solver where it runs, ``python`` the pure one."""

_native: ModuleType | None = None
_native_failed = False


def native_module() -> ModuleType | None:
    """:mod:`boardroom.shared.engine.native`, imported on first use; None if it cannot be."""
    global _native, _native_failed
    if _native is None and not _native_failed:
        try:
            from boardroom.shared.engine import native
        except ImportError:
            _native_failed = True
        else:
            _native = native
    return _native


def native_wanted() -> bool:
    """False when ``BOARDROOM_ENGINE=python`` asks for the pure solver."""
    return os.environ.get(ENGINE_ENV, "").strip().lower() != "python"


def backend(kernel: SearchKernel) -> str:
    """``"native"`` or ``"python"``: the build :func:`exact_searcher` gives for ``kernel``."""
    if not native_wanted():
        return "python"
    native = native_module()
    return "native" if native is not None and native.supports(kernel) else "python"


def solves_everywhere(kernel: SearchKernel) -> bool:
    """True where a full solve of any position takes well under a second: Connect
    Four with its opening database (:mod:`boardroom.shared.engine.opening_database`, read
    here if not yet) on the compiled solver. Elsewhere only late positions solve
    in time, and the pure solver is about a hundred times slower."""
    grid = kernel.grid
    return (
        opening_database.applies_to(grid.width, grid.height, grid.k, gravity=kernel.gravity)
        and backend(kernel) == "native"
        and opening_database.opening_database() is not None
    )


def exact_searcher(
    kernel: SearchKernel,
    *,
    deadline: float | None = None,
    max_nodes: int | None = None,
    opening_database: bool = True,
) -> Searcher:
    """A searcher for exact solves of ``kernel``'s game (see the module docstring).

    Use it for search to the end of the game only (``depth=EXACT_DEPTH``); the
    depth-limited search needs the pure :class:`Searcher`. On Connect Four it
    takes 12-stone values from the opening database unless ``opening_database``
    is False (:mod:`boardroom.shared.engine.opening_database`).
    """
    build = Searcher
    if backend(kernel) == "native":
        native = native_module()
        assert native is not None
        build = native.NativeSearcher
    searcher: Searcher = build(
        kernel, deadline=deadline, max_nodes=max_nodes, opening_database=opening_database
    )
    return searcher


def warm_up(kernel: SearchKernel) -> str:
    """Get the native solver ready for ``kernel``'s game before any search needs it
    (import numba, compile or load the machine code, allocate the table), and
    Connect Four's opening database with it (read it and hand it to the compiled
    solver, whichever game ``kernel`` is: the server's workers warm up on their
    first game only); say how long that took, for logs; or why the pure solver
    will run."""
    if not native_wanted():
        return f"pure-Python solver ({ENGINE_ENV}=python)"
    began = time.perf_counter()
    native = native_module()
    if native is None:
        return "pure-Python solver (numba could not be imported)"
    if not native.supports(kernel):
        return f"pure-Python solver ({kernel.game.name} is not supported natively)"
    return f"{native.warm_up(kernel, started=began)}; {native.prepare_opening_database()}"
