#!/usr/bin/env python3
"""A Gomocup brain for the tests: speaks the Piskvork protocol on stdin and stdout.

It plays five in a row plainly (win if it can, block a four, else lengthen its
longest line), quickly enough for the tests. Its misbehaving twins are flags:

- ``--crash-at N``: exits with status 3 when asked for its N-th move of a game;
- ``--hang-at N``: never answers its N-th move (sleeps);
- ``--illegal-at N``: answers its N-th move with a taken cell (or off the board);
- ``--no-restart``: answers ``RESTART`` with ``UNKNOWN`` (a brain that must be
  started afresh for each game);
- ``--slow SECONDS``: thinks that long before each move.

It says ``MESSAGE``/``DEBUG`` lines (the manager logs them) naming how it was
asked: ``DEBUG asked by BEGIN``, ``TURN`` or ``BOARD with N stones``, and
``DEBUG pid P game G``, so a test can tell which process played which game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Board:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.cells: dict[tuple[int, int], int] = {}

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def run_through(self, x: int, y: int, who: int) -> int:
        """The longest line of ``who`` a stone at (x, y) would make."""
        best = 0
        for dx, dy in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while self.inside(cx, cy) and self.cells.get((cx, cy)) == who:
                    count += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            best = max(best, count)
        return best

    def choose(self, rng: random.Random) -> tuple[int, int]:
        empty = [
            (x, y)
            for x in range(self.width)
            for y in range(self.height)
            if (x, y) not in self.cells
        ]
        if not self.cells:
            return self.width // 2, self.height // 2

        def score(cell: tuple[int, int]) -> tuple[int, float]:
            own = self.run_through(*cell, 1)
            theirs = self.run_through(*cell, 2)
            if own >= 5:
                return 100, 0.0
            if theirs >= 5:
                return 90, 0.0
            if theirs >= 4:
                return 80, 0.0
            return own * 2 + (1 if theirs >= 3 else 0), rng.random()

        return max(empty, key=score)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--crash-at", type=int, default=0)
    parser.add_argument("--hang-at", type=int, default=0)
    parser.add_argument("--illegal-at", type=int, default=0)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--slow", type=float, default=0.0)
    options = parser.parse_args()
    rng = random.Random()
    board: Board | None = None
    moves_asked = 0
    game = 0

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def answer_move(how: str) -> None:
        nonlocal moves_asked
        assert board is not None
        moves_asked += 1
        say(f"DEBUG asked by {how}")
        if moves_asked == options.crash_at:
            print("pbrain_test: crashing as asked", file=sys.stderr, flush=True)
            sys.exit(3)
        if moves_asked == options.hang_at:
            time.sleep(3600)
        if options.slow:
            time.sleep(options.slow)
        if moves_asked == options.illegal_at:
            taken = next(iter(board.cells), (board.width, 0))
            say(f"{taken[0]},{taken[1]}")
            return
        x, y = board.choose(rng)
        board.cells[(x, y)] = 1
        say(f"{x},{y}")

    def new_game(width: int, height: int) -> None:
        nonlocal board, moves_asked, game
        board = Board(width, height)
        moves_asked = 0
        game += 1
        say("OK")
        say(f"DEBUG pid {os.getpid()} game {game}")

    reading_board = False
    board_stones = 0
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if reading_board:
            if word == "DONE":
                reading_board = False
                answer_move(f"BOARD with {board_stones} stones")
            else:
                x, y, who = (int(part) for part in line.split(","))
                assert board is not None
                board.cells[(x, y)] = who
                board_stones += 1
        elif word == "START":
            new_game(int(rest), int(rest))
        elif word == "RECTSTART":
            width, height = (int(part) for part in rest.split(","))
            new_game(width, height)
        elif word == "RESTART":
            if options.no_restart:
                say("UNKNOWN RESTART is not supported")
            else:
                assert board is not None
                new_game(board.width, board.height)
        elif word == "BEGIN":
            answer_move("BEGIN")
        elif word == "TURN":
            x, y = (int(part) for part in rest.split(","))
            assert board is not None
            board.cells[(x, y)] = 2
            answer_move("TURN")
        elif word == "BOARD":
            assert board is not None
            board.cells.clear()
            reading_board = True
            board_stones = 0
        elif word == "INFO":
            key, _, value = rest.partition(" ")
            say(f"DEBUG info {key}={value}")
        elif word == "ABOUT":
            say('name="testbrain", version="1.0", author="Boardroom tests", country="ES"')
        elif word == "END":
            return
        else:
            say(f"UNKNOWN {word}")


if __name__ == "__main__":
    main()
