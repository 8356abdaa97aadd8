"""A room's random source, put back to a mark without copying its state at every mark.

A room is marked before every input (:meth:`boardroom.server.core.room.Room.snapshot`,
so that the adapter can undo an input the store refused), and most inputs draw
nothing from the room's random source: a move between two people draws nothing;
a move against the server AI draws its search's seed. ``random.Random.getstate``
copies the whole Mersenne Twister state (625 integers, about 10 µs and as much
again to free them), so taking it at every mark cost a tenth of the server's CPU a
move (issue 29). :class:`RewindableRandom` saves the state only when it is first
drawn from after a mark: a mark costs one small object, and a draw after it the
copy it needs.

Every draw of :class:`random.Random` goes through ``random()`` or
``getrandbits()`` (``choice``, ``shuffle``, ``randrange``... are built on them),
so the wrapper sees each one; it draws from the source it wraps, so the numbers
are the source's own sequence, as if the room drew from it directly.

>>> source = random.Random(7)
>>> rng = RewindableRandom(source)
>>> mark = rng.mark()
>>> first = [rng.random(), rng.choice("abc")]
>>> rng.rewind(mark)
>>> [rng.random(), rng.choice("abc")] == first
True
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["RandomMark", "RewindableRandom"]


class RandomMark:
    """A moment of a :class:`RewindableRandom` (:meth:`~RewindableRandom.mark`); opaque.

    ``state`` is the source's state at the mark, saved at the first draw after it
    (None: nothing drawn while the mark was the latest); ``next`` is the mark taken
    after this one while nothing was drawn, whose state is then this one's too."""

    __slots__ = ("next", "state")

    def __init__(self) -> None:
        self.state: tuple[Any, ...] | None = None
        self.next: RandomMark | None = None

    def saved_state(self) -> tuple[Any, ...] | None:
        """The source's state at this mark, if it was drawn from since (None: it was not)."""
        mark: RandomMark | None = self
        while mark is not None:
            if mark.state is not None:
                return mark.state
            mark = mark.next
        return None


class RewindableRandom(random.Random):
    """``source``, drawn from through this object, which can be put back to any
    mark taken of it (see the module docstring). ``getstate`` and ``setstate`` are
    the source's."""

    def __init__(self, source: random.Random) -> None:
        super().__init__(0)  # the base's own generator is never drawn from
        self._source = source
        self._mark: RandomMark | None = None
        """The latest mark, or None before the first."""

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy (copy.deepcopy, pickle) wraps a copy of the source, without the marks.
        return (type(self), (self._source,))

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Seed the source (while it is being built: the unused generator of the base)."""
        if getattr(self, "_source", None) is None:
            super().seed(a, version)
            return
        self._before_draw()
        self._source.seed(a, version)

    def random(self) -> float:
        self._before_draw()
        return self._source.random()

    def getrandbits(self, k: int, /) -> int:
        self._before_draw()
        return self._source.getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        return self._source.getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._before_draw()
        self._source.setstate(state)

    def mark(self) -> RandomMark:
        """The source's state now, to :meth:`rewind` to (saved only once it is drawn from)."""
        mark = RandomMark()
        latest = self._mark
        if latest is not None and latest.state is None:
            latest.next = mark  # nothing drawn since: the same state as the new mark's
        self._mark = mark
        return mark

    def rewind(self, mark: RandomMark) -> None:
        """Put the source back as it was at ``mark`` (taken of this object)."""
        latest = self._mark
        if latest is not None and latest.state is None and latest is not mark:
            # The latest mark's state is the state now: kept before it is changed, in
            # case that mark is rewound to later.
            latest.state = self._source.getstate()
        state = mark.saved_state()
        if state is not None:
            self._source.setstate(state)
        # From here the source is as at `mark`: its next draw saves the state for it.
        mark.state, mark.next = state, None
        self._mark = mark

    def _before_draw(self) -> None:
        latest = self._mark
        if latest is not None and latest.state is None:
            latest.state = self._source.getstate()
