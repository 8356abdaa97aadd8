"""A database that cannot be written for a while pauses games; it does not end them.

Pins docs/operations.md ("When the database is down") and docs/protocol.md's
``storage_unavailable``: a move the store refuses for now is refused with that code
and ``retry_after``, changes nothing (the room is as before it, nobody is told of
it) and is accepted when sent again once the store is back; the room is never
closed for it, and the record ends with every acknowledged move.

SQLite: another connection holds the write lock (as the ``sqlite3`` shell or a
backup would) past the store's busy timeout. PostgreSQL: its server is stopped
(SIGSTOP of the postmaster and every backend) for 10 s mid-game, and the
players are the real client sessions (:class:`boardroom.client.session.Session`),
which send refused moves again by themselves.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from harness import Player, running_server

from boardroom.server.core.records import GameState
from boardroom.server.store import GameStore


async def start_game(url: str) -> tuple[Player, Player, str]:
    """Ann opens a tic-tac-toe room, Bob joins; Ann moves first."""
    ann = await Player.join_server(url, "ann")
    created = await ann.request({"type": "create_room", "game": "tictactoe"})
    code = created["room"]["code"]
    bob = await Player.join_server(url, "bob")
    joined = await bob.request({"type": "join", "code": code})
    assert joined["room"]["status"] == "playing"
    await ann.expect("state")
    return ann, bob, code


async def test_a_move_refused_by_a_locked_sqlite_database_changes_nothing_and_goes_through_later(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.db"
    async with running_server(database) as server:
        ann, bob, code = await start_game(server.ws_url)
        first = await ann.request({"type": "move", "room": code, "move": "a1"})
        assert first["type"] == "moved", first
        await bob.expect("moved", ply=0)

        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held past the busy timeout
        try:
            refused = await bob.request({"type": "move", "room": code, "move": "b2", "ply": 1})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert refused["type"] == "error", refused
        assert refused["code"] == "storage_unavailable", refused
        assert refused["retry_after"] > 0

        # Nothing changed: the same move, at the same ply, is accepted now, and
        # Ann hears of it once.
        again = await bob.request({"type": "move", "room": code, "move": "b2", "ply": 1})
        assert again["type"] == "moved" and again["ply"] == 1, again
        seen = await ann.expect("moved", ply=1)
        assert seen["move"] == "b2"
        for mover, move in ((ann, "a2"), (bob, "c3"), (ann, "a3")):
            reply = await mover.request({"type": "move", "room": code, "move": move})
            assert reply["type"] == "moved", reply
        over = await bob.expect("game_over")
        game_id = over["game_id"]
        assert not any(m.get("type") == "room_closed" for m in ann.seen + bob.seen)
        assert [m for m in ann.seen + bob.seen if m.get("code") == "internal_error"] == []
        for player in (ann, bob):
            await player.close()

    async with GameStore(database) as store:
        record = await store.get_game(game_id)
    assert record.state is GameState.FINISHED
    assert [move.move for move in record.moves] == ["a1", "b2", "a2", "c3", "a3"]
