"""The base class for bots written as a class.

A bot can be a plain module with a ``choose_move(state)`` function, or a subclass
of :class:`Bot` when it keeps state during a game: ``boardroom bot`` makes a new
instance for every game, so ``self`` starts fresh each time::

    from boardroom.client.bots import Bot

    class Mirror(Bot):
        def on_game_start(self, state):
            self.seen = 0

        def choose_move(self, state):
            self.seen += 1
            return state.legal_moves[0]
"""

from __future__ import annotations

from collections.abc import Awaitable

from boardroom.client.bots.state import GameResult, GameState


class Bot:
    """A bot for one game. Override :meth:`choose_move`; the hooks are optional.

    Each method may also be written ``async def``. Plain methods run in a worker
    thread, so a slow one never stalls the connection; a bot that plays several
    games at once (``--parallel``) gets one instance per game, each called from
    one thread at a time.
    """

    def on_game_start(self, state: GameState) -> Awaitable[None] | None:
        """Called once when the game starts (``state.my_turn`` says who moves first)."""

    def choose_move(self, state: GameState) -> str | Awaitable[str]:
        """The move to play in ``state`` (one of ``state.legal_moves``)."""
        raise NotImplementedError(f"{type(self).__name__} must define choose_move(self, state)")

    def on_game_end(self, state: GameState, result: GameResult) -> Awaitable[None] | None:
        """Called once when the game is over; ``result.outcome`` is ``win``, ``loss``,
        ``draw`` or ``aborted``."""
