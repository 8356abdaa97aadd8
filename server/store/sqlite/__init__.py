"""Every game in one SQLite file: the store of one server.

:class:`GameStore` keeps the contracts of :mod:`boardroom.server.store` on SQLite, in WAL
mode with ``synchronous=FULL``, on a thread of its own
(:class:`boardroom.server.sqlite_thread.SQLiteThread`: the stdlib driver, one trip from the
loop per transaction), so the event loop never waits on the disk and an
acknowledged move survives a power cut. The schema holds the same rules as the
code, with CHECK constraints and triggers, so that no other writer (the
``sqlite3`` shell) can break a record either.

A module per part over one base, each supplying the SQL of a part of
:mod:`boardroom.server.store`::

    sql          what runs on SQLite's thread: a transaction around a body, one value
    schema       every table, as one ordered list of migrations, and migrate()
    base         SQLiteBase: the file opened and closed, its thread, one transaction
    games        the games, seats and moves (and load_games, which class mode shares)
    players      durable players (and insert_player, which enrolment shares)
    classroom    class mode: settings, students, a class's results and games
    tournaments  a class's tournaments
    ratings      the finished games the ratings replay
    analyses     post-game analyses and hints
"""

from __future__ import annotations

from boardroom.server.store.sqlite.analyses import SQLiteAnalyses
from boardroom.server.store.sqlite.classroom import SQLiteClassroom
from boardroom.server.store.sqlite.games import SQLiteGames
from boardroom.server.store.sqlite.players import SQLitePlayers
from boardroom.server.store.sqlite.ratings import SQLiteRatings
from boardroom.server.store.sqlite.tournaments import SQLiteTournaments

__all__ = ["GameStore"]


class GameStore(
    SQLiteGames,
    SQLitePlayers,
    SQLiteClassroom,
    SQLiteTournaments,
    SQLiteRatings,
    SQLiteAnalyses,
):
    """The games of one SQLite file, with its players, and what class mode, its
    tournaments and the ratings keep beside them. See :mod:`boardroom.server.store` for the
    contracts.

    ``GameStore(path)`` does no I/O; :meth:`open` does. What ``path`` may be
    (a file, or ``":memory:"`` for tests): :class:`~boardroom.server.store.sqlite.base.SQLiteBase`.
    """
