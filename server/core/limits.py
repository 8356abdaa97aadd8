"""Flood limits as pure arithmetic: times are passed in, nothing reads the clock.

Three guards keep one client from costing everybody else their game:

- :class:`RateLimiter`, one per connection: a :class:`TokenBucket` over the
  messages it sends. A refused message gets a ``rate_limited`` error that says
  when to retry; only a client that keeps sending regardless
  (:attr:`RateLimiter.abusive`) is disconnected.
- :class:`ConnectionCounter`, one per server: a cap on the connections that one
  network address may hold at once (:mod:`boardroom.server.admission` counts them from accept).
- :class:`AddressRateLimits`, one per server: a :class:`TokenBucket` per network
  address over its HTTP API requests (:mod:`boardroom.server.http_limits` answers 429),
  and another over the new players its hellos make (``rate_limited`` past it:
  a hello flood cannot fill the class's roster).
- :class:`RefusalDelays`, one per server: the player tokens an address presented
  that were refused. Every token is looked up (a valid one always gets in); once
  an address has used up its refusals, each further refusal is answered late,
  later the more it guesses, so guessing is slow whoever shares the address.

The hub also keeps an :class:`AddressRateLimits` keyed by session over the
hints it asks for (``rate_limited`` past it): each hint is up to 3 s of an
engine worker, so a session asking in all its rooms at once, again and again,
is slowed down to what a person uses.

(The caps on the rooms a session or an address may hold open are kept by
:mod:`boardroom.server.core.room_caps`; the engine's queue, which serves hints
after seated players' AI moves and by fair share, by
:mod:`boardroom.server.core.engine_queue`.)

The defaults below are what ``boardroom serve`` uses unless told otherwise.

>>> limiter = RateLimiter(rate=2.0, burst=2, abuse_strikes=3, abuse_window=10.0)
>>> limiter.check(0.0), limiter.check(0.0), limiter.check(0.0)
(None, None, 0.5)
>>> limiter.check(0.5) is None
True
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque

DEFAULT_MESSAGE_RATE = 20.0
"""Messages per second a connection may send, sustained. People send a move or a
chat line every few seconds, and a bot a move per turn plus the odd ``state``
request: 20/s is far above any honest use, yet caps what a flood costs the server
(decoding, validating, answering) at a few dozen messages per second per socket."""

DEFAULT_MESSAGE_BURST = 40
"""Messages a connection may send at once before the sustained rate applies. A
client that (re)connects sends ``hello``, joins or resumes several rooms and asks
for their state in one go; a bot may also catch up on a backlog after a pause."""

DEFAULT_HINTS_PER_MINUTE = 20.0
"""Hints one session may ask for a minute, sustained (``--hints-per-minute``; 0:
no limit), past :data:`HINT_BURST`. A person asks for a hint at most once a
move: one every three seconds is more than a gomoku game allows (a hint there
is itself a 3 s search); a script asking in four rooms as fast as the engine
answers asks for eighty a minute, and far more on boards it solves at once."""

HINT_BURST = 30
"""Hints a session may ask for at once before :data:`DEFAULT_HINTS_PER_MINUTE`
applies: a whole Connect Four game with a hint before each of one side's 21
moves, however fast it is played, fits in it."""

DEFAULT_ABUSE_STRIKES = 50
"""Refusals within :data:`DEFAULT_ABUSE_WINDOW` that get a connection closed. One
burst over the limit costs a handful of refusals; fifty in ten seconds means the
client ignores the ``rate_limited`` errors and their retry delay altogether."""

DEFAULT_ABUSE_WINDOW = 10.0
"""Seconds over which refusals are counted towards :data:`DEFAULT_ABUSE_STRIKES`:
long enough that a flood is told apart from a burst, short enough that a client
which calmed down is soon in good standing again."""

DEFAULT_CONNECTIONS_PER_ADDRESS = 32
"""Connections that one network address may hold at once, counted from the moment
each is accepted (before its request, then as a WebSocket or while an HTTP request
is served) until it closes. A classroom usually reaches the server through one NAT
address: thirty students, some running a bot beside their own client, must all
fit, so the cap is generous; it is there to stop one runaway script from taking
every socket the server has. A browser opening the page holds up to six HTTP
connections for a moment, and they close once idle (:data:`DEFAULT_HANDSHAKE_SECONDS`)."""

DEFAULT_HANDSHAKE_SECONDS = 5.0
"""Seconds a new connection has to send its request (for a client, the WebSocket
upgrade), and an HTTP connection to send its next one, before it is closed.
Clients send their request as soon as they connect, in milliseconds even over a
slow network; a socket that sends nothing for seconds is dead or hostile, and it
holds a file descriptor and one of its address's places until closed."""


DEFAULT_HTTP_RATE = 20.0
"""HTTP API requests per second one address may make, sustained. All of a class
may share one address (a school's NAT): the wall polls two requests a second,
the teacher's page two every two seconds, and thirty open leaderboard pages one
every ten seconds each, about 7 a second together. 20 leaves room for that and
for fetching game records, and keeps a script hammering the API to 20 cheap
answers a second."""

DEFAULT_HTTP_BURST = 100
"""HTTP API requests one address may make at once before the rate applies: a
class opening its pages at the same moment (thirty leaderboards, the teacher's
page and the wall, four requests each at most) fits in one burst."""


DEFAULT_TOKEN_GUESSES = 10
"""Refused player tokens one address may present in a row before each further
refusal is answered late (:class:`RefusalDelays`). A client presents the one
token it keeps, so an honest one is refused once (a server that lost its
database, say, or a mistyped join link); ten leaves room for a classroom behind
one NAT address. A valid token is never delayed."""

DEFAULT_TOKEN_GUESS_SECONDS = 60.0
"""The time in which an address earns back :data:`DEFAULT_TOKEN_GUESSES`
refusals: ten a minute, so guessing a 256-bit token is hopeless."""

DEFAULT_REFUSAL_DELAY_MAX = 30.0
"""The longest a refused token's answer waits. Each connection waits for its
answer before its next message is read, so an address holding
:data:`DEFAULT_CONNECTIONS_PER_ADDRESS` connections guesses about one token a
second at most, and an honest student whose card was mistyped behind the same
NAT is told within half a minute."""

DEFAULT_NEW_PLAYERS = 90
"""New players (and so, in class mode, new students) that the hellos of one
address may make at once before the rate applies: a class of thirty at its
first lesson behind one school NAT address, each student joining from a
browser, a terminal and a bot without a token, all get in at once."""

DEFAULT_NEW_PLAYER_SECONDS = 10.0
"""Seconds in which an address earns back one new player past
:data:`DEFAULT_NEW_PLAYERS`: six a minute. A hello flood (connect, hello, close,
again) made hundreds of permanent students a second without it; with it,
ninety and then six a minute, each refused hello told when to retry."""


def _positive_finite(name: str, value: float) -> float:
    """``value`` as a float, or a ValueError naming ``name`` unless it is finite and > 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {type(value).__name__}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def _positive_int(name: str, value: int) -> int:
    """``value``, or a ValueError naming ``name`` unless it is an int >= 1."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


class TokenBucket:
    """A token bucket: up to ``burst`` tokens, refilled at ``rate`` tokens a second.

    It starts full. Each :meth:`take` takes one token, or says how long until one
    is back. Times are seconds on any monotonic clock, passed in by the caller; a
    time earlier than one seen before is taken as no time passing, so a clock
    that steps back never mints tokens.
    """

    def __init__(self, rate: float, burst: int) -> None:
        """Raise ValueError unless ``rate`` is finite and > 0 and ``burst`` is a
        whole number >= 1."""
        self._rate = _positive_finite("rate", rate)
        self._burst = _positive_int("burst", burst)
        self._tokens = float(self._burst)
        self._last: float | None = None
        """Latest time seen by :meth:`take`; None before the first call."""

    @property
    def rate(self) -> float:
        """Tokens added per second."""
        return self._rate

    @property
    def burst(self) -> int:
        """Capacity of the bucket: takes allowed at once."""
        return self._burst

    @property
    def now(self) -> float:
        """The latest time :meth:`take` was given (0.0 before the first call)."""
        return 0.0 if self._last is None else self._last

    def take(self, now: float) -> float | None:
        """Take a token at ``now``: None when there was one; otherwise nothing is
        taken and the return value is the delay in seconds (> 0) until one is back."""
        delay = self.wait(now)
        if delay is None:
            self._tokens -= 1.0
        return delay

    def wait(self, now: float) -> float | None:
        """Like :meth:`take` at ``now``, but taking nothing: None when a token is
        there, else the delay in seconds (> 0) until one is back."""
        if self._last is None or now > self._last:
            if self._last is not None:
                gained = (now - self._last) * self._rate
                self._tokens = min(float(self._burst), self._tokens + gained)
            self._last = now
        if self._tokens >= 1.0:
            return None
        return (1.0 - self._tokens) / self._rate

    def full_at(self) -> float:
        """When the bucket is full again if nothing more is taken: from then on it
        is the same as a new bucket."""
        return self.now + (self._burst - self._tokens) / self._rate


class RateLimiter:
    """A token bucket over one connection's messages, with an abuse detector.

    The :class:`TokenBucket` holds up to ``burst`` tokens and starts full; it
    refills at ``rate`` tokens per second. Each message takes one token; a message
    that finds less than one is refused and counts as a *strike*. The client is
    :attr:`abusive` once it has collected ``abuse_strikes`` strikes within
    ``abuse_window`` seconds.

    Times are seconds on any monotonic clock (the event loop's ``loop.time()``),
    passed in by the caller. A time earlier than one seen before is taken as no
    time passing, so a clock that steps back never mints tokens.
    """

    def __init__(self, rate: float, burst: int, *, abuse_strikes: int, abuse_window: float) -> None:
        """Raise ValueError unless ``rate`` and ``abuse_window`` are finite and > 0
        and ``burst`` and ``abuse_strikes`` are whole numbers >= 1."""
        self._bucket = TokenBucket(rate, burst)
        self._abuse_strikes = _positive_int("abuse_strikes", abuse_strikes)
        self._abuse_window = _positive_finite("abuse_window", abuse_window)
        # Only the latest `abuse_strikes` strikes can decide whether the client is
        # abusive, so the memory per connection is bounded whatever it sends.
        self._strikes: deque[float] = deque(maxlen=self._abuse_strikes)

    @property
    def rate(self) -> float:
        """Tokens added per second."""
        return self._bucket.rate

    @property
    def burst(self) -> int:
        """Capacity of the bucket: messages allowed at once."""
        return self._bucket.burst

    def check(self, now: float) -> float | None:
        """Take a token for one message received at ``now``.

        Return None when the message is allowed. Otherwise the message is refused,
        a strike is recorded, and the return value is the delay in seconds (> 0)
        after which one token will be available again.
        """
        delay = self._bucket.take(now)
        if delay is not None:
            self._strikes.append(self._bucket.now)
        return delay

    @property
    def abusive(self) -> bool:
        """True when at least ``abuse_strikes`` messages were refused within the
        ``abuse_window`` seconds up to the latest :meth:`check`.

        Strikes older than the window no longer count, so a client that slows down
        is in good standing again once the window has passed.
        """
        return self.strikes == self._abuse_strikes

    @property
    def strikes(self) -> int:
        """Refusals within ``abuse_window`` seconds of the latest :meth:`check`,
        counted up to ``abuse_strikes`` (no further: that is enough to decide)."""
        horizon = self._bucket.now - self._abuse_window
        # Drop strikes that fell out of the window (strictly older than it).
        while self._strikes and self._strikes[0] < horizon:
            self._strikes.popleft()
        return len(self._strikes)


class ConnectionCounter:
    """How many connections each network address holds, capped at ``limit``.

    Only addresses holding at least one connection are remembered, so memory grows
    with the connections open, not with every address ever seen.
    """

    def __init__(self, limit: int) -> None:
        """Raise ValueError unless ``limit`` is a whole number >= 1."""
        self._limit = _positive_int("limit", limit)
        self._counts: dict[str, int] = {}
        self._total = 0

    @property
    def limit(self) -> int:
        """Connections one address may hold at once."""
        return self._limit

    def acquire(self, address: str) -> bool:
        """Count one more connection from ``address`` and return True, or return
        False (counting nothing) when the address already holds ``limit``."""
        held = self._counts.get(address, 0)
        if held >= self._limit:
            return False
        self._counts[address] = held + 1
        self._total += 1
        return True

    def release(self, address: str) -> None:
        """Count one connection from ``address`` fewer. Releasing an address that
        holds none does nothing: counts never go negative."""
        held = self._counts.get(address, 0)
        if held == 0:
            return
        if held == 1:
            del self._counts[address]
        else:
            self._counts[address] = held - 1
        self._total -= 1

    def count(self, address: str) -> int:
        """Connections that ``address`` holds now."""
        return self._counts.get(address, 0)

    @property
    def total(self) -> int:
        """Connections held by all addresses together."""
        return self._total

    @property
    def addresses(self) -> int:
        """Distinct addresses holding at least one connection (what is remembered)."""
        return len(self._counts)


class AddressRateLimits:
    """A :class:`TokenBucket` per network address: ``rate`` requests a second,
    bursts of ``burst``.

    Only addresses whose bucket is not full again are remembered: a full bucket is
    the same as a new one, so forgetting it changes no answer, and memory grows
    with the addresses active in the last ``burst / rate`` seconds, not with every
    address ever seen. Times are passed in, as for :class:`TokenBucket`.
    """

    def __init__(self, rate: float, burst: int) -> None:
        """Raise ValueError unless ``rate`` is finite and > 0 and ``burst`` is a
        whole number >= 1."""
        TokenBucket(rate, burst)  # checks the arguments before any address comes
        self._rate = float(rate)
        self._burst = burst
        # Least recently used first, so the buckets to forget are at the front.
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def check(self, address: str, now: float) -> float | None:
        """Take a token for one request from ``address`` at ``now``: None when it
        is allowed, else the delay in seconds (> 0) until it would be."""
        self._forget_full(now)
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self._rate, self._burst)
        else:
            self._buckets.move_to_end(address)
        return bucket.take(now)

    def wait(self, address: str, now: float) -> float | None:
        """Like :meth:`check`, but taking nothing: None when a request from
        ``address`` would be allowed at ``now``, else the delay until it would."""
        self._forget_full(now)
        bucket = self._buckets.get(address)
        return None if bucket is None else bucket.wait(now)

    @property
    def addresses(self) -> int:
        """Addresses remembered now (their buckets are not full again)."""
        return len(self._buckets)

    def _forget_full(self, now: float) -> None:
        while self._buckets:
            address, bucket = next(iter(self._buckets.items()))
            if bucket.full_at() > now:
                # Not full yet, so used within burst / rate seconds; the others were
                # used later still. (Some may be full already: kept a little longer.)
                return
            del self._buckets[address]


class RefusalDelays:
    """How late to answer each refusal, per network address: the first ``burst``
    refusals at once, then each later by the refusals owed, one earned back every
    ``1 / rate`` seconds, up to ``max_delay`` seconds.

    Unlike :class:`AddressRateLimits` nothing is ever refused here: a refusal
    past the budget still takes its place (the address goes into debt), so that
    connections guessing side by side wait one behind the other rather than all
    retrying the moment one refusal is earned back. The debt stops growing at
    ``max_delay``: a guesser is slowed, an honest client behind the same address
    waits at most that long for its own refusal. Only addresses still owing or
    short of ``burst`` are remembered. Times are passed in, as for
    :class:`TokenBucket`.

    >>> delays = RefusalDelays(rate=1.0, burst=2, max_delay=5.0)
    >>> [delays.refuse("a", 0.0) for _ in range(4)]
    [0.0, 0.0, 1.0, 2.0]
    >>> delays.refuse("a", 10.0), delays.refuse("b", 0.0)
    (0.0, 0.0)
    """

    def __init__(self, rate: float, burst: int, max_delay: float) -> None:
        """Raise ValueError unless ``rate`` and ``max_delay`` are finite and > 0
        and ``burst`` is a whole number >= 1."""
        self._rate = _positive_finite("rate", rate)
        self._burst = _positive_int("burst", burst)
        self._max_delay = _positive_finite("max_delay", max_delay)
        # address -> (tokens left, which may be < 0: owed; when counted), least
        # recently refused first, so the ones to forget are at the front.
        self._left: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def refuse(self, address: str, now: float) -> float:
        """Count one refusal for ``address`` at ``now``; return how many seconds
        to wait before answering it (0.0: at once)."""
        self._forget_full(now)
        tokens, last = self._left.pop(address, (float(self._burst), now))
        tokens = min(float(self._burst), tokens + max(0.0, now - last) * self._rate) - 1.0
        tokens = max(tokens, -self._max_delay * self._rate)
        self._left[address] = (tokens, max(now, last))
        return 0.0 if tokens >= 0.0 else min(-tokens / self._rate, self._max_delay)

    @property
    def addresses(self) -> int:
        """Addresses remembered now."""
        return len(self._left)

    def _forget_full(self, now: float) -> None:
        while self._left:
            address, (tokens, last) = next(iter(self._left.items()))
            if last + (self._burst - tokens) / self._rate > now:
                return
            del self._left[address]
