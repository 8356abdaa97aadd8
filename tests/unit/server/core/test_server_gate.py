"""The door's bookkeeping, without sockets: the per-address gate and the report throttle."""

from __future__ import annotations

import pytest

from boardroom.server.core.gate import AddressGate, ReportThrottle, Verdict

# -- AddressGate --------------------------------------------------------------------------


def test_one_more_than_the_cap_is_let_in_to_be_told_and_the_rest_refused() -> None:
    gate = AddressGate(limit=2)
    verdicts = [gate.enter("10.0.0.1") for _ in range(5)]
    assert verdicts == [Verdict.ADMIT] * 2 + [Verdict.TELL] + [Verdict.REFUSE] * 2
    assert gate.held("10.0.0.1") == 2


def test_each_address_has_its_own_cap() -> None:
    gate = AddressGate(limit=1)
    assert gate.enter("10.0.0.1") is Verdict.ADMIT
    assert gate.enter("10.0.0.1") is Verdict.TELL
    assert gate.enter("10.0.0.2") is Verdict.ADMIT
    assert gate.enter("10.0.0.2") is Verdict.TELL


def test_a_place_freed_is_taken_by_the_next_connection() -> None:
    gate = AddressGate(limit=1)
    gate.enter("a")
    gate.enter("a")  # told
    gate.leave("a", Verdict.ADMIT)
    assert gate.enter("a") is Verdict.ADMIT  # while the told one is still closing
    gate.leave("a", Verdict.TELL)
    assert gate.enter("a") is Verdict.TELL


def test_a_refused_connection_leaving_frees_nothing() -> None:
    gate = AddressGate(limit=1)
    gate.enter("a")
    gate.enter("a")
    assert gate.enter("a") is Verdict.REFUSE
    gate.leave("a", Verdict.REFUSE)
    assert gate.enter("a") is Verdict.REFUSE
    assert gate.held("a") == 1


def test_addresses_that_left_are_forgotten() -> None:
    gate = AddressGate(limit=1)
    for i in range(1000):
        address = f"192.0.2.{i}"
        gate.leave(address, gate.enter(address))
    assert gate.addresses == 0


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_a_bad_limit_is_a_value_error(limit: object) -> None:
    with pytest.raises(ValueError, match="limit"):
        AddressGate(limit)  # type: ignore[arg-type]


# -- ReportThrottle -----------------------------------------------------------------------


def test_a_flood_makes_one_report_a_window_with_the_count_since_the_last() -> None:
    throttle = ReportThrottle(window=10.0)
    reports = [throttle.note("a", now / 10) for now in range(250)]  # 0 to 24.9 s
    assert [(index / 10, count) for index, count in enumerate(reports) if count] == [
        (0.0, 1),
        (10.0, 100),
        (20.0, 100),
    ]


def test_keys_are_reported_apart() -> None:
    throttle = ReportThrottle(window=10.0)
    assert throttle.note("a", 0.0) == 1
    assert throttle.note("b", 1.0) == 1
    assert throttle.note("a", 2.0) is None


def test_a_clock_that_steps_back_reports_nothing_early() -> None:
    throttle = ReportThrottle(window=10.0)
    throttle.note("a", 100.0)
    assert throttle.note("a", 50.0) is None


def test_memory_is_bounded_by_forgetting_the_longest_reported() -> None:
    throttle = ReportThrottle(window=10.0, keys=3)
    for key in "abcd":
        assert throttle.note(key, 0.0) == 1
    assert throttle.note("a", 1.0) == 1  # forgotten: reported again as new
    assert throttle.note("d", 1.0) is None


@pytest.mark.parametrize("window", [0.0, -1.0, float("inf"), float("nan")])
def test_a_bad_window_is_a_value_error(window: float) -> None:
    with pytest.raises(ValueError, match="window"):
        ReportThrottle(window)
