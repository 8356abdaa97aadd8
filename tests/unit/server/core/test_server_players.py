"""The pure rules of durable players: tokens, ids, hashes, the name clash
rule, when last_seen is written, and the sessions' index of names."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from boardroom.server.core import players
from boardroom.server.core.players import (
    SeenThrottle,
    is_player_token,
    name_key,
    new_player_token,
    numbered_name,
    player_id_for,
    same_token_hash,
    token_hash,
)
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.sessions import SessionRegistry, session_id_for
from boardroom.shared.protocol.codec import MAX_NAME_LENGTH


def test_a_token_is_prefixed_random_and_never_a_resume_token() -> None:
    """bp_ and 43 URL-safe characters, different each time; a resume token
    (32 bytes without the prefix) does not have the shape."""
    tokens = {new_player_token() for _ in range(100)}
    assert len(tokens) == 100 and all(is_player_token(token) for token in tokens)
    assert not is_player_token("x" * 43)
    assert not is_player_token("bp_" + "A" * 42)
    assert not is_player_token("bp_" + "A" * 42 + "=")


def test_the_id_is_derived_and_differs_from_the_session_id_of_the_same_text() -> None:
    """p and 16 hex digits of the token's SHA-256; the hash kept is all 64."""
    token = new_player_token()
    digest = hashlib.sha256(token.encode()).hexdigest()
    assert token_hash(token) == digest
    assert player_id_for(token) == "p" + digest[:16]
    assert player_id_for(token) != session_id_for(token)


def test_hashes_are_compared_with_compare_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    """same_token_hash is hmac.compare_digest (constant time), and its answer."""
    calls: list[tuple[bytes, bytes]] = []
    compare_digest = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return compare_digest(a, b)

    monkeypatch.setattr(players.hmac, "compare_digest", spy)
    assert same_token_hash("ab" * 32, "ab" * 32)
    assert not same_token_hash("ab" * 32, "ab" * 31 + "ac")
    assert calls == [(b"ab" * 32, b"ab" * 32), (b"ab" * 32, b"ab" * 31 + b"ac")]


def test_a_clash_gets_the_lowest_free_number() -> None:
    """Taken names are skipped, compared as name_key does; a gap is reused."""
    taken = {"ann", "ann 2", "ann 4"}
    assert numbered_name("Ann", lambda name: name_key(name) in taken) == "Ann 3"
    assert numbered_name("zoë", lambda name: False) == "zoë"
    assert name_key("STRASSE") == name_key("straße")


def test_a_numbered_long_name_still_fits() -> None:
    """A name of the longest length is cut to make room for its number."""
    long = "n" * MAX_NAME_LENGTH
    taken = {long, "n" * 30 + " 2"}
    numbered = numbered_name(long, lambda name: name in taken)
    assert numbered == "n" * 30 + " 3" and len(numbered) == MAX_NAME_LENGTH


def test_last_seen_is_due_once_a_minute_and_memory_stays_bounded() -> None:
    """The first sight is due, the next ones within the interval are not, the
    one after it is; players not seen for an interval are forgotten."""
    throttle = SeenThrottle(interval=60.0)
    assert throttle.due("p1", 0.0)
    assert not throttle.due("p1", 59.9)
    assert throttle.due("p2", 30.0)
    assert throttle.due("p1", 60.0)
    assert len(throttle) == 2
    assert throttle.due("p3", 200.0) and len(throttle) == 1
    with pytest.raises(ValueError, match="interval"):
        SeenThrottle(interval=0)


def test_the_registry_knows_which_names_other_people_hold() -> None:
    """name_taken is True for another player's human session of the name
    (ignoring case), False for the same player's, and never for a bot's; a
    session restored without its player is another's until set_player; one
    gone without a room, renamed, dropped or swept frees its name."""
    registry = SessionRegistry()
    ann, _ = registry.open("Ann", PlayerKind.HUMAN, player=players.PlayerId("p1"))
    registry.open("bob", PlayerKind.BOT, player=players.PlayerId("p2"))

    assert registry.name_taken("ANN", players.PlayerId("p9"))
    assert registry.name_taken("ann", None)
    assert not registry.name_taken("ann", players.PlayerId("p1"))
    assert not registry.name_taken("bob", players.PlayerId("p9"))

    kept = registry.adopt(session_id_for("t"), "ann", PlayerKind.HUMAN)  # restored: no player
    assert registry.name_taken("ann", players.PlayerId("p1"))
    registry.set_player(kept.id, players.PlayerId("p1"))
    assert kept.player == "p1" and not registry.name_taken("ann", players.PlayerId("p1"))
    registry.drop(kept.id)

    dan, _ = registry.open("dan", PlayerKind.HUMAN, player=players.PlayerId("p4"))
    dan.idle_since = 5.0  # gone, holding no room: the name is free
    assert not registry.name_taken("dan", None)
    dan.rooms.add("ROOM")  # gone, holding a seat within its grace: still taken
    assert registry.name_taken("dan", None)
    registry.drop(dan.id)

    registry.rename(ann.id, "Anna")
    assert not registry.name_taken("ann", None) and registry.name_taken("anna", None)
    registry.drop(ann.id)
    assert not registry.name_taken("anna", None)
    cat, _ = registry.open("cat", PlayerKind.HUMAN)
    cat.idle_since = 0.0
    assert cat.id in registry.sweep(100.0, 10.0)
    assert not registry.name_taken("cat", None)


def test_the_registry_finds_a_players_sessions_without_a_walk() -> None:
    """of_player lists the player's live sessions, oldest first; one restored
    without a player joins its list once set_player says whose it is; dropped,
    swept or moved to another player, it leaves the list."""
    registry = SessionRegistry()
    ann = players.PlayerId("p1")
    first, _ = registry.open("Ann", PlayerKind.HUMAN, player=ann)
    second, _ = registry.open("Ann", PlayerKind.HUMAN, player=ann)
    registry.open("bob", PlayerKind.HUMAN, player=players.PlayerId("p2"))
    assert registry.of_player(ann) == [first.id, second.id]
    kept = registry.adopt(session_id_for("t"), "ann", PlayerKind.HUMAN)
    registry.set_player(kept.id, ann)
    assert registry.of_player(ann) == [first.id, second.id, kept.id]
    registry.set_player(kept.id, players.PlayerId("p3"))
    assert registry.of_player(players.PlayerId("p3")) == [kept.id]
    registry.drop(first.id)
    second.idle_since = 0.0
    registry.sweep(100.0, 10.0)
    assert registry.of_player(ann) == []
    assert registry.of_player(players.PlayerId("p9")) == []
