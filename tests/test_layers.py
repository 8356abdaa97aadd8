"""The layers hold: the import contracts in ``pyproject.toml`` are kept.

``shared`` imports neither ``server`` nor ``client``; ``client`` never imports
``server``; ``boardroom.server.core`` imports nothing of the server outside the core and
never ``asyncio``, ``aiohttp``, ``sqlite3`` or ``time`` (docs/architecture.md);
the parts of ``boardroom.server.store`` build on its base and never on each other; and no
two modules of a package import each other, however round about.
import-linter checks them on the real import graph; the second test breaks a
copy of the tree on purpose to show that the check can fail.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

PACKAGES = ("shared", "server", "client")

# Runs import-linter on the installed packages (the editable install: this tree),
# or, in a copy of the tree laid out as installed (boardroom/server, ...), on the
# copy: the editable install's finder would otherwise win over sys.path.
LINT_HERE = """
import sys
from pathlib import Path
if Path("boardroom").is_dir():  # a copy of the tree: its boardroom/ folder, not the install's
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f)]
    sys.path.insert(0, ".")
from importlinter.cli import lint_imports
sys.exit(lint_imports(config_filename="pyproject.toml", no_cache=True, no_logo=True))
"""


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LINT_HERE],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_tree_keeps_every_layer_contract() -> None:
    result = lint(REPO_ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("shared/games/base.py", "import boardroom.server.hub", "shared imports neither"),
        ("client/session.py", "import boardroom.server.core.room", "the client never imports"),
        (
            "server/core/clock.py",
            "import boardroom.server.hub",
            "imports nothing of the server outside",
        ),
        ("server/core/room.py", "import time", "server.core does no I/O"),
        ("server/core/lobby.py", "import sqlite3", "server.core does no I/O"),
        (
            "server/store/tournaments.py",
            "import boardroom.server.store.classroom",
            "server.store: each",
        ),
        (
            "server/store/sqlite/schema.py",
            "import boardroom.server.store.sqlite.games",
            "store.sqlite",
        ),
        (
            "server/store/postgres/base.py",
            "import boardroom.server.store.postgres.games",
            "postgres: each",
        ),
        (
            "server/store/postgres/base.py",
            "import boardroom.server.store.sqlite.base",
            "server.store: each",
        ),
        # A feature reading the app back (the app imports the features), and class
        # mode's tournaments read by the pure tournaments package (the export reads it).
        ("server/classroom/roster.py", "import boardroom.server.app", "no import cycles between"),
        (
            "server/tournaments/spec.py",
            "import boardroom.server.classroom.roster",
            "no import cycles",
        ),
        # An adapter reaching up into a feature, and a feature into the app's routes.
        (
            "server/hub/dispatch.py",
            "import boardroom.server.classroom.teacher",
            "server: entry points, app",
        ),
        # The rooms under the hub's jobs reaching up into one of them.
        ("server/hub/rooms.py", "import boardroom.server.hub.dispatch", "server.hub: one face"),
        (
            "server/ratings/service.py",
            "import boardroom.server.web.routes",
            "server: entry points, app",
        ),
        (
            "server/store/base.py",
            "import boardroom.server.engine_pool",
            "server: entry points, app",
        ),
    ],
)
def test_an_import_across_a_layer_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    for package in PACKAGES:
        shutil.copytree(
            REPO_ROOT / package,
            tmp_path / "boardroom" / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    broken = tmp_path / "boardroom" / module
    broken.write_text(broken.read_text() + f"\n{line}  # noqa\n")

    result = lint(tmp_path)

    assert result.returncode == 1, result.stdout + result.stderr
    assert contract in result.stdout
    assert "BROKEN" in result.stdout.split(contract, 1)[1].splitlines()[0]
