"""The report of a run: one JSON document, and a table for people made from it.

:func:`report_json` gathers everything (the conditions, each phase's figures,
the echo comparison, hints); :func:`render_table` only lays that document out,
so the table and ``--json`` never disagree. Top-level keys of the JSON::

    format        1: the version of this layout
    conditions    machine, Python, workers, servers, what the clients did, sizes
    result        the main phase: the game server (rooms or idle), or the echo
                  server with --echo
    echo          with --compare-echo: the echo baseline's phase
    comparison    with --compare-echo: relay figures over echo figures
    interrupted   true if a Ctrl-C ended the run early
    notes         hints drawn from the figures (a cap hit, a saturated core, ...)

A phase has ``kind``, ``mode``, ``url``, ``server_started_by_tool``,
``server_event_loop``, ``window_seconds``, ``connections``, ``errors`` (by code),
``disconnects`` (by close code) and ``clients`` (CPU share of each worker). A
rooms phase adds ``games``, ``room_failures``, ``moves``, ``move_latency_ms``,
``spectator_latency_ms`` and ``ai_reply_ms``; an echo phase ``room_failures``,
``round_trips`` and ``round_trip_ms``; a game-server phase ``server`` (memory,
CPU, loop lag; an echo server we started has it too, read from ``/proc``,
without the lag); an idle one ``idle`` (memory per connection). Latencies are
``{count, mean, p50, p95, p99, max}`` in milliseconds; a share of CPU is 1.0
for one core busy.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from boardroom.client.conditions import cpu_model, load_average, usable_cores
from boardroom.client.loadtest.frames import move_frame, moved_frame
from boardroom.client.loadtest.metrics_probe import STAGES, cpu_per_move, cpu_share, lag_between
from boardroom.client.loadtest.options import LoadOptions
from boardroom.client.loadtest.runner import LoadReport, PhaseResult

FORMAT_VERSION = 1
BUSY_SHARE = 0.9
"""A process using this share of a core throughout is the bottleneck."""
PACED_SHARE = 0.6
"""A run whose rate reaches this share of its pacing's ceiling is bound by the
pacing (tic-tac-toe spends ~20% of its messages on rematches)."""


def machine_conditions() -> dict[str, Any]:
    """This machine, read when the run starts (the load average, above all)."""
    return {
        "python": f"{platform.python_version()} ({platform.python_implementation()}, "
        f"{platform.python_compiler()})",
        "os": platform.platform(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": usable_cores(),
        "load_average_at_start": load_average(),
    }


def report_json(report: LoadReport, machine: dict[str, Any]) -> dict[str, Any]:
    """The whole report as a JSON-ready dict (see the module docstring)."""
    options = report.options
    phases = {phase.kind: phase for phase in report.phases}
    main = report.phases[-1]
    data: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "conditions": _conditions(report, machine),
        "result": phase_json(main),
    }
    echo = phases.get("echo") if options.compare_echo else None
    if echo is not None and echo is not main:  # (an interrupted baseline is all there is)
        data["echo"] = phase_json(echo)
        data["comparison"] = _comparison(data["echo"], data["result"])
    data["interrupted"] = report.interrupted
    data["notes"] = list(_notes(data, options))
    return data


def _conditions(report: LoadReport, machine: dict[str, Any]) -> dict[str, Any]:
    options = report.options
    main = report.phases[-1]
    workers = options.worker_count
    conditions = dict(machine)
    conditions.update(
        {
            "workers": workers,
            "client_event_loop": ", ".join(main.client_loops) or None,
            "server_url": main.url,
            "server_urls": list(main.urls or (main.url,)),
            "server_started_by_tool": main.started,
            "server_flags": list(main.server_flags),
            "server_event_loop": main.event_loop,
            "shared_machine": _is_loopback(main.url),
            "mode": "compare-echo" if options.compare_echo else options.mode,
            "game": options.game,
            "rooms": options.rooms if options.mode != "idle" else 0,
            "spectators_per_room": options.spectators,
            "ai_rooms": options.ai_rooms,
            "ai_level": options.ai_level if options.ai_rooms else None,
            "idle_connections": options.idle,
            "clients": main.planned_connections,
            "think_seconds": options.think,
            "pacing": None
            if options.rate is None
            else {"rate": options.rate, "burst": options.burst},
            "connect_rate": options.connect_rate,
            "ramp_seconds": round(main.ramp_seconds, 3),
            "duration_seconds": options.duration,
            "message_bytes": {
                "move": len(move_frame(options.game)),
                "moved": len(moved_frame(options.game)),
            },
            "seed": report.seed,
        }
    )
    return conditions


def phase_json(phase: PhaseResult) -> dict[str, Any]:
    """One phase's figures."""
    stats = phase.stats
    window = stats.window_seconds
    data: dict[str, Any] = {
        "kind": phase.kind,
        "mode": phase.mode,
        "url": phase.url,
        "server_started_by_tool": phase.started,
        "server_event_loop": phase.event_loop,
        "interrupted": phase.interrupted,
        "window_seconds": round(window, 3),
        "connections": {
            "planned": phase.planned_connections,
            "peak": stats.connections_peak,
            "held_at_end": stats.connections_at_deadline,
            "opened": stats.connections_opened,
            "connect_errors": dict(stats.connect_errors),
        },
    }
    per_second = round(stats.moves_in_window / window, 1) if window > 0 else None
    if phase.mode == "rooms":
        data["games"] = {
            "started": stats.games_started,
            "finished": stats.games_finished,
            "cut_short": stats.games_cut_short,
            "lost": stats.games_lost,
        }
        data["room_failures"] = dict(stats.room_failures)
        data["moves"] = {
            "total": stats.moves,
            "in_window": stats.moves_in_window,
            "per_second": per_second,
            "by_ai": stats.ai_moves,
        }
        data["move_latency_ms"] = stats.move_latency.summary_ms()
        data["spectator_latency_ms"] = stats.spectator_latency.summary_ms()
        data["ai_reply_ms"] = stats.ai_reply.summary_ms()
    elif phase.mode == "echo":
        data["room_failures"] = dict(stats.room_failures)
        data["round_trips"] = {
            "total": stats.moves,
            "in_window": stats.moves_in_window,
            "per_second": per_second,
        }
        data["round_trip_ms"] = stats.move_latency.summary_ms()
    data["errors"] = dict(stats.errors)
    data["disconnects"] = {str(code): count for code, count in sorted(stats.disconnects.items())}
    data["messages_received"] = stats.messages_received
    data["undecodable"] = stats.undecodable
    data["clients"] = {
        "cpu_share_by_worker": [
            round(worker.cpu_seconds_in_window / worker.window_seconds, 3)
            if worker.window_seconds > 0
            else None
            for worker in phase.per_worker
        ]
    }
    if phase.kind == "server" or phase.before is not None:
        data["server"] = _server_json(phase)
    if phase.mode == "idle":
        data["idle"] = _idle_json(phase)
    return data


def _server_json(phase: PhaseResult) -> dict[str, Any]:
    start, end = phase.window_start, phase.window_end
    lag = lag_between(start, end) if start is not None and end is not None else None
    share = cpu_share(start, end) if start is not None and end is not None else None
    per_move = cpu_per_move(start, end) if start is not None and end is not None else None
    health = phase.health or {}
    ramp = (
        lag_between(phase.before, start) if phase.before is not None and start is not None else None
    )
    return {
        "rss_bytes": {
            "before": _rss(phase.before),
            "window_start": _rss(start),
            "window_end": _rss(end),
            "peak": phase.rss_peak,
        },
        "cpu_share": None if share is None else round(share, 3),
        # Microseconds of the server's CPU a move, by stage (server/stage_clock.py).
        "cpu_per_move_us": None
        if per_move is None
        else {k: round(v, 1) for k, v in per_move.items()},
        "event_loop_lag": {
            # A bound, not a value: the server's histogram has buckets, not samples.
            "p99_at_most_ms": _finite(None if lag is None else lag.p99_upper_ms),
            "p99_above_last_bucket": lag is not None and lag.p99_upper_ms == math.inf,
            "mean_ms": None if lag is None or lag.mean_ms is None else round(lag.mean_ms, 3),
            "samples": None if lag is None else lag.samples,
            "healthz_p99_ms": health.get("event_loop_lag_p99_ms"),
            # The ramp-up apart: handshakes come in bursts, and a growing heap makes
            # the garbage collector's full passes longer.
            "ramp_up_p99_at_most_ms": _finite(None if ramp is None else ramp.p99_upper_ms),
            "ramp_up_max_at_most_ms": _finite(None if ramp is None else ramp.max_upper_ms),
        },
    }


def _idle_json(phase: PhaseResult) -> dict[str, Any]:
    held = phase.stats.connections_at_deadline
    before, with_held = _rss(phase.before), _rss(phase.window_end)
    per_connection = None
    if before is not None and with_held is not None and held > 0:
        per_connection = round((with_held - before) / held)
    return {
        "connections_held": held,
        "rss_before_bytes": before,
        "rss_held_bytes": with_held,
        "rss_per_connection_bytes": per_connection,
    }


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _rss(reading: Any) -> float | None:
    return None if reading is None else reading.rss_bytes


def _comparison(echo: dict[str, Any], server: dict[str, Any]) -> dict[str, Any]:
    relay = server["moves"]["per_second"]
    ceiling = echo["round_trips"]["per_second"]
    relay_latency = server["move_latency_ms"] or {}
    echo_latency = echo["round_trip_ms"] or {}

    def ratio(top: float | None, bottom: float | None) -> float | None:
        return round(top / bottom, 3) if top is not None and bottom else None

    return {
        "relay_moves_per_second": relay,
        "echo_round_trips_per_second": ceiling,
        "throughput_ratio": ratio(relay, ceiling),
        "latency_p50_ratio": ratio(relay_latency.get("p50"), echo_latency.get("p50")),
        "latency_p99_ratio": ratio(relay_latency.get("p99"), echo_latency.get("p99")),
    }


def _notes(data: dict[str, Any], options: LoadOptions) -> Iterable[str]:
    phases = [data["result"], *([data["echo"]] if "echo" in data else [])]
    for phase in phases:
        if _paced_flat_out(phase, options):
            yield (
                f"the {phase['kind']} phase ran at its clients' pacing ceiling "
                f"({options.rate:g} messages/s each): the figure is the pacing's, not the "
                "server's; add rooms, or pace less (--rate; 0 with --start-server)"
            )
        refused = phase["errors"].get("too_many_connections", 0) + phase["connections"][
            "connect_errors"
        ].get("too_many_connections", 0)
        if refused:
            yield (
                f"the server refused connections over its per-address cap: start it with "
                f"--max-connections-per-address {max(64, 2 * phase['connections']['planned'])} "
                "(the default is 32), or use --start-server"
            )
        if phase["errors"].get("too_many_rooms"):
            yield (
                "the server refused rooms over its per-address cap on open rooms: start it "
                "with --max-rooms-per-address 0 (the default, 60, is for real classes), "
                "or use --start-server"
            )
        connect_errors = phase["connections"]["connect_errors"]
        if any("file descriptors" in reason for reason in connect_errors):
            yield "the load tool ran out of file descriptors: raise the hard limit (ulimit -Hn)"
        if "timeout" in connect_errors:
            yield "handshakes timed out: the server fell behind the ramp; lower --connect-rate"
        if phase["errors"].get("rate_limited"):
            yield (
                "clients were rate limited: lower --rate, or start the server with a higher "
                "--rate (with --start-server and --rate 0 the tool does it)"
            )
        games = phase.get("games")
        if games and games["lost"]:
            yield f"{games['lost']} games were lost: see room_failures for why"
        if phase["undecodable"]:
            yield f"{phase['undecodable']} frames were not messages the protocol defines"
        busy = [
            index
            for index, share in enumerate(phase["clients"]["cpu_share_by_worker"])
            if share is not None and share >= BUSY_SHARE
        ]
        if busy:
            yield (
                f"load workers {', '.join(map(str, busy))} were busy ({BUSY_SHARE:.0%}+ of a "
                f"core) in the {phase['kind']} phase: the figures may measure the tool as "
                "much as the server; add workers, or run the tool on another machine"
            )
        server = phase.get("server")
        cores = data["conditions"]["cores_usable"] or data["conditions"]["cores"]
        worker_shares = [share or 0.0 for share in phase["clients"]["cpu_share_by_worker"]]
        if (
            data["conditions"]["shared_machine"]
            and server
            and server["cpu_share"] is not None
            and cores
            and server["cpu_share"] + sum(worker_shares) >= BUSY_SHARE * cores
        ):
            used = server["cpu_share"] + sum(worker_shares)
            yield (
                f"in the {phase['kind']} phase the server ({server['cpu_share']:.0%}) and "
                f"the load workers ({sum(worker_shares):.0%}) kept this machine's {cores} "
                f"cores busy ({used:.0%} of {cores * 100}%): the figures are the machine's "
                "limit, a lower bound of the server's"
            )
        if server and server["cpu_share"] is not None and server["cpu_share"] >= BUSY_SHARE:
            name = "the echo server" if phase["kind"] == "echo" else "the server"
            yield (
                f"{name} used {server['cpu_share']:.0%} of a core: its event loop (one "
                "core) was the bottleneck at this load"
            )
    if data["conditions"]["shared_machine"]:
        yield (
            f"the server and the load workers shared this machine's "
            f"{data['conditions']['cores']} cores: a separate client machine would load "
            "the server harder"
        )
    if options.compare_echo and options.think > 0:
        yield "the ratio to the echo baseline means most with --think 0 (throughput bound)"


def _paced_flat_out(phase: dict[str, Any], options: LoadOptions) -> bool:
    """Whether a phase's rate came near what its clients' pacing allows at most
    (one move or round trip per message; rematches take a few messages more)."""
    if options.rate is None or options.think > 0:
        return False
    figures = phase.get("moves") or phase.get("round_trips")
    if not figures or figures["per_second"] is None:
        return False
    senders = 2 * options.rooms - (options.ai_rooms if phase["mode"] == "rooms" else 0)
    return bool(figures["per_second"] >= PACED_SHARE * senders * options.rate)


# -- the table ---------------------------------------------------------------------------


def render_table(data: dict[str, Any]) -> str:
    """The report for people, from :func:`report_json`'s document."""
    conditions = data["conditions"]
    lines = [_title(conditions), "", "Conditions"]
    lines += _aligned(_condition_rows(conditions, data["result"]))
    if "echo" in data:
        lines += ["", "Results: echo baseline", *_aligned(_phase_rows(data["echo"]))]
    name = "echo server" if data["result"]["kind"] == "echo" else "server"
    lines += ["", f"Results: {name}", *_aligned(_phase_rows(data["result"]))]
    if "comparison" in data:
        lines += ["", *_comparison_rows(data)]
    if data["interrupted"]:
        lines += ["", "Interrupted (Ctrl-C): the window ended early."]
    if data["notes"]:
        lines += ["", "Notes"] + [f"  - {note}" for note in data["notes"]]
    return "\n".join(lines)


def _title(conditions: dict[str, Any]) -> str:
    mode = conditions["mode"]
    duration = f"{conditions['duration_seconds']:g} s"
    if mode == "idle":
        what = f"{conditions['idle_connections']:,} idle connections"
    else:
        what = f"{conditions['rooms']:,} rooms of {conditions['game']}"
    servers = conditions.get("server_urls") or [conditions["server_url"]]
    where = (
        "a server started by the tool"
        if conditions["server_started_by_tool"]
        else servers[0]
        if len(servers) == 1
        else f"a cluster of {len(servers)} processes"
    )
    extra = " (echo baseline, then the server)" if mode == "compare-echo" else ""
    if mode == "echo":
        started = conditions["server_started_by_tool"]
        where = "an echo server" + (" started by the tool" if started else "")
    return f"Boardroom load test: {what} for {duration} against {where}{extra}"


def _condition_rows(conditions: dict[str, Any], result: dict[str, Any]) -> list[tuple[str, str]]:
    cores = conditions["cores"]
    rows = [
        ("python", conditions["python"]),
        ("os", conditions["os"]),
        ("cpu", conditions["cpu"]),
        ("cores", f"{cores} ({conditions['cores_usable']} usable by this process)"),
        ("load average", f"{conditions['load_average_at_start']} (1, 5, 15 min) at start"),
    ]
    server = conditions["server_url"]
    servers = conditions.get("server_urls") or [server]
    if len(servers) > 1:
        server = f"{len(servers)} processes of one cluster, figures added up: " + ", ".join(servers)
    if conditions["server_started_by_tool"]:
        flags = " ".join(conditions["server_flags"])
        server += ", started by the tool" + (f" ({flags})" if flags else "")
    rows.append(("server", server))
    rows.append(("server event loop", conditions["server_event_loop"] or "unknown"))
    if conditions["shared_machine"]:
        rows.append(("machine", f"the server and the load workers share these {cores} cores"))
    rows.append(
        (
            "workers",
            f"{conditions['workers']} processes (event loop {conditions['client_event_loop']})",
        )
    )
    if conditions["mode"] == "idle":
        rows.append(("clients", f"{conditions['clients']:,} idle connections (hello, then hold)"))
    else:
        spectators = conditions["spectators_per_room"]
        ai = conditions["ai_rooms"]
        clients = (
            f"{conditions['clients']:,}: {conditions['rooms']:,} rooms of 2 players"
            f"{f' and {spectators} spectators' if spectators else ''}"
        )
        if ai:
            clients += f"; in {ai} rooms one player is the server AI ({conditions['ai_level']})"
        rows.append(("clients", clients))
        think = conditions["think_seconds"]
        rows.append(("think time", f"{think:g} s a move (0.5x to 1.5x)" if think else "none (0)"))
        pacing = conditions["pacing"]
        rows.append(
            (
                "pacing",
                f"at most {pacing['rate']:g} messages/s per client, bursts of {pacing['burst']} "
                "(the server's default limit: 20/s, bursts of 40)"
                if pacing
                else "none",
            )
        )
    sizes = conditions["message_bytes"]
    rows.append(("message sizes", f"move {sizes['move']} B, moved {sizes['moved']} B"))
    rows.append(
        (
            "timing",
            f"ramp-up {conditions['ramp_seconds']:g} s at {conditions['connect_rate']:g} "
            f"connections/s, then {conditions['duration_seconds']:g} s measured "
            f"({result['window_seconds']:g} s as run)",
        )
    )
    rows.append(("seed", str(conditions["seed"])))
    return rows


def _phase_rows(phase: dict[str, Any]) -> list[tuple[str, str]]:
    connections = phase["connections"]
    rows = [
        (
            "connections",
            f"{connections['held_at_end']:,} of {connections['planned']:,} held at the end "
            f"(peak {connections['peak']:,}, opened {connections['opened']:,})",
        )
    ]
    if connections["connect_errors"]:
        rows.append(("connect errors", _by_key(connections["connect_errors"])))
    if "games" in phase:
        games = phase["games"]
        rows.append(
            (
                "games",
                f"{games['finished']:,} finished, {games['cut_short']:,} cut short at the end, "
                f"{games['lost']:,} lost ({games['started']:,} started)",
            )
        )
        if phase["room_failures"]:
            rows.append(("room failures", _by_key(phase["room_failures"])))
        moves = phase["moves"]
        ai = f", {moves['by_ai']:,} by the AI" if moves["by_ai"] else ""
        rows.append(
            (
                "moves",
                f"{moves['total']:,}{ai}; {moves['in_window']:,} in the window: "
                f"{_per_second(moves['per_second'])} a second",
            )
        )
        rows.append(("move latency", _latency(phase["move_latency_ms"], "moves")))
        if phase["spectator_latency_ms"]:
            rows.append(("to spectators", _latency(phase["spectator_latency_ms"], "moves seen")))
        if phase["ai_reply_ms"]:
            rows.append(("AI reply", _latency(phase["ai_reply_ms"], "replies")))
    if "round_trips" in phase:
        trips = phase["round_trips"]
        rows.append(
            (
                "round trips",
                f"{trips['total']:,}; {trips['in_window']:,} in the window: "
                f"{_per_second(trips['per_second'])} a second",
            )
        )
        rows.append(("round-trip latency", _latency(phase["round_trip_ms"], "round trips")))
        if phase["room_failures"]:
            rows.append(("room failures", _by_key(phase["room_failures"])))
    rows.append(("errors", _by_key(phase["errors"]) or "none"))
    rows.append(("disconnects", _by_key(phase["disconnects"], "close code ") or "none"))
    if "idle" in phase:
        idle = phase["idle"]
        if idle["rss_per_connection_bytes"] is not None:
            rows.append(
                (
                    "memory per connection",
                    f"{_bytes(idle['rss_per_connection_bytes'])} "
                    f"(server RSS {_bytes(idle['rss_before_bytes'])} before, "
                    f"{_bytes(idle['rss_held_bytes'])} with {idle['connections_held']:,} held)",
                )
            )
        else:
            rows.append(("memory per connection", "unknown (the server's RSS was not read)"))
    if "server" in phase:
        server = phase["server"]
        rss = server["rss_bytes"]
        rows.append(
            (
                "server memory",
                f"RSS {_bytes(rss['before'])} before, {_bytes(rss['window_end'])} at the end "
                f"of the window, {_bytes(rss['peak'])} at most",
            )
        )
        share = server["cpu_share"]
        rows.append(
            ("server CPU", "unknown" if share is None else f"{share:.0%} of a core in the window")
        )
        per_move = server.get("cpu_per_move_us")
        if per_move is not None:
            rows.append(("server CPU a move", stage_split_text(per_move)))
        lag = server["event_loop_lag"]
        text = "unknown" if phase["kind"] == "server" else "not measured (an echo server)"
        if lag["p99_at_most_ms"] is not None or lag["p99_above_last_bucket"]:
            bound = lag["p99_at_most_ms"]
            text = (
                "p99 over the last bucket (1 s)" if bound is None else f"p99 <= {bound:g} ms"
            ) + f" in the window ({lag['samples']} samples, mean {lag['mean_ms']} ms)"
        if lag["healthz_p99_ms"] is not None:
            text += f"; /healthz p99 {lag['healthz_p99_ms']} ms (last 60 s)"
        if lag["ramp_up_p99_at_most_ms"] is not None:
            text += f"; ramp-up p99 <= {lag['ramp_up_p99_at_most_ms']:g} ms"
            if lag["ramp_up_max_at_most_ms"] is not None:
                text += f", max <= {lag['ramp_up_max_at_most_ms']:g} ms"
        rows.append(("server loop lag", text))
    shares = phase["clients"]["cpu_share_by_worker"]
    rows.append(
        (
            "load workers' CPU",
            ", ".join("?" if share is None else f"{share:.0%}" for share in shares)
            + " of a core each",
        )
    )
    return rows


def stage_split_text(per_move: dict[str, float]) -> str:
    """The server's CPU per move and its stages, in microseconds, on one line.

    >>> stage_split_text({"total": 400.0, "decode": 10.0, "rules": 40.0, "store": 50.0,
    ...     "encode": 10.0, "write": 40.0, "other": 250.0})
    '400 µs: decode 10, rules 40, store 50, encode 10, write 40, other 250'
    """
    parts = [f"{stage} {per_move[stage]:.0f}" for stage in (*STAGES, "other")]
    return f"{per_move['total']:.0f} µs: " + ", ".join(parts)


def _comparison_rows(data: dict[str, Any]) -> list[str]:
    comparison = data["comparison"]
    echo_latency = data["echo"]["round_trip_ms"] or {}
    relay_latency = data["result"]["move_latency_ms"] or {}
    rows = [
        ("", "echo", "server", "server / echo"),
        (
            "per second",
            _per_second(comparison["echo_round_trips_per_second"]),
            _per_second(comparison["relay_moves_per_second"]),
            _ratio(comparison["throughput_ratio"]),
        ),
        (
            "latency p50",
            _ms(echo_latency.get("p50")),
            _ms(relay_latency.get("p50")),
            _ratio(comparison["latency_p50_ratio"]),
        ),
        (
            "latency p99",
            _ms(echo_latency.get("p99")),
            _ms(relay_latency.get("p99")),
            _ratio(comparison["latency_p99_ratio"]),
        ),
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "Relay against the echo baseline (same clients and pacing; an echo is 1 frame in "
        "and 1 out, a move 1 in and 2 out)"
    ]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  " + "   ".join(cells))
    return lines


def _aligned(rows: list[tuple[str, str]]) -> list[str]:
    width = max(len(label) for label, _ in rows)
    return [f"  {label.ljust(width)}  {value}" for label, value in rows]


def _by_key(counts: dict[str, int], prefix: str = "") -> str:
    return ", ".join(f"{prefix}{key}: {count:,}" for key, count in sorted(counts.items()))


def _latency(summary: dict[str, Any] | None, noun: str) -> str:
    if not summary:
        return "none measured"
    return (
        f"p50 {_ms(summary['p50'])}  p95 {_ms(summary['p95'])}  p99 {_ms(summary['p99'])}  "
        f"max {_ms(summary['max'])}  ({summary['count']:,} {noun})"
    )


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:g} ms"


def _per_second(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def _bytes(value: float | None) -> str:
    if value is None:
        return "?"
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value:.0f} B"


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "localhost" or host.startswith("127.") or host == "::1"


def write_json(data: dict[str, Any], path: str) -> None:
    """Write the report to ``path`` (``-``: stdout)."""
    text = json.dumps(data, indent=2, allow_nan=False) + "\n"
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
