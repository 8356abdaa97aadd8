"""The early-game test set of ``boardroom bench engine``: ``data/connect4/Early_13_16``.

The standard sets start at the middle game; issue 25 asks for the early game
too, where our solver is furthest behind the C++ solvers. The set is 200
positions of 13 to 16 stones (just past the 12-stone database, so every solver
must search them), from seeded random games: each position's stone count is
drawn from 13 to 16, then random legal moves are played, and the position is
dropped if the game ended on the way or the player to move can win at once (a
position no solver searches). Scores are bitbully's exact scores (the
independent solver), in the format of the standard sets: ``<moves> <score>``.

The file is written once, by :func:`write_early_set` (about a minute, nearly all
of it bitbully's solves), and kept in the repository: the bench reads it like
the standard sets, and the moves are reproducible from the seed
(:func:`early_moves`; a test checks the file against them).

To rewrite it::

    .venv/bin/python -c "import boardroom.client.bench.early_set as e; e.write_early_set()"
"""

from __future__ import annotations

import random
from pathlib import Path

from boardroom.shared.games import GridGame, Position, get_game

NAME = "Early_13_16"
COUNT = 200
SEED = 25
STONES = (13, 16)
PATH = Path(__file__).resolve().parents[2] / "data" / "connect4" / NAME


def early_moves(
    count: int = COUNT, seed: int = SEED, stones: tuple[int, int] = STONES
) -> list[str]:
    """The move strings of the set (see the module docstring), in order."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        target = rng.randint(*stones)
        position = game.new()
        while position.ply < target and not game.outcome(position).is_over:
            position = game.play(position, rng.choice(game.legal_moves(position)))
        if game.outcome(position).is_over or _can_win_at_once(game, position):
            continue
        found.append(game.move_string(position))
    return found


def _can_win_at_once(game: GridGame, position: Position) -> bool:
    return any(
        game.outcome(game.play(position, move)).winner is not None
        for move in game.legal_moves(position)
    )


def write_early_set(path: Path = PATH) -> None:
    """Solve the set's positions with bitbully (no book: none of them is in it)
    and write ``<moves> <score>`` lines to ``path``."""
    from boardroom.client.bench.peer_bitbully import BitbullySolver

    solver = BitbullySolver()
    lines = [f"{moves} {solver.solve(moves).score}\n" for moves in early_moves()]
    path.write_text("".join(lines), encoding="ascii")
