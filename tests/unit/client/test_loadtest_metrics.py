"""Reading a server's figures: the Prometheus text format, the loop-lag histogram's
99th percentile from the buckets that grew over a window, and the CPU share."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from boardroom.client.loadtest.errors import ProbeError
from boardroom.client.loadtest.metrics_probe import (
    LAG_HISTOGRAM,
    STAGES,
    ProcessProbe,
    ServerReading,
    bucket_deltas,
    cpu_per_move,
    cpu_share,
    histogram_quantile,
    lag_between,
    parse_prometheus_text,
)

EXPOSITION = """\
# HELP process_resident_memory_bytes Resident memory size in bytes.
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 4.9152e+07
process_cpu_seconds_total 12.5
# HELP boardroom_errors_total Error replies sent to clients, by code.
boardroom_errors_total{code="rate_limited"} 3.0
boardroom_odd_total{path="C:\\\\games",say="a \\"quote\\"",note="two\\nlines"} 1.0 1700000000000
boardroom_event_loop_lag_seconds_bucket{le="0.001"} 90.0
boardroom_event_loop_lag_seconds_bucket{le="0.005"} 99.0
boardroom_event_loop_lag_seconds_bucket{le="0.01"} 100.0
boardroom_event_loop_lag_seconds_bucket{le="+Inf"} 100.0
boardroom_event_loop_lag_seconds_count 100.0
boardroom_event_loop_lag_seconds_sum 0.15
"""


def test_samples_are_read_with_their_labels_values_and_special_numbers() -> None:
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for s in parse_prometheus_text(EXPOSITION)
    }
    assert samples[("process_resident_memory_bytes", ())] == 49_152_000
    assert samples[("boardroom_errors_total", (("code", "rate_limited"),))] == 3
    assert samples[(LAG_HISTOGRAM + "_bucket", (("le", "+Inf"),))] == 100
    assert len(samples) == 10


def test_escaped_label_values_are_unescaped_and_a_timestamp_is_ignored() -> None:
    (odd,) = [s for s in parse_prometheus_text(EXPOSITION) if s.name == "boardroom_odd_total"]
    assert odd.labels == {"path": "C:\\games", "say": 'a "quote"', "note": "two\nlines"}
    assert odd.value == 1.0


def test_a_line_that_is_not_a_sample_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match=r"line 2 .*'oops'"):
        parse_prometheus_text("ok 1\noops\n")
    with pytest.raises(ValueError, match="line 1"):
        parse_prometheus_text('bad{le="1} 2\n')


def test_a_reading_picks_memory_cpu_and_the_lag_histogram() -> None:
    reading = ServerReading.from_samples(parse_prometheus_text(EXPOSITION), at=5.0)
    assert reading.rss_bytes == 49_152_000
    assert reading.cpu_seconds == 12.5
    assert reading.lag_buckets == ((0.001, 90.0), (0.005, 99.0), (0.01, 100.0), (math.inf, 100.0))
    assert (reading.lag_count, reading.lag_sum) == (100.0, 0.15)


def test_a_cluster_s_readings_add_up_to_one_server_s() -> None:
    """Memory, CPU time and the lag histogram of several processes are summed, so
    the CPU share is in cores (2.0: two busy) and the lag's p99 is over every
    process's samples; a figure one process lacks is missing for all."""
    one = ServerReading.from_samples(parse_prometheus_text(EXPOSITION), at=5.0)
    both = ServerReading.summed([one, one])
    assert (both.rss_bytes, both.cpu_seconds, both.lag_count) == (98_304_000, 25.0, 200.0)
    assert both.lag_buckets == ((0.001, 180.0), (0.005, 198.0), (0.01, 200.0), (math.inf, 200.0))
    bare = ServerReading.from_samples(parse_prometheus_text("something_else 1\n"), at=5.0)
    assert ServerReading.summed([one, bare]).cpu_seconds is None
    assert ServerReading.summed([one]) is one


def test_a_server_without_process_metrics_gives_none_for_them() -> None:
    reading = ServerReading.from_samples(parse_prometheus_text("something_else 1\n"), at=0.0)
    assert reading.rss_bytes is None and reading.cpu_seconds is None
    assert reading.lag_buckets == ()


def test_the_quantile_is_the_bound_of_the_bucket_that_holds_its_rank() -> None:
    buckets = ((0.001, 90.0), (0.005, 99.0), (0.01, 100.0), (math.inf, 100.0))
    assert histogram_quantile(0.99, buckets) == 0.005
    assert histogram_quantile(0.5, buckets) == 0.001
    assert histogram_quantile(1.0, buckets) == 0.01
    assert histogram_quantile(0.99, ((0.01, 1.0), (math.inf, 100.0))) == math.inf
    assert histogram_quantile(0.99, ((0.01, 0.0), (math.inf, 0.0))) is None


def test_the_lag_over_a_window_counts_only_the_samples_added_in_it() -> None:
    """A slow start (lags over 10 ms) must not show in a window that was smooth."""
    before = ServerReading(
        at=10.0,
        rss_bytes=1.0,
        cpu_seconds=2.0,
        lag_buckets=((0.001, 0.0), (0.005, 0.0), (0.01, 0.0), (math.inf, 50.0)),
        lag_count=50.0,
        lag_sum=25.0,
    )
    after = ServerReading(
        at=20.0,
        rss_bytes=1.0,
        cpu_seconds=9.5,
        lag_buckets=((0.001, 99.0), (0.005, 100.0), (0.01, 100.0), (math.inf, 150.0)),
        lag_count=150.0,
        lag_sum=25.2,
    )
    assert bucket_deltas(before.lag_buckets, after.lag_buckets)[-1] == (math.inf, 100.0)
    lag = lag_between(before, after)
    assert lag.samples == 100
    assert lag.p99_upper_ms == 1.0
    assert lag.max_upper_ms == 5.0
    assert lag.mean_ms == pytest.approx(2.0)
    assert cpu_share(before, after) == pytest.approx(0.75)


def test_the_cpu_a_move_is_split_by_stage_and_the_parts_add_up() -> None:
    """The stage sums and the moves are read from /metrics at both ends; the split
    is per move, and ``other`` is the process's CPU the stages do not account for."""
    text = """boardroom_moves_total 100.0
process_cpu_seconds_total 1.0
boardroom_stage_cpu_seconds_total{stage="decode"} 0.01
boardroom_stage_cpu_seconds_total{stage="rules"} 0.02
boardroom_stage_cpu_seconds_total{stage="store"} 0.03
boardroom_stage_cpu_seconds_total{stage="encode"} 0.01
boardroom_stage_cpu_seconds_total{stage="write"} 0.02
"""
    before = ServerReading.from_samples(parse_prometheus_text(text), 1.0)
    later = (
        text.replace("100.0", "1100.0")
        .replace("1.0\n", "1.4\n")
        .replace('"decode"} 0.01', '"decode"} 0.02')
        .replace('"rules"} 0.02', '"rules"} 0.07')
        .replace('"store"} 0.03', '"store"} 0.08')
        .replace('"encode"} 0.01', '"encode"} 0.02')
        .replace('"write"} 0.02', '"write"} 0.06')
    )
    after = ServerReading.from_samples(parse_prometheus_text(later), 2.0)
    split = cpu_per_move(before, after)
    assert split is not None
    assert split["total"] == pytest.approx(400.0)
    assert [split[stage] for stage in STAGES] == pytest.approx([10.0, 50.0, 50.0, 10.0, 40.0])
    assert split["other"] == pytest.approx(240.0)
    assert sum(split[part] for part in (*STAGES, "other")) == pytest.approx(split["total"])
    # Two processes of a cluster: their stages add up like their CPU time.
    both = ServerReading.summed([after, after])
    assert both.stage_cpu["store"] == pytest.approx(0.16)
    assert both.moves == 2200.0
    # No stages exported (an older server), or no move played: no split.
    plain = ServerReading.from_samples(parse_prometheus_text("boardroom_moves_total 5.0\n"), 3.0)
    assert cpu_per_move(plain, plain) is None
    assert cpu_per_move(after, after) is None


def test_no_cpu_share_without_cpu_figures_or_elapsed_time() -> None:
    empty = ServerReading(
        at=1.0, rss_bytes=None, cpu_seconds=None, lag_buckets=(), lag_count=0, lag_sum=0
    )
    assert cpu_share(empty, empty) is None
    assert lag_between(empty, empty).p99_upper_ms is None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_a_process_of_ours_is_read_from_proc() -> None:
    """The echo server has no /metrics: its memory and CPU time come from /proc."""
    before = ProcessProbe(os.getpid()).read()
    sum(range(2_000_000))  # some CPU time between the readings
    after = ProcessProbe(os.getpid()).read()
    assert before.rss_bytes is not None and before.rss_bytes > 1_000_000
    assert after.cpu_seconds is not None and before.cpu_seconds is not None
    assert after.cpu_seconds >= before.cpu_seconds > 0
    assert after.lag_buckets == ()


def test_a_process_that_is_gone_cannot_be_read() -> None:
    with pytest.raises(ProbeError, match="cannot read process"):
        ProcessProbe(2**22 + 1).read()  # above Linux's largest pid
