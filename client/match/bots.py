"""The two players of a match, A and B: any bot ``boardroom bot`` plays.

A player is named on the command line by a flag and a value, as ``boardroom bot``
names its brain: ``--engine LEVEL``, ``--script PATH``, ``--cmd COMMAND``. Each
becomes a :class:`~boardroom.client.bots.brains.BrainSource`, which makes a fresh
:class:`~boardroom.client.bots.brains.Brain` for every game, so the match runner
plays every kind of bot the same way.

A new kind of bot (Gomocup brains, Kaggle agents) plugs in with one entry in
:data:`KINDS`: its flag, its help, and a function from the flag's value to a
brain source.

The engine plays seeded here (:class:`SeededEngineBrains`): every move's seed
comes from the match's seed, the game and the ply, so a match between levels
that do not stop on the clock replays move for move.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.engine_bot import EngineBrain, EngineBrains
from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.foreign import foreign_brains
from boardroom.client.bots.loader import load_script
from boardroom.client.bots.pipe_bot import PipeBrains, StderrLog
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.shared.engine import SearchRequest, run_search_request
from boardroom.shared.errors import BoardroomError
from boardroom.shared.i18n import N_, _


@dataclass(frozen=True, slots=True)
class Options:
    """What every bot of a match shares."""

    seed: int
    """The match's seed (the engine's moves are drawn from it)."""
    workers: int
    """Searches of the engine at once: 0 runs them in a thread of this process
    (no worker to start: the quickest for one game at a time)."""
    move_timeout: float
    """Seconds a script's hooks may take, and a program's move in a game without a clock."""
    game: str = ""
    """The match's game: a bot that cannot play it is refused before it starts."""


SourceFactory = Callable[[str, Options], BrainSource]


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of bot: its flag (``--engine``), the flag's metavar and help, and
    how to make its brains from the flag's value."""

    flag: str
    metavar: str
    help: str
    make: SourceFactory


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One player as the command line named it: ``--engine hard``."""

    flag: str
    value: str

    @property
    def text(self) -> str:
        """``--engine hard``, as typed."""
        return f"{self.flag} {self.value}"


class SeededEngineBrains(EngineBrains):
    """``--engine LEVEL`` in a match: the engine, each move seeded from the
    match's seed, the game's label and the ply; with ``workers=0`` searches run
    in a thread of this process instead of worker processes."""

    def __init__(self, level: str, options: Options) -> None:
        super().__init__(level, workers=max(1, options.workers))
        self.in_process = options.workers == 0
        self.seed = options.seed

    async def open(self) -> None:
        if not self.in_process:
            await super().open()

    async def search(self, request: SearchRequest) -> str:
        if not self.in_process:
            return await super().search(request)
        try:
            result = await asyncio.to_thread(run_search_request, request)
        except BoardroomError as error:
            raise BotFailedError(
                FailureKind.RAISED, _("the engine refused the search: {error}", error=error)
            ) from None
        return result.move_text

    def new_brain(self, label: str) -> EngineBrain:
        return EngineBrain(self, random.Random(f"{self.seed}/{label}"))


def _engine(value: str, options: Options) -> BrainSource:
    return SeededEngineBrains(value, options)


def _script(value: str, options: Options) -> BrainSource:
    return ScriptBrains(load_script(value), hook_timeout=options.move_timeout)


def _command(value: str, options: Options) -> BrainSource:
    return PipeBrains(value, StderrLog(None))


def _gomocup(value: str, options: Options) -> BrainSource:
    return foreign_brains(
        gomocup=value, move_timeout=options.move_timeout, game=options.game or None, ask_name=True
    )


def _kaggle(value: str, options: Options) -> BrainSource:
    return foreign_brains(
        kaggle=value, move_timeout=options.move_timeout, game=options.game or None
    )


KINDS: tuple[Kind, ...] = (
    Kind("--engine", "LEVEL", N_("Boardroom's engine at a level (random ... perfect)"), _engine),
    Kind(
        "--script", "PATH", N_("a Python file defining choose_move(state) or a Bot class"), _script
    ),
    Kind("--cmd", "COMMAND", N_("a program speaking the line protocol (docs/bots.md)"), _command),
    Kind("--gomocup", "COMMAND", N_("a Gomocup brain (the Piskvork protocol)"), _gomocup),
    Kind("--kaggle", "PATH", N_("a Kaggle ConnectX agent's file"), _kaggle),
)
"""Every kind of bot a match can play, by flag. Add a kind here and ``boardroom
match`` takes it as A or B, and in ``--gauntlet``."""


def kind_of(flag: str) -> Kind:
    """The kind of bot of ``flag`` (one of :data:`KINDS`)."""
    return next(kind for kind in KINDS if kind.flag == flag)


def make_source(spec: BotSpec, options: Options) -> BrainSource:
    """The brain source of ``spec``; :class:`~boardroom.client.bots.errors.BotLoadError`
    when it cannot be used (no such file, level or program)."""
    return kind_of(spec.flag).make(spec.value, options)
