"""The check every unit test of a room's part makes of a refusal: it changes nothing."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from boardroom.server.core.room_draft import RefusedError
from boardroom.shared.protocol.errors import ErrorCode


def refused_unchanged(part: object, code: ErrorCode, act: Callable[[], object]) -> str:
    """Assert ``act`` is refused with ``code`` and leaves ``part`` (a seating, a
    game, the AI's turns) as it was; the refusal's message."""
    before = copy.deepcopy(part)
    with pytest.raises(RefusedError) as refusal:
        act()
    assert refusal.value.code is code
    assert part == before
    return refusal.value.message
