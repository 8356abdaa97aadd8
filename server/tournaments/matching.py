"""Perfect matchings in a graph of allowed pairs: Edmonds' blossom algorithm.

The Swiss pairing (:mod:`boardroom.server.tournaments.swiss`) asks two questions of the
graph whose edges are the pairs allowed to meet: is there a pairing of everyone
(a perfect matching), and does one survive fixing a given pair? Vertices are
ints ``0..n-1``; ``adjacent[v]`` lists v's neighbours; only ``active`` vertices
take part; ``mate[v]`` is v's partner or -1.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["augment", "maximum_matching", "still_perfect"]


def augment(
    adjacent: Sequence[Sequence[int]], mate: list[int], root: int, active: list[bool]
) -> bool:
    """Grow ``mate`` by one pair along an augmenting path from exposed ``root``.

    ``mate[v]`` is v's partner or -1; only ``active`` vertices take part. Returns
    False (leaving ``mate`` as it was) when no augmenting path starts at ``root``:
    then, by Berge's theorem, no larger matching covers ``root``. Odd cycles
    (blossoms) are contracted by giving their vertices a common ``base``.
    """
    size = len(mate)
    base = list(range(size))
    parent = [-1] * size
    outer = [False] * size  # on the search tree at an even distance from the root
    outer[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        on_path = [False] * size
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while not on_path[base[b]]:
            b = parent[mate[base[b]]]
        return base[b]

    def mark_blossom(v: int, stop: int, child: int, in_blossom: list[bool]) -> None:
        while base[v] != stop:
            in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for w in adjacent[v]:
            if not active[w] or base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != -1 and parent[mate[w]] != -1):
                stop = common_base(v, w)
                in_blossom = [False] * size
                mark_blossom(v, stop, w, in_blossom)
                mark_blossom(w, stop, v, in_blossom)
                for u in range(size):
                    if in_blossom[base[u]]:
                        base[u] = stop
                        if not outer[u]:
                            outer[u] = True
                            queue.append(u)
            elif parent[w] == -1:
                parent[w] = v
                if mate[w] == -1:  # exposed: flip the path back to the root
                    while w != -1:
                        previous = mate[parent[w]]
                        mate[w], mate[parent[w]] = parent[w], w
                        w = previous
                    return True
                outer[mate[w]] = True
                queue.append(mate[w])
    return False


def maximum_matching(adjacent: Sequence[Sequence[int]], active: list[bool]) -> list[int]:
    """A maximum matching of the active vertices, as ``mate``."""
    # One search per vertex suffices: a vertex with no augmenting path now
    # never gets one from later augmentations.
    mate = [-1] * len(adjacent)
    for v, is_active in enumerate(active):
        if is_active and mate[v] == -1:
            augment(adjacent, mate, v, active)
    return mate


def still_perfect(
    adjacent: Sequence[Sequence[int]], mate: list[int], active: list[bool], a: int, b: int
) -> bool:
    """Whether a perfect ``mate`` of the active vertices survives pairing ``a`` with ``b``.

    If so, ``a`` and ``b`` are deactivated and ``mate`` is left perfect on the
    rest. Removing a, b and their partners leaves the partners exposed; one
    augmenting path between them restores a perfect matching, if any exists.
    """
    if mate[a] == b:
        active[a] = active[b] = False
        mate[a] = mate[b] = -1
        return True
    trial = list(mate)
    partner_a, partner_b = trial[a], trial[b]
    for v in (a, b, partner_a, partner_b):
        trial[v] = -1
    active[a] = active[b] = False
    if augment(adjacent, trial, partner_a, active):
        mate[:] = trial
        return True
    active[a] = active[b] = True
    return False
