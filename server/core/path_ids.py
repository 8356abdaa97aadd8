"""Ids in URL paths (``/api/games/{id}``, ``/api/tournaments/{id}``), read strictly.

A path segment is whatever a client typed, and ``int()`` takes more than an id:
it reads other scripts' digits (``'٣'`` is 3), signs, underscores and spaces,
and raises on characters that :meth:`str.isdigit` passes (``'²'``, ``'①'``) and
on more than 4,300 digits; SQLite raises ``OverflowError`` for ints past
``2**63 - 1``. :func:`parse_id` takes ASCII digits only, and no more than an
SQLite row id can hold, so a handler answers its own typed 404 instead of a 500.
"""

from __future__ import annotations

__all__ = ["MAX_ID", "parse_id"]

MAX_ID = 2**63 - 1
"""The largest row id SQLite hands out (its INTEGER is a signed 64-bit int)."""
_MAX_DIGITS = len(str(MAX_ID))  # 19: a longer string is refused before int() reads it


def parse_id(text: str) -> int | None:
    """The id ``text`` writes in ASCII digits (0 to :data:`MAX_ID`), else None.

    Leading zeros are read (``"007"`` is 7); nothing else is: no sign, no
    spaces, no other digits than 0 to 9, no more than 19 characters.

    >>> parse_id("12"), parse_id("007"), parse_id(str(MAX_ID))
    (12, 7, 9223372036854775807)
    >>> [parse_id(text) for text in (str(MAX_ID + 1), "9" * 5000, "", "-1", "+1", " 1", "1_0")]
    [None, None, None, None, None, None, None]
    >>> [parse_id(text) for text in ("\\u00b2", "\\u2460", "\\u0663", "\\uff13")]
    [None, None, None, None]
    """
    if not (0 < len(text) <= _MAX_DIGITS and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= MAX_ID else None
