"""What every process of the load tool sets up first: its open-file limit and its
event loop.

Each connection is a file descriptor, and a shell's default soft limit (often
1,024) is far below a load test's thousands of connections. The soft limit may
be raised up to the hard limit without privileges, so every process of the tool
does that (the main process before it starts a server, which inherits it).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from collections.abc import Callable

NR_OPEN = "/proc/sys/fs/nr_open"
"""Linux's ceiling for a process's open files, when the hard limit says "unlimited"."""


def raise_open_file_limit() -> int | None:
    """Raise this process's soft limit on open files to its hard limit; the soft
    limit now in force (None where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard
    if hard == resource.RLIM_INFINITY:
        # "Unlimited" is refused as a soft limit: take the kernel's real ceiling.
        try:
            with open(NR_OPEN, encoding="ascii") as ceiling:
                target = int(ceiling.read())
        except (OSError, ValueError):
            target = 1 << 20
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return int(soft)  # some systems cap it lower; go on with what we have
        return int(target)
    return int(soft)


def client_loop() -> tuple[Callable[[], asyncio.AbstractEventLoop] | None, str]:
    """The event loop factory for the tool's workers, and its name: uvloop where it
    is installed (it handles more connections per core), else the standard loop."""
    if importlib.util.find_spec("uvloop") is None:
        return None, "asyncio"
    uvloop = importlib.import_module("uvloop")
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory, "uvloop"
