"""The one interface behind every kind of bot: a :class:`Brain` plays one game.

``boardroom bot`` has three kinds of bot (a Python script, a program over stdin
and stdout, the engine); each is a :class:`BrainSource` that makes a fresh
:class:`Brain` for every game, so nothing of one game leaks into the next (a new
program process, a new :class:`~boardroom.client.bots.Bot` instance). The runner
(:mod:`boardroom.client.bots.runner`, its games played by
:mod:`boardroom.client.bots.game_play`) only ever talks to these two classes.

Contract of a brain, for one game:

- :meth:`Brain.start` once, when the game starts; then :meth:`Brain.choose` for
  each of the bot's turns, one at a time; then :meth:`Brain.end` at most once;
  then :meth:`Brain.close`, always, last.
- :meth:`Brain.start`, :meth:`Brain.choose` and :meth:`Brain.end` raise
  :class:`~boardroom.client.bots.errors.BotFailedError` when the bot fails (crash, hang, an
  exception); nothing else escapes them.
- Any of them may be cancelled (the game ended while the bot was thinking);
  :meth:`Brain.close` then stops whatever is still running (it kills a program).
  :meth:`Brain.close` never raises and may be called at any point.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from boardroom.client.bots.state import GameResult, GameState


class Brain(ABC):
    """One game's bot (see the module docstring for the order of calls)."""

    async def start(self, state: GameState) -> None:  # noqa: B027 (optional hook)
        """The game has started; ``state`` may or may not be the bot's turn."""

    @abstractmethod
    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        """The bot's move in ``state``, as text, unchecked: the room is the judge.

        ``timeout``: seconds to wait before failing with ``hung`` (None: wait, the
        room's clock decides). ``time_ms``: the time the bot is told it has.
        """

    async def end(self, state: GameState, result: GameResult) -> None:  # noqa: B027
        """The game is over."""

    def reconnected(self) -> None:  # noqa: B027 (optional hook)
        """The connection dropped and came back during the game: a bot that keeps
        its own copy of the position (a Gomocup brain) is told it afresh."""

    async def close(self) -> None:  # noqa: B027
        """Release what the game used (stop the program); never raises."""


class BrainSource(ABC):
    """Makes a :class:`Brain` for each game, and owns what games share (the
    engine's worker processes). :meth:`open` before the first game, :meth:`close`
    after the last."""

    name: str
    """The player name to use when none is given (from the script or program file)."""

    def check_game(self, game: str) -> None:  # noqa: B027 (optional hook)
        """Raise :class:`~boardroom.client.bots.errors.BotLoadError` if this bot
        cannot play ``game`` at all (a Gomocup brain and Connect Four), so the
        run is refused before it joins anything. Accepts any game by default."""

    async def open(self) -> None:  # noqa: B027 (optional hook)
        """Get ready for the first game (start worker processes)."""

    @abstractmethod
    def new_brain(self, label: str) -> Brain:
        """A brain for one game; ``label`` names the game in logs (``ABCDEF game 2``)."""

    async def close(self) -> None:  # noqa: B027
        """Release what the games shared; never raises."""
