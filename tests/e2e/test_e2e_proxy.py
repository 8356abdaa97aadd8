"""Boardroom behind Caddy, as docs/internet.md sets it up: https:// and wss:// through
a real Caddy in front of a real server, with the guide's own Caddyfile and
``boardroom serve`` flags read from the page.

Only what cannot be the same here is changed: the site's name (``localhost``),
the ports (free ones, on 127.0.0.1 only), and the certificate authority: Caddy's
own local one (``local_certs``) instead of Let's Encrypt, whose root the clients
trust through ``SSL_CERT_FILE``, as anyone's would trust a public one. Caddy runs
with its home and XDG folders in the test's temporary folder (it writes its
authority and certificates there, and nothing in the real home), with its admin
endpoint off and without installing its root anywhere.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import Player, assert_alive, play_out, run_boardroom, running_server, wait_until
from repo_paths import REPO_ROOT
from services import free_port, require

from boardroom.client.cli import build_parser
from boardroom.server.config import ServerConfig, config_from

GUIDE = REPO_ROOT / "docs" / "internet.md"
GUIDE_NAME = "boardroom.example.org"
GUIDE_UPSTREAM = "127.0.0.1:8765"
GUIDE_GLOBAL_OPTIONS = "\temail admin@example.org\n"
CADDY_START_TIMEOUT = 30.0
"""Seconds for Caddy to start and have its certificate: well under one, on a quiet machine."""


def fenced_blocks(text: str, language: str) -> list[str]:
    """The bodies of the ``` blocks of ``language`` in a Markdown ``text``."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def guide_caddyfile(*, name: str, upstream_port: int, global_options: str) -> str:
    """The guide's one Caddyfile with its site ``name``, Boardroom's port and its
    global options swapped; fails if the guide no longer has what is swapped."""
    (caddyfile,) = fenced_blocks(GUIDE.read_text(), "caddyfile")
    for part in (GUIDE_NAME, GUIDE_UPSTREAM, GUIDE_GLOBAL_OPTIONS):
        assert caddyfile.count(part) == 1, f"docs/internet.md's Caddyfile lost {part!r}"
    return (
        caddyfile.replace(GUIDE_NAME, name)
        .replace(GUIDE_UPSTREAM, f"127.0.0.1:{upstream_port}")
        .replace(GUIDE_GLOBAL_OPTIONS, global_options)
    )


def guide_serve_settings() -> dict[str, Any]:
    """The settings the guide's ``boardroom serve`` line gives (its database
    aside), parsed by the real CLI: a flag renamed or gone fails here."""
    commands = [
        block
        for block in fenced_blocks(GUIDE.read_text(), "sh")
        if block.startswith("boardroom serve --host 127.0.0.1")
    ]
    assert len(commands) == 1, "docs/internet.md: one `boardroom serve --host 127.0.0.1` block"
    argv = shlex.split(commands[0].replace("\\\n", " "))
    config = config_from(build_parser().parse_args(argv[1:]), environ={})
    defaults = ServerConfig()
    return {
        setting.name: getattr(config, setting.name)
        for setting in fields(ServerConfig)
        if setting.name != "database"
        and getattr(config, setting.name) != getattr(defaults, setting.name)
    }


@dataclass(frozen=True)
class RunningCaddy:
    """A Caddy started by :func:`running_caddy`, serving ``localhost``."""

    https_port: int
    http_port: int
    root_certificate: Path

    def url(self, path: str, scheme: str = "https") -> str:
        port = self.https_port if scheme in ("https", "wss") else self.http_port
        return f"{scheme}://localhost:{port}{path}"

    def trusting(self) -> ssl.SSLContext:
        """A client context that trusts Caddy's local authority, and nothing else."""
        return ssl.create_default_context(cafile=str(self.root_certificate))


@asynccontextmanager
async def running_caddy(upstream_port: int, folder: Path) -> AsyncIterator[RunningCaddy]:
    """Run ``caddy`` with the guide's Caddyfile in front of ``upstream_port``, until
    the block ends. Its home, data, config and log are in ``folder``."""
    require("caddy")
    http_port, https_port = free_port(), free_port()
    options = (
        "\tadmin off\n"
        "\tlocal_certs\n"
        "\tskip_install_trust\n"
        "\tdefault_bind 127.0.0.1\n"
        f"\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n"
    )
    caddyfile = folder / "Caddyfile"
    caddyfile.write_text(
        guide_caddyfile(name="localhost", upstream_port=upstream_port, global_options=options)
    )
    home = folder / "home"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    caddy = shutil.which("caddy")
    assert caddy is not None
    log_path = folder / "caddy.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            *(caddy, "run", "--config", str(caddyfile), "--adapter", "caddyfile"),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=log,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
            cwd=folder,
        )
    root = home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    running = RunningCaddy(https_port, http_port, root)
    try:

        async def answers_over_https() -> bool:
            assert process.returncode is None, f"caddy stopped:\n{log_path.read_text()[-3000:]}"
            if not root.exists():
                return False
            # Until its certificate is issued, Caddy fails the handshake.
            with suppress(aiohttp.ClientError, ssl.SSLError, OSError):
                status, _, _ = await https_get(running, "/healthz")
                return status == 200
            return False

        await wait_until(answers_over_https, timeout=CADDY_START_TIMEOUT)
        yield running
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()


async def https_get(
    caddy: RunningCaddy,
    path: str,
    *,
    scheme: str = "https",
    source: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], str]:
    """GET ``path`` through Caddy (from local address ``source`` if given, with
    ``headers``), trusting its authority, not following redirects: (status,
    headers, body)."""
    local = {} if source is None else {"local_addr": (source, 0)}
    connector = aiohttp.TCPConnector(ssl=caddy.trusting(), **local)
    async with (
        aiohttp.ClientSession(connector=connector) as session,
        session.get(caddy.url(path, scheme), allow_redirects=False, headers=headers) as response,
    ):
        return response.status, dict(response.headers), await response.text()


async def test_games_are_played_over_wss_through_caddy_and_the_page_comes_over_https(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind the guide's Caddy, with the guide's server settings: the page and the
    API over https://, plain http:// redirected to https://, two people playing a
    whole game over wss://, and ``boardroom bot --server https://...`` (what a
    user types) playing one against the server's AI."""
    async with (
        running_server(tmp_path / "games.db", **guide_serve_settings()) as srv,
        running_caddy(srv.port, tmp_path) as caddy,
    ):
        status, headers, page = await https_get(caddy, "/")
        assert status == 200 and headers["Content-Type"].startswith("text/html"), page
        assert "<title>Boardroom" in page, page[:200]

        status, headers, _ = await https_get(caddy, "/", scheme="http")
        assert status == 308 and headers["Location"].startswith("https://localhost"), headers

        # The clients trust Caddy's authority as they would a public one: by the
        # system's store, which SSL_CERT_FILE stands for.
        monkeypatch.setenv("SSL_CERT_FILE", str(caddy.root_certificate))
        x_wins = ["a1", "b1", "a2", "b2", "a3"]
        game_id = await play_out(caddy.url("/ws", "wss"), "tictactoe", x_wins)
        status, _, record = await https_get(caddy, f"/api/games/{game_id}")
        assert status == 200 and '"winner"' in record, record

        bot = await run_boardroom(
            *("bot", "--script", str(REPO_ROOT / "examples" / "random_bot.py")),
            *("--create", "tictactoe", "--ai", "easy", "--name", "robo"),
            *("--server", caddy.url("", "https")),
            env={"SSL_CERT_FILE": str(caddy.root_certificate)},
        )
    assert bot.status == 0, bot.err
    assert "1 game" in bot.out + bot.err, bot


async def test_behind_caddy_each_player_has_a_budget_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the guide's ``--trusted-proxy 127.0.0.1``, two clients that Caddy
    forwards from different addresses (127.0.0.2 and 127.0.0.3) get separate
    budgets: one request each to the API (``--http-burst 1``), so the first
    client's second is 429 naming its own address, forged X-Forwarded-For or
    not, while the other is served; and one connection each
    (``--max-connections-per-address 1``), so the first client's second
    WebSocket is told ``too_many_connections`` while the other's is welcomed."""
    settings = guide_serve_settings()
    assert settings["trusted_proxies"] == "127.0.0.1", settings
    limits = {"http_rate": 0.001, "http_burst": 1, "max_connections_per_address": 1}
    async with (
        running_server(tmp_path / "games.db", **{**settings, **limits}) as srv,
        running_caddy(srv.port, tmp_path) as caddy,
    ):
        status, _, body = await https_get(caddy, "/api/rooms", source="127.0.0.2")
        assert status == 200, body
        forged = {"X-Forwarded-For": "127.0.0.9"}
        status, _, body = await https_get(caddy, "/api/rooms", source="127.0.0.2", headers=forged)
        assert status == 429 and "too many requests from 127.0.0.2:" in body, body
        status, _, body = await https_get(caddy, "/api/rooms", source="127.0.0.3")
        assert status == 200, body

        monkeypatch.setenv("SSL_CERT_FILE", str(caddy.root_certificate))
        url = caddy.url("/ws", "wss")
        ann = await Player.join_server(url, "ann", source="127.0.0.2")
        second = await Player.connect(url, source="127.0.0.2")
        refusal = await second.expect("error", code="too_many_connections")
        assert "127.0.0.2 already has 1 connections open" in refusal["message"], refusal
        bob = await Player.join_server(url, "bob", source="127.0.0.3")
        await assert_alive(ann)
        await assert_alive(bob)
        for player in (ann, second, bob):
            await player.close()


async def test_behind_caddy_without_trusted_proxy_every_client_has_the_proxys_address(
    tmp_path: Path,
) -> None:
    """Without ``--trusted-proxy`` the server reads no forwarded header, so two
    clients of different addresses share one per-address budget, named after
    127.0.0.1 (here the HTTP API's, one request and no more)."""
    async with (
        running_server(tmp_path / "games.db", http_rate=0.001, http_burst=1) as srv,
        running_caddy(srv.port, tmp_path) as caddy,
    ):
        status, _, body = await https_get(caddy, "/api/rooms", source="127.0.0.2")
        assert status == 200, body
        status, _, body = await https_get(caddy, "/api/rooms", source="127.0.0.3")
    assert status == 429, body
    assert "too many requests from 127.0.0.1" in body, body
