"""The protocol's WebSocket close codes (docs/protocol.md, "Close codes").

Defined once, here, for the server that sends them and the clients that read
them. Codes 4000-4999 are the application's own (RFC 6455); the standard ones a
client may meet are in :data:`CLOSE_REASONS` too, so that it can say any of them
in words.
"""

from __future__ import annotations

CLOSE_SESSION_REPLACED = 4000
"""The same session connected again from elsewhere (its resume token was used)."""
CLOSE_TOO_SLOW = 4001
"""The client did not read its messages fast enough. Not sent by this server: a
close frame would wait behind the unread messages, so it cuts the connection
instead (the client sees 1006); clients still name the code in words."""
CLOSE_ABUSE = 4002
"""Sustained flooding after ``rate_limited`` errors."""
CLOSE_REMOVED = 4003
"""The teacher removed the student (class mode); the resume token is void."""
CLOSE_TOKEN_REVOKED = 4004
"""The ``hello`` presented a revoked player token, or the player's token was
revoked while it was connected: that player can no longer connect with it."""

CLOSE_SERVICE_RESTART = 1012
"""A cluster's class home died: the connection carried to it is closed (reconnect)."""
CLOSE_TRY_AGAIN_LATER = 1013
"""Refused for now: too many connections from the address, a cluster's class
home is away, or a resume waits for a process's rooms to be taken over
(reconnect a little later)."""

FINAL_CLOSE_CODES = frozenset({CLOSE_SESSION_REPLACED, CLOSE_REMOVED, CLOSE_TOKEN_REVOKED})
"""Close codes after which reconnecting is pointless: the token no longer works."""

CLOSE_REASONS: dict[int, str] = {
    1000: "the connection was closed",
    1001: "the server is shutting down",
    1006: "the connection was lost",
    1009: "a message was too large",
    1011: "the server had an internal error",
    1012: "the server this connection was carried to restarted",
    1013: "try again later (too many connections from this address, or a restart under way)",
    CLOSE_SESSION_REPLACED: "this session was taken over by a newer connection with the same token",
    CLOSE_TOO_SLOW: "the server dropped us for reading too slowly",
    CLOSE_ABUSE: "the server dropped us for sending too many messages",
    CLOSE_REMOVED: "the teacher removed this player from the class",
    CLOSE_TOKEN_REVOKED: "this player's token was revoked",
}
"""Close codes in words, as a client tells its user."""
