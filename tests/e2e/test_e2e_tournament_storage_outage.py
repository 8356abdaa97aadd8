"""A database outage during a tournament's round change pauses the tournament; it
does not end or break it.

Pins docs/operations.md ("When the database is down", tournaments): the director
tries each of its store writes again until the store is back, nothing lost and
nothing done twice, announces the tournament paused past ``storage_outage_limit``
and goes on by itself. A real server in class mode on a real SQLite file, locked
by another connection (as the ``sqlite3`` shell or a backup would) from the
moment round 1's only game has been stored as finished, so that the director's
own writes (the result, round 2's pairing) are the ones refused.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from classroom_helpers import Teacher
from harness import Player, running_server, wait_until
from tournament_helpers import check_standings, results_from_records, tournament

from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.core.room_output import GameFinished
from boardroom.server.hub.boundary import HubEvent
from boardroom.server.lifecycle import HUB, STORE
from boardroom.server.store import StorageUnavailableError
from boardroom.server.store.sqlite import base as sqlite_base
from boardroom.server.tournaments.spec import TournamentSpec
from boardroom.shared.protocol.messages import Clock

OUTAGE_SECONDS = 2.5
LIMIT_SECONDS = 1.0
"""The config's ``storage_outage_limit``: shorter than the outage, so the pause is announced."""


async def announced(player: Player, kind: str) -> dict[str, Any]:
    """The next server ``announcement`` of ``kind`` ``player`` gets."""
    while True:
        message = await player.expect("announcement")
        if message.get("kind") == kind:
            return message


async def play_first_side_wins(players: dict[str, Player], tag: str) -> None:
    """The round's one game, from the ``match`` each player got: first plays a
    row, second answers beside it; first wins."""
    matches = {name: await player.expect("match") for name, player in players.items()}
    by_side = {match["side"]: players[name] for name, match in matches.items()}
    for player, match in zip(players.values(), matches.values(), strict=True):
        joined = await player.request({"type": "join", "code": match["code"]})
        assert joined["type"] == "state", (tag, joined)
    room = next(iter(matches.values()))["room"]
    first, second = by_side["first"], by_side["second"]
    moves = ((first, "a1"), (second, "b1"), (first, "a2"), (second, "b2"), (first, "a3"))
    for mover, move in moves:
        reply = await mover.request({"type": "move", "room": room, "move": move})
        assert reply["type"] == "moved", (tag, reply)


async def test_a_tournament_finishes_right_after_an_outage_during_its_round_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)  # the same refusal, sooner
    database = tmp_path / "class.db"
    async with running_server(
        database, class_name="7B", storage_outage_limit=LIMIT_SECONDS
    ) as server:
        players = {name: await Player.join_server(server.ws_url, name) for name in ("ann", "bob")}
        teacher = Teacher(server)
        entrants = [f"student:{await teacher.student_id(name)}" for name in players]

        holder = sqlite3.connect(database, isolation_level=None)
        locked: list[float] = []

        def lock_after_the_first_game(event: HubEvent) -> None:
            # Heard after the room stored the game's end, before the director acts on it.
            if isinstance(event, GameFinished) and not locked:
                holder.execute("BEGIN IMMEDIATE")
                locked.append(asyncio.get_running_loop().time())

        server.app[HUB].subscribe(lock_after_the_first_game)
        body = {
            "name": "Outage cup",
            "game": "tictactoe",
            "format": "round_robin",
            "double": True,
            "entrants": entrants,
        }
        status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
        assert status == 201, answer
        created = answer["tournament"]
        try:
            await play_first_side_wins(players, "round 1")
            assert locked, "round 1's end was not heard"
            for player in players.values():
                paused = await announced(player, "tournament_paused")
                assert paused["tournament"] == created["id"], paused
                assert "cannot save its results" in paused["text"]
            status, refused, _ = await teacher.call(
                "POST", f"/api/admin/tournaments/{created['id']}/cancel"
            )
            assert (status, refused["error"]) == (503, "storage_unavailable"), refused
            left = locked[0] + OUTAGE_SECONDS - asyncio.get_running_loop().time()
            await asyncio.sleep(max(0.0, left))
        finally:
            if holder.in_transaction:
                holder.execute("ROLLBACK")
            holder.close()
        for player in players.values():
            resumed = await announced(player, "tournament_resumed")
            assert resumed["tournament"] == created["id"], resumed

        await play_first_side_wins(players, "round 2")
        base = server.http_url("")
        shown = await wait_until(
            lambda: tournament(base, created["id"]), lambda t: t["status"] == "finished"
        )
        # Nothing lost, nothing twice: two rounds of one game each, each result
        # the one its game's record has, the standings theirs.
        assert [len(round_["games"]) for round_ in shown["rounds_played"]] == [1, 1]
        results = await results_from_records(base, shown)
        assert [r.outcome.value for r in results] == ["1-0", "1-0"]  # type: ignore[union-attr]
        check_standings(shown, results)
        for player in players.values():
            over = await announced(player, "tournament_over")
            assert over["tournament"] == created["id"]
            await player.close()
    failed = [r for r in caplog.records if "step failed" in r.message]
    # On main: no pause announced, round 2 never opened: the step failed, "database is locked".
    assert failed == []


async def test_nobody_forfeits_a_game_whose_start_waits_on_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann sits down; Bob's sit-down, which starts the game, is refused while the
    file is locked, and the no-show deadline (1.5 s here, made through the
    director: the API keeps it to 10 s or more) passes meanwhile. The room is not
    closed for a no-show: once the lock goes its players get a ``match`` with a
    new deadline, and Bob's sit-down, sent again, starts the game. Before, the
    room was closed: Bob lost by forfeit to the database."""
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)
    database = tmp_path / "class.db"
    async with running_server(database, class_name="7B") as server:
        players = {name: await Player.join_server(server.ws_url, name) for name in ("ann", "bob")}
        teacher = Teacher(server)
        entrants = tuple([f"student:{await teacher.student_id(name)}" for name in players])
        spec = TournamentSpec(
            name="Deadline cup",
            game="tictactoe",
            format="round_robin",
            rounds=1,
            double=False,
            clock=Clock(),
            no_show_seconds=1.5,
            entrants=entrants,
        )
        await server.app[DIRECTOR].create(spec)
        matches = {name: await player.expect("match") for name, player in players.items()}
        ann, bob = players["ann"], players["bob"]
        joined = await ann.request({"type": "join", "code": matches["ann"]["code"]})
        assert joined["type"] == "state", joined
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            sit = {"type": "join", "code": matches["bob"]["code"]}
            refused = await bob.request(sit)
            assert refused["code"] == "storage_unavailable", refused
            await asyncio.sleep(max(0.0, matches["bob"]["starts_by"] + 0.5 - time.time()))
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        again = await bob.expect("match")  # the deadline passed in the outage: a new one
        assert again["starts_by"] > matches["bob"]["starts_by"] + 1, again
        started = await bob.request(sit)
        assert started["type"] == "state" and started["room"]["status"] == "playing", started
        assert not [m for m in ann.seen + bob.seen if m.get("type") == "room_closed"]
        for player in players.values():
            await player.close()


async def test_a_write_whose_commit_landed_but_whose_answer_was_lost_is_not_made_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outage a PostgreSQL connection cut at the commit makes: the write is
    stored, but the director hears ``storage_unavailable``. Round 1's pairing
    and the first result are made so (the real store writes them, then the
    fault is raised). The director's retry is refused (a result is final, the
    round exists), finds the change stored, and goes on: an AI-only double round
    robin finishes with its two games, each result once."""
    database = tmp_path / "class.db"
    async with running_server(database, class_name="7B") as server:
        store = server.app[STORE]
        cut: list[str] = []

        def cut_once(name: str) -> None:
            write = getattr(store, name)

            async def landed_then_cut(*args: Any, **kwargs: Any) -> None:
                await write(*args, **kwargs)
                if name not in cut and (name != "update_pairing" or "result" in kwargs):
                    cut.append(name)
                    raise StorageUnavailableError("connection lost at the commit")

            monkeypatch.setattr(store, name, landed_then_cut)

        cut_once("update_pairing")
        cut_once("open_round")
        teacher = Teacher(server)
        body = {
            "name": "Cut cup",
            "game": "tictactoe",
            "format": "round_robin",
            "double": True,
            "entrants": ["ai:random", "ai:easy"],
        }
        status, answer, _ = await teacher.call("POST", "/api/admin/tournaments", body)
        assert status == 201, answer
        base = server.http_url("")
        shown = await wait_until(
            lambda: tournament(base, answer["tournament"]["id"]),
            lambda t: t["status"] == "finished",
        )
    assert sorted(cut) == ["open_round", "update_pairing"]
    assert [len(round_["games"]) for round_ in shown["rounds_played"]] == [1, 1]
    assert all(game["result"] for round_ in shown["rounds_played"] for game in round_["games"])
