"""The Spanish docs stay in step with the English ones, and their links lead somewhere.

A *twin* is a page of ``docs/es/`` with the name of a page of ``docs/``
(``docs/es/classroom.md`` and ``docs/classroom.md``): the same page, translated.
Twins must have

- the same sections: their headings, one to one, at the same levels and in the
  same order (the text is translated, so it is not compared);
- the same code blocks in the same order, with the same info string; in a shell
  block every line is the same once comments are left out (commands, flags,
  codes and the API's replies are never translated; comments are). Other blocks
  (a program's output, printed in the reader's language) are compared by
  their place only;
- the same screenshots in the same order, by file name (the Spanish page may
  show the English screenshot until its Spanish twin exists).

Each check fails naming the first divergence, with both pages' line numbers,
so whoever changes one guide knows where the other needs the same change.
Every relative link and image in ``docs/es/*.md`` must lead to a file that
exists. The checks are tested themselves on small pages that diverge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

DOCS = REPO_ROOT / "docs"
SPANISH = DOCS / "es"

SHELL_INFO = frozenset({"sh", "shell", "bash", "console"})
"""Info strings of the blocks whose every line is a command or the API's reply."""

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s+(?P<target>\S+)")
_IMAGE = re.compile(r"!\[[^\]]*\]\((?P<target>[^)\s]+)")
_INLINE_CODE = re.compile(r"`[^`]*`")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class CodeBlock:
    info: str
    lines: tuple[str, ...]
    line: int
    """The line of its opening fence (1-based)."""


@dataclass(frozen=True)
class Page:
    """What of a Markdown page is compared: its headings, code blocks, images and links."""

    headings: tuple[Heading, ...]
    blocks: tuple[CodeBlock, ...]
    images: tuple[tuple[str, int], ...]
    """Each image's file name and line, in order."""
    links: tuple[tuple[str, int], ...]
    """Each link's or image's target and line, outside code."""


def parse(text: str) -> Page:
    """Split a Markdown page into headings, fenced code blocks, images and links.

    Headings and links inside a code block are code, not structure; inline code
    spans are left out of the links.
    """
    headings: list[Heading] = []
    blocks: list[CodeBlock] = []
    images: list[tuple[str, int]] = []
    links: list[tuple[str, int]] = []
    fence: tuple[str, str, str, int] | None = None  # (indent, fence, info, line)
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _FENCE.match(line)
        if fence is not None:
            indent, marker, info, opened = fence
            if match and match["fence"].startswith(marker) and not match["info"].strip():
                blocks.append(CodeBlock(info, tuple(body), opened))
                fence, body = None, []
            else:
                body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            continue
        if match:
            fence = (match["indent"], match["fence"], match["info"].strip(), number)
            continue
        heading = _HEADING.match(line)
        if heading:
            headings.append(Heading(len(heading["hashes"]), heading["text"], number))
        prose = _INLINE_CODE.sub("", line)
        images.extend((Path(m["target"]).name, number) for m in _IMAGE.finditer(prose))
        links.extend((m["target"], number) for m in _LINK.finditer(prose))
        links.extend((m["target"], number) for m in _REFERENCE.finditer(prose))
    if fence is not None:
        raise ValueError(f"line {fence[3]}: a code block is never closed")
    return Page(tuple(headings), tuple(blocks), tuple(images), tuple(links))


def without_comment(line: str) -> str:
    """A shell line without its comment: a ``#`` at the start or after a blank,
    outside quotes (``/teacher#token=…`` is no comment), to the end of the line."""
    quote, escaped = "", False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip()
    return line.rstrip()


def commands(block: CodeBlock) -> tuple[str, ...]:
    """A shell block's lines as compared: comments and blank lines left out."""
    kept = (without_comment(line) for line in block.lines)
    return tuple(line for line in kept if line.strip())


def divergence(english: Page, spanish: Page) -> str | None:
    """The first place where a twin differs from its English page, in words, or None."""
    for index, (source, twin) in enumerate(zip(english.headings, spanish.headings, strict=False)):
        if source.level != twin.level:
            return (
                f"heading {index + 1}: level {twin.level} at line {twin.line} ({twin.text!r}), "
                f"level {source.level} in English at line {source.line} ({source.text!r})"
            )
    if len(english.headings) != len(spanish.headings):
        shorter, longer, name = (
            (spanish, english, "English")
            if len(spanish.headings) < len(english.headings)
            else (english, spanish, "Spanish")
        )
        extra = longer.headings[len(shorter.headings)]
        return (
            f"{len(spanish.headings)} headings, {len(english.headings)} in English: the first "
            f"unmatched is the {name} one at line {extra.line} ({'#' * extra.level} {extra.text})"
        )
    for index, (source_block, twin_block) in enumerate(
        zip(english.blocks, spanish.blocks, strict=False)
    ):
        where = (
            f"code block {index + 1} (line {twin_block.line}, line {source_block.line} in English)"
        )
        if source_block.info != twin_block.info:
            return f"{where}: info string {twin_block.info!r}, {source_block.info!r} in English"
        if source_block.info in SHELL_INFO:
            source_lines, twin_lines = commands(source_block), commands(twin_block)
            for source_line, twin_line in zip(source_lines, twin_lines, strict=False):
                if source_line != twin_line:
                    return f"{where}: `{twin_line}`, `{source_line}` in English"
            if len(source_lines) != len(twin_lines):
                return f"{where}: {len(twin_lines)} command lines, {len(source_lines)} in English"
    if len(english.blocks) != len(spanish.blocks):
        return f"{len(spanish.blocks)} code blocks, {len(english.blocks)} in English"
    for index, ((source_image, source_line), (twin_image, twin_line)) in enumerate(
        zip(english.images, spanish.images, strict=False)
    ):
        if source_image != twin_image:
            return (
                f"image {index + 1}: {twin_image} at line {twin_line}, "
                f"{source_image} in English at line {source_line}"
            )
    if len(english.images) != len(spanish.images):
        return f"{len(spanish.images)} images, {len(english.images)} in English"
    return None


def broken_links(page: Page, folder: Path) -> list[str]:
    """The relative links of a page (in ``folder``) that lead to no file, with their lines."""
    broken = []
    for target, line in page.links:
        if _SCHEME.match(target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not (folder / path).exists():
            broken.append(f"line {line}: {target}")
    return broken


def twins() -> list[tuple[Path, Path]]:
    """Each Spanish page and the English page it translates (same name in docs/)."""
    return [
        (page, DOCS / page.name)
        for page in sorted(SPANISH.glob("*.md"))
        if (DOCS / page.name).is_file()
    ]


def test_the_teachers_guide_has_a_spanish_twin() -> None:
    assert (SPANISH / "classroom.md", DOCS / "classroom.md") in twins()


@pytest.mark.parametrize(
    ("spanish", "english"), twins(), ids=lambda path: str(path.relative_to(REPO_ROOT))
)
def test_a_twin_has_the_english_pages_sections_commands_and_images(
    spanish: Path, english: Path
) -> None:
    found = divergence(parse(english.read_text("utf-8")), parse(spanish.read_text("utf-8")))
    assert found is None, (
        f"{spanish.relative_to(REPO_ROOT)} differs from {english.relative_to(REPO_ROOT)}: {found}"
    )


@pytest.mark.parametrize("page", sorted(SPANISH.glob("*.md")), ids=lambda path: path.name)
def test_every_relative_link_of_a_spanish_page_leads_to_a_file(page: Path) -> None:
    parsed = parse(page.read_text("utf-8"))
    assert parsed.links, f"{page.name} links nowhere: is the link pattern still right?"
    assert broken_links(parsed, page.parent) == []


# The checks themselves, on small pages.

ENGLISH = """# Guide

Intro, see [web](web.md).

## Before

```sh
make run ARGS='--class "7B"'  # start
```

![The wall](images/wall.png)

### Small

```
Boardroom is serving on port 8765.
```

## After
"""


def test_a_faithful_twin_passes() -> None:
    spanish = (
        ENGLISH.replace("# Guide", "# Guía")
        .replace("## Before", "## Antes")
        .replace("# start", "# arranca")
        .replace("Boardroom is serving", "Boardroom funciona")
        .replace("](images/wall.png)", "](../images/wall.png) <!-- es-image: wall.png -->")
    )
    assert divergence(parse(ENGLISH), parse(spanish)) is None


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("### Small", "## Small"), "heading 3: level 2 at line 13"),
        (
            ("## After\n", ""),
            "3 headings, 4 in English: the first unmatched is the English one at line 19",
        ),
        (
            ("## After\n", "## After\n\n## More\n"),
            "5 headings, 4 in English: the first unmatched is the Spanish one",
        ),
        (
            ('--class "7B"', '--clase "7B"'),
            "code block 1 (line 7, line 7 in English): `make run ARGS='--clase \"7B\"'`, `make run",
        ),
        (("```sh", "```bash"), "code block 1 (line 7, line 7 in English): info string 'bash'"),
        (
            ("```\nBoardroom", "```text\nBoardroom"),
            "code block 2 (line 15, line 15 in English): info string 'text'",
        ),
        (
            ("![The wall](images/wall.png)", "![El mural](images/teacher.png)"),
            "image 1: teacher.png at line 11",
        ),
        (("![The wall](images/wall.png)", ""), "0 images, 1 in English"),
    ],
)
def test_a_diverging_twin_is_named_where_it_diverges(
    change: tuple[str, str], expected: str
) -> None:
    spanish = ENGLISH.replace(*change)
    assert spanish != ENGLISH
    found = divergence(parse(ENGLISH), parse(spanish))
    assert found is not None
    assert found.startswith(expected), found


def test_a_command_line_added_or_dropped_is_a_divergence() -> None:
    added = ENGLISH.replace("# start\n", "# start\ncurl http://HOST:8765/api/games\n")
    assert divergence(parse(ENGLISH), parse(added)) == (
        "code block 1 (line 7, line 7 in English): 2 command lines, 1 in English"
    )


def test_a_heading_in_a_code_block_is_not_a_section() -> None:
    page = parse("# Title\n\n```sh\n# a comment, not a heading\n```\n")
    assert [heading.text for heading in page.headings] == ["Title"]


def test_a_comment_is_left_out_but_a_hash_in_a_word_or_quotes_is_kept() -> None:
    assert (
        without_comment("open http://h/teacher#token=abc   # the teacher's page")
        == "open http://h/teacher#token=abc"
    )
    assert without_comment("echo '# not a comment' # comment") == "echo '# not a comment'"
    assert without_comment("# only a comment") == ""


def test_a_missing_file_is_a_broken_link_and_a_web_address_or_an_anchor_is_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "there.md").write_text("x", "utf-8")
    page = parse(
        "[a](there.md) [b](there.md#part) [c](missing.md) ![d](images/gone.png)\n"
        "[e](https://example.org/) [f](#section) `[g](not-a-link.md)`\n"
    )
    assert broken_links(page, tmp_path) == ["line 1: missing.md", "line 1: images/gone.png"]
