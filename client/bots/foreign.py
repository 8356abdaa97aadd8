"""Bots written for other platforms, made from the command line's words.

One entry point for every command that runs such bots (``boardroom bot``,
``boardroom match``): :func:`foreign_brains` turns ``--gomocup COMMAND``,
``--kaggle PATH`` or ``--kaggle-url URL`` into a
:class:`~boardroom.client.bots.brains.BrainSource`, checked (the program
exists, the agent's file loads), or raises
:class:`~boardroom.client.bots.errors.BotLoadError` saying what to fix. Call
its ``check_game(game)`` to refuse a game the protocol cannot describe before
anything is joined.
"""

from __future__ import annotations

from pathlib import Path

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.gomocup_bot import GomocupBrains
from boardroom.client.bots.kaggle_bot import KaggleBrains, KaggleUrlBrains
from boardroom.client.bots.pipe_bot import StderrLog


def foreign_brains(
    *,
    gomocup: str | None = None,
    kaggle: str | Path | None = None,
    kaggle_url: str | None = None,
    log: Path | None = None,
    move_timeout: float = 30.0,
    game: str | None = None,
    ask_name: bool = False,
) -> BrainSource:
    """The bot of exactly one of ``gomocup`` (a command), ``kaggle`` (an agent's
    file) or ``kaggle_url``. ``log``: where the programs' stderr goes (None: this
    process's stderr); ``move_timeout``: the time a move has in rooms without a
    clock, as ``--move-timeout``; ``game``: the game to be played, if known
    (refused first, before any program starts, if the bot cannot play it);
    ``ask_name``: ask a Gomocup brain its name (``ABOUT``) for the source's
    ``name``."""
    if gomocup is not None:
        brains = GomocupBrains(gomocup, StderrLog(log), move_timeout=move_timeout)
        if game is not None:
            brains.check_game(game)
        if ask_name:
            brains.read_about()
        return brains
    if kaggle is not None:
        agent = KaggleBrains(kaggle, StderrLog(log))
        if game is not None:
            agent.check_game(game)
        agent.check_agent()
        return agent
    if kaggle_url is None:
        raise ValueError("foreign_brains: give gomocup, kaggle or kaggle_url")
    url_agent = KaggleUrlBrains(kaggle_url)
    if game is not None:
        url_agent.check_game(game)
    return url_agent
