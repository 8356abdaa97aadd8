"""What the terminal client remembers between runs: the player's name, and the
resume token of a game left in progress.

One small JSON file, ``$XDG_CONFIG_HOME/boardroom/client.json`` (by default
``~/.config/boardroom/client.json``)::

    {"name": "ann", "resume": {"ws://127.0.0.1:8765/ws ann": "WoQQ..."}}

A token is saved only when the client quits while seated in a game in progress,
and forgotten as soon as it is used, so two clients running side by side never
take each other's session over; a token the server no longer knows is harmless
(the client starts a fresh session). A missing, unreadable or malformed file
reads as empty: remembering is a convenience and never stops the client.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def profile_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the profile lives, following the XDG base directory convention."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "boardroom" / "client.json"


class Profile:
    """The remembered settings in the file at ``path``; every change is written at once."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        # Best effort: a read-only home must not stop anyone from playing.
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
            # The token is a key to the player's seat: readable by its owner only.
            temporary.chmod(0o600)
            temporary.replace(self.path)

    @property
    def name(self) -> str | None:
        """The remembered player name, if any."""
        name = self._read().get("name")
        return name if isinstance(name, str) and name.strip() else None

    def remember_name(self, name: str) -> None:
        data = self._read()
        data["name"] = name
        self._write(data)

    def take_resume_token(self, server_url: str, name: str) -> str | None:
        """The token saved for ``name`` on ``server_url``, forgotten as it is taken."""
        data = self._read()
        tokens = data.get("resume")
        if not isinstance(tokens, dict):
            return None
        token = tokens.pop(_token_key(server_url, name), None)
        self._write(data)
        return token if isinstance(token, str) else None

    def save_resume_token(self, server_url: str, name: str, token: str) -> None:
        data = self._read()
        tokens = data.get("resume")
        if not isinstance(tokens, dict):
            tokens = data["resume"] = {}
        tokens[_token_key(server_url, name)] = token
        self._write(data)


def _token_key(server_url: str, name: str) -> str:
    return f"{server_url} {name}"
