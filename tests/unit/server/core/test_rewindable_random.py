"""The room's random source (server/core/rewindable_random.py): rewound to any mark
it draws the same numbers again, draws the source's own sequence, and a room
rolled back after an input that drew from it draws the same again."""

from __future__ import annotations

import copy
import random

from test_server_room import ANN, CODE, T0, new_room

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.rewindable_random import RewindableRandom
from boardroom.shared.protocol.messages import MakeMove


def draws(rng: random.Random) -> list[object]:
    """A few draws of each kind the room makes (random, getrandbits, choice) and more."""
    return [rng.random(), rng.getrandbits(32), rng.choice("abcdefg"), rng.randrange(1000)]


def test_it_draws_the_sources_own_sequence_and_the_source_moves_on() -> None:
    plain, source = random.Random(11), random.Random(11)
    rng = RewindableRandom(source)
    rng.mark()
    assert draws(rng) == draws(plain)
    assert source.getstate() == plain.getstate() == rng.getstate()


def test_rewound_to_a_mark_it_draws_the_same_numbers_again() -> None:
    rng = RewindableRandom(random.Random(3))
    mark = rng.mark()
    first = draws(rng)
    rng.rewind(mark)
    assert draws(rng) == first
    rng.rewind(mark)  # the same mark again
    assert draws(rng) == first


def test_an_older_mark_is_rewound_to_across_later_marks_with_and_without_draws() -> None:
    rng = RewindableRandom(random.Random(5))
    oldest = rng.mark()
    rng.mark()  # nothing drawn since the oldest
    middle = rng.mark()
    after_middle = draws(rng)
    rng.mark()
    latest = rng.mark()  # nothing drawn since: its state is the state now
    after_latest = draws(rng)

    rng.rewind(oldest)
    assert draws(rng) == after_middle  # nothing was drawn between oldest and middle
    rng.rewind(latest)
    assert draws(rng) == after_latest
    rng.rewind(middle)
    assert draws(rng) == after_middle


def test_a_mark_nothing_drew_after_rewinds_to_itself() -> None:
    rng = RewindableRandom(random.Random(8))
    draws(rng)
    mark = rng.mark()
    rng.rewind(mark)
    expected = random.Random(8)
    draws(expected)
    assert rng.getstate() == expected.getstate()


def test_a_copy_draws_what_the_original_draws() -> None:
    rng = RewindableRandom(random.Random(9))
    rng.mark()
    copied = copy.deepcopy(rng)
    assert draws(copied) == draws(rng)


def test_a_room_rolled_back_after_a_move_the_ai_answers_asks_with_the_same_seed() -> None:
    """Ann's move draws the AI's search seed from the room's random source; rolled
    back (the store refused it), the same move asks with the same seed, as a room
    that never saw the refused move would."""
    room = new_room(seed=4)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.add_ai("easy", now=T0)
    twin = new_room(seed=4)
    twin.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    twin.add_ai("easy", now=T0)
    request = MakeMove(room=CODE, move="b2", ply=0)

    taken = room.snapshot()
    refused = room.handle(ANN, request, now=T0 + 1)
    room.rollback(taken)
    again = room.handle(ANN, request, now=T0 + 1)

    (asked,) = again.ai_requests
    assert asked == refused.ai_requests[0] == twin.handle(ANN, request, now=T0 + 1).ai_requests[0]
    assert asked.seed is not None
