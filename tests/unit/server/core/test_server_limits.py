"""The flood limits: a per-connection token bucket, a per-address connection cap,
and per-address buckets over HTTP API requests.

Times are passed in, so every test is exact and instantaneous.
"""

from __future__ import annotations

import math

import pytest

from boardroom.server.config import ServerConfig
from boardroom.server.core import limits
from boardroom.server.core.limits import (
    AddressRateLimits,
    ConnectionCounter,
    RateLimiter,
    RefusalDelays,
    TokenBucket,
)


def limiter(
    rate: float = 10.0, burst: int = 5, strikes: int = 10, window: float = 5.0
) -> RateLimiter:
    return RateLimiter(rate, burst, abuse_strikes=strikes, abuse_window=window)


# -- RateLimiter: the bucket ------------------------------------------------------------


def test_a_full_burst_is_allowed_at_once() -> None:
    bucket = limiter(burst=5)
    assert [bucket.check(100.0) for _ in range(5)] == [None] * 5


def test_the_message_after_the_burst_is_refused_with_the_time_to_the_next_token() -> None:
    bucket = limiter(rate=10.0, burst=5)
    for _ in range(5):
        bucket.check(0.0)
    # Empty bucket at 10 tokens/s: one token is 0.1 s away.
    assert bucket.check(0.0) == pytest.approx(0.1)
    # 0.04 s later 0.4 of a token is back: 0.06 s to go.
    assert bucket.check(0.04) == pytest.approx(0.06)


def test_the_retry_delay_is_enough_and_positive() -> None:
    bucket = limiter(rate=3.0, burst=1)
    assert bucket.check(0.0) is None
    delay = bucket.check(0.0)
    assert delay is not None and delay > 0
    assert bucket.check(delay) is None  # retrying after the delay succeeds


def test_tokens_refill_at_the_rate_and_never_beyond_the_burst() -> None:
    bucket = limiter(rate=10.0, burst=5)
    for _ in range(5):
        bucket.check(0.0)
    # 0.35 s at 10/s: three whole tokens.
    results = [bucket.check(0.35) for _ in range(4)]
    assert results[:3] == [None, None, None]
    assert results[3] is not None
    # A long silence refills the bucket to the burst, not more.
    allowed = [bucket.check(1000.0) for _ in range(7)]
    assert allowed.count(None) == 5


def test_a_steady_client_within_the_rate_is_never_refused() -> None:
    bucket = limiter(rate=20.0, burst=2)
    # 20 messages a second, one every 0.05 s, for a minute.
    assert all(bucket.check(i * 0.05) is None for i in range(1200))


def test_a_clock_stepping_back_mints_no_tokens() -> None:
    bucket = limiter(rate=10.0, burst=1)
    assert bucket.check(10.0) is None
    assert bucket.check(5.0) is not None
    assert bucket.check(10.0) is not None  # still no time has passed since 10.0


# -- RateLimiter: abuse -----------------------------------------------------------------


def test_an_occasional_burst_over_the_limit_is_not_abuse() -> None:
    bucket = limiter(rate=10.0, burst=5, strikes=10, window=5.0)
    # Twice a burst of 12 messages: 7 refused each time, 14 in total, but 30 s apart.
    for start in (0.0, 30.0):
        allowed = [bucket.check(start) for _ in range(12)].count(None)
        assert allowed == 5
        assert not bucket.abusive
    assert bucket.strikes == 7


def test_sustained_refusals_within_the_window_are_abuse() -> None:
    bucket = limiter(rate=10.0, burst=5, strikes=10, window=5.0)
    for _ in range(5):
        bucket.check(0.0)
    for i in range(9):
        assert bucket.check(i * 0.01) is not None
        assert not bucket.abusive
    assert bucket.check(0.09) is not None
    assert bucket.abusive


def test_a_client_ignoring_retry_delays_at_twice_the_rate_becomes_abusive() -> None:
    bucket = RateLimiter(20.0, 40, abuse_strikes=50, abuse_window=10.0)
    now, step = 0.0, 1 / 40  # 40 messages/s against a 20/s limit
    while not bucket.abusive:
        bucket.check(now)
        now += step
        assert now < 10.0, "never judged abusive"
    # 40 allowed at once, then half of the messages refused: 50 strikes after ~4-5 s.
    assert 4.0 < now < 5.5


def test_abuse_decays_once_the_window_has_passed() -> None:
    bucket = limiter(rate=10.0, burst=1, strikes=3, window=5.0)
    bucket.check(0.0)
    for _ in range(3):
        bucket.check(0.0)
    assert bucket.abusive and bucket.strikes == 3
    # Still within the window (inclusive), the strikes count.
    assert bucket.check(5.0) is None
    assert bucket.abusive
    # Past it, they no longer do.
    assert bucket.check(5.5) is None
    assert not bucket.abusive
    assert bucket.strikes == 0


def test_strikes_are_bounded_by_the_abuse_threshold() -> None:
    bucket = limiter(rate=1.0, burst=1, strikes=4, window=60.0)
    for _ in range(10_000):
        bucket.check(0.0)
    assert bucket.strikes == 4
    assert len(bucket._strikes) == 4  # memory stays bounded whatever the client sends


# -- RateLimiter: arguments -------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"rate": 0.0}, "rate"),
        ({"rate": -1.0}, "rate"),
        ({"rate": math.inf}, "rate"),
        ({"rate": math.nan}, "rate"),
        ({"burst": 0}, "burst"),
        ({"burst": 1.5}, "burst"),
        ({"burst": True}, "burst"),
        ({"abuse_strikes": 0}, "abuse_strikes"),
        ({"abuse_window": 0.0}, "abuse_window"),
        ({"abuse_window": -5.0}, "abuse_window"),
    ],
)
def test_bad_limiter_arguments_are_value_errors_naming_the_field(
    kwargs: dict[str, object], field: str
) -> None:
    arguments: dict[str, object] = {
        "rate": 1.0,
        "burst": 1,
        "abuse_strikes": 1,
        "abuse_window": 1.0,
        **kwargs,
    }
    with pytest.raises(ValueError, match=field):
        RateLimiter(**arguments)  # type: ignore[arg-type]


def test_the_server_settings_default_to_the_module_defaults() -> None:
    config = ServerConfig()
    assert (config.rate, config.burst) == (limits.DEFAULT_MESSAGE_RATE, 40) == (20.0, 40)
    assert config.max_connections_per_address == limits.DEFAULT_CONNECTIONS_PER_ADDRESS == 32
    bucket = RateLimiter(
        config.rate,
        config.burst,
        abuse_strikes=limits.DEFAULT_ABUSE_STRIKES,
        abuse_window=limits.DEFAULT_ABUSE_WINDOW,
    )
    assert [bucket.check(0.0) for _ in range(41)].count(None) == 40


# -- ConnectionCounter ------------------------------------------------------------------


def test_an_address_is_capped_at_the_limit_and_others_are_not_affected() -> None:
    counter = ConnectionCounter(limit=3)
    assert [counter.acquire("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert counter.count("10.0.0.1") == 3
    assert counter.acquire("10.0.0.2")
    assert counter.total == 4


def test_releasing_makes_room_again() -> None:
    counter = ConnectionCounter(limit=2)
    counter.acquire("a")
    counter.acquire("a")
    assert not counter.acquire("a")
    counter.release("a")
    assert counter.count("a") == 1
    assert counter.acquire("a")


def test_release_never_goes_negative() -> None:
    counter = ConnectionCounter(limit=2)
    counter.release("nobody")
    counter.acquire("a")
    counter.release("a")
    counter.release("a")
    assert counter.count("a") == 0
    assert counter.count("nobody") == 0
    assert counter.total == 0
    assert counter.acquire("a") and counter.acquire("a") and not counter.acquire("a")


def test_addresses_at_zero_are_forgotten() -> None:
    counter = ConnectionCounter(limit=1)
    for i in range(1000):
        address = f"192.0.2.{i}"
        assert counter.acquire(address)
        counter.release(address)
    assert counter.addresses == 0
    assert counter.total == 0
    assert counter._counts == {}


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_a_bad_limit_is_a_value_error(limit: object) -> None:
    with pytest.raises(ValueError, match="limit"):
        ConnectionCounter(limit)  # type: ignore[arg-type]


def test_the_default_cap_fits_a_classroom() -> None:
    counter = ConnectionCounter(limits.DEFAULT_CONNECTIONS_PER_ADDRESS)
    # Thirty students behind one NAT address, each with a client.
    assert all(counter.acquire("203.0.113.7") for _ in range(30))


# -- TokenBucket and AddressRateLimits (the HTTP API) ----------------------------------


def test_a_bucket_is_full_again_after_burst_over_rate_seconds() -> None:
    bucket = TokenBucket(rate=4.0, burst=2)
    assert bucket.full_at() == 0.0  # new: full
    assert bucket.take(10.0) is None and bucket.take(10.0) is None
    assert bucket.take(10.0) == pytest.approx(0.25)
    assert bucket.full_at() == pytest.approx(10.5)
    assert bucket.take(10.25) is None
    assert bucket.full_at() == pytest.approx(10.75)


def test_each_address_has_its_own_bucket() -> None:
    buckets = AddressRateLimits(rate=1.0, burst=3)
    assert [buckets.check("10.0.0.1", 0.0) for _ in range(3)] == [None] * 3
    assert buckets.check("10.0.0.1", 0.0) == pytest.approx(1.0)
    assert buckets.check("10.0.0.2", 0.0) is None
    assert buckets.check("10.0.0.1", 1.0) is None


def test_only_addresses_whose_bucket_is_not_full_again_are_remembered() -> None:
    """Forgetting a full bucket changes no answer; memory follows the addresses of
    the last ``burst / rate`` seconds, not every address ever seen."""
    buckets = AddressRateLimits(rate=10.0, burst=5)
    for i in range(1000):
        buckets.check(f"192.0.2.{i}", i * 0.01)  # one request each, 100 a second
    # Each bucket lacks 1 token: full again 0.1 s after its request.
    assert buckets.addresses <= 11
    buckets.check("198.51.100.1", 100.0)
    assert buckets.addresses == 1


def test_a_flooding_address_is_not_forgotten_before_its_bucket_refills() -> None:
    buckets = AddressRateLimits(rate=1.0, burst=2)
    buckets.check("flood", 0.0)
    buckets.check("flood", 0.0)
    for i in range(100):
        buckets.check(f"other{i}", 1.0)  # others come and go meanwhile
    assert buckets.check("flood", 1.0) is None  # one token back after 1 s, no more
    assert buckets.check("flood", 1.0) is not None


def test_an_address_hammering_the_api_gets_the_rate_and_no_more() -> None:
    buckets = AddressRateLimits(rate=limits.DEFAULT_HTTP_RATE, burst=100)
    allowed = sum(buckets.check("flood", i / 1000) is None for i in range(10_000))  # 1,000/s
    assert allowed == pytest.approx(100 + 10 * 20, abs=2)


def test_a_class_behind_one_address_never_meets_the_default_http_limit() -> None:
    """Ten minutes of a class through one NAT, as the pages poll: the wall (two
    requests every second, the tournament every fifth poll), the teacher's page
    (three every two seconds, the tournaments every fifth poll), and thirty
    leaderboard pages (one every ten seconds each, all opened at the same moment
    as the teacher's page and the wall). No request is refused."""
    buckets = AddressRateLimits(limits.DEFAULT_HTTP_RATE, limits.DEFAULT_HTTP_BURST)
    requests: list[float] = []
    for poll in range(600):  # the wall: every 1 s
        requests += [poll * 1.0] * (3 if poll % 5 == 0 else 2)
    for poll in range(300):  # the teacher's page: every 2 s
        requests += [poll * 2.0] * (4 if poll % 5 == 0 else 3)
    for page in range(30):  # leaderboards: all opened at 0, every 10 s
        requests += [tick * 10.0 + page * 0.001 for tick in range(60)]
    refused = [t for t in sorted(requests) if buckets.check("203.0.113.7", t) is not None]
    assert refused == []


def test_bad_address_limits_are_value_errors() -> None:
    with pytest.raises(ValueError, match="rate"):
        AddressRateLimits(rate=0.0, burst=5)
    with pytest.raises(ValueError, match="burst"):
        AddressRateLimits(rate=1.0, burst=0)


def test_the_http_settings_default_to_the_module_defaults() -> None:
    config = ServerConfig()
    assert (config.http_rate, config.http_burst) == (limits.DEFAULT_HTTP_RATE, 100) == (20.0, 100)


def test_waiting_on_a_bucket_says_the_delay_and_takes_nothing() -> None:
    """wait() answers as take() would, without taking: an address out of tokens
    stays out until the refill, and one with tokens keeps them all."""
    limits_ = AddressRateLimits(rate=1.0, burst=2)
    assert limits_.wait("a", 0.0) is None  # never seen: full
    assert limits_.check("a", 0.0) is None and limits_.check("a", 0.0) is None
    for _ in range(3):
        assert limits_.wait("a", 0.5) == pytest.approx(0.5)
    assert limits_.wait("a", 1.0) is None
    assert limits_.check("a", 1.0) is None  # the token wait() saw is still there
    assert limits_.check("a", 1.0) == pytest.approx(1.0)


# -- RefusalDelays --------------------------------------------------------------------------


def test_refusals_within_the_budget_are_answered_at_once_and_later_ones_queue() -> None:
    """Ten refusals a minute at once; then each waits one refill longer than the
    last (guessers side by side wait in turn), up to the cap; another address
    is not held up."""
    delays = RefusalDelays(rate=10 / 60, burst=10, max_delay=30.0)
    assert [delays.refuse("nat", 0.0) for _ in range(10)] == [0.0] * 10
    queued = [delays.refuse("nat", 0.0) for _ in range(7)]
    assert queued == pytest.approx([6.0, 12.0, 18.0, 24.0, 30.0, 30.0, 30.0])
    assert delays.refuse("elsewhere", 0.0) == 0.0


def test_a_capped_debt_is_paid_back_at_the_rate_and_then_forgotten() -> None:
    """Past the cap the debt stops growing, so waiting max_delay clears it and
    one more refusal is answered at once; an address whose budget is full again
    is forgotten."""
    delays = RefusalDelays(rate=1.0, burst=1, max_delay=3.0)
    for _ in range(20):
        delays.refuse("a", 0.0)
    assert delays.refuse("a", 0.0) == pytest.approx(3.0)
    assert delays.refuse("a", 4.0) == 0.0
    assert delays.addresses == 1
    delays.refuse("b", 10.0)  # a's budget is full again by now: forgotten
    assert delays.addresses == 1


def test_a_clock_stepping_back_earns_no_refusals() -> None:
    delays = RefusalDelays(rate=1.0, burst=1, max_delay=10.0)
    delays.refuse("a", 5.0)
    assert delays.refuse("a", 1.0) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("rate", "burst", "max_delay", "field"),
    [(0.0, 1, 1.0, "rate"), (1.0, 0, 1.0, "burst"), (1.0, 1, math.inf, "max_delay")],
)
def test_bad_refusal_delays_are_value_errors(
    rate: float, burst: int, max_delay: float, field: str
) -> None:
    with pytest.raises(ValueError, match=field):
        RefusalDelays(rate, burst, max_delay)


def test_the_new_player_cap_lets_a_class_in_and_caps_a_flood() -> None:
    """The defaults: 90 new players at once from one address (thirty students
    behind one NAT, each from a browser, a terminal and a bot), then six a
    minute: an eleven-second flood of hundreds a second makes 91."""
    config = ServerConfig()
    assert (config.new_players_per_address, config.new_player_seconds) == (90, 10.0)
    creations = AddressRateLimits(1 / config.new_player_seconds, config.new_players_per_address)
    made = sum(creations.check("nat", step / 400) is None for step in range(4400))
    assert made == 91
