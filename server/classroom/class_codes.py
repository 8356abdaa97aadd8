"""A class account's short class code: six characters a child can type.

Each class account (:meth:`~boardroom.server.classroom.teacher.Classroom.add_students`)
gets a code beside its join link, and a new one with each new link. Typed on
the browser's start page (``POST /api/class/code``,
:mod:`boardroom.server.classroom.code_routes`), it signs the browser in as that student,
as the join link does: the answer is the student's player token, which the
browser keeps as if it had opened the link.

The alphabet has no look-alikes (no ``0``/``O``, no ``1``/``I``/``L``); a code
is read in any case, with spaces and dashes ignored. Six of 31 characters make
887,503,681 codes: with guesses limited per address (a few a minute), a class
of 30 is safe from guessing for years.

The server keeps neither the code nor the token (:class:`~boardroom.server.store.ClassCodeRecord`):
a key is derived from the code with scrypt and a salt kept in the database,
its first half finds the code (``lookup``), its second seals the token (a
one-time pad: each code seals one token). A leaked database gives a code away
only to someone who runs scrypt over every possible code: cheap for one guess
at the door, about a CPU-week for the first of a class's 30 codes. (A keyed
hash would protect them no better: its key would be in the same database.)
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Digits and capitals without look-alikes: no 0/O, no 1/I/L."""
CODE_LENGTH = 6
SALT_SETTING = "class_code_salt"
"""The store's setting that holds the salt (hex), made once per database."""
SALT_BYTES = 16

# scrypt's cost: about 5 ms and 2 MiB a code on a laptop, so adding 200 students
# costs a second (off the event loop) and each guess at the door as much.
_SCRYPT = {"n": 2**11, "r": 8, "p": 1}


@dataclass(frozen=True, slots=True)
class SealedCode:
    """What the store keeps of a code: ``lookup`` to find it, the token ``sealed``."""

    lookup: str
    sealed: str


def new_code(choice: Callable[[str], str] = secrets.choice) -> str:
    """A new code: :data:`CODE_LENGTH` characters of :data:`ALPHABET`.

    >>> new_code(lambda alphabet: alphabet[5])
    '777777'
    """
    return "".join(choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalized(typed: str) -> str | None:
    """The code ``typed`` means (capitals, no spaces or dashes), or None if it
    cannot be one: the wrong length, or a character not in :data:`ALPHABET`.

    >>> normalized(" k7p-2qx "), normalized("K7P 2QX")
    ('K7P2QX', 'K7P2QX')
    >>> normalized("K7P2Q0") is None, normalized("K7P2Q") is None
    (True, True)
    """
    code = "".join(typed.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code


def _key(code: str, salt: bytes) -> bytes:
    return hashlib.scrypt(code.encode(), salt=salt, dklen=64, maxmem=2**25, **_SCRYPT)


def lookup_of(code: str, salt: bytes) -> tuple[str, bytes]:
    """The lookup of ``code`` (a normalized one) and the key that seals its token."""
    key = _key(code, salt)
    return key[:32].hex(), key[32:]


def seal(code: str, salt: bytes, token: str) -> SealedCode:
    """``token`` sealed under ``code`` (a normalized one), with its lookup.

    >>> sealed = seal("K7P2QX", b"salt", "bp_secret")
    >>> len(sealed.lookup), "secret" in sealed.sealed
    (64, False)
    >>> unseal(lookup_of("K7P2QX", b"salt")[1], sealed.sealed)
    'bp_secret'
    """
    lookup, key = lookup_of(code, salt)
    return SealedCode(lookup, _pad(key, token.encode()).hex())


def unseal(key: bytes, sealed: str) -> str | None:
    """The token sealed under ``key`` (:func:`lookup_of`), or None if it does not open."""
    try:
        return _pad(key, bytes.fromhex(sealed)).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def _pad(key: bytes, data: bytes) -> bytes:
    stream = hashlib.shake_256(b"boardroom class code seal" + key).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, stream, strict=True))
