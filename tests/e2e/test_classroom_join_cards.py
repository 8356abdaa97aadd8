"""The class's join cards, end to end on a real class server: the address on
the join links is one the students' machines reach, whatever address the
teacher's page was opened at (:mod:`server.classroom.join_address`)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
from classroom_helpers import Teacher
from harness import running_server

from server.net_addresses import is_loopback, reachable_hosts


async def test_links_asked_from_loopback_carry_the_network_address(tmp_path: Path) -> None:
    """A server on every interface (the default), its teacher's page opened at
    127.0.0.1: the join links (new students and a new link) and the summary's
    ``join_base`` carry the first address ``serve`` prints that is not
    loopback, on the port the page used; the page is told they are reachable."""
    outward = [host for host in reachable_hosts("0.0.0.0") if not is_loopback(host)]
    if not outward:
        pytest.skip("this machine has no network address but loopback")
    async with running_server(tmp_path / "games.db", class_name="7B", host="0.0.0.0") as server:
        teacher = Teacher(server)  # it calls http://127.0.0.1:PORT/api/admin/...
        expected = f"http://{outward[0]}:{server.port}/"
        summary = await teacher.get("/api/admin/class")
        assert (summary["join_base"], summary["join_reachable"]) == (expected, True)
        status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
        assert status == 201, made
        (ann,) = made["students"]
        assert ann["join_link"].startswith(f"{expected}#/account/bp_"), ann
        renewed = await teacher.post(f"/api/admin/students/{ann['id']}/new-link")
        assert renewed["join_link"].startswith(f"{expected}#/account/bp_"), renewed


async def test_links_carry_the_public_url_when_one_is_given(tmp_path: Path) -> None:
    """Behind a proxy or a DNS name (``--public-url``), the links carry it as given."""
    public = "https://chess.school.example/boardroom/"
    async with running_server(tmp_path / "games.db", class_name="7B", public_url=public) as server:
        teacher = Teacher(server)
        summary = await teacher.get("/api/admin/class")
        assert (summary["join_base"], summary["join_reachable"]) == (public, True)
        status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
        assert status == 201, made
        assert made["students"][0]["join_link"].startswith(f"{public}#/account/bp_")


async def test_a_server_on_loopback_only_says_its_links_reach_nobody(tmp_path: Path) -> None:
    """Bound to 127.0.0.1, no student's machine reaches the server: the links
    stay on 127.0.0.1 (there is no better) and the page is told so."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        summary = await Teacher(server).get("/api/admin/class")
        assert summary["join_base"] == f"http://127.0.0.1:{server.port}/"
        assert summary["join_reachable"] is False
        assert urlsplit(summary["join_base"]).hostname == "127.0.0.1"
