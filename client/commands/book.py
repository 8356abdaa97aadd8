"""``boardroom book``: build the opening book, and show what a book file holds.

``boardroom book build --plies 8 --journal c4.journal --out shared/engine/data/connect4.book``
solves every position the ``perfect`` level may meet in the first ``plies``
stones (:mod:`boardroom.client.opening_book`), journalling each as it goes: run it again
with the same journal to carry on after an interruption. ``boardroom book info
FILE`` prints a book's game, depth, entries and size.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from boardroom.client.opening_book import build_book, write_book
from boardroom.shared.engine.book import BookFormatError, OpeningBook
from boardroom.shared.games import GridGame, Player, get_game


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "book",
        help="build the opening book of perfect play, or show a book file",
        description="Build the opening book that makes the perfect level perfect from the "
        "first move (docs/benchmarks.md, 'Opening book'), or show a book file.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="solve the book's positions (resumable)")
    build.add_argument("--game", default="connect4", help="the game (only connect4 has a book)")
    build.add_argument("--plies", type=int, required=True, help="stones in the deepest position")
    build.add_argument(
        "--journal", type=Path, required=True, help="the resumable journal (made if missing)"
    )
    build.add_argument("--out", type=Path, help="write the book here once complete")
    build.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="solving processes (default: one per core)",
    )
    build.add_argument("--start", default="", help="build from this position (a move string)")
    build.add_argument(
        "--side",
        choices=("first", "second", "both"),
        default="both",
        help="perfect as the first player, the second, or both in turn (default)",
    )
    build.add_argument(
        "--no-solve",
        action="store_true",
        help="solve nothing: write the book from a complete journal",
    )
    build.set_defaults(handler=run_build)
    info = actions.add_parser("info", help="what a book file holds")
    info.add_argument("file", type=Path)
    info.add_argument("--game", default="connect4")
    info.set_defaults(handler=run_info)


def run_build(args: argparse.Namespace) -> int:
    if args.plies < 0 or args.workers < 1:
        print("boardroom book: --plies must be 0 or more, --workers 1 or more", file=sys.stderr)
        return 2
    try:
        book, report = build_book(
            args.game,
            plies=args.plies,
            journal=args.journal,
            workers=args.workers,
            start=args.start,
            solve=not args.no_solve,
            sides=tuple(Player) if args.side == "both" else (Player(args.side),),
        )
    except (ValueError, LookupError) as error:
        print(f"boardroom book: {error}", file=sys.stderr)
        return 1
    print(
        f"{report.entries} positions in the book: {report.solved} solved now, "
        f"{report.from_journal} from the journal, in {report.seconds:.1f} s"
    )
    if args.out is not None:
        size = write_book(book, args.out)
        print(f"wrote {args.out}: {size:,} bytes")
    return 0


def run_info(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    try:
        if not isinstance(game, GridGame):
            raise ValueError(f"{args.game} has no opening book")
        book = OpeningBook.from_bytes(args.file.read_bytes(), game)
    except (OSError, ValueError, BookFormatError) as error:
        print(f"boardroom book: {error}", file=sys.stderr)
        return 1
    size = args.file.stat().st_size
    print(f"{args.file}: {game.name}, up to {book.plies} stones, ", end="")
    print(f"{len(book)} positions, {size:,} bytes")
    return 0
