"""Kaggle ConnectX agents (``--kaggle agent.py``, ``--kaggle-url URL``) as bots.

The translation and the time rule are :mod:`boardroom.client.bots.kaggle_protocol`.
A file agent runs in a process of its own for each game
(:mod:`boardroom.client.bots.kaggle_worker`, over a
:class:`~boardroom.client.bots.pipe_bot.PipeProgram`), so an agent that
crashes or hangs loses its game, on time or by the bridge's resignation, and
the run goes on; as on Kaggle, its module-level state lasts one game. A URL
agent is asked by HTTP, as Kaggle asks one: a POST of ``{"action": "act",
"configuration": ..., "environment": "connectx", "state": {"observation":
...}}``, answered ``{"action": N}``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import (
    BotFailedError,
    BotLoadError,
    FailureKind,
    ProtocolMismatchError,
)
from boardroom.client.bots.kaggle_protocol import (
    ConnectXShape,
    KaggleTime,
    configuration,
    connectx_shape,
    move_of_action,
    observation,
)
from boardroom.client.bots.pipe_bot import PipeProgram, StderrLog
from boardroom.client.bots.state import GameState
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import get_game
from boardroom.shared.i18n import _

CHECK_TIMEOUT = 60.0
"""Seconds the agent's file may take to load when checked before the run (an
agent may import a large library)."""
LOAD_TIMEOUT = CHECK_TIMEOUT
"""Seconds the agent's process has to load the file at the start of each game."""
WORKER = "boardroom.client.bots.kaggle_worker"


def _check_game(flag: str, game: str) -> None:
    try:
        connectx_shape(get_game(game))
    except ProtocolMismatchError as error:
        raise BotLoadError(f"{flag}: {error}") from None
    except BoardroomError:
        return  # an unknown game: the server says so, in its words


def _shape(state: GameState) -> ConnectXShape:
    try:
        return connectx_shape(state.rules)
    except ProtocolMismatchError as error:
        raise BotFailedError(FailureKind.RAISED, str(error)) from None


def _move(reply: dict[str, Any]) -> str:
    """The move of an agent's reply, or :class:`BotFailedError`."""
    if "error" in reply:
        raise BotFailedError(
            FailureKind.RAISED, _("the agent raised {error}", error=str(reply["error"]).rstrip())
        )
    move = move_of_action(reply.get("action"))
    if move is None:
        shown = reply.get("returned", repr(reply.get("action")))
        raise BotFailedError(
            FailureKind.RAISED,
            _("the agent returned {action}, not a column (a whole number from 0)", action=shown),
        )
    return move


class KaggleBrains(BrainSource):
    """``--kaggle PATH``: the agent in the file plays every game, a new process each."""

    def __init__(self, path: str | Path, log: StderrLog) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise BotLoadError(_("--kaggle: no such file: {path}", path=path))
        self.name = self.path.stem
        self.log = log

    def check_game(self, game: str) -> None:
        _check_game("--kaggle", game)

    def check_agent(self, timeout: float = CHECK_TIMEOUT) -> str:
        """Load the file in a process of its own, as a game will: the agent
        function's name, or :class:`BotLoadError` saying what is wrong."""
        try:
            done = subprocess.run(  # noqa: S603 - our own worker, on the user's file
                [sys.executable, "-m", WORKER, "--check", str(self.path)],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise BotLoadError(
                _(
                    "--kaggle: {path} did not load within {seconds} s",
                    path=self.path,
                    seconds=format(timeout, "g"),
                )
            ) from None
        try:
            reply = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            raise BotLoadError(
                _(
                    "--kaggle: {path} could not be loaded: {error}",
                    path=self.path,
                    error=done.stderr,
                )
            ) from None
        if "error" in reply:
            raise BotLoadError(f"--kaggle: {reply['error']}")
        return str(reply["name"])

    def new_brain(self, label: str) -> KaggleBrain:
        return KaggleBrain(self, label)

    async def close(self) -> None:
        self.log.close()


class KaggleBrain(Brain):
    """One game of a file agent: its own process, and Kaggle's overage bank."""

    def __init__(self, source: KaggleBrains, label: str) -> None:
        self.source = source
        self.label = label
        self.rule = KaggleTime()
        self.program: PipeProgram | None = None
        self._starting: asyncio.Future[PipeProgram] | None = None

    async def start(self, state: GameState) -> None:
        _shape(state)
        argv = [sys.executable, "-m", WORKER, str(self.source.path)]
        # Shielded, as a --cmd program's start: close() stops what started.
        self._starting = asyncio.ensure_future(
            PipeProgram.start(argv, lambda line: self.source.log.write(self.label, line))
        )
        self.program = await asyncio.shield(self._starting)
        # The file loads before the first move is asked: its time is its own.
        ready = await self.program.exchange([], timeout=LOAD_TIMEOUT)
        if not ready.startswith('{"ready"'):
            raise BotFailedError(
                FailureKind.CRASHED, _("the agent's process answered {line!r}", line=ready[:200])
            )

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        if self.program is None:
            await self.start(state)
        assert self.program is not None
        act, overage, wait = self.rule.budget(timeout=timeout, time_ms=time_ms)
        request = {
            "observation": observation(state, remaining_overage=overage),
            "configuration": configuration(_shape(state), act_timeout=act),
        }
        began = time.monotonic()
        answer = await self.program.ask(json.dumps(request), timeout=wait)
        self.rule.spent(time.monotonic() - began, act_timeout=act)
        try:
            reply = json.loads(answer)
        except ValueError:
            raise BotFailedError(
                FailureKind.CRASHED, _("the agent's process answered {line!r}", line=answer[:200])
            ) from None
        return _move(reply)

    async def close(self) -> None:
        if self.program is None and self._starting is not None:
            try:
                self.program = await self._starting
            except BotFailedError:
                return
        if self.program is not None:
            await self.program.stop()


class KaggleUrlBrains(BrainSource):
    """``--kaggle-url URL``: an agent served over HTTP, as Kaggle's URL agents."""

    def __init__(self, url: str) -> None:
        if not url.startswith(("http://", "https://")):
            raise BotLoadError(
                _("--kaggle-url: {url} is not an http:// or https:// address", url=url)
            )
        self.url = url
        self.name = "kaggle-agent"

    def check_game(self, game: str) -> None:
        _check_game("--kaggle-url", game)

    def new_brain(self, label: str) -> KaggleUrlBrain:
        return KaggleUrlBrain(self.url)


class KaggleUrlBrain(Brain):
    """One game of a URL agent."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.rule = KaggleTime()

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        act, overage, wait = self.rule.budget(timeout=timeout, time_ms=time_ms)
        body = {
            "action": "act",
            "configuration": configuration(_shape(state), act_timeout=act),
            "environment": "connectx",
            "state": {"observation": observation(state, remaining_overage=overage)},
        }
        began = time.monotonic()
        try:
            async with asyncio.timeout(wait):
                reply = await asyncio.to_thread(_post, self.url, body, wait)
        except TimeoutError:
            raise BotFailedError(
                FailureKind.HUNG,
                _("the agent did not answer within {seconds} s", seconds=format(wait, "g")),
            ) from None
        self.rule.spent(time.monotonic() - began, act_timeout=act)
        action = reply.get("action")
        if isinstance(action, str):  # Kaggle's words for a timeout or an exception
            raise BotFailedError(
                FailureKind.RAISED, _("the agent answered {action}", action=action)
            )
        return _move(reply)


def _post(url: str, body: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    """POST ``body`` as JSON, the JSON answer; :class:`BotFailedError` (crashed)
    when the agent cannot be reached or answers no JSON object."""
    request = urllib.request.Request(  # noqa: S310 - http(s) only, checked above
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            reply = json.loads(response.read())
    except TimeoutError:
        raise
    except (OSError, ValueError) as error:
        raise BotFailedError(
            FailureKind.CRASHED, _("the agent at {url} failed: {error}", url=url, error=error)
        ) from None
    if not isinstance(reply, dict):
        raise BotFailedError(
            FailureKind.CRASHED, _("the agent at {url} answered no JSON object", url=url)
        )
    return reply
