"""Plays one game of a ``boardroom bot`` run, from its start to its report.

Contract: :meth:`GamePlayer.play` plays game ``number`` of a room the bot is
seated in, to its end, and reports it (:class:`~boardroom.client.bots.report.Report`);
it raises :class:`~boardroom.client.bots.run_options.RunError` only when the
session ends. The runner (:mod:`boardroom.client.bots.runner`) gets the seat and
the game started, and leaves the room after.

Play is driven by state, not by messages: whenever the tracked room
(:class:`~boardroom.client.tracked_room.TrackedRoom`) shows the bot's turn at a ply
it has not answered, the brain is asked and the move is sent with that ``ply``.
A move lost with a dropped connection is sent again when the room's state
comes back; a stale one is harmless (``stale_move``). So a reconnect needs
nothing special (the brain is told, :meth:`Brain.reconnected
<boardroom.client.bots.brains.Brain.reconnected>`).

Two tasks per game: the *driver* reads the seat's events in order and decides
when the game is over; the *thinker* asks the brain and sends moves. The game's
end cancels the thinker wherever it is (a program still thinking is killed).
When the bot fails (:class:`~boardroom.client.bots.errors.BotFailedError`), the
thinker reports it and resigns; the room's rules decide the result (a loss, or
``aborted`` before the first move).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import msgspec

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.report import GameLabel, Report
from boardroom.client.bots.run_options import RunError
from boardroom.client.bots.state import GameState, game_result, game_state
from boardroom.client.errors import ClientError, RequestRefusedError
from boardroom.client.session import (
    Disconnected,
    Reconnected,
    Session,
    SessionEnded,
    SessionEvent,
)
from boardroom.client.terminal.room_text import level_word
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import Game, Move, Player, Position
from boardroom.shared.i18n import _, ngettext
from boardroom.shared.protocol.messages import (
    ClientMessage,
    GameOver,
    Left,
    Level,
    MakeMove,
    Resign,
    ResultInfo,
    RoomState,
    SeatInfo,
    ServerMessage,
    State,
)

__all__ = ["BOT_FAULTS", "CLOCK_SLACK_MS", "RATE_LIMIT_PAUSE", "GamePlayer", "request"]

BOT_FAULTS = frozenset({"illegal_move", "invalid_field"})
"""Refusals of a move that are the bot's doing (an illegal move, or garbage the
server could not even read as one): the bot resigns. Other refusals of a move
(``stale_move``, ``not_your_turn``, ``game_over``) mean the room moved on, and a
fresh state follows."""
CLOCK_SLACK_MS = 250
"""How close to zero our copy of a clock counts as run out: the copy counts down
from when a message arrived, so it lags the server's by the message's travel."""
RATE_LIMIT_PAUSE = 0.1
"""Seconds to wait after ``rate_limited`` when the server gives no ``retry_after``."""


async def request(session: Session, message: ClientMessage) -> ServerMessage:
    """``session.request``, sent again after ``rate_limited``."""
    while True:
        try:
            return await session.request(message)
        except RequestRefusedError as refusal:
            if refusal.code != "rate_limited":
                raise
            await asyncio.sleep(refusal.retry_after or RATE_LIMIT_PAUSE)


@dataclass
class _Progress:
    """How far the bot got in one game, for the end of it."""

    started: bool = False
    """The brain's ``start`` returned (so ``end`` is owed)."""
    thinking: bool = False
    """A ``choose`` is under way (the game ended while the bot was thinking)."""
    over: bool = False
    """The game has ended: the thinker stops at its next look (a cancellation can
    be lost on Python 3.11, when ``asyncio.wait_for`` inside a request completes
    at the same moment)."""
    sent: dict[int, str] = field(default_factory=dict)
    """The move the thinker sent at each ply, whether its reply came or not."""
    autopilot_plies: frozenset[int] = frozenset()
    """The plies the server's engine played for a player who was away, as the
    room's copy last knew them (the room may be gone when the game is reported)."""


class GamePlayer:
    """Plays the games of one run, one call of :meth:`play` per game (see the
    module docstring): a new brain from ``brains`` for each; ``move_timeout``:
    seconds the brain gets per move in a room without a clock."""

    def __init__(
        self, session: Session, brains: BrainSource, report: Report, *, move_timeout: float
    ) -> None:
        self.session = session
        self.brains = brains
        self.report = report
        self._move_timeout = move_timeout

    async def play(
        self, label: GameLabel, code: str, number: int, events: asyncio.Queue[SessionEvent]
    ) -> None:
        """Play game ``number`` of room ``code`` to its end and report it."""
        brain = self.brains.new_brain(label.log_prefix)
        changed = asyncio.Event()
        changed.set()
        progress = _Progress()
        try:
            thinker = asyncio.create_task(
                self._think(label, code, number, brain, changed, progress)
            )
            try:
                result, final = await self._until_over(
                    label, code, number, events, changed, brain, progress
                )
            finally:
                progress.over = True
                changed.set()
                thinker.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await thinker
            await self._finish(label, brain, progress, result, final)
        finally:
            await brain.close()

    async def _until_over(
        self,
        label: GameLabel,
        code: str,
        number: int,
        events: asyncio.Queue[SessionEvent],
        changed: asyncio.Event,
        brain: Brain,
        progress: _Progress,
    ) -> tuple[ResultInfo | None, RoomState | None]:
        """Read the seat's events until game ``number`` ends: its result and the
        room as it ended, with the seats as they were during the game (result
        None: the seat was lost, the end unknown). Every event wakes the thinker;
        a reconnection is told to the brain (:meth:`Brain.reconnected`). The
        opponent's seat taken by the server's engine, or handed back, is told to
        the user; so are the moves the engine made for this bot while it was away
        (found in the room's first ``state`` after a reconnection)."""
        last: RoomState | None = None
        players: list[SeatInfo] | None = None
        """The seats while the game was played: the room read after an event may
        be later than the event, with the opponent already gone."""
        autopilot: Level | None = None
        """The level the engine plays the opponent's seat at, as last told."""
        away_from: int | None = None
        """The copy's ply when the connection dropped, until the room's state is back."""

        def look() -> None:
            nonlocal last, players, autopilot
            room = self.session.rooms.get(code)
            if room is not None and room.state.game_number == number:
                last = room.state  # the event is in it already: rooms are updated first
                if last.status == "playing":
                    players = last.seats  # nobody sits down or leaves during a game
                    autopilot = self._tell_opponent_seat(label, room, autopilot)
                progress.autopilot_plies = frozenset(room.autopilot_plies)

        look()
        while True:
            event = await events.get()
            changed.set()
            if isinstance(event, State) and event.room.code == code and away_from is not None:
                room = self.session.rooms.get(code)
                if room is not None and room.state.game_number == number and room.you is not None:
                    self._tell_own_autopilot(label, room, away_from, progress.sent)
                away_from = None
            look()
            if isinstance(event, SessionEnded):
                raise RunError(_("the session ended: {reason}", reason=event.reason))
            if isinstance(event, Disconnected) and away_from is None and last is not None:
                away_from = last.ply
            if isinstance(event, Reconnected):
                if code in event.lost_rooms:
                    return None, last
                brain.reconnected()
            if isinstance(event, GameOver) and event.room == code:
                return event.result, _as_played(_ended(last, event), players)
            if isinstance(event, Left) and event.room == code:
                return None, last
            if isinstance(event, State) and event.room.code == code:
                ended = event.room
                if ended.game_number == number and ended.result is not None:
                    return ended.result, _as_played(ended, players)
                if ended.game_number > number:
                    return None, last

    def _tell_opponent_seat(
        self, label: GameLabel, room: TrackedRoom, before: Level | None
    ) -> Level | None:
        """Tell the user when the server's engine takes the opponent's seat
        (``before``: its level as last told, None if none) or hands it back to
        its player; the level now."""
        assert room.you is not None
        seat = room.seat(room.you.other)
        name = seat.name or ""  # a seat the engine plays, or handed back, is taken
        if seat.autopilot is not None and seat.autopilot != before:
            self.report.note(
                _(
                    "{game}: the AI plays for {player} ({level}) until they come back",
                    game=label,
                    player=name,
                    level=level_word(seat.autopilot),
                )
            )
        elif seat.autopilot is None and before is not None and seat.connected:
            self.report.note(_("{game}: {player} is back", game=label, player=name))
        return seat.autopilot

    def _tell_own_autopilot(
        self, label: GameLabel, room: TrackedRoom, since: int, sent: dict[int, str]
    ) -> None:
        """The bot is back in ``room`` after a drop at ply ``since``: the moves of
        its side from then on that it did not send were the server's engine's (its
        grace window ran out, and the room's autopilot played for it). The room's
        copy is told, and so is the user."""
        game, position = room.game, room.game.new()
        engine: set[int] = set()
        for ply, move in enumerate(room.position.moves):
            mine = game.to_move(position) == room.you
            if ply >= since and mine and _parsed(game, position, sent.get(ply)) != move:
                engine.add(ply)
            position = game.play_unchecked(position, move)
        if engine:
            room.note_autopilot(engine)
            self.report.note(
                ngettext(
                    "{game}: the AI played {n} move for this bot while it was away",
                    "{game}: the AI played {n} moves for this bot while it was away",
                    len(engine),
                    game=label,
                )
            )

    async def _think(
        self,
        label: GameLabel,
        code: str,
        number: int,
        brain: Brain,
        changed: asyncio.Event,
        progress: _Progress,
    ) -> None:
        """Start the brain, then answer every turn of the bot until cancelled."""
        answered = -1
        unsent: tuple[int, str] | None = None
        try:
            while True:
                await changed.wait()
                changed.clear()
                if progress.over:
                    return
                room = self.session.rooms.get(code)
                if room is None or room.state.game_number != number or not room.playing:
                    continue
                if not progress.started:
                    await brain.start(self._state_of(room))
                    progress.started = True
                    changed.set()  # time has passed: look at the room again
                    continue
                ply = room.state.ply
                if not room.my_turn or ply <= answered or room.state.paused:
                    continue  # a pause ends with a state without it, which wakes us
                if room.game.outcome(room.position).is_over:
                    continue  # the opponent's move ended it: game_over is on its way
                if unsent is not None and unsent[0] == ply:
                    move = unsent[1]
                else:
                    # Left set if the game's end cancels the choice: it was thinking then.
                    progress.thinking = True
                    try:
                        move = await self._choose(brain, room)
                    except BotFailedError:
                        progress.thinking = False
                        raise
                    progress.thinking = False
                unsent = None
                progress.sent[ply] = move
                try:
                    await self.session.request(MakeMove(room=code, move=move, ply=ply))
                    answered = ply
                except RequestRefusedError as refusal:
                    if refusal.code in BOT_FAULTS:
                        raise BotFailedError(
                            FailureKind.REFUSED,
                            _(
                                "it played {move!r}, and the server answered {code}: {message}",
                                move=move,
                                code=refusal.code,
                                message=refusal.message,
                            ),
                        ) from None
                    if refusal.code in ("rate_limited", "storage_unavailable"):
                        # storage_unavailable: the session sent it again for minutes
                        # already; the server keeps the room, so go on trying.
                        await asyncio.sleep(refusal.retry_after or RATE_LIMIT_PAUSE)
                        unsent = (ply, move)
                        changed.set()
                    elif refusal.code == "paused":
                        unsent = (ply, move)  # sent again once the resume's state comes
                    else:
                        answered = ply  # the room moved on; its new state wakes us
                except ClientError:
                    unsent = (ply, move)  # sent again when the room's state comes back
        except BotFailedError as failure:
            room = self.session.rooms.get(code)
            before_first = room is not None and room.state.ply == 0
            then = (
                _("resigning: no move has been played, so the game is aborted")
                if before_first
                else _("resigning: the game is lost by resignation")
            )
            self.report.failure(label, failure, then)
            await self._resign(code, number, changed)

    async def _choose(self, brain: Brain, room: TrackedRoom) -> str:
        """Ask the brain for its move: within ``move_timeout`` without a clock, with
        no limit of ours with one (the room's clock decides)."""
        state = self._state_of(room)
        assert room.you is not None
        left_ms = room.time_left_ms(room.you)
        if left_ms is None:
            timeout = self._move_timeout
            return await brain.choose(state, timeout=timeout, time_ms=int(timeout * 1000))
        return await brain.choose(state, timeout=None, time_ms=left_ms)

    async def _resign(self, code: str, number: int, changed: asyncio.Event) -> None:
        """Resign game ``number``, again after a reconnect if need be."""
        while True:
            room = self.session.rooms.get(code)
            if room is None or room.state.game_number != number or not room.playing:
                return
            try:
                await request(self.session, Resign(room=code))
                return
            except RequestRefusedError:
                return  # game_over: it ended first
            except ClientError:
                await changed.wait()
                changed.clear()

    async def _finish(
        self,
        label: GameLabel,
        brain: Brain,
        progress: _Progress,
        result: ResultInfo | None,
        final: RoomState | None,
    ) -> None:
        """Tell the brain how it ended, and report the game."""
        if result is None or final is None or final.you is None:
            self.report.note(
                _(
                    "{game}: the seat was lost (disconnected too long); result unknown",
                    game=label,
                )
            )
            return
        side = final.you
        state = game_state(
            final,
            time_left_ms=_clock_ms(final, side),
            opponent_time_left_ms=_clock_ms(final, side.other),
            autopilot_plies=progress.autopilot_plies,
        )
        outcome = game_result(result, state.moves, side)
        if progress.thinking and _ran_out_of_time(final, result, side):
            self.report.failure(
                label,
                BotFailedError(FailureKind.HUNG, _("no move came before its clock ran out")),
                _("the room's clock decided the game; the bot was stopped"),
            )
        if progress.started:
            try:
                await brain.end(state, outcome)
            except BotFailedError as failure:
                self.report.failure(label, failure, _("after the game: the result stands"))
        self.report.result(label, state.game, state.you, state.opponent, outcome)

    def _state_of(self, room: TrackedRoom) -> GameState:
        side = room.you
        assert side is not None
        return game_state(
            room.state,
            time_left_ms=room.time_left_ms(side),
            opponent_time_left_ms=room.time_left_ms(side.other),
            autopilot_plies=room.autopilot_plies,
        )


def _parsed(game: Game, position: Position, text: str | None) -> Move | None:
    """The move ``text`` (as the bot wrote it: ``"B2"``, ``" 4"``) in ``position``;
    None for no text, or one that is no legal move there."""
    if text is None:
        return None
    try:
        return game.parse_move(position, text)
    except BoardroomError:
        return None


def _ended(last: RoomState | None, over: GameOver) -> RoomState | None:
    """The room as game ``over`` left it, from the last state seen of that game."""
    if last is None:
        return None
    return msgspec.structs.replace(
        last, status="finished", moves=over.moves, to_move=None, result=over.result
    )


def _as_played(final: RoomState | None, players: list[SeatInfo] | None) -> RoomState | None:
    """The room as a game ended, with the seats as they were while it was played
    (if it was seen being played)."""
    if final is None or players is None:
        return final
    return msgspec.structs.replace(final, seats=players)


def _ran_out_of_time(final: RoomState, result: ResultInfo, side: Player) -> bool:
    """Whether the game ended because ``side``'s clock ran out: a loss on time, or
    the first move not made in time (which aborts the game)."""
    if result.reason == "timeout":
        return result.winner != side
    left = _clock_ms(final, side)
    return result.reason == "aborted" and left is not None and left <= CLOCK_SLACK_MS


def _clock_ms(room: RoomState, side: str) -> int | None:
    clocks = room.clocks
    if clocks is None:
        return None
    return clocks.first_ms if side == Player.FIRST else clocks.second_ms
