"""``boardroom play`` and ``boardroom watch``: the terminal client.

Both are thin: they turn flags into :class:`~boardroom.client.terminal.app.ClientOptions`
and run :func:`~boardroom.client.terminal.app.run_client` on the console that fits the
terminal (see :mod:`boardroom.client.terminal.console`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from boardroom.client.commands.server_option import add_server_argument
from boardroom.client.room_options import (
    DEFAULT_GAME,
    InputError,
    game_choices,
    parse_clock,
    parse_game,
    parse_level,
)
from boardroom.client.terminal.app import ClientOptions, run_client
from boardroom.client.terminal.commands import DEFAULT_AI_LEVEL, parse_code
from boardroom.client.terminal.console import open_console
from boardroom.client.terminal.profile import profile_path
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import LEVELS, CreateRoom

_PLAY_EPILOG = N_("""\
Without --local, --game or --level you start in the lobby: list rooms, open one
(against a person or the AI), join one by its code, quick match, or watch.

With --local no server is needed: a private server starts on this machine (on a
free port, with a throwaway database; it stops when you quit) and you go straight
into a game against the AI: {game} at level {level}, or what
--game and --level say. --game or --level without --local open such a room on
the server.

Type help at any prompt for the commands. Your name is remembered in
$XDG_CONFIG_HOME/boardroom/client.json (~/.config/boardroom/client.json), and
so is your seat in a game under way: if the client is killed or its terminal
closed mid-game, boardroom play run again takes the seat back (under any
--name: the seat is your player's). So is the player token each server gives
you on your first visit: every later run is the same player there (one record
of games, one rating), whatever your name; and your last game there, which
boardroom review without an id reviews. The file is readable by you only; keep
it so.

Scripts: with input from a pipe or a file, commands are read one a line and each
is echoed after its prompt; a move waits for your turn, so a script can list its
moves in advance. When the input ends, the client plays out what is under way
(it waits for an opponent to join and for the opponent's moves), then quits once
it is your turn or the game is over. Quitting never resigns: the server holds
your seat for a while, and boardroom play run again takes it back. Output has
no colour when it is not a terminal or NO_COLOR is set; every finished game ends
with a line "Result: ...", which gives the game's id and the command that
reviews it (boardroom review alone reviews your last game).
""")


def register_play(subparsers: Any) -> None:
    """Add ``play`` to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "play",
        help=_("play in the terminal, against people or the AI"),
        description=_("Play board games in the terminal, against people or the AI."),
        epilog=_(_PLAY_EPILOG, game=DEFAULT_GAME, level=DEFAULT_AI_LEVEL),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_argument(parser)
    parser.add_argument("--name", help=_("your name (remembered for next time)"))
    parser.add_argument(
        "--local",
        action="store_true",
        help=_("no server needed: start one on this machine and play the AI"),
    )
    parser.add_argument(
        "--game", help=_("start in a new room of this game: {games}", games=game_choices())
    )
    parser.add_argument(
        "--level",
        help=_(
            "start against the AI at this level: {levels} [{default}]",
            levels=", ".join(LEVELS),
            default=DEFAULT_AI_LEVEL,
        ),
    )
    parser.add_argument(
        "--clock",
        help=_(
            "with --local, --game or --level: 30s (a move) or 5+3 (minutes each + seconds "
            "a move) [none]"
        ),
    )
    parser.set_defaults(handler=run_play)


def register_watch(subparsers: Any) -> None:
    """Add ``watch`` to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "watch",
        help=_("watch a game in the terminal"),
        description=_(
            "Watch a game as a spectator: the board is drawn again after every "
            "move; chat TEXT talks to the room, leave or quit ends."
        ),
    )
    parser.add_argument("code", help=_("the room code, or a private room's join or watch code"))
    add_server_argument(parser)
    parser.add_argument("--name", help=_("the name shown when you chat [your remembered name]"))
    parser.set_defaults(handler=run_watch)


def run_play(args: argparse.Namespace) -> int:
    """The handler of ``boardroom play``."""
    try:
        start_room = _start_room(args)
    except InputError as error:
        print(_("boardroom play: {error}", error=error), file=sys.stderr)
        return 2
    options = ClientOptions(
        server=args.server,
        profile_path=profile_path(),
        name=args.name,
        local=args.local,
        start_room=start_room,
    )
    return _run(options)


def run_watch(args: argparse.Namespace) -> int:
    """The handler of ``boardroom watch``."""
    try:
        code = parse_code(args.code, "watch")
    except InputError as error:
        print(_("boardroom watch: {error}", error=error), file=sys.stderr)
        return 2
    options = ClientOptions(
        server=args.server, profile_path=profile_path(), name=args.name, watch_code=code
    )
    return _run(options)


def _start_room(args: argparse.Namespace) -> CreateRoom | None:
    """The room to open at once: against the AI, if --local, --game or --level asks."""
    if not (args.local or args.game or args.level):
        if args.clock:
            raise InputError(_("--clock goes with --local, --game or --level"))
        return None
    game = parse_game(args.game or DEFAULT_GAME)
    level = parse_level(args.level) if args.level else DEFAULT_AI_LEVEL
    clock = parse_clock(args.clock or "none")
    return CreateRoom(game=game.name, ai_level=level, clock=clock)


def _run(options: ClientOptions) -> int:
    with open_console() as console:
        return asyncio.run(run_client(options, console))
