"""``boardroom solve`` and ``boardroom analyze``: the engine at the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from shared.engine import analyze, search, solve_move
from shared.errors import BoardroomError
from shared.games import Game, Position, get_game


def register_solve(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="the engine's best move and the value of a position",
        description=(
            "Show the best move and the value of a position. Without --time the "
            "position is solved exactly, however long that takes (seconds for "
            "tic-tac-toe boards and Connect Four past the opening)."
        ),
    )
    _position_arguments(parser)
    parser.add_argument("--time", type=float, help="stop after this many seconds")
    parser.add_argument("--level", help="play at a level: random, easy, medium, hard, perfect")
    parser.set_defaults(handler=run_solve)


def register_analyze(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="the value of every legal move in a position",
        description="List every legal move with its value, best first.",
    )
    _position_arguments(parser)
    parser.add_argument("--time", type=float, default=3.0, help="seconds in all (default 3)")
    parser.set_defaults(handler=run_analyze)


def _position_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="tictactoe, tictactoe4, connect4, gomoku or mnk-M-N-K")
    parser.add_argument(
        "moves",
        nargs="?",
        default="",
        help='moves played so far: "4453" (Connect Four) or "b2 a1" (grid boards)',
    )


def _load(args: argparse.Namespace) -> tuple[Game, Position]:
    game = get_game(args.game)
    return game, game.from_moves(args.moves)


def run_solve(args: argparse.Namespace) -> int:
    try:
        game, position = _load(args)
        if args.time is None and args.level is None:
            result = solve_move(game, position)
        else:
            result = search(game, position, level=args.level, time_limit=args.time)
    except BoardroomError as error:
        print(f"boardroom solve: {error}", file=sys.stderr)
        return 2
    print(game.render(position))
    print()
    line = " ".join(game.format_move(move) for move in result.pv)
    print(f"best move: {result.move_text}   value: {result.value}   line: {line}")
    kind = "exact" if result.exact else f"depth {result.depth}, not proven"
    print(f"searched {result.nodes:,} positions in {result.elapsed:.3f} s ({kind})")
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    try:
        game, position = _load(args)
        values = analyze(game, position, time_limit=args.time)
    except BoardroomError as error:
        print(f"boardroom analyze: {error}", file=sys.stderr)
        return 2
    print(game.render(position))
    print()
    for move, value in values:
        print(f"{game.format_move(move):>4}  {value}")
    return 0
