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
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import entry_points
from typing import Any, NoReturn

from boardroom.shared.i18n import (
    LANGUAGES,
    _,
    language_from_environment,
    set_default_language,
)
from boardroom.shared.i18n.languages import CODES

Handler = Callable[[argparse.Namespace], int]

LANGUAGE_CHOICES = [language.code for language in LANGUAGES]


def language_in_arguments(argv: Sequence[str]) -> str | None:
    """The language ``argv`` asks for with ``--lang CODE`` or ``--lang=CODE`` (the
    last one given, before any ``--``), if Boardroom speaks it; else None.

    >>> language_in_arguments(["play", "--lang", "es", "--local"])
    'es'
    >>> language_in_arguments(["--lang=en", "review", "3"]), language_in_arguments(["--lang"])
    ('en', None)
    >>> language_in_arguments(["--lang", "fr"]), language_in_arguments(["--", "--lang", "es"])
    (None, None)
    """
    found: str | None = None
    for index, argument in enumerate(argv):
        if argument == "--":
            break
        if argument == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif argument.startswith("--lang="):
            found = argument.removeprefix("--lang=")
    return found if found in CODES else None


def choose_language(argv: Sequence[str]) -> str:
    """Make the language asked for in ``argv`` (else the locale's) the process's:
    every message shown after this speaks it. Returns its code."""
    language = language_in_arguments(argv) or language_from_environment()
    set_default_language(language)
    return language


class _UsageInLanguage(argparse.HelpFormatter):
    """A formatter whose ``usage:`` line speaks the process's language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose own words speak the process's language: the
    usage line, the group titles, ``-h``'s help and the error line's prefix.
    Subcommands' parsers are made of this class too (argparse makes them of the
    parent's class). The reasons argparse gives in an error (``invalid choice``,
    ``the following arguments are required``) stay its own English."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        formatter: type[argparse.HelpFormatter] = kwargs.get(
            "formatter_class", argparse.HelpFormatter
        )
        if not issubclass(formatter, _UsageInLanguage):
            # A subcommand may bring its own formatter (RawDescriptionHelpFormatter):
            # it keeps its layout and gains the translated usage line.
            formatter = type(formatter.__name__, (_UsageInLanguage, formatter), {})
        kwargs["formatter_class"] = formatter
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if "-h" in self._option_string_actions:
            self._option_string_actions["-h"].help = _("show this help message and exit")

    def error(self, message: str) -> NoReturn:
        """Print the usage and ``message`` on stderr and exit with status 2, as
        argparse does, with its ``error:`` prefix in the process's language."""
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}", prog=self.prog, message=message) + "\n")


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


def build_parser() -> argparse.ArgumentParser:
    """The parser with every installed subcommand."""
    parser = Parser(
        prog="boardroom",
        description=_("Boardroom: board games for people and bots."),
    )
    _add_language_option(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for entry in sorted(entry_points(group="boardroom.commands"), key=lambda e: e.name):
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
    parser = build_parser()
    args = parser.parse_args(arguments)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
