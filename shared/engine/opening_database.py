"""Connect Four's 12-stone opening database: the exact value of every position of
12 stones, read from the ``bitbully-databases`` package.

No solver finds the value of an early Connect Four position within a move's
budget; strong programs answer the opening from a database. This module reads
the one shipped by ``bitbully-databases`` (PyPI, MIT: ``book_12ply_distances.dat``,
21 MB) and answers one question: what a position of exactly 12 stones is worth,
in stone scores (:mod:`boardroom.shared.engine.scores`,
:func:`~boardroom.shared.engine.search.solve`'s scale). The exact search asks it at every node of 12
stones instead of searching on (:mod:`boardroom.shared.engine.negamax`,
:mod:`boardroom.shared.engine.native`), so every position of 0 to 12 stones solves in well under a
second.

The file (facts of the format, read from its documentation and checked here):
4,200,899 records of 5 bytes, sorted ascending by key: a big-endian signed
32-bit key, then one signed byte of value. The key is a Huffman code of the
board: columns left to right, each bottom up, ``10`` for a first-player (X)
stone, ``11`` for a second-player (O) stone, ``0`` closing the column (also a
full one), then a final ``0``: with 12 stones exactly 32 bits, most significant
first. Only one of a position and its mirror image is stored, so a lookup tries
both. Every 12-stone position in which X, to move, cannot win at once is there;
the engine's node invariant (the side to move has no immediate win) means the
search only asks for those.

The raw byte counts plies to the end, "100 minus distance": ``b > 0`` means X
wins ``100 - b`` plies from now (an odd number: X makes the last move), ``b < 0``
that O wins ``100 + b`` plies from now, ``0`` a draw. A win on ply ``12 + d``
is made with the winner's ``ceil((12 + d) / 2)``-th stone, so the stone score
for X is ``(b - 69) // 2`` for a win and ``(b + 68) // 2`` for a loss
(:func:`stone_score_of_byte`; the tests check it against bitbully's own reader
and our solver).

Loading: lazily, on the first exact solve of a Connect Four position of 12
stones or fewer (or the engine worker's warm-up), once per process: about
0.1 s, and 21 MB of numpy arrays (int32 keys, int8 stone scores). Where the
package or file is missing or unreadable, :func:`opening_database` returns None,
logs one line saying so, and the engine searches as before.
``BOARDROOM_OPENING_DATABASE`` names another file, or ``off`` turns the
database off (read at each call).

Pure: no I/O but reading that package data file (or the file named).
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DATABASE_ENV",
    "PLIES",
    "OpeningDatabase",
    "OpeningDatabaseError",
    "applies_to",
    "database_path",
    "decode_key",
    "huffman_key",
    "load",
    "lookup",
    "opening_database",
    "stone_score_of_byte",
]

log = logging.getLogger(__name__)

DATABASE_ENV = "BOARDROOM_OPENING_DATABASE"
"""A path to read the database from instead of the package's, or ``off``."""
PLIES = 12
"""Stones on the board of every position the database holds (X to move)."""
WIDTH, HEIGHT, STRIDE = 7, 6, 7
"""The board the database is for, in our bitboard layout: bit ``column * 7 + row``."""
PACKAGE, ASSET = "bitbully_databases", "assets/book_12ply_distances.dat"
RECORD_BYTES = 5
"""One record of the file: a big-endian int32 key and an int8 value, no padding."""


class OpeningDatabaseError(ValueError):
    """A file that is not the 12-stone database (the message says why)."""


def stone_score_of_byte(raw: int) -> int:
    """The stone score, for X to move at 12 stones, of a raw value byte."""
    if raw > 0:
        return (raw - 69) // 2
    if raw < 0:
        return (raw + 68) // 2
    return 0


def huffman_key(first: int, second: int) -> int:
    """The database key (a signed 32-bit int) of a 12-stone position: ``first`` and
    ``second`` are the bitboards of X's and O's stones in our layout."""
    code = 0
    length = 0
    for column in range(WIDTH):
        for row in range(HEIGHT):
            bit = 1 << (column * STRIDE + row)
            if first & bit:
                code, length = (code << 2) | 0b10, length + 2
            elif second & bit:
                code, length = (code << 2) | 0b11, length + 2
            else:
                break
        code, length = code << 1, length + 1
    code, length = code << 1, length + 1
    if length != 32:
        raise ValueError(f"a key needs exactly {PLIES} stones, not {(length - 8) // 2}")
    return code - (1 << 32) if code >= 1 << 31 else code


def decode_key(key: int) -> tuple[int, int]:
    """The (X, O) bitboards of a database key: :func:`huffman_key` undone."""
    code = key & 0xFFFFFFFF
    position = 31
    boards = [0, 0]
    for column in range(WIDTH):
        row = 0
        while (code >> position) & 1:
            player = (code >> (position - 1)) & 1
            boards[player] |= 1 << (column * STRIDE + row)
            row += 1
            position -= 2
        position -= 1
    return boards[0], boards[1]


def mirror(board: int) -> int:
    """``board`` reflected left to right (whole columns swap)."""
    group = (1 << STRIDE) - 1
    out = 0
    for column in range(WIDTH):
        out |= ((board >> (column * STRIDE)) & group) << ((WIDTH - 1 - column) * STRIDE)
    return out


@dataclass(frozen=True, eq=False)
class OpeningDatabase:
    """The database in memory: ``keys`` (int32, ascending) and, at the same index,
    ``scores`` (int8 stone scores for X to move). ``path`` is where it was read."""

    keys: np.ndarray
    scores: np.ndarray
    path: str

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, key: int) -> int | None:
        """The stone score stored under ``key``, or None."""
        # An int32 needle: a Python int would make numpy convert the whole array first.
        index = int(self.keys.searchsorted(self.keys.dtype.type(key)))
        if index < len(self.keys) and int(self.keys[index]) == key:
            return int(self.scores[index])
        return None

    def lookup(self, cur: int, opp: int) -> int | None:
        """The exact stone score for the player to move, ``cur``, of a 12-stone
        position (so ``cur`` is X), its mirror image looked up too; None if
        neither is stored (not 12 stones, or X could win at once)."""
        if (cur | opp).bit_count() != PLIES:
            return None
        found = self.score(huffman_key(cur, opp))
        if found is None:
            found = self.score(huffman_key(mirror(cur), mirror(opp)))
        return found


def load(path: str | os.PathLike[str]) -> OpeningDatabase:
    """Read the database file at ``path`` (raises OSError, OpeningDatabaseError)."""
    import numpy as np  # only here: importing the engine must not import numpy

    data = Path(path).read_bytes()
    if not data or len(data) % RECORD_BYTES:
        raise OpeningDatabaseError(f"{path}: {len(data)} bytes is not a whole number of records")
    records = np.frombuffer(data, dtype=np.dtype([("key", ">i4"), ("value", "i1")]))
    # Converted once to native arrays: big-endian fields would be swapped at every read.
    keys = records["key"].astype(np.int32)
    raw = records["value"].astype(np.int16)
    scores = np.where(raw > 0, (raw - 69) // 2, np.where(raw < 0, (raw + 68) // 2, 0))
    if len(keys) > 1 and not bool(np.all(keys[1:] > keys[:-1])):
        raise OpeningDatabaseError(f"{path}: the keys are not in ascending order")
    return OpeningDatabase(keys, scores.astype(np.int8), str(path))


def database_path() -> str | None:
    """The file to read: ``$BOARDROOM_OPENING_DATABASE``, else the package's; None
    when turned off or the package is not installed."""
    chosen = os.environ.get(DATABASE_ENV, "").strip()
    if chosen.lower() == "off":
        return None
    return chosen or _package_path()


@functools.cache
def _package_path() -> str | None:
    try:
        from importlib import resources

        return str(resources.files(PACKAGE).joinpath(ASSET))
    except ImportError:
        return None


def opening_database() -> OpeningDatabase | None:
    """The process's database (read on first call, then cached), or None if it is
    turned off or cannot be read; a failure is logged once per path."""
    path = database_path()
    if path is None:
        _log_once("off" if os.environ.get(DATABASE_ENV) else "missing")
        return None
    return _cached(path)


@functools.cache
def _cached(path: str) -> OpeningDatabase | None:
    try:
        return load(path)
    except (OSError, OpeningDatabaseError) as error:
        log.warning(
            "Connect Four opening database unreadable (%s): positions of up to 12 stones "
            "are searched instead, which is slow",
            error,
        )
        return None


@functools.cache
def _log_once(why: str) -> None:
    if why == "off":
        log.info("Connect Four opening database turned off (%s=off)", DATABASE_ENV)
    else:
        log.warning(
            "Connect Four opening database not installed (package %s): positions of up "
            "to 12 stones are searched instead, which is slow",
            PACKAGE,
        )


def applies_to(width: int, height: int, k: int, *, gravity: bool) -> bool:
    """True for the game the database is about: Connect Four, 7x6, four in a row."""
    return gravity and (width, height, k) == (WIDTH, HEIGHT, 4)


def lookup(cur: int, opp: int) -> int | None:
    """:meth:`OpeningDatabase.lookup` on the process's database; None without one."""
    database = opening_database()
    return database.lookup(cur, opp) if database is not None else None
