"""Lines fitted to the terminal's width, broken between words, never inside one.

A terminal breaks a long line at its last column, wherever that falls
("waiting for an oppone|nt"); the client breaks it first, at a space. What is
drawn in columns (the board, the help) is already narrower than 80 columns and
is left as it is: only a line wider than the terminal is broken, and each piece
after the first is indented two columns more than the line was, so it reads as
the line's continuation. A one-character word other than a digit (the status
line's ``|``, a side's ``X``, "a") stays with the word after it. A word wider
than the whole width (a long address) is kept whole on a line of its own: the
terminal breaks it, as nothing else could without cutting it.

Widths count what the terminal shows: colour codes (see
:mod:`boardroom.client.terminal.style`) take no room, and wide characters (CJK) take two
columns.
"""

from __future__ import annotations

import re
import shutil

from prompt_toolkit.utils import get_cwidth

DEFAULT_WIDTH = 80
"""Columns assumed when the output's width is unknown (a pipe, a file)."""

CONTINUATION_INDENT = "  "
"""Added before each piece of a broken line after the first."""

_SGR = re.compile(r"\x1b\[[0-9;]*m")
_WORD = re.compile(r"\s*\S+")
"""A word with the spaces before it: the spacing inside a line is kept."""


def output_width() -> int:
    """The terminal's width in columns: ``COLUMNS`` if set, else the width of the
    terminal standard output is on, else :data:`DEFAULT_WIDTH`."""
    columns = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return columns if columns > 0 else DEFAULT_WIDTH


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: colour codes take none, a wide
    character two.

    >>> visible_width("\\x1b[1;31mX\\x1b[0m wins"), visible_width("漢字")
    (6, 4)
    """
    return get_cwidth(_SGR.sub("", text))


def wrap_text(text: str, width: int) -> str:
    """``text`` (one or more lines) with every line wider than ``width`` columns
    broken at spaces (see the module docstring).

    >>> print(wrap_text("Tic-tac-toe, room C9FVBQ | X ann (you) | O (empty seat) | "
    ...     "waiting for an opponent", 40))
    Tic-tac-toe, room C9FVBQ | X ann (you)
      | O (empty seat) | waiting for an
      opponent
    >>> wrap_text("a short line\\n  stays as it is", 40)
    'a short line\\n  stays as it is'
    """
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def _wrap_line(line: str, width: int) -> str:
    if visible_width(line) <= width:
        return line
    body = line.lstrip(" ")
    indent = line[: len(line) - len(body)]
    continuation = indent + CONTINUATION_INDENT
    if visible_width(continuation) > width // 2:  # too deep to indent further: no room left
        continuation = indent if visible_width(indent) <= width // 2 else ""
    words = _glue_single_characters(_WORD.findall(body))
    if not words:  # only spaces: nothing to break
        return line
    pieces = [indent + words[0].lstrip()]
    for word in words[1:]:
        if visible_width(pieces[-1] + word) <= width:
            pieces[-1] += word
        else:
            pieces.append(continuation + word.lstrip())
    trailing = body[len("".join(words)) :]
    pieces[-1] += trailing  # spaces after the last word, as they were (usually none)
    return "\n".join(pieces)


def _glue_single_characters(words: list[str]) -> list[str]:
    """``words`` with each one-character word (not a digit) joined to the next, so
    that no piece ends on one: the status line's separator and a side's symbol
    stay with the name after them ("| X ann"), never "... | X" then "ann"."""
    glued: list[str] = []
    carried = ""
    for word in words:
        bare = word.strip()
        if visible_width(bare) == 1 and not bare.isdigit():  # "review 1": the number goes last
            carried += word
        else:
            glued.append(carried + word)
            carried = ""
    if carried:
        glued.append(carried)
    return glued
