"""Games worth a look: players whose tournament moves matched the engine far above their usual.

A pure core over the post-game analyses (:mod:`boardroom.shared.engine.analysis`): each
game a student played is summed up for them (:func:`game_accuracy`: their
accuracy, 0 to 100, as the review and the export count it, and how many of
their moves were as good as the perfect engine's), and :func:`worth_a_look`
lists the students whose tournament games stand far above their other games.

It is a prompt for the teacher, never a verdict: a student may have learnt, or
had a good day, and copying an engine is only one way to play perfect
tic-tac-toe. So the list goes to the teacher alone (the admin API and the
teacher's page), with the numbers and the games to look at, and nothing
happens by itself. A student is listed when all of these hold:

- at least :data:`MIN_TOURNAMENT_GAMES` of their games in the tournament have
  a complete analysis (one lucky game is no pattern);
- at least :data:`MIN_USUAL_GAMES` of their other games in the class do (their
  usual play, to compare with);
- their accuracy over the tournament's games is at least :data:`MARGIN` points
  above their usual (means of the games' accuracies);
- at least :data:`MIN_PERFECT_SHARE` of their judged tournament moves were as
  good as the engine's (``best``): near-perfect play, not just better play.

Why these numbers: a class's players improve during a lesson by some points,
not by 25; and in the small games played in class (tic-tac-toe, Connect Four)
a player who is not copying still slips now and then, where an engine never
does. Forced moves (the only legal one) count for nothing either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from boardroom.shared.engine.analysis import Judgement, MoveReview, accuracy

__all__ = [
    "MARGIN",
    "MIN_PERFECT_SHARE",
    "MIN_TOURNAMENT_GAMES",
    "MIN_USUAL_GAMES",
    "GameAccuracy",
    "WorthALook",
    "game_accuracy",
    "worth_a_look",
]

MIN_TOURNAMENT_GAMES: Final = 3
MIN_USUAL_GAMES: Final = 2
MARGIN: Final = 25.0
"""Accuracy points (0 to 100) above the usual that a tournament must reach."""
MIN_PERFECT_SHARE: Final = 0.9


@dataclass(frozen=True, slots=True)
class GameAccuracy:
    """One player's moves in one analysed game: ``accuracy`` (0 to 100, the
    review's), ``perfect`` moves as good as the engine's out of ``judged`` (not
    forced), and whether the game was one of the tournament's."""

    player: str
    game_id: int
    in_tournament: bool
    accuracy: float
    perfect: int
    judged: int


@dataclass(frozen=True, slots=True)
class WorthALook:
    """A player whose tournament games stand out, with the numbers: mean
    accuracies (tournament, usual), the share of their tournament moves as good
    as the engine's, and the games (tournament's, then usual ones) to look at."""

    player: str
    accuracy: float
    usual_accuracy: float
    perfect_share: float
    perfect: int
    judged: int
    games: tuple[int, ...]
    usual_games: tuple[int, ...]


def game_accuracy(
    player: str,
    game_id: int,
    reviews: Sequence[MoveReview],
    side: str,
    *,
    in_tournament: bool,
    engine_plies: frozenset[int] = frozenset(),
) -> GameAccuracy | None:
    """``player``'s moves on ``side`` (``"X"`` or ``"O"``) in a game's complete
    analysis ``reviews``, leaving out ``engine_plies`` (the moves the autopilot
    made for them while they were away: the engine's, not theirs); None if they
    made no move that was not forced."""
    reviews = [r for r in reviews if r.ply not in engine_plies]
    judged = [r for r in reviews if r.side == side and r.judgement is not Judgement.FORCED]
    if not judged:
        return None
    perfect = sum(r.judgement is Judgement.BEST for r in judged)
    return GameAccuracy(
        player=player,
        game_id=game_id,
        in_tournament=in_tournament,
        accuracy=accuracy(reviews, side),
        perfect=perfect,
        judged=len(judged),
    )


def worth_a_look(games: Iterable[GameAccuracy]) -> list[WorthALook]:
    """The players ``games`` show standing out in the tournament (see the module
    docstring), the furthest above their usual first.

    >>> def g(n, t, acc, perfect): return GameAccuracy("ann", n, t, acc, perfect, 4)
    >>> ann = [g(1, False, 55, 1), g(2, False, 60, 2)] + [g(n, True, 100, 4) for n in (3, 4, 5)]
    >>> [(w.player, w.accuracy, w.usual_accuracy, w.perfect_share) for w in worth_a_look(ann)]
    [('ann', 100.0, 57.5, 1.0)]
    >>> worth_a_look(ann[:-1])  # two tournament games: too few to say
    []
    """
    by_player: dict[str, list[GameAccuracy]] = {}
    for game in games:
        by_player.setdefault(game.player, []).append(game)
    found = []
    for player, played in by_player.items():
        tournament = [g for g in played if g.in_tournament]
        usual = [g for g in played if not g.in_tournament]
        if len(tournament) < MIN_TOURNAMENT_GAMES or len(usual) < MIN_USUAL_GAMES:
            continue
        mean = sum(g.accuracy for g in tournament) / len(tournament)
        usual_mean = sum(g.accuracy for g in usual) / len(usual)
        perfect = sum(g.perfect for g in tournament)
        judged = sum(g.judged for g in tournament)
        if mean - usual_mean < MARGIN or perfect < MIN_PERFECT_SHARE * judged:
            continue
        found.append(
            WorthALook(
                player=player,
                accuracy=round(mean, 1),
                usual_accuracy=round(usual_mean, 1),
                perfect_share=round(perfect / judged, 3),
                perfect=perfect,
                judged=judged,
                games=tuple(sorted(g.game_id for g in tournament)),
                usual_games=tuple(sorted(g.game_id for g in usual)),
            )
        )
    found.sort(key=lambda w: (w.usual_accuracy - w.accuracy, w.player))
    return found
