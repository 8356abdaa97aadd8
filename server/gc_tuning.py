"""Garbage-collector settings for a long-running server holding many small objects.

CPython frees almost everything by reference counting; its cyclic collector only
finds cycles, yet it runs a young-generation pass every 700 net allocations of
container objects and, now and then, a full pass over every tracked object. A
relayed move allocates a few hundred (messages, dataclasses, futures), and each
connection holds thousands that live as long as it does, all of which every full
pass scans. On the 2-core machine, with 6,000 idle connections held and 100 rooms
playing flat out, the loop's lag reached p99 <= 500 ms (full passes of a quarter
second) and the rooms made 4,215 moves a second; with this tuning, p99 <= 10 ms
and 6,142 moves a second (docs/benchmarks.md).

:func:`tune_for_serving`, called once the server has started:

- **freezes** everything allocated during start-up (modules, the application, the
  engine pool's handles, restored rooms) into the permanent generation, so no pass
  scans it again;
- raises the young threshold, so passes come about a fiftieth as often. Each one
  scans more objects, but most are dead by then (freed by reference counting) or
  still in use; the fixed cost per pass is what shrinks.

Memory is unaffected in practice: only cyclic garbage waits longer to be freed, and
the server makes little of it.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000
"""Net container allocations between young passes (CPython's default: 700)."""
OLDER_THRESHOLDS = (20, 20)
"""Young passes per middle pass, and middle passes per full-pass check (defaults
10, 10; CPython also skips a full pass until a quarter more objects survived)."""


def tune_for_serving() -> None:
    """Freeze the objects that exist now and make collections rarer. Call it once,
    after start-up; calling it again freezes what was allocated since."""
    gc.collect()  # do not freeze start-up's garbage along with it
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
