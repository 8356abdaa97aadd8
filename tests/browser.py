"""The web client in a real browser, for the browser tests.

The browser is Debian's headless Chromium at ``/usr/bin/chromium`` (``make
test`` installs it; ``BOARDROOM_CHROMIUM`` names another binary), driven by
Playwright's async API (the tests run under pytest-asyncio, where the sync API
cannot). Playwright's own browser downloads are never used. A missing browser
fails the test with what to do, never skips it.

:func:`web_session` starts a server (:func:`harness.running_server`) and a
browser together; the browser tests share one browser per test process instead
(:class:`SharedChromium`), each session with contexts of its own.
:class:`WebPlayer` is one person at the web client: a page in
its own browser context (its own storage, as a separate computer would have),
with helpers that act and read the page as a person would; :meth:`WebSession.open`
opens another of the server's pages (the teacher's page, the wall) the same way.
Every request a page makes is recorded; when the session ends without error, each page must have
made requests only to the server that served it, and raised no script error.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import CuttableProxy, RunningServer, running_server
from playwright.async_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    async_playwright,
    expect,
)

CHROMIUM = os.environ.get("BOARDROOM_CHROMIUM", "/usr/bin/chromium")

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",  # tests run as root in CI, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--no-first-run",
    # Chromium's own traffic (QUIC probes, component updates, sync, safe-browsing
    # lists): this machine's closed network refuses those connections, and a
    # browser test must reach nothing but the server under test anyway.
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

TIMEOUT_MS = 10_000
"""How long a page may take to show what a test waits for: generous, for a loaded
2-core CI machine (a page normally answers in milliseconds)."""

LAPTOP = {"width": 1366, "height": 768}

expect.set_options(timeout=TIMEOUT_MS)


def chromium_path() -> str:
    """The Chromium binary; fails the test (never skips it) when it is missing."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: the browser tests drive Debian's "
            "Chromium. `make test` installs it (apt-get install chromium); or set "
            "BOARDROOM_CHROMIUM to a Chromium binary.",
            pytrace=False,
        )
    return CHROMIUM


@dataclass
class WebSession:
    """A running server and a browser, and the people at it (:meth:`person`)."""

    server: RunningServer
    browser: Browser
    base_url: str
    proxy: CuttableProxy | None = None
    """With ``through_proxy``: what the pages connect through (``proxy.cut()``)."""
    people: list[WebPlayer] = field(default_factory=list)

    async def person(
        self,
        name: str | None = None,
        *,
        viewport: dict[str, int] = LAPTOP,
        locale: str | None = None,
    ) -> WebPlayer:
        """A new person opening the page (and entering ``name`` if given), in a
        browser set to ``locale`` (``"es-ES"``: its ``navigator.languages``), or
        Chromium's own (English) if None."""
        context = await self.browser.new_context(
            viewport=viewport, base_url=self.base_url, locale=locale
        )
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        player = WebPlayer(page, self.base_url)
        self.people.append(player)
        await page.goto("/")
        if name is not None:
            await player.enter_name(name)
        return player

    async def open(
        self,
        path: str,
        *,
        viewport: dict[str, int] = LAPTOP,
        allowed_statuses: tuple[int, ...] = (),
        locale: str | None = None,
    ) -> WebPlayer:
        """A new person opening ``path`` (``/teacher#token=...``), in a browser set
        to ``locale`` as :meth:`person`'s. Chromium logs each HTTP error answer as a
        console error: those with ``allowed_statuses`` are expected by the page (a
        review of a game that does not exist)."""
        context = await self.browser.new_context(
            viewport=viewport, base_url=self.base_url, locale=locale
        )
        page = await context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        person = WebPlayer(page, self.base_url, allowed_statuses=allowed_statuses)
        self.people.append(person)
        await page.goto(path)
        return person


class SharedChromium:
    """One Chromium for every :func:`web_session` of a test process that runs on
    the event loop it was started on (the browser tests share one: see
    tests/browser/conftest.py), started at the first session that needs it.

    Why: starting Playwright's driver and Chromium, and stopping them, cost each
    browser test 1-2 s of a loaded 2-core machine, a fifth of the browser tests'
    time. What a test sees does not change: each person still has a browser
    context of their own (storage, cookies, cache: as a separate computer would),
    and every context a session opened is closed when it ends.
    """

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def serves_this_loop(self) -> bool:
        return asyncio.get_running_loop() is self._loop

    async def browser(self, executable: str) -> Browser:
        """The running Chromium, started (again, if it died) when needed."""
        if self._browser is None or not self._browser.is_connected():
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            self._browser = await self._playwright.chromium.launch(
                executable_path=executable, args=list(CHROMIUM_FLAGS)
            )
        return self._browser

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()


_SHARED: SharedChromium | None = None
"""The Chromium that :func:`web_session` reuses while :func:`sharing_chromium` is open."""


@asynccontextmanager
async def sharing_chromium() -> AsyncIterator[SharedChromium]:
    """While open, every :func:`web_session` on this event loop uses one Chromium
    (:class:`SharedChromium`); closed after. Elsewhere each session starts its own."""
    global _SHARED
    shared = SharedChromium()
    _SHARED = shared
    try:
        yield shared
    finally:
        _SHARED = None
        await shared.close()


async def _close_new_contexts(browser: Browser, before: list[BrowserContext]) -> None:
    """Close the contexts a session opened on a shared browser (its people's, and
    any the test opened itself), so that the next session starts from none."""
    for context in [context for context in browser.contexts if context not in before]:
        await context.close()


@asynccontextmanager
async def web_session(
    database: Path, *, through_proxy: bool = False, **server_overrides: Any
) -> AsyncIterator[WebSession]:
    """A server on ``database`` (config ``server_overrides``) and Chromium, stopped
    after (the shared Chromium, when :func:`sharing_chromium` is open on this
    event loop: only the contexts the session opened are closed). With
    ``through_proxy`` the pages reach the server through a
    :class:`harness.CuttableProxy` (page and WebSocket alike), so a test can cut
    their connections."""
    executable = chromium_path()
    async with AsyncExitStack() as stack:
        server = await stack.enter_async_context(running_server(database, **server_overrides))
        proxy = None
        base_url = server.http_url("")
        if through_proxy:
            proxy = await stack.enter_async_context(CuttableProxy(server.port))
            base_url = f"http://127.0.0.1:{proxy.port}"
        shared = _SHARED if _SHARED is not None and _SHARED.serves_this_loop() else None
        if shared is None:
            playwright = await stack.enter_async_context(async_playwright())
            browser = await playwright.chromium.launch(
                executable_path=executable, args=list(CHROMIUM_FLAGS)
            )
            stack.push_async_callback(browser.close)
        else:
            browser = await shared.browser(executable)
            stack.push_async_callback(_close_new_contexts, browser, list(browser.contexts))
        session = WebSession(server, browser, base_url, proxy)
        yield session
        for person in session.people:
            person.check_clean()


class WebPlayer:
    """One person using the web client in a page."""

    def __init__(
        self, page: Page, base_url: str, *, allowed_statuses: tuple[int, ...] = ()
    ) -> None:
        self.page = page
        self.origin = base_url.rstrip("/")
        self.allowed_statuses = allowed_statuses
        self.requests: list[str] = []
        """Every URL the page asked for: HTTP requests and WebSocket connections."""
        self.errors: list[str] = []
        """Script errors and console errors."""
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", lambda ws: self.requests.append(ws.url))
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # Chromium logs a WebSocket that cannot connect as a console error: that is
        # the network's doing (a test cutting the connection), not the page's.
        if message.type != "error" or message.text.startswith("WebSocket connection to"):
            return
        answered = re.match(r"Failed to load resource: .* status of (\d+)", message.text)
        if answered and int(answered.group(1)) in self.allowed_statuses:
            return
        self.errors.append(f"console: {message.text}")

    # -- reading the page ---------------------------------------------------------------

    @property
    def room(self) -> Locator:
        """The room on screen (its ``data-*`` attributes: status, moves, ply, you, to-move)."""
        return self.page.locator(".room-view")

    @property
    def turn(self) -> Locator:
        """The line under the title: whose turn, or how the game ended."""
        return self.page.locator(".room-view .turn")

    @property
    def refusal(self) -> Locator:
        """Where a refused move is explained."""
        return self.page.locator(".room-view .refusal")

    @property
    def banner(self) -> Locator:
        """The connection banner ("Reconnecting…")."""
        return self.page.locator("#banner")

    def cell(self, move: str) -> Locator:
        """A grid cell (``"b2"``) or a Connect Four column (``"4"``)."""
        if move.isdigit():
            return self.page.locator(f".column[data-column='{move}']")
        return self.page.locator(f".cell[data-cell='{move}']")

    async def data(self, key: str) -> str:
        """A ``data-*`` attribute of the room on screen."""
        return await self.room.get_attribute(f"data-{key}") or ""

    async def code(self, label: str) -> str:
        """A code shown in the room: ``"Join code"``, ``"Watch code"``, ``"Room code"``."""
        row = self.page.locator(".code-row").filter(has_text=label)
        return await row.locator("code").inner_text()

    def chat_log(self) -> Locator:
        return self.page.locator(".room-view .log")

    # -- acting -------------------------------------------------------------------------

    async def enter_name(self, name: str) -> None:
        await self.class_code_settled()
        await self.page.get_by_label("Your name").fill(name)
        await self.page.get_by_role("button", name="Enter").click()
        await expect(self.page.locator("#player-name")).to_have_text(name)
        await expect(self.page.locator(".lobby-view")).to_be_visible()
        # The lobby shows at once; what it sends before the server's welcome is
        # refused on the page ("Not sent"), as a person clicking that fast would see.
        await expect(self.page.locator("body")).to_have_attribute("data-connection", "open")

    async def class_code_settled(self) -> None:
        """Until the start page knows whether it offers a class code.

        The page asks the server (``GET /api/class``) and, told it runs a class,
        shows "Have a class code?" above the name and moves the cursor there from
        an empty name (name-view.js). A name typed just as that answer lands
        (a loaded machine, a slow answer) goes into the class code instead: Playwright
        focuses the field, then types in a second step. A person sees the field
        appear first; so does this."""
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{self.origin}/api/class") as response,
        ):
            answer = await response.json() if response.ok else {}
        if answer.get("class"):
            await expect(self.page.locator("#class-code-input")).to_be_visible()

    async def create_room(
        self,
        game: str = "tictactoe",
        *,
        ai: str | None = None,
        private: bool = False,
        seat: str = "first",
    ) -> str:
        """Open a room from the lobby's form; returns its room code."""
        page = self.page
        await page.locator("#new-game").select_option(game)
        if ai is not None:
            await page.get_by_label("The AI").check()
            await page.locator("#new-level").select_option(ai)
        await page.locator("#new-seat").select_option(seat)
        if private:
            await page.get_by_label(re.compile("Private")).check()
        await page.get_by_role("button", name="Create room").click()
        await expect(self.room).to_be_visible()
        return await self.data("room")

    async def by_code(self, action: str, code: str) -> None:
        """Join or watch (``action``) by a code typed into the lobby."""
        form = self.page.locator("#by-code")
        await form.get_by_label("Room, join or watch code").fill(code)
        await form.get_by_role("button", name=action, exact=True).click()
        await expect(self.room).to_be_visible()

    async def play(self, move: str) -> None:
        """Click a cell or column and wait until the move is on the board."""
        ply = int(await self.data("ply"))
        await self.cell(move).click()
        await expect(self.room).not_to_have_attribute("data-ply", str(ply))

    async def wait_turn(self) -> bool:
        """Wait until it is this player's move (True) or the game is over (False)."""
        await expect(self.room).to_have_attribute("data-status", re.compile("playing|finished"))
        your_turn_or_over = ".room-view[data-status='finished'], .room-view.your-turn"
        await self.page.locator(your_turn_or_over).wait_for()
        return await self.data("status") == "playing"

    # -- checks -------------------------------------------------------------------------

    def outside_requests(self) -> list[str]:
        """The URLs this page asked for outside the server's origin."""
        ws_origin = re.sub(r"^http", "ws", self.origin)
        return [
            url
            for url in self.requests
            if not (url.startswith(self.origin + "/") or url.startswith(ws_origin + "/"))
        ]

    def check_clean(self) -> None:
        """No request left the server's origin and no script error happened."""
        assert self.requests, "the page made no request at all"
        assert self.outside_requests() == [], self.outside_requests()
        assert self.errors == [], self.errors


async def stored(page: Page, key: str) -> str | None:
    """What the page keeps in localStorage under ``key`` (``boardroom.name``,
    ``boardroom.playerToken``...); None if nothing."""
    value = await page.evaluate("(key) => localStorage.getItem(key)", key)
    assert value is None or isinstance(value, str)
    return value
