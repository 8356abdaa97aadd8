"""``python -m boardroom.server [flags]``: the same as ``boardroom serve [flags]``, for
machines where the ``boardroom`` script is not on the PATH."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from boardroom.server.cli import register


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server with ``argv`` (default: the process arguments)."""
    parser = argparse.ArgumentParser(prog="python -m boardroom.server")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    status: int = args.handler(args)
    return status


if __name__ == "__main__":  # the guard matters: engine workers are spawned
    sys.exit(main())
