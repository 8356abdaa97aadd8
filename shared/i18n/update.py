"""Bring every catalogue up to date with the code: ``python -m boardroom.shared.i18n.update``.

Extracts the messages (:mod:`~boardroom.shared.i18n.extraction`), then for each
language but the source: keeps every translation whose message is still used,
adds the new messages untranslated, drops the ones no longer used, and writes
``locale/CODE/LC_MESSAGES/boardroom.po``. Prints what each catalogue lacks.

``--check`` writes nothing and exits 1 when a catalogue is not up to date or
lacks a translation (what the tests hold).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from boardroom.shared.i18n.catalogue import DOMAIN
from boardroom.shared.i18n.extraction import extract_messages, repository_root
from boardroom.shared.i18n.languages import LANGUAGES, SOURCE_LANGUAGE


def updated_catalogue(template: Catalog, path: Path, language: str) -> Catalog:
    """``path``'s catalogue (a new one if missing) brought up to ``template``."""
    if path.exists():
        with path.open("rb") as source:
            catalogue = read_po(source, locale=language, domain=DOMAIN)
    else:
        catalogue = Catalog(locale=language, domain=DOMAIN, project="Boardroom", fuzzy=False)
    created = catalogue.creation_date
    catalogue.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalogue.obsolete.clear()
    # Babel's update takes the template's date, which is "now": keep the file's,
    # so that a run that changes no message changes no byte.
    catalogue.creation_date = catalogue.revision_date = created
    catalogue.last_translator = catalogue.language_team = "Boardroom"
    catalogue.msgid_bugs_address = ""
    return catalogue


def rendered(catalogue: Catalog) -> bytes:
    """The ``.po`` text of ``catalogue``: places without line numbers (so moving
    code does not touch the file), no dates that change each run."""
    out = io.BytesIO()
    write_po(
        out, catalogue, width=100, omit_header=False, include_lineno=False, ignore_obsolete=True
    )
    return out.getvalue()


def missing_translations(catalogue: Catalog) -> list[str]:
    """The messages of ``catalogue`` with no (or a fuzzy, or an incomplete) translation."""
    missing = []
    for message in catalogue:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(forms):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if out of date")
    args = parser.parse_args(argv)
    root = repository_root()
    template = extract_messages(root)
    status = 0
    for language in LANGUAGES:
        if language.code == SOURCE_LANGUAGE:
            continue
        path = root / "shared" / "i18n" / "locale" / language.code / "LC_MESSAGES" / f"{DOMAIN}.po"
        text = rendered(updated_catalogue(template, path, language.code))
        missing = missing_translations(read_po(io.BytesIO(text), locale=language.code))
        stale = not path.exists() or path.read_bytes() != text
        if args.check:
            status |= int(stale or bool(missing))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
        state = "out of date" if stale and args.check else "up to date"
        print(f"{language.code}: {len(template)} messages, {len(missing)} untranslated, {state}")
        for message in missing[:20]:
            print(f"  untranslated: {message!r}")
    return status


if __name__ == "__main__":
    sys.exit(main())
