"""Finding every message in the code: what ``python -m boardroom.shared.i18n.update``
and the catalogue tests read.

Three kinds of source, one catalogue (the browser's messages are the ones whose
places end in ``.js`` or ``.html``, see ``catalogue.browser_catalogue``):

- Python under ``server/``, ``client/`` and ``shared/``: ``_("...")``,
  ``ngettext("...", "...", n)`` and ``N_("...")`` (Babel's Python extractor);
- the browser's modules, ``server/web/static/*.js``: ``t("...")``,
  ``tn("...", "...", n)`` and ``N_("...")`` (Babel's JavaScript extractor);
- the browser's pages, ``server/web/static/*.html``: elements marked
  ``data-i18n`` (:mod:`~boardroom.shared.i18n.html_messages`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract

from boardroom.shared.i18n.html_messages import html_messages

PYTHON_FOLDERS: Final = ("server", "client", "shared")
BROWSER_FOLDER: Final = "server/web/static"
PYTHON_KEYWORDS: Final = {"_": None, "ngettext": (1, 2), "N_": None}
JAVASCRIPT_KEYWORDS: Final = {"t": None, "tn": (1, 2), "N_": None}


def repository_root() -> Path:
    """The source tree this module sits in (``shared/i18n/`` is two folders down).

    Raises ``FileNotFoundError`` when it is not a source tree (an installed wheel):
    extraction reads the repository's code."""
    root = Path(__file__).resolve().parents[2]
    if not all((root / folder).is_dir() for folder in PYTHON_FOLDERS):
        raise FileNotFoundError(f"{root} is not Boardroom's source tree")
    return root


def source_files(root: Path) -> Iterator[tuple[str, Path]]:
    """Each file that may hold messages, with its kind (python, javascript, html),
    in a fixed order."""
    for folder in PYTHON_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            yield "python", path
    static = root / BROWSER_FOLDER
    for path in sorted(static.glob("*.js")):
        yield "javascript", path
    for path in sorted(static.glob("*.html")):
        yield "html", path


def extract_messages(root: Path | None = None) -> Catalog:
    """Every message in the code under ``root`` (default: this source tree), as a
    template catalogue: each with the places it is used (``path:line``, the path
    relative to ``root``)."""
    root = repository_root() if root is None else root
    template = Catalog(domain="boardroom", project="Boardroom", fuzzy=False)
    for kind, path in source_files(root):
        place = path.relative_to(root).as_posix()
        for line, message in _messages_of(kind, path):
            existing = template.get(message)
            if existing is not None:
                existing.locations.append((place, line))
            else:
                template.add(message, locations=[(place, line)])
    return template


def _messages_of(kind: str, path: Path) -> Iterator[tuple[int, str | tuple[str, ...]]]:
    if kind == "html":
        yield from html_messages(path.read_text(encoding="utf-8"))
        return
    keywords = PYTHON_KEYWORDS if kind == "python" else JAVASCRIPT_KEYWORDS
    with path.open("rb") as source:
        for line, message, _comments, _context in extract(kind, source, keywords=keywords):
            yield line, message
