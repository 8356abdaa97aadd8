"""The wire codec: every message round trips, every bad frame gets its typed error."""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.protocol import (
    CLIENT_MESSAGES,
    MAX_FRAME_BYTES,
    SERVER_MESSAGES,
    ErrorCode,
    ProtocolError,
    check_player_name,
    decode_client_message,
    decode_server_message,
    encode_message,
)
from boardroom.shared.protocol import messages as m
from boardroom.shared.protocol.close_codes import (
    CLOSE_ABUSE,
    CLOSE_REASONS,
    CLOSE_REMOVED,
    CLOSE_SESSION_REPLACED,
    CLOSE_TOKEN_REVOKED,
    CLOSE_TOO_SLOW,
    FINAL_CLOSE_CODES,
)

PROTOCOL_DOC = REPO_ROOT / "docs" / "protocol.md"

CLIENT_EXAMPLES = [
    m.Hello(name="ann", version=1, client="bot", resume_token="t0k3n", id=1),
    m.Hello(name="ann", version=2, player_token="bp_" + "x" * 43, id=2),
    m.ListRooms(game="connect4"),
    m.CreateRoom(
        game="mnk",
        m=5,
        n=5,
        k=4,
        public=False,
        seat="random",
        clock=m.Clock(kind="increment", initial=300, increment=2),
        ai_level="hard",
        id="create-1",
    ),
    m.Join(code="K7Q2"),
    m.Watch(code="W-K7Q2"),
    m.QuickMatch(game="tictactoe"),
    m.AddAi(room="K7Q2", level="easy"),
    m.AskHint(room="K7Q2", id=5),
    m.CreateRoom(
        game="connect4", ai_match=m.AiMatch(first="medium", second="perfect", pace=2.5), id=6
    ),
    m.MakeMove(room="K7Q2", move="4", ply=3),
    m.Resign(room="K7Q2"),
    m.OfferDraw(room="K7Q2"),
    m.AcceptDraw(room="K7Q2"),
    m.DeclineDraw(room="K7Q2"),
    m.Rematch(room="K7Q2"),
    m.Leave(room="K7Q2"),
    m.SendChat(room="K7Q2", text="good game"),
    m.GetState(room="K7Q2"),
    m.Ping(id=99),
]

ROOM = m.RoomState(
    code="K7Q2",
    game="connect4",
    title="Connect Four",
    status="playing",
    public=True,
    clock=m.Clock(kind="per_move", per_move=30),
    seats=[
        m.SeatInfo(side="first", name="ann", kind="human", connected=True),
        m.SeatInfo(side="second", name="Boardroom AI", kind="ai", level="hard", connected=True),
    ],
    moves="4453",
    ply=4,
    to_move="first",
    clocks=m.ClockState(first_ms=30_000, second_ms=30_000, running="first"),
    you="first",
)
SERVER_EXAMPLES = [
    m.Welcome(name="ann", version=1, resume_token="t0k3n", resumed_rooms=["K7Q2"], id=1),
    m.Welcome(
        name="ann 2",
        version=2,
        resume_token="t0k3n",
        player_id="p0123456789abcdef",
        new_player=True,
        player_token="bp_" + "x" * 43,
        id=1,
    ),
    m.RoomList(
        rooms=[
            m.RoomSummary(
                code="K7Q2",
                game="connect4",
                title="Connect Four",
                status="waiting",
                players=["ann"],
                spectators=0,
            )
        ]
    ),
    m.State(room=ROOM),
    m.Moved(room="K7Q2", ply=4, move="5", side="first"),
    m.Moved(
        room="K7Q2",
        ply=0,
        move="b2",
        side="first",
        board=["...", ".X.", "..."],
        legal=["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"],
    ),
    m.GameOver(
        room="K7Q2",
        result=m.ResultInfo(winner="first", reason="line", line=["d1", "e1", "f1", "g1"]),
        moves="4453566",
        game_id=12,
    ),
    m.Hint(
        room="K7Q2",
        ply=4,
        move="4",
        search=m.SearchInfo(
            summary="searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9",
            nodes=1_200_000,
            depth=14,
            elapsed_ms=840,
            nodes_per_second=1_430_000,
            exact=True,
            value="win in 9",
            pv=["4", "5"],
        ),
        id=5,
    ),
    m.PlayerStatus(room="K7Q2", side="second", connected=False, gone_until=1_790_000_000.5),
    m.DrawOffered(room="K7Q2", side="first"),
    m.RematchOffered(room="K7Q2", side="second"),
    m.DrawDeclined(room="K7Q2", side="second"),
    m.ChatLine(room="K7Q2", name="ann", text="hi"),
    m.Left(room="K7Q2", id=8),
    m.Pong(id=99),
    m.RoomClosed(room="K7Q2", reason="closed by the teacher"),
    m.Announcement(text="Pens down: the games resume in five minutes."),
    m.Announcement(text='Tournament "Cup" is over: Ann wins.', source="server", tournament=3),
    m.Match(
        tournament=3,
        tournament_name="Friday Connect Four",
        round=2,
        board=1,
        room="K3F9AB",
        code="XTZRUWF6",
        game="connect4",
        side="first",
        opponent="Ada",
        starts_by=1795000000.0,
    ),
    m.Error(code=ErrorCode.RATE_LIMITED, message="slow down", retry_after=1.5, id=3),
]


def refusal(frame: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        decode_client_message(frame)
    return caught.value


def test_the_examples_cover_every_message_type() -> None:
    """Each client and server message type has an example below, so each round trips."""
    assert {type(e).__struct_config__.tag for e in CLIENT_EXAMPLES} == set(CLIENT_MESSAGES)
    assert {type(e).__struct_config__.tag for e in SERVER_EXAMPLES} == set(SERVER_MESSAGES)


@pytest.mark.parametrize("message", CLIENT_EXAMPLES, ids=lambda e: type(e).__name__)
def test_client_messages_round_trip_through_json(message: m.ClientMessage) -> None:
    """Encoding a client message and decoding it gives the same message back."""
    assert decode_client_message(encode_message(message)) == message


@pytest.mark.parametrize("message", SERVER_EXAMPLES, ids=lambda e: type(e).__name__)
def test_server_messages_round_trip_through_json(message: m.ServerMessage) -> None:
    """Encoding a server message and decoding it as a client would gives it back."""
    assert decode_server_message(encode_message(message)) == message


def test_optional_fields_at_their_defaults_are_not_sent() -> None:
    """A move without ply or id is just its type, room and move."""
    assert encode_message(m.MakeMove(room="R", move="4")) == (
        '{"type":"move","room":"R","move":"4"}'
    )


def test_unknown_fields_are_ignored() -> None:
    """A newer client's extra fields do not stop an older server from reading it."""
    message = decode_client_message('{"type": "ping", "colour": "blue", "id": 5}')
    assert message == m.Ping(id=5)


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("{bad json", ErrorCode.MALFORMED_JSON, "not valid JSON"),
        ("", ErrorCode.MALFORMED_JSON, "not valid JSON"),
        ("[1, 2]", ErrorCode.NOT_AN_OBJECT, "got an array"),
        ('"ping"', ErrorCode.NOT_AN_OBJECT, "got a string"),
        ("42", ErrorCode.NOT_AN_OBJECT, "got a number"),
        ("null", ErrorCode.NOT_AN_OBJECT, "got null"),
        ("true", ErrorCode.NOT_AN_OBJECT, "got a boolean"),
    ],
)
def test_frames_that_are_not_json_objects_get_a_typed_error(
    frame: str, code: ErrorCode, words: str
) -> None:
    """Not JSON at all, or JSON but not an object: each has its own code."""
    error = refusal(frame)
    assert error.code is code
    assert words in error.message


CHAT_TOO_LONG = {"type": "chat", "room": "R", "text": "x" * 501}
NEGATIVE_CLOCK = {"type": "create_room", "game": "connect4", "clock": {"per_move": -1}}


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({}, ErrorCode.UNKNOWN_TYPE, "no `type` field"),
        ({"type": "fly"}, ErrorCode.UNKNOWN_TYPE, "unknown type 'fly'"),
        ({"type": 7}, ErrorCode.UNKNOWN_TYPE, "unknown type 7"),
        ({"type": "move", "room": "R"}, ErrorCode.INVALID_FIELD, "`move`"),
        ({"type": "move", "room": 5, "move": "4"}, ErrorCode.INVALID_FIELD, "$.room"),
        ({"type": "move", "room": "R", "move": "4", "ply": "3"}, ErrorCode.INVALID_FIELD, "$.ply"),
        ({"type": "hello", "name": "ann"}, ErrorCode.INVALID_FIELD, "`version`"),
        (
            {"type": "hello", "name": "a", "version": 1, "client": "x"},
            ErrorCode.INVALID_FIELD,
            "$.client",
        ),
        ({"type": "add_ai", "room": "R", "level": "godlike"}, ErrorCode.INVALID_FIELD, "$.level"),
        ({"type": "chat", "room": "R", "text": ""}, ErrorCode.INVALID_FIELD, "$.text"),
        (CHAT_TOO_LONG, ErrorCode.INVALID_FIELD, "$.text"),
        ({"type": "join", "code": ""}, ErrorCode.INVALID_FIELD, "$.code"),
        (NEGATIVE_CLOCK, ErrorCode.INVALID_FIELD, "$.clock.per_move"),
        ({"type": "ping", "id": True}, ErrorCode.INVALID_FIELD, "$.id"),
    ],
)
def test_objects_that_are_not_messages_get_a_typed_error_naming_the_fault(
    fields: dict[str, object], code: ErrorCode, words: str
) -> None:
    """Unknown types and bad fields have their own codes; the message points at the fault."""
    error = refusal(json.dumps(fields))
    assert error.code is code
    assert words in error.message


def test_an_unknown_type_error_lists_the_accepted_types() -> None:
    """The message says what would have been accepted."""
    message = refusal('{"type": "fly"}').message
    for kind in ("hello", "move", "create_room", "ping"):
        assert kind in message


def test_errors_echo_the_request_id_whenever_the_frame_was_an_object() -> None:
    """Even a refused request can be matched to its reply by id."""
    assert refusal('{"type": "fly", "id": 7}').request_id == 7
    assert refusal('{"type": "move", "room": "R", "id": "m-1"}').request_id == "m-1"
    assert refusal('{"type": "move", "id": true}').request_id is None
    assert refusal("[1]").request_id is None


def test_a_frame_over_the_size_cap_is_refused_before_parsing() -> None:
    """64 KiB is the cap, counted in bytes of UTF-8."""
    chat = '{"type": "chat", "room": "R", "text": "%s"}'
    padding = "é" * (MAX_FRAME_BYTES // 2)  # two bytes each in UTF-8
    error = refusal(chat % padding)
    assert error.code is ErrorCode.FRAME_TOO_LARGE
    assert str(MAX_FRAME_BYTES) in error.message
    assert refusal((chat % padding).encode()).code is ErrorCode.FRAME_TOO_LARGE


@pytest.mark.parametrize("name", ["ann", "  Zoë  ", "李雷", "Bot #3 (v2)", "x" * 32])
def test_fair_player_names_are_accepted_and_trimmed(name: str) -> None:
    """Letters of any script, digits, spaces and punctuation make a name."""
    assert check_player_name(name) == name.strip()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 33, "33 characters"),
        ("ann\x00", "control"),
        ("ann\nbob", "control"),
        ("a\u200bb", "invisible"),
        ("\x1b[31mred", "control"),
        ("ann\u2028bob", "control"),  # a line separator: a terminal starts a new line
        ("ann\u2029bob", "control"),
    ],
)
def test_unfit_player_names_get_bad_name(name: str, words: str) -> None:
    """Empty, huge and control-character names are refused with a reason."""
    with pytest.raises(ProtocolError) as caught:
        check_player_name(name)
    assert caught.value.code is ErrorCode.BAD_NAME
    assert words in caught.value.message


def test_error_codes_are_unique_snake_case() -> None:
    """Codes are stable identifiers for bot authors."""
    values = [code.value for code in ErrorCode]
    assert len(values) == len(set(values))
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", value) for value in values)


def test_the_protocol_document_lists_every_message_and_error_code() -> None:
    """docs/protocol.md is the contract: it names each message type and each error code."""
    text = PROTOCOL_DOC.read_text()
    for kind in [*CLIENT_MESSAGES, *SERVER_MESSAGES]:
        assert f"`{kind}`" in text, f"message type {kind!r} missing from docs/protocol.md"
    for code in ErrorCode:
        assert f"`{code.value}`" in text, f"error code {code.value!r} missing"


def test_the_protocol_documents_room_state_paragraph_names_every_field() -> None:
    """The paragraph that says what the room in ``state`` holds names each of
    its fields (``hints`` was left out: issue 28)."""
    text = PROTOCOL_DOC.read_text()
    start = text.index("The room in `state`:")
    paragraph = text[start : text.index("\n\n", start)]
    missing = [f for f in m.RoomState.__struct_fields__ if f"`{f}`" not in paragraph]
    assert not missing, f"room fields missing from docs/protocol.md's room paragraph: {missing}"


def test_the_protocol_document_lists_every_close_code_with_its_words() -> None:
    """Each close code a client may meet is in docs/protocol.md's table, and the
    application's own codes (4000 and up) all have words for clients to show."""
    text = PROTOCOL_DOC.read_text()
    own = {CLOSE_SESSION_REPLACED, CLOSE_TOO_SLOW, CLOSE_ABUSE, CLOSE_REMOVED, CLOSE_TOKEN_REVOKED}
    for code in CLOSE_REASONS:
        if code in own or code in (1001, 1009, 1012, 1013):
            assert f"| {code} |" in text, f"close code {code} missing from docs/protocol.md"
    assert own <= set(CLOSE_REASONS)


def test_a_revoked_player_token_is_a_final_close_code_with_its_words() -> None:
    """4004 ends a player for good: clients do not reconnect after it, and say why."""
    assert CLOSE_TOKEN_REVOKED == 4004
    assert CLOSE_TOKEN_REVOKED in FINAL_CLOSE_CODES
    assert CLOSE_REASONS[CLOSE_TOKEN_REVOKED] == "this player's token was revoked"


def test_a_version_1_welcome_leaves_the_player_fields_out_at_their_defaults() -> None:
    """The player fields are optional: a welcome without them (an older server's)
    decodes, and they are not sent while at their defaults."""
    old = '{"type":"welcome","name":"ann","version":1,"resume_token":"t"}'
    welcome = decode_server_message(old)
    assert isinstance(welcome, m.Welcome)
    assert (welcome.player_id, welcome.new_player, welcome.player_token) == (None, False, None)
    assert encode_message(welcome) == old


def test_a_player_token_over_200_characters_is_an_invalid_field() -> None:
    """The field is capped like the resume token: nothing longer is looked up."""
    hello = {"type": "hello", "name": "ann", "version": 2, "player_token": "x" * 201}
    error = refusal(json.dumps(hello))
    assert error.code is ErrorCode.INVALID_FIELD
    assert "$.player_token" in error.message


def test_server_messages_that_break_the_contract_raise_value_errors_for_clients() -> None:
    """A client can tell a broken server message from a good one."""
    with pytest.raises(msgspec.ValidationError):
        decode_server_message('{"type": "moved", "room": "R"}')


@pytest.mark.parametrize("frame", ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000])
def test_json_nested_too_deep_is_malformed_not_a_crash(frame: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client_message(frame)
    assert refused.value.code is ErrorCode.MALFORMED_JSON
    assert "nested too deep" in refused.value.message


def test_a_value_outside_a_fixed_set_is_refused_with_the_choices() -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client_message('{"type": "add_ai", "room": "K7Q2MX", "level": "godlike"}')
    assert refused.value.code is ErrorCode.INVALID_FIELD
    assert "$.level" in refused.value.message
    assert "choose one of random, easy, medium, hard, perfect" in refused.value.message


def test_a_side_is_the_rules_player_sent_by_its_word() -> None:
    """A message's side is the rules' ``Player``, sent as ``first``/``second`` and
    read back as ``Player`` with no converter; a number or another word is refused."""
    from boardroom.shared.games import Player

    for player, word in ((Player.FIRST, "first"), (Player.SECOND, "second")):
        sent = encode_message(m.Moved(room="K7Q2", ply=0, move="b2", side=player))
        assert json.loads(sent)["side"] == word
        assert decode_server_message(sent) == m.Moved(room="K7Q2", ply=0, move="b2", side=player)
        assert decode_server_message(sent).side is player  # type: ignore[union-attr]
    for bad in (b'"third"', b"0"):
        with pytest.raises(msgspec.ValidationError):
            decode_server_message(
                b'{"type":"moved","room":"K7Q2","ply":0,"move":"b2","side":' + bad + b"}"
            )
    assert m.chosen_seat("random") == "random" and m.chosen_seat("second") is Player.SECOND
    assert [m.seat_choice(seat) for seat in (*Player, "random")] == ["first", "second", "random"]


def test_the_board_and_the_legal_moves_are_optional_fields_an_older_peer_can_ignore() -> None:
    # A state or moved from a server before them decodes (the fields are absent)...
    old = b'{"type":"moved","room":"K7Q2","ply":0,"move":"b2","side":"first"}'
    moved = decode_server_message(old)
    assert isinstance(moved, m.Moved)
    assert moved.board is None and moved.legal is None
    # ...and a new one's carry them: a board of rows top first, and the moves left.
    state = msgspec.structs.replace(
        ROOM, board=["." * 7] * 5 + ["..XOX.."], board_kind="columns", legal=list("1234567")
    )
    sent = json.loads(encode_message(m.State(room=state)))["room"]
    assert sent["board"][-1] == "..XOX.." and sent["board_kind"] == "columns"
    assert sent["legal"] == ["1", "2", "3", "4", "5", "6", "7"]
    assert decode_server_message(encode_message(m.State(room=state))) == m.State(room=state)
    # No game in play: no legal moves said (absent, not an empty list), and the
    # move that ends a game says that none are left (an empty list, sent).
    assert "legal" not in json.loads(encode_message(m.State(room=ROOM)))["room"]
    over = m.Moved(room="K7Q2", ply=6, move="c1", side="first", board=["..."] * 3, legal=[])
    assert json.loads(encode_message(over))["legal"] == []


def test_the_wire_board_kinds_are_the_registry_s() -> None:
    from typing import get_args

    from boardroom.shared.games.spec import BoardKind

    assert get_args(m.BoardKind) == tuple(kind.value for kind in BoardKind)


def test_an_unknown_board_kind_is_refused_naming_the_field() -> None:
    room = {**json.loads(encode_message(ROOM)), "board_kind": "hexes"}
    frame = json.dumps({"type": "state", "room": room})
    with pytest.raises(ValueError, match="board_kind"):
        decode_server_message(frame)
