"""The messages of the browser's HTML pages: text marked with ``data-i18n``.

A page's fixed words stay in its HTML, in English, so the page reads right
before any script runs; the element that holds them is marked, and ``i18n.js``
puts the translation in place::

    <h2 data-i18n>Play a game</h2>
    <input data-i18n-attrs="placeholder title" placeholder="Your name" title="...">

The message of a ``data-i18n`` element is its text with runs of white space made
one space (what ``i18n.js`` reads as ``textContent``, normalised the same way);
``data-i18n-attrs`` names attributes whose values are messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

_VOID_ELEMENTS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)


def normalise(text: str) -> str:
    """``text`` as a message: trimmed, each run of white space one space."""
    return " ".join(text.split())


def html_messages(source: str) -> Iterator[tuple[int, str]]:
    """Each message of an HTML page, with its line: ``(line, message)``, in order."""
    parser = _MarkedText()
    parser.feed(source)
    parser.close()
    yield from sorted(parser.found)


class _MarkedText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        # One entry per open element: the text gathered for it if it is marked, else None.
        self._open: list[tuple[str, int, list[str] | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attrs") or "").split():
            if values.get(name):
                self.found.append((line, normalise(values[name] or "")))
        if tag in _VOID_ELEMENTS:
            return
        self._open.append((tag, line, [] if "data-i18n" in values else None))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            open_tag, line, text = self._open.pop()
            if text is not None and normalise("".join(text)):
                self.found.append((line, normalise("".join(text))))
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        for _tag, _line, text in self._open:
            if text is not None:
                text.append(data)
