"""``boardroom bot``: play a bot (a Python script, any program, the engine, a
Gomocup brain or a Kaggle ConnectX agent) in rooms.

One brain (``--script``, ``--cmd``, ``--engine``, ``--gomocup``, ``--kaggle`` or
``--kaggle-url``) and one way in (``--join``,
``--quick``, ``--create``, or ``--tournament``: wait for a class tournament's
matches); ``docs/bots.md`` is the guide. Everything the user
typed is checked before connecting: a bad flag, script, command or level is one
line on stderr and exit status 2.

The bot is a durable player when it says who it is: ``--token`` or the
environment variable ``BOARDROOM_BOT_TOKEN`` (the flag wins) holds the player
token the server gave it (``boardroom token new-bot NAME``, or the one printed
on a first run), and every run with it is the same player, with one record of
games and one rating. Without a token each run is a new player: the server mints
one, and its token is printed once, on stderr (never in a log file), with how
to keep it.

Exit status: 0 when the run finished (its games played, or stopped with one
Ctrl-C after finishing the games in progress); 1 when it could not go on (no
server, the way in refused, the connection gone for good, no game started
within ``--wait`` seconds); 2 for bad input (a player token the server does not
know, or has revoked, included);
130 after a second Ctrl-C and 143 after SIGTERM (every game in progress resigned).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import sys
from pathlib import Path
from typing import Any, cast

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.engine_bot import EngineBrains
from boardroom.client.bots.errors import BotLoadError
from boardroom.client.bots.foreign import foreign_brains
from boardroom.client.bots.loader import load_script
from boardroom.client.bots.pipe_bot import PipeBrains, StderrLog
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import DEFAULT_WAIT, BotRunner, Entry, RunError, RunOptions
from boardroom.client.commands.bot_doctor import attach as attach_doctor
from boardroom.client.commands.server_option import add_server_argument
from boardroom.client.errors import RequestRefusedError, ServerUnreachableError
from boardroom.client.refusals import refusal_text
from boardroom.client.room_options import InputError, parse_clock, parse_game
from boardroom.client.session import Session
from boardroom.shared.games import game_specs
from boardroom.shared.i18n import _
from boardroom.shared.protocol import ErrorCode
from boardroom.shared.protocol.codec import MAX_NAME_LENGTH
from boardroom.shared.protocol.messages import LEVELS, Clock, Level

EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
TOKEN_ENV = "BOARDROOM_BOT_TOKEN"  # noqa: S105 - a variable name, not a secret
"""The environment variable that holds the bot's player token when ``--token`` is
not given (the safer place: a command line can be read by other users in ``ps``)."""


class UsageError(Exception):
    """A flag or combination of flags that cannot work; the message says why."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bot",
        help=_("play a bot (Python script, any program, or the engine) on a server"),
        description=_(
            "Seat a bot in rooms and play its games. Give one brain (--script, --cmd, "
            "--engine, --gomocup, --kaggle or --kaggle-url) and one way in (--join, --quick, "
            "--create or --tournament). Ctrl-C once: "
            "finish the games in progress, then stop; twice: resign them and quit. "
            "See docs/bots.md."
        ),
    )
    brain = parser.add_mutually_exclusive_group(required=True)
    brain.add_argument(
        "--script",
        metavar="PATH",
        help=_("a Python file defining choose_move(state) or a Bot class"),
    )
    brain.add_argument(
        "--cmd",
        metavar="COMMAND",
        help=_("a program that reads a line per turn and answers its move (docs/bots.md)"),
    )
    brain.add_argument(
        "--engine",
        metavar="LEVEL",
        help=_("Boardroom's engine: {levels}", levels=", ".join(LEVELS)),
    )
    brain.add_argument(
        "--gomocup",
        metavar="COMMAND",
        help=_(
            "a Gomocup brain (Piskvork protocol), for five in a row without gravity (docs/bots.md)"
        ),
    )
    brain.add_argument(
        "--kaggle",
        metavar="PATH",
        help=_("a Kaggle ConnectX agent file, agent(observation, configuration) (docs/bots.md)"),
    )
    brain.add_argument(
        "--kaggle-url",
        metavar="URL",
        help=_("a Kaggle ConnectX agent served over HTTP (docs/bots.md)"),
    )
    way = parser.add_mutually_exclusive_group(required=True)
    way.add_argument(
        "--join", metavar="CODE", help=_("a room code or private join code (rematches there)")
    )
    way.add_argument("--quick", metavar="GAME", help=_("quick match: play whoever waits for GAME"))
    way.add_argument(
        "--create",
        metavar="GAME",
        help=_("open a room for GAME and wait for an opponent (or --ai LEVEL)"),
    )
    way.add_argument(
        "--tournament",
        action="store_true",
        help=_("stay connected and play each game a class tournament sends (until Ctrl-C)"),
    )
    parser.add_argument(
        "--ai", metavar="LEVEL", help=_("with --create: the server's AI plays the bot")
    )
    parser.add_argument(
        "--clock",
        metavar="SPEC",
        help=_(
            "with --create: seconds a move (30s), or minutes each + seconds a move (5+3); "
            "default none"
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
        help=_("games in all (default 1, with --tournament 0; 0: until Ctrl-C)"),
    )
    parser.add_argument(
        "--parallel",
        type=int,
        default=1,
        metavar="P",
        help=_("games at once, with --quick or --create (default 1)"),
    )
    add_server_argument(parser)
    parser.add_argument("--name", help=_("the bot's name (default: from the script or program)"))
    parser.add_argument(
        "--token",
        metavar="TOKEN",
        default=os.environ.get(TOKEN_ENV) or None,
        help=_(
            "the bot's player token (bp_...): every run with it is the same player "
            "[env {variable}; default: a new player each run, its token printed once]",
            variable=TOKEN_ENV,
        ),
    )
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help=_("time per move in rooms without a clock (default 30)"),
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_(
            "give up (exit status 1) when no game has started this long after taking a "
            "seat or asking for a rematch (default {default}; 0: wait for ever)",
            default=format(DEFAULT_WAIT, "g"),
        ),
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help=_("with --cmd, --gomocup or --kaggle: append the program's stderr here"),
    )
    parser.set_defaults(handler=run_bot)
    # Last, so that the doctor offers every kind of bot above.
    attach_doctor(parser, make_brains)


def run_bot(args: argparse.Namespace) -> int:
    """The ``bot`` subcommand: check the input, then play."""
    try:
        options = run_options(args)
        brains = make_brains(args, options)
        if options.entry.game is not None:
            brains.check_game(options.entry.game)
    except (UsageError, BotLoadError) as error:
        print(_("boardroom bot: {error}", error=error), file=sys.stderr)
        return 2
    name = (args.name or brains.name)[:MAX_NAME_LENGTH]
    return asyncio.run(play(args.server, name, brains, options, token=args.token))


def run_options(args: argparse.Namespace) -> RunOptions:
    """The run the flags ask for; :class:`UsageError` for flags that do not fit."""
    games = args.games if args.games is not None else (0 if args.tournament else 1)
    if games < 0:
        raise UsageError(_("--games must be 0 (until Ctrl-C) or more"))
    if args.parallel < 1:
        raise UsageError(_("--parallel must be 1 or more"))
    if args.parallel > 1 and (args.join or args.tournament):
        raise UsageError(
            _(
                "--parallel needs --quick or --create: one room code is one seat, "
                "and a tournament gives one game at a time"
            )
        )
    if not args.move_timeout > 0:
        raise UsageError(_("--move-timeout must be more than 0 seconds"))
    if args.wait is not None and not args.wait >= 0:
        raise UsageError(_("--wait must be 0 (wait for ever) or more seconds"))
    if args.wait is not None and args.tournament:
        raise UsageError(
            _(
                "--wait is for --join, --quick and --create: a tournament waits for its "
                "matches until Ctrl-C, and the server rules on no-shows"
            )
        )
    if args.create is None and (args.ai is not None or args.clock is not None):
        raise UsageError(_("--ai and --clock go with --create"))
    if args.log is not None and args.cmd is None and args.gomocup is None and args.kaggle is None:
        raise UsageError(_("--log is for the program of --cmd, --gomocup or --kaggle"))
    if args.ai is not None and args.ai not in LEVELS:
        raise UsageError(
            _("--ai {level!r}: choose one of {levels}", level=args.ai, levels=", ".join(LEVELS))
        )
    if args.tournament:
        entry = Entry("tournament")
    elif args.join is not None:
        entry = Entry("join", code=args.join.strip())
    elif args.quick is not None:
        entry = Entry("quick", game=_game_name(args.quick))
    else:
        entry = Entry(
            "create",
            game=_game_name(args.create),
            ai_level=cast(Level | None, args.ai),
            clock=_clock(args.clock),
        )
    return RunOptions(
        entry=entry,
        games=games,
        parallel=args.parallel,
        move_timeout=args.move_timeout,
        wait=DEFAULT_WAIT if args.wait is None else args.wait,
    )


def make_brains(args: argparse.Namespace, options: RunOptions) -> BrainSource:
    """The bot the flags name, loaded and checked; :class:`BotLoadError` otherwise."""
    if args.script is not None:
        return ScriptBrains(load_script(args.script), hook_timeout=options.move_timeout)
    if args.cmd is not None:
        return PipeBrains(args.cmd, StderrLog(args.log))
    if args.gomocup is not None or args.kaggle is not None or args.kaggle_url is not None:
        return foreign_brains(
            gomocup=args.gomocup,
            kaggle=args.kaggle,
            kaggle_url=args.kaggle_url,
            log=args.log,
            move_timeout=options.move_timeout,
            game=options.entry.game,
            ask_name=args.name is None,  # a Gomocup brain's name, as its ABOUT says
        )
    return EngineBrains(args.engine, workers=options.parallel)


def _clock(spec: str | None) -> Clock:
    """``--clock``, read as ``boardroom play`` reads it (one syntax for people and bots)."""
    if spec is None:
        return Clock()
    try:
        return parse_clock(spec)
    except InputError as error:
        raise UsageError(f"--clock {error}") from None


def _game_name(text: str) -> str:
    try:
        return parse_game(text).name
    except InputError as error:
        raise UsageError(f"{error} ({_FAMILY_NAMES})") from None


_FAMILY_NAMES = "; ".join(
    f"{spec.name} boards are named {spec.sized_name}" for spec in game_specs() if spec.is_family
)
"""How a family's boards are named (``mnk boards are named mnk-M-N-K``), for the errors."""


async def play(
    url: str, name: str, brains: BrainSource, options: RunOptions, *, token: str | None = None
) -> int:
    """Connect as the player of ``token`` (None: a new player), play the run, print
    the summary; the exit status."""
    report = Report()
    session = Session(url, name, client_kind="bot", player_token=token)
    # A busy server (too many new players from this address) is asked again by itself.
    session.on_busy = lambda seconds: report.note(
        _(
            "boardroom bot: the server is busy: trying again in {seconds} s",
            seconds=math.ceil(seconds),
        )
    )
    # A move the server cannot save for now is sent again by the session itself.
    session.on_saving_paused = lambda seconds: report.note(
        _(
            "boardroom bot: saving is paused on the server: trying again in {seconds} s",
            seconds=math.ceil(seconds),
        )
    )
    try:
        try:
            await session.start()
        except ServerUnreachableError as error:
            report.note(_("boardroom bot: {error}", error=error))
            return 1
        except RequestRefusedError as error:
            report.note(_("boardroom bot: {error}", error=_refusal_text(error, name)))
            return 2 if error.code in _BAD_INPUT_REFUSALS else 1
        if session.new_player and session.player_token is not None:
            report.note(_new_player_text(session.player_id, session.player_token))
        await brains.open()
        runner = BotRunner(session, brains, options, report)
        signals = _Signals(runner, report)
        signals.install()
        status = 0
        try:
            await runner.run()
        except RunError as error:
            report.note(_("boardroom bot: {error}", error=error))
            status = error.exit_status
        finally:
            signals.remove()
        if report.played or status == 0:
            print(report.summary(), flush=True)
        if runner.aborted:
            return EXIT_TERMINATED if signals.last == signal.SIGTERM else EXIT_INTERRUPTED
        return status
    finally:
        await session.close()
        await brains.close()


_BAD_INPUT_REFUSALS = frozenset(
    {
        ErrorCode.BAD_NAME,
        ErrorCode.BAD_PLAYER_TOKEN,
        ErrorCode.UNKNOWN_CLASS_TOKEN,
        ErrorCode.PLAYER_TOKEN_REVOKED,
    }
)
"""Refusals of the hello that the user's input caused (exit status 2)."""


def _refusal_text(error: RequestRefusedError, name: str) -> str:
    """Why the server would not have the bot, and what to do about it."""
    if error.code in (ErrorCode.BAD_PLAYER_TOKEN, ErrorCode.UNKNOWN_CLASS_TOKEN):
        return _(
            "the server does not know this bot's token (--token or {variable}): "
            "{message}. Check it was made for this server ({command}), or run without a "
            "token to play as a new player",
            variable=TOKEN_ENV,
            message=refusal_text(error),
            command="boardroom token new-bot NAME",
        )
    if error.code == ErrorCode.PLAYER_TOKEN_REVOKED:
        return _(
            "this bot's token was revoked (--token or {variable}): {message}. "
            "Ask the server's admin for a new one ({command})",
            variable=TOKEN_ENV,
            message=refusal_text(error),
            command="boardroom token new-bot NAME",
        )
    return _(
        "the server refused the name {name!r}: {message}", name=name, message=refusal_text(error)
    )


def _new_player_text(player_id: str | None, token: str) -> str:
    """The one time the bot's new token is shown (on stderr, never in a log)."""
    return (
        _(
            "boardroom bot: this run is a new player, {player}. To play as it again, "
            "keep its token and pass it with --token or {variable}:",
            player=player_id,
            variable=TOKEN_ENV,
        )
        + f"\n  {token}"
    )


class _Signals:
    """Ctrl-C once: stop after the games in progress; again, or SIGTERM: quit now
    (resigning them). Installed on the running loop for the run."""

    def __init__(self, runner: BotRunner, report: Report) -> None:
        self.runner = runner
        self.report = report
        self.last: int | None = None
        """The last signal received, if any."""

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' loop
            loop.add_signal_handler(signal.SIGINT, self._interrupt)
            loop.add_signal_handler(signal.SIGTERM, self._terminate)

    def remove(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):
            loop.remove_signal_handler(signal.SIGINT)
            loop.remove_signal_handler(signal.SIGTERM)

    def _interrupt(self) -> None:
        self.last = signal.SIGINT
        if not self.runner.stopping:
            self.report.note(
                _(
                    "stopping: no new games; finishing the games in progress "
                    "(Ctrl-C again to resign them and quit)"
                )
            )
            self.runner.stop()
        else:
            self.report.note(_("quitting: resigning the games in progress"))
            self.runner.abort()

    def _terminate(self) -> None:
        # A supervisor's SIGTERM wants the process gone soon: like a second Ctrl-C.
        self.last = signal.SIGTERM
        self.report.note(_("terminated: resigning the games in progress"))
        self.runner.abort()
