"""Guards of the student's pages' words (issue 27): every message of the start
page, the lobby, the room, the review, the standings and the leaderboard (and
of the games' titles, summaries and move help, marked in ``shared/games``) has
its Spanish translation, with the same ``{placeholders}``; and the modules of
those pages write no sentence for people outside ``t()``, ``tn()`` and
``N_()``, where the catalogue would miss it.

The lint reads the JavaScript itself (a small scanner of its strings, comments
and regular expressions: no JavaScript parser is a dependency) and flags a
string or template literal that reads as words for people (two words or more
of letters) unless it is inside a ``t``/``tn``/``N_`` call, or in a place that
holds no words for people (a CSS class, a selector, a role...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from babel.messages.catalog import Catalog

from boardroom.shared.i18n.catalogue import read_catalogue
from boardroom.shared.i18n.extraction import extract_messages, repository_root

STATIC = "server/web/static"

STUDENT_PAGES = (
    "account-link.js",
    "board-cells.js",
    "board-columns.js",
    "board-rows.js",
    "board.js",
    "clocks.js",
    "connection.js",
    "forms.js",
    "game-list.js",
    "leaderboard.js",
    "lobby-view.js",
    "look-othello.js",
    "main.js",
    "name-view.js",
    "notices.js",
    "review-view.js",
    "room-state.js",
    "room-view.js",
    "session.js",
    "side-mark.js",
    "standings-view.js",
    "words.js",
)
"""The student side's modules (the others are the teacher's page and the wall's)."""

STUDENT_PLACES = (
    *(f"{STATIC}/{name}" for name in STUDENT_PAGES),
    f"{STATIC}/index.html",
    f"{STATIC}/leaderboard.html",
    "shared/games/",
)

NOT_WORDS = {
    ("words.js", "not your turn"): "a refusal's English message, as the server would send it",
    ("main.js", "panel removed-view invalid-link"): "CSS classes",
    ("main.js", "panel removed-view"): "CSS classes",
    ("lobby-view.js", "panel rooms-panel"): "CSS classes",
    ("standings-view.js", "panel standings-view"): "CSS classes",
    ("standings-view.js", "tbody tr"): "a selector",
    ("review-view.js", "quiet turning-point"): "CSS classes",
    ("connection.js", "no answer"): "a close reason that CLOSE_REASONS words (1006)",
    (
        "connection.js",
        "no answer from the server",
    ): "a close reason that CLOSE_REASONS words (1006)",
}
"""Literals of several words that are not words for people, each with why."""

NOT_WORDS_BEFORE = re.compile(
    r"(\b(class|className|role|type|name|id|for|rel|autocomplete|kind|key|status)\s*[:=]\s*"
    r"([^,;{}()]*\?\s*|[^,;{}()]*:\s*)?"
    r"|\b(querySelector|querySelectorAll|closest|classList\.\w+|getElementById|matches)(\?\.)?\(\s*"
    r"|\bh\(\s*)$"
)
"""What, just before a literal, says it holds no words for people: an attribute
that names a CSS class, a role or a type (a ternary's branches included); a
selector; an element's tag."""

MESSAGE_CALLS = ("t", "tn", "N_")


@dataclass(frozen=True)
class Literal:
    text: str
    """The literal's words: a template's ``${...}`` parts left out."""
    line: int
    marked: bool
    """Inside a ``t``/``tn``/``N_`` call: a message of the catalogue."""
    before: str
    """The code just before it (its own line, strings blanked)."""


def literals(source: str) -> list[Literal]:
    """The string and template literals of a JavaScript module, outside its
    comments and regular expressions, each with whether a message call holds it."""
    found: list[Literal] = []
    calls: list[bool] = []  # for each open parenthesis: is it a message call's?
    code: list[str] = []  # the code read so far, strings blanked
    i, line = 0, 1

    def previous_token() -> str:
        text = "".join(code[-40:]).rstrip()
        return text[-1:] if text else ""

    def read_quoted(quote: str) -> str:
        nonlocal i, line
        out = []
        i += 1
        while source[i] != quote:
            if source[i] == "\\":
                out.append(source[i + 1])
                i += 2
                continue
            line += source[i] == "\n"
            out.append(source[i])
            i += 1
        i += 1
        return "".join(out)

    def read_template() -> str:
        nonlocal i, line
        out = []
        i += 1
        while source[i] != "`":
            if source[i] == "\\":
                out.append(source[i + 1])
                i += 2
            elif source.startswith("${", i):
                depth, i = 1, i + 2
                start = i
                while depth:
                    if source[i] in "\"'":
                        read_quoted(source[i])
                        continue
                    if source[i] == "`":
                        read_template()
                        continue
                    depth += {"{": 1, "}": -1}.get(source[i], 0)
                    line += source[i] == "\n"
                    i += 1
                inner = source[start : i - 1]
                found.extend(
                    Literal(item.text, line, item.marked or any(calls), item.before)
                    for item in literals(inner)
                )
                out.append(" ")
            else:
                line += source[i] == "\n"
                out.append(source[i])
                i += 1
        i += 1
        return "".join(out)

    while i < len(source):
        char = source[i]
        if source.startswith("//", i):
            i = source.index("\n", i)
        elif source.startswith("/*", i):
            end = source.index("*/", i) + 2
            line += source.count("\n", i, end)
            i = end
        elif char == "/" and previous_token() in (
            "",
            "(",
            ",",
            "=",
            ":",
            "[",
            "!",
            "&",
            "|",
            "?",
            "{",
            "}",
            ";",
        ):
            i += 1  # a regular expression: read to its closing slash
            in_class = False
            while in_class or source[i] != "/":
                if source[i] == "\\":
                    i += 1
                elif source[i] in "[]":
                    in_class = source[i] == "["
                i += 1
            i += 1
            code.append("/r/")
        elif char in "\"'`":
            before = "".join(code).rsplit("\n", 1)[-1]
            text = read_quoted(char) if char != "`" else read_template()
            found.append(Literal(text, line, any(calls), before))
            code.append('""')
        else:
            if char == "(":
                called = re.search(r"(?<![\w.$])(\w+)\s*$", "".join(code[-20:]))
                calls.append(bool(called) and called.group(1) in MESSAGE_CALLS)
            elif char == ")" and calls:
                calls.pop()
            line += char == "\n"
            code.append(char)
            i += 1
    return found


def words_for_people(literal: Literal) -> bool:
    """Whether a literal reads as words for people: two words of letters or more."""
    return bool(re.search(r"[A-Za-z]{2,}[.,:;!?]?\s+[A-Za-z]{2,}", literal.text))


@pytest.mark.parametrize("name", STUDENT_PAGES)
def test_the_student_pages_write_no_words_outside_the_catalogue(name: str) -> None:
    source = (repository_root() / STATIC / name).read_text(encoding="utf-8")
    stray = [
        f"{name}:{literal.line}: {literal.text!r}"
        for literal in literals(source)
        if not literal.marked
        and words_for_people(literal)
        and (name, literal.text) not in NOT_WORDS
        and not NOT_WORDS_BEFORE.search(literal.before)
    ]
    assert stray == [], "words for people outside t()/tn()/N_():\n" + "\n".join(stray)


def test_the_lint_finds_a_sentence_written_around_the_catalogue() -> None:
    """The scanner itself: a sentence outside a message call is found, in a
    string and in a template; one inside, a class and a comment are not."""
    source = """
        // "Not this one": a comment
        const a = t("Your move", { who: "X ann" });
        h("p", { class: "panel rooms-panel" }, "Game over now");
        const b = `Waiting for ${name} to move`;
        const c = /^a "b" c$/.test(text) ? tn("{n} game", "{n} games", n) : "";
    """
    flagged = [item.text for item in literals(source) if not item.marked and words_for_people(item)]
    classes = [item for item in literals(source) if NOT_WORDS_BEFORE.search(item.before)]
    assert flagged == ["panel rooms-panel", "Game over now", "Waiting for   to move"]
    assert [item.text for item in classes] == ["p", "panel rooms-panel"]


def student_messages(template: Catalog) -> list[str | tuple[str, ...]]:
    return [
        message.id
        for message in template
        if message.id
        and any(place.startswith(STUDENT_PLACES) for place, _line in message.locations)
    ]


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_message_of_the_student_pages_has_its_spanish_with_its_placeholders() -> None:
    template = extract_messages()
    spanish = read_catalogue("es")
    ids = student_messages(template)
    assert len(ids) > 300  # the pages, their words and the games'
    wrong = []
    for message_id in ids:
        key = message_id if isinstance(message_id, str) else message_id[0]
        translation = spanish.get(key)
        if translation is None or translation.fuzzy:
            wrong.append(f"untranslated: {key!r}")
            continue
        forms = (
            translation.string if isinstance(translation.string, tuple) else (translation.string,)
        )
        sources = message_id if isinstance(message_id, tuple) else (message_id,)
        wanted = set().union(*(placeholders(source) for source in sources)) - {"n"}
        for form in forms:
            if not form:
                wrong.append(f"untranslated: {key!r}")
            elif placeholders(form) - {"n"} != wanted:
                wrong.append(f"placeholders of {key!r}: {form!r}")
    assert wrong == []
