"""The i18n core (shared/i18n): which language a reader gets, and a translator's
messages, plural forms, numbers and dates, on a catalogue made here (the real
Spanish catalogue's completeness is tests/test_catalogues.py's)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from babel.messages.catalog import Catalog

from boardroom.shared.i18n import (
    UnknownLanguageError,
    _,
    accept_language_wishes,
    current_language,
    language_from_environment,
    negotiate,
    ngettext,
    set_default_language,
    translator,
    use_language,
)
from boardroom.shared.i18n.catalogue import Translator, _category_samples
from boardroom.shared.i18n.html_messages import html_messages


def spanish(*entries: tuple[str | tuple[str, str], str | tuple[str, str]]) -> Translator:
    catalogue = Catalog(locale="es", domain="boardroom")
    catalogue._num_plurals, catalogue._plural_expr = 2, "(n != 1)"  # the .po file's header
    for message, translation in entries:
        catalogue.add(message, translation)
    return Translator("es", catalogue)


@pytest.mark.parametrize(
    ("wishes", "expected"),
    [
        (["es-ES"], "es"),
        (["es_MX.UTF-8"], "es"),
        (["ES"], "es"),
        (["fr-FR", "es-AR", "en"], "es"),
        (["de", "C", "POSIX"], "en"),
        ([], "en"),
        (["en-GB", "es"], "en"),
    ],
)
def test_a_reader_gets_the_first_language_wished_for_that_boardroom_speaks(
    wishes: list[str], expected: str
) -> None:
    assert negotiate(wishes) == expected


def test_accept_language_is_read_by_weight_then_order() -> None:
    assert accept_language_wishes("en;q=0.5, es-ES;q=0.9, fr") == ["fr", "es-ES", "en"]
    assert accept_language_wishes("es;q=x, en") == ["en", "es"]  # a bad weight counts as 0
    assert accept_language_wishes("") == []


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LC_ALL": "es_ES.UTF-8", "LANG": "en_US.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:es", "LANG": "en_US.UTF-8"}, "es"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_a_terminal_follows_the_locale_as_gettext_reads_it(
    environ: dict[str, str], expected: str
) -> None:
    assert language_from_environment(environ) == expected


def test_a_translation_keeps_the_values_it_is_given_untranslated() -> None:
    speaker = spanish(("{name} to move", "Le toca a {name}"))
    assert speaker.gettext("{name} to move", name="Your move") == "Le toca a Your move"
    assert speaker.gettext("Not in the catalogue {x}", x=1) == "Not in the catalogue 1"


def test_plural_forms_follow_the_catalogue_s_rule_and_write_n_in_the_locale() -> None:
    speaker = spanish((("{n} game", "{n} games"), ("{n} partida", "{n} partidas")))
    assert speaker.ngettext("{n} game", "{n} games", 1) == "1 partida"
    assert speaker.ngettext("{n} game", "{n} games", 0) == "0 partidas"
    assert speaker.ngettext("{n} game", "{n} games", 12345) == "12.345 partidas"
    english = translator("en")
    assert english.ngettext("{n} game", "{n} games", 1) == "1 game"
    assert english.ngettext("{n} game", "{n} games", 12345) == "12,345 games"


def test_numbers_and_dates_are_written_as_the_language_writes_them() -> None:
    es, en = translator("es"), translator("en")
    assert (es.decimal(0.35, 2, signed=True), en.decimal(0.35, 2, signed=True)) == (
        "+0,35",
        "+0.35",
    )
    assert es.decimal(-1.5, 1) == "-1,5"
    assert (es.compact(1_234_567), en.compact(1_234_567)) == (
        "1,2\xa0M",
        "1.2M",
    )  # a space that does not break
    moment = datetime(2026, 11, 27, 10, 5, tzinfo=UTC)
    assert "nov" in es.datetime(moment) and "2026" in es.datetime(moment)
    assert en.datetime(moment).startswith("Nov 27, 2026")


def test_every_cldr_plural_category_of_spanish_has_a_sample() -> None:
    from babel import Locale

    samples = _category_samples(Locale.parse("es"))
    assert samples["one"] == 1 and samples["other"] == 0
    assert samples["many"] == 1_000_000  # "1 millón de partidas"


def test_the_language_spoken_is_the_task_s_then_the_process_s() -> None:
    assert current_language() == "en"
    with use_language("es"):
        assert current_language() == "es"
        seen: list[str] = []
        thread = threading.Thread(target=lambda: seen.append(current_language()))
        thread.start()
        thread.join()
        assert seen == ["en"]  # another thread keeps the process's language
    assert current_language() == "en"
    try:
        set_default_language("es")
        assert current_language() == "es"
        with use_language("en"):
            assert _("{n} to move", n=3) == "3 to move"
            assert ngettext("{n} game", "{n} games", 2) == "2 games"
    finally:
        set_default_language("en")


def test_an_unknown_language_is_refused_and_changes_nothing() -> None:
    with pytest.raises(UnknownLanguageError, match="'fr'"):
        set_default_language("fr")
    with pytest.raises(UnknownLanguageError), use_language("xx"):
        pass
    with pytest.raises(UnknownLanguageError):
        translator("../es")
    assert current_language() == "en"


def test_an_html_page_s_marked_text_and_attributes_are_its_messages() -> None:
    page = """<main>
      <h2 data-i18n>Play
         a game</h2>
      <p>Not marked</p>
      <input data-i18n-attrs="placeholder title" placeholder="Your name" title="">
      <button data-i18n>Start</button>
    </main>"""
    assert list(html_messages(page)) == [(2, "Play a game"), (5, "Your name"), (6, "Start")]
