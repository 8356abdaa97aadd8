"""The teacher's side of the class-mode tests: an HTTP client for ``/api/admin/``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import aiohttp
from harness import Player, RunningServer

from boardroom.server.classroom.class_mode import teacher_token
from boardroom.server.core.players import PlayerRecord, new_player_token, player_id_for, token_hash
from boardroom.server.core.records import PlayerKind
from boardroom.server.store import StudentRecord, open_store

NO_TOKEN = object()
"""Pass as ``token`` to send no Authorization header at all."""


class Teacher:
    """Calls the admin API of ``server`` with ``token`` (the server's own by default)."""

    def __init__(self, server: RunningServer, token: str | None = None) -> None:
        self.server = server
        self.token = token if token is not None else teacher_token(server.app)

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: object = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any, dict[str, str]]:
        """(status, body as JSON or bytes, headers). ``token`` overrides the
        teacher's (NO_TOKEN: no header); ``raw`` is sent as the body as it is."""
        headers = {}
        given = self.token if token is None else token
        if given is not NO_TOKEN:
            headers["Authorization"] = f"Bearer {given}"
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                method, self.server.http_url(path), data=data, headers=headers
            ) as response,
        ):
            payload = await response.read()
            if response.content_type == "application/json":
                return response.status, json.loads(payload), dict(response.headers)
            return response.status, payload, dict(response.headers)

    async def get(self, path: str) -> Any:
        """GET ``path``, which must answer 200; its body."""
        status, body, _ = await self.call("GET", path)
        assert status == 200, body
        return body

    async def post(self, path: str, body: Any = None) -> Any:
        """POST ``path``, which must answer 200; its body."""
        status, answer, _ = await self.call("POST", path, body)
        assert status == 200, answer
        return answer

    async def student_id(self, name: str) -> str:
        """The roster id of the one student called ``name``."""
        roster = await self.get("/api/admin/roster")
        (student,) = [s for s in roster["students"] if s["name"] == name]
        return str(student["id"])


async def admin_call(port: int, token: str, method: str, path: str, body: Any = None) -> Any:
    """Call the admin API of a server process (:class:`harness.ServerProcess`) on
    ``port`` with ``token``; the request must succeed (200 or 201). Its JSON body."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(
            method,
            f"http://127.0.0.1:{port}{path}",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        ) as response,
    ):
        assert response.status in (200, 201), await response.text()
        return await response.json()


async def a_class_of(database: Path, count: int, *, name: str = "student {n:05d}") -> None:
    """Store ``count`` class accounts of class 7B in ``database`` before its
    server starts, as one enrolment (what ``POST /api/admin/students`` stores,
    without the class codes, whose scrypt would cost a minute for 5,000: the
    roster's views never read them), named after ``name`` (``n`` from 0), in
    that order of enrolment."""
    now = time.time()
    accounts = []
    for n in range(count):
        token = new_player_token()
        player = PlayerRecord(player_id_for(token), name.format(n=n), PlayerKind.HUMAN, now)
        student = StudentRecord(f"s{n:07d}", "7B", player.id, player.name, player.kind, now + n)
        accounts.append((player, token_hash(token), student))
    async with open_store(str(database)) as store:
        await store.enrol(accounts)


async def bulk_added_student(ws_url: str, account: dict[str, Any]) -> Player:
    """A student of a bulk add (``POST /api/admin/students``), connected with
    their card's key."""
    token = account["join_link"].split("/#/account/")[1].split("?")[0]
    player = await Player.connect(ws_url)
    hello = {"type": "hello", "name": account["name"], "version": 2, "client": "human"}
    welcome = await player.request({**hello, "player_token": token})
    assert welcome["type"] == "welcome", welcome
    return player


async def a_lesson(
    ws_url: str, teacher: Teacher, names: list[str], *, tournament: str, entrants: int
) -> list[Player]:
    """A lesson under way, for the teacher's page: ``names`` added at once, the
    first eight connected (returned, in order); three rooms in play (connect4,
    tictactoe, connect4), the tic-tac-toe one finished, a private gomoku room
    waiting, and a Connect Four round robin called ``tournament`` of the
    ``entrants`` students from the eleventh on, running (its players absent, so
    its games wait)."""
    status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": names})
    assert status == 201, made
    accounts = made["students"]
    players = [await bulk_added_student(ws_url, account) for account in accounts[:8]]
    for first, second, game in ((0, 1, "connect4"), (2, 3, "tictactoe"), (4, 5, "connect4")):
        room = (await players[first].request({"type": "create_room", "game": game}))["room"]
        await players[second].request({"type": "join", "code": room["code"]})
        if first == 2:  # this one ends: under "Finished"
            for ply, cell in enumerate(["a1", "a2", "b1", "b2", "c1"]):
                mover = players[(first, second)[ply % 2]]
                await mover.request({"type": "move", "room": room["code"], "move": cell})
            await players[first].expect("game_over")
    await players[6].request({"type": "create_room", "game": "gomoku", "public": False})
    body = {
        "name": tournament,
        "game": "connect4",
        "format": "round_robin",
        "entrants": [f"student:{account['id']}" for account in accounts[10 : 10 + entrants]],
        "no_show_seconds": 600,
    }
    status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
    assert status == 201, answer
    return players
