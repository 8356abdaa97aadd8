"""Room options as people type them: game names, AI levels and clocks.

Shared by ``boardroom play`` (its ``new`` command and flags) and ``boardroom bot``
(``--create``, ``--clock``), so that people and bots write a clock or a game the
same way. Pure: text in, values out, or :class:`InputError` saying in plain words
what was wrong and what would be accepted.
"""

from __future__ import annotations

import re

from boardroom.client.errors import ClientError
from boardroom.shared.errors import GameError, UnknownGameError
from boardroom.shared.games import Game, GameSpec, default_game, game_specs, get_game, spec_of
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import LEVELS, Clock, Level

"""The AI levels, weakest first: random, easy, medium, hard, perfect."""
DEFAULT_GAME = default_game().name
"""The game opened when none is named: the registry's default (Connect Four)."""


def game_choices(*, examples: bool = True) -> str:
    """The games for a help line, in the reader's language: ``tictactoe, ...,
    connect4 or mnk-M-N-K (e.g. mnk-5-5-4)`` (the registry's ``choices_text``,
    whose English the server sends).

    >>> game_choices().endswith(" or mnk-M-N-K (e.g. mnk-5-5-4)")
    True
    """
    names = [_choice(spec, examples) for spec in game_specs()]
    return _("{some} or {last}", some=", ".join(names[:-1]), last=names[-1])


def _choice(spec: GameSpec, example: bool) -> str:
    if not spec.is_family or not example:
        return spec.sized_name
    shown = spec.extra.get("example", spec.sized_name)
    return _("{name} (e.g. {example})", name=spec.sized_name, example=shown)


class InputError(ClientError, ValueError):
    """Something typed that cannot be acted on; the message says why, for people."""


def parse_game(text: str) -> Game:
    """The game a name or alias names: ``connect4``, ``mnk-5-5-4``, ``ttt`` ... (the
    registry's names); a family's name alone (``mnk``) asks for its sizes."""
    name = text.strip().lower() or DEFAULT_GAME
    try:
        spec = spec_of(name)
        if spec.is_family and name == spec.name:
            example = spec.extra.get("example", spec.sized_name)
            raise InputError(
                _(
                    "{name} needs its sizes: {sized_name}, e.g. {example} ({summary})",
                    name=name,
                    sized_name=spec.sized_name,
                    example=example,
                    summary=_(spec.summary),
                )
            )
        return get_game(name)
    except UnknownGameError:
        raise InputError(
            _("unknown game {name!r}: choose one of {games}", name=name, games=game_choices())
        ) from None
    except GameError as error:
        raise InputError(str(error)) from None


def parse_level(text: str) -> Level:
    """An AI level by name."""
    level = text.strip().lower()
    for known in LEVELS:
        if level == known:
            return known
    raise InputError(
        _(
            "{text!r} is not an AI level: choose one of {levels}",
            text=text.strip(),
            levels=", ".join(LEVELS),
        )
    )


_PER_MOVE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*s?")
_INCREMENT = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*\+\s*([0-9]+(?:\.[0-9]+)?)")
CLOCK_HELP = N_("type none, seconds a move like 30s, or minutes each plus seconds a move like 5+3")
"""How to type a clock (translated where shown: ``_(CLOCK_HELP)``)."""


def parse_clock(text: str) -> Clock:
    """A clock: ``none``; ``30s`` (or ``30``), seconds for each move; ``5+3``, five
    minutes each plus three seconds added after every move (as on Lichess).

    >>> parse_clock("30s"), parse_clock("0.5+2").initial, parse_clock("none").kind
    (Clock(kind='per_move', per_move=30.0, initial=None, increment=0.0), 30.0, 'none')
    """
    answer = text.strip().lower()
    if answer.startswith("clock="):
        answer = answer[len("clock=") :]
    if answer in ("", "none", "no", "off", "0"):
        return Clock()
    if match := _INCREMENT.fullmatch(answer):
        minutes, increment = float(match.group(1)), float(match.group(2))
        if not 0 < minutes <= 24 * 60 or increment > 3600:
            raise InputError(
                _(
                    "{text!r}: give 0 to 1440 minutes each and at most 3600 s a move",
                    text=text.strip(),
                )
            )
        return Clock(kind="increment", initial=minutes * 60, increment=increment)
    if match := _PER_MOVE.fullmatch(answer):
        seconds = float(match.group(1))
        if not 0 < seconds <= 86_400:
            raise InputError(_("{text!r}: give 1 to 86400 seconds a move", text=text.strip()))
        return Clock(kind="per_move", per_move=seconds)
    raise InputError(_("{text!r} is not a clock: {help}", text=text.strip(), help=_(CLOCK_HELP)))
