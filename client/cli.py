"""The ``boardroom`` command: one CLI, subcommands found by entry point.

Each entry point in the ``boardroom.commands`` group names a function
``register(subparsers)`` that adds one subcommand and sets ``handler`` on it; the
handler takes the parsed arguments and returns an exit status. Loading commands
this way keeps the CLI in ``client/`` free of imports from ``server/``: the
server adds ``serve`` through its own entry point.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """The parser with every installed subcommand."""
    parser = argparse.ArgumentParser(
        prog="boardroom",
        description="Boardroom: board games for people and bots.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for entry in sorted(entry_points(group="boardroom.commands"), key=lambda e: e.name):
        try:
            register = entry.load()
        except ImportError as error:
            # One broken or missing command (say, serve on a client-only install)
            # must not take the others down with it.
            print(f"boardroom: command {entry.name!r} is unavailable: {error}", file=sys.stderr)
            continue
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``boardroom`` with ``argv`` (default: the process arguments)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
