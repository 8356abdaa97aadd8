"""tune_for_serving: start-up objects frozen, young collections rarer."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from boardroom.server.gc_tuning import OLDER_THRESHOLDS, YOUNG_THRESHOLD, tune_for_serving


@pytest.fixture
def restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored_collector")
def test_tuning_freezes_what_exists_and_raises_the_thresholds() -> None:
    """Objects alive at the call move to the permanent generation; thresholds change."""
    survivor = [object() for _ in range(10)]
    gc.unfreeze()
    tune_for_serving()
    assert gc.get_freeze_count() >= len(survivor)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
    assert YOUNG_THRESHOLD > 700  # rarer than CPython's default, the point of the change


@pytest.mark.usefixtures("restored_collector")
def test_cycles_made_after_tuning_are_still_collected() -> None:
    """The collector still runs: a reference cycle is freed by the next collection."""
    tune_for_serving()

    class Node:
        partner: object = None

    first, second = Node(), Node()
    first.partner, second.partner = second, first
    tracked = len(gc.get_objects())
    del first, second
    assert gc.collect() >= 2
    assert len(gc.get_objects()) <= tracked
