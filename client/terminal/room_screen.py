"""Being in a room: the board, the status line, moves and commands, and the events
that change them.

The screen draws the board when something changed and no more events are
waiting (so a burst of events draws one board, with every move announced on its
own line above it), then the status line; at a terminal the status line also
sits live in the toolbar, where clocks count down.

Lines typed are commands (:data:`~boardroom.client.terminal.commands.ROOM_COMMANDS`) or
moves. At a terminal a move is checked and sent at once; from a script, a move
waits for the player's turn (and for the connection, after a drop), so a script
can list its moves in advance. A move whose request was cut by a drop is sent
again once the session is back, unless the resumed state shows it went through.

While the teacher has the games paused (class mode), the status line says so
and a move typed at the player's turn is held, not sent (a later one replaces
it): it is sent by itself when a ``state`` without ``paused`` comes, if it is
still the player's turn and the move still legal. A move the server refuses as
``paused`` (the pause came while it was on its way) is held the same way.

While the server cannot save the game (``saving_paused`` in the state: its
database is down), a line says so, the status line's clocks stand as the
server's do (the toolbar's too, at a terminal, from the session's copy of the
room), and a refused move is sent again by the session (which says so before
each wait); a line says when saving works again, the clocks running on from the
state.

A tournament's ``match`` for another room ends the screen (leaving this room)
so that the lobby joins that one, at once or, if the player is in a game in
progress here, once it is over.

At the end of a script's input the screen plays out what is under way: it waits
while the opponent is to move or the room waits for one, and quits once it is
the player's turn (no more moves will come) or the game is over. Quitting never
resigns: the server holds the seat for its grace window.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Literal

from boardroom.client.announcements import announcement_text
from boardroom.client.errors import ConnectionLostError, RequestRefusedError
from boardroom.client.refusals import illegal_move_text, move_refusal_text, refusal_text
from boardroom.client.room_closed import closed_text
from boardroom.client.room_options import InputError, parse_level
from boardroom.client.session import Disconnected, Reconnected, SessionEnded, SessionEvent
from boardroom.client.terminal.commands import (
    DEFAULT_AI_LEVEL,
    PLAYER_COMMANDS,
    ROOM_COMMANDS,
    room_help,
    spectator_help,
    split_line,
)
from boardroom.client.terminal.render import render_board
from boardroom.client.terminal.room_text import (
    game_title,
    level_word,
    played_text,
    player_label,
    rematch_text,
    result_line,
    search_text,
    status_line,
    who,
)
from boardroom.client.terminal.terminal import Line, Terminal
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.engine.explain import search_summary, value_text
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games import Player, spec_for
from boardroom.shared.i18n import _, ngettext
from boardroom.shared.protocol.messages import (
    AcceptDraw,
    AddAi,
    Announcement,
    AskHint,
    ChatLine,
    DeclineDraw,
    DrawDeclined,
    DrawOffered,
    GameOver,
    Hint,
    Leave,
    Left,
    MakeMove,
    Match,
    Moved,
    OfferDraw,
    PlayerStatus,
    Rematch,
    RematchOffered,
    Resign,
    RoomClosed,
    RoomState,
    SendChat,
    State,
)


def hint_text(hint: Hint) -> str:
    """The engine's hint for people: ``Hint: b2 (draw): searched 5.5 k positions...``."""
    summary = search_summary(hint.search)
    value = value_text(hint.search.value)
    if hint.search.exact:
        return _("Hint: {move} ({value}): {summary}", move=hint.move, value=value, summary=summary)
    return _(
        "Hint: {move} ({value}, an estimate): {summary}",
        move=hint.move,
        value=value,
        summary=summary,
    )


RoomExit = Literal["lobby", "quit"]
"""Where the user goes from a room: back to the lobby, or out of the client."""

ROOM_ARRIVAL_TIMEOUT = 10.0
"""Seconds to wait for the first ``state`` of a room entered by resuming."""

MAX_CHAT_LENGTH = 500


class RoomScreen:
    """One room, until the user leaves or quits (see the module docstring).

    ``lobby_after``: False when there is no lobby to go back to (``boardroom
    watch``), so that leaving the room ends the client. ``ai_coming``: the room
    was opened against the AI, which takes the other seat at once (nobody is
    invited to join it).
    """

    def __init__(
        self, terminal: Terminal, code: str, *, lobby_after: bool = True, ai_coming: bool = False
    ) -> None:
        self.terminal = terminal
        self.code = code
        self.lobby_after = lobby_after
        self.ai_coming = ai_coming
        self.ended_by_session = False
        """True if the session ended (the server stayed away) while in the room."""
        self._dirty = True
        self._announce_result = False
        self._described: RoomState | None = None
        self._held: str | None = None
        """A line read but not acted on yet: a script's move waiting for its turn."""
        self._resend: tuple[str, int] | None = None
        """A move (and the ply it was for) whose request was cut by a drop."""
        self._held_for_resume: str | None = None
        """A move typed during the teacher's pause, sent at the resume."""
        self._resumed = False
        """True once a ``state`` without ``paused`` came after the move was held."""
        self._said_saving_paused = False
        """The room's saving pause was said (so its end is said too)."""
        self._rematch_shown: Player | None = None
        """The side whose rematch request was last said (so it is said once)."""
        self._exit: RoomExit | None = None
        self._last_search: Moved | None = None
        """The last AI move that came with its search, for ``why``."""
        self.next_match: Match | None = None
        """A tournament game ready in another room: the lobby joins it when this screen ends."""

    @property
    def room(self) -> TrackedRoom | None:
        return self.terminal.session.rooms.get(self.code)

    @property
    def _interactive(self) -> bool:
        return self.terminal.console.interactive

    @property
    def _away(self) -> RoomExit:
        return "lobby" if self.lobby_after else "quit"

    async def run(self) -> RoomExit:
        """Show the room and act on lines and events until the user leaves it."""
        console = self.terminal.console
        console.set_status(self._status)
        try:
            if not await self._wait_for_room():
                return self._exit or self._away
            return await self._loop()
        finally:
            console.set_status(None)

    async def _wait_for_room(self) -> bool:
        """True once the room is tracked (it is at once, except when resuming)."""
        try:
            async with asyncio.timeout(ROOM_ARRIVAL_TIMEOUT):
                while self.room is None and self._exit is None:
                    item = await self.terminal.next(self._prompt, read=False)
                    if not isinstance(item, Line):
                        self._on_event(item)
        except TimeoutError:
            self.terminal.problem(_("Room {code} did not answer.", code=self.code))
            return False
        return self.room is not None and self._exit is None

    async def _loop(self) -> RoomExit:
        terminal = self.terminal
        while self._exit is None:
            room = self.room
            if room is None and not terminal.events.empty():
                # The session has dropped the room: say why first (room_closed).
                self._on_event(terminal.events.get_nowait())
                continue
            if room is None:
                terminal.notice(_("You are no longer in room {code}.", code=self.code))
                return "lobby" if self.next_match is not None else self._away
            if self.next_match is not None and not (room.you is not None and room.playing):
                await self._leave_for_match()
                return "lobby"
            if self._dirty and terminal.events.empty():
                self._draw(room)
            if self._resumed and terminal.events.empty():
                await self._play_held_move(room)
                continue
            # Events first: a line is judged against the state they make, once it is drawn.
            if self._held is not None and terminal.events.empty() and self._ready(room, self._held):
                line, self._held = self._held, None
                await self._on_line(room, line)
                continue
            if (
                terminal.input_ended
                and self._held is None
                and terminal.events.empty()  # every event shown, the result included
                and not self._under_way(room)
            ):
                return "quit"
            item = await terminal.next(self._prompt, read=self._held is None)
            if isinstance(item, Line):
                if item.text is None and self._interactive:
                    return "quit"  # Ctrl-D at a terminal: the person means it now
                self._held = item.text
            else:
                self._on_event(item)
        return self._exit

    # -- what the screen shows -------------------------------------------------------

    def _prompt(self) -> str:
        room = self.room
        if room is None:
            return "> "
        if room.you is None:
            return _("watching> ")
        symbol = room.you.symbol
        if room.state.paused and room.playing:
            return _("{symbol}, paused> ", symbol=symbol)
        return _("{symbol}, your move> ", symbol=symbol) if room.my_turn else f"{symbol}> "

    def _status(self) -> str:
        room = self.room
        return status_line(room, held=self._held_for_resume) if room is not None else ""

    def _draw(self, room: TrackedRoom) -> None:
        self._dirty = False
        palette = self.terminal.palette
        if room.state.status != "waiting":  # an empty board says nothing while nobody plays
            self.terminal.show(
                render_board(
                    room.game, room.position, palette=palette, winning_line=room.winning_cells
                )
            )
        if self._announce_result and room.state.result is not None:
            self._announce_result = False
            server = None if self.terminal.local else self.terminal.session.url
            self.terminal.show(palette.bold(result_line(room, server_url=server)))
        # After the result, the status line offers what comes next (rematch or leave).
        self.terminal.show(status_line(room, held=self._held_for_resume))

    def _describe_state(self, state: RoomState) -> None:
        """Say what a new ``state`` changed: the room opened, someone sat or left, a
        game started."""
        before = self._described
        self._described = state
        show = self.terminal.show
        code, title = state.code, game_title(state.title)
        if before is None:
            if state.you is None:
                show(_("You are watching room {code} ({title}).", code=code, title=title))
                if state.delayed:  # a tournament game, shown late to its spectators
                    show(
                        ngettext(
                            "You see this game {n} move behind while it is played; "
                            "the moves held back come when it ends.",
                            "You see this game {n} moves behind while it is played; "
                            "the moves held back come when it ends.",
                            state.delayed,
                        )
                    )
                elif state.delayed_seconds:  # the same, by seconds
                    show(
                        _(
                            "You see this game {seconds} s behind while it is played; "
                            "the moves held back come when it ends.",
                            seconds=format(state.delayed_seconds, "g"),
                        )
                    )
            elif state.status == "waiting" and state.tournament:
                show(
                    _(
                        "Room {code} is open ({title}): it is a tournament game, "
                        "and the server seats your opponent here.",
                        code=code,
                        title=title,
                    )
                )
            elif state.status == "waiting" and self.ai_coming:
                # The AI sits down next.
                show(_("Room {code} is open ({title}).", code=code, title=title))
            elif state.status == "waiting" and self.terminal.local:
                show(
                    _(
                        "Room {code} is open ({title}). Nobody else can reach this "
                        "local server: ai LEVEL seats the AI.",
                        code=code,
                        title=title,
                    )
                )
            elif state.status == "waiting":
                show(
                    _(
                        "Room {code} is open ({title}): waiting for an opponent.",
                        code=code,
                        title=title,
                    )
                )
                if state.join_code is not None:
                    show(
                        _(
                            "It is private: give your opponent the join code {join_code} "
                            "(spectators: watch code {watch_code}).",
                            join_code=state.join_code,
                            watch_code=state.watch_code,
                        )
                    )
                else:
                    show(_("Others can join it with: {command}", command="join " + code))
        else:
            for seat, old in zip(state.seats, before.seats, strict=False):
                symbol = seat.side.symbol
                if seat.name is not None and seat.name != old.name:
                    show(
                        _(
                            "{player} sits down as {symbol}.",
                            player=player_label(seat.name),
                            symbol=symbol,
                        )
                    )
                elif seat.name is None and old.name is not None:
                    show(
                        _(
                            "{player} left seat {symbol}.",
                            player=player_label(old.name),
                            symbol=symbol,
                        )
                    )
        if state.paused and (before is None or not before.paused):
            show(
                _("The teacher paused the games: moves wait until they resume.")
                if before is not None
                else _("The games are paused by the teacher: moves wait until they resume.")
            )
        elif before is not None and before.paused and not state.paused:
            show(_("The teacher resumed the games."))
        live = self.room
        if state.saving_paused and not self._said_saving_paused:
            # Said only if it still holds: a player whose own move waited on the
            # store (and was told so by the session) reads this state after it.
            if live is not None and live.state.saving_paused:
                self._said_saving_paused = True
                show(
                    _(
                        "Saving is paused: the server cannot save this game for now. "
                        "The clocks are stopped; moves are sent again by themselves."
                    )
                )
        elif self._said_saving_paused and not state.saving_paused:
            self._said_saving_paused = False
            show(_("Saving works again: the game goes on, the clocks run on."))
        new_game = before is None or (
            before.status != "playing" or before.game_number != state.game_number
        )
        if state.status == "playing" and new_game:
            names = _(" vs ").join(
                f"{seat.side.symbol} {player_label(seat.name) if seat.name else _('(empty)')}"
                for seat in state.seats
            )
            number = state.game_number
            # A first state with moves in it is a game joined (or resumed) under way.
            if state.ply == 0:
                text = _("Game {number} starts: {names}.", number=number, names=names)
            else:
                text = ngettext(
                    "Game {number} goes on after {n} move: {names}.",
                    "Game {number} goes on after {n} moves: {names}.",
                    state.ply,
                    number=number,
                    names=names,
                )
            if state.you == Player.FIRST:
                text += _(" You play {symbol} and move first.", symbol=state.you.symbol)
            elif state.you is not None:
                text += _(" You play {symbol}.", symbol=state.you.symbol)
            show(self.terminal.palette.bold(text))

    # -- events ----------------------------------------------------------------------

    async def _leave_for_match(self) -> None:
        """Leave this room (nothing is under way in it) for the tournament's next game."""
        with contextlib.suppress(ConnectionLostError):  # else the server lets it go in time
            await self.terminal.request(Leave(room=self.code))

    def _on_event(self, event: SessionEvent) -> None:
        terminal = self.terminal
        if isinstance(event, Disconnected | Reconnected | SessionEnded):
            terminal.show_connection_event(event)
            if isinstance(event, SessionEnded):
                self.ended_by_session = True
                self._exit = "quit"
            elif isinstance(event, Reconnected):
                if self.code in event.lost_rooms:
                    terminal.notice(
                        _(
                            "Your seat in room {code} was not kept (the server's grace "
                            "window ran out).",
                            code=self.code,
                        )
                    )
                self._dirty = True
            return
        if isinstance(event, Announcement):
            room = self.room
            if room is not None and self._announce_result:
                # The game's end first: what is announced right after it is often
                # about it (a tournament's end), and reads wrong above the result.
                self._draw(room)
            terminal.notice(_("Announcement: {text}", text=announcement_text(event)))
            return
        if isinstance(event, Match):
            if event.room != self.code:
                self.next_match = event
                room = self.room
                if room is not None and room.you is not None and room.playing:
                    terminal.notice(
                        _(
                            "Your next tournament game is ready in room {code}: "
                            "it is joined when this game is over.",
                            code=event.room,
                        )
                    )
            return
        if isinstance(event, RoomClosed) and event.room == self.code:
            terminal.notice(
                _("Room {code} was closed: {reason}.", code=self.code, reason=closed_text(event))
            )
            return
        code = event.room.code if isinstance(event, State) else getattr(event, "room", None)
        room = self.room
        if code != self.code or room is None:
            return
        if isinstance(event, State):
            self._describe_state(event.room)
            self._dirty = True
            # The held move goes with the next state without `paused` (the resume),
            # never on the copy alone: a move refused as `paused` is not retried at once.
            self._resumed = self._held_for_resume is not None and not event.room.paused
            # A request made before we came (or while we were away) is said too.
            finished = event.room.status == "finished"
            self._show_rematch_offer(room, event.room.rematch_offer if finished else None)
        elif isinstance(event, Moved):
            terminal.show(played_text(room, event.side, event.move))
            if event.search is not None:
                self._last_search = event
            self._dirty = True
        elif isinstance(event, GameOver):
            self._announce_result = True
            self._dirty = True
            self._held_for_resume = None  # the game it was for is over
        elif isinstance(event, PlayerStatus):
            self._on_player_status(room, event)
        elif isinstance(event, DrawOffered):
            if event.side == room.you:
                terminal.show(_("You offered a draw."))
            elif room.you is not None:
                terminal.show(
                    _(
                        "{player} offers a draw: type accept or decline.",
                        player=who(room, event.side),
                    )
                )
            else:
                terminal.show(_("{player} offers a draw.", player=who(room, event.side)))
        elif isinstance(event, DrawDeclined):
            if event.side == room.you:
                terminal.show(_("Your draw offer was declined."))
            else:
                terminal.show(_("The draw offer of {player} is off.", player=who(room, event.side)))
        elif isinstance(event, RematchOffered):
            self._show_rematch_offer(room, event.side)
        elif isinstance(event, ChatLine):
            terminal.show(f"[chat] {event.name}: {event.text}")
        elif isinstance(event, Left):
            self._exit = self._away

    def _show_rematch_offer(self, room: TrackedRoom, side: Player | None) -> None:
        """Say who asked for a rematch, once per request."""
        if side is not None and side != self._rematch_shown and not room.state.tournament:
            self.terminal.show(rematch_text(room, side))
        self._rematch_shown = side

    def _on_player_status(self, room: TrackedRoom, event: PlayerStatus) -> None:
        player = who(room, event.side)
        if event.connected:
            self.terminal.show(_("{player} is back.", player=player))
        elif event.autopilot is not None:
            self.terminal.show(
                _(
                    "The AI plays for {player} ({level}) until they come back.",
                    player=player,
                    level=level_word(event.autopilot),
                )
            )
        elif event.gone_until is not None:
            held = max(0, round(event.gone_until - time.time()))
            self.terminal.show(
                _(
                    "{player} lost the connection: the seat is held for {seconds}s.",
                    player=player,
                    seconds=held,
                )
            )
        else:
            self.terminal.show(_("{player} is away.", player=player))

    # -- lines -----------------------------------------------------------------------

    def _ready(self, room: TrackedRoom, line: str) -> bool:
        """Whether to act on ``line`` now, or hold it (see the module docstring)."""
        if self._interactive:
            return True
        if not self.terminal.session.connected:
            return False
        typed = split_line(line)
        if typed is None or typed.word in ROOM_COMMANDS or room.you is None:
            return True
        if self._held_for_resume is not None:
            return False  # the next move waits for the held one to be played
        return room.state.status == "finished" or room.my_turn

    def _under_way(self, room: TrackedRoom) -> bool:
        """True while something is still to come from others: a game or an opponent."""
        if not self.terminal.session.connected or self._held_for_resume is not None:
            return True
        status = room.state.status
        return status == "waiting" or (status == "playing" and not room.my_turn)

    async def _on_line(self, room: TrackedRoom, line: str) -> None:
        self.terminal.echo(self._prompt(), line)
        typed = split_line(line)
        if typed is None:
            return
        command = ROOM_COMMANDS.get(typed.word)
        try:
            if command is None:
                await self._play(room, typed.line)
            else:
                await self._command(room, command, typed.rest)
        except InputError as error:
            self.terminal.problem(str(error))

    async def _play(self, room: TrackedRoom, text: str) -> None:
        problem = self.terminal.problem
        if self._resend is not None:
            move, ply = self._resend
            self._resend = None
            if _went_through(room, move, ply):
                return  # it reached the server before the drop
        illegal = _illegal(room, text)
        if illegal is not None and illegal.reason is IllegalMoveReason.NOT_A_MOVE:
            example = spec_for(room.game).moves_help
            problem(
                _(
                    "{text!r} is neither a command nor a move: a move is {example}; "
                    "type help for the commands.",
                    text=text,
                    example=_(example),
                )
            )
            return
        # Any other refusal (a taken cell, a full column) is the server's to explain,
        # except in a pause, when the move is not sent.
        if room.you is None:
            problem(_("You are watching: only the players can move."))
            return
        if room.state.status == "waiting":
            problem(
                _("The game has not started: the server seats your opponent here.")
                if room.state.tournament
                else _("The game has not started: waiting for an opponent (ai LEVEL seats the AI).")
            )
            return
        if room.state.status == "finished":
            problem(
                _("The game is over: a tournament game has no rematch.")
                if room.state.tournament
                else _("The game is over: type rematch for another one, or leave.")
            )
            return
        if not room.my_turn:
            problem(
                _(
                    "Not your turn: {player} is to move.",
                    player=who(room, room.state.to_move or Player.FIRST),
                )
            )
            return
        if room.state.paused:
            if illegal is not None:
                problem(f"{illegal_move_text(illegal)}.")
            else:
                self._hold_for_resume(text)
            return
        ply = room.state.ply
        try:
            await self.terminal.request(
                MakeMove(room=self.code, move=text, ply=ply),
                raising={"paused", "illegal_move", "stale_move"},
            )
        except RequestRefusedError as refusal:
            if refusal.code == "illegal_move":
                problem(move_refusal_text(refusal, illegal))
            elif refusal.code == "stale_move":
                now = self.room
                if now is None or not _went_through(now, text, ply):
                    problem(refusal_text(refusal))
                # Else this very move was made: its reply was lost on the way and the
                # move sent again (a cluster's resync after Redis came back), which
                # the server refuses as stale. The state that came first shows it.
            else:  # the pause came while the move was on its way
                self._hold_for_resume(text)
        except ConnectionLostError:
            if self._interactive:
                problem(_("Not connected (reconnecting): type your move again once reconnected."))
            else:
                # Sent again after the reconnection, unless it turns out to have gone through.
                self._held = text
                self._resend = (text, ply)

    def _hold_for_resume(self, move: str) -> None:
        self._held_for_resume = move.strip().lower()
        self._resumed = False
        self.terminal.show(
            _(
                "Your move {move} is held: sent when the teacher resumes.",
                move=self._held_for_resume,
            )
        )
        self._dirty = True  # the status line shows it

    async def _play_held_move(self, room: TrackedRoom) -> None:
        """The games resumed: play the move held through the pause, if it still fits."""
        move, self._held_for_resume = self._held_for_resume, None
        self._resumed = False
        if move is None:
            return
        illegal = _illegal(room, move)
        if room.my_turn and illegal is None:
            await self._play(room, move)
        else:
            why = (
                illegal_move_text(illegal)
                if illegal is not None
                else _("it is no longer your turn")
            )
            self.terminal.problem(
                _("Your held move {move} is not played: {why}.", move=move, why=why)
            )

    async def _command(self, room: TrackedRoom, command: str, rest: str) -> None:
        terminal = self.terminal
        request = terminal.request_or_say_why
        seated_in_game = room.you is not None and room.playing
        if command in PLAYER_COMMANDS and room.you is None:
            terminal.problem(
                _(
                    "{command} is for the players: you are watching (help lists what you can do).",
                    command=command,
                )
            )
        elif command == "help":
            terminal.show(room_help() if room.you is not None else spectator_help())
        elif command == "board":
            self._dirty = True
        elif command == "why":
            terminal.show(search_text(room, self._last_search))
        elif command == "hint":
            # The server says why there is none (not your move, hints off, a busy engine).
            reply = await request(AskHint(room=self.code))
            if isinstance(reply, Hint):
                terminal.show(hint_text(reply))
        elif command == "resign":
            if seated_in_game and not await terminal.confirm(_("Resign this game?")):
                return
            await request(Resign(room=self.code))
        elif command == "draw":
            # Offering while the opponent's offer stands accepts it, so one word does both.
            await request(OfferDraw(room=self.code))
        elif command == "accept":
            await request(AcceptDraw(room=self.code))
        elif command == "decline":
            await request(DeclineDraw(room=self.code))
        elif command == "rematch":
            # Asking is answered with rematch_offered (said as an event), accepting
            # with the next game's state.
            await request(Rematch(room=self.code))
        elif command == "chat":
            text = rest.strip()
            if not text:
                raise InputError(_("chat needs something to say: chat TEXT"))
            if len(text) > MAX_CHAT_LENGTH:
                raise InputError(
                    _(
                        "That is {count} characters: chat takes at most {most}.",
                        count=len(text),
                        most=MAX_CHAT_LENGTH,
                    )
                )
            await request(SendChat(room=self.code, text=text))
        elif command == "ai":
            level = parse_level(rest) if rest.strip() else DEFAULT_AI_LEVEL
            await request(AddAi(room=self.code, level=level))
        elif command == "leave":
            if seated_in_game and not await terminal.confirm(
                _("Leaving resigns the game in progress. Leave?")
            ):
                return
            if isinstance(await request(Leave(room=self.code)), Left):
                terminal.show(_("You left room {code}.", code=self.code))
                self._exit = self._away
        elif command == "quit":
            if (
                seated_in_game
                and self._interactive
                and not await terminal.confirm(
                    _("Quit now? Nothing is resigned, but the game goes on without you. Quit?")
                )
            ):
                return
            self._exit = "quit"


def _illegal(room: TrackedRoom, move: str) -> IllegalMoveError | None:
    """Why the rules refuse ``move`` in the room's position, or None if they take it."""
    try:
        room.game.parse_move(room.position, move)
    except IllegalMoveError as error:
        return error
    return None


def _went_through(room: TrackedRoom, move: str, ply: int) -> bool:
    """True if the room's moves show ``move`` played at ``ply``."""
    moves = room.position.moves
    if len(moves) <= ply:
        return False
    return room.game.format_move(moves[ply]) == move.strip().lower()
