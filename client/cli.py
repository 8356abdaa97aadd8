"""The ``boardroom`` command: one CLI, subcommands found by entry point.

Each entry point in the ``boardroom.commands`` group names a function
``register(subparsers)`` that adds one subcommand and sets ``handler`` on it; the
handler takes the parsed arguments and returns an exit status. Loading commands
this way keeps the CLI in ``client/`` free of imports from ``server/``: the
server adds ``serve`` through its own entry point.

The CLI speaks the user's language (English or Spanish): ``--lang`` (before or
after the subcommand), else the locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``). It is read from the arguments before the parser
is built, so that the ``--help`` texts speak it too. ``serve --lang`` is the
class's language: the server's own words on the terminal follow it as well,
while what it sends on the wire stays English.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from boardroom.shared.i18n import LANGUAGES, _
from boardroom.shared.i18n.command_line import Parser, choose_language, language_in_arguments

Handler = Callable[[argparse.Namespace], int]

LANGUAGE_CHOICES = [language.code for language in LANGUAGES]

__all__ = [
    "Parser",
    "build_parser",
    "choose_language",
    "command_in_arguments",
    "language_in_arguments",
    "main",
]


def _add_language_option(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--lang`` option, unless it has its own (``serve``'s,
    the class's language, which the CLI's output follows too)."""
    if "--lang" in parser._option_string_actions:
        return
    parser.add_argument(
        "--lang",
        choices=LANGUAGE_CHOICES,
        help=_("the language to speak: en or es (default: the locale, LANG)"),
    )


def command_in_arguments(arguments: Sequence[str]) -> str | None:
    """The subcommand ``arguments`` name (their first word that is not an option
    or ``--lang``'s value), or None."""
    words = iter(arguments)
    for word in words:
        if word == "--lang":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every installed subcommand, or with ``command`` alone if
    one is installed by that name. Loading one command's module, not all, is
    what keeps a command's start quick: ``serve``'s brings in the whole server
    (0.6 s of the CLI's 0.85 s start, issue 29's suite measure), which ``play`` or
    ``bot`` never use. Anything else (``--help``, a mistyped command) gets them
    all, so that argparse lists every command."""
    parser = Parser(
        prog="boardroom",
        description=_("Boardroom: board games for people and bots."),
    )
    _add_language_option(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    entries = entry_points(group="boardroom.commands")
    if command is not None and command in entries.names:
        entries = entries.select(name=command)
    for entry in sorted(entries, key=lambda e: e.name):
        try:
            register = entry.load()
        except ImportError as error:
            # One broken or missing command (say, serve on a client-only install)
            # must not take the others down with it.
            print(
                _(
                    "boardroom: command {command!r} is unavailable: {error}",
                    command=entry.name,
                    error=error,
                ),
                file=sys.stderr,
            )
            continue
        register(subparsers)
    for subparser in subparsers.choices.values():
        _add_language_option(subparser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``boardroom`` with ``argv`` (default: the process arguments)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    choose_language(arguments)
    parser = build_parser(command_in_arguments(arguments))
    args = parser.parse_args(arguments)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
