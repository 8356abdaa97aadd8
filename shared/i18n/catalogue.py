"""The message catalogues: one gettext ``.po`` file per language, read with Babel.

The ``.po`` files under ``locale/`` are the only source of translations, for
Python and the browser alike. They are compiled in memory when first used
(Babel's ``.mo`` writer, then the standard :mod:`gettext` lookup), so there is
no compiled file to forget to rebuild. A message that is missing, untranslated
or marked fuzzy reads as its English source.

Messages use named ``{placeholders}`` (``str.format`` style, the same in the
browser's ``i18n.js``): names, codes and moves are passed in as values, never
translated. Plural messages get the count as ``{n}``, written in the reader's
locale.
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Callable, Iterator
from datetime import datetime
from importlib.resources import files
from typing import Any, Final

from babel import Locale
from babel.dates import format_datetime
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_compact_decimal, format_decimal

from boardroom.shared.i18n.languages import CODES, SOURCE_LANGUAGE

DOMAIN: Final = "boardroom"
"""The catalogues' gettext domain (``locale/CODE/LC_MESSAGES/boardroom.po``)."""

BROWSER_SUFFIXES: Final = (".js", ".html")
BROWSER_FOLDERS: Final = ("shared/games/",)
"""A message is the browser's when one of its places in the code ends in one of
:data:`BROWSER_SUFFIXES` or lies in one of :data:`BROWSER_FOLDERS` (the games'
titles, summaries and move help, which the browser shows from ``GET /api/games``)."""

# Counts that show each CLDR plural category (Spanish says "1 millón de partidas",
# CLDR's "many"); what a category's sample picks in gettext's rule is the form
# the browser shows for it.
_PLURAL_SAMPLES: Final = (*range(200), 1000, 10_000, 100_000, 1_000_000, 10_000_000)


class UnknownLanguageError(ValueError):
    """A language code with no catalogue (see ``LANGUAGES``)."""


def catalogue_path(language: str) -> Any:
    """The ``.po`` file of ``language`` (a Traversable, inside the installed package)."""
    return files("boardroom.shared.i18n") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def read_catalogue(language: str) -> Catalog:
    """``language``'s catalogue as Babel reads it (an empty one for English).

    Raises :class:`UnknownLanguageError` for a code not in ``LANGUAGES``."""
    if language not in CODES:
        raise UnknownLanguageError(f"no catalogue for language {language!r}")
    if language == SOURCE_LANGUAGE:
        return Catalog(locale=language, domain=DOMAIN)
    with catalogue_path(language).open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def translated_messages(catalogue: Catalog) -> Iterator[Any]:
    """The catalogue's messages that have a usable translation (not the header,
    not fuzzy, every plural form filled)."""
    for message in catalogue:
        if not message.id or message.fuzzy:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if all(forms):
            yield message


class Translator:
    """Messages, numbers and dates in one language. Immutable; get one with
    :func:`translator`.

    >>> spanish = translator("es")
    >>> spanish.number(12345.5)
    '12.345,5'
    >>> translator("en").gettext("{name} to move", name="bob")
    'bob to move'
    """

    def __init__(self, language: str, catalogue: Catalog) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        compiled = io.BytesIO()
        write_mo(compiled, catalogue, use_fuzzy=False)
        compiled.seek(0)
        self._translations = gettext.GNUTranslations(compiled)

    def gettext(self, message: str, /, **params: Any) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``params``."""
        text = self._translations.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of ``singular``/``plural`` for ``n`` in this language, with
        ``{n}`` written in its locale and the other placeholders from ``params``."""
        text = self._translations.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **params)

    def number(self, value: float) -> str:
        """A number as this language writes it: ``12.345,5`` in Spanish, ``12,345.5`` in English."""
        return format_decimal(value, locale=self.locale)

    def decimal(self, value: float, digits: int, *, signed: bool = False) -> str:
        """``value`` with exactly ``digits`` decimals, ``+`` shown when ``signed``."""
        pattern = "0" + ("." + "0" * digits if digits else "")
        text = format_decimal(value, format=pattern, locale=self.locale)
        return f"+{text}" if signed and value >= 0 else text

    def compact(self, value: float) -> str:
        """A large count in short form: ``1.2M`` in English, ``1,2 M`` in Spanish."""
        return format_compact_decimal(
            value, format_type="short", fraction_digits=1, locale=self.locale
        )

    def datetime(self, moment: datetime, format: str = "medium") -> str:
        """A date and time as this language writes it (Babel's ``format_datetime``)."""
        return format_datetime(moment, format=format, locale=self.locale)

    def plural_index(self) -> Callable[[int], int]:
        """gettext's rule: which plural form (0, 1...) a count takes."""
        plural: Callable[[int], int] = self._translations.plural  # type: ignore[attr-defined]
        return plural


@functools.cache
def translator(language: str) -> Translator:
    """The :class:`Translator` of ``language`` (made once per process).

    Raises :class:`UnknownLanguageError` for a code not in ``LANGUAGES``."""
    return Translator(language, read_catalogue(language))


def browser_catalogue(language: str) -> dict[str, Any]:
    """What the browser's ``i18n.js`` loads for ``language``: the translations of
    the messages the browser's code uses, and its plural forms by CLDR category
    (``Intl.PluralRules`` picks the category in the browser)::

        {"language": "es", "messages": {"Your move": "Tu turno", ...},
         "plurals": {"{n} game": {"one": "{n} partida", "other": "{n} partidas"}}}

    Raises :class:`UnknownLanguageError` for a code not in ``LANGUAGES``."""
    catalogue = read_catalogue(language)
    plural_index = translator(language).plural_index()
    categories = _category_samples(Locale.parse(language))
    messages: dict[str, str] = {}
    plurals: dict[str, dict[str, str]] = {}
    for message in translated_messages(catalogue):
        if not any(_is_browser_place(place) for place, _line in message.locations):
            continue
        if isinstance(message.id, tuple):
            forms = message.string
            plurals[message.id[0]] = {
                category: forms[min(plural_index(sample), len(forms) - 1)]
                for category, sample in categories.items()
            }
        else:
            messages[message.id] = message.string
    return {"language": language, "messages": messages, "plurals": plurals}


def _is_browser_place(place: str) -> bool:
    return place.endswith(BROWSER_SUFFIXES) or place.startswith(BROWSER_FOLDERS)


def _category_samples(locale: Locale) -> dict[str, int]:
    """One count for each CLDR plural category of ``locale`` that whole numbers reach."""
    samples: dict[str, int] = {}
    for count in _PLURAL_SAMPLES:
        samples.setdefault(locale.plural_form(count), count)
    return samples
