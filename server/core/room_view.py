"""What a room shows: its whole state for one client, and its line in the lobby.

The read side of a :class:`~boardroom.server.core.room.Room`: pure functions from its
parts (:mod:`~boardroom.server.core.seating`, :mod:`~boardroom.server.core.game_in_play`,
:mod:`~boardroom.server.core.class_controls`) to the wire's ``RoomState`` and
``RoomSummary``. Nothing here changes the room.
"""

from __future__ import annotations

import msgspec

from boardroom.server.core.board_view import board_kind
from boardroom.server.core.class_controls import ClassControls
from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.seating import Seating
from boardroom.shared.protocol.messages import RoomState, RoomSummary


def room_state(
    seating: Seating,
    play: GameInPlay,
    controls: ClassControls,
    client: ClientId | None,
    now: float,
    *,
    saving_paused: bool = False,
    like: RoomState | None = None,
) -> RoomState:
    """The whole room as ``client`` may see it at ``now``: ``you`` is its seat;
    join and watch codes go to seated players only, and an AI match's watch
    code to its watchers (nobody else may sit there, so they share it). In a
    pause, and while ``saving_paused`` (the store refuses the room's moves for
    now), ``clocks.running`` is null.

    ``like``: the state just made for another client of the same room at the same
    ``now``, nothing changed since: this one is made from it (only ``you`` and
    the codes differ; the other fields' values are shared, as messages are never
    changed once made), rather than from the room again: a new game sends one
    to every member (issue 29)."""
    options: RoomOptions = seating.options
    you = seating.side_of(client) if client is not None else None
    match_watcher = options.ai_match and client in seating.spectators
    join_code = options.join_code if you else None
    watch_code = options.watch_code if you or match_watcher else None
    if like is not None:
        return msgspec.structs.replace(like, you=you, join_code=join_code, watch_code=watch_code)
    clocks = play.clock.state(now) if play.clock is not None else None
    view = play.view
    if clocks is not None and (controls.paused or saving_paused):
        # No clock runs in a pause, nor while moves cannot be saved: clients
        # that count down locally stop.
        clocks = msgspec.structs.replace(clocks, running=None)
    return RoomState(
        code=play.code,
        game=play.game.name,
        title=play.game.title,
        status=play.status,
        public=options.public,
        clock=options.clock,
        seats=seating.infos(),
        moves=play.moves,
        ply=play.position.ply,
        to_move=play.to_move if play.playing else None,
        clocks=clocks,
        draw_offer=play.draw_offer,
        rematch_offer=play.rematch_offer,
        result=play.result,
        game_number=play.number,
        you=you,
        join_code=join_code,
        watch_code=watch_code,
        paused=controls.paused,
        saving_paused=saving_paused,
        tournament=options.tournament,
        ai_pace=options.ai_pace if options.ai_match else None,
        hints=controls.hints_allowed,
        game_players=dict(play.players),
        board=list(view.board),
        board_kind=board_kind(play.game),
        legal=list(view.legal) if play.playing else None,
    )


def room_summary(seating: Seating, play: GameInPlay) -> RoomSummary:
    """The room's line in ``list_rooms``."""
    return RoomSummary(
        code=play.code,
        game=play.game.name,
        title=play.game.title,
        status=play.status,
        players=[o.name for o in seating.seats.values() if o is not None],
        spectators=len(seating.spectators),
    )
