"""One spelling of a side in code: the rules' ``Player``; the wire's words only at the codec.

A side is :class:`boardroom.shared.games.Player` everywhere in ``server/`` and
``client/`` (issue 26). ``Player`` is a ``StrEnum`` whose values are the wire's
words, so msgspec sends a message's side as ``"first"``/``"second"`` and reads it
back as a ``Player`` with no converter (``shared/protocol/messages.py`` says why).
What this holds:

- no string ``"first"`` or ``"second"`` in the code of ``server/`` or ``client/``
  (docstrings and comments are prose and examples, and are not read), outside
  :data:`ALLOWED`, the short list of files where the word is not a side in code,
  each with its reason;
- no name ``Side`` there, and none of the old wire-side helpers in the protocol;
- every side field of a message is typed ``Player``, but one: ``create_room``'s
  ``seat``, which may also be ``random`` (:data:`~boardroom.shared.protocol.messages.SeatChoice`).
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import msgspec
import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.games import Player
from boardroom.shared.protocol import messages

SCANNED = ("server", "client")
WORDS = frozenset(player.value for player in Player)

ALLOWED: dict[str, str] = {
    "client/terminal/commands.py": "the words a person types for a seat (first, x, 1, ...), "
    "read into a Player",
    "client/commands/book.py": "the --side choices a person types on the command line",
    "server/classroom/export.py": "the CSV headings of a tournament's games",
    "server/core/room_options.py": "create_room's seat as the wire sends it and the store "
    "keeps it (SeatChoice: a side or random)",
}
"""Files that may write ``"first"``/``"second"`` as a string in code, and why."""

OLD_HELPERS = ("Side", "SIDES", "other_side", "SYMBOLS", "side_of", "player_of")
"""The wire-side type and its converters that ``Player`` replaced."""


def python_files() -> list[Path]:
    return sorted(path for folder in SCANNED for path in (REPO_ROOT / folder).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def docstring_nodes(tree: ast.AST) -> set[int]:
    """The ids of the string constants standing alone as statements: docstrings,
    and the attribute docstrings under a constant."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def side_words(path: Path) -> list[int]:
    """The lines of ``path`` whose code holds the string ``"first"`` or ``"second"``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = docstring_nodes(tree)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in WORDS and id(node) not in prose
    ]


def side_names(path: Path) -> list[int]:
    """The lines of ``path`` that name ``Side`` (as a name, an attribute or an import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if (
            (isinstance(node, ast.Name) and node.id == "Side")
            or (isinstance(node, ast.Attribute) and node.attr == "Side")
            or (isinstance(node, ast.alias) and node.name == "Side")
        ):
            lines.append(node.lineno)
    return lines


def test_no_side_is_spelled_as_a_wire_word_in_server_or_client_code() -> None:
    found = [
        f"{relative(path)}:{line}"
        for path in python_files()
        if relative(path) not in ALLOWED
        for line in side_words(path)
    ]
    assert not found, (
        f"a side written as a string in code: {found}; use Player.FIRST or Player.SECOND "
        "(or, if the word is not a side in code, add the file to ALLOWED with its reason)"
    )


def test_no_code_names_the_old_side_type() -> None:
    found = [f"{relative(path)}:{line}" for path in python_files() for line in side_names(path)]
    assert not found, f"the wire's Side is gone: hold a Player instead ({found})"
    assert not [name for name in OLD_HELPERS if hasattr(messages, name)]


def _side_fields() -> list[tuple[str, str, object]]:
    """Every field of a message (and of the structs inside them) whose type can
    hold a side word, as (struct, field, type)."""
    found = []
    structs = [
        value
        for value in vars(messages).values()
        if isinstance(value, type) and issubclass(value, msgspec.Struct)
    ]
    for struct in structs:
        for name, hint in typing.get_type_hints(struct, vars(messages)).items():
            text = repr(hint)
            if "Player" in text or "'first'" in text:
                found.append((struct.__name__, name, hint))
    return found


def test_every_side_field_of_a_message_is_a_player_but_the_creators_seat() -> None:
    fields = _side_fields()
    assert len(fields) > 10  # side, winner, to_move, you, game_players, ...
    literal = [(struct, name) for struct, name, hint in fields if "'first'" in repr(hint)]
    assert literal == [("CreateRoom", "seat")]
    assert typing.get_type_hints(messages.CreateRoom)["seat"] == messages.SeatChoice


@pytest.mark.parametrize("path", sorted(ALLOWED))
def test_every_allowed_file_still_needs_it(path: str) -> None:
    """An allowance whose file no longer writes a side word is stale: remove it."""
    assert (REPO_ROOT / path).is_file(), f"{path} is gone: remove it from ALLOWED"
    assert side_words(REPO_ROOT / path), f"{path} writes no side word now: remove it"
