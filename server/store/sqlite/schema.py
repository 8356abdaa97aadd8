"""The database's schema: one ordered list of migrations, and :func:`migrate`.

Every table of every part of the store (games, class mode, tournaments) is here,
in the order it was released: a file is brought up to date by running the steps
it lacks, in order, so the list cannot be split by feature. The schema enforces
the same rules as the code, with CHECK constraints and triggers, so that no other
writer (the ``sqlite3`` shell) can break a record either.

A step is SQL, or a function of the connection for what SQL says badly (the
players made from old games' names compare the names as Python case-folds them).
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable

from boardroom.server.store.base import SCHEMA_VERSION
from boardroom.server.store.errors import SchemaVersionError, StoreError
from boardroom.server.store.sqlite.sql import scalar

__all__ = ["SCHEMA_VERSION", "migrate"]


def _players_from_old_seats(db: sqlite3.Connection) -> None:
    """Version 5's data step: "a name already seen once maps to one player".

    One player per distinct (case-folded name, kind) among the human and bot
    seats stored so far, with no token (nobody can say hello as it; a later
    version may hand it one), named as its latest game has it, created when its
    first game was and last seen at its last; each of those seats gets its id.
    Frozen with the version: a later change is a new step."""
    # (case-folded name, kind) -> (id, name, kind, created_at, last_seen)
    players: dict[tuple[str, str], tuple[str, str, str, float, float]] = {}
    seats: list[tuple[str, int, int]] = []
    for game_id, side, name, kind, at in db.execute(
        "SELECT s.game_id, s.side, s.name, s.kind, g.created_at"
        " FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE s.kind IN ('human', 'bot') ORDER BY g.id, s.side"
    ):
        key = (name.casefold(), kind)
        known = players.get(key)
        if known is None:
            players[key] = ("p" + secrets.token_hex(8), name, kind, at, at)
        else:
            players[key] = (known[0], name, kind, known[3], max(known[4], at))
        seats.append((players[key][0], game_id, side))
    db.executemany(
        "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
        " VALUES (?, NULL, ?, ?, ?, ?)",
        list(players.values()),
    )
    db.executemany("UPDATE seats SET player = ? WHERE game_id = ? AND side = ?", seats)


def _students_by_player(db: sqlite3.Connection) -> None:
    """Version 6's data step: "a class has one student per player".

    Each student row of version 5 becomes a row of the new table: a row stored
    before players were kept (no player) takes the player of a seat its session
    held, or else a new player without a token, named and of the kind the row
    gives. Rows of one class that are one player are folded into one: the
    latest not removed (the latest if all were) stays on the roster, the others
    are merged into it (``merged_into``), so their ids, which tournaments may
    name, still lead to the student. Each row keeps its session (the one that
    made it; NULL for the class accounts of later versions). Frozen with the
    version."""
    rows = db.execute(
        "SELECT id, class, session, name, kind, removed, first_seen, player FROM students"
        " ORDER BY class, first_seen, id"
    ).fetchall()
    kept: list[list[object]] = []
    # (class, player) -> the index in kept of the row that stays on the roster
    staying: dict[tuple[str, str], int] = {}
    for student_id, class_name, session, name, kind, removed, first_seen, player in rows:
        if player is None:
            player = scalar(
                db,
                "SELECT player FROM seats WHERE session = ? AND player IS NOT NULL LIMIT 1",
                (session,),
            )
        if player is None:
            player = "p" + secrets.token_hex(8)
            db.execute(
                "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
                " VALUES (?, NULL, ?, ?, ?, ?)",
                (player, name, kind, first_seen, first_seen),
            )
        kept.append(
            [student_id, class_name, player, name, kind, removed, first_seen, None, session]
        )
        key = (class_name, player)
        earlier = staying.get(key)
        if earlier is None or not removed or kept[earlier][5]:
            staying[key] = len(kept) - 1
    for index in staying.values():
        key = (kept[index][1], kept[index][2])
        for row in kept:
            if (row[1], row[2]) == key and row is not kept[index]:
                row[7] = kept[index][0]
    db.execute("DROP TABLE students")
    db.execute(_STUDENTS_V6)
    db.executemany(
        "INSERT INTO students"
        " (id, class, player, name, kind, removed, first_seen, merged_into, session)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        kept,
    )


_STUDENTS_V6 = """
    CREATE TABLE students (
        id          TEXT    PRIMARY KEY CHECK (id <> ''),
        class       TEXT    NOT NULL CHECK (class <> ''),
        player      TEXT    NOT NULL REFERENCES players (id),
        name        TEXT    NOT NULL CHECK (name <> ''),
        kind        TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
        removed     INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
        first_seen  REAL    NOT NULL,
        merged_into TEXT    CHECK (merged_into <> id),
        session     TEXT    CHECK (session <> '')
    ) WITHOUT ROWID
"""
"""Version 6's roster: a student is a player of a class (see the migration)."""

_GAMES_V10 = """
    CREATE TABLE games_v10 (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        room        TEXT    NOT NULL CHECK (room <> ''),
        game        TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        state       TEXT    NOT NULL DEFAULT 'waiting'
                            CHECK (state IN ('waiting', 'playing', 'finished')),
        winner      INTEGER CHECK (winner IN (0, 1)),
        termination TEXT    CHECK (termination <> ''),
        created_at  REAL    NOT NULL,
        started_at  REAL,
        finished_at REAL,
        number      INTEGER NOT NULL DEFAULT 1 CHECK (number >= 1),
        CHECK ((state = 'finished') = (termination IS NOT NULL AND finished_at IS NOT NULL)),
        CHECK (state <> 'playing' OR started_at IS NOT NULL),
        CHECK (winner IS NULL OR state = 'finished')
    )
"""
"""Version 10's games: version 2's table (its columns in the same order) without
the list of terminations."""

_GAMES_COLUMNS = (
    "id, room, game, options, state, winner, termination,"
    " created_at, started_at, finished_at, number"
)


def _games_without_termination_list(db: sqlite3.Connection) -> None:
    """Version 10's step: "the rules own the list of endings". SQLite cannot drop a
    CHECK, so the games table is rebuilt (SQLite's own recipe, "Making Other Kinds
    Of Table Schema Changes"): a new table with every other CHECK kept, the rows
    copied with their ids, the old table dropped, the new one renamed, its indexes
    made again (and the triggers that read it), and AUTOINCREMENT's high-water
    mark kept, so that no id is ever handed out again. The tables that refer to
    games name it, not the old table, so they refer to the new one. Needs foreign
    keys off (they cannot be turned off inside a transaction; :func:`migrate` says
    so); the keys are checked at the end.
    Frozen with the version."""
    if scalar(db, "PRAGMA foreign_keys"):
        raise StoreError("the games table is rebuilt with foreign keys off")
    high_water = scalar(db, "SELECT seq FROM sqlite_sequence WHERE name = 'games'")
    # The triggers (on moves) that read games: the renaming parses them, and they
    # cannot name a table that is dropped; they are made again as they were.
    triggers = db.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%games%'"
    ).fetchall()
    for name, _ in triggers:
        db.execute(f'DROP TRIGGER "{name}"')
    db.execute(_GAMES_V10)
    db.execute(
        f"INSERT INTO games_v10 ({_GAMES_COLUMNS}) SELECT {_GAMES_COLUMNS} FROM games"  # noqa: S608
    )
    db.execute("DROP TABLE games")
    db.execute("ALTER TABLE games_v10 RENAME TO games")
    db.execute("CREATE INDEX games_by_state ON games (state)")
    db.execute("CREATE INDEX games_by_room ON games (room)")
    for _, sql in triggers:
        db.execute(sql)
    if high_water is not None:
        db.execute(
            "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'games'", (high_water,)
        )
    broken = db.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise StoreError(f"rebuilding the games table broke foreign keys: {broken}")


_Step = str | Callable[[sqlite3.Connection], None]

_MIGRATIONS: tuple[tuple[_Step, ...], ...] = (
    # Version 0 (an empty file) to 1. A migration is frozen once released: the next
    # change to the schema is a new entry, never an edit here. The CHECK lists spell
    # out the enums of boardroom.server.core.records as they were at this version.
    (
        # AUTOINCREMENT: a game's id is its address (GET /api/games/{id}), so an id
        # is never handed out again, even if an operator purges old games.
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            room        TEXT    NOT NULL CHECK (room <> ''),
            game        TEXT    NOT NULL,
            options     TEXT    NOT NULL,
            state       TEXT    NOT NULL DEFAULT 'waiting'
                                CHECK (state IN ('waiting', 'playing', 'finished')),
            winner      INTEGER CHECK (winner IN (0, 1)),
            termination TEXT    CHECK (termination IN ('line', 'full_board', 'resignation',
                                       'agreement', 'timeout', 'abandonment', 'aborted')),
            created_at  REAL    NOT NULL,
            started_at  REAL,
            finished_at REAL,
            CHECK ((state = 'finished') = (termination IS NOT NULL AND finished_at IS NOT NULL)),
            CHECK (state <> 'playing' OR started_at IS NOT NULL),
            CHECK (winner IS NULL OR state = 'finished')
        )
        """,
        # Serves both unfinished_games() at start-up and the per-state counts of /metrics.
        "CREATE INDEX games_by_state ON games (state)",
        "CREATE INDEX games_by_room ON games (room)",
        """
        CREATE TABLE seats (
            game_id  INTEGER NOT NULL REFERENCES games (id),
            side     INTEGER NOT NULL CHECK (side IN (0, 1)),
            name     TEXT    NOT NULL CHECK (name <> ''),
            kind     TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'ai')),
            ai_level TEXT,
            CHECK ((kind = 'ai') = (ai_level IS NOT NULL)),
            PRIMARY KEY (game_id, side)
        ) WITHOUT ROWID
        """,
        # WITHOUT ROWID keyed by (game_id, ply): a game's moves sit together, in order.
        """
        CREATE TABLE moves (
            game_id  INTEGER NOT NULL REFERENCES games (id),
            ply      INTEGER NOT NULL CHECK (ply >= 0),
            move     TEXT    NOT NULL CHECK (move <> ''),
            at       REAL    NOT NULL,
            clock_ms INTEGER CHECK (clock_ms >= 0),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER moves_append_in_order BEFORE INSERT ON moves
        WHEN NEW.ply <> (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = NEW.game_id)
          OR (SELECT state FROM games WHERE id = NEW.game_id) IS NOT 'playing'
        BEGIN
            SELECT RAISE(ABORT, 'a move must have the next ply of a game in play');
        END
        """,
        """
        CREATE TRIGGER moves_are_never_updated BEFORE UPDATE ON moves
        BEGIN
            SELECT RAISE(ABORT, 'moves are append-only');
        END
        """,
        """
        CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
        BEGIN
            SELECT RAISE(ABORT, 'moves are append-only');
        END
        """,
    ),
    # Version 1 to 2: what a restart needs to give a room back to its players.
    (
        # The session id (not the resume token) holding a human or bot seat, so
        # that a restored seat can be reclaimed; NULL for the AI, and for seats
        # stored before this version. Private: never in an export.
        "ALTER TABLE seats ADD COLUMN session TEXT CHECK (session <> '')",
        # The game's number within its room: 1, then 2, 3, ... for rematches.
        # Games stored before this version were each a room's first.
        "ALTER TABLE games ADD COLUMN number INTEGER NOT NULL DEFAULT 1 CHECK (number >= 1)",
    ),
    # Version 2 to 3: class mode (server/classroom).
    (
        # Values the server makes once and keeps across restarts, by fixed keys
        # of the code: the teacher's admin token, so the teacher's link lasts.
        """
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY CHECK (key <> ''),
            value TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        # A class's roster: one student per session that said hello in class
        # mode. The id is public (the admin API names students by it); the
        # session is private and links a student to their seats. A removed
        # student is kept (marked), so their games still export under a name.
        """
        CREATE TABLE students (
            id         TEXT    PRIMARY KEY CHECK (id <> ''),
            class      TEXT    NOT NULL CHECK (class <> ''),
            session    TEXT    NOT NULL CHECK (session <> ''),
            name       TEXT    NOT NULL CHECK (name <> ''),
            kind       TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
            removed    INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
            first_seen REAL    NOT NULL,
            UNIQUE (class, session)
        ) WITHOUT ROWID
        """,
        # A class's games and results are found from its students' sessions.
        "CREATE INDEX seats_by_session ON seats (session)",
    ),
    # Version 3 to 4: a class's tournaments (server/tournaments).
    (
        """
        CREATE TABLE tournaments (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            class           TEXT    NOT NULL CHECK (class <> ''),
            name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            game            TEXT    NOT NULL,
            format          TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
            rounds          INTEGER NOT NULL CHECK (rounds >= 1),
            double          INTEGER NOT NULL DEFAULT 0 CHECK (double IN (0, 1)),
            clock           TEXT    NOT NULL,
            no_show_seconds REAL    NOT NULL CHECK (no_show_seconds > 0),
            status          TEXT    NOT NULL DEFAULT 'running'
                                    CHECK (status IN ('running', 'finished', 'cancelled')),
            created_at      REAL    NOT NULL,
            finished_at     REAL,
            CHECK ((status = 'running') = (finished_at IS NULL)),
            CHECK (double = 0 OR format = 'round_robin')
        )
        """,
        # One tournament at a time per class: the director checks first, this holds.
        "CREATE UNIQUE INDEX tournaments_one_running ON tournaments (class)"
        " WHERE status = 'running'",
        # Entrants in seed order: a roster student (by its public id) or an AI level.
        """
        CREATE TABLE tournament_entrants (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
            seed          INTEGER NOT NULL CHECK (seed >= 1),
            entrant       TEXT    NOT NULL CHECK (entrant GLOB 'student:?*' OR entrant IN
                                  ('ai:random', 'ai:easy', 'ai:medium', 'ai:hard', 'ai:perfect')),
            name          TEXT    NOT NULL CHECK (name <> ''),
            kind          TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'ai')),
            withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
            CHECK ((kind = 'ai') = (entrant GLOB 'ai:*')),
            PRIMARY KEY (tournament_id, entrant),
            UNIQUE (tournament_id, seed)
        ) WITHOUT ROWID
        """,
        # A round exists once it is paired: its pairings come in the same transaction.
        """
        CREATE TABLE tournament_rounds (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
            round         INTEGER NOT NULL CHECK (round >= 1),
            bye           TEXT,
            opened_at     REAL    NOT NULL,
            PRIMARY KEY (tournament_id, round),
            FOREIGN KEY (tournament_id, bye) REFERENCES tournament_entrants (tournament_id, entrant)
        ) WITHOUT ROWID
        """,
        # Each pairing of a round, board by board: its room (NULL until opened, or
        # never for a game decided without one), the game played there, the
        # no-show deadline, and the result once known (then never changed).
        """
        CREATE TABLE tournament_games (
            tournament_id INTEGER NOT NULL,
            round         INTEGER NOT NULL,
            board         INTEGER NOT NULL CHECK (board >= 1),
            first         TEXT    NOT NULL,
            second        TEXT    NOT NULL CHECK (second <> first),
            room          TEXT    CHECK (room <> ''),
            game_id       INTEGER REFERENCES games (id),
            starts_by     REAL,
            result        TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+:-', '-:+', '-:-')),
            CHECK (game_id IS NULL OR room IS NOT NULL),
            PRIMARY KEY (tournament_id, round, board),
            FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round),
            FOREIGN KEY (tournament_id, first)
                REFERENCES tournament_entrants (tournament_id, entrant),
            FOREIGN KEY (tournament_id, second)
                REFERENCES tournament_entrants (tournament_id, entrant)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER tournament_results_are_final BEFORE UPDATE ON tournament_games
        WHEN OLD.result IS NOT NULL
        BEGIN
            SELECT RAISE(ABORT, 'a tournament game with a result does not change');
        END
        """,
    ),
    # Version 4 to 5: durable players (server/store/players.py), on seats and students.
    (
        # A player is known by the hash of its token (the token itself is never
        # stored); its id is public. token_hash is NULL for a player made from old
        # games' names below: nobody can say hello as it. UNIQUE indexes the hash.
        """
        CREATE TABLE players (
            id         TEXT PRIMARY KEY CHECK (length(id) = 17 AND id GLOB 'p*'
                                               AND NOT substr(id, 2) GLOB '*[^0-9a-f]*'),
            token_hash TEXT UNIQUE CHECK (length(token_hash) = 64),
            name       TEXT NOT NULL CHECK (name <> ''),
            kind       TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
            created_at REAL NOT NULL,
            last_seen  REAL,
            revoked_at REAL
        ) WITHOUT ROWID
        """,
        # The player in a human or bot seat; NULL for the AI. Public (exported).
        "ALTER TABLE seats ADD COLUMN player TEXT REFERENCES players (id)",
        "CREATE INDEX seats_by_player ON seats (player)",
        # The player a class's student is, so that a later version can show each
        # student once; NULL for students stored before this version.
        "ALTER TABLE students ADD COLUMN player TEXT REFERENCES players (id)",
        _players_from_old_seats,
    ),
    # Version 5 to 6: one student per player (server/classroom/roster.py), and
    # merged entries: a teacher's "these two are one person".
    (
        # The player a merged player's token now opens (a teacher merged two
        # roster entries); NULL for every other. Its seats keep its own id.
        "ALTER TABLE players ADD COLUMN merged_into TEXT REFERENCES players (id)",
        _students_by_player,
        # One roster entry per player and class; merged entries point at it.
        "CREATE UNIQUE INDEX students_by_player ON students (class, player)"
        " WHERE merged_into IS NULL",
        "CREATE INDEX students_merged ON students (merged_into) WHERE merged_into IS NOT NULL",
    ),
    # Version 6 to 7: post-game analyses (server/analysis), cached as they are made,
    # and the hints players were given.
    (
        # One judged move of a finished game: boardroom.shared.engine.analysis.MoveReview as
        # JSON, written as the engine yields it (a later request resumes from there).
        """
        CREATE TABLE analysis_moves (
            game_id INTEGER NOT NULL REFERENCES games (id),
            ply     INTEGER NOT NULL CHECK (ply >= 0),
            review  TEXT    NOT NULL CHECK (json_valid(review)),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID
        """,
        # A hint the engine gave a player before their move at ply (side 0 or 1):
        # shown in the game's analysis.
        """
        CREATE TABLE hints (
            game_id INTEGER NOT NULL REFERENCES games (id),
            ply     INTEGER NOT NULL CHECK (ply >= 0),
            side    INTEGER NOT NULL CHECK (side IN (0, 1) AND side = ply % 2),
            move    TEXT    NOT NULL CHECK (move <> ''),
            at      REAL    NOT NULL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID
        """,
        # Whether a tournament's games allow hints (its own switch; off by default).
        "ALTER TABLE tournaments ADD COLUMN hints INTEGER NOT NULL DEFAULT 0"
        " CHECK (hints IN (0, 1))",
        # A game whose every move is judged, and the budget it was judged with.
        """
        CREATE TABLE analyses (
            game_id              INTEGER PRIMARY KEY REFERENCES games (id),
            seconds_per_position REAL    NOT NULL CHECK (seconds_per_position > 0),
            finished_at          REAL    NOT NULL
        )
        """,
    ),
    # Version 7 to 8: the students' short class codes (server/classroom/class_codes.py),
    # kept as a slow hash to find them and the player's token sealed under the code.
    (
        """
        CREATE TABLE class_codes (
            lookup  TEXT PRIMARY KEY CHECK (length(lookup) = 64),
            student TEXT NOT NULL UNIQUE REFERENCES students (id),
            sealed  TEXT NOT NULL CHECK (sealed <> '')
        ) WITHOUT ROWID
        """,
    ),
    # Version 8 to 9: the rules each stored review and finished analysis was made by
    # (boardroom.shared.engine.analysis.ANALYSIS_VERSION; 1 for those stored before): one of
    # an older version is made again when next viewed, never shown beside newer ones.
    (
        "ALTER TABLE analysis_moves ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1"
        " CHECK (rules_version >= 1)",
        "ALTER TABLE analyses ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1"
        " CHECK (rules_version >= 1)",
    ),
    # Version 9 to 10: no list of endings in the schema. The code's
    # boardroom.server.core.records.Termination is the one list; a game with a new ending
    # needs no migration. The column keeps a simpler CHECK: not empty.
    (_games_without_termination_list,),
    # Version 10 to 11: which moves the server's engine made for an absent player
    # (the room's autopilot, boardroom.server.core.table); 0 for those stored before.
    (
        "ALTER TABLE moves ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0"
        " CHECK (autopilot IN (0, 1))",
    ),
    # Version 11 to 12: the autopilot a tournament's games have (the teacher's
    # choice: an engine level, or off); off for those stored before, which had none.
    (
        "ALTER TABLE tournaments ADD COLUMN autopilot TEXT NOT NULL DEFAULT 'off'"
        " CHECK (autopilot <> '')",
    ),
)
assert len(_MIGRATIONS) == SCHEMA_VERSION


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema of ``db`` up to :data:`SCHEMA_VERSION` and return it.

    Call inside a write transaction (``BEGIN IMMEDIATE``), so that the steps and
    the new ``user_version`` land together or not at all, and so that two
    processes opening a new file at once cannot both create the tables; and with
    foreign keys off (``PRAGMA foreign_keys`` cannot change inside a transaction,
    and a step that rebuilds a table needs them off: the store turns them on
    after). Raises
    :class:`SchemaVersionError` for a file from a newer schema.
    """
    version = scalar(db, "PRAGMA user_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"the database has schema version {version}, newer than this Boardroom's "
            f"({SCHEMA_VERSION}): upgrade Boardroom, or use another database file"
        )
    for step in range(version, SCHEMA_VERSION):
        for statement in _MIGRATIONS[step]:
            if isinstance(statement, str):
                db.execute(statement)
            else:
                statement(db)
        # user_version is in the file header, written by this same transaction.
        db.execute(f"PRAGMA user_version = {step + 1:d}")
    return SCHEMA_VERSION
