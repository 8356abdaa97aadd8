"""Bots in Python: a script's ``choose_move`` (and hooks) behind the :class:`Brain` interface.

A plain function runs in a worker thread, so a slow bot never stalls the
connection (its heartbeats, the other games); an ``async def`` one runs on the
event loop. The threads are daemon threads of our own rather than
``asyncio.to_thread``: a bot stuck in an endless loop cannot be stopped from
outside, and a daemon thread at least does not keep the process from exiting
(the default executor's threads are joined at exit, for ever).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import threading
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.loader import BotScript, Player
from boardroom.client.bots.state import GameResult, GameState
from boardroom.shared.i18n import _

T = TypeVar("T")


class PythonBrain(Brain):
    """One game of a script bot. A :class:`~boardroom.client.bots.Bot` class gets a new
    instance here (its constructor runs in :meth:`start`, where a failure is
    reported like any other)."""

    def __init__(self, script: BotScript, label: str, *, hook_timeout: float) -> None:
        self.script = script
        self.label = label
        self.hook_timeout = hook_timeout
        self.player: Player | None = None

    async def start(self, state: GameState) -> None:
        self.player = await _call(self.script.new_player, (), "creating the bot", self.hook_timeout)
        if self.player.on_game_start is not None:
            await _call(self.player.on_game_start, (state,), "on_game_start", self.hook_timeout)

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        if self.player is None:
            await self.start(state)
        assert self.player is not None
        move = await _call(self.player.choose_move, (state,), "choose_move", timeout)
        if isinstance(move, int) and not isinstance(move, bool):
            return str(move)  # a Connect Four column as a number
        if not isinstance(move, str):
            raise BotFailedError(
                FailureKind.RAISED,
                _(
                    "choose_move returned {move!r}, not a move: return one of "
                    "state.legal_moves, such as {example!r}",
                    move=move,
                    example=state.legal_moves[0],
                )
                if state.legal_moves
                else _("choose_move returned {move!r}, not a move", move=move),
            )
        return move

    async def end(self, state: GameState, result: GameResult) -> None:
        if self.player is not None and self.player.on_game_end is not None:
            await _call(self.player.on_game_end, (state, result), "on_game_end", self.hook_timeout)


class ScriptBrains(BrainSource):
    """``--script``: the script's bot plays every game (a new instance each for a class).

    ``hook_timeout``: seconds allowed to the constructor and to ``on_game_start``
    and ``on_game_end`` (the ``--move-timeout``).
    """

    def __init__(self, script: BotScript, *, hook_timeout: float) -> None:
        self.script = script
        self.name = script.name
        self.hook_timeout = hook_timeout

    def new_brain(self, label: str) -> PythonBrain:
        return PythonBrain(self.script, label, hook_timeout=self.hook_timeout)


async def _call(
    function: Callable[..., object], arguments: tuple[object, ...], what: str, timeout: float | None
) -> Any:
    """Run the bot's ``function(*arguments)``: ``async def`` on the loop, plain in a
    daemon thread (an awaitable it returns is awaited on the loop).

    Raises :class:`BotFailedError`: ``raised`` with the traceback if it raises,
    ``hung`` if it takes longer than ``timeout`` seconds.
    """
    on_loop = inspect.iscoroutinefunction(function)
    try:
        async with asyncio.timeout(timeout):
            if on_loop:
                result = await function(*arguments)  # type: ignore[misc]
            else:
                result = await _in_thread(lambda: function(*arguments))
            if inspect.isawaitable(result):
                result = await result
    except TimeoutError:
        seconds = format(timeout, "g")
        raise BotFailedError(
            FailureKind.HUNG,
            _("{hook} did not return within {seconds} s", hook=what, seconds=seconds)
            if on_loop
            else _(
                "{hook} did not return within {seconds} s (its thread is left running)",
                hook=what,
                seconds=seconds,
            ),
        ) from None
    except Exception as error:
        raise BotFailedError(
            FailureKind.RAISED, _("{hook} raised {error}", hook=what, error=_traceback(error))
        ) from None
    return result


async def _in_thread(function: Callable[[], T]) -> T:
    """``function()`` in a new daemon thread; cancelling abandons it (it runs on)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(outcome: Callable[[], object]) -> None:
        if not future.done():
            outcome()

    def work() -> None:
        try:
            value = function()
        except BaseException as error:
            report = functools.partial(future.set_exception, error)
        else:
            report = functools.partial(future.set_result, value)
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(deliver, report)

    threading.Thread(target=work, name="bot", daemon=True).start()
    return await future


def _traceback(error: BaseException) -> str:
    """The error and the frames of the bot's own code (ours are left out)."""
    frames = traceback.extract_tb(error.__traceback__)
    own = [frame for frame in frames if frame.filename != __file__]
    lines = [f"{type(error).__name__}: {error}"]
    if own:
        lines.append("Traceback (most recent call last):")
        lines.extend(line.rstrip("\n") for line in traceback.format_list(own))
        lines.append(f"{type(error).__name__}: {error}")
    return "\n".join(lines)
