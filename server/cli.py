"""``boardroom serve``: run the game server until SIGTERM or Ctrl-C.

Registered in the ``boardroom.commands`` entry-point group, so the ``boardroom``
CLI (in ``client/``) offers ``serve`` without importing the server.

On start it prints the addresses other machines can use (one line per network
interface: the page for browsers and the WebSocket for clients and bots) and,
in class mode (``--class NAME``), the teacher's link at each, then logs.
SIGTERM and SIGINT shut it down gracefully: it stops accepting, tells every
client (close code 1001), stops the rooms' timers and searches, and closes the
database after its last write. Games in progress are restored on the next start.
The stop has a deadline, and a second signal cuts it short (boardroom.server.stop_deadline).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import socket
import ssl
import sys
from typing import Any

from aiohttp import web

from boardroom.server.admission import AdmittingRunner
from boardroom.server.app import create_app
from boardroom.server.classroom.admin_token import teacher_link
from boardroom.server.classroom.class_mode import teacher_token
from boardroom.server.cluster.node import CLUSTER, ClusterError
from boardroom.server.config import ServerConfig, add_arguments, config_from
from boardroom.server.event_loop import loop_factory
from boardroom.server.logs import configure_logging
from boardroom.server.net_addresses import reachable_hosts
from boardroom.server.single_server import DatabaseInUseError
from boardroom.server.stop_deadline import StopWatchdog, exit_at_once
from boardroom.server.tls import server_ssl_context
from boardroom.shared.i18n import _

logger = logging.getLogger("boardroom.server.app")


def register(subparsers: Any) -> None:
    """Add ``serve`` to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "serve",
        help=_("run the game server"),
        description=_(
            "Run the Boardroom server: rooms, AI players and game records over "
            "WebSocket and HTTP on one port. Every flag can also be set by the environment "
            "variable named in its help."
        ),
    )
    add_arguments(parser)
    parser.set_defaults(handler=_serve_command)


def _serve_command(args: argparse.Namespace) -> int:
    try:
        config = config_from(args)
    except ValueError as error:
        print(f"boardroom serve: {error}", file=sys.stderr)
        return 2
    configure_logging(config.log_format, config.log_level)
    try:
        factory = loop_factory(config.event_loop)
    except ValueError as error:
        print(f"boardroom serve: {error}", file=sys.stderr)
        return 2
    try:
        # The certificate first: a bad one stops the start before anything is taken.
        ssl_context = server_ssl_context(config)
    except (OSError, ssl.SSLError) as error:
        print(f"boardroom serve: the TLS certificate or key do not load: {error}", file=sys.stderr)
        return 1
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(serve(config, ssl_context))
    except (DatabaseInUseError, ClusterError) as error:
        print(f"boardroom serve: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(
            f"boardroom serve: cannot listen on {config.host}:{config.port}: {error}",
            file=sys.stderr,
        )
        return 1
    return 0


async def serve(config: ServerConfig, ssl_context: ssl.SSLContext | None = None) -> None:
    """Run the server for ``config`` until SIGTERM or SIGINT (over TLS with
    ``ssl_context``: :func:`boardroom.server.tls.server_ssl_context`)."""
    # Bind first: a port in use must stop the start before the database is touched.
    listener = _listen(config.host, config.port, reuse_port=config.reuse_port)
    runner = AdmittingRunner(
        create_app(config),
        handle_signals=False,
        access_log=None,
        shutdown_timeout=5.0,
        tls=ssl_context,
    )
    try:
        await runner.setup()
    except BaseException:
        # What the start-up took before it failed is given back, the last first
        # (boardroom.server.lifecycle): aiohttp does so on this cleanup, not by itself.
        try:
            await runner.cleanup()
        finally:
            listener.close()
        raise
    try:
        site = web.SockSite(runner, listener)  # TLS, if any, at the runner's door
        await site.start()
        port = _bound_port(runner)
        # The line local servers are recognised by ("serving on port N") is English
        # wherever the process speaks English: python -m boardroom.server always does.
        print(
            _(
                "Boardroom is serving on port {port}. Open it in a browser, "
                "or connect a client (--server ADDRESS):",
                port=port,
            ),
            flush=True,
        )
        # Off the loop: looking up this machine's own name may wait on DNS.
        hosts = await asyncio.to_thread(reachable_hosts, config.host)
        web_scheme, ws_scheme = ("https", "wss") if config.tls else ("http", "ws")
        for host in hosts:
            shown = f"[{host}]" if ":" in host else host
            print(
                f"  {web_scheme}://{shown}:{port}/    {ws_scheme}://{shown}:{port}/ws", flush=True
            )
        node = runner.app.get(CLUSTER)
        if node is not None:
            # The class's home tells the others where to send the class's HTTP requests.
            shown = f"[{hosts[0]}]" if ":" in hosts[0] else hosts[0]
            await node.advertise(f"{web_scheme}://{shown}:{port}")
        token = teacher_token(runner.app)
        if token is not None:
            print(
                _(
                    'Class "{name}": the teacher\'s link holds the controls; keep it to yourself.',
                    name=config.class_name,
                ),
                flush=True,
            )
            for host in hosts:
                link = teacher_link(host, port, token, tls=config.tls)
                print(_("  Teacher page: {link}", link=link), flush=True)
            if config.public_url:
                print(
                    _(
                        "Students' join links and cards lead to {url} (--public-url).",
                        url=config.public_url,
                    ),
                    flush=True,
                )
        print(_("Stop with Ctrl-C (or SIGTERM)."), flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        # From here the process ends within the deadline, cleanly or not
        # (boardroom.server.stop_deadline).
        StopWatchdog(loop).start()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, _stop_at_once)
        print(
            _("Shutting down: telling clients, saving games (Ctrl-C again to stop at once)."),
            flush=True,
        )
    finally:
        await runner.cleanup()


def _stop_at_once() -> None:
    """A second SIGTERM or Ctrl-C while stopping (boardroom.server.stop_deadline)."""
    logger.warning("a second signal while stopping: exiting without finishing the stop")
    exit_at_once()


def _listen(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (IPv4 or IPv6, as the host is).

    With ``reuse_port`` (SO_REUSEPORT) other processes that ask the same may listen
    on the same port, and the kernel gives each new connection to one of them
    (Linux: by a hash of the connection's addresses; ``--cluster`` makes them one
    server). A port held by a process that did not ask stays refused, as without it.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=1024, reuse_port=reuse_port)


def _bound_port(runner: web.AppRunner) -> int:
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    raise RuntimeError("the server is not listening on a TCP port")
