"""What ``boardroom bot`` tells its user: a line per game, failures, a summary.

Results go to stdout, one line per game, so they can be piped or counted;
failures and notes go to stderr.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import TextIO

from client.bots.errors import BotFailedError, FailureKind
from client.bots.state import GameResult, Outcome

REASON_WORDS = {
    "line": "by a line",
    "count": "on count",
    "no_moves": "as a side had no move",
    "full_board": "with a full board",
    "resignation": "by resignation",
    "agreement": "by agreement",
    "timeout": "on time",
    "abandonment": "by abandonment",
}
"""``result.reason`` after an outcome: "loss on time", "win by a line"."""

FAILURE_WORDS = {
    FailureKind.CRASHED: "the bot crashed",
    FailureKind.HUNG: "the bot hung",
    FailureKind.REFUSED: "the bot's move was refused",
    FailureKind.RAISED: "the bot failed",
}


@dataclass(frozen=True)
class GameLabel:
    """Names one game of the run in reports: its number in the run and its room."""

    number: int
    room: str

    def __str__(self) -> str:
        return f"game {self.number} in room {self.room}"

    @property
    def log_prefix(self) -> str:
        """The prefix of a program's stderr lines in the log: ``ABCDEF game 2``."""
        return f"{self.room} game {self.number}"


def describe_result(result: GameResult) -> str:
    """``win by a line after 5 moves``, ``aborted before the first move``.

    >>> from client.bots.state import GameResult
    >>> describe_result(GameResult("loss", "second", "O", "timeout", (), ("b2",)))
    'loss on time after 1 move'
    """
    if result.reason == "aborted":
        return "aborted before the first move"
    if result.outcome == "aborted":
        return f"no result ({result.reason}, both players gone)"
    moves = len(result.moves)
    words = REASON_WORDS.get(result.reason, f"({result.reason})")
    return f"{result.outcome} {words} after {moves} move{'s' * (moves != 1)}"


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
        against = opponent or "nobody"
        print(
            f"game {label.number}: {describe_result(result)}, "
            f"as {you} against {against} in {game} room {label.room}",
            file=self.out,
            flush=True,
        )

    def failure(self, label: GameLabel, failure: BotFailedError, then: str) -> None:
        """The bot failed a game: what happened, and what the bridge did (``then``)."""
        self.failed_games.add(label)
        self.note(f"{label}: {FAILURE_WORDS[failure.kind]}: {failure.message}\n  {then}")

    def summary(self) -> str:
        """``4 games: 2 wins, 1 loss, 1 draw, 0 aborted`` (and the failures, if any)."""
        counts = self.outcomes
        played = self.played
        text = (
            f"{played} game{'s' * (played != 1)}: "
            f"{_plural(counts['win'], 'win')}, {_plural(counts['loss'], 'loss', 'losses')}, "
            f"{_plural(counts['draw'], 'draw')}, {counts['aborted']} aborted"
        )
        if self.failed_games:
            text += f"; the bot failed in {_plural(len(self.failed_games), 'game')} (see above)"
        return text


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"
