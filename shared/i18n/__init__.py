"""Boardroom in the reader's language: English (the source) and Spanish.

- :mod:`~boardroom.shared.i18n.languages`: which languages exist and which one a
  reader wants (``navigator.languages``, ``Accept-Language``, ``LANG``);
- :mod:`~boardroom.shared.i18n.catalogue`: the gettext catalogues (``locale/``),
  read with Babel, a :class:`Translator` per language (messages, plural forms,
  numbers and dates in the locale) and the browser's JSON of them;
- :mod:`~boardroom.shared.i18n.active`: the language spoken now and the marking
  functions ``_``, ``ngettext`` and ``N_``;
- :mod:`~boardroom.shared.i18n.extraction` and ``python -m
  boardroom.shared.i18n.update``: finding the messages in the code and bringing
  the catalogues up to date;
- :mod:`~boardroom.shared.i18n.command_line`: the command line's language (``--lang``
  or the locale, read before the parsers are built) and an ``ArgumentParser`` whose
  own words (usage, headings, ``-h``, the error line) speak it.

docs/architecture.md ("Adding a language") says how to add a third language.
"""

from boardroom.shared.i18n.active import (
    N_,
    _,
    current,
    current_language,
    ngettext,
    set_default_language,
    use_language,
)
from boardroom.shared.i18n.catalogue import (
    Translator,
    UnknownLanguageError,
    browser_catalogue,
    translator,
)
from boardroom.shared.i18n.languages import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    Language,
    accept_language_wishes,
    language_from_environment,
    negotiate,
)

__all__ = [
    "LANGUAGES",
    "N_",
    "SOURCE_LANGUAGE",
    "Language",
    "Translator",
    "UnknownLanguageError",
    "_",
    "accept_language_wishes",
    "browser_catalogue",
    "current",
    "current_language",
    "language_from_environment",
    "negotiate",
    "ngettext",
    "set_default_language",
    "translator",
    "use_language",
]
