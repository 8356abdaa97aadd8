"""A ConnectX agent for the tests, written as for Kaggle: win if it can, block
the opponent's win, else a random column, the centre more likely. It prints a
line per move (``agent pid P step S``): Kaggle keeps an agent's prints as its
log, Boardroom sends them to the run's log."""

import os
import random


def drop(board, column, mark, configuration):
    """The board after ``mark`` plays ``column`` (None if it is full)."""
    for row in reversed(range(configuration.rows)):
        cell = row * configuration.columns + column
        if board[cell] == 0:
            after = list(board)
            after[cell] = mark
            return after
    return None


def wins(board, mark, configuration):
    columns, rows, inarow = configuration.columns, configuration.rows, configuration.inarow
    for row in range(rows):
        for column in range(columns):
            for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * d_row, column + i * d_column) for i in range(inarow)]
                if all(
                    0 <= r < rows and 0 <= c < columns and board[r * columns + c] == mark
                    for r, c in cells
                ):
                    return True
    return False


def agent(observation, configuration):
    print(f"agent pid {os.getpid()} step {observation.step}")
    mark = observation.mark
    other = 3 - mark
    board = observation["board"]  # dict access works too
    open_columns = [c for c in range(configuration.columns) if board[c] == 0]
    for who in (mark, other):
        for column in open_columns:
            after = drop(board, column, who, configuration)
            if after is not None and wins(after, who, configuration):
                return column
    weights = [configuration.columns - abs(c - configuration.columns // 2) for c in open_columns]
    return random.choices(open_columns, weights)[0]
