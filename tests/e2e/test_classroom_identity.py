"""Who a class's students are, against a student who tries to break it: a
mistyped key makes nobody, the roster's name is the student's whatever their
hello says, a hello flood from one address is capped, and the teacher's views
stay a page long however many students there are (issue 24, sections 1, 3 and 4).

Each test runs a real class server on a free port, real WebSocket clients and
the teacher's HTTP API. Sources 127.0.0.x stand for a school's one NAT address
and for a second one.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from classroom_helpers import Teacher, a_class_of
from harness import Player, RunningServer, running_server

from boardroom.server.classroom.admin_routes import ROSTER_PAGE_DEFAULT, ROSTER_PAGE_MAX
from boardroom.server.core.limits import DEFAULT_NEW_PLAYERS

SCHOOL = "127.0.0.2"
"""The school's one NAT address: every student of the class connects from it."""
ELSEWHERE = "127.0.0.3"


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    """A class server with the default caps on new players, but room for a
    class's worth of connections and API calls from one address."""
    async with running_server(
        tmp_path / "games.db", class_name="7B", http_rate=0, max_connections_per_address=200
    ) as running:
        yield running


async def say_hello(
    server: RunningServer, name: str, token: str | None = None, *, source: str | None = None
) -> tuple[Player, dict[str, Any]]:
    """A new connection's version-2 hello as a person; the connection and the reply."""
    player = await Player.connect(server.ws_url, source=source)
    said: dict[str, Any] = {"type": "hello", "name": name, "version": 2, "client": "human"}
    if token is not None:
        said["player_token"] = token
    return player, await player.request(said)


async def accounts(teacher: Teacher, *names: str) -> list[dict[str, Any]]:
    """Class accounts for ``names`` (POST /api/admin/students): each with its
    id, player id and token (from its join link)."""
    made = await teacher.call("POST", "/api/admin/students", {"names": list(names)})
    assert made[0] == 201, made
    students: list[dict[str, Any]] = made[1]["students"]
    for student in students:
        student["token"] = student["join_link"].split("#/account/")[1].split("?")[0]
    return students


def stored_players(database: Path) -> int:
    with closing(sqlite3.connect(database)) as db:
        count: int = db.execute("SELECT count(*) FROM players").fetchone()[0]
        return count


def mistyped(token: str) -> str:
    """``token`` with one character changed, as a student copying a card might."""
    at = len(token) // 2
    return token[:at] + ("l" if token[at] != "l" else "I") + token[at + 1 :]


# -- a wrong key creates nobody ----------------------------------------------------------


async def test_a_mistyped_key_is_refused_and_makes_no_player_and_no_roster_row(
    server: RunningServer,
) -> None:
    """Bob Smith's key with one character changed: ``unknown_class_token`` (not
    ``bad_player_token``, after which a client would say hello without a key and
    be a new student), no player stored, the roster still the one student. The
    connection stays open, and the right key then gets in as Bob Smith."""
    teacher = Teacher(server)
    (bob,) = await accounts(teacher, "Bob Smith")
    players_before = stored_players(Path(server.config.database))

    player, refused = await say_hello(server, "Bob Smith", mistyped(bob["token"]))
    assert (refused["type"], refused["code"]) == ("error", "unknown_class_token"), refused
    assert "ask your teacher for your card" in refused["message"]
    assert stored_players(Path(server.config.database)) == players_before
    roster = await teacher.get("/api/admin/roster")
    assert [s["name"] for s in roster["students"]] == ["Bob Smith"] and roster["total"] == 1
    assert (await teacher.get("/api/admin/class"))["students"] == 1

    welcome = await player.request(
        {"type": "hello", "name": "Bob Smith", "version": 2, "player_token": bob["token"]}
    )
    assert (welcome["type"], welcome["player_id"]) == ("welcome", bob["player_id"]), welcome
    await player.close()


async def test_outside_class_mode_an_unknown_token_is_still_bad_player_token(
    tmp_path: Path,
) -> None:
    """Without a class nobody's key is on a card: the client may be a new player."""
    async with running_server(tmp_path / "games.db") as plain:
        player, refused = await say_hello(plain, "ann", "bp_" + "A" * 43)
        assert refused["code"] == "bad_player_token", refused
        await player.close()


# -- names the class can trust -------------------------------------------------------------


async def test_an_accounts_name_is_the_rosters_whatever_the_hello_says(
    server: RunningServer,
) -> None:
    """Bob's key with ``name: "Ann"`` while Ann is away: welcomed as Bob, told
    his name is locked; his opponent sees Bob in the room; his stored player is
    still Bob; the roster says Bob. Ann then comes in as Ann."""
    teacher = Teacher(server)
    ann, bob = await accounts(teacher, "Ann", "Bob")
    impostor, welcome = await say_hello(server, "Ann", bob["token"])
    assert welcome["type"] == "welcome", welcome
    assert (welcome["name"], welcome["player_id"]) == ("Bob", bob["player_id"])
    assert welcome["name_locked"] is True

    created = await impostor.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]
    real_ann, ann_welcome = await say_hello(server, "Ann", ann["token"])
    assert (ann_welcome["name"], ann_welcome["name_locked"]) == ("Ann", True)
    joined = await real_ann.request({"type": "join", "code": code})
    names = {seat["side"]: seat.get("name") for seat in joined["room"]["seats"]}
    assert names == {"first": "Bob", "second": "Ann"}, names
    chat = await impostor.request({"type": "chat", "room": code, "text": "hi"})
    assert chat.get("name", "Bob") == "Bob", chat

    roster = {s["id"]: s["name"] for s in (await teacher.get("/api/admin/roster"))["students"]}
    assert roster == {ann["id"]: "Ann", bob["id"]: "Bob"}
    with closing(sqlite3.connect(server.config.database)) as db:
        (stored,) = db.execute("SELECT name FROM players WHERE id = ?", (bob["player_id"],))
    assert stored == ("Bob",)
    for player in (impostor, real_ann):
        await player.close()


async def test_a_student_cannot_rename_themselves_but_the_teacher_can(
    server: RunningServer,
) -> None:
    """Zoë joined by typing her name (no card): her next hello as "xXdragonXx"
    is welcomed as Zoë (classmates and the wall see Zoë); the teacher's rename
    to "Zoe B" is her name from then on, whatever her hello says."""
    teacher = Teacher(server)
    first, welcome = await say_hello(server, "Zoë")
    assert (welcome["name"], welcome["name_locked"]) == ("Zoë", True)
    await first.close()

    again, renamed = await say_hello(server, "xXdragonXx", welcome["player_token"])
    assert (renamed["name"], renamed["name_locked"]) == ("Zoë", True)
    watcher, _ = await say_hello(server, "wall")
    created = await again.request({"type": "create_room", "game": "tictactoe"})
    seen = await watcher.request({"type": "watch", "code": created["room"]["code"]})
    assert [seat.get("name") for seat in seen["room"]["seats"]] == ["Zoë", None]
    await again.close()

    zoe = await teacher.student_id("Zoë")
    await teacher.post(f"/api/admin/students/{zoe}/rename", {"name": "Zoe B"})
    back, welcome = await say_hello(server, "xXdragonXx", welcome["player_token"])
    assert welcome["name"] == "Zoe B"
    for player in (back, watcher):
        await player.close()


async def test_a_newcomer_typing_a_classmates_name_is_told_apart_even_while_away(
    server: RunningServer,
) -> None:
    """Ann's account has never connected: a newcomer typing "ann" is welcomed
    as "ann 2" and is on the roster so, beside Ann. Ann's card still gets her
    in as Ann."""
    teacher = Teacher(server)
    (ann,) = await accounts(teacher, "Ann")
    newcomer, welcome = await say_hello(server, "ann")
    assert (welcome["name"], welcome["new_player"]) == ("ann 2", True), welcome
    real, hers = await say_hello(server, "whoever", ann["token"])
    assert hers["name"] == "Ann"
    roster = await teacher.get("/api/admin/roster")
    assert sorted(s["name"] for s in roster["students"]) == ["Ann", "ann 2"]
    for player in (newcomer, real):
        await player.close()


async def test_outside_class_mode_a_player_names_itself(tmp_path: Path) -> None:
    """No roster, no lock: the same token says hello under a new name and has it."""
    async with running_server(tmp_path / "games.db") as plain:
        first, welcome = await say_hello(plain, "ann")
        assert welcome.get("name_locked", False) is False
        await first.close()
        again, renamed = await say_hello(plain, "annie", welcome["player_token"])
        assert renamed["name"] == "annie" and renamed.get("name_locked", False) is False
        await again.close()


# -- a hello flood ---------------------------------------------------------------------------


async def test_a_hello_flood_from_one_address_is_capped_and_a_class_still_gets_in(
    server: RunningServer,
) -> None:
    """A class of 35 joins at once from the school's address: all welcomed.
    Then one of them floods (28 connections, each connect, hello, close, again):
    past the cap every new player is refused ``rate_limited`` with
    ``retry_after`` and nothing is made; the roster stops at the cap. A
    returning student (a valid key) from the same address, and a newcomer from
    elsewhere, still get in."""
    teacher = Teacher(server)
    joined = await asyncio.gather(
        *(say_hello(server, f"kid{n:02d}", source=SCHOOL) for n in range(35))
    )
    assert all(welcome["type"] == "welcome" for _, welcome in joined)
    for player, _ in joined[1:]:
        await player.close()

    refusals: list[dict[str, Any]] = []

    async def flood(worker: int) -> None:
        for attempt in range(5):
            player, reply = await say_hello(server, f"spam{worker}-{attempt}", source=SCHOOL)
            if reply["type"] == "error":
                refusals.append(reply)
            await player.close()

    await asyncio.gather(*(flood(worker) for worker in range(28)))
    # All but what was left of the cap after the class (and the odd one earned back).
    assert len(refusals) >= 28 * 5 - (DEFAULT_NEW_PLAYERS - 35) - 2, len(refusals)
    assert {r["code"] for r in refusals} == {"rate_limited"}
    assert all(r["retry_after"] > 0 for r in refusals)
    assert "new players" in refusals[0]["message"]
    summary = await teacher.get("/api/admin/class")
    # The cap, and the odd one earned back while the flood ran.
    assert summary["students"] <= DEFAULT_NEW_PLAYERS + 2, summary

    returning, welcome = await say_hello(
        server, "kid00", joined[0][1]["player_token"], source=SCHOOL
    )
    assert welcome["type"] == "welcome" and welcome["name"] == "kid00", welcome
    newcomer, fresh = await say_hello(server, "neighbour", source=ELSEWHERE)
    assert fresh["type"] == "welcome" and fresh["new_player"] is True, fresh
    for player in (joined[0][0], returning, newcomer):
        await player.close()


async def test_spectators_have_a_cap_of_their_own_and_never_keep_a_student_out(
    server: RunningServer,
) -> None:
    """Spectators keep no token, so every Watch tab and projector's visit makes a
    player: from the school's address they use up a cap of their own (refused
    ``rate_limited`` past it), and a student who joins after them is welcomed."""
    refused = 0
    for n in range(DEFAULT_NEW_PLAYERS + 3):
        watcher = await Player.connect(server.ws_url, source=SCHOOL)
        hello = {"type": "hello", "name": f"tab{n}", "version": 2, "client": "spectator"}
        reply = await watcher.request(hello)
        refused += reply["type"] == "error" and reply["code"] == "rate_limited"
        await watcher.close()
    assert refused in range(1, 4), refused  # past the cap (bar the odd one earned back)
    student, welcome = await say_hello(server, "kid", source=SCHOOL)
    assert welcome["type"] == "welcome" and welcome["new_player"] is True, welcome
    await student.close()


# -- the teacher's views at thousands of students ---------------------------------------------


async def timed_get(teacher: Teacher, path: str) -> tuple[float, int, Any]:
    """Seconds a GET took, the bytes of its body, and the body."""
    started = time.perf_counter()
    status, body, headers = await teacher.call("GET", path)
    took = time.perf_counter() - started
    assert status == 200, body
    return took, int(headers.get("Content-Length", 0)), body


async def test_a_roster_of_five_thousand_is_a_page_at_a_time_and_moves_go_on(
    tmp_path: Path,
) -> None:
    """5,000 students: the roster answers one page (200 by default, at most
    500 asked), with the total and the page's place; the last page holds what
    is left; a limit out of range is ``invalid_field``. Then two students play
    eight games of tic-tac-toe (40 moves), and eight more while the teacher's
    views (the class, the roster, the rooms) are polled without a pause (the
    page polls every 2 s): every move is played. The times are printed
    (docs/benchmarks.md), not asserted."""
    database = tmp_path / "games.db"
    await a_class_of(database, 5000)
    async with running_server(
        database, class_name="7B", http_rate=0, max_connections_per_address=200
    ) as server:
        teacher = Teacher(server)
        took, size, first = await timed_get(teacher, "/api/admin/roster")
        assert (first["total"], first["offset"], first["limit"]) == (
            5000,
            0,
            ROSTER_PAGE_DEFAULT,
        )
        assert len(first["students"]) == ROSTER_PAGE_DEFAULT
        assert first["students"][0]["name"] == "student 00000"
        assert size < 100_000, size
        last = await teacher.get(f"/api/admin/roster?offset=4900&limit={ROSTER_PAGE_MAX}")
        names = [s["name"] for s in last["students"]]
        assert names == [f"student {n:05d}" for n in range(4900, 5000)]
        for bad in ("limit=0", f"limit={ROSTER_PAGE_MAX + 1}", "offset=-1", "offset=x"):
            status, refused, _ = await teacher.call("GET", f"/api/admin/roster?{bad}")
            assert (status, refused["error"]) == (400, "invalid_field"), (bad, refused)
        class_took, _, summary = await timed_get(teacher, "/api/admin/class")
        assert summary["students"] == 5000
        print(
            f"\nroster of 5,000: first page {took * 1000:.1f} ms, {size} bytes; "
            f"/api/admin/class {class_took * 1000:.1f} ms"
        )
        await _moves_while_the_teacher_polls(server, teacher)


async def _moves_while_the_teacher_polls(server: RunningServer, teacher: Teacher) -> None:
    ann, _ = await say_hello(server, "ann")
    bob, _ = await say_hello(server, "bob")
    polling = True
    polls = 0

    async def poll() -> None:
        nonlocal polls
        async with aiohttp.ClientSession() as session:
            headers = {"Authorization": f"Bearer {teacher.token}"}
            while polling:
                for path in ("/api/admin/class", "/api/admin/roster", "/api/admin/rooms"):
                    async with session.get(server.http_url(path), headers=headers) as response:
                        assert response.status == 200
                        await response.read()
                polls += 1
                await asyncio.sleep(0)

    async def play_eight_games() -> list[float]:
        took = []
        for _ in range(8):
            created = await ann.request({"type": "create_room", "game": "tictactoe"})
            code = created["room"]["code"]
            await bob.request({"type": "join", "code": code})
            for ply, (mover, cell) in enumerate(
                zip((ann, bob, ann, bob, ann), ("a1", "b1", "a2", "b2", "a3"), strict=True)
            ):
                started = time.perf_counter()
                reply = await mover.request(
                    {"type": "move", "room": code, "move": cell, "ply": ply}
                )
                took.append(time.perf_counter() - started)
                assert reply["type"] in ("moved", "game_over"), reply
                await asyncio.sleep(0.1)  # a person's pace, well inside the message rate
            for player in (ann, bob):
                await player.request({"type": "leave", "room": code})
        return took

    alone = await play_eight_games()
    poller = asyncio.create_task(poll())
    polled = await play_eight_games()
    polling = False
    await poller
    assert len(polled) == 40 and polls >= 1

    def figures(took: list[float]) -> str:
        return f"median {statistics.median(took) * 1000:.1f} ms, worst {max(took) * 1000:.1f} ms"

    print(
        f"\n40 moves, 5,000 students: alone {figures(alone)}; while the teacher's "
        f"views were polled without a pause ({polls} rounds) {figures(polled)}"
    )
    for player in (ann, bob):
        await player.close()


@pytest.mark.parametrize("path", ["/api/admin/roster?limit=1"])
async def test_an_empty_class_has_an_empty_page(server: RunningServer, path: str) -> None:
    """No students: an empty page, total 0."""
    body = await Teacher(server).get(path)
    assert (body["students"], body["total"], body["offset"], body["limit"]) == ([], 0, 0, 1)
