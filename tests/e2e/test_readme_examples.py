"""The README's scripted terminal game works as printed, whatever the AI plays."""

from __future__ import annotations

import re
from pathlib import Path

from harness import running_server
from repo_paths import REPO_ROOT
from terminal_helpers import client_process

README = (REPO_ROOT / "README.md").read_text()


def readme_piped_script() -> list[str]:
    """The lines of the README's ``printf '...' | .venv/bin/boardroom play`` example."""
    (script,) = re.findall(r"`printf '([^']*)' \| \.venv/bin/boardroom play`", README)
    return script.split("\\n")[:-1]


async def test_the_readmes_piped_game_is_played_to_its_end(db_path: Path, tmp_path: Path) -> None:
    """Three runs of the README's script against the easy AI (which takes cells at
    random): each game is played to a result, none is left held for later."""
    script = readme_piped_script()
    assert script[0] == "new tictactoe ai=easy", script
    async with running_server(db_path) as server:
        for run in range(3):
            async with client_process(
                "play", "--server", server.ws_url, "--name", f"reader{run}",
                config_home=tmp_path / str(run),
            ) as client:  # fmt: skip
                client.send(*script)
                client.close_input()
                assert await client.finish() == 0
            assert any(line.startswith("Result: ") for line in client.lines), client.transcript
            assert "is held for a while" not in client.transcript
