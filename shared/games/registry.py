"""The one list of games: every :class:`~boardroom.shared.games.spec.GameSpec` the rules declare.

Each module of :mod:`boardroom.shared.games` that defines a game declares it in a
module-level ``GAME_SPECS`` tuple; this module imports them all, once, in menu
order. Adding a game is writing its module: nothing here, and nothing in the
server or the clients, names it.

>>> [spec.name for spec in game_specs()][:3]
['tictactoe', 'tictactoe4', 'connect4']
>>> spec_of("mnk-5-5-4").name, spec_of("c4").name
('mnk', 'connect4')
>>> spec_for(get_game("gomoku")).title
'Gomoku'
>>> default_game().title
'Connect Four'
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re

from boardroom.shared.errors import GameOptionsError, UnknownGameError
from boardroom.shared.games.base import Game
from boardroom.shared.games.spec import GameSpec

__all__ = ["choices_text", "default_game", "game_specs", "get_game", "spec_for", "spec_of"]

_SIZED_NAME = re.compile(r"([a-z][a-z0-9]*)((?:-[0-9]{1,2})+)")
"""A family's board name: the family's name and its sizes, ``mnk-5-5-4``."""


@functools.cache
def game_specs() -> tuple[GameSpec, ...]:
    """Every game, in menu order (then by name). Families of boards (``mnk``) are
    one spec each."""
    import boardroom.shared.games as package

    specs: list[GameSpec] = []
    for module in pkgutil.iter_modules(package.__path__):
        declared = importlib.import_module(f"boardroom.shared.games.{module.name}")
        specs.extend(getattr(declared, "GAME_SPECS", ()))
    names = [name for spec in specs for name in (spec.name, *spec.aliases)]
    duplicated = {name for name in names if names.count(name) > 1}
    if duplicated:
        raise RuntimeError(f"two games claim the names {sorted(duplicated)}")
    defaults = [spec.name for spec in specs if spec.default]
    if len(defaults) > 1:
        raise RuntimeError(f"two games claim to be the default: {sorted(defaults)}")
    return tuple(sorted(specs, key=lambda spec: (spec.menu_order, spec.name)))


def default_game() -> GameSpec:
    """The game chosen when nobody chose one: the spec marked
    :attr:`~boardroom.shared.games.spec.GameSpec.default` (at most one is), else the
    first in menu order. Every client's default (quick match, ``play --local``,
    the browser's forms through ``GET /api/games``) is this one."""
    specs = game_specs()
    return next((spec for spec in specs if spec.default), specs[0])


@functools.cache
def _by_name() -> dict[str, GameSpec]:
    return {name: spec for spec in game_specs() for name in (spec.name, *spec.aliases)}


def spec_of(name: str) -> GameSpec:
    """The spec a game's name (or alias, or a family board's ``mnk-M-N-K``) names.

    Raises :class:`~boardroom.shared.errors.UnknownGameError` listing the choices."""
    spec = _by_name().get(name)
    if spec is None:
        match = _SIZED_NAME.fullmatch(name)
        spec = _by_name().get(match.group(1)) if match else None
        if spec is None or not spec.is_family:
            raise UnknownGameError(f"unknown game {name!r}: choose one of {choices_text()}")
    return spec


def spec_for(game: Game) -> GameSpec:
    """The spec of a game made by the registry (a preset's own, not its family's)."""
    return spec_of(game.name)


def get_game(name: str, **sizes: int | None) -> Game:
    """The game called ``name`` (a name or alias from :func:`game_specs`), or a
    family's board: ``mnk-5-5-4``, or ``mnk`` with its sizes as keywords.

    Games are immutable and cached, so the same name gives the same object.
    Raises :class:`~boardroom.shared.errors.UnknownGameError` for an unknown name and
    :class:`~boardroom.shared.errors.GameOptionsError` for missing or out-of-range sizes.
    """
    spec = spec_of(name)
    if not spec.is_family:
        return _build(spec.name, ())
    given = {key: value for key, value in sizes.items() if value is not None}
    if name != spec.name:  # "mnk-5-5-4": the sizes are in the name
        values = [int(value) for value in name[len(spec.name) + 1 :].split("-")]
        if len(values) != len(spec.sizes):
            raise UnknownGameError(f"unknown game {name!r}: choose one of {choices_text()}")
        given = dict(zip((s.name for s in spec.sizes), values, strict=True))
    missing = [s.name for s in spec.sizes if s.name not in given]
    if missing:
        named = [f"{s.name} ({s.meaning})" for s in spec.sizes]
        wanted = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
        raise GameOptionsError(f"game {spec.name!r} needs its sizes: {wanted}")
    for size in spec.sizes:
        value = given[size.name]
        # Checked before the cache: 3.0 == 3 would find the 3 board's entry.
        if type(value) is not int:
            raise GameOptionsError(
                f"{size.name}={value!r}: the {size.meaning} must be a whole number "
                f"from {size.low} to {size.high}"
            )
    return _build(spec.name, tuple(given[s.name] for s in spec.sizes))


@functools.cache
def _build(name: str, sizes: tuple[int, ...]) -> Game:
    spec = _by_name()[name]
    game = spec.build(**dict(zip((s.name for s in spec.sizes), sizes, strict=True)))
    # A family's board may be a preset of its own ("mnk-3-3-3" is tictactoe): one
    # object per game, whichever name asked for it.
    return _build(game.name, ()) if game.name != name and game.name in _by_name() else game


def choices_text(*, examples: bool = True) -> str:
    """The games for a help line: ``tictactoe, ..., connect4 or mnk-M-N-K (e.g. mnk-5-5-4)``
    (without the ``(e.g. ...)`` if not ``examples``)."""
    names = [_choice(spec, examples) for spec in game_specs()]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _choice(spec: GameSpec, example: bool) -> str:
    if not spec.is_family or not example:
        return spec.sized_name
    return f"{spec.sized_name} (e.g. {spec.extra.get('example', spec.sized_name)})"
