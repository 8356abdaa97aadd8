"""Error codes of the wire protocol, and the exception that carries one.

Every refusal the server sends is ``{"type": "error", "code": ..., "message": ...,
"id": ...}`` with ``code`` from :class:`ErrorCode`. The codes are a contract with
bot authors (``docs/protocol.md`` lists them): add new ones, never rename one.
"""

from __future__ import annotations

import enum

from boardroom.shared.errors import BoardroomError


class ErrorCode(enum.StrEnum):
    """Why a request was refused. Stable snake_case strings."""

    # -- the frame itself ------------------------------------------------------
    MALFORMED_JSON = "malformed_json"
    """The text frame is not valid JSON."""
    NOT_AN_OBJECT = "not_an_object"
    """Valid JSON, but not a JSON object."""
    BINARY_FRAME = "binary_frame"
    """A binary frame: the protocol is text (JSON) only."""
    FRAME_TOO_LARGE = "frame_too_large"
    """The frame is over the size cap (64 KiB)."""
    UNKNOWN_TYPE = "unknown_type"
    """``type`` is missing, not a string, or names no client message."""
    INVALID_FIELD = "invalid_field"
    """A field is missing, of the wrong type, or out of range; the message names it."""
    # -- the session -------------------------------------------------------------
    HELLO_REQUIRED = "hello_required"
    """The first message of a connection must be ``hello``."""
    UNSUPPORTED_VERSION = "unsupported_version"
    """The client speaks a protocol version the server does not."""
    BAD_NAME = "bad_name"
    """A player name that is empty, too long, or holds control characters."""
    BAD_TEXT = "bad_text"
    """A chat line that holds control characters (escape sequences, line breaks)."""
    BAD_TOKEN = "bad_token"  # noqa: S105 - an error code, not a secret
    """A resume token that the server does not know (or that has expired)."""
    BAD_PLAYER_TOKEN = "bad_player_token"  # noqa: S105 - an error code, not a secret
    """A player token that the server does not know; nothing was created. Say
    hello without one to be a new player."""
    UNKNOWN_CLASS_TOKEN = "unknown_class_token"  # noqa: S105 - an error code, not a secret
    """Class mode: a player token that the class's server does not know (a
    mistyped join link); nothing was created. Do not say hello again without it
    (that would be a new student): ask the teacher for the card."""
    PLAYER_TOKEN_REVOKED = "player_token_revoked"  # noqa: S105 - an error code, not a secret
    """A player token that was revoked; the connection is closed (4004)."""
    RATE_LIMITED = "rate_limited"
    """Too many messages too fast, or too many new players from one address;
    ``retry_after`` says when to retry."""
    TOO_MANY_CONNECTIONS = "too_many_connections"
    """The address already holds as many connections as the server allows."""
    # -- rooms ---------------------------------------------------------------------
    UNKNOWN_GAME = "unknown_game"
    """No game by that name (or bad m, n, k sizes)."""
    BAD_OPTIONS = "bad_options"
    """Room options that do not fit together (a clock without times, ...)."""
    BAD_LEVEL = "bad_level"
    """An AI level that does not exist."""
    UNKNOWN_ROOM = "unknown_room"
    """No room with that code, join code or watch code."""
    ROOM_FULL = "room_full"
    """Every seat of the room is taken."""
    TOO_MANY_ROOMS = "too_many_rooms"
    """The session (or all the sessions of its network address) already has as many
    open rooms as the server allows; finish or leave one first. The message names
    the cap and the session's open rooms."""
    TOO_MANY_AI_MATCHES = "too_many_ai_matches"
    """The session (or all the sessions of its network address) already runs as
    many AI matches as the server allows (they take the engine from everybody's
    AI); let one finish or leave it first. The message names the cap and the
    session's AI matches."""
    WATCH_ONLY = "watch_only"
    """The session said hello as a ``spectator``: it may watch, not take a seat."""
    NOT_SEATED = "not_seated"
    """The action needs a seat in the room and the client holds none."""
    # -- play --------------------------------------------------------------------
    NOT_YOUR_TURN = "not_your_turn"
    """A move (or a draw answer) from the side not to act."""
    ILLEGAL_MOVE = "illegal_move"
    """The rules refuse the move; the message says why and what is legal."""
    STALE_MOVE = "stale_move"
    """The move names a ply that is not the current one: the client is behind."""
    GAME_NOT_STARTED = "game_not_started"
    """The room is still waiting for players."""
    GAME_OVER = "game_over"
    """The game has ended; only rematch, chat and leave remain."""
    GAME_IN_PROGRESS = "game_in_progress"
    """A request only valid between games (rematch) made during one."""
    NO_DRAW_OFFER = "no_draw_offer"
    """Accept or decline with no draw offer standing."""
    TOURNAMENT_ROOM = "tournament_room"
    """Not done in a tournament room: a rematch, adding the AI, sitting down
    again once its game is over (the next round opens by itself)."""
    PAUSED = "paused"
    """The teacher paused the games (class mode): moves, draw offers, resigning and
    leaving a game in progress wait until they resume."""
    HINTS_OFF = "hints_off"
    """No hints in this room: the teacher turned them off (class mode), or it is
    an AI match."""
    ENGINE_BUSY = "engine_busy"
    """The server's engine is saturated; try again shortly."""
    UNREADABLE_RECORD = "unreadable_record"
    """A stored record holds what only a newer Boardroom knows (a game ended in a
    way this server's code does not list): upgrade the server to read it. The
    record is left as it is. HTTP: 409."""
    STORAGE_UNAVAILABLE = "storage_unavailable"
    """The server cannot save to its database for now (it is down, restarting or
    locked): the request was not done and changed nothing; send it again after
    ``retry_after`` seconds. A game in progress is paused, not ended. HTTP: 503
    with ``retry_after`` and a ``Retry-After`` header."""
    STORAGE_LOST = "storage_lost"
    """The room was closed because its game could not be saved for longer than
    the server's limit (``storage_outage_limit``, 10 minutes by default)."""
    INTERNAL_ERROR = "internal_error"
    """A fault on the server; the connection and the room survive it."""


class ProtocolError(BoardroomError, ValueError):
    """A refused request: an :class:`ErrorCode`, a message for people, the
    request's ``id`` (to echo in the reply) when it had one, and for
    ``rate_limited`` and ``storage_unavailable`` the seconds after which to retry."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        request_id: int | str | None = None,
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after
