"""The teacher's admin token: made once per database, checked in constant time.

The token is the only way to the teacher's controls. It is made the first time
the server runs in class mode on a database and kept there (the ``settings``
table), so the teacher's link still works after a restart. ``boardroom serve``
prints the link with the token in its fragment (``/teacher#token=...``):
browsers never send a fragment, so the token stays out of access logs and
``Referer`` headers; the teacher's page sends it back as
``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import hmac
import secrets

from boardroom.server.store import Store

TOKEN_SETTING = "admin_token"  # noqa: S105 - the setting's key, not a secret
"""The key the token is kept under in the store's settings."""
TOKEN_BYTES = 24
"""192 random bits: no one guesses it, and it fits a link (32 URL-safe characters)."""


async def load_or_make_token(store: Store) -> str:
    """The database's admin token, made (and stored) the first time it is asked for."""
    return await store.setting(TOKEN_SETTING, secrets.token_urlsafe(TOKEN_BYTES))


def bearer_matches(authorization: str | None, token: str) -> bool:
    """True if an ``Authorization`` header's value is ``Bearer <token>``.

    Compared as bytes with :func:`hmac.compare_digest`, so how long a refusal
    takes tells nothing about how much of a guess was right. Any text is
    compared, never refused with an exception: aiohttp reads a header's bytes
    that are not UTF-8 as lone surrogates (``"\\udce9"``), which only
    ``surrogatepass`` encodes.

    >>> bearer_matches("Bearer abc", "abc"), bearer_matches("bearer abc", "abc")
    (True, True)
    >>> bearer_matches("Bearer abd", "abc"), bearer_matches("abc", "abc")
    (False, False)
    >>> bearer_matches("Bearer \\udce9\\udcff", "abc"), bearer_matches("Bearer \\u2460", "abc")
    (False, False)
    """
    if authorization is None:
        return False
    scheme, _, given = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode("utf-8", "surrogatepass"), token.encode())


def teacher_link(host: str, port: int, token: str, *, tls: bool = False) -> str:
    """The teacher's page at ``host``:``port`` (``https`` with ``tls``), the
    token in the fragment.

    >>> teacher_link("192.0.2.2", 8765, "abc")
    'http://192.0.2.2:8765/teacher#token=abc'
    >>> teacher_link("::1", 8765, "abc", tls=True)
    'https://[::1]:8765/teacher#token=abc'
    """
    shown = f"[{host}]" if ":" in host else host
    return f"{'https' if tls else 'http'}://{shown}:{port}/teacher#token={token}"
