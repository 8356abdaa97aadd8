"""No game is listed by hand: game names are written only in the games' own modules.

Every name and alias the registry knows (:func:`boardroom.shared.games.game_specs`, so a game
added tomorrow is checked from its first day), as a whole word, must not appear in
the code of ``server/``, ``client/`` or ``shared/`` (``.py`` and ``.js``) outside
``shared/games/``, the games' home. Whatever lists, offers or warms games reads the
registry instead (issue 26); a hand-written list is where a new game is forgotten.

Comments and docstrings are not read: they are prose and examples (and doctests
run, so an example naming a game that is gone fails anyway). A string or a name in
code is. :data:`ALLOWED` is the short list of files that are about one game in
particular, each with its reason; the last test keeps it from going stale.
"""

from __future__ import annotations

import ast
import fnmatch
import io
import re
import tokenize
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.games import game_specs

SCANNED = ("server", "client", "shared")
HOME = "shared/games/"
"""The games' own modules: where each game is declared (``GAME_SPECS``)."""

_CONNECT_FOUR_DATA = "measures or builds Connect Four's own data (solver test sets, book)"
ALLOWED: dict[str, str] = {
    "client/bench/engine.py": "benchmarks the solver on tic-tac-toe, 4x4 and Connect Four's "
    "standard test sets, board by board",
    "client/bench/engine_run.py": _CONNECT_FOUR_DATA,
    "client/bench/engine_bitbully.py": _CONNECT_FOUR_DATA,
    "client/bench/early_set.py": _CONNECT_FOUR_DATA,
    "client/bench/perfect.py": _CONNECT_FOUR_DATA,
    "client/bench/review_check.py": "checks reviews against Connect Four's proven values",
    "client/bench/analysis.py": "times the analysis of Connect Four games, which it can prove",
    "client/bench/room.py": "times the room on three boards from small to large: tic-tac-toe, "
    "Connect Four, gomoku",
    "client/commands/book.py": "builds the opening book, which only Connect Four has",
    "shared/engine/book.py": "the books shipped, by game: Connect Four's",
    "shared/engine/native.py": "loads Connect Four's opening database into the compiled solver",
    "shared/engine/opening_database_check.py": "checks Connect Four's opening database",
    "shared/engine/remote.py": "Connect Four's values are proven by its opening database",
    "client/bots/gomocup_protocol.py": "the Piskvork protocol describes gomoku-like boards only",
    "client/bots/kaggle_protocol.py": "Kaggle's ConnectX describes Connect Four-like boards only",
}
"""Files (or ``fnmatch`` patterns) that may name a game, and why."""


def name_pattern(names: set[str]) -> re.Pattern[str]:
    """Any of ``names`` as a whole word (``connect4``, not ``bench_connect4``)."""
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alternatives})(?![A-Za-z0-9_])")


def python_code(source: str) -> list[tuple[int, str]]:
    """The code of a Python module as (line, text) pieces: its names, operators and
    strings, without comments and docstrings (any string standing alone as a
    statement, as the attribute docstrings under a constant are)."""
    docstrings = {
        (node.lineno, node.col_offset)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    return [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type != tokenize.COMMENT
        and not (token.type == tokenize.STRING and token.start in docstrings)
    ]


_JS_COMMENT = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL)


def javascript_code(source: str) -> list[tuple[int, str]]:
    """A script's lines without its comments (``/* */`` and ``//`` after a space or
    at a line's start, so a URL's ``://`` stays code)."""
    blanked = _JS_COMMENT.sub(lambda match: "\n" * match.group().count("\n"), source)
    return list(enumerate(blanked.split("\n"), start=1))


def named_games(path: Path, pattern: re.Pattern[str]) -> list[str]:
    """Where ``path``'s code names a game: ``file:line: name`` for each."""
    source = path.read_text(encoding="utf-8")
    pieces = python_code(source) if path.suffix == ".py" else javascript_code(source)
    where = path.relative_to(REPO_ROOT).as_posix()
    return [
        f"{where}:{line}: {match.group()}"
        for line, text in pieces
        for match in pattern.finditer(text)
    ]


def scanned_files() -> list[Path]:
    return sorted(
        path
        for folder in SCANNED
        for suffix in ("*.py", "*.js")
        for path in (REPO_ROOT / folder).rglob(suffix)
        if not path.relative_to(REPO_ROOT).as_posix().startswith(HOME)
    )


def allowed(path: Path) -> bool:
    relative = path.relative_to(REPO_ROOT).as_posix()
    return any(fnmatch.fnmatch(relative, entry) for entry in ALLOWED)


GAME_NAMES = {name for spec in game_specs() for name in (spec.name, *spec.aliases)}
PATTERN = name_pattern(GAME_NAMES)


def test_no_game_is_named_in_code_outside_its_own_module() -> None:
    found = [
        hit for path in scanned_files() if not allowed(path) for hit in named_games(path, PATTERN)
    ]
    assert not found, (
        "game names written out by hand (read boardroom.shared.games.game_specs() instead, "
        "or add the file to ALLOWED with the reason it is about that game):\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    ("source", "hits"),
    [
        ('GAMES = ("connect4", "gomoku")\n', [(1, "connect4"), (1, "gomoku")]),
        ('x = f"{rooms} rooms of tictactoe"  # of tictactoe\n', [(1, "tictactoe")]),
        ('"""About connect4."""\nX = 1\n"""connect4 again."""\n', []),
        ("def bench_connect4():\n    return 'c4x'  # connect4\n", []),
        ("if name == 'c4':\n    pass\n", [(1, "c4")]),
    ],
)
def test_the_python_check_reads_code_and_not_prose(
    source: str, hits: list[tuple[int, str]]
) -> None:
    pattern = name_pattern({"connect4", "gomoku", "tictactoe", "c4"})
    found = [
        (line, m.group()) for line, text in python_code(source) for m in pattern.finditer(text)
    ]
    assert found == hits


def test_the_script_check_reads_code_and_not_comments() -> None:
    source = (
        "// connect4 in a comment\n"
        "const url = 'http://x/api/games'; /* gomoku\n connect4 */\n"
        "const GAMES = ['connect4'];\n"
    )
    pattern = name_pattern({"connect4", "gomoku"})
    found = [
        (line, m.group()) for line, text in javascript_code(source) for m in pattern.finditer(text)
    ]
    assert found == [(4, "connect4")]


def test_every_allowed_file_exists_and_still_names_a_game() -> None:
    """An entry whose file no longer names a game (or is gone) is taken off the list."""
    for entry in ALLOWED:
        paths = [
            path
            for path in scanned_files()
            if fnmatch.fnmatch(path.relative_to(REPO_ROOT).as_posix(), entry)
        ]
        assert paths, f"{entry}: no such file"
        assert any(named_games(path, PATTERN) for path in paths), f"{entry}: names no game"
