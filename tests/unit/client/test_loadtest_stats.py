"""The load tool's counting: the log-bucket latency histogram (percentiles within
1% of the exact sample, merging across workers) and the workers' stats adding up."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from boardroom.client.loadtest.stats import LatencyHistogram, WorkerStats


def exact_percentile(samples: list[float], p: float) -> float:
    """Nearest rank, as the histogram defines it."""
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def test_percentiles_are_within_one_percent_of_the_exact_samples() -> None:
    rng = random.Random(5)
    # Round trips spread over four decades, as a loaded server gives them.
    samples = [rng.lognormvariate(math.log(0.002), 1.5) for _ in range(20_000)]
    histogram = LatencyHistogram()
    for sample in samples:
        histogram.record(sample)
    for p in (1, 50, 90, 95, 99, 99.9):
        estimate = histogram.percentile(p)
        assert estimate is not None
        assert estimate == pytest.approx(exact_percentile(samples, p), rel=0.01), p


def test_the_mean_and_the_maximum_are_exact() -> None:
    histogram = LatencyHistogram()
    for sample in (0.001, 0.002, 0.0123456):
        histogram.record(sample)
    assert histogram.percentile(100) == 0.0123456
    assert histogram.greatest == 0.0123456
    assert histogram.mean == pytest.approx((0.001 + 0.002 + 0.0123456) / 3)


def test_merging_histograms_is_the_same_as_recording_everything_in_one() -> None:
    rng = random.Random(7)
    samples = [rng.uniform(0.0001, 0.5) for _ in range(3_000)]
    whole, first, second = LatencyHistogram(), LatencyHistogram(), LatencyHistogram()
    for index, sample in enumerate(samples):
        whole.record(sample)
        (first if index % 3 else second).record(sample)
    first.merge(second)
    assert first.buckets == whole.buckets
    assert (first.count, first.least, first.greatest) == (whole.count, whole.least, whole.greatest)
    assert first.total == pytest.approx(whole.total)
    assert first.percentile(99) == whole.percentile(99)


def test_an_empty_histogram_has_no_percentiles_and_no_summary() -> None:
    histogram = LatencyHistogram()
    assert histogram.percentile(50) is None
    assert histogram.mean is None
    assert histogram.summary_ms() is None


@pytest.mark.parametrize("p", [0, -1, 100.5])
def test_a_percentile_out_of_range_is_refused(p: float) -> None:
    with pytest.raises(ValueError, match="percentile"):
        LatencyHistogram().percentile(p)


def test_durations_below_a_microsecond_and_negative_ones_land_in_the_lowest_bucket() -> None:
    histogram = LatencyHistogram()
    histogram.record(-0.001)  # clock noise
    histogram.record(1e-9)
    assert histogram.buckets == {0: 2}
    assert histogram.least == 0.0
    percentile = histogram.percentile(50)
    assert percentile is not None and percentile <= 1e-6


def test_the_summary_is_in_milliseconds_to_three_significant_digits() -> None:
    histogram = LatencyHistogram()
    for ms in range(1, 1001):
        histogram.record(ms / 1000 / 7)  # ~0.14 ms to ~143 ms
    summary = histogram.summary_ms()
    assert summary is not None
    assert summary["count"] == 1000
    assert summary["max"] == 143.0  # 142.857... to three digits
    assert summary["p50"] == pytest.approx(500 / 7, rel=0.01)
    assert len(str(summary["p50"]).replace(".", "").lstrip("0")) <= 3


def test_worker_stats_add_up_counters_histograms_and_peaks() -> None:
    one, two = WorkerStats(), WorkerStats()
    for stats, moves in ((one, 10), (two, 5)):
        stats.connection_opened()
        stats.connection_opened()
        stats.moves += moves
        stats.errors["rate_limited"] += 1
        stats.move_latency.record(0.001 * moves)
    two.disconnects[1006] += 1
    one.window_seconds, two.window_seconds = 10.0, 10.2
    total = WorkerStats.merged([one, two])
    assert total.moves == 15
    assert total.connections_peak == 4  # the workers held theirs at the same time
    assert total.errors == Counter({"rate_limited": 2})
    assert total.disconnects == Counter({1006: 1})
    assert total.move_latency.count == 2
    assert total.window_seconds == 10.2
    assert one.moves == 10  # the parts are left as they were
