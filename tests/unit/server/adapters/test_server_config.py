"""Settings from flags and environment variables, log lines, printed addresses."""

from __future__ import annotations

import argparse
import json
import logging

import pytest

from boardroom.server.config import ServerConfig, add_arguments, config_from
from boardroom.server.logs import JsonFormatter, TextFormatter
from boardroom.server.net_addresses import reachable_hosts


def parse(*flags: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(flags))


def test_a_flag_beats_the_environment_which_beats_the_default() -> None:
    environ = {"BOARDROOM_PORT": "9000", "BOARDROOM_GRACE_SECONDS": "5", "BOARDROOM_HOST": "::1"}
    config = config_from(parse("--port", "7000"), environ)
    assert (config.port, config.grace_seconds, config.host) == (7000, 5.0, "::1")
    assert config.database == ServerConfig().database


def test_the_autopilot_is_off_unless_a_level_is_given() -> None:
    """Off by default (today's abandonment); a level by flag or variable."""
    assert config_from(parse(), {}).autopilot_level is None
    assert config_from(parse("--autopilot", "hard"), {}).autopilot_level == "hard"
    config = config_from(parse(), {"BOARDROOM_AUTOPILOT": "easy", "BOARDROOM_RATE_AUTOPILOT": "1"})
    assert (config.autopilot_level, config.rate_autopilot) == ("easy", True)
    assert config_from(parse("--autopilot", "off"), {}).autopilot_level is None
    assert config_from(parse(), {}).rate_autopilot is False


def test_every_setting_has_a_flag_and_a_variable() -> None:
    args = parse("--max-connections-per-address", "3", "--rate", "2.5", "--log-format", "json")
    environ = {
        "BOARDROOM_POOL_SIZE": "2",
        "BOARDROOM_BURST": "7",
        "BOARDROOM_HANDSHAKE_SECONDS": "2",
    }
    config = config_from(args, environ)
    assert config.max_connections_per_address == 3 and config.rate == 2.5
    assert config.handshake_seconds == 2.0
    assert config.log_format == "json" and config.workers == 2 and config.burst == 7
    caps = parse("--max-rooms-per-address", "0", "--http-rate", "0", "--max-rooms-per-session", "9")
    config = config_from(caps, {"BOARDROOM_HTTP_BURST": "300"})
    assert (config.max_rooms_per_address, config.http_rate, config.http_burst) == (0, 0.0, 300)
    assert config.max_rooms_per_session == 9
    engine = parse("--engine-reserve", "0", "--max-ai-matches-per-session", "3")
    config = config_from(engine, {"BOARDROOM_MAX_AI_MATCHES_PER_ADDRESS": "0"})
    assert (config.engine_reserve, config.max_ai_matches_per_session) == (0, 3)
    assert config.max_ai_matches_per_address == 0
    # --engine shares its variable with the engine's own switch (boardroom.shared.engine.solvers).
    assert config_from(parse(), {"BOARDROOM_ENGINE": "python"}).engine == "python"
    assert config_from(parse("--engine", "python"), {}).engine == "python"
    assert config_from(parse(), {}).engine == "auto"
    # The flag and variable are singular (--trusted-proxy), the field plural: a list.
    assert config_from(parse("--trusted-proxy", "127.0.0.1,::1"), {}).trusted_proxies == (
        "127.0.0.1,::1"
    )
    assert config_from(parse(), {"BOARDROOM_TRUSTED_PROXY": "10.0.0.0/8"}).trusted_proxies == (
        "10.0.0.0/8"
    )
    assert config_from(parse(), {}).trusted_proxies == ""


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"BOARDROOM_PORT": "eighty"}, "BOARDROOM_PORT"),
        ({"BOARDROOM_PORT": "70000"}, "port=70000"),
        ({"BOARDROOM_GRACE_SECONDS": "0"}, "grace_seconds"),
        ({"BOARDROOM_AUTOPILOT": "grandmaster"}, "autopilot='grandmaster'"),
        ({"BOARDROOM_HANDSHAKE_SECONDS": "0"}, "handshake_seconds"),
        ({"BOARDROOM_HANDSHAKE_SECONDS": "inf"}, "handshake_seconds"),
        ({"BOARDROOM_LOG_FORMAT": "xml"}, "log_format"),
        ({"BOARDROOM_MAX_ROOMS_PER_SESSION": "0"}, "max_rooms_per_session"),
        ({"BOARDROOM_MAX_ROOMS_PER_ADDRESS": "-1"}, "max_rooms_per_address"),
        ({"BOARDROOM_MAX_AI_MATCHES_PER_SESSION": "0"}, "max_ai_matches_per_session"),
        ({"BOARDROOM_MAX_AI_MATCHES_PER_ADDRESS": "-1"}, "max_ai_matches_per_address"),
        ({"BOARDROOM_ENGINE_RESERVE": "-1"}, "engine_reserve"),
        ({"BOARDROOM_HINTS_PER_MINUTE": "-1"}, "hints_per_minute"),
        ({"BOARDROOM_HINTS_PER_MINUTE": "inf"}, "hints_per_minute"),
        ({"BOARDROOM_HTTP_RATE": "-1"}, "http_rate"),
        ({"BOARDROOM_HTTP_RATE": "nan"}, "http_rate"),
        ({"BOARDROOM_HTTP_BURST": "0"}, "http_burst"),
        ({"BOARDROOM_ENGINE": "fortran"}, "engine='fortran'"),
        ({"BOARDROOM_TRUSTED_PROXY": "127.0.0.1,caddy"}, "trusted_proxy: 'caddy'"),
        ({"BOARDROOM_TRUSTED_PROXY": "10.0.0.1/8"}, "trusted_proxy: '10.0.0.1/8'"),
        ({"BOARDROOM_REUSE_PORT": "maybe"}, "BOARDROOM_REUSE_PORT='maybe'"),
        ({"BOARDROOM_PUBLIC_URL": "chess.school.example"}, "public_url: .* not a web address"),
        ({"BOARDROOM_PUBLIC_URL": "ftp://chess.example/"}, "public_url: .* not a web address"),
        ({"BOARDROOM_PUBLIC_URL": "https://chess.example/?a=1"}, "public_url: .* without"),
        ({"BOARDROOM_PUBLIC_URL": "https://u:p@chess.example/"}, "public_url: .* without"),
        ({"BOARDROOM_PUBLIC_URL": "https://chess.example:99999/"}, "public_url: .* port"),
    ],
)
def test_a_bad_setting_is_refused_with_its_name(environ: dict[str, str], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        config_from(parse(), environ)


CLUSTER = ("--cluster", "redis://127.0.0.1:6379/0", "--database", "postgresql://u@h/db")


def test_reuse_port_is_a_switch_without_a_value() -> None:
    """``--reuse-port`` takes no value and ``--no-reuse-port`` beats the variable;
    the variable takes 1/0, true/false, yes/no, on/off in any case (not Python's
    ``bool(text)``, for which "0" is true)."""
    assert config_from(parse(*CLUSTER), {}).reuse_port is False
    assert config_from(parse(*CLUSTER, "--reuse-port"), {}).reuse_port is True
    for word, meant in (("1", True), ("TRUE", True), ("yes", True), ("0", False), ("off", False)):
        config = config_from(parse(*CLUSTER), {"BOARDROOM_REUSE_PORT": word})
        assert config.reuse_port is meant, word
    config = config_from(parse(*CLUSTER, "--no-reuse-port"), {"BOARDROOM_REUSE_PORT": "1"})
    assert config.reuse_port is False
    with pytest.raises(SystemExit):
        parse("--reuse-port", "1")  # a value after a switch is a stray argument


def test_reuse_port_without_a_cluster_is_refused_saying_why() -> None:
    """Processes sharing a port without a cluster would split the rooms between
    them; the refusal names the cure."""
    with pytest.raises(ValueError, match=r"reuse_port: only for the processes of one cluster"):
        config_from(parse("--reuse-port"), {})
    with pytest.raises(ValueError, match="--cluster"):
        config_from(parse(), {"BOARDROOM_REUSE_PORT": "1"})


def test_the_public_url_is_kept_as_the_base_of_join_links() -> None:
    """``--public-url`` (a proxy, a DNS name) is trimmed, its scheme lower-cased,
    and ends with one ``/``, so a join link is the base and ``#/account/...``."""
    given = config_from(parse("--public-url", " HTTPS://chess.school.example:8443/boardroom "), {})
    assert given.public_url == "https://chess.school.example:8443/boardroom/"
    assert config_from(parse(), {"BOARDROOM_PUBLIC_URL": "http://10.1.2.3"}).public_url == (
        "http://10.1.2.3/"
    )
    assert config_from(parse(), {}).public_url == ""


def record(message: str, **extra: object) -> logging.LogRecord:
    entry = logging.LogRecord("boardroom.server.app", logging.INFO, __file__, 1, message, (), None)
    entry.__dict__.update(extra)
    return entry


def test_text_log_lines_are_key_value_pairs() -> None:
    line = TextFormatter().format(record("server ready", database="a b.db", workers=1))
    assert line.endswith('INFO boardroom.server.app server ready database="a b.db" workers=1')


def test_json_log_lines_are_one_object_each() -> None:
    line = JsonFormatter().format(record("game finished", room="K7Q2MX", winner=None))
    entry = json.loads(line)
    assert entry["event"] == "game finished" and entry["room"] == "K7Q2MX"
    assert entry["winner"] is None and entry["level"] == "INFO" and entry["time"].endswith("Z")


def test_the_addresses_printed_end_with_loopback() -> None:
    assert reachable_hosts("192.168.1.20") == ["192.168.1.20"]
    hosts = reachable_hosts("0.0.0.0")
    assert hosts[-1] == "127.0.0.1"
    assert all(host.count(".") == 3 for host in hosts)
