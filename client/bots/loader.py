"""Loading a Python bot script: a ``choose_move`` function, or a :class:`~boardroom.client.bots.Bot`
class.

A script is a plain Python file. It is a bot if it defines either

- a function ``choose_move(state)`` returning a move, and optionally
  ``on_game_start(state)`` and ``on_game_end(state, result)``; the module is
  loaded once and its functions play every game; or
- one subclass of :class:`boardroom.client.bots.Bot`, of which a new instance plays each game.

:func:`load_script` checks all this before anything connects, and raises
:class:`~boardroom.client.bots.errors.BotLoadError` with one line saying what to fix.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from boardroom.client.bots.bot import Bot
from boardroom.client.bots.errors import BotLoadError
from boardroom.shared.i18n import _

HOOKS = {"choose_move": ("state",), "on_game_start": ("state",), "on_game_end": ("state", "result")}
"""The functions a bot may define, with the arguments each is called with."""


@dataclass(frozen=True)
class Player:
    """What plays one game: the functions found on a module or a :class:`Bot` instance.

    Each may be a plain function (run in a worker thread) or ``async def``.
    """

    choose_move: Callable[..., object]
    on_game_start: Callable[..., object] | None = None
    on_game_end: Callable[..., object] | None = None


@dataclass(frozen=True)
class BotScript:
    """A loaded script: call :meth:`new_player` for each game."""

    path: Path
    module: ModuleType
    bot_class: type[Bot] | None
    """The script's :class:`Bot` subclass; None for a script of functions."""

    @property
    def name(self) -> str:
        """A player name: the script's file name without ``.py``."""
        return self.path.stem

    def new_player(self) -> Player:
        """The player for a new game: a fresh instance of the bot class, or the
        module's functions (the same ones every game). A class whose constructor
        raises lets the exception through, for the caller to report."""
        if self.bot_class is None:
            return _player_of(self.module)
        return _player_of(self.bot_class())


def load_script(path: str | Path) -> BotScript:
    """Import the bot script at ``path`` and find its bot (see the module docstring).

    The script's folder is added to the end of ``sys.path``, so it can import
    the modules beside it (those whose names nothing installed already takes).
    Raises :class:`BotLoadError`.
    """
    path = Path(path)
    if not path.is_file():
        raise BotLoadError(_("--script: no such file: {path}", path=path))
    module = _import(path)
    classes = [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Bot)
        and value is not Bot
        and value.__module__ == module.__name__
    ]
    if len(classes) > 1:
        names = ", ".join(cls.__name__ for cls in classes)
        raise BotLoadError(
            _("{path} defines several Bot classes ({names}): keep one", path=path, names=names)
        )
    if classes:
        bot_class = classes[0]
        if bot_class.choose_move is Bot.choose_move:
            raise BotLoadError(
                _(
                    "{path}: class {name} must define choose_move",
                    path=path,
                    name=bot_class.__name__,
                )
            )
        try:
            inspect.signature(bot_class).bind()
        except TypeError:
            raise BotLoadError(
                _(
                    "{path}: class {name} must be creatable without arguments "
                    "(a new one plays each game)",
                    path=path,
                    name=bot_class.__name__,
                )
            ) from None
        _check_hooks(path, bot_class, method=True)
        return BotScript(path, module, bot_class)
    if not hasattr(module, "choose_move"):
        raise BotLoadError(
            _(
                "{path} defines no choose_move(state) function and no Bot class: "
                "see docs/bots.md for a 15-line example",
                path=path,
            )
        )
    _check_hooks(path, module, method=False)
    return BotScript(path, module, None)


def _import(path: Path) -> ModuleType:
    # A name of our own, so a script called random.py does not replace the
    # standard library's module for everyone else.
    stem = re.sub(r"\W", "_", path.stem)
    name = f"boardroom_bot_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BotLoadError(_("--script: {path} is not a Python file", path=path))
    module = importlib.util.module_from_spec(spec)
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        # Last, not first (as ``python script.py`` would put it): a random.py
        # beside the script must not replace the standard library's module for
        # this process, or for the worker processes it spawns.
        sys.path.append(folder)
    sys.modules[name] = module  # dataclasses and pickle look their module up here
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        del sys.modules[name]
        raise BotLoadError(
            _(
                "{path}, line {line}: syntax error: {error}",
                path=path,
                line=error.lineno,
                error=error.msg,
            )
        ) from None
    except Exception as error:
        del sys.modules[name]
        line = _error_line(error, path)
        failure = f"{type(error).__name__}: {error}"
        raise BotLoadError(
            _("{path} failed to load: {error}", path=path, error=failure)
            if line is None
            else _(
                "{path} failed to load, line {line}: {error}", path=path, line=line, error=failure
            )
        ) from None
    return module


def _error_line(error: BaseException, path: Path) -> int | None:
    """The deepest line of the script in the error's traceback (None: none)."""
    resolved = path.resolve()
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(error.__traceback__)
        if Path(frame.filename).resolve() == resolved
    ]
    return lines[-1] if lines else None


def _check_hooks(path: Path, owner: object, *, method: bool) -> None:
    """Each hook ``owner`` defines is callable with the arguments it will get."""
    for hook, arguments in HOOKS.items():
        function = getattr(owner, hook, None)
        if function is None:
            continue
        parameters = ("self", *arguments) if method else arguments
        shown = f"{hook}({', '.join(parameters)})"
        if not callable(function):
            raise BotLoadError(
                _(
                    "{path}: {hook} must be a function: {definition}",
                    path=path,
                    hook=hook,
                    definition="def " + shown,
                )
            )
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            continue  # a builtin or C function: trust it
        try:
            signature.bind(*parameters)
        except TypeError:
            raise BotLoadError(
                _(
                    "{path}: {hook} must take {arguments}: {definition}",
                    path=path,
                    hook=hook,
                    arguments=", ".join(arguments),
                    definition="def " + shown,
                )
            ) from None


def _player_of(owner: object) -> Player:
    return Player(
        choose_move=owner.choose_move,  # type: ignore[attr-defined]
        on_game_start=getattr(owner, "on_game_start", None),
        on_game_end=getattr(owner, "on_game_end", None),
    )
