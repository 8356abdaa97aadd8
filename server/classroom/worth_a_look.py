"""``GET /api/admin/tournaments/{id}/worth-a-look``: the fair-play list, from the store.

The adapter around :mod:`boardroom.server.tournaments.fair_play`: it reads the
class's games, the tournament's and the analyses the class mode makes of every
finished game (:mod:`boardroom.server.analysis.service`), sums each student's
games up, and answers with the students whose tournament games stand far above
their usual, with the numbers and the games. The teacher's only: it is behind
the admin token, and nothing is sent to any student.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from boardroom.server.classroom.export import students_by_player
from boardroom.server.core.records import GameRecord, GameState
from boardroom.server.store import Store, StudentRecord, TournamentRecord
from boardroom.server.tournaments.fair_play import GameAccuracy, game_accuracy, worth_a_look
from boardroom.shared.engine.analysis import ANALYSIS_VERSION, MoveReview

__all__ = ["worth_a_look_answer"]


async def worth_a_look_answer(
    store: Store, tournament: TournamentRecord, students: Iterable[StudentRecord]
) -> dict[str, Any]:
    """The answer for ``tournament`` of the class: ``{"tournament", "worth_a_look":
    [{"student", "name", "accuracy", "usual_accuracy", "perfect_share", "perfect",
    "judged", "games", "usual_games"}]}``. Games whose analysis is not complete yet
    are left out (the background analyses catch up within minutes)."""
    records = [
        r for r in await store.class_games(tournament.class_name) if r.state is GameState.FINISHED
    ]
    stored = await store.analyses_of([r.id for r in records], rules=ANALYSIS_VERSION)
    in_tournament = {p.game_id for p in tournament.pairings if p.game_id is not None}
    by_player = students_by_player(students)
    # A class's worth of reviews to decode: off the event loop, as the export does.
    games = await asyncio.to_thread(_accuracies, records, stored, in_tournament, by_player)
    listed = []
    for found in worth_a_look(games):
        student = next(s for s in by_player.values() if s.id == found.player)
        listed.append({"student": student.id, "name": student.name, **msgspec.to_builtins(found)})
        del listed[-1]["player"]
    return {"tournament": tournament.id, "worth_a_look": listed}


def _accuracies(
    records: list[GameRecord],
    stored: Mapping[int, tuple[list[str], dict[int, str]]],
    in_tournament: set[int],
    by_player: Mapping[str, StudentRecord],
) -> list[GameAccuracy]:
    games = []
    for record in records:
        texts, _hints = stored.get(record.id, ([], {}))
        if not texts:
            continue  # no complete analysis (yet)
        reviews = [msgspec.json.decode(text, type=MoveReview) for text in texts]
        engine_plies = frozenset(move.ply for move in record.moves if move.autopilot)
        for seat, symbol in zip(record.seats, "XO", strict=True):
            student = by_player.get(seat.player) if seat and seat.player else None
            if student is None:
                continue
            summary = game_accuracy(
                student.id,
                record.id,
                reviews,
                symbol,
                in_tournament=record.id in in_tournament,
                engine_plies=engine_plies,
            )
            if summary is not None:
                games.append(summary)
    return games
