"""The two stores have one public API: what the server calls through ``Store``
(SQLite's GameStore or PostgreSQL's PostgresGameStore) means the same on both,
and open_store picks the one a database names."""

from __future__ import annotations

import inspect

import pytest

from boardroom.server.store import GameStore, PostgresGameStore, is_postgres_url, open_store


def public_api(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and callable(member)
    }


def test_both_stores_have_the_same_public_methods_with_the_same_signatures() -> None:
    """Every public method of GameStore is PostgresGameStore's too, with the same
    parameters, defaults and annotations, and neither has one the other lacks."""
    sqlite, postgres = public_api(GameStore), public_api(PostgresGameStore)

    assert sorted(sqlite) == sorted(postgres)
    for name, signature in sqlite.items():
        assert postgres[name] == signature, name
    assert len(sqlite) > 40  # the comparison saw the whole API
    assert isinstance(inspect.getattr_static(PostgresGameStore, "path"), property)


@pytest.mark.parametrize(
    ("database", "kind"),
    [
        ("boardroom.db", GameStore),
        ("/var/lib/boardroom/games.db", GameStore),
        (":memory:", GameStore),
        ("postgresql://boardroom:pw@db.example:5432/boardroom", PostgresGameStore),
        ("postgres://boardroom@localhost/boardroom", PostgresGameStore),
    ],
)
def test_open_store_picks_the_backend_by_the_database_name(database: str, kind: type) -> None:
    """A postgresql:// or postgres:// URL is PostgreSQL; anything else is a SQLite
    file. The store is made, not opened, and its path hides a password."""
    store = open_store(database)

    assert type(store) is kind
    assert is_postgres_url(database) == (kind is PostgresGameStore)
    assert "pw" not in store.path
