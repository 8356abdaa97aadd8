"""``--trusted-proxy``, end to end with the test as the proxy: requests from
127.0.0.1 (trusted) carry ``X-Forwarded-For`` as a proxy writes it, and every
per-address limit counts the forwarded client: the connection cap, the HTTP
rate, rooms per address and the refused-token budget. A peer that is not
trusted (127.0.0.2: loopback answers on all of 127.0.0.0/8) is its own client
whatever header it sends. (tests/e2e/test_e2e_proxy.py does the same through a
real Caddy.)
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from harness import (
    TIMEOUT,
    Player,
    RunningServer,
    assert_alive,
    raw_upgrade,
    running_server,
    source_connector,
    wait_until,
)

from boardroom.server.admission import ADMISSION

PROXY = "127.0.0.1"
UNTRUSTED = "127.0.0.2"
ANN, BOB = "203.0.113.7", "2001:db8::8"
"""Two players' addresses as the proxy names them (documentation ranges)."""


async def api_get(
    server: RunningServer, *, forwarded: str | None = None, source: str | None = None
) -> tuple[int, dict[str, Any]]:
    """GET /api/rooms from ``source`` (default 127.0.0.1) with ``X-Forwarded-For:
    forwarded`` if given: (status, the JSON body)."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    async with (
        aiohttp.ClientSession(connector=source_connector(source)) as session,
        session.get(server.http_url("/api/rooms"), headers=headers) as response,
    ):
        return response.status, json.loads(await response.text())


async def proxied_get(
    session: aiohttp.ClientSession, server: RunningServer, client: str
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """GET /api/rooms on ``session`` for ``client``: (status, headers, JSON body)."""
    headers = {"X-Forwarded-For": client}
    async with session.get(server.http_url("/api/rooms"), headers=headers) as response:
        return response.status, dict(response.headers), await response.json()


async def forwarded_player(server: RunningServer, client: str, name: str | None = None) -> Player:
    """A WebSocket through the 'proxy' for ``client``; hello said if ``name`` is given."""
    player = await Player.connect(server.ws_url, headers={"X-Forwarded-For": client})
    if name is not None:
        welcome = await player.request({"type": "hello", "name": name, "version": 2})
        assert welcome["type"] == "welcome", welcome
    return player


async def test_each_forwarded_client_has_its_own_http_budget_and_only_the_proxy_is_believed(
    tmp_path: Path,
) -> None:
    """One API request each (``--http-burst 1``, a rate of one in 1000 s): Ann's
    second is 429 naming her address, Bob's first is served. A peer that is not
    trusted is counted as itself, whatever X-Forwarded-For it sends; a header
    from the proxy that does not parse counts as the proxy's own request."""
    async with running_server(
        tmp_path / "games.db", trusted_proxies=PROXY, http_rate=0.001, http_burst=1
    ) as server:
        assert (await api_get(server, forwarded=ANN))[0] == 200
        status, body = await api_get(server, forwarded=f"10.9.9.9, {ANN}")  # Ann forging
        assert status == 429 and f"too many requests from {ANN}:" in body["message"], body
        assert (await api_get(server, forwarded=BOB))[0] == 200

        assert (await api_get(server, source=UNTRUSTED, forwarded="198.51.100.1"))[0] == 200
        status, body = await api_get(server, source=UNTRUSTED, forwarded="198.51.100.2")
        assert status == 429 and f"from {UNTRUSTED}:" in body["message"], body

        assert (await api_get(server, forwarded="not an address"))[0] == 200
        status, body = await api_get(server)
        assert status == 429 and f"from {PROXY}:" in body["message"], body


async def test_the_connection_cap_counts_forwarded_clients_and_not_the_proxys_connections(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A cap of one connection per address. The proxy holds three connections
    (idle ones, kept for later requests, and Ann's WebSocket) and is never
    refused; Ann's second WebSocket is told ``too_many_connections`` naming her
    address and closed with 1013, and logged; Bob's is welcomed; once Ann's
    first closes, her place is free again."""
    caplog.set_level(logging.WARNING, logger="boardroom.server.admission")
    async with running_server(
        tmp_path / "games.db",
        trusted_proxies=PROXY,
        max_connections_per_address=1,
        handshake_seconds=60.0,
    ) as server:
        async with aiohttp.ClientSession() as idle:  # keeps its connection open after
            for _ in range(2):
                assert (await idle.get(server.http_url("/healthz"))).status == 200
            ann = await forwarded_player(server, ANN, "ann")

            second = await forwarded_player(server, ANN)
            refusal = await second.expect("error", code="too_many_connections")
            assert f"{ANN} already has 1 connections open" in refusal["message"], refusal
            assert await second.closed() == 1013

            bob = await forwarded_player(server, BOB, "bob")
            await assert_alive(ann)
            await assert_alive(bob)
            refused = [r for r in caplog.records if r.getMessage() == "connections refused"]
            assert [r.__dict__["address"] for r in refused] == [ANN], refused

            admission = server.app[ADMISSION]
            assert admission.held(ANN) == 1 and admission.held(PROXY) == 0
            await ann.close()
            await wait_until(lambda: admission.held(ANN) == 0)
            again = await forwarded_player(server, ANN, "ann")
            await assert_alive(again)
            await again.close()
            await bob.close()

        # Not trusted: its header is nothing, and the cap is on its own address.
        mallory = await Player.connect(
            server.ws_url, source=UNTRUSTED, headers={"X-Forwarded-For": ANN}
        )
        assert admission.held(UNTRUSTED) == 1 and admission.held(ANN) == 0
        again = await Player.connect(
            server.ws_url, source=UNTRUSTED, headers={"X-Forwarded-For": BOB}
        )
        refusal = await again.expect("error", code="too_many_connections")
        assert f"{UNTRUSTED} already has 1" in refusal["message"], refusal
        await mallory.close()


async def test_room_caps_and_the_token_budget_count_the_forwarded_client(tmp_path: Path) -> None:
    """One room per address: Ann's second session is refused a room, Bob's is not.
    Ten refused player tokens from Ann: her next refusal is answered late, while
    Bob's, behind the same proxy, is answered at once."""
    async with running_server(
        tmp_path / "games.db", trusted_proxies=PROXY, max_rooms_per_address=1
    ) as server:
        ann = await forwarded_player(server, ANN, "ann")
        created = await ann.request({"type": "create_room", "game": "connect4"})
        assert created["type"] == "state", created
        ann_again = await forwarded_player(server, ANN, "ann's bot")
        reply = await ann_again.request({"type": "create_room", "game": "connect4"})
        assert reply["type"] == "error" and reply["code"] == "too_many_rooms", reply
        bob = await forwarded_player(server, BOB, "bob")
        created = await bob.request({"type": "create_room", "game": "connect4"})
        assert created["type"] == "state", created

        guesser = await forwarded_player(server, ANN)

        def guess(number: int) -> dict[str, Any]:
            token = f"bp_{number:043d}"
            return {"type": "hello", "name": "eve", "version": 2, "player_token": token}

        for number in range(10):
            reply = await guesser.request(guess(number))
            assert reply["code"] == "bad_player_token", reply
        late = asyncio.create_task(guesser.request(guess(10)))
        honest = await forwarded_player(server, BOB)
        reply = await honest.request(guess(0))
        assert reply["code"] == "bad_player_token", reply
        assert not late.done(), "Ann's 11th refusal came at once"
        assert (await late)["code"] == "bad_player_token"
        for player in (ann, ann_again, bob, guesser, honest):
            await player.close()


async def test_with_one_being_told_the_next_request_gets_the_503_and_the_proxy_keeps_its_line(
    tmp_path: Path,
) -> None:
    """Ann holds her one connection; her second WebSocket is being told why (its
    close not yet answered, so it stays the one being told). A third request for
    her gets the 503 ``too_many_connections`` at once, on the proxy's connection,
    which stays open: Bob's request on it next is served."""
    async with running_server(
        tmp_path / "games.db", trusted_proxies=PROXY, max_connections_per_address=1
    ) as server:
        ann = await forwarded_player(server, ANN, "ann")
        reader, writer = await raw_upgrade(server.port, f"X-Forwarded-For: {ANN}")
        told = b""
        while b"too_many_connections" not in told:  # the 101, then the error frame
            told += await asyncio.wait_for(reader.read(4096), TIMEOUT)
        assert told.startswith(b"HTTP/1.1 101 "), told

        async with aiohttp.ClientSession() as proxy:  # one connection, kept alive
            status, headers, body = await proxied_get(proxy, server, ANN)
            assert status == 503 and body["error"] == "too_many_connections", body
            assert f"{ANN} already has 1" in body["message"], body
            assert headers.get("Connection", "").lower() != "close", headers
            status, _, body = await proxied_get(proxy, server, BOB)
            assert status == 200 and body["total"] == 0, body
        writer.close()
        await ann.close()
