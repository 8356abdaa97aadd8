"""Errors of the client package.

::

    ClientError
    ├── ServerUnreachableError (also ConnectionError)  no server answered at the address
    ├── ConnectionLostError (also ConnectionError)     the connection is down, or dropped
    │                                                  before a reply came
    └── RequestRefusedError                            the server answered with ``error``

:class:`RequestRefusedError` carries the server's stable ``code`` (see
``docs/protocol.md``) and its ``message`` for people, so a caller can branch on
the code and show the message as it is.
"""

from __future__ import annotations


class ClientError(Exception):
    """Root of every error raised by ``client``."""


class ServerUnreachableError(ClientError, ConnectionError):
    """No Boardroom server could be reached (refused, unresolvable, not WebSocket)."""


class ConnectionLostError(ClientError, ConnectionError):
    """The connection is down, or dropped before the reply to a request came.

    The session reconnects by itself; a request that failed this way may or may not
    have reached the server, so callers resend only what is safe to resend (a move
    carries its ``ply``, which makes a repeat harmless: ``stale_move``).
    """


class RequestRefusedError(ClientError):
    """The server refused a request: ``code`` as in the protocol, ``message`` for people."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"RequestRefusedError({self.code!r}, {self.message!r})"
