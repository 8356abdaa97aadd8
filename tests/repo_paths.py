"""Where the repository is, for tests that read its files (docs, examples, data).

The tests live in folders that mirror the packages (tests/shared, tests/server/core,
tests/e2e, ...), so a test's own path says little about where the repository's root
is; this module says it once.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The repository's root folder: the one holding README.md and pyproject.toml."""
