"""Class mode: the teacher's controls over one server (``boardroom serve --class NAME``).

A teacher hosts one server for a class. With ``--class`` the server keeps a
roster of the students who say hello, and answers an admin API at
``/api/admin/`` that only the holder of the teacher's token may use: rename,
remove or mark students as bots, pause and resume every game at once, close a
room, announce to everyone, and export the class's results and game records.
Without ``--class`` that API answers 404 and no token exists.

Modules, each with one job::

    admin_token    the token: made once per database, checked in constant time
    roster         the students: who joined, under which name, human or bot
    teacher        the controls: the roster and the hub (rooms, sessions) together
    export         results as CSV and every game record in a zip (pure functions)
    class_mode     class mode on the app: the classroom started with the server, and
                   the gate of the teacher's API (the token, its checks, its error codes)
    admin_routes   the teacher's HTTP API: its routes and their bodies
    tournament_director  the class's tournaments, run on the hub round after round
                         (their pairings and standings: boardroom.server.tournaments)
    tournament_writes    the director's store writes, made to survive a storage outage
    tournament_entrants  who a tournament's entrants are: students of the roster, or the AI
    tournament_seating   the rooms that wait for their players, and the match that calls them
    tournament_outcomes  what a game's end means for the tournament (pure functions)
    tournament_errors    the director's refusals of the teacher's requests
    tournament_routes    the tournaments' HTTP API, and the director's start and stop

``docs/operations.md`` ("Class mode") describes the flags and the API for people.
"""
