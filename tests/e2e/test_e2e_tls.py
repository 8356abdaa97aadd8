"""TLS on a real server (``--tls-cert``/``--tls-key``): https:// and wss:// on its
port, with a self-signed certificate authority made for the test (trustme); the
clients trust it through ``SSL_CERT_FILE``, as anyone's would through their system's.
Its door: tests/e2e/test_e2e_tls_door.py."""

from __future__ import annotations

import asyncio
import ssl
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
import trustme
from harness import Player, ServerProcess, run_boardroom, running_server
from repo_paths import REPO_ROOT
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidMessage


@pytest.fixture
def authority() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def certificate(authority: trustme.CA, tmp_path: Path) -> Iterator[tuple[Path, Path, Path]]:
    """(certificate chain, key, the authority's certificate) for 127.0.0.1, as files."""
    issued = authority.issue_cert("127.0.0.1", "localhost")
    chain, key, ca = tmp_path / "chain.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    issued.private_key_and_cert_chain_pem.write_to_path(str(chain))
    issued.private_key_pem.write_to_path(str(key))
    authority.cert_pem.write_to_path(str(ca))
    yield chain, key, ca


async def test_a_tls_server_answers_https_and_wss_and_nothing_in_plain_text(
    tmp_path: Path, certificate: tuple[Path, Path, Path]
) -> None:
    chain, key, ca = certificate
    trusting = ssl.create_default_context(cafile=str(ca))
    async with running_server(tmp_path / "games.db", tls_cert=str(chain), tls_key=str(key)) as srv:
        url = f"wss://127.0.0.1:{srv.port}/ws"
        async with connect(url, ssl=trusting) as ws:
            player = Player(ws)
            welcome = await player.request({"type": "hello", "name": "ann", "version": 2})
            assert welcome["type"] == "welcome", welcome
            created = await player.request({"type": "create_room", "game": "tictactoe"})
            assert created["type"] == "state"
        connector = aiohttp.TCPConnector(ssl=trusting)
        async with (
            aiohttp.ClientSession(connector=connector) as session,
            session.get(f"https://127.0.0.1:{srv.port}/healthz") as response,
        ):
            assert response.status == 200 and (await response.json())["status"] == "ok"
        with pytest.raises(ssl.SSLCertVerificationError):
            await connect(url)  # a client that does not trust the authority says why
        # Plain text gets no HTTP answer: the server speaks TLS only.
        with pytest.raises(InvalidMessage):
            await connect(f"ws://127.0.0.1:{srv.port}/ws", open_timeout=5)


async def test_the_terminal_client_plays_over_wss(
    tmp_path: Path, certificate: tuple[Path, Path, Path]
) -> None:
    """``boardroom bot`` with a wss:// address plays a whole game against the
    server's AI, trusting the authority through SSL_CERT_FILE."""
    chain, key, ca = certificate
    async with running_server(tmp_path / "games.db", tls_cert=str(chain), tls_key=str(key)) as srv:
        bot = await run_boardroom(
            *("bot", "--script", str(REPO_ROOT / "examples" / "random_bot.py")),
            *("--create", "tictactoe", "--ai", "easy", "--name", "robo"),
            *("--server", f"wss://127.0.0.1:{srv.port}/ws"),
            env={"SSL_CERT_FILE": str(ca)},
        )
    assert bot.status == 0, bot.err
    assert "1 game" in bot.out + bot.err, bot


async def test_serve_prints_https_addresses_and_refuses_a_certificate_it_cannot_read(
    tmp_path: Path, certificate: tuple[Path, Path, Path]
) -> None:
    """``boardroom serve`` with TLS prints its https:// and wss:// addresses; a
    certificate it cannot read stops the start (status 1, saying so) before the
    database is made; only one of the two flags is a usage error (status 2)."""
    chain, key, _ = certificate
    server = await ServerProcess.start(
        tmp_path / "games.db", "--tls-cert", str(chain), "--tls-key", str(key)
    )
    try:
        assert server.process.stdout is not None
        line = (await asyncio.wait_for(server.process.stdout.readline(), 30)).decode()
        port = server.port
        assert line.split() == [f"https://127.0.0.1:{port}/", f"wss://127.0.0.1:{port}/ws"]
    finally:
        await server.stop()

    async def serve(*flags: str) -> tuple[int, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "boardroom.server", "--host", "127.0.0.1", "--port", "0"),
            *("--database", str(tmp_path / "never.db"), *flags),
            cwd=REPO_ROOT,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return process.returncode, err.decode()

    status, said = await serve("--tls-cert", str(tmp_path / "nowhere.pem"), "--tls-key", str(key))
    assert status == 1 and "the TLS certificate or key do not load" in said, said
    status, said = await serve("--tls-cert", str(key), "--tls-key", str(key))  # not a chain
    assert status == 1 and "the TLS certificate or key do not load" in said, said
    assert not (tmp_path / "never.db").exists()  # nothing was taken
    status, said = await serve("--tls-cert", str(chain))
    assert status == 2 and "give both" in said, said
