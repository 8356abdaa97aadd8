"""``python -m boardroom.server [flags]``: the same as ``boardroom serve [flags]``, for
machines where the ``boardroom`` script is not on the PATH. It speaks the language of
``--lang`` (the class's), else the locale's, as ``boardroom serve`` does."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from boardroom.server.cli import register
from boardroom.shared.i18n.command_line import Parser, choose_language


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server with ``argv`` (default: the process arguments)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    choose_language(arguments)
    parser = Parser(prog="python -m boardroom.server")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", *arguments])
    status: int = args.handler(args)
    return status


if __name__ == "__main__":  # the guard matters: engine workers are spawned
    sys.exit(main())
