"""The wire protocol: message types, error codes and the codec, shared by the
server and every client. Pure: it parses and builds text, and does no I/O.

See ``docs/protocol.md`` for the contract in prose.
"""

from boardroom.shared.protocol.codec import (
    MAX_FRAME_BYTES,
    check_chat_text,
    check_player_name,
    decode_client_message,
    decode_server_message,
    encode_message,
)
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    CLIENT_MESSAGES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    SUPPORTED_VERSIONS,
    ClientMessage,
    ServerMessage,
)

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "SUPPORTED_VERSIONS",
    "ClientMessage",
    "ErrorCode",
    "ProtocolError",
    "ServerMessage",
    "check_chat_text",
    "check_player_name",
    "decode_client_message",
    "decode_server_message",
    "encode_message",
]
