"""What the terminal client remembers between runs: the player's name, the
player token of each server (who the player is there), the seat of a game
under way (the session's resume token and the room), and the player's last game
on each server (for ``boardroom review`` without an id).

One small JSON file, ``$XDG_CONFIG_HOME/boardroom/client.json`` (by default
``~/.config/boardroom/client.json``)::

    {"name": "ann",
     "players": {"ws://127.0.0.1:8765/ws": "bp_3k9X..."},
     "resume": {"ws://127.0.0.1:8765/ws": {"token": "WoQQ...", "room": "C9FVBQ"}},
     "games": {"ws://127.0.0.1:8765/ws": 12}}

The player token is the one the server minted on the first ``hello`` from this
profile (``welcome.player_token``); presented on every later ``hello`` to that
server, it makes every run the same player there, whatever the name. It is a
secret for good (unlike a resume token, it does not expire), which is why the
file is readable by its owner only. Servers are told apart by their WebSocket
URL as :func:`boardroom.client.session.normalize_server_url` spells it.

The seat and the last game are the player's, so they are kept per server, like
the player token, not per name: a run under another name (``--name dana``
after a game left as ``dora``) is the same player, and takes the seat back.
A seat is saved as soon as it is taken and forgotten once the player is seated
nowhere (see :mod:`boardroom.client.terminal.seat_keeper`), so that a client killed in a
game (SIGKILL, a closed terminal) takes it back on its next run. It belongs to
one running client at a time: :meth:`Profile.claim_seat` locks it for the life
of the process, and the OS lets the lock go however the process ends, so a
second client started from the same profile on the same server neither takes
the first one's session over nor overwrites its seat. A token the server no
longer knows is harmless (the client starts a fresh session). A missing,
unreadable or malformed file reads as empty: remembering is a convenience and
never stops the client.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no flock; two clients with one name then share the seat
    fcntl = None  # type: ignore[assignment]


def profile_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the profile lives, following the XDG base directory convention."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "boardroom" / "client.json"


@dataclass(frozen=True)
class SavedSeat:
    """A seat to take back: the session's resume token, and the room it is in
    (None in a profile written before rooms were saved)."""

    token: str
    room: str | None = None


class SeatClaim:
    """This process's hold on the saved seat of one name on one server: an
    exclusive ``flock`` on a lock file beside the profile, kept until
    :meth:`release` or the end of the process (however it ends)."""

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    def release(self) -> None:
        """Let the seat go to the next client (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


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
            # One temporary file per process: two clients saving at once must not
            # rename each other's half-written file into place.
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            # The tokens are keys to the player and its seat: readable by its owner
            # only, from the moment the file exists (not chmod after writing).
            # (A leftover temporary file would keep its old mode: start afresh.)
            temporary.unlink(missing_ok=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with open(fd, "w", encoding="utf-8") as file:
                file.write(json.dumps(data, indent=2) + "\n")
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

    def player_token(self, server_url: str) -> str | None:
        """The player token kept for the server at ``server_url``, if any."""
        tokens = self._read().get("players")
        token = tokens.get(server_url) if isinstance(tokens, dict) else None
        return token if isinstance(token, str) and token else None

    def remember_player_token(self, server_url: str, token: str) -> None:
        """Keep ``token`` as the player on ``server_url`` (replacing any other)."""
        data = self._read()
        tokens = data.get("players")
        if not isinstance(tokens, dict):
            tokens = data["players"] = {}
        tokens[server_url] = token
        self._write(data)

    def forget_player_token(self, server_url: str) -> None:
        """Forget the player on ``server_url``: the next run there is a new player."""
        data = self._read()
        tokens = data.get("players")
        if isinstance(tokens, dict) and tokens.pop(server_url, None) is not None:
            self._write(data)

    def claim_seat(self, server_url: str) -> SeatClaim | None:
        """Hold the seat saved for the player on ``server_url`` (see the module
        docstring); None if another running client holds it. Without ``flock``
        (Windows) or a writable profile directory, every claim succeeds."""
        if fcntl is None:
            return SeatClaim(None)
        digest = hashlib.sha256(server_url.encode()).hexdigest()[:16]
        lock_path = self.path.parent / f"seat-{digest}.lock"
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return SeatClaim(None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return SeatClaim(fd)

    def saved_seat(self, server_url: str) -> SavedSeat | None:
        """The seat saved for the player on ``server_url``, if any (it stays saved).
        A seat an earlier version saved under a name (``"URL NAME"``) is the
        player's too: the profile has one player per server."""
        seats = self._read().get("resume")
        if not isinstance(seats, dict):
            return None
        for key in _seat_keys(seats, server_url):
            seat = _seat_of(seats[key])
            if seat is not None:
                return seat
        return None

    def save_seat(self, server_url: str, seat: SavedSeat) -> None:
        data = self._read()
        seats = data.get("resume")
        if not isinstance(seats, dict):
            seats = data["resume"] = {}
        for key in _seat_keys(seats, server_url):
            del seats[key]  # one seat per server: an earlier version's goes
        seats[server_url] = {"token": seat.token, "room": seat.room}
        self._write(data)

    def forget_seat(self, server_url: str) -> None:
        data = self._read()
        seats = data.get("resume")
        if not isinstance(seats, dict):
            return
        keys = _seat_keys(seats, server_url)
        for key in keys:
            del seats[key]
        if keys:
            self._write(data)

    def last_game(self, server_url: str) -> int | None:
        """The id of the player's last game on ``server_url``, if one is known."""
        games = self._read().get("games")
        game_id = games.get(server_url) if isinstance(games, dict) else None
        valid = isinstance(game_id, int) and not isinstance(game_id, bool) and game_id > 0
        return game_id if valid else None

    def remember_last_game(self, server_url: str, game_id: int) -> None:
        """Keep ``game_id`` as the player's last game on ``server_url``."""
        data = self._read()
        games = data.get("games")
        if not isinstance(games, dict):
            games = data["games"] = {}
        if games.get(server_url) != game_id:
            games[server_url] = game_id
            self._write(data)


def _seat_keys(seats: dict[str, Any], server_url: str) -> list[str]:
    """The keys in ``seats`` of the seat on ``server_url``: the URL, and the
    ``"URL NAME"`` keys of earlier versions (a URL has no space)."""
    return [key for key in seats if key == server_url or key.startswith(server_url + " ")]


def _seat_of(saved: object) -> SavedSeat | None:
    if isinstance(saved, str):  # the form of earlier versions: the token alone
        return SavedSeat(saved)
    if isinstance(saved, dict) and isinstance(saved.get("token"), str):
        room = saved.get("room")
        return SavedSeat(saved["token"], room if isinstance(room, str) else None)
    return None
