"""One student per person, end to end on a real class server: a player's every
connection is one roster entry; the teacher's class accounts (``POST
/api/admin/students``) join by their links; two entries that are one person
are merged (``POST /api/admin/students/{id}/merge``) into one row everywhere
the class is shown: roster, results, export and leaderboard."""

from __future__ import annotations

import csv
import io
import logging
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import pytest_asyncio
from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server, wait_until

from boardroom.shared.protocol.close_codes import CLOSE_TOKEN_REVOKED


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    async with running_server(
        tmp_path / "games.db", class_name="7B", http_rate=0, max_connections_per_address=200
    ) as running:
        yield running


async def hello(
    server: RunningServer, name: str, player_token: str | None = None
) -> tuple[Player, dict[str, Any]]:
    """A connection saying a version-2 hello as a person (with ``player_token``
    if given); the connection and its welcome."""
    player = await Player.connect(server.ws_url)
    said: dict[str, Any] = {"type": "hello", "name": name, "version": 2, "client": "human"}
    if player_token is not None:
        said["player_token"] = player_token
    welcome = await player.request(said)
    assert welcome["type"] == "welcome", welcome
    return player, welcome


async def roster(teacher: Teacher) -> list[dict[str, Any]]:
    students: list[dict[str, Any]] = (await teacher.get("/api/admin/roster"))["students"]
    return students


async def loses_to_the_ai(player: Player) -> None:
    """A tic-tac-toe game against the random AI that the player resigns after
    a move each (before the first move, a resignation aborts the game)."""
    created = await player.request(
        {"type": "create_room", "game": "tictactoe", "ai_level": "random", "seat": "first"}
    )
    code = created["room"]["code"]
    await player.request({"type": "move", "room": code, "move": "b2", "ply": 0})
    await player.expect("moved", room=code, ply=1)
    over = await player.request({"type": "resign", "room": code})
    assert over["type"] == "game_over", over


async def test_a_bulk_class_of_thirty_on_two_browsers_each_is_thirty_roster_rows(
    server: RunningServer,
) -> None:
    """The teacher adds thirty students at once; each opens their link in two
    browsers (two connections with the link's token): the roster has one row
    each, connected while either connection is; the class counts 30."""
    teacher = Teacher(server)
    names = [f"kid{n:02d}" for n in range(30)]
    made = await teacher.call("POST", "/api/admin/students", {"names": names})
    assert made[0] == 201, made
    accounts = made[1]["students"]
    browsers = [[await open_link(server, a["join_link"]) for _ in range(2)] for a in accounts]
    for account, pair in zip(accounts, browsers, strict=True):
        assert [welcome["player_id"] for _, welcome in pair] == [account["player_id"]] * 2
        assert [welcome["name"] for _, welcome in pair] == [account["name"]] * 2

    rows = await roster(teacher)
    assert [(r["id"], r["name"]) for r in rows] == [(a["id"], a["name"]) for a in accounts]
    assert all(row["connected"] for row in rows)
    assert (await teacher.get("/api/admin/class"))["students"] == 30

    # Every first browser closes, and the second of the first fifteen: the
    # second browser keeps the other fifteen online.
    for connection, _ in [pair[0] for pair in browsers] + [pair[1] for pair in browsers[:15]]:
        await connection.close()
    rows = await wait_until(
        lambda: roster(teacher), lambda rows: sum(r["connected"] for r in rows) == 15
    )
    assert len(rows) == 30
    assert [r["name"] for r in rows if r["connected"]] == names[15:]
    for pair in browsers[15:]:
        await pair[1][0].close()


async def test_a_student_on_two_tabs_with_one_token_is_one_row(server: RunningServer) -> None:
    """Without an account: the first hello makes the player, a second tab says
    hello with the token the first welcome gave: one row, one player."""
    teacher = Teacher(server)
    tab, first = await hello(server, "ann")
    other_tab, second = await hello(server, "ann", first["player_token"])
    assert (second["player_id"], second["name"]) == (first["player_id"], "ann")
    (row,) = await roster(teacher)
    assert (row["name"], row["player_id"], row["connected"]) == ("ann", first["player_id"], True)
    await tab.close()
    await other_tab.close()


def link_token(link: str) -> tuple[str, str]:
    """The token and the name a join link carries after its ``#``."""
    fragment = urlsplit(link).fragment
    found = re.fullmatch(r"/account/(bp_[A-Za-z0-9_-]{43})\?name=(.+)", fragment)
    assert found is not None, link
    return found.group(1), unquote(found.group(2))


async def open_link(server: RunningServer, link: str) -> tuple[Player, dict[str, Any]]:
    """What a browser does with a join link: hello as its name, with its token."""
    token, name = link_token(link)
    return await hello(server, name, token)


async def test_class_accounts_are_made_at_once_and_join_by_their_links(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The teacher pastes three names: 201 with a join link each (the server's
    own address, the token and the name after the #); each student is on the
    roster before joining, not connected. Zoë joins with her link's token: she
    is that student (no new row, no new player); the tokens are in no log line."""
    for name in ("boardroom.server", "aiohttp"):
        caplog.set_level(logging.DEBUG, logger=name)
    teacher = Teacher(server)
    status, made, _ = await teacher.call(
        "POST", "/api/admin/students", {"names": ["Ann", "  ", "Bob Smith", "Zoë"]}
    )
    assert status == 201, made
    accounts = made["students"]
    assert [a["name"] for a in accounts] == ["Ann", "Bob Smith", "Zoë"]  # the blank skipped
    for account in accounts:
        assert account["join_link"].startswith(f"http://127.0.0.1:{server.port}/#/account/")
        assert link_token(account["join_link"])[1] == account["name"]
    rows = await roster(teacher)
    assert [(r["id"], r["name"], r["connected"]) for r in rows] == [
        (a["id"], a["name"], False) for a in accounts
    ]

    zoe = accounts[2]
    token, name = link_token(zoe["join_link"])
    connection, welcome = await hello(server, name, token)
    assert (welcome["player_id"], welcome["name"], welcome.get("new_player")) == (
        zoe["player_id"],
        "Zoë",
        None,
    )
    rows = await roster(teacher)
    assert len(rows) == 3 and [r["connected"] for r in rows] == [False, False, True]
    with closing(sqlite3.connect(server.config.database)) as db:
        assert db.execute("SELECT count(*), count(token_hash) FROM players").fetchone() == (3, 3)
    served = [r for r in caplog.records if r.name.startswith(("boardroom.server", "aiohttp"))]
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in served)
    for account in accounts:
        assert link_token(account["join_link"])[0] not in logged
    await connection.close()


async def test_a_removed_student_who_comes_back_is_back_with_their_games(
    server: RunningServer,
) -> None:
    """Removed (connection closed, 4003), the same player says hello again:
    the same roster entry is back, with the game played before."""
    teacher = Teacher(server)
    ann, welcome = await hello(server, "ann")
    await loses_to_the_ai(ann)
    (row,) = await roster(teacher)
    await teacher.post(f"/api/admin/students/{row['id']}/remove")
    assert await roster(teacher) == []

    again, _ = await hello(server, "ann", welcome["player_token"])
    (back,) = await roster(teacher)
    assert (back["id"], back["played"], back["lost"], back["connected"]) == (row["id"], 1, 1, True)
    await again.close()


async def test_two_entries_merged_are_one_student_everywhere(server: RunningServer) -> None:
    """Carol joins from two browsers (two players: the second is "carol 2"), and
    loses a game on each. Merged: the roster has one carol with both games; her
    second connection is carol now; the second browser's token opens carol's
    player; the export and the leaderboard show her once."""
    teacher = Teacher(server)
    laptop, on_laptop = await hello(server, "carol")
    phone, on_phone = await hello(server, "carol")
    assert on_phone["name"] == "carol 2" and on_phone["player_id"] != on_laptop["player_id"]
    await loses_to_the_ai(laptop)
    await loses_to_the_ai(phone)
    by_name = {row["name"]: row for row in await roster(teacher)}
    carol, carol_2 = by_name["carol"], by_name["carol 2"]

    merged = await teacher.post(f"/api/admin/students/{carol_2['id']}/merge", {"into": carol["id"]})

    assert merged["student"]["id"] == carol["id"]
    (row,) = await roster(teacher)
    assert (row["id"], row["name"], row["played"], row["lost"]) == (carol["id"], "carol", 2, 2)
    assert row["player_id"] == on_laptop["player_id"]
    state = await phone.request({"type": "list_rooms"})
    assert state["type"] == "rooms"  # the phone's connection carries on
    await phone.close()
    phone_again, welcome = await hello(server, "carol 2", on_phone["player_token"])
    assert welcome["player_id"] == on_laptop["player_id"]
    assert len(await roster(teacher)) == 1

    status, body, _ = await teacher.call("GET", "/api/admin/export/results.csv")
    assert status == 200
    results = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert {r["first_student"] for r in results} == {carol["id"]}
    assert {r["first_player"] for r in results} == {"carol"}
    board = await server.get_json("/api/leaderboard?game=tictactoe")
    (tictactoe,) = board["games"]
    carols = [r for r in tictactoe["rows"] if r["player_id"] == on_laptop["player_id"]]
    assert len(carols) == 1 and carols[0]["player"] == "carol" and carols[0]["games"] == 2
    assert all(r["player_id"] != on_phone["player_id"] for r in tictactoe["rows"])
    await laptop.close()
    await phone_again.close()


async def test_two_players_of_the_running_tournament_cannot_be_merged(
    server: RunningServer,
) -> None:
    """While a tournament with both of them runs, the merge is refused with 409
    merge_refused and nothing changes; once it is cancelled, it goes through."""
    teacher = Teacher(server)
    ann, _ = await hello(server, "ann")
    ann_2, _ = await hello(server, "ann")
    ids = {row["name"]: row["id"] for row in await roster(teacher)}
    status, created, _ = await teacher.call(
        "POST",
        "/api/admin/tournaments",
        {
            "name": "Cup",
            "game": "tictactoe",
            "format": "round_robin",
            "entrants": [f"student:{ids['ann']}", f"student:{ids['ann 2']}"],
        },
    )
    assert status == 201, created
    before = await roster(teacher)
    status, answer, _ = await teacher.call(
        "POST", f"/api/admin/students/{ids['ann 2']}/merge", {"into": ids["ann"]}
    )
    assert (status, answer["error"]) == (409, "merge_refused"), answer
    assert "Cup" in answer["message"]
    assert await roster(teacher) == before

    await teacher.post(f"/api/admin/tournaments/{created['tournament']['id']}/cancel")
    await teacher.post(f"/api/admin/students/{ids['ann 2']}/merge", {"into": ids["ann"]})
    assert [row["name"] for row in await roster(teacher)] == ["ann"]
    await ann.close()
    await ann_2.close()


async def test_a_new_link_shuts_the_old_one_out_and_keeps_the_student(
    server: RunningServer,
) -> None:
    """Ann lost her slip (someone else opened it): the teacher gives her a new
    link. The connection on the old one closes with 4004, the old token is
    refused from then on, and the new link is Ann: the same player and roster
    entry, with her game."""
    teacher = Teacher(server)
    made = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
    (ann,) = made[1]["students"]
    finder, _ = await open_link(server, ann["join_link"])
    await loses_to_the_ai(finder)

    answer = await teacher.post(f"/api/admin/students/{ann['id']}/new-link")

    assert {k: answer[k] for k in ("id", "name", "player_id", "sessions_ended")} == {
        "id": ann["id"],
        "name": "Ann",
        "player_id": ann["player_id"],
        "sessions_ended": 1,
    }
    new_token, _ = link_token(answer["join_link"])
    assert new_token != link_token(ann["join_link"])[0]
    assert await finder.closed() == CLOSE_TOKEN_REVOKED
    old = await Player.connect(server.ws_url)
    refused = await old.request(
        {
            "type": "hello",
            "name": "Ann",
            "version": 2,
            "player_token": link_token(ann["join_link"])[0],
        }
    )
    assert (refused["type"], refused["code"]) == ("error", "unknown_class_token"), refused
    await old.close()
    back, welcome = await open_link(server, answer["join_link"])
    assert welcome["player_id"] == ann["player_id"]
    (row,) = await roster(teacher)
    assert (row["id"], row["played"], row["connected"]) == (ann["id"], 1, True)
    await back.close()


async def test_a_student_whose_token_was_revoked_gets_no_new_link(server: RunningServer) -> None:
    """409 already_revoked, and the stored token stays as it was."""
    teacher = Teacher(server)
    made = await teacher.call("POST", "/api/admin/students", {"names": ["Ann"]})
    (ann,) = made[1]["students"]
    await teacher.post(f"/api/admin/players/{ann['player_id']}/revoke")
    with closing(sqlite3.connect(server.config.database)) as db:
        before = db.execute("SELECT token_hash FROM players").fetchall()

    status, answer, _ = await teacher.call("POST", f"/api/admin/students/{ann['id']}/new-link")

    assert (status, answer["error"]) == (409, "already_revoked"), answer
    with closing(sqlite3.connect(server.config.database)) as db:
        assert db.execute("SELECT token_hash FROM players").fetchall() == before
