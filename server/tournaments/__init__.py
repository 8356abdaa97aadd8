"""Tournaments among students, their bots and the server's AI levels: pure logic, no I/O.

- :mod:`server.tournaments.players`: the values passed around (:class:`Round`,
  :class:`GameResult`, :class:`Bye`, :class:`Outcome`) and the errors.
- :mod:`server.tournaments.round_robin`: round-robin schedules from the Berger tables.
- :mod:`server.tournaments.swiss`: the pairing of the next Swiss round from the results so far,
  over the perfect matchings of :mod:`server.tournaments.matching` (Edmonds' algorithm).
- :mod:`server.tournaments.standings`: points, tie-breaks, ranking and the crosstable.

Every error raised on purpose is a ``TournamentError``: ``TournamentDataError`` for
inconsistent players or results, ``PairingError`` when no repeat-free Swiss round
exists; both are also ``ValueError``.
"""
