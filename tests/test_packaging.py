"""The installed distribution claims one top-level import name, ``boardroom``.

A bot author whose project has a ``client/`` folder or a ``server.py`` gets their
own module, not ours: from a folder outside the repository, ``server``,
``client`` and ``shared`` are not importable, and every command's entry point
names a module under ``boardroom``.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest

CHECK = """
import importlib.util, sys
for name in ("server", "client", "shared"):
    if importlib.util.find_spec(name) is not None:
        sys.exit(f"{name} is importable")
import boardroom.server, boardroom.client.bots, boardroom.shared
"""


@pytest.mark.parametrize("folder", ["empty", "with_a_client"])
def test_only_boardroom_is_importable_from_outside_the_repository(
    tmp_path: Path, folder: str
) -> None:
    if folder == "with_a_client":
        (tmp_path / "client.py").write_text("MINE = True\n")
        check = CHECK.replace('"client", ', "") + "import client; assert client.MINE\n"
    else:
        check = CHECK
    result = subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_entry_point_names_a_module_under_boardroom() -> None:
    points = [
        p
        for p in distribution("boardroom").entry_points
        if p.group in ("console_scripts", "boardroom.commands")
    ]
    assert points
    assert all(p.value.startswith("boardroom.") for p in points), points


def test_the_bot_sdk_and_the_terminal_client_load_no_bench_or_load_test_code() -> None:
    """What a player or a bot author runs stays apart from the benchmark and
    load-test tooling (README.md, "What gets installed")."""
    check = (
        "import sys\n"
        "import boardroom.client.bots, boardroom.client.session, boardroom.client.terminal.app\n"
        "import boardroom.client.commands.bot, boardroom.client.commands.play\n"
        "tools = ('boardroom.client.bench', 'boardroom.client.loadtest')\n"
        "print(sorted(name for name in sys.modules if name.startswith(tools)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout
