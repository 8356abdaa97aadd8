"""The ``boardroom`` command loads only the subcommand it runs (client/cli.py):
``serve``'s module brings in the whole server, which ``play`` or ``bot`` never
use. Each case runs a fresh interpreter, whose imported modules are the proof."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from boardroom.client.cli import command_in_arguments


@pytest.mark.parametrize(
    ("arguments", "command"),
    [
        (["play", "--local"], "play"),
        (["--lang", "es", "bot", "--help"], "bot"),
        (["--lang=es", "watch"], "watch"),
        (["--help"], None),
        ([], None),
    ],
)
def test_the_command_is_the_first_word_that_is_not_an_option(
    arguments: list[str], command: str | None
) -> None:
    assert command_in_arguments(arguments) == command


def modules_loaded_by(arguments: list[str]) -> tuple[set[str], str]:
    """The ``boardroom`` modules a fresh ``boardroom ARGUMENTS`` imported, and
    what it printed, run through ``main`` (which exits after argparse's help)."""
    script = (
        "import json, sys\n"
        "from boardroom.client.cli import main\n"
        "try:\n"
        f"    main({arguments!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('boardroom.'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    *printed, modules = done.stdout.strip().splitlines()
    return set(json.loads(modules)), "\n".join(printed)


def test_play_s_help_does_not_load_the_server() -> None:
    modules, printed = modules_loaded_by(["play", "--help"])
    assert "boardroom.client.commands.play" in modules
    assert not any(m.startswith("boardroom.server") for m in modules), sorted(modules)
    assert "--local" in printed


def test_the_top_level_help_lists_every_command() -> None:
    modules, printed = modules_loaded_by(["--help"])
    assert "boardroom.server.cli" in modules  # serve's module, to list serve
    for command in ("serve", "play", "bot", "match", "bench", "loadtest"):
        assert command in printed, (command, printed)


def test_a_mistyped_command_is_answered_with_every_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "boardroom.client.cli", "plya"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "plya" in done.stderr and "serve" in done.stderr and "play" in done.stderr
