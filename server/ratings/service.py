"""The ratings of the games in the store, kept current for ``GET /api/leaderboard``.

What is rated: every finished game with a result (a win, or a draw by a full
board or by agreement) between two different players. Games without a result
are not: aborted ones (ended before the first move, or closed by the teacher,
which records them aborted) and those both players abandoned. Each game type
(its canonical name: ``connect4``, ``tictactoe``, ``mnk-5-5-4``) has its own
ratings; games are replayed in the order they finished
(:func:`server.ratings.leaderboard.replay`).

Who a player is (the rules are :func:`player_id`'s):

- in class mode, a person or bot whose seat was held by a session of a
  student of the running class is that student (``student:19ac7041``), shown
  under the roster's current name: a student the teacher renames keeps their
  rating under the new name. A student the teacher removed is left off the
  leaderboard; their games still count for their opponents;
- any other person or bot is their name, read case-insensitively
  (``name:ann``), shown as spelled in their latest rated game. There are no
  accounts: a name is not a login, and whoever plays under a name plays for
  its rating;
- the server's AI at a level is a player of its own (``ai:easy``), shown as
  ``AI (easy)`` and rated like anyone, so the class sees where the levels sit.

A game whose two seats are the same player (one name in both seats, or the AI
against itself at one level) is not rated.

:class:`Leaderboards` replays the whole history when it has changed and keeps
the result: it asks the store how many games have finished (and, in class
mode, for the roster) at each request, and replays again, on a worker thread,
only when a game has finished or a student joined since. Renames need no
replay: names are looked up at each request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import msgspec

from server.core.records import GameState, PgnResult, PlayerKind, SeatRecord
from server.ratings.leaderboard import (
    LeaderboardRow,
    PlayerRating,
    RatedGame,
    leaderboard,
    replay,
)
from server.store import GameStore, StudentRecord
from shared.errors import GameError
from shared.games import GAME_NAMES, get_game

__all__ = ["GameLeaderboard", "Leaderboards", "player_id", "rated_games"]

SCORES = {
    PgnResult.FIRST_WINS.value: 1.0,
    PgnResult.SECOND_WINS.value: 0.0,
    PgnResult.DRAW.value: 0.5,
}
"""The first player's score for each result the store gives."""

StoredGame = tuple[str, SeatRecord, SeatRecord, str, float]
"""A game as :meth:`GameStore.games_with_result` gives it."""


class GameLeaderboard(msgspec.Struct, frozen=True):
    """One game type's leaderboard, as ``GET /api/leaderboard`` sends it."""

    game: str
    title: str
    rows: list[LeaderboardRow]


def player_id(seat: SeatRecord, students: Mapping[str, StudentRecord]) -> str:
    """Who sat in ``seat``, as the ratings know them (see the module docstring).

    ``students`` maps session ids to the running class's students (empty
    outside class mode).
    """
    if seat.kind is PlayerKind.AI:
        return f"ai:{seat.ai_level}"
    student = None if seat.session is None else students.get(seat.session)
    if student is not None:
        return f"student:{student.id}"
    # casefold, not lower: "STRASSE" and "straße" are one name, as people read them.
    return f"name:{seat.name.casefold()}"


def rated_games(
    games: Iterable[StoredGame], students: Mapping[str, StudentRecord]
) -> tuple[list[RatedGame], dict[str, str]]:
    """The games to rate among ``games`` (in finish order), and for the players
    known by name, the spelling of their latest rated game (by player id)."""
    rated: list[RatedGame] = []
    spellings: dict[str, str] = {}
    for game, first_seat, second_seat, result, finished_at in games:
        first, second = player_id(first_seat, students), player_id(second_seat, students)
        if first == second or result not in SCORES:
            continue
        rated.append(RatedGame(game, first, second, SCORES[result], finished_at))
        for player, seat in ((first, first_seat), (second, second_seat)):
            if player.startswith("name:"):
                spellings[player] = seat.name
    return rated, spellings


@dataclass(frozen=True, slots=True)
class _History:
    """The replayed history, and what it was replayed from."""

    finished: int
    """How many games had finished (with a result or not)."""
    students: int
    """How many students the class had had (removed ones included)."""
    ratings: dict[str, dict[str, PlayerRating]]
    spellings: dict[str, str]


class Leaderboards:
    """The leaderboards of ``store``'s games; ``class_name`` is the running class
    (None outside class mode). Use from the event loop only."""

    def __init__(self, store: GameStore, class_name: str | None) -> None:
        self._store = store
        self._class_name = class_name
        self._history: _History | None = None
        # One replay at a time: requests arriving during one wait for its result.
        self._replaying = asyncio.Lock()

    async def boards(self, game: str | None = None) -> list[GameLeaderboard]:
        """Every game type with rated games, in the order of
        :data:`~shared.games.GAME_NAMES` (m,n,k boards last, by name); or, with
        ``game`` (a canonical name), that game alone, rows or none."""
        students = await self._students()
        history = await self._current(students)
        by_id = {student.id: student for student in students}
        names = (game,) if game is not None else sorted(history.ratings, key=_game_order)
        return [
            GameLeaderboard(
                name,
                _title(name),
                _shown(history.ratings.get(name, {}), by_id, history.spellings),
            )
            for name in names
        ]

    async def _students(self) -> list[StudentRecord]:
        if self._class_name is None:
            return []
        return await self._store.students(self._class_name)

    async def _current(self, students: Sequence[StudentRecord]) -> _History:
        async with self._replaying:
            # Counted before the games are read: a game finishing in between is then
            # replayed once more at the next request, rather than missed until the next.
            finished = (await self._store.games_by_state())[GameState.FINISHED]
            history = self._history
            if history is not None and (history.finished, history.students) == (
                finished,
                len(students),
            ):
                return history
            games = await self._store.games_with_result()
            by_session = {student.session: student for student in students}
            # 10,000 games take about 0.1 s to replay (2-core laptop), ten times the
            # event loop's lag budget: off the loop, on a thread.
            ratings, spellings = await asyncio.to_thread(_replay, games, by_session)
            self._history = _History(finished, len(students), ratings, spellings)
            return self._history


def _replay(
    games: Sequence[StoredGame], students: Mapping[str, StudentRecord]
) -> tuple[dict[str, dict[str, PlayerRating]], dict[str, str]]:
    rated, spellings = rated_games(games, students)
    return replay(rated), spellings


def _shown(
    ratings: Mapping[str, PlayerRating],
    students: Mapping[str, StudentRecord],
    spellings: Mapping[str, str],
) -> list[LeaderboardRow]:
    """One game type's rows, players shown by name, removed students left out."""
    names: dict[str, str] = {}
    for player in ratings:
        kind, _, key = player.partition(":")
        if kind == "student":
            student = students.get(key)
            if student is not None and not student.removed:
                names[player] = student.name
        elif kind == "ai":
            names[player] = f"AI ({key})"
        else:
            names[player] = spellings.get(player, key)
    rows = leaderboard({player: ratings[player] for player in names})
    return [replace(row, player=names[row.player]) for row in rows]


def _game_order(name: str) -> tuple[int, str]:
    return (GAME_NAMES.index(name) if name in GAME_NAMES else len(GAME_NAMES), name)


def _title(name: str) -> str:
    try:
        return get_game(name).title
    except GameError:  # a game this version does not know (a newer one's record)
        return name
