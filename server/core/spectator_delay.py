"""Spectators who see a tournament game late: what they are shown instead.

In a tournament room with ``RoomOptions.spectator_delay`` N > 0, a spectator who
is not *live* (:meth:`Room.watch <boardroom.server.core.room.Room.watch>` with
``live``: the adapter says so for the teacher's Watch link, which comes in by the
room's join code, a code only its two players and the teacher are given) sees
the game N plies behind while it is played:

- its ``state`` shows the position N plies ago (``moves``, ``ply``, ``board``,
  ``to_move``, ``legal`` of that position), with ``delayed`` N;
- for each ``moved`` of the game, it gets the ``moved`` of the move made N plies
  earlier (nothing for the first N moves), without the clocks or the engine's
  search, which would tell the position now;
- when the game ends, the moves it has not seen yet come at once, in order, just
  before ``game_over``: from then on it sees the whole game, as everyone does.

With ``RoomOptions.spectator_delay_seconds`` S > 0 instead, the late spectators
see each move S seconds after it was made (the time is the room's inputs', passed
in: the room asks for a tick when the next held move is due):

- its ``state`` shows the position after the moves shown to them so far, with
  ``delayed_seconds`` S (and no ``delayed``);
- a ``moved`` reaches them, without the clocks or the search, once its move is
  S seconds old, in order (several at once if several came due);
- when the game ends, the moves not shown yet come at once, in order, just
  before ``game_over``, as with plies.

Plies are the default: a ply count is exact (a late spectator is the same
number of moves behind however fast the game goes), and a spectator who passes
the position to a player helps with a position that is gone. Seconds suit a
game whose moves come quickly, where a few plies are a few seconds. Players,
the teacher and the wall (the admin API, not a room member) see the game live.
The room decides this; the server only says who is live.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

import msgspec

from boardroom.server.core.board_view import board_rows, legal_moves
from boardroom.server.core.room_output import ClientId, Everyone, Recipient
from boardroom.shared.games import Game, Position
from boardroom.shared.protocol.messages import GameOver, Moved, RoomState, ServerMessage

__all__ = [
    "delay_messages",
    "delay_messages_by_time",
    "delayed_state",
    "position_at",
    "shown_by_time",
]


def position_at(game: Game, position: Position, ply: int) -> Position:
    """The position of ``position``'s game after its first ``ply`` moves."""
    earlier = game.new()
    for move in position.moves[:ply]:
        earlier = game.play_unchecked(earlier, move)
    return earlier


def delayed_state(
    state: RoomState, game: Game, position: Position, delay: int, *, seconds: float = 0.0
) -> RoomState:
    """``state`` (of a game in play at ``position``) as a spectator ``delay``
    plies behind sees it; with ``seconds``, one held back that many seconds
    (``delay``: the plies not shown to them yet)."""
    earlier = position_at(game, position, max(0, position.ply - delay))
    return msgspec.structs.replace(
        state,
        moves=game.move_string(earlier),
        ply=earlier.ply,
        to_move=game.to_move(earlier),
        board=board_rows(game, earlier),
        legal=legal_moves(game, earlier),
        draw_offer=None,
        delayed=0 if seconds else delay,
        delayed_seconds=seconds,
    )


def shown_by_time(move_times: Sequence[float], now: float, seconds: float) -> int:
    """How many of a game's moves, made at ``move_times`` (in order), a spectator
    ``seconds`` late has been shown at ``now``: those made ``seconds`` ago or more.

    >>> shown_by_time([10.0, 12.0, 15.0], now=24.0, seconds=10.0)
    2
    """
    return bisect_right(move_times, now - seconds)


def _moved_at(code: str, game: Game, position: Position, ply: int) -> Moved:
    """The ``moved`` of the move made at ``ply`` in ``position``'s game, as a late
    spectator gets it: its board and legal moves after it, no clocks or search."""
    before = position_at(game, position, ply)
    after = game.play_unchecked(before, position.moves[ply])
    return Moved(
        room=code,
        ply=ply,
        move=game.format_move(position.moves[ply]),
        side=game.to_move(before),
        board=board_rows(game, after),
        legal=legal_moves(game, after),
    )


def delay_messages(
    messages: Sequence[tuple[Recipient, ServerMessage]],
    audience: Iterable[ClientId],
    late: frozenset[ClientId],
    *,
    code: str,
    game: Game,
    position: Position,
    delay: int,
) -> list[tuple[Recipient, ServerMessage]]:
    """``messages`` (one input's, to ``audience``) with every ``moved`` and
    ``game_over`` as the ``late`` spectators get them (see the module docstring);
    ``position`` is the game's after the input. A broadcast that would reach a
    late spectator is split into one message per client; messages to nobody late
    are left as they are."""
    if not late or delay <= 0:
        return list(messages)
    members = list(audience)
    result: list[tuple[Recipient, ServerMessage]] = []
    for recipient, message in messages:
        if not isinstance(message, Moved | GameOver):
            result.append((recipient, message))
            continue
        late_here = _send_on_time(recipient, message, members, late, result)
        if not late_here:
            continue
        if isinstance(message, Moved):
            shown = message.ply - delay
            plies = [shown] if shown >= 0 else []
        else:  # the game is over: what was held back comes now, then the end
            plies = list(range(max(0, position.ply - delay), position.ply))
        for client in late_here:
            for ply in plies:
                result.append((client, _moved_at(code, game, position, ply)))
            if isinstance(message, GameOver):
                result.append((client, message))
    return result


def delay_messages_by_time(
    messages: Sequence[tuple[Recipient, ServerMessage]],
    audience: Iterable[ClientId],
    late: frozenset[ClientId],
    *,
    code: str,
    game: Game,
    position: Position,
    shown: int,
    due: int,
) -> list[tuple[Recipient, ServerMessage]]:
    """``messages`` (one input's, to ``audience``) as the ``late`` spectators of a
    room delayed by seconds get them (see the module docstring): they have been
    shown the game's first ``shown`` moves, and ``due`` of them are old enough
    now. Their ``moved`` messages are held back; the moves from ``shown`` to
    ``due`` come after the input's messages, or, if the game ended, every move
    not shown yet comes before its ``game_over``. ``position`` is the game's
    after the input."""
    members = list(audience)
    if not late:
        return list(messages)
    result: list[tuple[Recipient, ServerMessage]] = []
    over = False
    for recipient, message in messages:
        if not isinstance(message, Moved | GameOver):
            result.append((recipient, message))
            continue
        late_here = _send_on_time(recipient, message, members, late, result)
        if not late_here:
            continue
        if isinstance(message, GameOver):
            over = True
            for client in late_here:
                for ply in range(shown, position.ply):
                    result.append((client, _moved_at(code, game, position, ply)))
                result.append((client, message))
    if not over and due > shown:
        for client in (c for c in members if c in late):
            for ply in range(shown, min(due, position.ply)):
                result.append((client, _moved_at(code, game, position, ply)))
    return result


def _send_on_time(
    recipient: Recipient,
    message: ServerMessage,
    members: list[ClientId],
    late: frozenset[ClientId],
    result: list[tuple[Recipient, ServerMessage]],
) -> list[ClientId]:
    """Add to ``result`` ``message`` as it goes to those ``recipient`` reaches
    who are not ``late`` (the message as it was, if it reaches nobody late; one
    per client otherwise), and return the late ones it reaches, for the caller
    to hold back from."""
    if isinstance(recipient, Everyone):
        reached = [c for c in members if c != recipient.exclude]
    else:
        reached = [recipient]
    late_here = [c for c in reached if c in late]
    if not late_here:
        result.append((recipient, message))
    else:
        result.extend((c, message) for c in reached if c not in late)
    return late_here
