"""The conditions a benchmark or a load test ran under, printed above its numbers.

Timings mean little without the machine beside them: the Python version and
implementation (the engine is pure Python, so CPython's version matters), the
operating system, the cores (all of them, and those this process may use), the
CPU model, and the load average when the benchmark started, which shows whether
other jobs shared the machine.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")


def cpu_model() -> str:
    """The CPU's marketing name, or ``"unknown"`` where the system does not say."""
    try:
        for line in CPUINFO.read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "Hardware") and value.strip():
                return value.strip()
    except OSError:  # not Linux, or /proc not mounted
        pass
    return platform.processor() or "unknown"


def usable_cores() -> int:
    """Cores this process may run on (fewer than the machine's under a CPU affinity mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 0


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, or ``"unknown"``."""
    try:
        return ", ".join(f"{load:.2f}" for load in os.getloadavg())
    except (AttributeError, OSError):  # Windows has no load average
        return "unknown"


def condition_lines(extra: Iterable[tuple[str, str]] = ()) -> list[str]:
    """``label: value`` lines describing this machine, then ``extra`` pairs, aligned."""
    pairs = [
        (
            "python",
            f"{platform.python_version()} ({platform.python_implementation()}, "
            f"{platform.python_compiler()})",
        ),
        ("os", platform.platform()),
        ("cpu", cpu_model()),
        ("cores", f"{os.cpu_count()} ({usable_cores()} usable by this process)"),
        ("load average", f"{load_average()} (1, 5, 15 min) at start"),
        *extra,
    ]
    width = max(len(label) for label, _ in pairs)
    return [f"{label.ljust(width)}  {value}" for label, value in pairs]
