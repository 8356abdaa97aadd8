"""Which languages Boardroom speaks, and which one a reader wants.

:data:`LANGUAGES` is the one list: adding a language is its catalogue file
(``locale/CODE/LC_MESSAGES/boardroom.po``) and one line here. English is the
source language: its messages are the catalogue's keys, so it has no file.

The reader's wishes come in three spellings, all handled by :func:`negotiate`:
a browser's ``navigator.languages`` or ``Accept-Language`` (``es-ES``), a POSIX
locale (``es_ES.UTF-8``, ``C``) and a bare code (``es``).

>>> negotiate(["es_ES.UTF-8"])
'es'
>>> negotiate(["fr-FR", "es-MX"])
'es'
>>> negotiate(["de", "C"])
'en'
>>> language_from_environment({"LANG": "es_AR.UTF-8"})
'es'
>>> language_from_environment({"LANGUAGE": "fr:es", "LANG": "en_US.UTF-8"})
'es'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Language:
    """A language Boardroom speaks: its code (ISO 639-1, as in ``<html lang>``)
    and its name written in itself, as a language switch shows it."""

    code: str
    name: str


LANGUAGES: Final[tuple[Language, ...]] = (
    Language("en", "English"),
    Language("es", "Español"),
)
"""Every language with a catalogue, the source language (English) first."""

SOURCE_LANGUAGE: Final = "en"
"""The language the messages are written in: the fallback for any other."""

CODES: Final[frozenset[str]] = frozenset(language.code for language in LANGUAGES)


def base_code(tag: str) -> str:
    """The language part of a tag in any spelling: ``es-ES``, ``es_ES.UTF-8``,
    ``ES`` all give ``es``; ``C`` and ``POSIX`` give ``""`` (no wish)."""
    code = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    return "" if code in ("c", "posix", "*") else code


def negotiate(wishes: Iterable[str], default: str = SOURCE_LANGUAGE) -> str:
    """The first of ``wishes`` (most wanted first) that Boardroom speaks, by its
    language part, else ``default``."""
    for wish in wishes:
        code = base_code(wish)
        if code in CODES:
            return code
    return default


def accept_language_wishes(header: str) -> list[str]:
    """An ``Accept-Language`` header's tags, most wanted first (by ``q``, then order);
    malformed weights count as 0."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag:
            weighted.append((-weight, index, tag))
    return [tag for _, _, tag in sorted(weighted)]


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language a terminal's user wants, as gettext reads it: ``LANGUAGE``
    (a colon list) unless the locale is ``C``, then ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; the source language when none names one we speak."""
    environ = os.environ if environ is None else environ
    wishes: list[str] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if name == "LANGUAGE":
            wishes.extend(value.split(":") if value else [])
        elif value:
            wishes.append(value)
    return negotiate(wishes)
