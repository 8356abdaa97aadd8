"""The tournament director's refusals of the teacher's requests.

Contract: the director (:mod:`boardroom.server.classroom.tournament_director`)
raises each before anything changes; the HTTP API
(:mod:`boardroom.server.classroom.tournament_routes`) answers each with its own
error code. They are importable from the director's module too.
"""

from __future__ import annotations

__all__ = [
    "DirectorError",
    "TournamentOverError",
    "TournamentRunningError",
    "UnknownEntrantError",
    "UnknownTournamentError",
]


class DirectorError(Exception):
    """Root of the director's refusals::

    DirectorError
    ├── UnknownTournamentError(DirectorError, LookupError)  no tournament with that id
    ├── UnknownEntrantError(DirectorError, LookupError)     a student not on the roster
    ├── TournamentRunningError(DirectorError, RuntimeError) another one is running
    └── TournamentOverError(DirectorError, RuntimeError)    finished: it cannot be cancelled
    """


class UnknownTournamentError(DirectorError, LookupError):
    """No tournament of this class has that id."""


class UnknownEntrantError(DirectorError, LookupError):
    """An entrant names a student who is not on the roster (never was, or removed)."""


class TournamentRunningError(DirectorError, RuntimeError):
    """A tournament is running already: one at a time."""


class TournamentOverError(DirectorError, RuntimeError):
    """The tournament is finished: there is nothing left to cancel."""
