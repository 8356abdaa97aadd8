"""Guards of the class's pages' words (issue 27): the teacher's page, the wall
and the cards say nothing that bypasses the catalogue, and every message they
use has its Spanish with the same placeholders.

The lint reads the pages' modules as text: it takes out the comments and the
messages (string literals given to ``t``, ``tn`` or ``N_``), then flags each
string left that reads as words for people (two words or more, or a
capitalised word). Strings that are no words for people (CSS classes, header
names, commands passed into a message as values) are skipped by their place
(``class:``) or listed below with why.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from boardroom.shared.i18n.extraction import extract_messages

ROOT = Path(__file__).resolve().parents[4]
STATIC = ROOT / "server" / "web" / "static"

CLASS_MODULES = (
    "class-words.js",
    "teacher.js",
    "teacher-accounts.js",
    "teacher-api.js",
    "teacher-bots.js",
    "teacher-rooms.js",
    "teacher-roster.js",
    "teacher-tournament.js",
    "tournament-tables.js",
    "wall.js",
    "wall-tile.js",
)
CLASS_PAGES = ("teacher.html", "wall.html")

NOT_WORDS = {
    "boardroom serve": "a command, passed into a message as a value",
    "boardroom serve --class NAME": "a command, passed into a message as a value",
    "boardroom serve --host 0.0.0.0": "a command, passed into a message as a value",
    "--public-url URL": "an option, passed into a message as a value",
    "Bearer ${this.token}": "the Authorization header's scheme",
    "Content-Type": "an HTTP header's name",
    "Escape": "a key's name (KeyboardEvent.key)",
}
"""String literals of the class modules that read as words but are none for people."""

_STRING = r'"(?:[^"\\\n]|\\.)*"'
_MESSAGE = re.compile(rf"\b(?:t|tn|N_)\(\s*{_STRING}(?:\s*,\s*{_STRING})?")
_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
_LITERAL = re.compile(r'(class:\s*)?(?:"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`)')
_WORDS = re.compile(r"[A-Za-z]{2,}(?:[ '][A-Za-z]{2,})+|\b[A-Z][a-z]{2,}\b")


def words_outside_the_catalogue(source: str) -> list[str]:
    """The string literals of the JavaScript ``source`` that read as words for
    people yet are no message (not given to ``t``, ``tn`` or ``N_``)."""
    code = _MESSAGE.sub("t(MESSAGE)", _COMMENT.sub("", source))
    found = []
    for match in _LITERAL.finditer(code):
        css_class, quoted, template = match.groups()
        literal = quoted if quoted is not None else template
        if css_class or literal in NOT_WORDS:
            continue
        if _WORDS.search(re.sub(r"\$\{[^}]*\}", " ", literal)):
            found.append(literal)
    return found


def test_the_lint_finds_words_that_bypass_the_catalogue() -> None:
    source = """
        // A comment: "Not a message"
        h("p", { class: "panel wide" }, t("Loading the class…"));
        setText(x, `Class ${name}`);
        button("Remove", go);
        const level = tn("{n} round", "{n} rounds", n);
        const code = "unknown_room";
    """
    assert words_outside_the_catalogue(source) == ["Class ${name}", "Remove"]


@pytest.mark.parametrize("module", CLASS_MODULES)
def test_the_class_pages_say_nothing_outside_the_catalogue(module: str) -> None:
    source = (STATIC / module).read_text(encoding="utf-8")
    assert words_outside_the_catalogue(source) == [], module


class _UnmarkedText(HTMLParser):
    """The text of an HTML page outside elements marked ``data-i18n`` (and
    outside ``noscript``, ``script`` and ``style``, which i18n.js cannot reach)."""

    SKIPPED = frozenset({"noscript", "script", "style"})
    VOID = frozenset({"meta", "link", "input", "img", "br", "hr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[bool] = []  # per open element: is its text exempt?
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        exempt = tag in self.SKIPPED or "data-i18n" in dict(attrs)
        self.open.append(exempt or any(self.open))

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not any(self.open) and re.search("[A-Za-z]", text):
            self.found.append(text)


@pytest.mark.parametrize("page", CLASS_PAGES)
def test_the_class_pages_html_marks_its_words(page: str) -> None:
    """Every word of the page's HTML is marked for i18n.js, but the brand."""
    parser = _UnmarkedText()
    parser.feed((STATIC / page).read_text(encoding="utf-8"))
    assert [text for text in parser.found if text != "Boardroom"] == [], page


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def _class_messages(template: Catalog) -> list[Message]:
    files = {f"server/web/static/{name}" for name in CLASS_MODULES + CLASS_PAGES}
    return [
        message
        for message in template
        if message.id and any(place in files for place, _line in message.locations)
    ]


def test_every_message_of_the_class_pages_has_its_spanish_with_the_same_placeholders() -> None:
    """Each message of the class's pages is translated in the Spanish catalogue;
    a translation fills the same placeholders as the English (a plural's forms:
    those of the English plural, the one form may leave out {n}: "descanso")."""
    template = extract_messages(ROOT)
    path = ROOT / "shared" / "i18n" / "locale" / "es" / "LC_MESSAGES" / "boardroom.po"
    with path.open("rb") as source:
        spanish = read_po(source, locale="es")
    messages = _class_messages(template)
    assert len(messages) > 200  # the pages' words, not a lint that reads nothing
    problems = []
    for message in messages:
        translated = spanish.get(message.id)
        forms = translated.string if translated is not None else None
        if isinstance(message.id, tuple):
            english = _placeholders(message.id[1]) | {"n"}
            if not isinstance(forms, tuple) or not all(forms):
                problems.append(f"{message.id[0]!r}: no Spanish")
            elif not all(_placeholders(form) <= english for form in forms) or _placeholders(
                forms[-1]
            ) != _placeholders(message.id[1]):
                problems.append(f"{message.id[0]!r}: {forms!r} fills other placeholders")
        elif not forms:
            problems.append(f"{message.id!r}: no Spanish")
        elif _placeholders(str(forms)) != _placeholders(message.id):
            problems.append(f"{message.id!r}: {forms!r} fills other placeholders")
    assert problems == []
