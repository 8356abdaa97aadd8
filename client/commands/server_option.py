"""The ``--server`` flag, the same for every subcommand that connects to a server."""

from __future__ import annotations

import argparse
import os

from boardroom.client.session import DEFAULT_SERVER_URL
from boardroom.shared.i18n import _

SERVER_ENV = "BOARDROOM_SERVER"
"""The environment variable that sets ``--server`` for every command at once (a
classroom sets it once: ``export BOARDROOM_SERVER=192.168.1.20``)."""


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--server URL`` to ``parser``, defaulting to ``$BOARDROOM_SERVER`` or the
    local server."""
    parser.add_argument(
        "--server",
        metavar="URL",
        default=os.environ.get(SERVER_ENV, DEFAULT_SERVER_URL),
        help=_(
            "the server: ws://HOST:PORT/ws, or just HOST or HOST:PORT "
            "[env {variable}; default {default}]",
            variable=SERVER_ENV,
            default=DEFAULT_SERVER_URL,
        ),
    )
