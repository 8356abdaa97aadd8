"""An opening book: the exact value and a best move of early positions, solved once.

A full solve of an early Connect Four position takes far longer than a move's
budget, so the ``perfect`` level could not be perfect from the first move by
searching alone. The book holds, for every position where ``perfect`` may be to
move in the opening (built by ``boardroom book build``, :mod:`client.book`), the
position's exact stone score (:func:`~boardroom.shared.engine.search.solve`'s scale: the
fastest win scores highest, the slowest loss lowest) and a move that keeps it.
The search plays the book's move where it has one (:func:`~boardroom.shared.engine.search.search`),
and searches past the book, where positions are small enough to solve in time.

Only gravity games (Connect Four) have books: a position's key is its
``cur + occupied`` bitboard (unique, thanks to each column's spare bit), and a
position and its mirror image share one entry, the one of the smaller key; a
move read for the mirror image is mirrored back.

The file format (``to_bytes``/``from_bytes``), little-endian::

    b"BRBOOK1\\n"                       magic and version
    one line of JSON, then b"\\n"         {"game": "connect4", "plies": 8, "entries": N}
    N entries of 10 bytes, by key:       uint64 key, int8 column, int8 stone score

Pure: building, reading and looking up touch no file. :func:`packaged_book`
reads the book shipped with the package (package data, read once, cached).
"""

from __future__ import annotations

import functools
import json
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources

from boardroom.shared.games import Game, GridGame, Position
from boardroom.shared.games.base import Move

__all__ = [
    "BookEntry",
    "BookFormatError",
    "OpeningBook",
    "book_key",
    "packaged_book",
]

MAGIC = b"BRBOOK1\n"
_ENTRY = struct.Struct("<Qbb")
_HEADER_MAX = 4096


class BookFormatError(ValueError):
    """Bytes that are not an opening book of this format (the message says where)."""


@dataclass(frozen=True, slots=True)
class BookEntry:
    """A position's exact stone score for the player to move, and a move that keeps it."""

    move: Move
    score: int


def book_key(game: GridGame, position: Position) -> tuple[int, bool]:
    """The book's key of ``position`` and whether it is its mirror image's key
    (then a move read for it must be mirrored). Gravity games only."""
    if not game.gravity:
        raise ValueError(f"{game.name} has no opening book: only gravity games do")
    grid = game.grid
    ply = position.ply
    cur = position.stones[ply & 1]
    key = cur + position.occupied
    mirrored = _mirror_columns(key, grid.stride, grid.width)
    return (key, False) if key <= mirrored else (mirrored, True)


def _mirror_columns(bits: int, stride: int, width: int) -> int:
    """``bits`` with its columns (groups of ``stride`` bits) in reverse order."""
    group = (1 << stride) - 1
    mirrored = 0
    for column in range(width):
        mirrored |= ((bits >> (column * stride)) & group) << ((width - 1 - column) * stride)
    return mirrored


class OpeningBook:
    """The book of one game: entries by key (see the module docstring).

    ``plies`` is how many stones the deepest position may hold: the builder's
    promise that every position ``perfect`` can meet up to there is in the book.
    """

    def __init__(self, game: GridGame, plies: int, entries: Mapping[int, BookEntry]) -> None:
        if not game.gravity:
            raise ValueError(f"{game.name} has no opening book: only gravity games do")
        self.game = game
        self.plies = plies
        self._entries = dict(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def items(self) -> Iterator[tuple[int, BookEntry]]:
        """Every (key, entry), by key."""
        return iter(sorted(self._entries.items()))

    def lookup(self, position: Position) -> BookEntry | None:
        """The entry for ``position`` (its move as played there, mirrored back if
        the book keeps the mirror image); None if the book has none."""
        key, mirrored = book_key(self.game, position)
        entry = self._entries.get(key)
        if entry is None or not mirrored:
            return entry
        return BookEntry(self.game.grid.width - 1 - entry.move, entry.score)

    def with_entry(self, position: Position, entry: BookEntry) -> None:
        """Add ``entry`` for ``position`` (its move as played in ``position``)."""
        key, mirrored = book_key(self.game, position)
        move = self.game.grid.width - 1 - entry.move if mirrored else entry.move
        self._entries[key] = BookEntry(move, entry.score)

    def to_bytes(self) -> bytes:
        """The book in the file format of the module docstring."""
        header = {"game": self.game.name, "plies": self.plies, "entries": len(self)}
        parts = [MAGIC, json.dumps(header, sort_keys=True).encode(), b"\n"]
        parts += [_ENTRY.pack(key, entry.move, entry.score) for key, entry in self.items()]
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes, game: GridGame) -> OpeningBook:
        """Read a book of ``game``; :class:`BookFormatError` for anything else."""
        if not data.startswith(MAGIC):
            raise BookFormatError("not an opening book: the file does not start with BRBOOK1")
        end = data.find(b"\n", len(MAGIC), len(MAGIC) + _HEADER_MAX)
        if end < 0:
            raise BookFormatError("the book's header line has no end")
        try:
            header = json.loads(data[len(MAGIC) : end])
            name, plies, count = header["game"], int(header["plies"]), int(header["entries"])
        except (ValueError, KeyError, TypeError) as error:
            raise BookFormatError(f"the book's header is not what it should be: {error}") from None
        if name != game.name:
            raise BookFormatError(f"a book of {name!r}, not of {game.name!r}")
        body = data[end + 1 :]
        if len(body) != count * _ENTRY.size:
            raise BookFormatError(
                f"the book says {count} entries ({count * _ENTRY.size} bytes) "
                f"but holds {len(body)} bytes"
            )
        entries = {key: BookEntry(move, score) for key, move, score in _ENTRY.iter_unpack(body)}
        return cls(game, plies, entries)

    @classmethod
    def of(
        cls, game: GridGame, plies: int, entries: Iterable[tuple[Position, BookEntry]]
    ) -> OpeningBook:
        """A book of ``game`` up to ``plies`` stones from (position, entry) pairs."""
        book = cls(game, plies, {})
        for position, entry in entries:
            book.with_entry(position, entry)
        return book


BOOK_FILES = {"connect4": "connect4.book"}
"""The books shipped in ``shared/engine/data``, by game name."""


@functools.cache
def packaged_book(game: Game) -> OpeningBook | None:
    """The book shipped with the package for ``game``, read once; None if there
    is none (a game without a book, or a package built before its book)."""
    name = BOOK_FILES.get(game.name)
    if name is None or not isinstance(game, GridGame):
        return None
    source = resources.files("boardroom.shared.engine").joinpath("data", name)
    if not source.is_file():
        return None
    return OpeningBook.from_bytes(source.read_bytes(), game)
