"""Who may read a game record at ``GET /api/games/{id}``.

- A **public** room's games are public from the start: anyone may follow them.
- A **private** room's game is secret while it is in progress (waiting or
  playing): its record opens to the room's join code or watch code (the codes
  that let someone watch it, given as ``?code=``) and, in class mode, to the
  teacher's token, and to nobody else. Ids count up from 1, so anyone can
  step through them: without a code the server answers as it does for an id
  that names no game, and nobody learns that the game exists.
- Once **finished**, every game is public (the codes themselves are never
  exported: :data:`boardroom.server.core.records.PRIVATE_OPTIONS`).

The room code alone opens nothing: a private room's spectators see it, and the
tournament pages list it.
"""

from __future__ import annotations

import hmac

from boardroom.server.core.lobby import normalise_code
from boardroom.server.core.records import GameRecord, GameState

__all__ = ["may_read"]


def may_read(record: GameRecord, *, code: str | None = None, teacher: bool = False) -> bool:
    """True if someone who gives ``code`` (None: no code) may read ``record``;
    ``teacher`` says they showed the teacher's token.

    A record without ``"public"`` in its options counts as public, as
    :func:`boardroom.server.recorder.options_from_json` reads it.
    """
    if teacher or record.state is GameState.FINISHED:
        return True
    if record.options.get("public", True) is True:
        return True
    return code is not None and _opens(record, normalise_code(code))


def _opens(record: GameRecord, code: str) -> bool:
    given = code.encode("utf-8", "surrogatepass")  # any str: a query is the client's text
    opened = False
    for key in ("join_code", "watch_code"):
        secret = record.options.get(key)
        if isinstance(secret, str):
            # Both codes compared, each in constant time: how long a refusal
            # takes says nothing about how much of a guess was right.
            opened |= hmac.compare_digest(given, secret.encode())
    return opened
