"""What ``boardroom bot`` tells its user: a line per game, failures, a summary.

Results go to stdout, one line per game, so they can be piped or counted;
failures and notes go to stderr.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.state import GameResult, Outcome
from boardroom.shared.i18n import N_, _, ngettext

REASON_WORDS = {
    "line": N_("by a line"),
    "count": N_("on count"),
    "no_moves": N_("as a side had no move"),
    "full_board": N_("with a full board"),
    "resignation": N_("by resignation"),
    "agreement": N_("by agreement"),
    "timeout": N_("on time"),
    "abandonment": N_("by abandonment"),
}
"""``result.reason`` after an outcome: "loss on time", "win by a line"."""

OUTCOME_WORDS = {"win": N_("win"), "loss": N_("loss"), "draw": N_("draw")}
"""A game's outcome (a code) in words."""

FAILURE_WORDS = {
    FailureKind.CRASHED: N_("the bot crashed"),
    FailureKind.HUNG: N_("the bot hung"),
    FailureKind.REFUSED: N_("the bot's move was refused"),
    FailureKind.RAISED: N_("the bot failed"),
}


@dataclass(frozen=True)
class GameLabel:
    """Names one game of the run in reports: its number in the run and its room."""

    number: int
    room: str

    def __str__(self) -> str:
        return _("game {number} in room {room}", number=self.number, room=self.room)

    @property
    def log_prefix(self) -> str:
        """The prefix of a program's stderr lines in the log: ``ABCDEF game 2``."""
        return f"{self.room} game {self.number}"


def describe_result(result: GameResult) -> str:
    """``win by a line after 5 moves``, ``aborted before the first move``.

    >>> from boardroom.client.bots.state import GameResult
    >>> describe_result(GameResult("loss", "second", "O", "timeout", (), ("b2",)))
    'loss on time after 1 move'
    """
    if result.reason == "aborted":
        return _("aborted before the first move")
    if result.outcome == "aborted":
        return _("no result ({reason}, both players gone)", reason=result.reason)
    moves = len(result.moves)
    how = _(REASON_WORDS[result.reason]) if result.reason in REASON_WORDS else f"({result.reason})"
    outcome = OUTCOME_WORDS.get(result.outcome)
    return ngettext(
        "{outcome} {how} after {n} move",
        "{outcome} {how} after {n} moves",
        moves,
        outcome=_(outcome) if outcome else result.outcome,
        how=how,
    )


class Report:
    """Prints as the run goes, and counts outcomes for the summary."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        self.outcomes: Counter[Outcome] = Counter()
        self.failed_games: set[GameLabel] = set()

    @property
    def played(self) -> int:
        """Games finished so far."""
        return sum(self.outcomes.values())

    def note(self, text: str) -> None:
        """Something for the user, on stderr."""
        print(text, file=self.err, flush=True)

    def result(
        self, label: GameLabel, game: str, you: str, opponent: str | None, result: GameResult
    ) -> None:
        """One line on stdout for a finished game."""
        self.outcomes[result.outcome] += 1
        against = opponent or _("nobody")
        print(
            _(
                "game {number}: {result}, as {you} against {opponent} in {game} room {room}",
                number=label.number,
                result=describe_result(result),
                you=you,
                opponent=against,
                game=game,
                room=label.room,
            ),
            file=self.out,
            flush=True,
        )

    def failure(self, label: GameLabel, failure: BotFailedError, then: str) -> None:
        """The bot failed a game: what happened, and what the bridge did (``then``)."""
        self.failed_games.add(label)
        self.note(
            _(
                "{game}: {what}: {message}",
                game=label,
                what=_(FAILURE_WORDS[failure.kind]),
                message=failure.message,
            )
            + f"\n  {then}"
        )

    def summary(self) -> str:
        """``4 games: 2 wins, 1 loss, 1 draw, 0 aborted`` (and the failures, if any)."""
        counts = self.outcomes
        played = self.played
        text = _(
            "{games}: {wins}, {losses}, {draws}, {aborted}",
            games=ngettext("{n} game", "{n} games", played),
            wins=ngettext("{n} win", "{n} wins", counts["win"]),
            losses=ngettext("{n} loss", "{n} losses", counts["loss"]),
            draws=ngettext("{n} draw", "{n} draws", counts["draw"]),
            aborted=ngettext("{n} aborted", "{n} aborted", counts["aborted"]),
        )
        if self.failed_games:
            text += _(
                "; the bot failed in {games} (see above)",
                games=ngettext("{n} game", "{n} games", len(self.failed_games)),
            )
        return text
