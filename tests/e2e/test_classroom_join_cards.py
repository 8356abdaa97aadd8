"""The class's join cards, end to end on a real class server: the address on
the join links is one the students' machines reach, whatever address the
teacher's page was opened at (:mod:`boardroom.server.classroom.join_address`); each card's
short class code signs a browser in as its student, and a wrong one makes
nobody (:mod:`boardroom.server.classroom.code_routes`)."""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server, source_connector

from boardroom.server.classroom.class_codes import ALPHABET
from boardroom.server.net_addresses import is_loopback, reachable_hosts


async def test_links_asked_from_loopback_carry_the_network_address(tmp_path: Path) -> None:
    """A server on every interface (the default), its teacher's page opened at
    127.0.0.1: the join links (new students and a new link) and the summary's
    ``join_base`` carry the first address ``serve`` prints that is not
    loopback, on the port the page used; the page is told they are reachable."""
    outward = [host for host in reachable_hosts("0.0.0.0") if not is_loopback(host)]
    # A failure, not a skip: a machine where this cannot run must not pass it.
    assert outward, "this machine has no network address but loopback: run it on one that has"
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


# -- class codes ----------------------------------------------------------------------


async def code_call(
    server: RunningServer, code: object, *, source: str | None = None
) -> tuple[int, dict[str, Any]]:
    """``POST /api/class/code`` with ``{"code": code}`` from local address ``source``."""
    async with (
        aiohttp.ClientSession(connector=source_connector(source)) as session,
        session.post(server.http_url("/api/class/code"), json={"code": code}) as response,
    ):
        return response.status, await response.json()


def counts(server: RunningServer) -> tuple[int, int]:
    """(players, students) stored."""
    with closing(sqlite3.connect(server.config.database)) as db:
        players = db.execute("SELECT count(*) FROM players").fetchone()[0]
        students = db.execute("SELECT count(*) FROM students").fetchone()[0]
    return players, students


async def add(teacher: Teacher, *names: str) -> list[dict[str, Any]]:
    status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": list(names)})
    assert status == 201, made
    accounts: list[dict[str, Any]] = made["students"]
    return accounts


async def test_a_class_code_signs_in_as_its_student_and_a_wrong_one_creates_nobody(
    tmp_path: Path,
) -> None:
    """Each class account has a code of six characters without look-alikes and a
    QR code of its join link. The code typed in any case, with a space or a
    dash, answers the student's token, as their link holds it: a hello with it
    is that student (no new player, no new roster row). A mistyped code, one
    that is no code at all, and one not of this class are refused
    (``bad_class_code``, "This code is not valid: ask your teacher for your
    card"), and none makes anyone. The database holds neither the codes nor
    the tokens."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        ann, bob = await add(teacher, "Ann", "Bob")
        for account in (ann, bob):
            assert re.fullmatch(f"[{ALPHABET}]{{6}}", account["code"]), account
            assert account["qr"].startswith("data:image/svg+xml"), account["qr"][:40]
        assert ann["code"] != bob["code"]
        before = counts(server)

        typed = f"{ann['code'][:3].lower()}-{ann['code'][3:]} "
        status, answer = await code_call(server, typed)
        assert status == 200, answer
        token = ann["join_link"].split("/#/account/")[1].split("?")[0]
        assert answer == {"player_token": token, "name": "Ann", "player_id": ann["player_id"]}
        player = await Player.connect(server.ws_url)
        welcome = await player.request(
            {"type": "hello", "name": "Ann", "version": 2, "player_token": token}
        )
        assert welcome["player_id"] == ann["player_id"], welcome
        await player.close()

        wrong = ann["code"][:5] + next(c for c in ALPHABET if c != ann["code"][5])
        for mistyped in (wrong, "O0I1L2", "K7P2", "", 12):
            status, refusal = await code_call(server, mistyped)
            if mistyped == 12:
                assert (status, refusal["error"]) == (400, "invalid_field"), refusal
                continue
            assert (status, refusal["error"]) == (404, "bad_class_code"), (mistyped, refusal)
            assert refusal["message"].startswith(
                "This code is not valid: ask your teacher for your card"
            )
        assert counts(server) == before
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Ann", "Bob"]

        with closing(sqlite3.connect(server.config.database)) as db:
            kept = " ".join(str(v) for row in db.execute("SELECT * FROM class_codes") for v in row)
        assert kept.count(" ") >= 5  # two rows of three
        for account in (ann, bob):
            assert account["code"] not in kept.upper()
            assert account["join_link"].split("/#/account/")[1][:46] not in kept


async def test_a_new_link_renews_the_code(tmp_path: Path) -> None:
    """ "New link" gives a new code with the new link: the old code opens nothing,
    the new one answers the new link's token."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        (ann,) = await add(teacher, "Ann")
        renewed = await teacher.post(f"/api/admin/students/{ann['id']}/new-link")
        assert renewed["code"] != ann["code"] and renewed["qr"].startswith("data:image/svg")
        assert (await code_call(server, ann["code"]))[0] == 404
        status, answer = await code_call(server, renewed["code"])
        assert status == 200, answer
        assert renewed["join_link"].split("/#/account/")[1].startswith(answer["player_token"])


async def test_guessing_codes_is_limited_per_address(tmp_path: Path) -> None:
    """After 20 unknown codes from one address, the next is refused with
    ``rate_limited`` before it is looked up, even a right one; another address
    is not held up. Codes that are no code at all do not count."""
    async with running_server(tmp_path / "games.db", class_name="7B", http_rate=0) as server:
        (ann,) = await add(Teacher(server), "Ann")
        others = (c for c in itertools.product(ALPHABET, repeat=6))
        guesses = 0
        for letters in others:
            guess = "".join(letters)
            if guess == ann["code"]:
                continue
            status, refusal = await code_call(server, guess, source="127.0.0.3")
            assert (status, refusal["error"]) == (404, "bad_class_code"), refusal
            guesses += 1
            if guesses == 20:
                break
        for _ in range(3):
            assert (await code_call(server, "not a code", source="127.0.0.3"))[0] == 404
        status, refusal = await code_call(server, ann["code"], source="127.0.0.3")
        assert (status, refusal["error"]) == (429, "rate_limited"), refusal
        assert refusal["retry_after"] > 0
        status, answer = await code_call(server, ann["code"], source="127.0.0.4")
        assert status == 200 and answer["name"] == "Ann", answer


async def test_guesses_sent_all_at_once_do_not_slip_past_the_limit(tmp_path: Path) -> None:
    """Forty unknown codes sent at once from one address: twenty are looked up
    (404), the other twenty refused unlooked (429), as if sent one by one."""
    async with running_server(
        tmp_path / "games.db", class_name="7B", http_rate=0, max_connections_per_address=100
    ) as server:
        (ann,) = await add(Teacher(server), "Ann")
        guesses = [g for g in ("".join(c) for c in itertools.product("23456", repeat=6))]
        guesses = [g for g in guesses if g != ann["code"]][:40]
        answers = await asyncio.gather(*(code_call(server, g, source="127.0.0.5") for g in guesses))
        statuses = sorted(status for status, _ in answers)
        assert statuses == [404] * 20 + [429] * 20, statuses


async def test_without_a_class_there_are_no_codes(tmp_path: Path) -> None:
    """Without ``--class``: ``GET /api/class`` says so (the start page offers no
    code field) and a code is refused with ``class_mode_off``."""
    async with running_server(tmp_path / "games.db") as server:
        async with (
            aiohttp.ClientSession() as session,
            session.get(server.http_url("/api/class")) as response,
        ):
            assert (response.status, await response.json()) == (200, {"class": None})
        status, refusal = await code_call(server, "K7P2QX")
        assert (status, refusal["error"]) == (404, "class_mode_off")
    async with (
        running_server(tmp_path / "class.db", class_name="7B") as server,
        aiohttp.ClientSession() as session,
        session.get(server.http_url("/api/class")) as response,
    ):
        assert await response.json() == {"class": "7B"}


# -- adding students in bulk -----------------------------------------------------------


async def test_bulk_add_reports_every_bad_line_at_once_and_adds_nobody(tmp_path: Path) -> None:
    """Six lines, four at fault (a name on the roster, one given twice, one too
    long, one with a control character) and a blank one: one refusal,
    ``bad_names``, lists the four with their line numbers (blank lines
    counted, as the teacher's box numbers them), names and problems; nobody is
    added, not even the good lines."""
    async with running_server(tmp_path / "games.db", class_name="7B") as server:
        teacher = Teacher(server)
        await add(teacher, "Ann")
        before = counts(server)
        long_name = "Bartholomew Maximilian Fitzgerald"  # 33 characters
        lines = ["Bob", "ann", "", "Cy", "bob", long_name, "Eve\u0007"]
        status, refusal, _ = await teacher.call("POST", "/api/admin/students", {"names": lines})
        assert (status, refusal["error"]) == (400, "bad_names"), refusal
        assert refusal["problems"] == [
            {
                "line": 2,
                "name": "ann",
                "problem": "on the roster already: give each one name",
                "code": "on_roster",
                "first_line": None,
            },
            {
                "line": 5,
                "name": "bob",
                "problem": "on line 1 already: give each one name",
                "code": "repeated",
                "first_line": 1,
            },
            {
                "line": 6,
                "name": long_name,
                "problem": "name is 33 characters long: choose 1 to 32",
                "code": "too_long",
                "first_line": None,
            },
            {
                "line": 7,
                "name": "Eve\u0007",
                "problem": "name holds control or invisible characters: use letters, "
                "digits, spaces and punctuation",
                "code": "invisible_characters",
                "first_line": None,
            },
        ]
        assert refusal["message"].startswith("nobody was added: 4 lines cannot be: line 2")
        assert counts(server) == before
        roster = (await teacher.get("/api/admin/roster"))["students"]
        assert [s["name"] for s in roster] == ["Ann"]
