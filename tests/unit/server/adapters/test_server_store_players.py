"""Durable players in the store, on a real SQLite file and a real PostgreSQL
database: made, found by their token's hash, seen, revoked; and the upgrade of a
version-4 SQLite file, whose old seats' names become players."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from boardroom.server.core.players import (
    PlayerId,
    PlayerRecord,
    new_player_token,
    player_id_for,
    token_hash,
)
from boardroom.server.core.records import PlayerKind, SeatRecord, record_to_json
from boardroom.server.store import (
    SCHEMA_VERSION,
    GameStore,
    InvalidRecordError,
    PlayerNotFoundError,
)
from boardroom.server.store import players as players_part
from boardroom.server.store.sqlite.schema import _MIGRATIONS

T0 = 1_746_100_800.0


def minted(name: str = "ann", kind: PlayerKind = PlayerKind.HUMAN) -> tuple[PlayerRecord, str]:
    token = new_player_token()
    return PlayerRecord(player_id_for(token), name, kind, created_at=T0, last_seen=T0), token


async def test_a_player_is_found_by_its_tokens_hash_and_never_stores_the_token(
    store: GameStore, database: str
) -> None:
    """add_player keeps the hash beside the public id; player_by_token_hash finds
    it again; the token itself is nowhere in the file (in no row, on PostgreSQL)."""
    ann, token = minted()
    await store.add_player(ann, token_hash(token))

    assert await store.player_by_token_hash(token_hash(token)) == ann
    assert await store.get_player(ann.id) == ann
    _, other_token = minted()
    assert await store.player_by_token_hash(token_hash(other_token)) is None
    await store.close()
    if isinstance(store, GameStore):
        db_path = Path(database)
        data = b"".join(path.read_bytes() for path in db_path.parent.glob(db_path.name + "*"))
    else:
        other = await asyncpg.connect(database)
        try:
            rows = await other.fetch("SELECT row_to_json(p)::text FROM players p")
        finally:
            await other.close()
        data = "".join(row[0] for row in rows).encode()
    assert token.encode() not in data
    assert token_hash(token).encode() in data


async def test_the_stored_hash_is_compared_in_constant_time_and_that_decides(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the index finds the row, same_token_hash (hmac.compare_digest) is
    what says yes: with it saying no, the very token's hash finds nobody."""
    ann, token = minted()
    await store.add_player(ann, token_hash(token))
    compared: list[tuple[str, str]] = []

    def refuse(stored: str, presented: str) -> bool:
        compared.append((stored, presented))
        return False

    monkeypatch.setattr(players_part, "same_token_hash", refuse)

    assert await store.player_by_token_hash(token_hash(token)) is None
    assert compared == [(token_hash(token), token_hash(token))]


async def test_seen_follows_the_name_and_revoke_keeps_its_first_time(store: GameStore) -> None:
    """player_seen stores the name last said and when; revoke_player marks the
    player revoked, once: a second revoke keeps the first time."""
    ann, token = minted()
    await store.add_player(ann, token_hash(token))

    await store.player_seen(ann.id, name="Ann B", at=T0 + 60)
    first = await store.revoke_player(ann.id, T0 + 100)
    again = await store.revoke_player(ann.id, T0 + 200)

    assert (first.name, first.last_seen, first.revoked_at) == ("Ann B", T0 + 60, T0 + 100)
    assert again == first and again.revoked
    assert await store.player_by_token_hash(token_hash(token)) == first


async def test_unknown_and_wrong_players_are_refused_and_change_nothing(store: GameStore) -> None:
    """An unknown id is PlayerNotFoundError; a second player with the same token,
    the AI as a player, an empty name or a bad hash are InvalidRecordError."""
    ann, token = minted()
    await store.add_player(ann, token_hash(token))
    with pytest.raises(PlayerNotFoundError):
        await store.revoke_player("p0000000000000000", T0)
    with pytest.raises(PlayerNotFoundError):
        await store.get_player("p0000000000000000")
    same_token = PlayerRecord(PlayerId("p1111111111111111"), "eve", PlayerKind.HUMAN, T0)
    with pytest.raises(InvalidRecordError, match="not new"):
        await store.add_player(same_token, token_hash(token))
    ai, ai_token = minted("AI", PlayerKind.AI)
    with pytest.raises(InvalidRecordError, match="human or a bot"):
        await store.add_player(ai, token_hash(ai_token))
    with pytest.raises(InvalidRecordError, match="name"):
        await store.add_player(minted(" ")[0], None)
    with pytest.raises(InvalidRecordError, match="hash"):
        await store.add_player(minted()[0], "not-a-hash")
    assert await store.get_player(ann.id) == ann


async def test_a_seat_records_its_player_and_the_export_shows_the_id(store: GameStore) -> None:
    """A seat's player id is stored and read back, and record_to_json shows it
    as player_id (null for the AI)."""
    ann, token = minted()
    await store.add_player(ann, token_hash(token))
    seat = SeatRecord("ann", PlayerKind.HUMAN, session="s1", player=ann.id)
    ai = SeatRecord("AI (easy)", PlayerKind.AI, "easy")
    game_id = await store.create_game("R", "tictactoe", (seat, ai), at=T0, started_at=T0)

    record = await store.get_game(game_id)

    assert record.seats == (seat, ai)
    assert [p["player_id"] for p in record_to_json(record)["players"]] == [ann.id, None]


async def test_a_seat_of_a_player_never_stored_is_refused(store: GameStore) -> None:
    """The seats' player is a foreign key: an id no player has stores nothing."""
    seat = SeatRecord("ann", PlayerKind.HUMAN, session="s1", player="p2222222222222222")
    with pytest.raises(Exception, match=r"(?i)FOREIGN KEY"):
        await store.create_game("R", "tictactoe", (seat, None), at=T0)
    with pytest.raises(InvalidRecordError, match="player"):
        await store.create_game(
            "R", "tictactoe", (SeatRecord("AI", PlayerKind.AI, "easy", player=seat.player), None),
            at=T0,
        )  # fmt: skip


# -- the upgrade of a file made by the release before players ----------------------------


def version_4_file(path: Path) -> None:
    """A file as the release before durable players wrote it (schema version 4):
    games whose seats spell one person's name several ways, a bot run twice, a
    person and a bot of the same name, the AI, and a class's student."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for step in _MIGRATIONS[:4]:
            for statement in step:
                assert isinstance(statement, str)
                db.execute(statement)
        db.execute("PRAGMA user_version = 4")
        seats = [
            [("Ann", "human", None), ("mybot", "bot", None)],
            [("ANN", "human", None), ("AI (easy)", "ai", "easy")],
            [("mybot", "bot", None), ("ann", "bot", None)],
            [("Zoë", "human", None), ("ZOË", "human", None)],
            [("ann", "human", None), ("bob", "human", None)],
        ]
        for number, game in enumerate(seats, start=1):
            db.execute(
                "INSERT INTO games (room, game, options, state, winner, termination,"
                " created_at, started_at, finished_at)"
                " VALUES ('OLD', 'tictactoe', '{}', 'finished', 0, 'resignation', ?, ?, ?)",
                (T0 + number, T0 + number, T0 + number),
            )
            for side, (name, kind, level) in enumerate(game):
                db.execute(
                    "INSERT INTO seats (game_id, side, name, kind, ai_level, session)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (number, side, name, kind, level, None if kind == "ai" else f"s{number}{side}"),
                )
        db.execute(
            "INSERT INTO students (id, class, session, name, kind, first_seen)"
            " VALUES ('st1', 'class', 's10', 'Ann', 'human', ?)",
            (T0,),
        )


async def test_a_version_4_file_upgrades_with_one_player_per_name_seen(db_path: Path) -> None:
    """Upgraded in place (to version 5, then 6): one token-less player per (name
    ignoring case, kind) of the old human and bot seats, named as its latest
    game has it and seen from its first game to its last; each old seat names
    its player (the AI none); an old student is the player of a seat its
    session held. The games keep their names."""
    version_4_file(db_path)

    async with GameStore(db_path) as store:
        assert (await store.info()).schema_version == SCHEMA_VERSION == 12
        games = [await store.get_game(game_id) for game_id in range(1, 6)]
        students = await store.students("class")

    seats = [seat for game in games for seat in game.seats if seat is not None]
    assert [seat.name for seat in seats] == [
        "Ann", "mybot", "ANN", "AI (easy)", "mybot", "ann", "Zoë", "ZOË", "ann", "bob"
    ]  # fmt: skip
    player_of = {(seat.name, seat.kind): seat.player for seat in seats}
    ann = player_of["Ann", PlayerKind.HUMAN]
    assert ann is not None
    assert player_of["ANN", PlayerKind.HUMAN] == player_of["ann", PlayerKind.HUMAN] == ann
    assert player_of["Zoë", PlayerKind.HUMAN] == player_of["ZOË", PlayerKind.HUMAN]
    assert player_of["ann", PlayerKind.BOT] not in (None, ann)  # a bot is another player
    assert player_of["AI (easy)", PlayerKind.AI] is None
    assert len({player for player in player_of.values() if player is not None}) == 5
    assert students[0].player == ann  # session s10 sat as "Ann" in game 1
    exported = record_to_json(games[0])["players"]
    assert [player["player_id"] for player in exported] == [ann, player_of["mybot", PlayerKind.BOT]]

    async with GameStore(db_path) as store:
        ann_player = await store.get_player(ann)
    assert (ann_player.name, ann_player.kind, ann_player.has_token) == (
        "ann",
        PlayerKind.HUMAN,
        False,
    )
    assert (ann_player.created_at, ann_player.last_seen, ann_player.revoked) == (
        T0 + 1,
        T0 + 5,
        False,
    )
    with closing(sqlite3.connect(db_path)) as db:
        rows = db.execute("SELECT count(*), count(token_hash) FROM players").fetchone()
    assert rows == (5, 0)  # nobody can say hello as an old name
