"""``boardroom bot doctor``: check a bot before it plays a rated or tournament game.

It takes the same bot as ``boardroom bot`` (every flag of its bot group:
``--script``, ``--cmd``, ``--engine``, and any kind of bot added there later),
built by the same :func:`~boardroom.client.commands.bot.make_brains` (handed
over by ``bot``), and the
games to check it on (``--game``, one or more; by default the games the bot
says it plays, when its protocol lets it say). It plays a few short games with
it locally, without a server (:mod:`boardroom.client.bots.doctor_run`), and
prints each check, passed or failed, with what to fix
(:mod:`boardroom.client.bots.doctor`).

Exit status: 0 when every check passed; 1 when one failed or could not be
made; 2 for bad input (a flag, a missing script or program, an unknown game).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.doctor import all_passed, checklist, render
from boardroom.client.bots.doctor_run import Doctor, claimed_games
from boardroom.client.bots.errors import BotLoadError
from boardroom.client.bots.runner import Entry, RunOptions
from boardroom.client.room_options import InputError, parse_game
from boardroom.shared.games import Game
from boardroom.shared.games.registry import default_game
from boardroom.shared.i18n import LANGUAGES, _
from boardroom.shared.i18n.command_line import Parser

DEFAULT_MOVE_TIMEOUT = 2.0
"""Seconds a move by default: short, so that the check-up is quick; a bot that
reads its time (TIME_MS, ``state.time_left``) answers within it anyway."""


class _BotParser(Parser):
    """``bot``'s parser, which hands ``bot doctor ...`` to the doctor's own.

    ``bot`` requires a bot and a way in (``--join``, ``--quick``...); the doctor
    needs no way in. A subcommand of ``bot`` in argparse's way would make both
    optional for every ``bot`` run, so the doctor is dispatched before ``bot``
    parses anything, and ``bot``'s own flags stay exactly as they were.
    """

    doctor: argparse.ArgumentParser

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if args and args[0] == "doctor":
            return self.doctor.parse_known_args(list(args[1:]), namespace)
        return super().parse_known_args(args, namespace)


MakeBrains = Callable[[argparse.Namespace, RunOptions], BrainSource]
"""``bot``'s own maker of the bot its flags name (``make_brains``)."""


def attach(bot: argparse.ArgumentParser, make_brains: MakeBrains) -> None:
    """Make ``boardroom bot doctor`` a command, on ``bot``'s parser (called last by
    ``bot``'s ``register``, so that every kind of bot it offers is there), the bot
    made by ``make_brains`` as ``bot`` makes it."""
    assert type(bot) is Parser
    doctor = Parser(
        prog=f"{bot.prog} doctor",
        description=_(
            "Check a bot before it plays a rated or tournament game: it plays a few short "
            "games here, without a server, and each check is printed with what to fix. "
            "Exit status 0 only if every check passed. See docs/bots.md."
        ),
    )
    brains = doctor.add_mutually_exclusive_group(required=True)
    known: set[str] = set()
    flags = _brain_flags(bot)
    for action in flags:
        options: dict[str, Any] = {"dest": action.dest, "help": action.help}
        if action.nargs == 0:
            options["action"] = "store_true"
        else:
            options.update(metavar=action.metavar, type=action.type)
        brains.add_argument(*action.option_strings, **options)
        known.add(action.dest)
    doctor.add_argument(
        "--game",
        action="append",
        metavar="GAME",
        help=_(
            "a game the bot plays (again for more, or GAME,GAME); default: the games the "
            "bot says it plays, if it can say"
        ),
    )
    doctor.add_argument(
        "--move-timeout",
        type=float,
        default=DEFAULT_MOVE_TIMEOUT,
        metavar="SECONDS",
        help=_(
            "the time the bot has for each move (default {default}): give the time of the "
            "games it will play",
            default=format(DEFAULT_MOVE_TIMEOUT, "g"),
        ),
    )
    doctor.add_argument(
        "--seed", type=int, default=1, help=_("the seed of the doctor's own moves (default 1)")
    )
    doctor.add_argument(
        "--log", type=Path, metavar="FILE", help=_("with --cmd: append the program's stderr here")
    )
    doctor.add_argument(
        "--lang",
        choices=[language.code for language in LANGUAGES],
        help=_("the language to speak: en or es (default: the locale, LANG)"),
    )
    known |= {"game", "move_timeout", "seed", "log", "lang", "help", "brain_flags", "make_brains"}
    # The flags of bot's that the doctor has not (--join, --quick...) keep their
    # defaults, so that make_brains reads the same namespace as bot's.
    doctor.set_defaults(
        **{a.dest: a.default for a in bot._actions if a.dest not in known},
        handler=run_doctor,
        make_brains=make_brains,
        brain_flags=[(action.dest, action.option_strings[0]) for action in flags],
    )
    bot.epilog = _(
        "Before a rated or tournament game, check the bot: {command}",
        command="boardroom bot doctor --help",
    )
    bot.__class__ = _BotParser
    assert isinstance(bot, _BotParser)
    bot.doctor = doctor


def _brain_flags(bot: argparse.ArgumentParser) -> list[argparse.Action]:
    """The actions of ``bot``'s group of bots (the one with ``--script``)."""
    for group in bot._mutually_exclusive_groups:
        if any("--script" in action.option_strings for action in group._group_actions):
            return list(group._group_actions)
    raise AssertionError("bot has no --script group")


def run_doctor(args: argparse.Namespace) -> int:
    """``boardroom bot doctor``: check the input, examine the bot, print the checks."""
    try:
        if not args.move_timeout > 0:
            raise BotLoadError(_("--move-timeout must be more than 0 seconds"))
        if args.log is not None and args.cmd is None:
            raise BotLoadError(_("--log is for the program of --cmd"))
        if args.log is None:
            args.log = Path(os.devnull)  # its last lines are quoted where they matter
        options = RunOptions(entry=Entry("tournament"), move_timeout=args.move_timeout)
        source = args.make_brains(args, options)
        games = _games(args.game, source)
    except (BotLoadError, InputError) as error:
        print(_("boardroom bot doctor: {error}", error=error), file=sys.stderr)
        return 2
    bot = _bot_words(args)
    lines, passed = asyncio.run(_examine(source, bot, games, args.move_timeout, args.seed))
    for line in lines:
        print(line, flush=True)
    return 0 if passed else 1


async def _examine(
    source: BrainSource, bot: str, games: list[Game], move_timeout: float, seed: int
) -> tuple[list[str], bool]:
    doctor = Doctor(source, move_timeout=move_timeout, rng=random.Random(seed))
    exam = await doctor.examine(bot, games)
    verdicts = checklist(exam)
    return render(exam, [game.name for game in games], verdicts), all_passed(verdicts)


def _games(asked: list[str] | None, source: BrainSource) -> list[Game]:
    """The games to check: ``--game``'s, else the bot's own; :class:`InputError`."""
    names = [name for text in asked or () for name in text.split(",") if name.strip()]
    if not names:
        names = list(claimed_games(source) or ())
    if not names:
        example = "--game " + default_game().name
        raise InputError(
            _(
                "give the games your bot plays with --game, such as {example}: its "
                "protocol cannot say which",
                example=example,
            )
        )
    games = [parse_game(name) for name in names]
    return list({game.name: game for game in games}.values())


def _bot_words(args: argparse.Namespace) -> str:
    """The bot as its author named it on the command line (``./mybot``, ``--engine hard``)."""
    for dest, option in args.brain_flags:
        value = getattr(args, dest, None)
        if value is True:
            return str(option)
        if value:
            return f"{option} {value}" if dest == "engine" else str(value)
    return "bot"
