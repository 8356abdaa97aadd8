"""The TLS port's door (``--tls-cert``/``--tls-key``): connections are counted
against their address's cap and timed out from accept, before their TLS
handshake, as on the plain port (tests/e2e/test_e2e_connections.py): silent
sockets that never start TLS cannot lock everyone out (issue 28). On both event
loops the server runs on: the door does the handshake itself, and the two
loops differ in how a connection is handed over to it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme
import uvloop
from harness import TIMEOUT, Player, running_server
from websockets.asyncio.client import connect


@pytest.fixture(params=["asyncio", "uvloop"])
def event_loop_policy(request: pytest.FixtureRequest) -> asyncio.AbstractEventLoopPolicy:
    """Each test runs on asyncio's loop and on uvloop (``boardroom serve``'s default)."""
    if request.param == "uvloop":
        return uvloop.EventLoopPolicy()
    return asyncio.DefaultEventLoopPolicy()


@pytest.fixture
def certificate(tmp_path: Path) -> Iterator[tuple[Path, Path, Path]]:
    """(certificate chain, key, the authority's certificate) for 127.0.0.1, as files."""
    authority = trustme.CA()
    issued = authority.issue_cert("127.0.0.1", "localhost")
    chain, key, ca = tmp_path / "chain.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    issued.private_key_and_cert_chain_pem.write_to_path(str(chain))
    issued.private_key_pem.write_to_path(str(key))
    authority.cert_pem.write_to_path(str(ca))
    yield chain, key, ca


async def test_silent_sockets_are_counted_and_timed_out_before_their_tls_handshake(
    tmp_path: Path, certificate: tuple[Path, Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    """At a cap of 4, seven TCP sockets from one address that never start TLS:
    four are held, one more is kept (it would be told why after its handshake),
    the other two are closed at once; one warning is logged. A wss:// client
    from another address gets in and plays meanwhile. Once the handshake
    deadline passes, the silent ones are closed too (and logged once), and
    their address gets in over wss:// again."""
    caplog.set_level(logging.INFO, logger="boardroom.server.admission")
    cap, silent_count = 4, 7
    chain, key, ca = certificate
    trusting = ssl.create_default_context(cafile=str(ca))
    async with running_server(
        tmp_path / "games.db",
        tls_cert=str(chain),
        tls_key=str(key),
        max_connections_per_address=cap,
        handshake_seconds=2.0,
    ) as srv:
        url = f"wss://127.0.0.1:{srv.port}/ws"
        sockets = [
            await asyncio.open_connection("127.0.0.1", srv.port, local_addr=("127.0.0.1", 0))
            for _ in range(silent_count)
        ]
        endings = [asyncio.ensure_future(_read_to_end(reader)) for reader, _ in sockets]
        refused = []
        for ended in asyncio.as_completed(endings):
            refused.append(await ended)  # TimeoutError if none is ever closed
            if len(refused) == silent_count - cap - 1:
                break
        assert refused == [b""] * (silent_count - cap - 1)  # no TLS to answer in
        assert sum(not ending.done() for ending in endings) == cap + 1

        async with connect(url, ssl=trusting, local_addr=("127.0.0.2", 0)) as ws:
            other = Player(ws)
            welcome = await other.request({"type": "hello", "name": "other", "version": 2})
            assert welcome["type"] == "welcome", welcome
            created = await other.request({"type": "create_room", "game": "tictactoe"})
            assert created["type"] == "state", created

        warnings = _records(caplog, "connections refused")
        assert len(warnings) == 1, [record.__dict__ for record in warnings]
        assert (warnings[0].address, warnings[0].cap) == ("127.0.0.1", cap)

        assert await asyncio.gather(*endings) == [b""] * silent_count  # timed out, all
        timeouts = _records(caplog, "connections sent no request in time")
        assert len(timeouts) == 1 and timeouts[0].address == "127.0.0.1", timeouts
        async with connect(url, ssl=trusting) as ws:  # the places are free again
            ann = Player(ws)
            welcome = await ann.request({"type": "hello", "name": "ann", "version": 2})
            assert welcome["type"] == "welcome", welcome
        for _, writer in sockets:
            writer.close()


async def _read_to_end(reader: asyncio.StreamReader) -> bytes:
    """What the server sends until it closes the connection (a reset ends it
    too); TimeoutError if it keeps it open."""
    received = b""
    async with asyncio.timeout(TIMEOUT):
        with contextlib.suppress(ConnectionResetError):
            while chunk := await reader.read(65536):
                received += chunk
    return received


def _records(caplog: pytest.LogCaptureFixture, event: str) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.getMessage() == event]
