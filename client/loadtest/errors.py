"""Errors of the load tool.

::

    LoadTestError (a ClientError)
    ├── UsageError (also ValueError)        flags that cannot make a run: exit status 2
    ├── CannotRunError                      no server, or the tool itself failed: exit 1
    ├── RunAbandonedError                   a second Ctrl-C, or SIGTERM: exit 128 + signal
    ├── ProbeError (also OSError)           the server's /metrics or /healthz unreadable
    ├── ConnectFailedError (also ConnectionError)
    │                                       one connection could not be opened, or its
    │                                       hello was refused
    └── RoomFailedError                     one room cannot go on with its game

The last two stay inside a worker: they are counted (by their ``reason``), the
room starts over, and the run goes on.
"""

from __future__ import annotations

from boardroom.client.errors import ClientError


class LoadTestError(ClientError):
    """Root of every error the load tool raises on purpose."""


class UsageError(LoadTestError, ValueError):
    """Flags that cannot make a run; the message is one line naming the flag."""


class CannotRunError(LoadTestError):
    """The run could not be made: no server answered, ours did not start, or a
    worker process died. The message says which, for people."""


class RunAbandonedError(LoadTestError):
    """The run was abandoned by a signal (a second Ctrl-C, or SIGTERM) after
    cleaning up: the servers we started are stopped, the workers ended."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum


class ProbeError(LoadTestError, OSError):
    """The server's HTTP endpoints could not be read; the message says why."""


class ConnectFailedError(LoadTestError, ConnectionError):
    """A connection could not be opened. ``reason`` is short and from a closed set
    of kinds (``refused``, ``timeout``, ``http 503``, ``too_many_connections``,
    ``closed 1013``), so the report can count by it."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class RoomFailedError(LoadTestError):
    """A room cannot go on: a client was dropped, a reply never came, or a request
    was refused. ``reason`` is short (``stalled``, ``closed 1006``, ``error
    stale_move``), for counting."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
