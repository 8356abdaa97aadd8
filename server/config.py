"""The server's settings: one frozen value, read from flags and environment variables.

Every setting has a flag (``--port``) and an environment variable (``BOARDROOM_PORT``);
a flag beats the variable, which beats the default. ``docs/operations.md`` lists
them for people running a server. A setting whose field name is not its flag's
(``class_name`` is ``--class``, since ``class`` is a Python keyword) says so in
its metadata. A switch (a ``bool`` field: ``--reuse-port``) takes no value,
``--no-reuse-port`` turns it off again, and its variable takes 1 or 0
(:func:`parse_switch`).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from boardroom.server.core.client_address import TrustedProxies
from boardroom.server.core.engine_queue import DEFAULT_RESERVED_WORKERS
from boardroom.server.core.limits import (
    DEFAULT_CONNECTIONS_PER_ADDRESS,
    DEFAULT_HANDSHAKE_SECONDS,
    DEFAULT_HINTS_PER_MINUTE,
    DEFAULT_HTTP_BURST,
    DEFAULT_HTTP_RATE,
    DEFAULT_MESSAGE_BURST,
    DEFAULT_MESSAGE_RATE,
    DEFAULT_NEW_PLAYER_SECONDS,
    DEFAULT_NEW_PLAYERS,
)
from boardroom.server.core.room_caps import (
    DEFAULT_AI_MATCHES_PER_ADDRESS,
    DEFAULT_AI_MATCHES_PER_SESSION,
    DEFAULT_ROOMS_PER_ADDRESS,
    DEFAULT_ROOMS_PER_SESSION,
)
from boardroom.server.core.room_options import MAX_SPECTATOR_DELAY, MAX_SPECTATOR_DELAY_SECONDS
from boardroom.server.event_loop import EVENT_LOOPS
from boardroom.shared.engine.solvers import ENGINE_BUILDS
from boardroom.shared.i18n import N_, _
from boardroom.shared.i18n.languages import CODES as LANGUAGE_CODES
from boardroom.shared.protocol.messages import AUTOPILOT_OFF, LEVELS, Level

ENV_PREFIX = "BOARDROOM_"
MAX_CLASS_NAME = 64
"""Longest class name: it heads the teacher's page and the export's file names."""


def default_pool_size() -> int:
    """One engine worker per core but one: the event loop keeps a core to itself,
    so an engine at full stretch never delays anyone's moves."""
    return max(1, (os.cpu_count() or 2) - 1)


def _setting(default: Any, help_text: str, *, stem: str | None = None) -> Any:
    """A field with its help text; ``stem`` names its flag and variable when the
    field's own name cannot (``--STEM``, ``BOARDROOM_STEM``)."""
    metadata = {"help": help_text}
    if stem is not None:
        metadata["stem"] = stem
    return field(default=default, metadata=metadata)


def _stem(setting: Field[Any]) -> str:
    stem: str = setting.metadata.get("stem", setting.name)
    return stem


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """How one server runs. Each field's help is its flag's help text."""

    # Every interface by default: the server is for other machines on the network.
    host: str = _setting("0.0.0.0", N_("address to listen on (0.0.0.0: all interfaces)"))  # noqa: S104
    port: int = _setting(8765, N_("TCP port for HTTP and the WebSocket /ws (0: any free port)"))
    database: str = _setting(
        "boardroom.db",
        N_(
            "SQLite file holding every game (created if missing), or a cluster's PostgreSQL "
            "database as a postgresql://USER:PASSWORD@HOST:PORT/NAME URL"
        ),
    )
    pool_size: int = _setting(0, N_("engine worker processes (0: one per core but one)"))
    engine_queue: int = _setting(64, N_("server AI searches that may wait or run at once"))
    # Why one: server/core/engine_queue.py (a started search is never interrupted).
    engine_reserve: int = _setting(
        DEFAULT_RESERVED_WORKERS,
        N_(
            "engine workers started beyond --pool-size that run only the moves of AIs "
            "that people play against, so a busy engine never keeps them waiting"
        ),
    )
    # The same variable as the engine's own switch (boardroom.shared.engine.solvers), so one
    # name means one thing in `boardroom serve`, `solve` and `bench`.
    engine: str = _setting(
        "auto",
        N_(
            "the AI's exact solver: auto (compiled with numba where it runs) or python "
            "(pure Python: workers start in a tenth of the time, solve 10-30x slower)"
        ),
    )
    grace_seconds: float = _setting(60.0, N_("seconds a dropped player's seat is held for them"))
    # Two plies: one move of each side, so a spectator passing the position to a
    # player passes one that is gone, while the class still follows the game
    # (a tic-tac-toe game is 5 to 9 plies). server/core/spectator_delay.py has the rules.
    spectator_delay: int = _setting(
        2,
        N_(
            "plies behind the game that spectators of a class tournament's games see it "
            "while it is played (0: live); the teacher and the wall see it live"
        ),
    )
    # 0: plies, as above; seconds suit games whose moves come quickly.
    spectator_delay_seconds: float = _setting(
        0.0,
        N_(
            "seconds behind the game that spectators of a class tournament's games see "
            "it, instead of plies (0: by plies, --spectator-delay)"
        ),
    )
    # Off by default: a host that upgrades keeps today's rule (the game is lost by
    # abandonment), its ratings and its engine load, until it chooses a level.
    autopilot: str = _setting(
        "off",
        N_(
            "engine level that plays a dropped player's seat once its grace window runs "
            "out, until they come back (easy, medium, hard, perfect), or off: the game is "
            "lost by abandonment; a room's create_room may choose otherwise"
        ),
    )
    # Off by default: a game the engine finished for a player who left is partly
    # the engine's result, so it moves nobody's rating unless the host says so.
    rate_autopilot: bool = _setting(
        False,
        N_("rate games in which the autopilot made moves for a player who left"),
    )
    storage_outage_limit: float = _setting(
        600.0,
        N_(
            "seconds a room's game may go unsaved (database down or locked: its moves are "
            "refused with storage_unavailable and retried) before the room is closed"
        ),
    )
    # Why these defaults: server/core/limits.py, where they are kept once.
    max_connections_per_address: int = _setting(
        DEFAULT_CONNECTIONS_PER_ADDRESS,
        N_("open connections allowed from one address, counted from accept"),
    )
    handshake_seconds: float = _setting(
        DEFAULT_HANDSHAKE_SECONDS,
        N_("seconds a connection has to send its request (or an idle HTTP one its next)"),
    )
    rate: float = _setting(
        DEFAULT_MESSAGE_RATE, N_("messages per second one connection may send, on average")
    )
    burst: int = _setting(
        DEFAULT_MESSAGE_BURST,
        N_("messages one connection may send at once before the rate applies"),
    )
    max_rooms_per_session: int = _setting(
        DEFAULT_ROOMS_PER_SESSION, N_("rooms one player may have open (waiting or playing) at once")
    )
    max_rooms_per_address: int = _setting(
        DEFAULT_ROOMS_PER_ADDRESS, N_("rooms the players of one address may have open (0: no cap)")
    )
    max_ai_matches_per_session: int = _setting(
        DEFAULT_AI_MATCHES_PER_SESSION, N_("AI matches one player may have running at once")
    )
    max_ai_matches_per_address: int = _setting(
        DEFAULT_AI_MATCHES_PER_ADDRESS,
        N_("AI matches the players of one address may have running at once (0: no cap)"),
    )
    hints_per_minute: float = _setting(
        DEFAULT_HINTS_PER_MINUTE,
        N_(
            "hints one player may ask for a minute, on average, past a burst of thirty "
            "(0: no limit)"
        ),
    )
    http_rate: float = _setting(
        DEFAULT_HTTP_RATE,
        N_("HTTP API requests per second from one address, on average (0: no limit)"),
    )
    http_burst: int = _setting(
        DEFAULT_HTTP_BURST,
        N_("HTTP API requests one address may make at once before the rate applies"),
    )
    new_players_per_address: int = _setting(
        DEFAULT_NEW_PLAYERS,
        N_(
            "new players (in class mode: new students) the hellos of one address may make "
            "at once before --new-player-seconds applies (0: no cap)"
        ),
    )
    new_player_seconds: float = _setting(
        DEFAULT_NEW_PLAYER_SECONDS,
        N_("seconds in which an address earns back one new player past the cap"),
    )
    # Behind a reverse proxy every connection comes from the proxy: its
    # X-Forwarded-For names the client (server/core/client_address.py).
    trusted_proxies: str = _setting(
        "",
        N_(
            "reverse proxies whose X-Forwarded-For names the client, for every per-address "
            "limit: a comma list of addresses and networks (127.0.0.1,::1 or 10.0.0.0/8)"
        ),
        stem="trusted_proxy",
    )
    heartbeat_seconds: float = _setting(20.0, N_("interval of WebSocket pings"))
    # auto: uvloop where it is installed (everywhere but Windows). Same moves a
    # second at 100 paced rooms, with a quarter less server CPU and a fifth of the
    # median move latency (docs/benchmarks.md, Server under load).
    event_loop: str = _setting(
        "auto", N_("the asyncio event loop: asyncio, uvloop, or auto (uvloop where installed)")
    )
    log_format: str = _setting(
        "text", N_("log lines as text (key=value) or json (one object each)")
    )
    log_level: str = _setting("INFO", N_("DEBUG, INFO, WARNING or ERROR"))
    class_name: str = _setting(
        "", N_("class mode: the class's name; turns on the teacher's controls"), stem="class"
    )
    # The language of the pages that speak to a whole class (the wall, the join
    # cards) and the first choice of every page until a reader picks their own
    # (server/web/i18n_routes.py); none: each reader's browser decides.
    language: str = _setting(
        "",
        N_(
            "the class's language (en or es): the wall and the cards speak it, and every page "
            "until a reader chooses another; none: each browser's own language"
        ),
        stem="lang",
    )
    # The address on the students' join cards when the one the server finds is not
    # theirs: behind a reverse proxy, or a DNS name (server/classroom/join_address.py).
    public_url: str = _setting(
        "",
        N_(
            "class mode: the address students reach this server at (http(s)://HOST[:PORT]/), "
            "for their join links, when not this machine's network address"
        ),
    )
    tls_cert: str = _setting(
        "", N_("TLS: the certificate chain file (PEM); serves https:// and wss:// with --tls-key")
    )
    tls_key: str = _setting("", N_("TLS: the private key file (PEM) of --tls-cert"))
    cluster: str = _setting(
        "",
        N_(
            "a cluster's Redis (redis://HOST:PORT/DB): run as one of several processes "
            "sharing rooms, lobby and quick matches; needs a PostgreSQL --database"
        ),
    )
    cluster_name: str = _setting(
        "boardroom", N_("the cluster's name: its keys in Redis (clusters sharing a Redis differ)")
    )
    # SO_REUSEPORT: the kernel spreads new connections over every process that
    # listens on the port, so one machine's cores serve one address.
    reuse_port: bool = _setting(
        False,
        N_(
            "let several processes of one --cluster listen on the same --port, the kernel "
            "spreading connections over them (every core of one machine behind one port)"
        ),
    )

    @property
    def autopilot_level(self) -> Level | None:
        """The level of :attr:`autopilot`; None for ``off``."""
        return None if self.autopilot == AUTOPILOT_OFF else Level(self.autopilot)

    def __post_init__(self) -> None:
        # Frozen, but a name given with spaces around it is the same class.
        object.__setattr__(self, "class_name", self.class_name.strip())
        problems = []
        if not 0 <= self.port <= 65535:
            problems.append(f"port={self.port}: use 0 to 65535")
        if self.pool_size < 0 or self.engine_queue < 1 or self.engine_reserve < 0:
            problems.append(
                "pool_size and engine_reserve must be 0 or more and engine_queue 1 or more"
            )
        if self.engine not in ENGINE_BUILDS:
            problems.append(f"engine={self.engine!r}: use {' or '.join(ENGINE_BUILDS)}")
        if not 0 <= self.spectator_delay <= MAX_SPECTATOR_DELAY:
            problems.append(
                f"spectator_delay={self.spectator_delay}: give 0 to {MAX_SPECTATOR_DELAY} plies"
            )
        if not 0 <= self.spectator_delay_seconds <= MAX_SPECTATOR_DELAY_SECONDS:
            problems.append(
                f"spectator_delay_seconds={self.spectator_delay_seconds}: "
                f"give 0 to {MAX_SPECTATOR_DELAY_SECONDS:g} seconds"
            )
        if not self.grace_seconds > 0:
            problems.append(f"grace_seconds={self.grace_seconds}: give more than 0")
        if self.autopilot != AUTOPILOT_OFF and self.autopilot not in LEVELS:
            problems.append(f"autopilot={self.autopilot!r}: use {', '.join(LEVELS)} or off")
        if not self.storage_outage_limit > 0:
            problems.append(
                f"storage_outage_limit={self.storage_outage_limit}: give more than 0 seconds"
            )
        if self.max_connections_per_address < 1:
            problems.append("max_connections_per_address must be 1 or more")
        if not 0 < self.handshake_seconds < math.inf:
            problems.append(
                f"handshake_seconds={self.handshake_seconds}: give a finite number more than 0"
            )
        if not self.rate > 0 or self.burst < 1:
            problems.append("rate must be more than 0 and burst 1 or more")
        if self.max_rooms_per_session < 1 or self.max_rooms_per_address < 0:
            problems.append(
                "max_rooms_per_session must be 1 or more and max_rooms_per_address 0 or more"
            )
        if self.max_ai_matches_per_session < 1 or self.max_ai_matches_per_address < 0:
            problems.append(
                "max_ai_matches_per_session must be 1 or more and max_ai_matches_per_address "
                "0 or more"
            )
        if not 0 <= self.hints_per_minute < math.inf:
            problems.append("hints_per_minute must be 0 (no limit) or more")
        if self.new_players_per_address < 0 or not 0 < self.new_player_seconds < math.inf:
            problems.append(
                "new_players_per_address must be 0 (no cap) or more and new_player_seconds "
                "a finite number more than 0"
            )
        if not (0 <= self.http_rate < math.inf) or self.http_burst < 1:
            problems.append("http_rate must be 0 (no limit) or more and http_burst 1 or more")
        try:
            TrustedProxies.parse(self.trusted_proxies)
        except ValueError as error:
            problems.append(f"trusted_proxy: {error}")
        if not self.heartbeat_seconds > 0:
            problems.append("heartbeat_seconds must be more than 0")
        if self.event_loop not in EVENT_LOOPS:
            problems.append(f"event_loop={self.event_loop!r}: use {', '.join(EVENT_LOOPS)}")
        if self.language and self.language not in LANGUAGE_CODES:
            problems.append(
                f"language={self.language!r}: use {' or '.join(sorted(LANGUAGE_CODES))}"
            )
        if self.log_format not in ("text", "json"):
            problems.append(f"log_format={self.log_format!r}: use text or json")
        if self.log_level.upper() not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            problems.append(f"log_level={self.log_level!r}: use DEBUG, INFO, WARNING or ERROR")
        if len(self.class_name) > MAX_CLASS_NAME or not self.class_name.isprintable():
            problems.append(
                f"class={self.class_name!r}: use up to {MAX_CLASS_NAME} printable characters"
            )
        if self.public_url:
            try:
                object.__setattr__(self, "public_url", checked_public_url(self.public_url))
            except ValueError as error:
                problems.append(f"public_url: {error}")
        if bool(self.tls_cert) != bool(self.tls_key):
            problems.append("tls_cert and tls_key: give both (TLS) or neither")
        if self.cluster:
            problems.extend(self._cluster_problems())
        elif self.reuse_port:
            # Processes that are not one cluster do not share rooms: each would hold
            # the rooms of the clients the kernel happened to give it, invisible to
            # the others' (and the second would refuse a SQLite file in use anyway).
            problems.append(
                "reuse_port: only for the processes of one cluster (give --cluster "
                "redis://...): processes without one would each hold a part of the rooms"
            )
        if problems:
            raise ValueError("; ".join(problems))

    def _cluster_problems(self) -> list[str]:
        problems = []
        if not self.cluster.startswith(("redis://", "rediss://", "unix://")):
            problems.append(f"cluster={self.cluster!r}: give a Redis URL (redis://HOST:PORT/DB)")
        if not self.database.startswith(("postgresql://", "postgres://")):
            # Every process of a cluster writes every game: one SQLite file cannot
            # be shared by processes on several machines (docs/operations.md).
            problems.append("cluster: give a PostgreSQL --database (postgresql://...)")
        if not self.cluster_name or not self.cluster_name.replace("-", "").isalnum():
            problems.append(f"cluster_name={self.cluster_name!r}: use letters, digits and -")
        return problems

    @property
    def workers(self) -> int:
        """The engine pool size to start."""
        return self.pool_size or default_pool_size()

    @property
    def tls(self) -> bool:
        """True when the server speaks TLS (``--tls-cert`` and ``--tls-key``)."""
        return bool(self.tls_cert)

    @property
    def class_mode(self) -> bool:
        """True when the server runs for a class (``--class NAME``)."""
        return bool(self.class_name)


def checked_public_url(url: str) -> str:
    """``url`` as the base of the students' join links: an ``http`` or ``https``
    address with a host and no query, fragment or user, ending with ``/``
    (its path kept: a proxy may serve Boardroom under one). ValueError naming
    what is wrong otherwise.

    >>> checked_public_url(" https://chess.school.example ")
    'https://chess.school.example/'
    >>> checked_public_url("http://10.0.0.5:8765/boardroom")
    'http://10.0.0.5:8765/boardroom/'
    >>> checked_public_url("10.0.0.5:8765")
    Traceback (most recent call last):
    ...
    ValueError: '10.0.0.5:8765' is not a web address: give http://HOST[:PORT]/ or https://...
    """
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not a web address: give http://HOST[:PORT]/ or https://...")
    if parts.query or parts.fragment or "#" in text or parts.username or parts.password:
        raise ValueError(f"{url!r}: give the address alone, without ?query, #fragment or user@")
    try:
        parts.port  # noqa: B018 - read to check it: urlsplit checks the port lazily
    except ValueError:
        raise ValueError(f"{url!r}: the port is not a number from 0 to 65535") from None
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc, path, "", ""))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add one flag per :class:`ServerConfig` field, defaulting to "not given", its
    help in the process's language (the texts are marked with ``N_`` where declared)."""
    for setting in fields(ServerConfig):
        flag = "--" + _stem(setting).replace("_", "-")
        env = ENV_PREFIX + _stem(setting).upper()
        kind = _field_type(setting.name)
        if kind is parse_switch:
            # --reuse-port / --no-reuse-port: a switch takes no value; "not given"
            # (None) lets the environment decide.
            parser.add_argument(
                flag,
                dest=setting.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=_("{help} [env {env}=1 or 0; default off]", help=_help(setting), env=env),
            )
            continue
        parser.add_argument(
            flag,
            dest=setting.name,
            type=kind,
            default=None,
            metavar=_stem(setting).upper(),
            help=_(
                "{help} [env {env}; default {default}]",
                help=_help(setting),
                env=env,
                default=setting.default or _("none"),
            ),
        )


def _help(setting: Field[Any]) -> str:
    """The help text of ``setting``'s flag in the process's language, ``%`` kept
    literal: argparse fills ``%(default)s``-style fields in help texts."""
    text: str = _(setting.metadata["help"])
    return text.replace("%", "%%")


def config_from(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> ServerConfig:
    """The config from parsed flags, then ``environ`` (default ``os.environ``).

    Raises ``ValueError`` naming the variable or setting at fault.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for setting in fields(ServerConfig):
        name = setting.name
        given = getattr(args, name, None)
        if given is not None:
            values[name] = given
            continue
        env = ENV_PREFIX + _stem(setting).upper()
        if env in environ:
            try:
                values[name] = _field_type(name)(environ[env])
            except ValueError:
                raise ValueError(f"{env}={environ[env]!r} is not a valid {name}") from None
    return ServerConfig(**values)


def _field_type(name: str) -> Callable[[str], Any]:
    kind = type(getattr(_DEFAULTS, name))
    return parse_switch if kind is bool else kind


SWITCH_WORDS = {"1": True, "true": True, "yes": True, "on": True}
SWITCH_WORDS |= {"0": False, "false": False, "no": False, "off": False, "": False}


def parse_switch(text: str) -> bool:
    """A switch's environment variable: 1/true/yes/on or 0/false/no/off (any case;
    empty is off). ``bool("0")`` would be True, hence the words. ValueError else.

    >>> parse_switch("Yes"), parse_switch("0")
    (True, False)
    """
    try:
        return SWITCH_WORDS[text.strip().lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not a switch: use 1 or 0 (true/false, yes/no)") from None


_DEFAULTS = ServerConfig()
