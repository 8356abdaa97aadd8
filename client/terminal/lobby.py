"""The lobby: list rooms, open one, join or watch by code, quick match.

Each command that gets the user into a room hands over to a
:class:`~boardroom.client.terminal.room_screen.RoomScreen`, and the lobby takes over again
when the user leaves the room.

In a class tournament the server sends ``match`` when a round opens a room for
the player: the lobby says so and joins that room by itself; a room screen
does the same once the player is not in a game in progress there.
"""

from __future__ import annotations

from boardroom.client.announcements import announcement_text
from boardroom.client.room_options import DEFAULT_GAME, InputError, parse_game
from boardroom.client.session import Disconnected, Reconnected, SessionEnded
from boardroom.client.terminal.commands import (
    CANCEL_WORDS,
    LOBBY_COMMANDS,
    NEW_ROOM_QUESTIONS,
    Question,
    lobby_help,
    parse_code,
    parse_new_room,
    split_line,
)
from boardroom.client.terminal.room_screen import RoomScreen
from boardroom.client.terminal.room_text import game_title, match_text, player_label
from boardroom.client.terminal.terminal import Line, Terminal
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import (
    Announcement,
    ClientMessage,
    CreateRoom,
    Join,
    ListRooms,
    Match,
    QuickMatch,
    RoomList,
    RoomSummary,
    State,
    Watch,
)

LOBBY_PROMPT = N_("lobby> ")

ROOM_STATUSES = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}
"""A room's status (a code on the wire) as the room list says it."""


class Lobby:
    """The lobby loop; :meth:`run` returns when the user quits or the session ends."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.ended_by_session = False
        """True if the session ended for good (the server stayed away)."""

    @property
    def exit_status(self) -> int:
        """1 if the connection was lost for good, else 0."""
        return 1 if self.ended_by_session else 0

    async def run(self) -> None:
        terminal = self.terminal
        terminal.console.set_status(self._status)
        try:
            while True:
                item = await terminal.next(_(LOBBY_PROMPT))
                if isinstance(item, Line):
                    if item.text is None or not await self._on_line(item.text):
                        return
                elif isinstance(item, Disconnected | Reconnected | SessionEnded):
                    terminal.show_connection_event(item)
                    if isinstance(item, SessionEnded):
                        self.ended_by_session = True
                        return
                elif isinstance(item, Announcement):
                    terminal.notice(_("Announcement: {text}", text=announcement_text(item)))
                elif isinstance(item, Match) and not await self.follow_match(item):
                    return
                # Other events are about rooms left behind: nothing to show.
        finally:
            terminal.console.set_status(None)

    def _status(self) -> str:
        session = self.terminal.session
        state = _("connected") if session.connected else _("reconnecting...")
        return _(
            "Boardroom lobby | {name} at {url} | {state} | help lists commands",
            name=session.name,
            url=session.url,
            state=state,
        )

    async def enter_room(
        self, code: str, *, lobby_after: bool = True, ai_coming: bool = False
    ) -> bool:
        """Show room ``code`` until the user leaves it; False if they quit from there
        (``ai_coming``: opened against the AI). A tournament's ``match`` that came
        meanwhile is followed into its room."""
        screen = RoomScreen(self.terminal, code, lobby_after=lobby_after, ai_coming=ai_coming)
        where = await screen.run()
        if screen.ended_by_session:
            self.ended_by_session = True
        if where == "quit":
            return False
        if screen.next_match is not None:
            return await self.follow_match(screen.next_match)
        self.terminal.show(_("Back in the lobby (help lists the commands)."))
        return True

    async def follow_match(self, match: Match) -> bool:
        """Say that a tournament game is ready, and join its room; False if the
        user quit from there."""
        if match.room in self.terminal.session.rooms:
            return True  # sent again after a reconnection: we are there already
        self.terminal.show(self.terminal.palette.bold(match_text(match)))
        return await self.open_room(Join(code=match.code))

    async def open_room(self, message: ClientMessage) -> bool:
        """Send a request that seats or seats-to-watch the user (create, join, watch,
        quick match) and enter the room it answers with; False if the user quit."""
        reply = await self.terminal.request_or_say_why(message)
        if not isinstance(reply, State):
            return True
        ai_coming = isinstance(message, CreateRoom) and message.ai_level is not None
        return await self.enter_room(reply.room.code, ai_coming=ai_coming)

    async def _on_line(self, line: str) -> bool:
        """Act on one lobby line; False to quit."""
        self.terminal.echo(_(LOBBY_PROMPT), line)
        typed = split_line(line)
        if typed is None:
            return True
        command = LOBBY_COMMANDS.get(typed.word)
        try:
            if command == "quit":
                return False
            if command == "help":
                self.terminal.show(lobby_help())
            elif command == "rooms":
                await self._list_rooms(typed.rest)
            elif command == "new":
                create = parse_new_room(typed.rest) if typed.rest else await self._ask_new_room()
                if create is not None:
                    return await self.open_room(create)
            elif command == "join":
                return await self.open_room(Join(code=parse_code(typed.rest, "join")))
            elif command == "watch":
                return await self.open_room(Watch(code=parse_code(typed.rest, "watch")))
            elif command == "quick":
                game = parse_game(typed.rest or DEFAULT_GAME)
                self.terminal.show(
                    _("Looking for an opponent for {title}...", title=game_title(game.title))
                )
                return await self.open_room(QuickMatch(game=game.name))
            else:
                self.terminal.problem(
                    _(
                        "{word!r} is not a lobby command: type help for the list "
                        "(moves are played once you are in a room).",
                        word=typed.word,
                    )
                )
        except InputError as error:
            self.terminal.problem(str(error))
        return True

    async def _ask_new_room(self) -> CreateRoom | None:
        """The guided ``new``: one question per option, Enter for the default; None
        if the user cancels (or the input ends)."""
        self.terminal.show(_("A new room: Enter takes the answer in brackets, cancel goes back."))
        options = []
        for question in NEW_ROOM_QUESTIONS:
            option = await self._answer(question)
            if option is None:
                return None
            options.append(option)
        return parse_new_room(" ".join(options))

    async def _answer(self, question: Question) -> str | None:
        """The option of the guided ``new`` that the answer to ``question`` gives
        (asked again until it fits), or that of the question it leads to (the AI's
        level after ``ai``); None if the user cancels (or the input ends)."""
        while True:
            answer = await self.terminal.ask(f"{question.prompt} [{question.default}]: ")
            if answer is None or answer.strip().lower() in CANCEL_WORDS:
                return None
            try:
                option = question.option(answer)
                break
            except InputError as error:
                self.terminal.problem(str(error))
        follow_up = question.then(option)
        return option if follow_up is None else await self._answer(follow_up)

    async def _list_rooms(self, game_text: str) -> None:
        game = parse_game(game_text).name if game_text.strip() else None
        reply = await self.terminal.request_or_say_why(ListRooms(game=game))
        if not isinstance(reply, RoomList):
            return
        if not reply.rooms:
            self.terminal.show(
                _("No open rooms. Type new to open one, or quick GAME to be paired with someone.")
            )
            return
        self.terminal.show(format_room_list(reply.rooms))
        if (more := more_rooms_note(len(reply.rooms), reply.total)) is not None:
            self.terminal.show(more)


def more_rooms_note(shown: int, total: int | None) -> str | None:
    """What to say under a page of the room list that is not the whole list (the
    server sends a page, and the total); None when nothing is left out.

    >>> print(more_rooms_note(50, 312))
    The first 50 of 312 public rooms. rooms GAME lists one game's; join CODE works for any.
    >>> more_rooms_note(3, 3) is None and more_rooms_note(3, None) is None
    True
    """
    if total is None or total <= shown:
        return None
    return _(
        "The first {shown} of {total} public rooms. "
        "rooms GAME lists one game's; join CODE works for any.",
        shown=shown,
        total=total,
    )


def format_room_list(rooms: list[RoomSummary]) -> str:
    """The rooms as a table: code, game, status, players, spectators.

    >>> print(format_room_list([RoomSummary(code="C9FVBQ", game="tictactoe",
    ...     title="Tic-tac-toe", status="waiting", players=["ann"], spectators=0)]))
    CODE    GAME         STATUS   PLAYERS  WATCHING
    C9FVBQ  Tic-tac-toe  waiting  ann      0
    """
    rows = [(_("CODE"), _("GAME"), _("STATUS"), _("PLAYERS"), _("WATCHING"))]
    for room in rooms:
        players = ", ".join(map(player_label, room.players)) if room.players else "-"
        status = _(ROOM_STATUSES[room.status]) if room.status in ROOM_STATUSES else room.status
        rows.append((room.code, game_title(room.title), status, players, str(room.spectators)))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
        + "  "
        + row[4]
        for row in rows
    )
