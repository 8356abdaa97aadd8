"""The four parts of one room and the rules that join them.

A :class:`Table` holds a room's :class:`~boardroom.server.core.seating.Seating`,
:class:`~boardroom.server.core.game_in_play.GameInPlay`,
:class:`~boardroom.server.core.ai_turns.AiTurns` and
:class:`~boardroom.server.core.class_controls.ClassControls`, and applies what one part's change
means for the others: both seats taken start a game, a game that starts or moves on asks the AI, a
seat freed forgets a rematch request, time ends clocks and grace windows, a pause holds all of it,
and everyone connected gets the whole state when the room changes.
:class:`~boardroom.server.core.room.Room` is the facade over it: every input there opens a
:class:`~boardroom.server.core.room_draft.Draft`, applies time (:meth:`Table.expire`), acts here,
and returns :meth:`Table.output`.

Rules that join the parts (each part's docstring states its own):

- Leaving in a game in progress resigns it (refused in a pause); leaving
  frees the seat.
- When a held seat's window ends, a game in progress is lost by abandonment
  and the seat is freed; if the opponent is gone too, nobody waited and nobody
  wins (abandonment without a winner), once a move was made or in a
  tournament room. Timed events apply earliest first, each at its own time,
  a flag before a window ending at the same moment.
- With ``RoomOptions.autopilot`` (an engine level), a window that ends in a
  game in play whose opponent is a connected person or bot (someone waits)
  hands the seat to the engine instead: it moves there at that level, within
  the seat's clock, each move flagged ``autopilot``, and everyone is told
  (``player_status`` with ``autopilot``, and the state). The player who comes
  back (its session, from any client) takes the seat back at once: an engine
  answer still on its way is then stale and dropped, so the handback falls
  between two moves. When that game ends the seat is held for a whole window
  from its end, as any dropped player's. Without a waiting opponent (both
  gone, or the server AI across the board) the window ends as above.
- ``random`` for the creator's seat is drawn from the rng when the first game
  starts (until then the creator shows in ``first``, provisionally).
- An AI match nobody watches any more is called off (``aborted``) when
  :attr:`Seating.unwatched_until <boardroom.server.core.seating.Seating.unwatched_until>`
  comes, unless someone watches again first. A restored one starts that
  window at the restart (its watchers were not kept). If its game ends first,
  the room is kept until then, for a watcher coming back to see how it ended.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from boardroom.server.core import ai_turns
from boardroom.server.core.ai_turns import AiTurns
from boardroom.server.core.class_controls import ClassControls, addressed_to_members, hold_clock
from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.records import PlayerKind, Termination
from boardroom.server.core.room_draft import Draft, RefusedError, chat_text
from boardroom.server.core.room_output import (
    ALL,
    ClientId,
    Everyone,
    GameStarted,
    MoveMade,
    Output,
    Recipient,
)
from boardroom.server.core.room_view import room_state, room_summary
from boardroom.server.core.seating import Occupant, Seating
from boardroom.server.core.spectator_delay import (
    delay_messages,
    delay_messages_by_time,
    delayed_state,
    shown_by_time,
)
from boardroom.shared.games import (
    Move,
    Player,
)
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    AcceptDraw,
    AddAi,
    AskHint,
    ChatLine,
    DeclineDraw,
    GetState,
    Leave,
    Left,
    Level,
    MakeMove,
    OfferDraw,
    Rematch,
    RequestId,
    Resign,
    RoomClosed,
    RoomState,
    RoomSummary,
    SearchInfo,
    SendChat,
    ServerMessage,
    State,
)
from boardroom.shared.protocol.room_closing import Closing

RoomRequest = (
    MakeMove
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Rematch
    | Leave
    | SendChat
    | GetState
    | AddAi
    | AskHint
)
"""The client messages that :meth:`Room.handle <boardroom.server.core.room.Room.handle>`
takes; the server routes them by their ``room`` field. ``join`` and ``watch``
name a code, so the server resolves it and calls :meth:`Room.seat
<boardroom.server.core.room.Room.seat>` or :meth:`Room.watch
<boardroom.server.core.room.Room.watch>`."""


@dataclass
class Table:
    """One room's parts, and what a change to one means for the others (see the
    module docstring). Its methods write into the input's ``out``; those that
    refuse raise :class:`~boardroom.server.core.room_draft.RefusedError` before any change."""

    rng: random.Random = field(compare=False, repr=False)
    """The room's only source of randomness (compared by the room itself)."""
    seating: Seating
    play: GameInPlay
    turns: AiTurns
    controls: ClassControls
    saving_paused: bool = False
    """The store refuses the room's inputs for now (:meth:`Room.hold_clock
    <boardroom.server.core.room.Room.hold_clock>`): its clock stands still."""
    live_watchers: set[ClientId] = field(default_factory=set)
    """Spectators who see a tournament game live, not late (the teacher's:
    :mod:`boardroom.server.core.spectator_delay`)."""
    move_times: list[float] = field(default_factory=list)
    """When each move of the game in play (or the last game) was made, by ply: in
    a room that delays its spectators by seconds, when each is shown to them."""
    shown_late: int = 0
    """In a room that delays its spectators by seconds: how many moves of the
    game in play its late spectators have been shown."""
    input_at: float = field(default=0.0, compare=False)
    """The time of the input being applied (:meth:`expire` takes it first): the
    clock the delay by seconds reads, not the room's state (a refused input
    changes nothing that counts)."""

    # -- reading and restarting -------------------------------------------------------

    def state(self, client: ClientId | None, now: float) -> RoomState:
        """The whole room as ``client`` may see it at ``now`` (late, for a late spectator)."""
        state = room_state(
            self.seating, self.play, self.controls, client, now, saving_paused=self.saving_paused
        )
        return self._as_shown_to(client, state)

    def _as_shown_to(self, client: ClientId | None, state: RoomState) -> RoomState:
        """``state`` as ``client`` sees it: late, for a late spectator."""
        if self.play.playing and client in self.late_spectators():
            options, position = self.seating.options, self.play.position
            if options.spectator_delay_seconds:
                behind = position.ply - self.shown_late
                seconds = options.spectator_delay_seconds
                return delayed_state(state, self.play.game, position, behind, seconds=seconds)
            return delayed_state(state, self.play.game, position, options.spectator_delay)
        return state

    def late_spectators(self) -> frozenset[ClientId]:
        """The spectators who see the room's games late: all but the live ones, in
        a room with a spectator delay."""
        options = self.seating.options
        if not options.spectator_delay and not options.spectator_delay_seconds:
            return frozenset()
        return frozenset(self.seating.spectators.keys() - self.live_watchers)

    def summary(self) -> RoomSummary:
        """The room's line in ``list_rooms``."""
        return room_summary(self.seating, self.play)

    def restarted(self, now: float, out: Draft) -> None:
        """A restored room starts from ``now``: its held seats' windows, its
        clock, the end of a game the records lack, and the AI if it is to move.
        An AI match's watchers were not kept: its window for them starts too."""
        self.seating.start_windows(now)
        self.seating.note_unwatched(now, playing=self.play.playing)
        if self.play.unrecorded_finish is not None:
            out.events.append(self.play.unrecorded_finish)
            self.play.unrecorded_finish = None
        if self.play.playing and self.play.clock is not None:
            self.play.clock.resume(now)
        self.request_ai(out, now)

    # -- requests, seats and games ----------------------------------------------------

    def request(self, client: ClientId, message: RoomRequest, now: float, out: Draft) -> None:
        """Apply one request from ``client`` (raises RefusedError before any change)."""
        request_id = message.id
        play = self.play
        match message:
            case MakeMove():
                side = self.require_playing_side(client, "move")
                move = play.require_turn(side, message)
                self.play_move(side, move, now, out, client, request_id)
            case Resign():
                side = self.require_playing_side(client, "resign")
                play.concede(side, Termination.RESIGNATION, now, out, client, request_id)
            case OfferDraw():
                side = self.require_playing_side(client, "offer a draw")
                to_ai = self.seating.occupant(side.other).kind is PlayerKind.AI
                play.offer_draw(
                    side, to_ai=to_ai, now=now, out=out, client=client, request_id=request_id
                )
            case AcceptDraw():
                side = self.require_playing_side(client, "accept a draw")
                play.require_draw_offer_to(side)
                play.finish(None, Termination.AGREEMENT, now, out, client, request_id)
            case DeclineDraw():
                side = self.require_playing_side(client, "decline a draw")
                play.require_draw_offer_to(side)
                play.decline_draw(side, out, client, request_id)
            case Rematch():
                self.rematch(client, now, out, request_id)
            case Leave():
                self.leave(client, now, out, request_id)
            case SendChat():
                name = self.seating.member_name(client, "chat")
                line = ChatLine(room=self.play.code, name=name, text=chat_text(message.text))
                out.announce(line, client, request_id)
            case GetState():
                self.seating.member_name(client, "get its state")
                out.send(client, State(room=self.state(client, now), id=request_id))
            case AddAi():
                self.add_ai(message.level, client, now, out, request_id)
            case AskHint():
                side = self.require_playing_side(client, "ask for a hint")
                self.turns.ask_hint(
                    side,
                    play,
                    self.rng,
                    now,
                    out,
                    allowed=self.controls.hints_allowed,
                    client=client,
                    request_id=request_id,
                )
            case _:
                raise TypeError(f"not a room request: {message!r}")

    def take_seat(
        self,
        occupant: Occupant,
        out: Draft,
        now: float,
        requester: ClientId | None,
        request_id: RequestId,
        wanted: Player | None = None,
    ) -> None:
        """Seat ``occupant`` (in ``wanted`` if given); the next game starts if both
        seats are taken and none is played."""
        game_over = self.play.status == "finished"
        side = self.seating.choose_side(occupant, wanted, game_over=game_over)
        self.seating.sit(side, occupant)
        self.play.forget_rematch()
        if self.seating.full and not self.play.playing:
            self.start_game(now, out, requester, request_id)
        else:
            self.send_states(out, now, requester, request_id)

    def add_ai(
        self,
        level: str,
        by: ClientId | None,
        now: float,
        out: Draft,
        request_id: RequestId,
        side: Player | None = None,
    ) -> None:
        """Seat the server AI at ``level`` for ``by`` (None: the server), in ``side``
        if given; refused as :meth:`Seating.ai_occupant
        <boardroom.server.core.seating.Seating.ai_occupant>` and :meth:`take_seat` refuse."""
        occupant = self.seating.ai_occupant(level, by)
        self.take_seat(occupant, out, now, by, request_id, side)

    def free_seat(self, side: Player, out: Draft, now: float) -> None:
        """``side`` is free again; everyone is told."""
        self.seating.free(side)
        self.play.forget_rematch()
        self.send_states(out, now, None, None)

    def reconnect(self, client: ClientId, out: Draft, now: float, request_id: RequestId) -> None:
        """Seated ``client`` is back (or asks again): the others are told if it was
        held, and it gets the whole state."""
        side = self.seating.side_of(client)
        assert side is not None
        handback = self.seating.occupant(side).autopilot is not None
        back = self.seating.reconnect(side)
        if back is not None:
            out.send(Everyone(exclude=client), back)
        if handback:
            # The seat's autopilot shows in everyone's state: it is gone now.
            self.send_states(out, now, client, request_id)
        else:
            out.send(client, State(room=self.state(client, now), id=request_id))

    def start_game(
        self, now: float, out: Draft, requester: ClientId | None, request_id: RequestId
    ) -> None:
        """Start the next game between the seated (drawing the sides for a
        ``random`` creator seat before the first); everyone gets the state, and
        the AI is asked if it moves first."""
        first_game = self.play.status != "finished"
        if first_game and self.seating.options.creator_seat == "random" and self.rng.random() < 0.5:
            self.seating.swap()
        self.play.start(self.seating.records(), now, out, paused=self.controls.paused)
        self.send_states(out, now, requester, request_id)
        self.request_ai(out, now)

    def play_move(
        self,
        side: Player,
        move: Move,
        now: float,
        out: Draft,
        requester: ClientId | None,
        request_id: RequestId,
        search: SearchInfo | None = None,
        *,
        autopilot: bool = False,
    ) -> None:
        """Play ``side``'s legal ``move`` (``autopilot``: the engine's, for an
        absent player); the engine is asked if it is to move next."""
        # Only an AI's search has a line to hide.
        line_hidden = search is not None and self.controls.line_hidden(
            has_player=self.seating.has_player
        )
        goes_on = self.play.play(
            side,
            move,
            now,
            out,
            requester,
            request_id,
            search,
            line_hidden=line_hidden,
            autopilot=autopilot,
        )
        if goes_on:
            self.request_ai(out, now)

    def rematch(self, client: ClientId, now: float, out: Draft, request_id: RequestId) -> None:
        """``client`` asks for a rematch; once both sides have, the occupants swap
        sides and the next game starts."""
        side: Player | None
        if self.seating.options.ai_match and client in self.seating.spectators:
            side = None  # anyone watching an AI match may start its next game
        else:
            side = self.seating.require_player(client, "ask for a rematch")
        both = self.play.ask_rematch(
            side,
            agreeing=self.seating.ai_sides(),
            seats_full=self.seating.full,
            out=out,
            client=client,
            request_id=request_id,
        )
        if both:
            self.seating.swap()
            self.start_game(now, out, client, request_id)

    def leave(self, client: ClientId, now: float, out: Draft, request_id: RequestId) -> None:
        """``client`` leaves: stops watching, or resigns its game in progress (not
        in a pause) and frees its seat."""
        if self.seating.stop_watching(client):
            self.seating.note_unwatched(now, playing=self.play.playing)
            out.send(client, Left(room=self.play.code, id=request_id))
            return
        side = self.seating.side_of(client)
        if side is None:
            raise RefusedError(ErrorCode.NOT_SEATED, f"you are not in room {self.play.code}")
        if self.play.playing:
            # Leaving resigns, and nothing in a game changes during a pause.
            self.controls.require_unpaused("leave this game")
            self.play.concede(side, Termination.RESIGNATION, now, out, client, None)
        self.free_seat(side, out, now)
        out.send(client, Left(room=self.play.code, id=request_id))

    def require_playing_side(self, client: ClientId, action: str) -> Player:
        """The side ``client`` plays in the game in progress, which it may act
        in now; refused otherwise (before any change)."""
        side = self.seating.require_player(client, action)
        self.play.require_in_play(action)
        self.controls.require_unpaused(action)
        return side

    def disconnected(self, client: ClientId, now: float, out: Draft) -> None:
        """``client`` dropped: gone if it watched (the room kept a while for it
        to watch again), its seat held if it sat."""
        self.seating.drop_spectator(client, now, game_started=self.play.status != "waiting")
        self.seating.note_unwatched(now, playing=self.play.playing)
        status = self.seating.hold(client, now)
        if status is not None:
            out.send(ALL, status)

    # -- the teacher -------------------------------------------------------------------

    def pause(self, now: float, out: Draft) -> None:
        """Pause from ``now`` (if not paused): the clock is held, everyone told."""
        if self.controls.pause(now):
            if self.play.playing and self.play.clock is not None:
                hold_clock(self.play.clock, now)
            self.send_states(out, now, None, None)

    def resume(self, now: float, out: Draft) -> bool:
        """End the pause at ``now``: windows and clock run on, everyone is told,
        then the AI plays its kept answer (or is asked). False if not paused."""
        paused_at = self.controls.end_pause()
        if paused_at is None:
            return False
        self.seating.extend_windows(paused_at, now)
        if self.play.playing and self.play.clock is not None:
            self.play.clock.resume(now)
        self.send_states(out, now, None, None)
        held = self.turns.release_held()
        if held is not None:
            self.take_ai_answer(out, *held, now)
        else:
            self.request_ai(out, now)
        return True

    def rename(self, client: ClientId, name: str, now: float, out: Draft) -> None:
        """``client`` is ``name`` now, in its seat (and the game's players) or
        among the spectators; everyone is told if it sits here."""
        side = self.seating.rename(client, name)
        if side is not None:
            if side in self.play.players:
                self.play.players[side] = name
            self.send_states(out, now, None, None)

    def remove(self, client: ClientId, now: float, out: Draft) -> None:
        """``client`` is removed: as if it left, even in a pause."""
        self.seating.stop_watching(client)
        self.seating.note_unwatched(now, playing=self.play.playing)
        side = self.seating.side_of(client)
        if side is not None:
            if self.play.playing:
                self.play.concede(side, Termination.RESIGNATION, now, out, None, None)
            self.free_seat(side, out, now)

    def close(self, reason: str | Closing, now: float, out: Draft) -> None:
        """End the game in play (``aborted``), tell everyone ``room_closed``, let
        everyone go. A :class:`Closing` is sent as its code and names, with its
        English words as the ``reason``."""
        if self.play.playing:
            self.play.finish(None, Termination.ABORTED, now, out, None, None)
        if isinstance(reason, Closing):
            closed = RoomClosed(
                room=self.play.code,
                reason=reason.english(),
                kind=reason.kind.value,
                names=dict(reason.names),
            )
        else:
            closed = RoomClosed(room=self.play.code, reason=reason)
        out.send(ALL, closed)
        out.messages = addressed_to_members(out.messages, frozenset(self.seating.audience()))
        self.seating.clear()
        self.turns.forget()
        self.controls.closed = True

    # -- the AI -----------------------------------------------------------------------

    def request_ai(self, out: Draft, now: float) -> None:
        self.turns.request(self.play, self.seating, self.rng, now, out, paused=self.controls.paused)

    def ai_answered(
        self,
        game_number: int,
        ply: int,
        move_text: str | None,
        search: SearchInfo | None,
        now: float,
        out: Draft,
    ) -> None:
        """The engine's answer (``move_text`` None: it failed) for ``game_number``,
        ``ply``: kept if the room is paused, else taken."""
        if not self.turns.hold(game_number, ply, move_text, search, paused=self.controls.paused):
            self.take_ai_answer(out, game_number, ply, move_text, search, now)

    def hint_found(
        self,
        client: ClientId,
        game_number: int,
        ply: int,
        move_text: str,
        search: SearchInfo,
        now: float,
        out: Draft,
        request_id: RequestId,
    ) -> None:
        """The engine's hint for ``client`` (see :meth:`AiTurns.hint_found`)."""
        self.turns.hint_found(
            client,
            self.seating.side_of(client),
            self.play,
            game_number,
            ply,
            move_text,
            search,
            now,
            out,
            allowed=self.controls.hints_allowed,
            request_id=request_id,
        )

    def take_ai_answer(
        self,
        out: Draft,
        game_number: int,
        ply: int,
        move_text: str | None,
        search: SearchInfo | None,
        now: float,
    ) -> None:
        if not self.turns.settle(game_number, ply):
            return  # not asked, or answered already
        if not ai_turns.answers_position(self.play, self.seating, game_number, ply):
            self.request_ai(out, now)  # stale: ask about the position in play, if any
            return
        move, search = ai_turns.move_to_play(self.play, move_text, search, self.rng)
        side = self.play.to_move
        autopilot = self.seating.occupant(side).autopilot is not None
        self.play_move(side, move, now, out, None, None, search, autopilot=autopilot)

    # -- time ------------------------------------------------------------------------

    def deadlines(self) -> list[tuple[float, Player | None]]:
        """Timed events: (when, None) for the flag, (when, side) for a held seat.
        None in a pause: its clock is held, and :meth:`resume` moves the windows."""
        if self.controls.paused:
            return []
        deadlines: list[tuple[float, Player | None]] = []
        flag = self.play.flag_deadline()
        if flag is not None:
            deadlines.append((flag, None))
        deadlines.extend(self.seating.window_deadlines())
        return deadlines

    def autopilot_level(self, side: Player) -> Level | None:
        """The level the engine takes ``side`` at when its window ends now: the
        room's autopilot in a game in play whose opponent waits (a connected
        person or bot); None if the window ends as without it."""
        level = self.seating.options.autopilot
        opponent = self.seating.seats[side.other]
        waits = opponent is not None and opponent.kind is not PlayerKind.AI and opponent.connected
        return level if level is not None and self.play.playing and waits else None

    def expire(self, now: float, out: Draft) -> None:
        """Apply every timed event due by ``now``, earliest first (a flag before a
        grace window ending at the same time), each at its own time. (The moves
        held back from late spectators by seconds come due in :meth:`output`.)"""
        self.input_at = max(self.input_at, now)
        play = self.play
        while deadlines := self.deadlines():
            due = [(at, side) for at, side in deadlines if at <= now]
            if not due:
                break
            at, side = min(due, key=lambda d: (d[0], d[1] is not None, d[1] or ""))
            if side is None:
                assert play.clock is not None and play.clock.running is not None
                play.concede(play.clock.running, Termination.TIMEOUT, at, out, None, None)
            elif (level := self.autopilot_level(side)) is not None:
                out.send(ALL, self.seating.engage_autopilot(side, level))
                self.send_states(out, at, None, None)
                self.request_ai(out, at)
            else:
                if play.playing:
                    both_gone = self.seating.gone(side.other)
                    if both_gone and (play.position.ply > 0 or self.seating.options.tournament):
                        # Nobody waited: both are gone, so nobody wins.
                        play.finish(None, Termination.ABANDONMENT, at, out, None, None)
                    else:
                        play.concede(side, Termination.ABANDONMENT, at, out, None, None)
                self.free_seat(side, out, at)
        until = self.seating.unwatched_until
        if until is not None and until <= now and not self.controls.paused:
            self.seating.unwatched_until = None
            if play.playing and not self.seating.members:
                play.finish(None, Termination.ABORTED, until, out, None, None)
        kept = self.seating.kept_for_watchers_until
        if kept is not None and kept <= now:
            self.seating.kept_for_watchers_until = None  # the room may be dropped now

    # -- output ----------------------------------------------------------------------

    def send_states(
        self, out: Draft, now: float, requester: ClientId | None, request_id: RequestId
    ) -> None:
        """The whole state to every connected member, each with its own ``you``."""
        state = None
        for client in self.seating.audience():
            reply_id = request_id if client == requester else None
            state = room_state(
                self.seating,
                self.play,
                self.controls,
                client,
                now,
                saving_paused=self.saving_paused,
                like=state,  # the last member's: only its seat and codes change
            )
            out.send(client, State(room=self._as_shown_to(client, state), id=reply_id))

    @property
    def next_deadline(self) -> float | None:
        """When time next decides something (see :attr:`Output.next_deadline`)."""
        seating = self.seating
        deadlines: list[float] = []
        if not self.controls.paused:  # a pause holds the clock, the windows, the unwatched match
            flag = self.play.flag_deadline()
            if flag is not None:
                deadlines.append(flag)
            for at, _ in seating.window_deadlines():
                deadlines.append(at)
            if seating.unwatched_until is not None:
                deadlines.append(seating.unwatched_until)
        seconds = seating.options.spectator_delay_seconds
        if seconds and self.play.playing and self.shown_late < len(self.move_times):
            deadlines.append(self.move_times[self.shown_late] + seconds)  # the next held move
        if seating.kept_for_watchers_until is not None:
            deadlines.append(seating.kept_for_watchers_until)
        return min(deadlines) if deadlines else None

    def _delayed_by_time(self, out: Draft) -> list[tuple[Recipient, ServerMessage]]:
        """The input's messages as a room delayed by seconds sends them: its moves
        timed (a new game starts a new list), the late spectators sent what came
        due by the input's time, and :attr:`shown_late` moved on."""
        for event in out.events:
            if isinstance(event, GameStarted):
                self.move_times, self.shown_late = [], 0
            elif isinstance(event, MoveMade):
                self.move_times.append(event.at)
        play = self.play
        untimed = play.position.ply - len(self.move_times)
        if untimed > 0:  # moves whose times the room never had are shown at once
            self.move_times[:0] = [float("-inf")] * untimed
        seconds = self.seating.options.spectator_delay_seconds
        due = shown_by_time(self.move_times, self.input_at, seconds)
        messages = delay_messages_by_time(
            out.messages,
            self.seating.audience(),
            self.late_spectators(),
            code=play.code,
            game=play.game,
            position=play.position,
            shown=self.shown_late,
            due=due,
        )
        ended = not play.playing
        self.shown_late = play.position.ply if ended else max(self.shown_late, due)
        return messages

    def release_autopilots(self, out: Draft) -> None:
        """Once the game the engine played seats in is over, those seats are held
        for their players a whole window from its end, as any dropped player's;
        everyone gets the state."""
        ended = None if self.play.playing else self.play.finished_at
        if ended is None:
            return
        sides = self.seating.autopiloted()
        if not sides:
            return
        for side in sides:
            self.seating.release_autopilot(side, ended)
        self.send_states(out, ended, None, None)

    def output(self, out: Draft) -> Output:
        """What the input said, as the room's :class:`Output`."""
        self.release_autopilots(out)
        options = self.seating.options
        audience = self.seating.audience()
        messages: list[tuple[Recipient, ServerMessage]] = out.messages
        if options.spectator_delay_seconds:
            messages = self._delayed_by_time(out)
        elif options.spectator_delay > 0:  # else nobody is late (the common room)
            messages = delay_messages(
                messages,
                audience,
                self.late_spectators(),
                code=self.play.code,
                game=self.play.game,
                position=self.play.position,
                delay=options.spectator_delay,
            )
        return Output(
            tuple(messages),
            tuple(out.events),
            tuple(out.ai_requests),
            self.next_deadline,
            frozenset(audience),
        )
