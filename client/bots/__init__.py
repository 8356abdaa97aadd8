"""The bot SDK: write a bot in Python (or any language) and let ``boardroom bot`` play it.

- :class:`GameState` and :class:`GameResult`: what a bot is shown (:mod:`.state`);
- :class:`Bot`: the base class for a bot with per-game state (:mod:`.bot`);
- :mod:`.loader`: a bot script (a ``choose_move`` function or a :class:`Bot` subclass);
- :mod:`.brains`, :mod:`.python_bot`, :mod:`.pipe_bot`, :mod:`.engine_bot`: the
  three kinds of bot behind one interface (a script, a program over stdin and
  stdout, the engine);
- :mod:`.runner`: seats the bot in rooms and plays games one after another or
  several at once, over one session; :mod:`.game_play` plays each game,
  :mod:`.run_options` holds what a run is asked to play.

``docs/bots.md`` is the guide for bot authors.
"""

from boardroom.client.bots.bot import Bot
from boardroom.client.bots.state import GameResult, GameState

__all__ = ["Bot", "GameResult", "GameState"]
