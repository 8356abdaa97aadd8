"""The ratings of the games in the store, kept current for ``GET /api/leaderboard``.

What is rated: every finished game with a result (a win, or a draw by a full
board or by agreement) between two different players. Games without a result
are not: aborted ones (ended before the first move, or closed by the teacher,
which records them aborted) and those both players abandoned. Each game type
(its canonical name: ``connect4``, ``tictactoe``, ``mnk-5-5-4``) has its own
ratings; games are replayed in the order they finished
(:func:`boardroom.server.ratings.leaderboard.replay`).

Who a player is (the rules are :func:`player_id`'s), first rule that applies:

- the server's AI at a level is a player of its own (``ai:easy``), shown as
  ``AI (easy)`` and rated like anyone, so the class sees where the levels sit;
- a person or bot whose seat records a durable player
  (:mod:`boardroom.server.core.players`; every seat since schema version 5, and older
  ones whose name the migration matched) is that player
  (``player:p0123456789abcdef``), whatever name they played under, or the
  player it was merged into since (a teacher said two roster entries are one
  person: their games are one history). Shown under the roster's current
  name if the player is a student of the running class (so a teacher's
  rename shows; left off if the student was removed: their games still count
  for their opponents), else under the player's current display name (the
  players table: the name of their latest hello). Two players under one name
  are two rows, told apart by their ``player_id`` (the page adds the start of
  it to the name);
- anyone else (seats stored before players were kept that the migration
  matched to no player) is their name, read case-insensitively
  (``name:ann``), shown as spelled in their latest rated game.

A game in which the server's engine made a move for an absent player (the
room's autopilot) is not rated unless the host says so (``--rate-autopilot``):
its result is partly the engine's, not the player's who left, and a player
must not gain or lose points for moves they did not make.

A game whose two seats are the same player (one player, or one name, in both
seats, or the AI against itself at one level) is not rated.

:class:`Leaderboards` replays the whole history when it has changed and keeps
the result: it asks the store how many games have finished (and, in class
mode, for the roster) and which players were merged at each request, and
replays again, on a worker thread, only when a game has finished, a student
joined or two players were merged since. Renames need no
replay: names (roster and players table) are looked up at each request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import msgspec

from boardroom.server.core.records import GameState, PgnResult, PlayerKind, SeatRecord
from boardroom.server.ratings.leaderboard import (
    LeaderboardRow,
    PlayerRating,
    RatedGame,
    leaderboard,
    replay,
)
from boardroom.server.store import Store, StudentRecord
from boardroom.shared.errors import GameError
from boardroom.shared.games import game_specs, get_game, spec_of

__all__ = ["GameLeaderboard", "Leaderboards", "player_id", "rated_games"]

SCORES = {
    PgnResult.FIRST_WINS.value: 1.0,
    PgnResult.SECOND_WINS.value: 0.0,
    PgnResult.DRAW.value: 0.5,
}
"""The first player's score for each result the store gives."""

PLAYER = "player:"
"""The prefix of a durable player's rating id (then the public player id)."""

StoredGame = tuple[str, SeatRecord, SeatRecord, str, float]
"""A game as :meth:`GameStore.games_with_result` gives it."""


class GameLeaderboard(msgspec.Struct, frozen=True):
    """One game type's leaderboard, as ``GET /api/leaderboard`` sends it."""

    game: str
    title: str
    rows: list[LeaderboardRow]
    played: int = 0
    """How many rated games of this type were played (the page opens on the
    game played most)."""


def player_id(seat: SeatRecord, merged: Mapping[str, str]) -> str:
    """Who sat in ``seat``, as the ratings know them (see the module docstring).

    ``merged`` maps each merged player's id to the player it was merged into.
    """
    if seat.kind is PlayerKind.AI:
        return f"ai:{seat.ai_level}"
    if seat.player is not None:
        return f"{PLAYER}{merged.get(seat.player, seat.player)}"
    # casefold, not lower: "STRASSE" and "straße" are one name, as people read them.
    return f"name:{seat.name.casefold()}"


def rated_games(
    games: Iterable[StoredGame], merged: Mapping[str, str]
) -> tuple[list[RatedGame], dict[str, str]]:
    """The games to rate among ``games`` (in finish order), and for the players
    known by name or by durable player, the name of their latest rated game (by
    rating id: the fallback for a player missing from the players table)."""
    rated: list[RatedGame] = []
    spellings: dict[str, str] = {}
    for game, first_seat, second_seat, result, finished_at in games:
        first, second = player_id(first_seat, merged), player_id(second_seat, merged)
        if first == second or result not in SCORES:
            continue
        rated.append(RatedGame(game, first, second, SCORES[result], finished_at))
        for player, seat in ((first, first_seat), (second, second_seat)):
            if player.startswith(("name:", PLAYER)):
                spellings[player] = seat.name
    return rated, spellings


@dataclass(frozen=True, slots=True)
class _History:
    """The replayed history, and what it was replayed from."""

    finished: int
    """How many games had finished (with a result or not)."""
    students: int
    """How many students the class had had (removed ones included)."""
    merged: Mapping[str, str]
    """The merged players, as :func:`player_id` took them."""
    ratings: dict[str, dict[str, PlayerRating]]
    spellings: dict[str, str]


class Leaderboards:
    """The leaderboards of ``store``'s games; ``class_name`` is the running class
    (None outside class mode). Use from the event loop only."""

    def __init__(
        self, store: Store, class_name: str | None, *, rate_autopilot: bool = False
    ) -> None:
        self._store = store
        self._rate_autopilot = rate_autopilot
        self._class_name = class_name
        self._history: _History | None = None
        # One replay at a time: requests arriving during one wait for its result.
        self._replaying = asyncio.Lock()

    async def boards(self, game: str | None = None) -> list[GameLeaderboard]:
        """Every game type with rated games, in the order of
        :func:`~boardroom.shared.games.game_specs` (a family's boards, m,n,k, in its place, by
        name); or, with ``game`` (a canonical name), that game alone, rows or none."""
        students = await self._students()
        history = await self._current(students)
        names = (game,) if game is not None else sorted(history.ratings, key=_game_order)
        players = {
            player.removeprefix(PLAYER)
            for name in names
            for player in history.ratings.get(name, {})
            if player.startswith(PLAYER)
        }
        shown = _Names(
            _roster_by_player(students),
            await self._store.player_names(players) if players else {},
            history.spellings,
        )
        return [
            GameLeaderboard(
                name,
                _title(name),
                _shown(history.ratings.get(name, {}), shown),
                _played(history.ratings.get(name, {})),
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
            merged = await self._store.player_aliases()
            history = self._history
            if history is not None and (history.finished, history.students, history.merged) == (
                finished,
                len(students),
                merged,
            ):
                return history
            games = await self._store.games_with_result(with_autopilot=self._rate_autopilot)
            # 10,000 games take about 0.1 s to replay (2-core laptop), ten times the
            # event loop's lag budget: off the loop, on a thread.
            ratings, spellings = await asyncio.to_thread(_replay, games, merged)
            self._history = _History(finished, len(students), merged, ratings, spellings)
            return self._history


def _played(ratings: Mapping[str, PlayerRating]) -> int:
    """How many rated games the ratings of one game type come from: each counts
    once for each of its two players (never one player twice: such a game is
    not rated)."""
    return sum(rating.games for rating in ratings.values()) // 2


def _replay(
    games: Sequence[StoredGame], merged: Mapping[str, str]
) -> tuple[dict[str, dict[str, PlayerRating]], dict[str, str]]:
    rated, spellings = rated_games(games, merged)
    return replay(rated), spellings


@dataclass(frozen=True, slots=True)
class _Names:
    """What a leaderboard's players are shown as, read at the request."""

    roster: Mapping[str, StudentRecord]
    """By player id, the running class's student that player is (empty outside
    class mode)."""
    players: Mapping[str, str]
    """The players table's display names, by player id."""
    spellings: Mapping[str, str]
    """By rating id, the name of the latest rated game (see :func:`rated_games`)."""

    def name(self, player: str) -> str | None:
        """The name ``player`` (a rating id) is shown as; None to leave it off."""
        kind, _, key = player.partition(":")
        if kind == "ai":
            return f"AI ({key})"
        if kind == "player":
            student = self.roster.get(key)
            if student is not None:
                return None if student.removed else student.name
            return self.players.get(key) or self.spellings.get(player, key)
        return self.spellings.get(player, key)


def _roster_by_player(students: Iterable[StudentRecord]) -> dict[str, StudentRecord]:
    """Each student's entry (removed or not) by its player; merged entries are
    left out: their players' ratings are the players they were merged into."""
    return {s.player: s for s in students if s.merged_into is None}


def _shown(ratings: Mapping[str, PlayerRating], names: _Names) -> list[LeaderboardRow]:
    """One game type's rows, players shown by name, removed students left out."""
    shown = {player: name for player in ratings if (name := names.name(player)) is not None}
    rows = leaderboard({player: ratings[player] for player in shown})
    return [
        replace(row, player=shown[row.player], player_id=_public_id(row.player)) for row in rows
    ]


def _public_id(player: str) -> str | None:
    """The public player id in a rating id, None if it names no durable player."""
    return player.removeprefix(PLAYER) if player.startswith(PLAYER) else None


def _game_order(name: str) -> tuple[int, str]:
    specs = game_specs()
    try:
        place = specs.index(spec_of(name))
    except GameError:  # a game this server no longer offers: last
        place = len(specs)
    return (place, name)


def _title(name: str) -> str:
    try:
        return get_game(name).title
    except GameError:  # a game this version does not know (a newer one's record)
        return name
