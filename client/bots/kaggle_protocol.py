"""Kaggle's ConnectX as pure translation: a position to the ``observation`` and
``configuration`` an agent is called with, its ``action`` back to a move, and
Kaggle's time rule. No process, no I/O: the agent's process is
:mod:`boardroom.client.bots.kaggle_worker`, driven by
:mod:`boardroom.client.bots.kaggle_bot`.

What Kaggle's ``kaggle_environments`` passes a ConnectX agent, and this module
builds the same: ``observation.board`` (rows x columns ints, top row first, 0
empty, 1 the first player's, 2 the second's), ``observation.mark`` (the
agent's: 1 or 2), ``observation.step`` (moves played), and
``observation.remainingOverageTime``; ``configuration.columns``, ``rows``,
``inarow``, ``actTimeout``, ``agentTimeout`` and ``timeout``. Both are
:class:`Struct`, read as attributes or as a dict. The agent's action is a
column from 0; Boardroom's Connect Four columns count from 1.

>>> from boardroom.client.bots.state import game_state
>>> from boardroom.shared.games import Player
>>> from boardroom.shared.protocol.messages import Clock, RoomState, SeatInfo
>>> state = game_state(RoomState(code="ABCDEF", game="connect4", title="Connect Four",
...     status="playing", public=True, clock=Clock(), moves="44", ply=2, to_move=Player.FIRST,
...     seats=[SeatInfo(side=Player.FIRST), SeatInfo(side=Player.SECOND)], you=Player.FIRST))
>>> seen = Struct(observation(state, remaining_overage=60.0))
>>> seen.board[-7:], seen["mark"], seen.step
([0, 0, 0, 1, 0, 0, 0], 1, 2)
>>> seen.board[-14:-7]
[0, 0, 0, 2, 0, 0, 0]
>>> move_of_action(3), move_of_action(True), move_of_action("3")
('4', None, None)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

from boardroom.client.bots.errors import ProtocolMismatchError
from boardroom.client.bots.state import GameState
from boardroom.shared.games import Game, GridGame, Player
from boardroom.shared.i18n import _

ACT_TIMEOUT = 2.0
"""Kaggle's ``actTimeout`` for ConnectX: seconds a move may take before the
overage bank is drawn on."""
OVERAGE_BANK = 60.0
"""Kaggle's ``agentTimeout``: the overage bank, seconds over ``actTimeout`` an
agent may spend in all over a game."""
MARKS = {"X": 1, "O": 2, ".": 0}


class Struct(dict[str, Any]):
    """A dict whose keys read as attributes too, as Kaggle's ``Struct``:
    ``observation.board`` and ``observation["board"]`` are the same.

    >>> seen = Struct({"mark": 1})
    >>> seen.mark, seen["mark"], seen.get("step", 0)
    (1, 1, 0)
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


@dataclass(frozen=True)
class ConnectXShape:
    """A ConnectX board: ``columns`` by ``rows``, ``inarow`` to win."""

    columns: int
    rows: int
    inarow: int


def connectx_shape(rules: Game) -> ConnectXShape:
    """The ConnectX board of ``rules``, or :class:`ProtocolMismatchError`: ConnectX
    is a board where stones fall (Connect Four, and any such board the server has).

    >>> from boardroom.shared.games import get_game
    >>> connectx_shape(get_game("connect4"))
    ConnectXShape(columns=7, rows=6, inarow=4)
    """
    if not isinstance(rules, GridGame) or not rules.gravity:
        raise ProtocolMismatchError(
            _(
                "a Kaggle ConnectX agent plays a game where stones fall (connect4), not {game}",
                game=rules.name,
            )
        )
    grid = rules.grid
    return ConnectXShape(grid.width, grid.height, grid.k)


def observation(state: GameState, *, remaining_overage: float) -> dict[str, Any]:
    """What the agent sees of ``state`` (a plain dict: it crosses to the agent's
    process as JSON, and becomes a :class:`Struct` there)."""
    board = [MARKS[cell] for row in state.board for cell in row]
    return {
        "board": board,
        "mark": 1 if state.side is Player.FIRST else 2,
        "step": state.ply,
        "remainingOverageTime": round(max(0.0, remaining_overage), 3),
    }


def configuration(shape: ConnectXShape, *, act_timeout: float) -> dict[str, Any]:
    """The game's settings as Kaggle names them (``timeout`` is the old name of
    ``actTimeout``; ``agentTimeout`` the overage bank a game starts with)."""
    return {
        "columns": shape.columns,
        "rows": shape.rows,
        "inarow": shape.inarow,
        "actTimeout": round(act_timeout, 3),
        "agentTimeout": OVERAGE_BANK,
        "timeout": round(act_timeout, 3),
    }


def move_of_action(action: object) -> str | None:
    """Boardroom's column (from 1) for an agent's action (a column from 0); None
    when the action is not a whole number. A number off the board is passed on
    as it is, for the server to refuse."""
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        return None
    return str(int(action) + 1)


@dataclass
class KaggleTime:
    """Kaggle's time rule for one game, on Boardroom's clocks.

    On Kaggle a move may take ``actTimeout`` (2 s) plus what is left of a 60 s
    overage bank, and what it takes over 2 s is drawn from the bank. Here:

    - in a room **with a clock**, the room's clock is the rule: the agent is
      told ``actTimeout`` 2 s (less if less is left) and, as its overage, the
      rest of its clock; the room decides when time is up;
    - **without a clock**, the bank is Kaggle's, but no move may take longer
      than ``--move-timeout``: ``actTimeout`` is 2 s (or the move timeout, if
      shorter), and the overage told and allowed is the bank, cut to what the
      move timeout leaves.

    >>> rule = KaggleTime()
    >>> rule.budget(timeout=30.0, time_ms=30000)
    (2.0, 28.0, 30.0)
    >>> rule.spent(12.0, act_timeout=2.0); rule.bank
    50.0
    >>> rule.budget(timeout=1.0, time_ms=1000), rule.budget(timeout=None, time_ms=5000)
    ((1.0, 0.0, 1.0), (2.0, 3.0, None))
    """

    bank: float = OVERAGE_BANK

    def budget(self, *, timeout: float | None, time_ms: int) -> tuple[float, float, float | None]:
        """``(actTimeout, remainingOverageTime, wait)`` for the next move: what the
        agent is told, and how long to wait for it (None: the room's clock decides)."""
        if timeout is None:
            left = max(0.0, time_ms / 1000)
            act = min(ACT_TIMEOUT, left)
            return act, left - act, None
        act = min(ACT_TIMEOUT, timeout)
        overage = max(0.0, min(self.bank, timeout - act))
        return act, overage, act + overage

    def spent(self, seconds: float, *, act_timeout: float) -> None:
        """A move took ``seconds``: what it took over ``act_timeout`` leaves the bank."""
        self.bank = max(0.0, self.bank - max(0.0, seconds - act_timeout))
