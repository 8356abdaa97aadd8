"""A lint for the terminal client and the CLI: every word they show people goes
through the catalogue (``_``, ``ngettext``, ``N_`` from ``boardroom.shared.i18n``),
so that a Spanish reader meets no English sentence (issue 27).

It reads the code (Python's ``ast``) and finds text written inline where people
read it: a string literal or an f-string with a word in its own text, passed
straight to what shows it (``show``, ``notice``, ``problem``, ``print``, a
``note``, a question), raised in an error that is printed, or given as an
argparse ``help``, ``description`` or ``epilog``. Text inside ``_(...)`` and its
kin is the catalogue's, and what is only a value (``f"{a} {b}"``, a move, a
code) has no word of its own. Words that are the same in every language
(commands typed, like ``join``; the name Boardroom) are listed in
:data:`NOT_WORDS`, each with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

FILES = sorted(
    [
        *(REPO_ROOT / "client" / "terminal").glob("*.py"),
        *(REPO_ROOT / "client" / "commands" / name for name in (
            "play.py", "review.py", "bot.py", "bot_doctor.py", "engine.py", "server_option.py"
        )),
        *(REPO_ROOT / "client" / "bots" / name for name in (
            "report.py", "runner.py", "loader.py", "python_bot.py", "pipe_bot.py", "engine_bot.py",
            "doctor.py", "doctor_run.py",
        )),
        *(REPO_ROOT / "client" / name for name in (
            "cli.py", "session.py", "room_options.py", "refusals.py", "local_server.py"
        )),
    ]
)  # fmt: skip
"""The code whose words people read at a terminal (not the bench and load-test
tools, which are developers' and stay English)."""

SHOWN_BY = frozenset({"show", "notice", "problem", "print", "note", "confirm", "ask", "failure"})
"""Calls whose arguments a person reads."""

ERRORS = frozenset(
    {
        "InputError",
        "UsageError",
        "BotLoadError",
        "RunError",
        "ClientError",
        "ConnectionLostError",
        "ServerUnreachableError",
        "LocalServerError",
        "ArgumentTypeError",
        "BotFailedError",
    }
)
"""Errors whose message the client prints as it is."""

ARGPARSE_TEXTS = frozenset({"help", "description", "epilog"})

CATALOGUE_CALLS = frozenset({"_", "ngettext", "N_"})

NOT_WORDS = {
    "[chat]": "the chat's mark, the same in Spanish (the glossary's Chat)",
    "[bot]": "a bot's seat, the same in Spanish",
    "boardroom": "the command's name, written before its errors",
    "boardroom review": "a command to type",
}
"""Text that is no word of English: the same in every language."""

_WORD = re.compile(r"[A-Za-z]{2,}")


def literal_text(node: ast.AST) -> str | None:
    """The text a string literal or an f-string writes itself (its values left
    out); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = literal_text(node.left), literal_text(node.right)
        return " ".join(text for text in (left, right) if text)
    return None


_FLAG = re.compile(r"--[a-z][a-z-]*")
"""A flag (``--clock``): typed as it is in every language."""


def has_words(text: str) -> bool:
    for known in sorted(NOT_WORDS, key=len, reverse=True):
        text = text.replace(known, " ")
    return _WORD.search(_FLAG.sub(" ", text)) is not None


def called_name(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return ""


def shown_texts(tree: ast.AST) -> Iterator[ast.AST]:
    """The expressions that reach a person as they are (see the module docstring)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = called_name(node)
        if name in SHOWN_BY or name in ERRORS:
            yield from node.args
        for keyword in node.keywords:
            if keyword.arg in ARGPARSE_TEXTS:
                yield keyword.value


def inline_words(path: Path, root: Path = REPO_ROOT) -> list[str]:
    """``path:line: text`` (``path`` from ``root``) for each text shown with words of
    its own outside the catalogue."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for expression in shown_texts(tree):
        for node in ast.walk(expression):
            if isinstance(node, ast.Call) and called_name(node) in CATALOGUE_CALLS:
                break  # the catalogue's: its words are translated
        else:
            text = literal_text(expression)
            if text is not None and has_words(text):
                where = path.relative_to(root)
                found.append(f"{where}:{expression.lineno}: {text!r}")
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_terminal_shows_no_word_outside_the_catalogue(path: Path) -> None:
    assert inline_words(path) == []


def test_the_lint_finds_words_written_inline_and_lets_the_catalogues_pass(
    tmp_path: Path,
) -> None:
    """The lint on a small file: what it must find, and what it must let pass."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "terminal.show(f'{player} played {move}')\n"
        "terminal.show(_('{player} played {move}', player=p, move=m))\n"
        "terminal.show(f'{symbol}> ')\n"
        "raise InputError('chat needs something to say')\n"
        "parser.add_argument('--x', help=ngettext('{n} game', '{n} games', 2))\n"
        "parser.add_argument('--y', help='the server')\n"
        "terminal.show(f'[chat] {name}: {text}')\n"
    )
    assert inline_words(sample, tmp_path) == [
        "sample.py:1: ' played '",
        "sample.py:4: 'chat needs something to say'",
        "sample.py:6: 'the server'",
    ]
