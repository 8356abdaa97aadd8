"""The class's export for grading: results as CSV, every game record in a zip.

Pure functions over what the store gave back (no I/O; the zip is built in
memory, off the event loop by the caller). A seat is a student's if its player
is (:func:`students_by_player`): every game of one player, from any session or
device, is under one student, and an entry the teacher merged into another
counts as that other (merged entries have no row or folder of their own).
Players are shown by their names on the roster *now*: a student renamed by the
teacher is shown under the new name in every game, old ones included. The
server AI keeps the name it played under.

``results.csv`` has one row per finished game of the class, in the order the
games finished::

    id              the game's id (its record: GET /api/games/{id})
    finished_at     ISO 8601 in the server's time zone with its offset, to the
                    second ("2026-11-22T12:08:07+01:00")
    game            short name ("connect4", "mnk-5-5-4")
    room            the room code
    first_player    X, who moved first; second_player: O
    result          "1-0", "0-1", "½-½", or "*" for no result (aborted, both gone)
    termination     how it ended, a Termination value (shared/games/endings.py):
                    line, count, full_board, resignation, timeout, ...
    moves           how many moves were played
    first_student, second_student
                    the roster ids of the players (empty for the AI)
    tournament      the tournament the game was played in (empty for a casual game)
    round           its round in that tournament (empty for a casual game)
    first_accuracy, second_accuracy
                    each player's accuracy, 0 to 100, by the game's analysis
                    (boardroom.shared.engine.analysis; empty until it is complete: in class
                    mode every game is analysed as it finishes)
    first_blunders, second_blunders
                    each player's moves judged blunders: proven to lower the
                    game's value (empty likewise)
    first_hints, second_hints
                    the hints each player asked the engine for

``students.csv`` has one row per student (removed ones last, marked), with their
finished games, wins, draws and losses. ``games.zip`` holds both and a folder
per student, ``students/NAME-ID/``, with the text record of each of their games
(``game-00012.txt``, as ``GET /api/games/12?format=text`` shows it, roster names in,
its times as ``finished_at`` is written, and each move played after a hint
marked with the hinted move: ``c3 (2.9s, hint c3)``, the header counting each
side's hints),
and a folder per tournament of the class, ``tournaments/NAME-ID/``, with:

- ``standings.csv``: ``rank, place, player, points, played, wins, draws,
  losses, forfeit_wins, forfeit_losses, byes``, then the tournament's
  tie-breaks in the order they count (``sonneborn_berger``, ``buchholz``...);
- ``games.csv``: ``round, board, first, second, result, game_id``, one row
  per game paired, ``result`` as in ``results.csv`` or a forfeit (``+:-``,
  ``-:+``, ``-:-``), empty while undecided; ``game_id`` empty for a game not
  played;
- ``crosstable.txt``: the crosstable as plain text
  (:meth:`~boardroom.server.tournaments.standings.Crosstable.text`).

Tournament players are shown by their roster names too (the AI by its level's
name); two players of the same name are told apart by their roster id.

The human-readable parts (the game records' text, the crosstable, the AI's
names) speak the class's language (``serve --lang``, the ``language`` argument);
the CSV files' columns and codes do not change with it.

Times are written in the server's local time zone (``TZ``, else the system's),
each with the offset in force at that time, so that a teacher's spreadsheet
shows the lesson's hours; the functions take a ``zone`` to write them in
another (the tests' fixed zones).

The CSV files are UTF-8 with a byte order mark, so that spreadsheet programs
read names in any script (and ``½``) correctly; a name that a spreadsheet would
take for a formula (starting with ``=``, ``+``, ``-`` or ``@``) is written with
a leading ``'``, so opening the file runs nothing a student typed.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, tzinfo
from functools import partial

from boardroom.server.core.records import (
    GameRecord,
    GameState,
    PgnResult,
    SeatRecord,
    record_to_text,
)
from boardroom.server.store import StudentRecord, StudentResults, TournamentRecord
from boardroom.server.tournaments.progress import TournamentProgress
from boardroom.server.tournaments.spec import parse_entrant
from boardroom.server.tournaments.standings import Crosstable, crosstable
from boardroom.shared.engine.analysis import Judgement, MoveReview, accuracy
from boardroom.shared.games import Player
from boardroom.shared.i18n import SOURCE_LANGUAGE, _, use_language

RESULT_COLUMNS = (
    "id",
    "finished_at",
    "game",
    "room",
    "first_player",
    "second_player",
    "result",
    "termination",
    "moves",
    "first_student",
    "second_student",
    "tournament",
    "round",
    "first_accuracy",
    "second_accuracy",
    "first_blunders",
    "second_blunders",
    "first_hints",
    "second_hints",
)
STANDING_COLUMNS = (
    "rank",
    "place",
    "player",
    "points",
    "played",
    "wins",
    "draws",
    "losses",
    "forfeit_wins",
    "forfeit_losses",
    "byes",
)
"""The first columns of a tournament's ``standings.csv``; its tie-breaks follow."""
TOURNAMENT_GAME_COLUMNS = ("round", "board", "first", "second", "result", "game_id")
STUDENT_COLUMNS = ("id", "name", "kind", "removed", "played", "won", "drawn", "lost")

_SHOWN_RESULTS = {PgnResult.DRAW.value: "½-½"}
"""How the CSV files show a result, where it is not as PGN writes it."""
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_UNSAFE_IN_FILE_NAMES = re.compile(r"[^\w.-]+")


@dataclass(frozen=True, slots=True)
class GameAnalysisSummary:
    """What ``results.csv`` shows of a game's analysis: its reviews (empty while
    it is not complete) and the hints given, the hinted move by ply."""

    reviews: tuple[MoveReview, ...] = ()
    hints: Mapping[int, str] = field(default_factory=dict)

    def columns(self) -> tuple[object, ...]:
        """The six analysis columns of ``results.csv``, first player's then second's."""
        hints = tuple(sum(ply % 2 == side for ply in self.hints) for side in (0, 1))
        if not self.reviews:
            return ("", "", "", "", *hints)
        accuracies = tuple(round(accuracy(self.reviews, symbol), 1) for symbol in "XO")
        blunders = tuple(
            sum(r.side == symbol and r.judgement is Judgement.BLUNDER for r in self.reviews)
            for symbol in "XO"
        )
        return (*accuracies, *blunders, *hints)


def results_csv(
    records: Iterable[GameRecord],
    students: Iterable[StudentRecord],
    tournaments: Iterable[TournamentRecord] = (),
    analyses: Mapping[int, GameAnalysisSummary] | None = None,
    zone: tzinfo | None = None,
) -> bytes:
    """``results.csv`` for the finished games among ``records`` (see the module
    docstring); ``tournaments`` say which of them were tournament games,
    ``analyses`` what their analyses found (by game id; none: empty columns);
    times in ``zone`` (None: the server's, :func:`iso_time`)."""
    analyses = {} if analyses is None else analyses
    by_player = students_by_player(students)
    played_in = {
        pairing.game_id: (tournament.name, pairing.round)
        for tournament in tournaments
        for pairing in tournament.pairings
        if pairing.game_id is not None
    }
    finished = sorted(
        (r for r in records if r.state is GameState.FINISHED and r.finished_at is not None),
        key=lambda r: (r.finished_at, r.id),
    )
    rows = []
    for record in finished:
        assert record.finished_at is not None and record.termination is not None
        first, second = (record.seats[side.number] for side in Player)
        tournament, round_ = played_in.get(record.id, ("", ""))
        rows.append(
            (
                record.id,
                iso_time(record.finished_at, zone),
                record.game,
                record.room,
                _cell(_name(first, by_player)),
                _cell(_name(second, by_player)),
                _SHOWN_RESULTS.get(record.result, record.result),
                record.termination.value,
                len(record.moves),
                _student_id(first, by_player),
                _student_id(second, by_player),
                _cell(tournament),
                round_,
                *analyses.get(record.id, GameAnalysisSummary()).columns(),
            )
        )
    return _csv(RESULT_COLUMNS, rows)


def students_csv(students: Iterable[StudentRecord], results: Mapping[str, StudentResults]) -> bytes:
    """``students.csv``: each student and their results, removed students last
    (merged entries are left out: they count for the student they were merged into)."""
    rows = []
    for student in sorted(_entries(students), key=lambda s: s.removed):
        scores = results.get(student.id, StudentResults())
        rows.append(
            (
                student.id,
                _cell(student.name),
                student.kind.value,
                "yes" if student.removed else "",
                scores.played,
                scores.won,
                scores.drawn,
                scores.lost,
            )
        )
    return _csv(STUDENT_COLUMNS, rows)


def games_zip(
    records: Sequence[GameRecord],
    students: Sequence[StudentRecord],
    results: Mapping[str, StudentResults],
    tournaments: Sequence[TournamentRecord] = (),
    analyses: Mapping[int, GameAnalysisSummary] | None = None,
    zone: tzinfo | None = None,
    language: str = SOURCE_LANGUAGE,
) -> bytes:
    """``games.zip``: both CSV files, a folder of game records per student
    (every student on the roster, and removed ones who played) and a folder
    per tournament; times in ``zone`` (None: the server's, :func:`iso_time`);
    the records' and crosstables' words in ``language`` (the class's)."""
    analyses = {} if analyses is None else analyses
    time_text = partial(iso_time, zone=zone)
    by_player = students_by_player(students)
    games_of: dict[str, list[GameRecord]] = {student.id: [] for student in _entries(students)}
    for record in records:
        for seat in record.seats:
            student = _student(seat, by_player)
            if student is not None:
                games_of[student.id].append(record)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("results.csv", results_csv(records, students, tournaments, analyses, zone))
        archive.writestr("students.csv", students_csv(students, results))
        for student in _entries(students):
            games = games_of[student.id]
            if student.removed and not games:
                continue
            folder = f"students/{student_folder(student)}/"
            archive.writestr(folder, b"")  # the folder, even with no game in it yet
            for record in games:
                hints = analyses.get(record.id, GameAnalysisSummary()).hints
                text = record_to_text(
                    _with_roster_names(record, by_player),
                    time_text=time_text,
                    hints=hints,
                    language=language,
                )
                archive.writestr(f"{folder}game-{record.id:05d}.txt", text)
        for tournament in tournaments:
            folder = f"tournaments/{_folder_name(tournament.name, tournament.id)}/"
            for name, content in tournament_files(tournament, students, language).items():
                archive.writestr(folder + name, content)
    return buffer.getvalue()


def tournament_files(
    tournament: TournamentRecord,
    students: Iterable[StudentRecord],
    language: str = SOURCE_LANGUAGE,
) -> dict[str, bytes]:
    """A tournament's ``standings.csv``, ``games.csv`` and ``crosstable.txt``
    (see the module docstring), by file name; the AI's names and the
    crosstable's words in ``language`` (the columns' names are codes: English)."""
    with use_language(language):
        return _tournament_files(tournament, students)


def _tournament_files(
    tournament: TournamentRecord, students: Iterable[StudentRecord]
) -> dict[str, bytes]:
    progress = TournamentProgress.from_record(tournament)
    names = _entrant_names(tournament, students)
    standings = progress.standings()
    tie_breaks = [t.value for t in progress.tie_breaks]
    standing_rows = [
        (
            s.rank,
            s.place,
            _cell(names[s.player]),
            f"{s.points:g}",
            s.games_played,
            s.wins,
            s.draws,
            s.losses,
            s.forfeit_wins,
            s.forfeit_losses,
            s.byes,
            *(f"{s.tie_break(t):g}" for t in progress.tie_breaks),
        )
        for s in standings
    ]
    game_rows = [
        (
            p.round,
            p.board,
            _cell(names[p.first]),
            _cell(names[p.second]),
            "" if p.result is None else _SHOWN_RESULTS.get(p.result, p.result),
            "" if p.game_id is None else p.game_id,
        )
        for p in tournament.pairings
    ]
    table = crosstable(progress.results(), [s.player for s in standings])
    by_name = Crosstable(
        players=tuple(names[p] for p in table.players),
        cells={(names[a], names[b]): meetings for (a, b), meetings in table.cells.items()},
        points={names[p]: points for p, points in table.points.items()},
    )
    return {
        "standings.csv": _csv((*STANDING_COLUMNS, *tie_breaks), standing_rows),
        "games.csv": _csv(TOURNAMENT_GAME_COLUMNS, game_rows),
        "crosstable.txt": (by_name.text() + "\n").encode(),
    }


def student_folder(student: StudentRecord) -> str:
    """The student's folder name: their name made safe for any file system, then
    their id (names need not be unique; ids are).

    >>> from boardroom.server.core.records import PlayerKind
    >>> zoe = StudentRecord("a1b2c3d4", "7B", "p1", "Zoë / O'Brien", PlayerKind.HUMAN, 0.0)
    >>> student_folder(zoe)
    'Zoë_O_Brien-a1b2c3d4'
    """
    return _folder_name(student.name, student.id, fallback="student")


def _folder_name(name: str, id_: object, *, fallback: str = "tournament") -> str:
    safe = _UNSAFE_IN_FILE_NAMES.sub("_", name).strip("._") or fallback
    return f"{safe}-{id_}"


def _entrant_names(
    tournament: TournamentRecord, students: Iterable[StudentRecord]
) -> dict[str, str]:
    """Each entrant's name to show: a student's on the roster now, else the
    name it entered under; a name shared by two entrants gets the roster id."""
    roster = {student.id: student.name for student in students}
    # An entrant merged into another student since is shown as that student.
    roster.update({s.id: roster[s.merged_into] for s in students if s.merged_into in roster})
    names = {}
    for entrant in tournament.entrants:
        kind, value = parse_entrant(entrant.entrant)
        # The AI's name (``AI (hard)``) in the language spoken: the catalogue has it.
        names[entrant.entrant] = (
            _(entrant.name) if kind == "ai" else roster.get(value, entrant.name)
        )
    counts = Counter(names.values())
    return {
        entrant: f"{name} ({parse_entrant(entrant)[1]})" if counts[name] > 1 else name
        for entrant, name in names.items()
    }


def students_by_player(students: Iterable[StudentRecord]) -> dict[str, StudentRecord]:
    """The student each player's seats belong to: the entry of that player, or
    the one it was merged into."""
    entries = list(students)
    by_id = {student.id: student for student in entries}
    return {
        student.player: by_id.get(student.merged_into or student.id, student) for student in entries
    }


def _entries(students: Iterable[StudentRecord]) -> list[StudentRecord]:
    """The students with a row and a folder of their own: all but merged entries."""
    return [student for student in students if student.merged_into is None]


def _student(
    seat: SeatRecord | None, by_player: Mapping[str, StudentRecord]
) -> StudentRecord | None:
    if seat is None or seat.player is None:
        return None
    return by_player.get(seat.player)


def _name(seat: SeatRecord | None, by_player: Mapping[str, StudentRecord]) -> str:
    if seat is None:
        return ""
    student = _student(seat, by_player)
    return seat.name if student is None else student.name


def _student_id(seat: SeatRecord | None, by_player: Mapping[str, StudentRecord]) -> str:
    student = _student(seat, by_player)
    return "" if student is None else student.id


def _with_roster_names(record: GameRecord, by_player: Mapping[str, StudentRecord]) -> GameRecord:
    first, second = (
        None if seat is None else replace(seat, name=_name(seat, by_player))
        for seat in record.seats
    )
    return replace(record, seats=(first, second))


def _cell(text: str) -> str:
    """``text`` as a spreadsheet shows it, never as a formula (see the module docstring)."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode("utf-8-sig")


def iso_time(at: float, zone: tzinfo | None = None) -> str:
    """The POSIX time ``at`` in ISO 8601, to the second, in ``zone`` with its
    offset; None: the server's local time zone, with the offset in force at
    ``at`` (daylight saving time included).

    >>> from datetime import timedelta, timezone
    >>> iso_time(1_795_770_300, timezone(timedelta(hours=1)))
    '2026-11-27T10:05:00+01:00'
    >>> iso_time(1_795_770_300, UTC)
    '2026-11-27T09:05:00+00:00'
    """
    return datetime.fromtimestamp(at, UTC).astimezone(zone).isoformat(timespec="seconds")
