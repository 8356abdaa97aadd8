"""The language being spoken now, and the functions that mark and translate messages.

Code that shows words to people writes them in English inside these calls, so
that Babel's extraction (``python -m boardroom.shared.i18n.update``) finds them::

    _("{name} to move", name=player)          # translated now
    ngettext("{n} game", "{n} games", count)   # the right plural form, n in the locale
    LABEL = N_("Hint")                         # marked only; _(LABEL) where shown

Which language "now" is: the one set by :func:`use_language` for the current
task or request (a context variable: an aiohttp handler or an asyncio task sets
it for itself only), else the process's default set by
:func:`set_default_language` (the terminal client, once, from ``--lang`` or the
locale), else English.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from boardroom.shared.i18n.catalogue import Translator, UnknownLanguageError, translator
from boardroom.shared.i18n.languages import CODES, SOURCE_LANGUAGE

_default_language = SOURCE_LANGUAGE
_language: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "boardroom_language", default=None
)


def set_default_language(language: str) -> None:
    """Make ``language`` the process's language wherever no :func:`use_language`
    applies (threads included). Raises ``UnknownLanguageError`` for a code not
    in ``LANGUAGES``, changing nothing."""
    global _default_language
    if language not in CODES:
        raise UnknownLanguageError(f"no catalogue for language {language!r}")
    _default_language = language


@contextlib.contextmanager
def use_language(language: str) -> Iterator[Translator]:
    """Speak ``language`` inside the ``with`` block (this task or thread only).
    Raises ``UnknownLanguageError`` for a code not in ``LANGUAGES``."""
    speaker = translator(language)
    token = _language.set(language)
    try:
        yield speaker
    finally:
        _language.reset(token)


def current_language() -> str:
    """The code of the language being spoken now."""
    return _language.get() or _default_language


def current() -> Translator:
    """The :class:`Translator` of the language being spoken now."""
    return translator(current_language())


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, with ``params`` filled in.

    >>> with use_language("en"):
    ...     _("{name} to move", name="bob")
    'bob to move'
    """
    return current().gettext(message, **params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` in the current language (``{n}`` is filled in).

    >>> with use_language("en"):
    ...     ngettext("{n} game", "{n} games", 3)
    '3 games'
    """
    return current().ngettext(singular, plural, n, **params)


def N_(message: str, /) -> str:  # noqa: N802 (gettext's own name for it)
    """Mark ``message`` for the catalogue without translating it (for a constant
    translated where it is shown, with ``_(CONSTANT)``)."""
    return message
