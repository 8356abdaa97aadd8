"""The browser tests share one event loop and one Chromium per test process.

Every test here runs on the session's event loop (the root conftest marks them),
so that :func:`browser.sharing_chromium` can keep one Chromium running from test
to test: Playwright's driver and browser belong to the loop that started them.
Each test still starts its own server and gives each person a browser context
of their own (tests/browser.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from browser import SharedChromium, sharing_chromium


@pytest_asyncio.fixture(scope="session", loop_scope="session", autouse=True)
async def shared_chromium() -> AsyncIterator[SharedChromium]:
    """The Chromium the browser tests of this process share, started at first use."""
    async with sharing_chromium() as shared:
        yield shared
