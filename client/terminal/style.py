"""Colour for the terminal client, and the rule for when there is none.

Colour is a courtesy to a person at a terminal and noise to anything else, so it
is on only when standard output is a terminal, ``NO_COLOR`` is unset or empty
(https://no-color.org) and ``TERM`` is not ``dumb``. Everything drawn must stay
readable without it: :mod:`boardroom.client.terminal.render` marks the last move with
brackets and names the winning line in words when :attr:`Palette.enabled` is False.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TextIO

# SGR codes (ECMA-48): the basic sixteen colours, which every terminal maps to its
# own theme, rather than 256-colour values that may clash with the background.
_RESET = "\x1b[0m"
_BOLD = "1"
_DIM = "2"
_REVERSE = "7"
_RED = "31"
_GREEN = "32"
_YELLOW = "33"
_CYAN = "36"
_ON_GREEN = "42"
_BLACK = "30"


def colour_wanted(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True if text written to ``stream`` should be coloured: a terminal, no
    ``NO_COLOR``, a ``TERM`` other than ``dumb``."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream: no colour
        return False


@dataclass(frozen=True)
class Palette:
    """Wraps text in colour codes when ``enabled``, and returns it unchanged otherwise.

    >>> Palette(enabled=False).stone("X")
    'X'
    >>> Palette(enabled=True).stone("X")
    '\\x1b[1;31mX\\x1b[0m'
    """

    enabled: bool

    def _wrap(self, text: str, *codes: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{';'.join(codes)}m{text}{_RESET}"

    def stone(self, symbol: str) -> str:
        """A stone: X in red, O in yellow (the Connect Four discs), an empty cell dim."""
        if symbol == "X":
            return self._wrap(symbol, _BOLD, _RED)
        if symbol == "O":
            return self._wrap(symbol, _BOLD, _YELLOW)
        return self._wrap(symbol, _DIM)

    def last_move(self, cell: str) -> str:
        """The cell of the last move, in reverse video so it stands out on any theme."""
        return self._wrap(cell, _REVERSE, _BOLD)

    def winning(self, cell: str) -> str:
        """A cell of the winning line: black on green."""
        return self._wrap(cell, _BOLD, _BLACK, _ON_GREEN)

    def bold(self, text: str) -> str:
        return self._wrap(text, _BOLD)

    def dim(self, text: str) -> str:
        return self._wrap(text, _DIM)

    def notice(self, text: str) -> str:
        """Connection news and other messages about the client itself."""
        return self._wrap(text, _CYAN)

    def problem(self, text: str) -> str:
        """A refused command or move."""
        return self._wrap(text, _RED)

    def good(self, text: str) -> str:
        return self._wrap(text, _GREEN)
