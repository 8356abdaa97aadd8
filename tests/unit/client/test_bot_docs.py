"""docs/bots.md stays in step with the code: its examples are the real files, its
class example is a working bot, and it documents every flag of ``boardroom bot``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT
from room_states import room_in_play

from boardroom.client.bots.loader import load_script
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.bots.state import game_state
from boardroom.client.cli import build_parser

GUIDE = (REPO_ROOT / "docs" / "bots.md").read_text()


def code_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE, flags=re.DOTALL)


def test_the_guides_python_bot_is_examples_random_bot_py() -> None:
    assert code_blocks("python")[0] == (REPO_ROOT / "examples" / "random_bot.py").read_text()


@pytest.mark.parametrize(
    ("language", "example"), [("bash", "random_bot.sh"), ("js", "random_bot.js")]
)
def test_the_guides_other_languages_are_quoted_from_the_examples(
    language: str, example: str
) -> None:
    (block,) = code_blocks(language)
    source = (REPO_ROOT / "examples" / example).read_text()
    for line in block.splitlines():
        assert line in source.splitlines(), line


async def test_the_guides_bot_class_is_a_working_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    (block,) = [block for block in code_blocks("python") if "class Patient(Bot)" in block]
    path = tmp_path / "patient.py"
    path.write_text(block)
    brain = ScriptBrains(load_script(path), hook_timeout=5).new_brain("game")
    state = game_state(room_in_play())
    await brain.start(state)
    assert await brain.choose(state, timeout=5, time_ms=5000) == "b2"
    assert await brain.choose(state, timeout=5, time_ms=5000) == "a1"


def test_the_guide_documents_every_flag() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    bot = subparsers.choices["bot"]  # type: ignore[index]
    flags = [option for action in bot._actions for option in action.option_strings]
    for flag in flags:
        if flag.startswith("--") and flag != "--help":
            assert f"`{flag}" in GUIDE, flag
