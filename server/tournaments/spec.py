"""What a teacher asks for when creating a tournament, checked: :class:`TournamentSpec`.

:func:`spec_from_body` turns the JSON body of ``POST /api/admin/tournaments``
(``docs/operations.md``, "Tournaments") into a spec, or raises
:class:`SpecError` naming the field at fault, so that nothing is created from
bad input. Whether the students named exist is the director's question (it
holds the roster); everything else is checked here.

Entrants are named by strings: ``student:<roster id>`` or ``ai:<level>``
(:func:`parse_entrant`). Each may appear once.

>>> spec = spec_from_body(b'{"name": "Friday", "game": "tictactoe", "format": "swiss",'
...     b' "entrants": ["student:19ac7041", "ai:easy", "ai:random"]}')
>>> spec.rounds, spec.no_show_seconds, spec.entrants[1]
(2, 60.0, 'ai:easy')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Final, Literal

import msgspec

from boardroom.server.core.room import RoomOptions
from boardroom.server.core.room_options import MAX_SPECTATOR_DELAY, MAX_SPECTATOR_DELAY_SECONDS
from boardroom.server.tournaments.round_robin import round_robin_rounds
from boardroom.server.tournaments.swiss import max_swiss_rounds, recommended_swiss_rounds
from boardroom.shared.errors import GameError
from boardroom.shared.games import get_game
from boardroom.shared.protocol.messages import AUTOPILOT_OFF, LEVELS, Clock

__all__ = [
    "AUTOPILOT_CHOICES",
    "CLASS_AUTOPILOT",
    "MAX_ENTRANTS",
    "NO_SHOW_SECONDS",
    "Format",
    "SpecError",
    "TournamentSpec",
    "UnplayableGameError",
    "parse_entrant",
    "spec_from_body",
]

Format = Literal["round_robin", "swiss"]
MAX_ENTRANTS = 64
"""A class and its bots, with room to spare; a round robin of 64 is 63 rounds."""
NO_SHOW_SECONDS: Final = (10.0, 600.0)
"""The no-show window a teacher may give: long enough to sit down, short enough
that a round does not wait a lesson for someone who is not there."""
DEFAULT_NO_SHOW_SECONDS = 60.0
CLASS_AUTOPILOT: Final = "class"
"""A tournament's ``autopilot`` that takes the class's default."""
AUTOPILOT_CHOICES: Final = (CLASS_AUTOPILOT, AUTOPILOT_OFF, *LEVELS)
"""What a tournament's ``autopilot`` may be."""


class SpecError(ValueError):
    """A field of the body that cannot make a tournament; the message names it."""


class UnplayableGameError(SpecError):
    """The body names no game the server plays, or bad m, n, k for one: the
    :class:`~boardroom.shared.errors.GameError` that :func:`~boardroom.shared.games.get_game`
    raised, as the ``game`` field's fault (the API answers ``unknown_game``)."""


class TournamentBody(msgspec.Struct, frozen=True, kw_only=True):
    """The body of ``POST /api/admin/tournaments``, as decoded (types checked)."""

    name: str
    game: Annotated[str, msgspec.Meta(max_length=64)]
    format: Format
    entrants: list[str]
    m: int | None = None
    n: int | None = None
    k: int | None = None
    rounds: int | None = None
    double: bool = False
    clock: Clock | None = None
    no_show_seconds: float = DEFAULT_NO_SHOW_SECONDS
    hints: bool = False
    spectator_delay: int | None = None
    spectator_delay_seconds: float | None = None
    autopilot: str = CLASS_AUTOPILOT


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """A tournament to run, every field checked. ``game`` is canonical
    (``mnk-5-5-4``); ``rounds`` is the number of rounds to play (a round robin's
    follows from its entrants); ``entrants`` are in seed order."""

    name: str
    game: str
    format: Format
    rounds: int
    double: bool
    clock: Clock
    no_show_seconds: float
    entrants: tuple[str, ...]
    hints: bool = False
    """Whether players may ask for hints in its games (off unless asked for)."""
    spectator_delay: int | None = None
    """Plies behind that its games' spectators (not the teacher) see them; None:
    the server's ``--spectator-delay``."""
    spectator_delay_seconds: float | None = None
    """Seconds behind, instead of plies, when above 0; None: as the server's
    ``--spectator-delay-seconds`` says unless ``spectator_delay`` is given."""
    autopilot: str = CLASS_AUTOPILOT
    """Who plays a dropped player's seat once its grace window runs out: an
    engine level, ``off`` (the game is lost by abandonment), or ``class``: the
    class's default as it is when the tournament is created."""


def parse_entrant(entrant: str) -> tuple[Literal["student", "ai"], str]:
    """``("student", roster id)`` or ``("ai", level)``; :class:`SpecError` otherwise.

    >>> parse_entrant("ai:easy"), parse_entrant("student:19ac7041")
    (('ai', 'easy'), ('student', '19ac7041'))
    """
    kind, _, rest = entrant.partition(":")
    if kind == "student" and rest and rest.isalnum():
        return "student", rest
    if kind == "ai" and rest in LEVELS:
        return "ai", rest
    raise SpecError(
        f"entrants: {entrant!r} is not an entrant: give student:<roster id> "
        f"or ai:<level> ({', '.join(LEVELS)})"
    )


def spec_from_body(raw: bytes) -> TournamentSpec:
    """The spec that the JSON body ``raw`` asks for. Raises
    :class:`msgspec.DecodeError` for a body that is not JSON, and
    :class:`SpecError` (:class:`UnplayableGameError` for the game) naming the field
    for anything else."""
    try:
        body = msgspec.json.decode(raw, type=TournamentBody)
    except msgspec.ValidationError as error:
        raise SpecError(str(error)) from None
    name = body.name.strip()
    if not 1 <= len(name) <= 60:
        raise SpecError(f"name: give 1 to 60 characters, not {len(name)}")
    try:
        game = get_game(body.game, m=body.m, n=body.n, k=body.k).name
    except GameError as error:
        raise UnplayableGameError(f"game: {error}") from None
    entrants = tuple(body.entrants)
    if not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise SpecError(f"entrants: give 2 to {MAX_ENTRANTS} entrants, not {len(entrants)}")
    for entrant in entrants:
        parse_entrant(entrant)
    repeated = sorted({e for e in entrants if entrants.count(e) > 1})
    if repeated:
        raise SpecError(f"entrants: each entrant once; listed twice: {', '.join(repeated)}")
    low, high = NO_SHOW_SECONDS
    if not low <= body.no_show_seconds <= high:
        raise SpecError(
            f"no_show_seconds: give {low:g} to {high:g} seconds, not {body.no_show_seconds:g}"
        )
    delay = body.spectator_delay
    if delay is not None and not 0 <= delay <= MAX_SPECTATOR_DELAY:
        raise SpecError(f"spectator_delay: give 0 to {MAX_SPECTATOR_DELAY} plies, not {delay}")
    seconds = body.spectator_delay_seconds
    if seconds is not None and not 0 <= seconds <= MAX_SPECTATOR_DELAY_SECONDS:
        raise SpecError(
            f"spectator_delay_seconds: give 0 to {MAX_SPECTATOR_DELAY_SECONDS:g} seconds, "
            f"not {seconds:g}"
        )
    if delay and seconds:
        raise SpecError(
            "spectator_delay_seconds: the spectators are held back by plies or by seconds: "
            "give spectator_delay or spectator_delay_seconds, not both"
        )
    if body.autopilot not in AUTOPILOT_CHOICES:
        raise SpecError(f"autopilot: choose {', '.join(AUTOPILOT_CHOICES)}, not {body.autopilot!r}")
    clock = body.clock or Clock()
    try:
        RoomOptions(clock=clock)  # the rooms' own checks of a clock
    except ValueError as error:
        raise SpecError(str(error)) from None
    return TournamentSpec(
        name=name,
        game=game,
        format=body.format,
        rounds=_rounds(body, len(entrants)),
        double=body.double,
        clock=clock,
        no_show_seconds=float(body.no_show_seconds),
        entrants=entrants,
        hints=body.hints,
        spectator_delay=delay,
        spectator_delay_seconds=None if seconds is None else float(seconds),
        autopilot=body.autopilot,
    )


def _rounds(body: TournamentBody, count: int) -> int:
    if body.format == "round_robin":
        if body.rounds is not None:
            raise SpecError("rounds: a round robin has as many rounds as it needs; leave it out")
        # Every entrant meets every other: N-1 rounds, N when N is odd; twice that if double.
        return len(round_robin_rounds([str(i) for i in range(count)], double=body.double))
    if body.double:
        raise SpecError("double: only a round robin is played twice; leave it out for a swiss")
    most = max_swiss_rounds(count)
    if body.rounds is None:
        return recommended_swiss_rounds(count)
    if not 1 <= body.rounds <= most:
        raise SpecError(f"rounds: a swiss of {count} entrants has 1 to {most} rounds")
    return body.rounds
