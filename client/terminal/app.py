"""The terminal client from start to end: a name, a connection, then the lobby (or
a room straight away), and a clean exit.

:func:`run_client` is what ``boardroom play`` and ``boardroom watch`` run. Exit
status: 0 after a normal quit, 1 when no server could be reached or the
connection was lost for good (or the server revoked the player's token), 2 for
a bad name given on the command line.

The player is kept per server in the profile (:mod:`boardroom.client.terminal.profile`):
the token the server minted on the first run is presented on every later one,
so a client killed and started again is the same player. A token the server
does not know is dropped with a notice, and the run goes on as a new player.
The seat of a game left under way is the player's as well: the next run takes
it back whatever name it is given (the game goes on under the name it began
with, and the client says so).

A server that makes only so many new players an address at a time (a class
joining at once behind one school address) answers a new player's ``hello``
with ``rate_limited``: the client says so ("The server is busy: trying again in
10 s.") and tries again by itself, waiting a little longer each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import signal
from dataclasses import dataclass
from pathlib import Path

from boardroom.client.errors import ClientError, RequestRefusedError, ServerUnreachableError
from boardroom.client.local_server import LocalServerError, local_server
from boardroom.client.refusals import REFUSALS, refusal_text
from boardroom.client.session import Session, normalize_server_url
from boardroom.client.terminal.commands import lobby_help
from boardroom.client.terminal.console import Console
from boardroom.client.terminal.lobby import Lobby
from boardroom.client.terminal.profile import Profile, SavedSeat, SeatClaim
from boardroom.client.terminal.seat_keeper import SeatKeeper
from boardroom.client.terminal.terminal import Terminal
from boardroom.shared.i18n import N_, SOURCE_LANGUAGE, _, current_language
from boardroom.shared.protocol import ErrorCode, ProtocolError, check_player_name
from boardroom.shared.protocol.messages import CreateRoom, State, Watch, Welcome

NAME_PROMPT = N_("Your name: ")
DEFAULT_WATCH_NAME = "spectator"
"""The name a spectator goes by when none is remembered (watching asks nothing)."""


@dataclass(frozen=True)
class ClientOptions:
    """What the command line asked for."""

    server: str
    profile_path: Path
    name: str | None = None
    local: bool = False
    start_room: CreateRoom | None = None
    """A room to open at once (``--local``, ``--game``, ``--level``), instead of the lobby."""
    watch_code: str | None = None
    """``boardroom watch CODE``: spectate this room, then exit."""
    reconnect_for: float = 120.0


async def run_client(options: ClientOptions, console: Console) -> int:
    """Run the client on ``console`` until the user quits; the exit status.

    SIGTERM and SIGHUP end it as cleanly as ``quit`` (a local server is stopped too).
    """
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    handled = []
    if task is not None:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, task.cancel)
                handled.append(signum)
    try:
        return await _run(options, console)
    except asyncio.CancelledError:
        console.show(_("Stopped."))
        return 1
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)


async def _run(options: ClientOptions, console: Console) -> int:
    profile = Profile(options.profile_path)
    name = await choose_name(options, profile, console)
    if name is None:
        return 2 if options.name is not None else 0
    async with contextlib.AsyncExitStack() as stack:
        url = options.server
        if options.local:
            console.show(_("Starting a local server (it stops when you quit)..."))
            try:
                url = await stack.enter_async_context(local_server())
            except LocalServerError as error:
                console.show(
                    console.palette.problem(_("Cannot play locally: {error}", error=error))
                )
                return 1
        seat = _SeatHold.claim_for(profile, url, options)
        if seat.claim is not None:
            stack.callback(seat.claim.release)  # last: after the session has closed
        session = _session(url, name, seat.saved, options, profile)
        session.on_busy = lambda seconds: console.show(console.palette.notice(busy_text(seconds)))
        session.on_saving_paused = lambda seconds: console.show(
            console.palette.notice(saving_paused_text(seconds))
        )
        try:
            welcome, unknown_player = await _start(session, profile, options)
        except ServerUnreachableError as error:
            console.show(console.palette.problem(_unreachable_text(error, options)))
            return 1
        except ClientError as error:  # refused (a name the server will not take) or no reply
            console.show(console.palette.problem(_refused_text(error)))
            return 1
        stack.push_async_callback(session.close)
        terminal = Terminal(console, session, local=options.local)
        stack.push_async_callback(terminal.close)
        if welcome.name != name and welcome.resumed_rooms:
            # A resumed session keeps the name it was opened with (the game's record too).
            terminal.notice(
                _(
                    "You are the same player as in room {code}: your game there goes on "
                    "as {name}, the name it began with.",
                    code=welcome.resumed_rooms[0],
                    name=welcome.name,
                )
            )
        elif welcome.name != name:
            terminal.notice(
                _(
                    "Another player is online here as {name}: the server shows you as "
                    "{shown} (names are told apart while both are connected).",
                    name=name,
                    shown=welcome.name,
                )
            )
        if unknown_player:
            terminal.notice(
                _(
                    "The server does not know the player this client kept for it (its "
                    "database is new, or another server answers at this address): you "
                    "play as a new player."
                )
            )
        if seat.shared:
            terminal.notice(
                _(
                    "Another boardroom play from this profile is running on this server: "
                    "this one has a session of its own."
                )
            )
        keeper = SeatKeeper(session, profile) if seat.claim is not None else None
        if keeper is not None:
            keeper.start()
        try:
            status = await _play(terminal, Lobby(terminal), options, welcome, seat.saved)
        finally:  # after a quit, and after SIGTERM or SIGHUP too (a closed terminal)
            if keeper is not None:
                keeper.stop()
                _remember_seat(terminal, keeper)
        console.show(_("Bye."))
        return status
    return 0  # not reached: the exit stack does not swallow exceptions


@dataclass(frozen=True)
class _SeatHold:
    """The seat this run may take back and keep (see :mod:`boardroom.client.terminal.profile`)."""

    claim: SeatClaim | None = None
    """This process's hold on the saved seat; None when it keeps none."""
    saved: SavedSeat | None = None
    """The seat saved by an earlier run (under any name: it is the player's), to take back."""
    shared: bool = False
    """True if another running client holds the player's seat on this server."""

    @classmethod
    def claim_for(cls, profile: Profile, url: str, options: ClientOptions) -> _SeatHold:
        # A local server dies with the client: nothing to take back. A watcher
        # takes no seat, and leaves the one saved for the next `boardroom play`.
        if options.local or options.watch_code is not None:
            return cls()
        server = normalize_server_url(url)  # as the session spells it (see SeatKeeper)
        claim = profile.claim_seat(server)
        if claim is None:
            return cls(shared=True)
        return cls(claim, profile.saved_seat(server))


async def choose_name(options: ClientOptions, profile: Profile, console: Console) -> str | None:
    """The player's name: ``--name`` (remembered), the remembered one, or asked for
    (and remembered). None if a name given is refused or the input ends first."""
    if options.name is not None:
        try:
            name = check_player_name(options.name)
        except ProtocolError as error:
            console.show(console.palette.problem(f"--name: {_name_problem(error)}"))
            return None
        if options.watch_code is None:
            profile.remember_name(name)
        return name
    remembered = profile.name
    if remembered is not None:
        return remembered
    if options.watch_code is not None:
        return DEFAULT_WATCH_NAME
    while True:
        prompt = _(NAME_PROMPT)
        answer = await console.read_line(prompt)
        if answer is None:
            return None
        console.echo(prompt, answer)
        try:
            name = check_player_name(answer)
        except ProtocolError as error:
            console.show(console.palette.problem(_capitalized_sentence(_name_problem(error))))
            continue
        profile.remember_name(name)
        return name


def _name_problem(error: ProtocolError) -> str:
    """Why a name is refused, in the reader's language (the rules' English message
    in English: it says what is wrong with the name)."""
    return refusal_text(RequestRefusedError(error.code, error.message))


def _capitalized_sentence(text: str) -> str:
    """``text`` with a capital and one final stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else f"{text}."


def saving_paused_text(seconds: float) -> str:
    """What the client says while the server cannot save games (its database is
    down) and the last move (or hello) is sent again in ``seconds``.

    >>> saving_paused_text(1.6)
    'Saving is paused on the server: trying again in 2 s.'
    """
    seconds_shown = math.ceil(seconds)
    return _("Saving is paused on the server: trying again in {seconds} s.", seconds=seconds_shown)


def busy_text(seconds: float) -> str:
    """What the client says while a busy server makes it wait ``seconds`` before
    saying hello again.

    >>> busy_text(10.4)
    'The server is busy: trying again in 11 s.'
    """
    return _("The server is busy: trying again in {seconds} s.", seconds=math.ceil(seconds))


def _session(
    url: str, name: str, saved: SavedSeat | None, options: ClientOptions, profile: Profile
) -> Session:
    """The session to start: as the player the profile keeps for this server (none
    for a ``--local`` server, which forgets everyone when it stops), taking back
    the ``saved`` seat when there is one."""
    return Session(
        url,
        name,
        # A watcher says so: no seat, and in class mode no place on the roster.
        client_kind="spectator" if options.watch_code is not None else "human",
        reconnect_for=options.reconnect_for,
        resume_token=saved.token if saved is not None else None,
        player_token=None if options.local else profile.player_token(normalize_server_url(url)),
        # People ask "why did the AI play that?": the room's `why` shows the answer.
        search_info=True,
    )


async def _start(
    session: Session, profile: Profile, options: ClientOptions
) -> tuple[Welcome, bool]:
    """Start ``session``; its welcome, and whether the server did not know the
    player kept for it (the session then started as a new player). A player the
    server minted is kept in the profile for the next run. A revoked player's
    token is forgotten (the next run is a new player) and the refusal raised."""
    unknown = False
    try:
        welcome = await session.start()
    except RequestRefusedError as refusal:
        if refusal.code not in (ErrorCode.BAD_PLAYER_TOKEN, ErrorCode.PLAYER_TOKEN_REVOKED):
            raise
        profile.forget_player_token(session.url)
        if refusal.code == ErrorCode.PLAYER_TOKEN_REVOKED:
            raise
        # A new player, who can resume no session of the unknown one.
        session.player_token = session.resume_token = None
        unknown = True
        welcome = await session.start()
    if session.new_player and session.player_token is not None and not options.local:
        profile.remember_player_token(session.url, session.player_token)
    return welcome, unknown


async def _play(
    terminal: Terminal,
    lobby: Lobby,
    options: ClientOptions,
    welcome: Welcome,
    saved: SavedSeat | None,
) -> int:
    """The first screen, then the lobby; the exit status."""
    session = terminal.session
    terminal.show(_("Welcome, {name}! Connected to {url}.", name=session.name, url=session.url))
    resumed = welcome.resumed_rooms
    if saved is not None and saved.room is not None and saved.room not in resumed:
        terminal.notice(
            _(
                "Your seat in room {code} was not kept (the server's grace window ran out).",
                code=saved.room,
            )
        )
    if resumed:
        terminal.notice(_("Welcome back: your game in room {code} goes on.", code=resumed[0]))
        if not await lobby.enter_room(resumed[0]):
            return lobby.exit_status
    elif options.watch_code is not None:
        reply = await terminal.request_or_say_why(Watch(code=options.watch_code))
        if not isinstance(reply, State):
            return 1  # nothing to watch: the refusal has been shown
        await lobby.enter_room(reply.room.code, lobby_after=False)
        return lobby.exit_status
    elif options.start_room is not None:
        if not await lobby.open_room(options.start_room):
            return lobby.exit_status
    else:
        terminal.show(lobby_help())
    await lobby.run()
    return lobby.exit_status


def _remember_seat(terminal: Terminal, keeper: SeatKeeper) -> None:
    """Keep the seat if the user leaves in the middle of a game, and say so;
    forget it otherwise (nothing is under way to come back to)."""
    session = terminal.session
    playing = [room for room in session.rooms.values() if room.you is not None and room.playing]
    if not playing or session.resume_token is None:
        keeper.keep(None)
        return
    keeper.keep(SavedSeat(session.resume_token, playing[0].code))
    terminal.notice(
        _(
            "Your seat in room {code} is held for a while: run boardroom play again to carry on.",
            code=playing[0].code,
        )
    )


def _refused_text(error: ClientError) -> str:
    if isinstance(error, RequestRefusedError) and error.code == ErrorCode.PLAYER_TOKEN_REVOKED:
        return _(
            "The server refused this player: {message}. The token is forgotten: "
            "boardroom play run again starts as a new player.",
            message=_(REFUSALS["player_token_revoked"])
            if current_language() != SOURCE_LANGUAGE
            else error.message,
        )
    if isinstance(error, RequestRefusedError):
        return _("The server refused us: {why}", why=refusal_text(error))
    return _("The server refused us: {why}", why=error)


def _unreachable_text(error: ServerUnreachableError, options: ClientOptions) -> str:
    text = str(error)
    if options.local or options.watch_code is not None:
        return text
    return (
        text
        + "\n"
        + _(
            "Start a server with: {serve}    (or play the AI offline: {local})",
            serve="boardroom serve",
            local="boardroom play --local",
        )
    )
