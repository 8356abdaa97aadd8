"""The catalogues against the code (issue 27's guards): every message the code
marks is in the Spanish catalogue, translated, with the same placeholders, so
that a Spanish reader meets no English sentence and no translation breaks a
message's values (``{name}`` filled in, ``{n}`` counted)."""

from __future__ import annotations

from string import Formatter

import pytest

from boardroom.shared.i18n import LANGUAGES, SOURCE_LANGUAGE
from boardroom.shared.i18n.catalogue import read_catalogue
from boardroom.shared.i18n.update import main as update_main
from boardroom.shared.i18n.update import missing_translations

TRANSLATED = [language.code for language in LANGUAGES if language.code != SOURCE_LANGUAGE]


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message fills in (``{text!r}`` is ``text``)."""
    return {field for _, field, _, _ in Formatter().parse(text) if field is not None}


def test_the_catalogues_are_up_to_date_with_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    """python -m boardroom.shared.i18n.update --check: nothing to add or drop."""
    assert update_main(["--check"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    assert missing_translations(read_catalogue(language)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_translation_fills_in_the_same_values_as_its_english(language: str) -> None:
    """The same placeholders; a plural form may leave its count unsaid ("una partida")."""
    wrong = []
    for message in read_catalogue(language):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            wanted = placeholders(message.id[0]) | placeholders(message.id[1])
            for form in message.string:
                if placeholders(form) - {"n"} != wanted - {"n"}:
                    wrong.append((message.id[0], form))
        elif placeholders(message.string) != placeholders(message.id):
            wrong.append((message.id, message.string))
    assert wrong == []


def test_the_check_of_placeholders_sees_a_missing_or_renamed_value() -> None:
    assert placeholders("{player} played {move!r}") == {"player", "move"}
    assert placeholders("{jugador} jugó {move}") != placeholders("{player} played {move}")
