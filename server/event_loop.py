"""Which asyncio event loop the server runs on: the standard one, or uvloop.

uvloop is a drop-in event loop built on libuv; the server's code is the same on
either. ``--event-loop`` picks one (``docs/operations.md``); ``auto`` takes uvloop
where it is installed (it is not on Windows) and the standard loop otherwise.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable

EVENT_LOOPS = ("auto", "asyncio", "uvloop")
"""The values of the ``event_loop`` setting."""


def uvloop_available() -> bool:
    """True if uvloop can be imported here."""
    return importlib.util.find_spec("uvloop") is not None


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The loop factory for :class:`asyncio.Runner` that ``choice`` names (None: the
    standard loop). Raises ``ValueError`` for uvloop when it is not installed."""
    if choice == "asyncio" or (choice == "auto" and not uvloop_available()):
        return None
    if not uvloop_available():
        raise ValueError("event_loop=uvloop, but uvloop is not installed: pip install uvloop")
    import uvloop

    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def event_loop_name() -> str:
    """``uvloop`` or ``asyncio``: the loop running now (call from inside it)."""
    loop = asyncio.get_running_loop()
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
