"""Every message of the wire protocol, defined once for the server and its clients.

Messages are frozen :class:`msgspec.Struct` types tagged by their ``type`` field.
Decoding (:mod:`boardroom.shared.protocol.codec`) validates them: unknown fields are
ignored, a missing or wrong-typed field is an error naming it. Every request may
carry an ``id``; the reply to it (or the error) echoes it. Optional fields left at
their default are not sent.

Client to server: :data:`CLIENT_MESSAGES`. Server to client: :data:`SERVER_MESSAGES`.
``docs/protocol.md`` is the same catalogue in prose, with an example session.

A side has one type in code, the rules' :class:`~boardroom.shared.games.Player`,
and message fields are typed with it: ``Player`` is a :class:`~enum.StrEnum`
whose values are the wire's words, and msgspec sends an enum by its value and
reads it back (an unknown word is ``Invalid enum value``, as it was for the
literal type these fields had), so the bytes are those of protocol 2 with no
converter anywhere. The other ways were worse: an ``IntEnum`` is sent as a
number by msgspec, which calls no ``enc_hook`` for it; a wire-only type would
have needed a converter wherever a message is built or read. The one exception
is :data:`SeatChoice` (a side or ``random``), which msgspec cannot type as
``Player | Literal["random"]``: :func:`chosen_seat` and :func:`seat_choice`
convert it.
"""

from __future__ import annotations

import enum
from typing import Annotated, Final, Literal

import msgspec

from boardroom.shared.games.base import Player

PROTOCOL_VERSION = 2
"""The version this code speaks; ``hello`` states the client's. Version 2 added
durable players: ``hello.player_token`` and ``welcome``'s ``player_id``,
``new_player`` and ``player_token``."""

SUPPORTED_VERSIONS: Final[tuple[int, ...]] = (1, 2)
"""Every version a server of this code accepts in ``hello``; its ``welcome``
answers in the client's version. A version-1 client reads a version-2 welcome
as it always did: it ignores the fields it does not know."""

PlayerToken = Annotated[str, msgspec.Meta(max_length=200)]
"""A player token as a client presents it (``bp_`` and 43 characters when the
server made it; anything else up to 200 characters is just unknown)."""

RequestId = int | str | None
Code = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
"""A room code, private join code or watch code."""
ShortText = Annotated[str, msgspec.Meta(max_length=64)]
ChatText = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
Seconds = Annotated[float, msgspec.Meta(gt=0, le=86_400)]
BoardKind = Literal["cells", "columns"]
"""How a board looks and how a move names a place on it: ``cells`` (a move names
a cell, ``b2``) or ``columns`` (a move names a column, ``4``, and the stone falls):
the registry's :class:`boardroom.shared.games.spec.BoardKind` values (a test holds them
together)."""
SeatChoice = Literal["first", "second", "random"]
"""The seat a room's creator asks for: a :class:`Player`'s value, or ``random``
(drawn when the first game starts). The one place the wire spells a side
outside :class:`Player`, because msgspec cannot read a union of an enum and a
literal string: :func:`chosen_seat` and :func:`seat_choice` convert."""


def chosen_seat(seat: SeatChoice) -> Player | Literal["random"]:
    """The seat ``seat`` asks for, as the code holds it.

    >>> chosen_seat("second"), chosen_seat("random")
    (<Player.SECOND: 'second'>, 'random')
    """
    return "random" if seat == "random" else Player(seat)


def seat_choice(seat: Player | Literal["random"]) -> SeatChoice:
    """The wire's spelling of the seat ``seat`` (the inverse of :func:`chosen_seat`).

    >>> seat_choice(Player.FIRST)
    'first'
    """
    if seat == "random":
        return "random"
    return "first" if seat is Player.FIRST else "second"


class Level(enum.StrEnum):
    """The AI's playing strengths, weakest first: the one type of a level, for the
    wire (sent by value: ``"medium"``), the clients and the engine
    (:mod:`boardroom.shared.engine.levels` says how each plays). A :class:`~enum.StrEnum`, so
    a level is also its name as a string (``Level.MEDIUM == "medium"``)."""

    RANDOM = "random"
    """Uniformly random legal moves."""
    EASY = "easy"
    """Two plies, varied: beatable by a player who builds a fork."""
    MEDIUM = "medium"
    """Four plies, a little varied."""
    HARD = "hard"
    """Eight plies, within a second."""
    PERFECT = "perfect"
    """Exact where solvable within the budget, else as deep as the budget allows."""


LEVELS: Final[tuple[Level, ...]] = tuple(Level)
AUTOPILOT_OFF: Final = "off"
"""``create_room``'s ``autopilot`` (and ``--autopilot``) for no autopilot."""
"""Every :data:`Level`, weakest first, for checks and for messages that list them."""


class _Message(msgspec.Struct, tag_field="type", frozen=True, kw_only=True, omit_defaults=True):
    id: RequestId = None


# -- client to server ---------------------------------------------------------------


class Hello(_Message, tag="hello", frozen=True):
    """First message of every connection. ``resume_token`` reclaims the seats of an
    earlier connection within the grace window. ``player_token`` (version 2) says
    which durable player this is: without it the server makes a new player and
    says its token once in ``welcome``. ``client`` is ``spectator`` for a
    session that only watches: it takes no seat (``watch_only``), and in class
    mode it is not a student on the roster."""

    name: str
    """Checked by the server (``bad_name``): 1 to 32 characters, no control ones."""
    version: int
    client: Literal["human", "bot", "spectator"] = "human"
    resume_token: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    player_token: PlayerToken | None = None
    """The token ``welcome`` gave this player once (``bp_...``): the same player
    across connections, restarts and rooms. Unknown: ``bad_player_token``;
    revoked: ``player_token_revoked`` and close code 4004."""
    search_info: bool = False
    """Ask for the server AI's search with its moves: each ``moved`` of an AI
    seat then carries ``search`` (:class:`SearchInfo`). Off by default, so a bot
    or an older client gets exactly the messages it always did. Said again in
    the ``hello`` of every connection (a resumed session takes the new one's)."""


ROOMS_PAGE_DEFAULT = 50
"""Rooms in one answer to ``list_rooms`` (and ``GET /api/rooms``) unless ``limit``
says otherwise: a screenful, a few kilobytes."""
ROOMS_PAGE_MAX = 100
"""The most rooms one answer may hold: well under the 64 KiB frame cap even with
the longest names (about 350 bytes a room)."""


class ListRooms(_Message, tag="list_rooms", frozen=True):
    """Ask for the public rooms, of one game or all: a page of up to ``limit`` from
    position ``offset`` (0 is the first) of the list; ``rooms.total`` says how many
    there are."""

    game: ShortText | None = None
    offset: Annotated[int, msgspec.Meta(ge=0)] = 0
    limit: Annotated[int, msgspec.Meta(ge=1, le=ROOMS_PAGE_MAX)] = ROOMS_PAGE_DEFAULT


class Clock(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A room's clock: none; a limit per move; or initial time plus an increment."""

    kind: Literal["none", "per_move", "increment"] = "none"
    per_move: Seconds | None = None
    initial: Seconds | None = None
    increment: Annotated[float, msgspec.Meta(ge=0, le=3600)] = 0.0


MAX_AI_PACE = 10.0
"""Longest pace of an AI match (seconds between moves): slow enough to explain
each move on the wall, short enough that a Connect Four game ends in minutes."""


class AiMatch(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The server AI in both seats, at ``first``'s and ``second``'s levels, each
    move shown at least ``pace`` seconds after the one before (0: as fast as the
    engine answers), for people to watch."""

    first: Level
    second: Level
    pace: Annotated[float, msgspec.Meta(ge=0, le=MAX_AI_PACE)] = 1.0


class CreateRoom(_Message, tag="create_room", frozen=True):
    """Open a room and take a seat in it.

    ``game`` is a game name (``mnk`` with ``m``, ``n``, ``k``); ``seat`` is the
    creator's (``random``: decided at the start); ``ai_level`` seats the server AI
    opposite at once. With ``ai_match`` the AI takes both seats and the creator
    watches (no ``seat``, ``ai_level`` or clock then).
    """

    game: ShortText
    m: int | None = None
    n: int | None = None
    k: int | None = None
    public: bool = True
    seat: SeatChoice = "first"
    clock: Clock = Clock()
    ai_level: Level | None = None
    ai_match: AiMatch | None = None
    autopilot: ShortText | None = None
    """The engine level that plays a seat whose player's grace window ran out,
    until they come back (a level of ``LEVELS``), or ``off`` (the game is lost by
    abandonment); omitted: the server's ``--autopilot``. Anything else is
    refused ``bad_options``."""


class Join(_Message, tag="join", frozen=True):
    """Take a free seat, by room code or private join code."""

    code: Code


class Watch(_Message, tag="watch", frozen=True):
    """Watch a room as a spectator, by room code or watch code."""

    code: Code


class QuickMatch(_Message, tag="quick_match", frozen=True):
    """Pair with the next player waiting for the same game (or wait for one)."""

    game: ShortText
    m: int | None = None
    n: int | None = None
    k: int | None = None


class AddAi(_Message, tag="add_ai", frozen=True):
    """Seat the server AI at ``level`` in the room's empty seat."""

    room: Code
    level: Level


class AskHint(_Message, tag="hint", frozen=True):
    """The seated player to move asks the engine for a move (``hint`` answers);
    the hint is recorded with the game."""

    room: Code


class MakeMove(_Message, tag="move", frozen=True):
    """Play ``move`` in the game's notation. With ``ply`` (moves played before this
    one) the server refuses a move made against a position that has moved on."""

    room: Code
    move: ShortText
    ply: int | None = None


class Resign(_Message, tag="resign", frozen=True):
    """Concede the game."""

    room: Code


class OfferDraw(_Message, tag="offer_draw", frozen=True):
    """Offer a draw; it stands until answered or until the next move."""

    room: Code


class AcceptDraw(_Message, tag="accept_draw", frozen=True):
    """Accept the opponent's standing draw offer."""

    room: Code


class DeclineDraw(_Message, tag="decline_draw", frozen=True):
    """Decline the opponent's standing draw offer."""

    room: Code


class Rematch(_Message, tag="rematch", frozen=True):
    """After a game: ask for the next one in the same room, colours swapped. It
    starts when both seats have asked (an AI seat always agrees)."""

    room: Code


class Leave(_Message, tag="leave", frozen=True):
    """Leave the room (a seated player in a game in progress resigns)."""

    room: Code


class SendChat(_Message, tag="chat", frozen=True):
    """Say something to everyone in the room."""

    room: Code
    text: ChatText


class GetState(_Message, tag="get_state", frozen=True):
    """Ask for the room's whole state again (after missing events)."""

    room: Code


class Ping(_Message, tag="ping", frozen=True):
    """Liveness check; answered by ``pong``."""


ClientMessage = (
    Hello
    | ListRooms
    | CreateRoom
    | Join
    | Watch
    | QuickMatch
    | AddAi
    | AskHint
    | MakeMove
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | Rematch
    | Leave
    | SendChat
    | GetState
    | Ping
)
CLIENT_MESSAGES: dict[str, type[_Message]] = {
    cls.__struct_config__.tag: cls for cls in ClientMessage.__args__
}
"""Client message classes by their ``type``."""


# -- server to client -----------------------------------------------------------------


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who sits in a seat. ``kind`` is ``human``, ``bot`` or ``ai`` (the server's
    engine, at ``level``); ``gone_until`` (Unix seconds) is set while a dropped
    player's seat is held for them. ``autopilot`` is set (the engine's level)
    while the server's engine plays for a person or bot whose grace window ran
    out (a room with the ``autopilot`` option): they take the seat back by
    coming back."""

    side: Player
    name: str | None = None
    kind: Literal["human", "bot", "ai"] | None = None
    level: Level | None = None
    connected: bool = False
    gone_until: float | None = None
    autopilot: Level | None = None


class ClockState(msgspec.Struct, frozen=True, kw_only=True):
    """Time left per seat in milliseconds, and whose clock is running."""

    first_ms: int
    second_ms: int
    running: Player | None = None


class ResultInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How a game ended. ``winner`` is None for a draw; ``reason`` is a value of
    :class:`boardroom.shared.games.endings.Termination` (``line``, ``count``, ``resignation``,
    ...); ``line`` names the winning cells (``"d1"``)."""

    winner: Player | None
    reason: str
    line: list[str] = []


class RoomState(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Everything about a room, sent whole on join, watch and rejoin."""

    code: str
    game: str
    title: str
    status: Literal["waiting", "playing", "finished"]
    public: bool
    clock: Clock
    seats: list[SeatInfo]
    moves: str
    """The game's move string so far (``"4453"``, ``"b2 a1"``)."""
    ply: int
    to_move: Player | None = None
    clocks: ClockState | None = None
    draw_offer: Player | None = None
    rematch_offer: Player | None = None
    """The side that asked for a rematch of the finished game, while the other
    has not answered (see :class:`RematchOffered`)."""
    result: ResultInfo | None = None
    game_number: int = 1
    game_id: int | None = None
    """The stored id of the game in play, or of the last one once over (its
    record, ``GET /api/games/{id}``, and its review); absent before it is stored."""
    you: Player | None = None
    """The receiver's seat; None for a spectator."""
    join_code: str | None = None
    """The private join code, sent to seated players only."""
    watch_code: str | None = None
    paused: bool = False
    """True while the teacher has paused every game (class mode): no clock runs
    (``clocks.running`` is null) and moves, draw offers and resigning are refused
    with ``paused`` until a ``state`` without it comes."""
    saving_paused: bool = False
    """True while the server cannot save the room's game (its database is down or
    locked): its moves are refused ``storage_unavailable`` (send them again after
    ``retry_after``), and no clock runs (``clocks.running`` is null): nobody loses
    time or a game on time to it. A ``state`` without it comes once the room's
    game is saved again, its clocks running on from where they stood."""
    tournament: bool = False
    """True in a tournament room (class mode): its players are seated by the
    server, and it has no rematch; its join and watch codes are not for sharing."""
    ai_pace: float | None = None
    """Set in an AI match (the server AI in both seats): seconds at least between
    its moves. Anyone watching it may ask for the next game (``rematch``)."""
    hints: bool = True
    """True while its players may ask for hints (``hint``); the teacher turns them
    off or on in class mode."""
    delayed: int = 0
    """Set (above 0) for a spectator who sees a tournament game late: the game as
    it stood this many plies ago (``moves``, ``ply``, ``board``, ``legal``); its
    ``moved`` messages come as late, and the rest of the game at its end, before
    ``game_over``. Players and the teacher never get it (``docs/classroom.md``)."""
    delayed_seconds: float = 0.0
    """Set (above 0) instead of ``delayed`` for a spectator who sees a tournament
    game this many seconds late: the game as shown to them so far; each of its
    ``moved`` comes once its move is that old, and the rest at its end, before
    ``game_over``. Players and the teacher never get it."""
    game_players: dict[Player, str] = {}
    """Who played the current or last game, by side, named as it started or as
    the teacher renamed them since (left out before the first game): a
    finished game's result keeps its players' names once they have left."""
    board: list[str] | None = None
    """The board now, top row first, one string per row of ``X`` (the first
    player's stones), ``O`` and ``.`` (empty): as many strings as the board has
    rows, each as long as it has columns. A client draws this, not its own replay
    of ``moves``. Absent only from servers before it was added."""
    board_kind: BoardKind | None = None
    """How the board looks and how moves name places on it (``cells``, ``columns``)."""
    legal: list[str] | None = None
    """While a game is played: every legal move of the side to move, in the
    game's notation (``"4"``, ``"b2"``), the only moves a client need offer.
    Absent when no game is being played."""


class RoomSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the room list."""

    code: str
    game: str
    title: str
    status: Literal["waiting", "playing", "finished"]
    players: list[str]
    spectators: int


class Welcome(_Message, tag="welcome", frozen=True):
    """Answer to ``hello``: the name the server will show, the token to resume with,
    and the rooms whose seats a resume gave back (their ``state`` follows).
    ``version`` is the client's own. ``player_id`` is the durable player's public
    id; ``new_player`` says the hello made that player, and then (only then)
    ``player_token`` carries its secret token, which is never sent again."""

    name: str
    version: int
    resume_token: str
    resumed_rooms: list[str] = []
    player_id: str | None = None
    """``p`` and 16 hex digits; None from a server before version 2."""
    new_player: bool = False
    player_token: str | None = None
    """The new player's token (``bp_...``): keep it and present it in every later
    ``hello``; only sent when ``new_player`` is true."""
    name_locked: bool = False
    """True when the server names this player whatever ``hello.name`` says (a
    student of a class: the roster's name, which only the teacher changes), so
    a client offers no way to change it."""


class RoomList(_Message, tag="rooms", frozen=True):
    """Answer to ``list_rooms``: one page of the list, and how many public rooms
    (of the game asked for) there are in all (None from servers before paging)."""

    rooms: list[RoomSummary]
    total: int | None = None


class State(_Message, tag="state", frozen=True):
    """A room's whole state."""

    room: RoomState


class SearchInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """How the server AI found a move: the minimax search made visible.

    Sent in ``moved.search`` to the sessions whose ``hello`` asked for it
    (``search_info``), never to others. ``summary`` says it all in one line for
    people (``searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9``);
    the other fields are the same figures for programs.
    """

    summary: str
    nodes: int
    """Positions searched."""
    depth: int
    """The deepest finished search, in plies (for a proven value: the plies left
    in the game when it was solved)."""
    elapsed_ms: int
    """Time the search took in the engine, in milliseconds."""
    nodes_per_second: int
    exact: bool
    """True when ``value`` is proven to the end of the game; False for a guess at
    the search's horizon."""
    value: str
    """What the move is worth to the AI: ``win in 9``, ``loss in 4``, ``draw``, or a
    heuristic estimate in points (``+0.35``, good for the AI when positive)."""
    pv: list[str]
    """The line of play the AI expects, starting with its move (``"4"``, ``"b2"``).
    While hints are off in a room with a player in it, only the AI's own move
    (``line_hidden``): the rest would be the engine's move for the player."""
    book: bool = False
    """True when the move and its proven value come from the opening book (solved
    in advance: ``nodes`` is 0); left out when false."""
    line_hidden: bool = False
    """True when the server left the expected line out of ``pv`` (hints are off
    there); left out when false."""


class Moved(_Message, tag="moved", frozen=True):
    """A move was made (and is durable). ``ply`` counts the moves before it;
    ``board`` and ``legal`` say the position after it, so that a client needs no
    copy of the rules. ``search`` is set on a server AI's move, for sessions that asked for it
    (``hello.search_info``), and only when the engine's search chose the move
    (not a fallback)."""

    room: str
    ply: int
    move: str
    side: Player
    clocks: ClockState | None = None
    search: SearchInfo | None = None
    board: list[str] | None = None
    """The board after the move, as :attr:`RoomState.board` gives it."""
    legal: list[str] | None = None
    """The legal moves after it, of the side to move next (empty if the move
    ended the game), as :attr:`RoomState.legal` gives them."""
    autopilot: bool = False
    """True if the server's engine made this move for a player it plays for
    (``SeatInfo.autopilot``); omitted otherwise."""


class Hint(_Message, tag="hint", frozen=True):
    """The engine's move for the player who asked, at ``ply``, with its search
    (``search.value`` says what the move is worth; ``summary`` says it for
    people). Only the player who asked gets it."""

    room: str
    ply: int
    move: str
    search: SearchInfo


class GameOver(_Message, tag="game_over", frozen=True):
    """The game in the room has ended. ``game_id`` is its stored record's id
    (``GET /api/games/{id}``, and its analysis at ``/api/games/{id}/analysis``)."""

    room: str
    result: ResultInfo
    moves: str
    game_id: int | None = None


class PlayerStatus(_Message, tag="player_status", frozen=True):
    """A seated player connected, or dropped (seat held until ``gone_until``),
    or the server's engine took their seat when the window ran out
    (``autopilot``: its level; the player takes it back by coming back,
    with ``connected`` true)."""

    room: str
    side: Player
    connected: bool
    gone_until: float | None = None
    autopilot: Level | None = None


class DrawOffered(_Message, tag="draw_offered", frozen=True):
    """A draw offer from ``side`` stands."""

    room: str
    side: Player


class DrawDeclined(_Message, tag="draw_declined", frozen=True):
    """The standing draw offer was declined (or lapsed with a move)."""

    room: str
    side: Player


class RematchOffered(_Message, tag="rematch_offered", frozen=True):
    """``side`` asked for a rematch of the finished game: the other player
    accepts by sending ``rematch`` too. Lapses when a seat is freed."""

    room: str
    side: Player


class ChatLine(_Message, tag="chat", frozen=True):
    """A chat line in a room, from a player or spectator by name."""

    room: str
    name: str
    text: str


class Left(_Message, tag="left", frozen=True):
    """Answer to ``leave``: the client is no longer in the room (and gets nothing
    more from it)."""

    room: str


class Pong(_Message, tag="pong", frozen=True):
    """Answer to ``ping``."""


class RoomClosed(_Message, tag="room_closed", frozen=True):
    """The room was closed (class mode: by the teacher, or a tournament game
    decided without being played): its game in progress, if any, ended with no
    result (``game_over`` came first), and nothing more comes from it.
    ``reason`` says why, for people, in English (who forfeited and who wins, for
    a no-show); ``kind`` says it as a code for clients to word in their reader's
    language (:class:`~boardroom.shared.protocol.room_closing.ClosedKind`), with
    the ``names`` its words need (``absent``, ``winner``, ``tournament``). A room
    closed for another reason has no ``kind``: its ``reason`` is all there is."""

    room: str
    reason: str
    kind: str | None = None
    names: dict[str, str] = {}


class Announcement(_Message, tag="announcement", frozen=True):
    """A message to everyone connected (class mode): the teacher's (``source``
    ``teacher``, left out) or the server's own (``server``: a tournament's end,
    which names it in ``tournament``, the id of ``GET /api/tournaments/{id}``).
    The server's own ``text`` is English; its ``kind`` says it as a code
    (:class:`~boardroom.shared.protocol.tournament_ending.EndingKind`) with the
    values its words need (``tournament_name``; ``winners`` and ``points`` for
    ``tournament_over``; ``round`` and ``players``, first and second, for
    ``tournament_game_replayed``), for clients to word in their reader's language."""

    text: str
    source: Literal["teacher", "server"] = "teacher"
    tournament: int | None = None
    kind: str | None = None
    tournament_name: str | None = None
    winners: list[str] = []
    points: float | None = None
    round: int | None = None
    players: list[str] = []


class Match(_Message, tag="match", frozen=True):
    """A tournament game is ready for you (class mode): take your seat with
    ``{"type": "join", "code": code}`` before ``starts_by`` (Unix seconds), or
    lose it by forfeit. Sent when the round opens, and again after each
    ``welcome`` of the session while the game has not started. ``side`` is the
    seat reserved for you; ``opponent`` the other player's name."""

    tournament: int
    tournament_name: str
    round: int
    board: int
    room: str
    code: str
    game: str
    side: Player
    opponent: str
    starts_by: float


class Error(_Message, tag="error", frozen=True):
    """A refused request: stable ``code`` (:class:`~boardroom.shared.protocol.errors.ErrorCode`),
    ``message`` for people, and ``retry_after`` (seconds) when rate limited."""

    code: str
    message: str
    retry_after: float | None = None


ServerMessage = (
    Welcome
    | RoomList
    | State
    | Moved
    | GameOver
    | Hint
    | PlayerStatus
    | DrawOffered
    | DrawDeclined
    | RematchOffered
    | ChatLine
    | Left
    | Pong
    | RoomClosed
    | Announcement
    | Match
    | Error
)
SERVER_MESSAGES: dict[str, type[_Message]] = {
    cls.__struct_config__.tag: cls for cls in ServerMessage.__args__
}
"""Server message classes by their ``type``."""
