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

Why plies and not seconds: a ply count is exact and needs no timer (a late
spectator is the same number of moves behind however fast the game goes), and
a spectator who passes the position to a player helps with a position that is
gone. Players, the teacher and the wall (the admin API, not a room member) see
the game live. The room decides this; the server only says who is live.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from boardroom.server.core.board_view import board_rows, legal_moves
from boardroom.server.core.room_output import ClientId, Everyone, Recipient
from boardroom.shared.games import Game, Position
from boardroom.shared.protocol.messages import GameOver, Moved, RoomState, ServerMessage

__all__ = ["delay_messages", "delayed_state", "position_at"]


def position_at(game: Game, position: Position, ply: int) -> Position:
    """The position of ``position``'s game after its first ``ply`` moves."""
    earlier = game.new()
    for move in position.moves[:ply]:
        earlier = game.play_unchecked(earlier, move)
    return earlier


def delayed_state(state: RoomState, game: Game, position: Position, delay: int) -> RoomState:
    """``state`` (of a game in play at ``position``) as a spectator ``delay``
    plies behind sees it."""
    earlier = position_at(game, position, max(0, position.ply - delay))
    return msgspec.structs.replace(
        state,
        moves=game.move_string(earlier),
        ply=earlier.ply,
        to_move=game.to_move(earlier),
        board=board_rows(game, earlier),
        legal=legal_moves(game, earlier),
        draw_offer=None,
        delayed=delay,
    )


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
        if isinstance(recipient, Everyone):
            reached = [c for c in members if c != recipient.exclude]
        else:
            reached = [recipient]
        late_here = [c for c in reached if c in late]
        if not late_here:
            result.append((recipient, message))
            continue
        result.extend((c, message) for c in reached if c not in late)
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
