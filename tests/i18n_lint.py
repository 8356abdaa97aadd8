"""The lint behind tests/test_catalogues.py: words for people written in the
browser's code outside the catalogue.

- :func:`literals` reads a JavaScript module's string and template literals (a
  small scanner of its strings, comments and regular expressions: no JavaScript
  parser is a dependency), each with whether a ``t``/``tn``/``N_`` call holds it
  and the code just before it;
- :func:`words_for_people` says whether a literal reads as words (two words of
  letters or more);
- :class:`UnmarkedText` finds the text of an HTML page outside the elements
  marked ``data-i18n``, which ``i18n.js`` cannot translate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

MESSAGE_CALLS = ("t", "tn", "N_")

NOT_WORDS_BEFORE = re.compile(
    r"(\b(class|className|role|type|name|id|for|rel|autocomplete|kind|key|status)\s*[:=]\s*"
    r"([^,;{}()]*\?\s*|[^,;{}()]*:\s*)?"
    r"|\b(querySelector|querySelectorAll|closest|classList\.\w+|getElementById|matches)(\?\.)?\(\s*"
    r"|\bh\(\s*)$"
)
"""What, just before a literal, says it holds no words for people: an attribute
that names a CSS class, a role or a type (a ternary's branches included); a
selector; an element's tag."""


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
                called = re.search(r"(?<![\w$])(\w+)\s*$", "".join(code[-20:]))
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


class UnmarkedText(HTMLParser):
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
