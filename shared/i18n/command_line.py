"""The command line in the reader's language, for every Boardroom command
(``boardroom`` and its subcommands, ``python -m boardroom.server``).

The language is read from the arguments (``--lang CODE``) before any parser is
built, else from the locale, so that the help texts speak it: they are
translated as the parsers are made. :class:`Parser` translates argparse's own
words as well, where argparse lets it cleanly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from boardroom.shared.i18n.active import _, set_default_language
from boardroom.shared.i18n.languages import CODES, language_from_environment


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
