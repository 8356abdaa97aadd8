"""Tournaments among students, their bots and the server's AI levels.

The pure logic, no I/O:

- :mod:`boardroom.server.tournaments.players`: the values passed around (:class:`Round`,
  :class:`GameResult`, :class:`Bye`, :class:`Outcome`) and the errors.
- :mod:`boardroom.server.tournaments.round_robin`: round-robin schedules from the Berger tables.
- :mod:`boardroom.server.tournaments.swiss`: the pairing of the next Swiss round from the results so
far,
  over the perfect matchings of :mod:`boardroom.server.tournaments.matching` (Edmonds' algorithm).
- :mod:`boardroom.server.tournaments.standings`: points, tie-breaks, ranking and the crosstable.
- :mod:`boardroom.server.tournaments.spec`: a tournament as the teacher asks for it, checked.
- :mod:`boardroom.server.tournaments.progress`: one tournament as it stands, and its next round.
- :mod:`boardroom.server.tournaments.view`: a tournament as the HTTP API shows it.

Class mode runs them, with the class's roster and the teacher's API, so its
modules live in :mod:`boardroom.server.classroom` (this package imports nothing of it, and
the class's export reads standings from here):

- :mod:`boardroom.server.classroom.tournament_director`: opens each round's rooms on the hub,
  tells the students (``match``), applies no-shows, records results, and carries
  on after a restart (the store keeps everything).
- :mod:`boardroom.server.classroom.tournament_routes`: the HTTP API, and the director's start
  and stop.

Every error the pure modules raise on purpose is a ``TournamentError``:
``TournamentDataError`` for inconsistent players or results, ``PairingError``
when no repeat-free Swiss round exists; both are also ``ValueError``.
"""
