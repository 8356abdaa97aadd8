"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store import GameStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file that does not exist yet, in the test's own directory."""
    return tmp_path / "games.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[GameStore]:
    """A store open on :func:`db_path` for the test, closed after it."""
    async with GameStore(db_path) as opened:
        yield opened
