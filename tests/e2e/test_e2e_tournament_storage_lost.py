"""A tournament game whose room the database outage closed (``storage_lost``) is
played again from the start: nobody forfeits it, and the round finishes.

Pins docs/classroom.md and docs/operations.md ("When the database is down",
tournaments): a room is closed once its game could not be stored for
``storage_outage_limit`` seconds; the director hears it lost and opens the pairing
again, a fresh room with a new no-show window, a ``match`` to each player, an
``announcement`` (``tournament_game_replayed``) to everyone, and the lost game
ended ``aborted`` in the store. Before, nobody told the director: the pairing
stayed undecided and the tournament never finished. A real server in class mode
on a real SQLite file, locked by another connection (as the ``sqlite3`` shell or
a backup would) in the middle of the game.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server, wait_until
from tournament_helpers import pair_ann_and_bob, results_from_records, tournament

from boardroom.server.lifecycle import HUB, STORE
from boardroom.server.store.sqlite import base as sqlite_base

LIMIT_SECONDS = 1.0
"""The config's ``storage_outage_limit``: the room is closed once refusals last this long."""


async def next_of(player: Player, type_: str, **fields: Any) -> dict[str, Any]:
    """The next message of type ``type_`` with ``fields`` that ``player`` gets."""
    while True:
        message = await player.expect(type_)
        if all(message.get(name) == value for name, value in fields.items()):
            return message


@dataclass
class Lost:
    """Ann and Bob's game lost to the database, and its replay opened."""

    players: dict[str, Player]
    lost_room: str
    lost_game: dict[str, Any]
    first_matches: dict[str, dict[str, Any]]
    again: dict[str, dict[str, Any]]
    tournament_id: int


async def lose_the_game(server: RunningServer, database: Path) -> Lost:
    """Pair Ann and Bob, start their game, lock the file until the room is closed
    ``storage_lost`` (checking what each player is told), unlock it, and read the
    replay's ``match`` of each."""
    ann = await Player.join_server(server.ws_url, "ann")
    bob = await Player.join_server(server.ws_url, "bob")
    pairing = await pair_ann_and_bob(Teacher(server), ann, bob, "Lost cup")
    players = {"ann": ann, "bob": bob}
    lost_room = pairing.room
    for name, player in players.items():
        joined = await player.request({"type": "join", "code": pairing.matches[name]["code"]})
        assert joined["type"] == "state", joined
    first = players[pairing.by_side["first"]]
    second = players[pairing.by_side["second"]]
    moved = await first.request({"type": "move", "room": lost_room, "move": "a1"})
    assert moved["type"] == "moved", moved
    tournament_id = pairing.matches["ann"]["tournament"]
    base = server.http_url("")
    lost_game = (await tournament(base, tournament_id))["rounds_played"][0]["games"][0]
    assert lost_game["game_id"] is not None, lost_game

    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        move = {"type": "move", "room": lost_room, "move": "b1"}
        refused = await second.request(move)
        assert refused["code"] == "storage_unavailable", refused
        await asyncio.sleep(LIMIT_SECONDS + 0.2)
        lost = await second.request(move)  # refused again, past the limit: closed
        assert lost["code"] == "storage_lost", lost
        for player in players.values():
            closed = await next_of(player, "room_closed", room=lost_room)
            assert closed["kind"] == "storage_lost", closed
            said = await next_of(player, "announcement", kind="tournament_game_replayed")
            assert (said["round"], said["tournament_name"]) == (1, "Lost cup"), said
            assert said["players"] == [pairing.by_side["first"], pairing.by_side["second"]]
            assert "play their game again from the start" in said["text"], said
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    # The store is back: the pairing's new room, a whole no-show window.
    again = {name: await next_of(player, "match") for name, player in players.items()}
    assert {m["room"] for m in again.values()} != {lost_room}, again
    assert again["ann"]["starts_by"] > pairing.matches["ann"]["starts_by"], again
    return Lost(players, lost_room, lost_game, pairing.matches, again, tournament_id)


async def play_it_and_finish(
    server: RunningServer, players: dict[str, Player], matches: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """Both sit down in the ``matches``' room and play it, first wins; the tournament
    as shown once finished."""
    room = matches["ann"]["room"]
    for name, player in players.items():
        joined = await player.request({"type": "join", "code": matches[name]["code"]})
        assert joined["type"] == "state", joined
    by_side = {match["side"]: players[name] for name, match in matches.items()}
    first, second = by_side["first"], by_side["second"]
    for mover, move in (
        (first, "a1"),
        (second, "b1"),
        (first, "a2"),
        (second, "b2"),
        (first, "a3"),
    ):
        reply = await mover.request({"type": "move", "room": room, "move": move})
        assert reply["type"] == "moved", reply
    base = server.http_url("")
    shown = await wait_until(
        lambda: tournament(base, matches["ann"]["tournament"]),
        lambda t: t["status"] == "finished",
    )
    games = shown["rounds_played"][0]["games"]
    assert len(games) == 1 and games[0]["room"] == room, games
    # Played to its end, not forfeited: the result is the replayed game's.
    results = await results_from_records(base, shown)
    assert [r.outcome.value for r in results] == ["1-0"]  # type: ignore[union-attr]
    return shown


async def test_a_game_lost_to_the_database_is_played_again_and_the_round_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)  # the same refusal, sooner
    database = tmp_path / "class.db"
    async with running_server(
        database, class_name="7B", storage_outage_limit=LIMIT_SECONDS
    ) as server:
        lost = await lose_the_game(server, database)
        shown = await play_it_and_finish(server, lost.players, lost.again)
        assert shown["rounds_played"][0]["games"][0]["game_id"] != lost.lost_game["game_id"]
        # The lost game is ended aborted: a restart would not bring its room back.
        stored = await server.app[STORE].get_game(lost.lost_game["game_id"])
        assert stored.termination is not None
        assert (stored.state.value, stored.termination.value) == ("finished", "aborted")
        assert len(stored.moves) == 1  # what was saved of it: the first move
        for player in lost.players.values():
            await player.close()


async def test_a_restart_before_the_replay_starts_opens_it_again_and_forfeits_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pairing's game is the lost one (ended aborted) until the replay starts:
    after a restart then, the director opens the replay afresh (its room had not
    started) rather than take the aborted game for a double forfeit, and the
    lost room does not come back."""
    monkeypatch.setattr(sqlite_base, "_BUSY_TIMEOUT_S", 0.3)
    database = tmp_path / "class.db"
    async with running_server(
        database, class_name="7B", storage_outage_limit=LIMIT_SECONDS
    ) as server:
        lost = await lose_the_game(server, database)
        tokens = {name: player.token for name, player in lost.players.items()}
        for player in lost.players.values():
            await player.close()
    async with running_server(database, class_name="7B") as server:
        players = {
            name: await Player.join_server(server.ws_url, name, token=token)
            for name, token in tokens.items()
        }
        matches = {name: await next_of(player, "match") for name, player in players.items()}
        assert matches["ann"]["room"] not in (lost.lost_room, lost.again["ann"]["room"])
        assert server.app[HUB].room_info(lost.lost_room) is None  # not restored
        shown = await play_it_and_finish(server, players, matches)
        assert shown["standings"][0]["forfeit_losses"] == 0
        for player in players.values():
            await player.close()
