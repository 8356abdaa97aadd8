"""The catalogues against the code (issue 27's guards): every message the code
marks is in the Spanish catalogue, translated, with the same placeholders, so
that a Spanish reader meets no English sentence and no translation breaks a
message's values (``{name}`` filled in, ``{n}`` counted); the browser gets a
form for every plural category of its language; and the browser's modules and
pages write no words for people outside the catalogue (the lint of
:mod:`i18n_lint`; the terminal's own lint is
``tests/unit/client/test_terminal_words_lint.py``)."""

from __future__ import annotations

from string import Formatter

import pytest
from babel import Locale
from i18n_lint import NOT_WORDS_BEFORE, UnmarkedText, literals, words_for_people

from boardroom.shared.i18n import LANGUAGES, SOURCE_LANGUAGE
from boardroom.shared.i18n.catalogue import browser_catalogue, read_catalogue
from boardroom.shared.i18n.extraction import BROWSER_FOLDER, repository_root
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


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_browser_gets_a_form_for_every_plural_category(language: str) -> None:
    """Intl.PluralRules picks a CLDR category ("one", "many", "other"...): each
    plural message of the browser's catalogue has a form for every one of them."""
    categories = set(Locale.parse(language).plural_form.tags) | {"other"}
    plurals = browser_catalogue(language)["plurals"]
    assert plurals, "the browser has plural messages"
    assert [singular for singular, forms in plurals.items() if set(forms) != categories] == []


# -- the browser's words ---------------------------------------------------------------------

STATIC = repository_root() / BROWSER_FOLDER
MODULES = sorted(path.name for path in STATIC.glob("*.js") if path.name != "i18n.js")
PAGES = sorted(path.name for path in STATIC.glob("*.html"))

NOT_WORDS = {
    ("words.js", "not your turn"): "a refusal's English message, as the server would send it",
    ("connection.js", "no answer"): "a close reason that CLOSE_REASONS words (1006)",
    ("connection.js", "no answer from the server"): "the same close reason, in full",
}
"""Literals of two words or more that are no words for people, each with why
(CSS classes, selectors, roles and tags are known by what precedes them)."""


@pytest.mark.parametrize("module", MODULES)
def test_the_browser_writes_no_words_outside_the_catalogue(module: str) -> None:
    stray = [
        f"{module}:{literal.line}: {literal.text!r}"
        for literal in literals((STATIC / module).read_text(encoding="utf-8"))
        if not literal.marked
        and words_for_people(literal)
        and (module, literal.text) not in NOT_WORDS
        and not NOT_WORDS_BEFORE.search(literal.before)
    ]
    assert stray == [], "words for people outside t()/tn()/N_():\n" + "\n".join(stray)


@pytest.mark.parametrize("page", PAGES)
def test_every_word_of_a_page_s_html_is_marked_for_translation(page: str) -> None:
    """Text outside ``data-i18n`` elements (and outside noscript, script and style)
    would stay English: only the brand may."""
    parser = UnmarkedText()
    parser.feed((STATIC / page).read_text(encoding="utf-8"))
    assert [text for text in parser.found if text != "Boardroom"] == [], page


def test_the_lint_finds_a_sentence_written_around_the_catalogue() -> None:
    """The scanner itself: a sentence outside a message call is found, in a string
    and in a template; one inside (a speaker's ``cards.t`` too), a class and a
    comment are not."""
    source = """
        // "Not this one": a comment
        const a = t("Your move", { who: "X ann" });
        const d = cards.t("Class code of {name}", { name });
        h("p", { class: "panel rooms-panel" }, "Game over now");
        const b = `Waiting for ${name} to move`;
        const c = /^a "b" c$/.test(text) ? tn("{n} game", "{n} games", n) : "";
    """
    flagged = [item.text for item in literals(source) if not item.marked and words_for_people(item)]
    classes = [item for item in literals(source) if NOT_WORDS_BEFORE.search(item.before)]
    assert flagged == ["panel rooms-panel", "Game over now", "Waiting for   to move"]
    assert [item.text for item in classes] == ["p", "panel rooms-panel"]


def test_the_html_check_finds_unmarked_text() -> None:
    parser = UnmarkedText()
    parser.feed(
        "<main><h1 data-i18n>Play</h1><p>Not marked</p><noscript>Needs JS</noscript></main>"
    )
    assert parser.found == ["Not marked"]
