"""The short class codes (server/classroom/class_codes.py): what a child types,
and what the store keeps of it."""

from __future__ import annotations

import random

from boardroom.server.classroom.class_codes import (
    ALPHABET,
    CODE_LENGTH,
    lookup_of,
    new_code,
    normalized,
    seal,
    unseal,
)

TOKEN = "bp_" + "Ab9_-" * 8 + "xyz"


def test_the_alphabet_has_no_look_alikes_and_codes_use_it_alone() -> None:
    assert not set("0O1IL") & set(ALPHABET)
    assert len(set(ALPHABET)) == len(ALPHABET) == 31
    draw = random.Random(3)
    for _ in range(200):
        code = new_code(draw.choice)
        assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)


def test_a_code_is_read_in_any_case_with_spaces_and_dashes_but_nothing_else() -> None:
    assert normalized("k7p-2qx") == normalized(" K7P 2QX\t") == "K7P2QX"
    for typed in ("K7P2Q", "K7P2QXX", "K7P2QO", "K7P2Q1", "K7P2Ql", "K7P2Q_", ""):
        assert normalized(typed) is None, typed


def test_the_store_keeps_neither_the_code_nor_the_token() -> None:
    """The lookup and the seal hold no trace of either; the seal opens with the
    code's key only; another database (another salt) finds another lookup."""
    sealed = seal("K7P2QX", b"salt-one", TOKEN)
    assert "K7P2QX" not in sealed.lookup.upper() and "K7P2QX" not in sealed.sealed.upper()
    assert TOKEN not in sealed.sealed and TOKEN.encode().hex() not in sealed.sealed
    lookup, key = lookup_of("K7P2QX", b"salt-one")
    assert lookup == sealed.lookup and unseal(key, sealed.sealed) == TOKEN
    _, wrong_key = lookup_of("K7P2QY", b"salt-one")
    assert unseal(wrong_key, sealed.sealed) != TOKEN
    assert lookup_of("K7P2QX", b"salt-two")[0] != lookup
    assert unseal(key, "not hex") is None
