"""The pure room's step timed alone: what ``boardroom bench room`` runs, once per tree.

``python -P server/room_bench.py GAME GAMES SEED`` (or ``python -m
boardroom.server.room_bench``) plays GAMES random legal games of GAME between two
players in one :class:`~boardroom.server.core.room.Room`, a rematch after each,
and prints one JSON line: the moves played, the CPU the room's inputs took
(``time.process_time``, the moves' and the rematches'), and a digest of
everything the room said back (each output's messages as the wire encodes them,
their recipients, its events, next deadline and audience).

It imports nothing of Boardroom but the room, the rules and the codec, which
every tree since the room's stage clock has, so ``boardroom bench room --before
DIR`` runs this very file with ``PYTHONPATH=DIR`` and times DIR's room on the
same games: equal digests say the two rooms answered byte for byte the same.

The games are drawn before the clock starts, from the rules (a seeded
``random.Random``, one legal move at random a ply), and their requests are built
then too: what is timed is the room's ``handle`` and the loop around it, as the
server's ``rules`` stage times it (server/stage_clock.py), not the client's part.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import ClientId, Output, Room, RoomOptions
from boardroom.server.gc_tuning import tune_for_serving
from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import Error, MakeMove, Moved, Rematch

CODE = "K7Q2"
FIRST, SECOND = ClientId("ann"), ClientId("bob")
START = 1.7e9
"""The time of the first input; each input comes a tenth of a second after the last."""


def random_games(game_name: str, games: int, seed: int) -> list[list[str]]:
    """``games`` random legal games of ``game_name``, each as its moves' names."""
    rng = random.Random(seed)
    game = get_game(game_name)
    played = []
    for _ in range(games):
        position, names = game.new(), []
        while not game.outcome(position).is_over:
            move = rng.choice(game.legal_moves(position))
            names.append(game.format_move(move))
            position = game.play_unchecked(position, move)
        played.append(names)
    return played


def measure(game_name: str, games: int, seed: int) -> dict[str, Any]:
    """Play the games (see the module docstring); what :func:`main` prints."""
    played = random_games(game_name, games, seed)
    ids = itertools.count(1)  # each request with an id, as clients send them
    requests = [
        [MakeMove(room=CODE, move=name, ply=ply, id=next(ids)) for ply, name in enumerate(names)]
        + [Rematch(room=CODE, id=next(ids)), Rematch(room=CODE, id=next(ids))]
        for names in played
    ]
    _, cpu = _play(game_name, seed, requests, keep=False)
    checked, _ = _play(game_name, seed, requests, keep=True)  # the same, kept to check
    return {
        "game": game_name,
        "games": games,
        "moves": sum(len(names) for names in played),
        "moved": _moves_seen(checked),
        "refused": sum(
            isinstance(message, Error) for output in checked for _, message in output.messages
        ),
        "cpu_seconds": cpu,
        "digest": digest(checked),
        "room_module": sys.modules[Room.__module__].__file__,
    }


def _play(
    game_name: str, seed: int, requests: list[list[MakeMove | Rematch]], *, keep: bool
) -> tuple[list[Output], float]:
    """Seat two players in a new room and make the ``requests``, a game's moves
    then both players' rematch, game after game; the outputs if ``keep`` (else
    none: the server keeps none), and the CPU they took."""
    room = Room(CODE, game_name, options=RoomOptions(), rng=random.Random(seed), now=START)
    now = START
    room.seat(FIRST, "Ann", PlayerKind.HUMAN, now=now)
    room.seat(SECOND, "Bob", PlayerKind.HUMAN, now=now)
    first, second = (FIRST, SECOND) if room.side_of(FIRST) is Player.FIRST else (SECOND, FIRST)
    handle = room.handle
    outputs: list[Output] = []
    started = time.process_time()
    for game_requests in requests:
        mover, waiting = first, second
        for request in game_requests:
            now += 0.1
            output = handle(mover, request, now=now)
            if keep:
                outputs.append(output)
            mover, waiting = waiting, mover
        first, second = second, first  # a rematch swaps the sides
    return outputs, time.process_time() - started


def _moves_seen(outputs: Sequence[Output]) -> int:
    """The moves the outputs announce: each output's ``moved`` plies, counted once
    however many copies of one went out (the mover's, everyone else's)."""
    return len(
        {
            (number, message.ply)
            for number, output in enumerate(outputs)
            for _, message in output.messages
            if isinstance(message, Moved)
        }
    )


def digest(outputs: Sequence[Output]) -> str:
    """A SHA-256 of everything ``outputs`` say, the messages as the wire has them."""
    hashed = hashlib.sha256()
    for output in outputs:
        for recipient, message in output.messages:
            hashed.update(f"{recipient!r}\n{encode_message(message)}\n".encode())
        for event in output.events:
            hashed.update(f"{event!r}\n".encode())
        hashed.update(f"{output.next_deadline!r} {sorted(output.audience)!r}\n".encode())
        hashed.update(f"{output.ai_requests!r}\n".encode())
    return hashed.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3:
        print("usage: room_bench.py GAME GAMES SEED", file=sys.stderr)
        return 2
    game_name, games, seed = args[0], int(args[1]), int(args[2])
    tune_for_serving()  # the collector as the server sets it up
    print(json.dumps(measure(game_name, games, seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
