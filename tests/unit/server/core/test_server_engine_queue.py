"""The engine's queue (server/core/engine_queue.py): priorities, fair share between
submitters, aging, the seated players' reserve, cancellation and admission."""

from __future__ import annotations

import pytest

from boardroom.server.core.engine_queue import EnginePriority, EngineQueue, Submitter

SEATED, HINT, AI_MATCH, ANALYSIS = (
    EnginePriority.SEATED,
    EnginePriority.HINT,
    EnginePriority.AI_MATCH,
    EnginePriority.ANALYSIS,
)
FLOOD = Submitter("flooder", "10.0.0.1")
OTHER = Submitter("player", "10.0.0.2")


def drain(queue: EngineQueue, *, now: float) -> list[int]:
    """Run every waiting ticket one at a time, finishing each before the next."""
    order = []
    while (ticket := queue.start_next(now=now)) is not None:
        order.append(ticket)
        queue.finished(ticket)
    return order


def test_the_higher_priority_runs_first_whatever_came_first() -> None:
    queue = EngineQueue(workers=1, reserved=0, max_queue=16)
    queue.wait(1, ANALYSIS, OTHER, now=0.0)
    queue.wait(2, AI_MATCH, OTHER, now=0.1)
    queue.wait(3, HINT, OTHER, now=0.2)
    queue.wait(4, SEATED, OTHER, now=0.3)
    assert drain(queue, now=1.0) == [4, 3, 2, 1]


def test_within_a_priority_sessions_take_turns_not_first_come() -> None:
    """Sixty searches of one session ahead of another's one: the other's goes second."""
    queue = EngineQueue(workers=1, reserved=0, max_queue=128)
    for ticket in range(60):
        queue.wait(ticket, AI_MATCH, FLOOD, now=0.0)
    queue.wait(100, AI_MATCH, OTHER, now=0.5)
    order = drain(queue, now=1.0)
    assert order.index(100) == 1
    assert [ticket for ticket in order if ticket != 100] == list(range(60))  # in order


def test_sessions_of_one_address_take_turns_and_addresses_take_turns_first() -> None:
    """Ten sessions of one address do not get ten turns to another address's one."""
    queue = EngineQueue(workers=1, reserved=0, max_queue=128)
    ticket = 0
    for session in range(10):
        for _ in range(3):
            queue.wait(ticket, SEATED, Submitter(f"s{session}", "10.0.0.1"), now=0.0)
            ticket += 1
    for other in range(3):
        queue.wait(1000 + other, SEATED, OTHER, now=0.0)
    order = drain(queue, now=0.0)
    assert [order.index(1000 + other) for other in range(3)] == [1, 3, 5]
    # The crowded address's sessions take turns: its first ten are one of each.
    crowded = [ticket for ticket in order if ticket < 1000]
    assert sorted(ticket // 3 for ticket in crowded[:10]) == list(range(10))


def test_a_lower_priority_is_raised_by_waiting_so_it_never_starves() -> None:
    """Seated players' moves keep coming; an analysis aged twice past ANALYSIS->HINT->...
    reaches SEATED and takes its turn by fair share."""
    queue = EngineQueue(workers=1, reserved=0, max_queue=64, aging_seconds=10.0)
    queue.wait(1, ANALYSIS, FLOOD, now=0.0)
    assert queue.effective_priority(1, now=9.9) is ANALYSIS
    assert queue.effective_priority(1, now=10.0) is AI_MATCH
    assert queue.effective_priority(1, now=35.0) is SEATED
    started = []
    for step in range(100):
        now = float(step)
        queue.wait(100 + step, SEATED, OTHER, now=now)
        ticket = queue.start_next(now=now)
        assert ticket is not None
        started.append((now, ticket))
        queue.finished(ticket)
    ran_at = next(now for now, ticket in started if ticket == 1)
    assert 30.0 <= ran_at <= 31.0


def test_the_reserved_slot_runs_only_a_seated_players_move() -> None:
    queue = EngineQueue(workers=1, reserved=1, max_queue=16)
    assert queue.slots == 2
    for ticket in (1, 2, 3):
        queue.wait(ticket, AI_MATCH, FLOOD, now=0.0)
    assert queue.start_next(now=0.0) == 1
    assert queue.start_next(now=0.0) is None  # the second slot is the reserve
    queue.wait(10, SEATED, OTHER, now=1.0)
    assert queue.start_next(now=1.0) == 10
    assert queue.start_next(now=1.0) is None  # both slots busy
    queue.finished(1)
    assert queue.start_next(now=2.0) == 2


def test_an_aged_search_does_not_take_the_reserve() -> None:
    queue = EngineQueue(workers=1, reserved=1, max_queue=16, aging_seconds=1.0)
    queue.wait(1, AI_MATCH, FLOOD, now=0.0)
    queue.wait(2, AI_MATCH, FLOOD, now=0.0)
    assert queue.start_next(now=0.0) == 1
    assert queue.effective_priority(2, now=5.0) is SEATED
    assert queue.start_next(now=5.0) is None


def test_a_cancelled_search_leaves_the_queue_and_a_running_one_keeps_its_slot() -> None:
    queue = EngineQueue(workers=1, reserved=0, max_queue=16)
    queue.wait(1, AI_MATCH, FLOOD, now=0.0)
    queue.wait(2, AI_MATCH, FLOOD, now=0.0)
    queue.wait(3, AI_MATCH, OTHER, now=0.0)
    assert queue.start_next(now=0.0) == 1
    assert queue.cancel(1) is False  # running: its worker finishes it
    assert queue.cancel(2) is True
    assert queue.cancel(2) is False
    assert queue.waiting == 1 and queue.running == 1
    assert queue.start_next(now=0.0) is None
    queue.finished(1)
    assert drain(queue, now=0.0) == [3]
    assert (queue.waiting, queue.running) == (0, 0)


def test_a_submitter_with_nothing_queued_is_forgotten_and_comes_back_first() -> None:
    queue = EngineQueue(workers=1, reserved=0, max_queue=16)
    queue.wait(1, HINT, OTHER, now=0.0)
    assert drain(queue, now=0.0) == [1]
    queue.wait(2, HINT, FLOOD, now=0.0)
    queue.wait(3, HINT, FLOOD, now=0.0)
    assert queue.start_next(now=0.0) == 2
    queue.finished(2)
    queue.wait(4, HINT, OTHER, now=0.0)  # served before, but nothing since: first again
    assert drain(queue, now=0.0) == [4, 3]


def test_a_ticket_cannot_wait_twice() -> None:
    queue = EngineQueue(workers=1, max_queue=4)
    queue.wait(1, HINT, OTHER, now=0.0)
    with pytest.raises(ValueError, match="already"):
        queue.wait(1, HINT, OTHER, now=0.0)


def test_admission_keeps_a_quarter_for_seated_moves_and_bounds_each_share() -> None:
    queue = EngineQueue(workers=1, max_queue=16)
    # One session: a quarter of the queue.
    assert [queue.admit(AI_MATCH, FLOOD) for _ in range(4)] == [None] * 4
    refusal = queue.admit(SEATED, FLOOD)
    assert refusal is not None and "4 searches queued" in refusal
    # One address, many sessions: half the queue below SEATED.
    for session in range(1, 4):
        for _ in range(4):
            queue.admit(AI_MATCH, Submitter(f"s{session}", FLOOD.address))
    refusal = queue.admit(HINT, Submitter("s9", FLOOD.address))
    assert refusal is not None and "your address" in refusal
    # Below SEATED in all: three quarters; the last quarter is the seated players'.
    for session in range(4):
        assert queue.admit(AI_MATCH, Submitter(f"t{session}", "10.0.0.3")) is None
    refusal = queue.admit(AI_MATCH, Submitter("u", "10.0.0.4"))
    assert refusal is not None and "besides the AI moves of seated players" in refusal
    assert queue.admit(SEATED, OTHER) is None
    assert queue.accepted == 13
    # Released, a share is free again.
    queue.release(AI_MATCH, FLOOD)
    assert queue.admit(AI_MATCH, FLOOD) is None


def test_admission_refuses_past_max_queue_and_the_server_has_no_share() -> None:
    queue = EngineQueue(workers=1, max_queue=2)
    server = Submitter()
    assert queue.admit(SEATED, server) is None
    assert queue.admit(SEATED, server) is None
    refusal = queue.admit(SEATED, OTHER)
    assert refusal is not None and "2 searches queued" in refusal


@pytest.mark.parametrize(
    ("workers", "max_queue", "reserved", "aging"),
    [(0, 4, 1, 1.0), (1, 0, 1, 1.0), (1, 4, -1, 1.0), (1, 4, 1, 0.0)],
)
def test_bad_bounds_are_refused(workers: int, max_queue: int, reserved: int, aging: float) -> None:
    with pytest.raises(ValueError):
        EngineQueue(workers=workers, max_queue=max_queue, reserved=reserved, aging_seconds=aging)
