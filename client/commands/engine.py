"""``boardroom solve`` and ``boardroom analyze``: the engine at the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from boardroom.client.room_options import game_choices
from boardroom.client.terminal.room_text import game_title
from boardroom.shared.engine import SearchResult, analyze, search, solve_move, solves_in_time
from boardroom.shared.engine.explain import (
    local_summary,
    principal_line,
    speed_text,
    value_text,
)
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.engine.solvers import warm_up
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import Game, GridGame, Position, get_game
from boardroom.shared.i18n import _


def register_solve(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help=_("the engine's best move and the value of a position"),
        description=_(
            "Show the best move and the value of a position. Without --time or "
            "--level the position is solved exactly where that ends in seconds "
            "(tic-tac-toe boards, Connect Four); elsewhere (Othello, a big board "
            "early on) the engine searches for {seconds} s and says so.",
            seconds=format(UNSOLVABLE_SECONDS, "g"),
        ),
    )
    _position_arguments(parser)
    parser.add_argument("--time", type=float, help=_("stop after this many seconds"))
    parser.add_argument("--level", help=_("play at a level: random, easy, medium, hard, perfect"))
    parser.set_defaults(handler=run_solve)


def register_analyze(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help=_("the value of every legal move in a position"),
        description=_(
            "List every legal move with its value, best first, then the engine's own "
            "pick and how it searched (a third of the time goes to that search)."
        ),
    )
    _position_arguments(parser)
    parser.add_argument("--time", type=float, default=3.0, help=_("seconds in all (default 3)"))
    parser.set_defaults(handler=run_analyze)


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=game_choices(examples=False))
    parser.add_argument(
        "moves",
        nargs="?",
        default="",
        help=_('moves played so far: "4453" (Connect Four) or "b2 a1" (grid boards)'),
    )


def _load(args: argparse.Namespace) -> tuple[Game, Position]:
    """The game and position asked for, with the compiled solver loaded for the
    game first (as the server's workers do before their first search), so that
    its load is not counted in the search's time and speed."""
    game = get_game(args.game)
    position = game.from_moves(args.moves)
    if isinstance(game, GridGame):
        warm_up(kernel_for(game))
    return game, position


UNSOLVABLE_SECONDS = 10.0
"""``solve`` without --time or --level, where an exact solve would not end in
seconds (:func:`~boardroom.shared.engine.solves_in_time`): how long it searches
instead. A full solve of Othello's start would never end."""


def run_solve(args: argparse.Namespace) -> int:
    try:
        game, position = _load(args)
        unbounded = args.time is None and args.level is None
        if unbounded and solves_in_time(game, position):
            result = solve_move(game, position)
        else:
            time_limit = args.time
            if unbounded:
                time_limit = UNSOLVABLE_SECONDS
                print(
                    _(
                        "{game}: an exact solve from here could take far too long, so the "
                        "engine searches for up to {seconds} s instead (--time sets how long).",
                        game=game_title(game.title),
                        seconds=format(UNSOLVABLE_SECONDS, "g"),
                    ),
                    flush=True,
                )
            result = search(game, position, level=args.level, time_limit=time_limit)
    except BoardroomError as error:
        print(_("boardroom solve: {error}", error=error), file=sys.stderr)
        return 2
    print(game.render(position))
    print()
    print(
        _(
            "best move: {move}   value: {value}",
            move=result.move_text,
            value=value_text(str(result.value)),
        )
    )
    _print_search(game, result)
    return 0


ANALYSIS_SHARE = 2 / 3
"""Of ``analyze --time``, the share that values every move; the rest goes to the
engine's own search of the position, whose figures are printed (how many
positions, how deep): the total stays the time asked for."""


def _print_search(game: Game, result: SearchResult) -> None:
    """How the engine found ``result``, as the server tells clients that ask:
    the one-line summary, then the line it expects and its speed."""
    print(local_summary(result))
    if result.nodes == 0:
        return  # the random level: no search, no line
    print(
        _(
            "  expected line: {line} ({speed})",
            line=" ".join(principal_line(game, result)),
            speed=speed_text(result),
        )
    )


def run_analyze(args: argparse.Namespace) -> int:
    try:
        game, position = _load(args)
        values = analyze(game, position, time_limit=args.time * ANALYSIS_SHARE)
        pick = search(game, position, time_limit=args.time * (1 - ANALYSIS_SHARE))
    except BoardroomError as error:
        print(_("boardroom analyze: {error}", error=error), file=sys.stderr)
        return 2
    print(game.render(position))
    print()
    for move, value in values:
        print(f"{game.format_move(move):>4}  {value_text(str(value))}")
    print()
    print(
        _(
            "the engine's pick: {move}   value: {value}",
            move=pick.move_text,
            value=value_text(str(pick.value)),
        )
    )
    _print_search(game, pick)
    return 0
