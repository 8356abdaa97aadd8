"""The room's fast deep copy (server/core/state_copy.py) makes what ``copy.deepcopy``
makes: an equal state, no mutable part shared with the original but what the
memo says to share, objects reached twice copied once."""

from __future__ import annotations

import copy
import enum
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from test_server_room import ANN, FISCHER, move, play_moves, started_room

from boardroom.server.core.room import Room
from boardroom.server.core.state_copy import deep_copy

_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset, enum.Enum)


def mutable_ids(value: Any, shared: set[int], seen: dict[int, Any] | None = None) -> set[int]:
    """The ids of every mutable object reachable from ``value`` (``shared`` left out);
    a frozen dataclass or msgspec struct is not one, but what it holds may be."""
    seen = {} if seen is None else seen
    if id(value) in shared or id(value) in seen:
        return set()
    seen[id(value)] = value
    frozen = (hasattr(value, "__dataclass_fields__") and value.__dataclass_params__.frozen) or (
        isinstance(value, msgspec.Struct) and value.__struct_config__.frozen
    )
    found = set() if isinstance(value, _IMMUTABLE) or frozen else {id(value)}
    if isinstance(value, dict):
        parts: list[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, list | set | tuple | frozenset):
        parts = list(value)
    elif hasattr(value, "__dataclass_fields__"):
        parts = [getattr(value, name) for name in value.__dataclass_fields__]
    elif isinstance(value, msgspec.Struct):
        parts = [getattr(value, name) for name in value.__struct_fields__]
    else:
        parts = []
    for part in parts:
        found |= mutable_ids(part, shared, seen)
    return found


def rooms() -> list[Room]:
    """Rooms in a few states: a game under way with a clock, one just over, connect4."""
    clocked = started_room(clock=FISCHER)
    move(clocked, ANN, "b2", now=1_746_100_810.0)
    over = started_room()
    play_moves(over, "a1 a2 b1 b2 c1")
    assert over.status == "finished"
    return [clocked, over, started_room("connect4")]


@pytest.mark.parametrize("index", range(3))
def test_the_copy_equals_deepcopys_and_shares_nothing_mutable(index: int) -> None:
    room = rooms()[index]
    table = room._table
    shared_objects = (room.game, room.options, room._rng)
    shared = {id(value) for value in shared_objects}

    fast = deep_copy(table, {id(value): value for value in shared_objects})
    slow = copy.deepcopy(table, {id(value): value for value in shared_objects})

    assert fast == slow
    assert fast == table
    assert not mutable_ids(fast, shared) & mutable_ids(table, shared)


def test_an_object_reached_twice_is_copied_once_and_memo_entries_are_shared() -> None:
    @dataclass(slots=True)
    class Leaf:
        values: list[int] = field(default_factory=list)

    @dataclass
    class Holder:
        first: Leaf
        second: Leaf
        kept: list[int]
        by_name: dict[str, Leaf]

    leaf, kept = Leaf([1]), [9]
    holder = Holder(leaf, leaf, kept, {"leaf": leaf})
    copied = deep_copy(holder, {id(kept): kept})
    assert copied.first is copied.second is copied.by_name["leaf"]
    assert copied.first is not leaf and copied.first.values == [1]
    assert copied.kept is kept
