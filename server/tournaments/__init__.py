"""Tournaments among students, their bots and the server's AI levels.

The pure logic, no I/O:

- :mod:`server.tournaments.players`: the values passed around (:class:`Round`,
  :class:`GameResult`, :class:`Bye`, :class:`Outcome`) and the errors.
- :mod:`server.tournaments.round_robin`: round-robin schedules from the Berger tables.
- :mod:`server.tournaments.swiss`: the pairing of the next Swiss round from the results so far,
  over the perfect matchings of :mod:`server.tournaments.matching` (Edmonds' algorithm).
- :mod:`server.tournaments.standings`: points, tie-breaks, ranking and the crosstable.
- :mod:`server.tournaments.spec`: a tournament as the teacher asks for it, checked.
- :mod:`server.tournaments.progress`: one tournament as it stands, and its next round.
- :mod:`server.tournaments.view`: a tournament as the HTTP API shows it.

Class mode runs them, with the class's roster and the teacher's API, so its
modules live in :mod:`server.classroom` (this package imports nothing of it, and
the class's export reads standings from here):

- :mod:`server.classroom.tournament_director`: opens each round's rooms on the hub,
  tells the students (``match``), applies no-shows, records results, and carries
  on after a restart (the store keeps everything).
- :mod:`server.classroom.tournament_routes`: the HTTP API, and the director's start
  and stop.

Every error the pure modules raise on purpose is a ``TournamentError``:
``TournamentDataError`` for inconsistent players or results, ``PairingError``
when no repeat-free Swiss round exists; both are also ``ValueError``.
"""
