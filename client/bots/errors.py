"""Errors of the bot SDK.

::

    ClientError (boardroom.client.errors)
    └── BotError
        ├── BotLoadError (also ValueError)   the script, command or level cannot be used
        ├── ProtocolMismatchError (also ValueError)  a game a foreign bot's protocol
        │                                    cannot describe (Gomocup and Connect Four)
        └── BotFailedError                   the bot failed in a game: it crashed, hung,
                                             answered garbage or raised

A :class:`BotLoadError` is the user's to fix before anything runs (the command
exits with status 2); a :class:`BotFailedError` ends the bot's part in one game (it
resigns), is reported, and the next game starts with a fresh bot.
"""

from __future__ import annotations

import enum

from boardroom.client.errors import ClientError


class BotError(ClientError):
    """Root of the errors of :mod:`boardroom.client.bots`."""


class BotLoadError(BotError, ValueError):
    """A bot that cannot be used at all: a missing file, no ``choose_move``, a
    command that does not exist, an unknown level. The message says what to fix."""


class ProtocolMismatchError(BotError, ValueError):
    """A game that a bot's own protocol (Piskvork's, Kaggle's ConnectX) cannot
    describe; the message says why, in words."""


class FailureKind(enum.Enum):
    """How a bot failed a game."""

    CRASHED = "crashed"
    """The program exited (or closed its output) before answering."""
    HUNG = "hung"
    """No answer within the time allowed."""
    REFUSED = "refused"
    """Its move was refused by the server (garbage or illegal)."""
    RAISED = "raised"
    """A Python bot's code raised an exception, or returned something not a move."""


class BotFailedError(BotError):
    """The bot failed in a game; ``kind`` says how, the message says what happened
    (with the program's exit status and last stderr lines, or the traceback)."""

    def __init__(self, kind: FailureKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
