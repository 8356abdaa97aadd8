"""The room state machine: requests and time in, messages and records out, no sockets."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import msgspec
import pytest
from repo_paths import REPO_ROOT

from boardroom.server.core.records import PlayerKind, SeatRecord, Termination
from boardroom.server.core.room import (
    ALL,
    AiRequest,
    ClientId,
    Everyone,
    GameFinished,
    GameStarted,
    MoveMade,
    Output,
    PersistEvent,
    Room,
    RoomOptions,
    RoomRequest,
)
from boardroom.server.core.room_output import HintGiven, search_info, without_search
from boardroom.shared.engine import search
from boardroom.shared.engine.explain import summary
from boardroom.shared.games import get_game
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    AcceptDraw,
    AddAi,
    AskHint,
    ChatLine,
    Clock,
    ClockState,
    DeclineDraw,
    DrawDeclined,
    DrawOffered,
    Error,
    GameOver,
    GetState,
    Hint,
    Leave,
    Left,
    MakeMove,
    Moved,
    OfferDraw,
    PlayerStatus,
    Rematch,
    RematchOffered,
    Resign,
    ResultInfo,
    SearchInfo,
    SendChat,
    ServerMessage,
    State,
)

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
CAT = ClientId("cat-session")
DAN = ClientId("dan-session")
T0 = 1_700_000_000.0
CODE = "K7Q2"
PER_MOVE = Clock(kind="per_move", per_move=30)
FISCHER = Clock(kind="increment", initial=300, increment=2)
# Tic-tac-toe's board as `moved` says it (top row first) after b2, then a1, and
# the legal moves left.
B2 = ["...", ".X.", "..."]
AFTER_B2 = ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]
B2_A1 = ["...", ".X.", "O.."]
AFTER_B2_A1 = AFTER_B2[1:]


# -- helpers -----------------------------------------------------------------------------


def new_room(game: str = "tictactoe", *, seed: int = 1, **options: Any) -> Room:
    options.setdefault("join_code", "JOIN1")
    options.setdefault("watch_code", "WATCH1")
    return Room(CODE, game, options=RoomOptions(**options), rng=random.Random(seed), now=T0)


def started_room(game: str = "tictactoe", **options: Any) -> Room:
    """Ann (first) and Bob (second) seated; game 1 started at T0."""
    room = new_room(game, **options)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    assert room.status == "playing"
    return room


def move(room: Room, client: ClientId, text: str, *, now: float = T0, **kw: Any) -> Output:
    return room.handle(client, MakeMove(room=CODE, move=text, **kw), now=now)


def play_moves(room: Room, texts: str, *, now: float = T0) -> list[Output]:
    """Alternate ann and bob (ann first) through the moves in ``texts``."""
    outputs = []
    for ply, text in enumerate(texts.split()):
        mover = ANN if room.side_of(ANN) == ("first", "second")[ply % 2] else BOB
        output = move(room, mover, text, now=now)
        assert not any(isinstance(m, Error) for _, m in output.messages), output
        outputs.append(output)
    return outputs


def snapshot(room: Room) -> dict[str, Any]:
    state = {k: copy.deepcopy(v) for k, v in vars(room).items() if k != "_rng"}
    state["rng"] = room._rng.getstate()
    return state


def refused(
    room: Room, client: ClientId, request: RoomRequest, code: ErrorCode, *, now: float = T0
) -> str:
    """Assert ``request`` gets exactly one error ``code`` and changes nothing; the message."""
    before = snapshot(room)
    output = room.handle(client, request, now=now)
    assert len(output.messages) == 1, output.messages
    recipient, error = output.messages[0]
    assert recipient == client
    assert isinstance(error, Error)
    assert (error.code, error.id) == (code, request.id)
    assert output.events == () and output.ai_requests == ()
    assert snapshot(room) == before
    return error.message


def only(messages: list[ServerMessage], kind: type[Any]) -> list[Any]:
    return [m for m in messages if isinstance(m, kind)]


def move_made(output: Output) -> MoveMade:
    """The one move ``output`` records."""
    (made,) = [e for e in output.events if isinstance(e, MoveMade)]
    return made


def events_of(outputs: list[Output]) -> list[PersistEvent]:
    return [event for output in outputs for event in output.events]


# -- lifecycle: start, win, draw -----------------------------------------------------------


def test_game_starts_when_the_second_seat_is_taken() -> None:
    """The second player's seat starts game 1: GameStarted, and each player's own state."""
    room = new_room()
    first = room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0, request_id=1)
    assert room.status == "waiting" and first.events == ()
    assert first.to(ANN) == [State(room=room.state_for(ANN, now=T0), id=1)]
    output = room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0 + 1, request_id="j")
    (started,) = output.events
    assert started == GameStarted(
        CODE,
        "tictactoe",
        1,
        (
            SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
            SeatRecord("bob", PlayerKind.HUMAN, session=BOB),
        ),
        at=T0 + 1,
    )
    (to_ann,) = output.to(ANN)
    (to_bob,) = output.to(BOB)
    assert isinstance(to_ann, State) and isinstance(to_bob, State)
    assert (to_ann.room.you, to_ann.id, to_bob.room.you, to_bob.id) == (
        "first",
        None,
        "second",
        "j",
    )
    assert to_bob.room.status == "playing" and to_bob.room.to_move == "first"
    assert to_bob.room.join_code == "JOIN1" and to_bob.room.watch_code == "WATCH1"


def test_two_humans_play_tictactoe_to_a_win() -> None:
    """A line wins: the move is recorded before the result, and everyone hears both."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    outputs = play_moves(room, "a1 b1 a2 b2")
    last = move(room, ANN, "a3", ply=4, id=9)
    assert last.events == (
        MoveMade(CODE, 1, 4, "first", "a3", T0),
        GameFinished(CODE, 1, "first", Termination.LINE, T0, ("a1", "a2", "a3")),
    )
    result = ResultInfo(winner="first", reason="line", line=["a1", "a2", "a3"])
    over = GameOver(room=CODE, result=result, moves="a1 b1 a2 b2 a3")
    board = ["X..", "XO.", "XO."]
    moved = Moved(room=CODE, ply=4, move="a3", side="first", board=board, legal=[])
    assert last.to(ANN) == [msgspec.structs.replace(moved, id=9), over]
    assert last.to(BOB) == last.to(CAT) == [moved, over]
    assert room.status == "finished" and room.state_for(CAT, now=T0).result == result
    assert [e.ply for e in events_of(outputs) if isinstance(e, MoveMade)] == [0, 1, 2, 3]


def test_a_full_board_without_a_line_is_a_draw() -> None:
    """Nine stones and no line: a draw by full board, no winner."""
    room = started_room()
    outputs = play_moves(room, "a1 b2 c3 b1 b3 a3 c1 c2 a2")
    assert outputs[-1].events[-1] == GameFinished(CODE, 1, None, Termination.FULL_BOARD, T0)
    (over,) = only(outputs[-1].to(BOB), GameOver)
    assert over.result == ResultInfo(winner=None, reason="full_board")


def test_the_endings_on_the_wire_are_the_records_terminations() -> None:
    """A game's end has one vocabulary: the room records a Termination (what the
    store takes) and sends its value as ``result.reason``, and docs/protocol.md, the
    bot authors' contract, lists exactly those values: an ending added to the enum
    and not to the contract, or the other way round, fails here."""
    text = (REPO_ROOT / "docs" / "protocol.md").read_text()
    sentence = text.split("`result.reason` is one of ", 1)[1].split(";", 1)[0]
    assert set(re.findall(r"`(\w+)`", sentence)) == {ending.value for ending in Termination}
    room = started_room()
    play_moves(room, "b2")
    output = room.handle(BOB, Resign(room=CODE), now=T0 + 3)
    (finished,) = output.events
    (over,) = only(output.to(ANN), GameOver)
    assert isinstance(finished, GameFinished)
    assert over.result.reason == finished.reason.value == "resignation"


def test_resignation_gives_the_game_to_the_opponent() -> None:
    """Resigning after a move ends the game for the other side, told to all."""
    room = started_room()
    play_moves(room, "b2")
    output = room.handle(BOB, Resign(room=CODE, id=4), now=T0 + 3)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.RESIGNATION, T0 + 3),)
    result = ResultInfo(winner="first", reason="resignation")
    assert output.to(BOB) == [GameOver(room=CODE, result=result, moves="b2", id=4)]
    assert output.to(ANN) == [GameOver(room=CODE, result=result, moves="b2")]


def test_resigning_before_the_first_move_aborts_the_game() -> None:
    """No move on the board: the game is aborted and nobody wins."""
    room = started_room()
    output = room.handle(ANN, Resign(room=CODE), now=T0)
    assert output.events == (GameFinished(CODE, 1, None, Termination.ABORTED, T0),)
    assert room.state_for(ANN, now=T0).result == ResultInfo(winner=None, reason="aborted")


# -- draws -----------------------------------------------------------------------------------


def test_draw_by_agreement() -> None:
    """An offer told to everyone, accepted by the opponent: a draw by agreement."""
    room = started_room()
    play_moves(room, "b2")
    offer = room.handle(ANN, OfferDraw(room=CODE, id=1), now=T0)
    assert offer.to(ANN) == [DrawOffered(room=CODE, side="first", id=1)]
    assert offer.to(BOB) == [DrawOffered(room=CODE, side="first")]
    assert room.state_for(BOB, now=T0).draw_offer == "first"
    accept = room.handle(BOB, AcceptDraw(room=CODE, id=2), now=T0)
    assert accept.events == (GameFinished(CODE, 1, None, Termination.AGREEMENT, T0),)
    (over,) = accept.to(ANN)
    assert isinstance(over, GameOver) and over.result.reason == "agreement"


def test_a_declined_offer_is_off_and_the_game_goes_on() -> None:
    """Declining tells everyone the offer is off; play continues."""
    room = started_room()
    room.handle(BOB, OfferDraw(room=CODE), now=T0)
    output = room.handle(ANN, DeclineDraw(room=CODE, id=3), now=T0)
    assert output.to(ANN) == [DrawDeclined(room=CODE, side="second", id=3)]
    assert output.to(BOB) == [DrawDeclined(room=CODE, side="second")]
    assert room.status == "playing" and room.state_for(ANN, now=T0).draw_offer is None


def test_moving_instead_of_answering_lapses_the_offer() -> None:
    """The side offered a draw moves: the offer lapses with draw_declined after the move."""
    room = started_room()
    room.handle(BOB, OfferDraw(room=CODE), now=T0)
    output = move(room, ANN, "b2")
    assert output.to(BOB) == [
        Moved(room=CODE, ply=0, move="b2", side="first", board=B2, legal=AFTER_B2),
        DrawDeclined(room=CODE, side="second"),
    ]
    assert room.state_for(ANN, now=T0).draw_offer is None


def test_the_offerers_own_move_keeps_the_offer_standing() -> None:
    """Offer then move (as in chess): the offer stands for the opponent to answer."""
    room = started_room()
    room.handle(ANN, OfferDraw(room=CODE), now=T0)
    move(room, ANN, "b2")
    assert room.state_for(BOB, now=T0).draw_offer == "first"


def test_offering_while_the_opponents_offer_stands_agrees() -> None:
    """Two offers meet: a draw by agreement."""
    room = started_room()
    room.handle(ANN, OfferDraw(room=CODE), now=T0)
    output = room.handle(BOB, OfferDraw(room=CODE), now=T0)
    assert output.events == (GameFinished(CODE, 1, None, Termination.AGREEMENT, T0),)


def test_offering_twice_repeats_the_offer_to_its_maker_only() -> None:
    """A second offer by the same side changes nothing and is echoed to it alone."""
    room = started_room()
    room.handle(ANN, OfferDraw(room=CODE), now=T0)
    before = snapshot(room)
    output = room.handle(ANN, OfferDraw(room=CODE, id=5), now=T0)
    assert output.messages == ((ANN, DrawOffered(room=CODE, side="first", id=5)),)
    assert snapshot(room) == before


def test_accepting_or_declining_with_no_offer_from_the_opponent_is_refused() -> None:
    """No offer, or one's own: no_draw_offer, and nothing changes."""
    room = started_room()
    refused(room, BOB, AcceptDraw(room=CODE, id=1), ErrorCode.NO_DRAW_OFFER)
    refused(room, BOB, DeclineDraw(room=CODE, id=2), ErrorCode.NO_DRAW_OFFER)
    room.handle(ANN, OfferDraw(room=CODE), now=T0)
    refused(room, ANN, AcceptDraw(room=CODE, id=3), ErrorCode.NO_DRAW_OFFER)
    refused(room, ANN, DeclineDraw(room=CODE, id=4), ErrorCode.NO_DRAW_OFFER)


# -- refused moves ---------------------------------------------------------------------


def test_a_full_connect4_column_is_refused_with_the_rules_message() -> None:
    """Column 4 holds six stones: illegal_move naming it and the columns with room."""
    room = started_room("connect4")
    play_moves(room, "4 4 4 4 4 4")
    message = refused(room, ANN, MakeMove(room=CODE, move="4", id=7), ErrorCode.ILLEGAL_MOVE)
    assert message == "column '4' is full: choose a column with room (1, 2, 3, 5, 6, 7)"


@pytest.mark.parametrize("text", ["z9", "hello", "b2"])
def test_moves_the_rules_refuse_are_illegal(text: str) -> None:
    """Off the board, not a move, an occupied cell: illegal_move, nothing changes."""
    room = started_room()
    play_moves(room, "b2")
    message = refused(room, BOB, MakeMove(room=CODE, move=text), ErrorCode.ILLEGAL_MOVE)
    assert repr(text) in message


def test_a_move_out_of_turn_is_refused() -> None:
    """Bob moves when it is Ann's turn: not_your_turn."""
    room = started_room()
    message = refused(room, BOB, MakeMove(room=CODE, move="b2", id=1), ErrorCode.NOT_YOUR_TURN)
    assert "first" in message


def test_a_move_for_a_ply_that_has_passed_is_stale() -> None:
    """A move naming ply 0 once ply 1 is in play: stale_move (even from the side to move)."""
    room = started_room()
    play_moves(room, "b2")
    refused(room, BOB, MakeMove(room=CODE, move="a1", ply=0), ErrorCode.STALE_MOVE)
    refused(room, BOB, MakeMove(room=CODE, move="a1", ply=2), ErrorCode.STALE_MOVE)
    assert move(room, BOB, "a1", ply=1).events[0] == MoveMade(CODE, 1, 1, "second", "a1", T0)


def test_requests_after_the_end_are_refused_as_game_over() -> None:
    """Moves, resignation and draw offers after the end: game_over."""
    room = started_room()
    play_moves(room, "a1 b1 a2 b2 a3")
    refused(room, BOB, MakeMove(room=CODE, move="c3"), ErrorCode.GAME_OVER)
    refused(room, BOB, Resign(room=CODE), ErrorCode.GAME_OVER)
    refused(room, ANN, OfferDraw(room=CODE), ErrorCode.GAME_OVER)
    refused(room, ANN, AcceptDraw(room=CODE), ErrorCode.GAME_OVER)


def test_requests_before_the_game_starts_are_refused() -> None:
    """Alone in the room: game_not_started for moves, resignation, draws and rematch."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    for request in (
        MakeMove(room=CODE, move="b2"),
        Resign(room=CODE),
        OfferDraw(room=CODE),
        DeclineDraw(room=CODE),
        Rematch(room=CODE),
    ):
        refused(room, ANN, request, ErrorCode.GAME_NOT_STARTED)


ACTIONS: list[RoomRequest] = [
    MakeMove(room=CODE, move="b2", id=1),
    Resign(room=CODE, id=2),
    OfferDraw(room=CODE, id=3),
    AcceptDraw(room=CODE, id=4),
    DeclineDraw(room=CODE, id=5),
    Rematch(room=CODE, id=6),
    AddAi(room=CODE, level="easy", id=7),
]


@pytest.mark.parametrize("request_", ACTIONS, ids=lambda r: type(r).__name__)
def test_a_spectator_cannot_act(request_: RoomRequest) -> None:
    """Every player action from a spectator: not_seated, nothing changes."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    assert "watching" in refused(room, CAT, request_, ErrorCode.NOT_SEATED)


@pytest.mark.parametrize(
    "request_",
    [*ACTIONS, Leave(room=CODE), SendChat(room=CODE, text="hi"), GetState(room=CODE)],
    ids=lambda r: type(r).__name__,
)
def test_a_client_outside_the_room_cannot_act(request_: RoomRequest) -> None:
    """Any request from a client neither seated nor watching: not_seated."""
    room = started_room()
    refused(room, DAN, request_, ErrorCode.NOT_SEATED)


def test_a_spectator_gets_the_full_state_and_every_event() -> None:
    """Watching mid-game gives the whole state; moves and the end follow."""
    room = started_room()
    play_moves(room, "a1 b1")
    output = room.watch(CAT, "cat", now=T0, request_id=3)
    (state,) = output.to(CAT)
    assert isinstance(state, State) and state.id == 3
    assert (state.room.moves, state.room.ply, state.room.to_move) == ("a1 b1", 2, "first")
    assert state.room.you is None and state.room.join_code is None
    assert state.room.watch_code is None
    outputs = play_moves(room, "a2 b2 a3")
    seen = [m for output in outputs for m in output.to(CAT)]
    assert [type(m) for m in seen] == [Moved, Moved, Moved, GameOver]


def test_a_third_player_finds_the_room_full() -> None:
    """Both seats taken: room_full, nothing changes."""
    room = started_room()
    before = snapshot(room)
    output = room.seat(CAT, "cat", PlayerKind.HUMAN, now=T0, request_id=8)
    assert [(r, m.code, m.id) for r, m in output.messages if isinstance(m, Error)] == [
        (CAT, ErrorCode.ROOM_FULL, 8)
    ]
    assert len(output.messages) == 1 and snapshot(room) == before


def test_joining_twice_resends_the_state() -> None:
    """A seated client joining or watching again keeps its seat and gets the state."""
    room = started_room()
    before = snapshot(room)
    assert room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0).messages == (
        (ANN, State(room=room.state_for(ANN, now=T0))),
    )
    assert room.watch(ANN, "ann", now=T0).to(ANN)[0] == State(room=room.state_for(ANN, now=T0))
    assert snapshot(room) == before


# -- the server AI -------------------------------------------------------------------------


def test_the_ai_takes_no_seat_as_a_client() -> None:
    """seat() is for people and bots: a client seated as the AI would have the engine
    move for it, so the room raises ValueError (add_ai seats the AI) and changes nothing."""
    room = new_room()
    before = snapshot(room)
    with pytest.raises(ValueError, match="add_ai"):
        room.seat(ANN, "ann", PlayerKind.AI, now=T0)
    assert snapshot(room) == before


def ai_room(*, creator_seat: str = "first", **options: Any) -> tuple[Room, Output]:
    room = new_room(creator_seat=creator_seat, **options)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    return room, room.add_ai("perfect", now=T0)


def test_the_ai_is_asked_to_move_when_it_is_its_turn() -> None:
    """Ann moves; the room asks the engine for the AI seat's move, once."""
    room, start = ai_room()
    assert start.ai_requests == () and room.state_for(ANN, now=T0).seats[1].kind == "ai"
    output = move(room, ANN, "b2")
    (request,) = output.ai_requests
    assert (request.game_name, request.moves, request.level) == ("tictactoe", "b2", "perfect")
    assert (request.game_number, request.ply, request.side) == (1, 1, "second")
    assert request.search_request().moves == "b2"
    assert room.tick(T0 + 1).ai_requests == ()


def test_an_ai_seated_first_is_asked_at_the_start() -> None:
    """The creator takes the second seat; the AI opens, so the start asks the engine."""
    _, start = ai_room(creator_seat="second")
    (request,) = start.ai_requests
    assert (request.ply, request.side, request.moves) == (0, "first", "")


def test_the_engines_answer_is_played_and_broadcast() -> None:
    """ai_moved at the asked ply plays the move, records it, and tells everyone."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    output = room.ai_moved(1, 1, "a1", now=T0 + 1)
    assert output.events == (MoveMade(CODE, 1, 1, "second", "a1", T0 + 1),)
    assert output.to(ANN) == [
        Moved(room=CODE, ply=1, move="a1", side="second", board=B2_A1, legal=AFTER_B2_A1)
    ]
    assert room.moves == "b2 a1"


def test_a_stale_engine_answer_is_ignored() -> None:
    """An answer for a ply not asked about, or given twice, changes nothing."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    for game_number, ply in ((1, 0), (1, 2), (2, 1)):
        before = snapshot(room)
        assert room.ai_moved(game_number, ply, "a1", now=T0) == Output(audience=frozenset({ANN}))
        assert snapshot(room) == before
    room.ai_moved(1, 1, "a1", now=T0)
    before = snapshot(room)
    assert room.ai_moved(1, 1, "c1", now=T0).messages == ()
    assert snapshot(room) == before


def test_an_answer_that_comes_after_the_game_moved_on_asks_again() -> None:
    """Ann resigns while the AI thinks; in the rematch the AI opens, but no second
    search starts until the first answers; its stale answer then asks for game 2."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    room.handle(ANN, Resign(room=CODE), now=T0)
    rematch = room.handle(ANN, Rematch(room=CODE), now=T0)
    assert room.game_number == 2 and room.side_of(ANN) == "second"
    assert rematch.ai_requests == ()
    output = room.ai_moved(1, 1, "a1", now=T0)
    assert output.messages == () and output.events == ()
    (request,) = output.ai_requests
    assert (request.game_number, request.ply, request.side) == (2, 0, "first")


def test_a_failed_or_illegal_engine_answer_plays_a_legal_move() -> None:
    """No answer (ai_failed) or a refused one: a random legal move keeps the game going."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    output = room.ai_moved(1, 1, "b2", now=T0)
    made = move_made(output)
    assert made.move_text != "b2"
    assert move(room, ANN, "c3" if made.move_text != "c3" else "a3").ai_requests
    assert move_made(room.ai_failed(1, 3, now=T0)).ply == 3


SEARCH = SearchInfo(
    summary="searched 812 positions in 3 ms, depth 7: proven draw",
    nodes=812,
    depth=7,
    elapsed_ms=3,
    nodes_per_second=270_666,
    exact=True,
    value="draw",
    pv=["a1", "c3"],
)


def test_the_engines_search_goes_out_with_its_move() -> None:
    """ai_moved with the search: the move's ``moved`` carries it, for the server to
    give whole to those who asked and without it to the rest (``without_search``)."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    output = room.ai_moved(1, 1, "a1", now=T0 + 1, search=SEARCH)
    moved = Moved(
        room=CODE,
        ply=1,
        move="a1",
        side="second",
        search=SEARCH,
        board=B2_A1,
        legal=AFTER_B2_A1,
    )
    assert output.to(ANN) == [moved]
    assert without_search(moved) == msgspec.structs.replace(moved, search=None)
    assert output.events == (MoveMade(CODE, 1, 1, "second", "a1", T0 + 1),)


def test_a_replaced_engine_move_goes_out_without_the_search() -> None:
    """The search is about the engine's move: when the rules refuse that move and a
    random one is played instead, the search would lie, so none is sent."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    output = room.ai_moved(1, 1, "b2", now=T0, search=SEARCH)
    (moved,) = [m for m in output.to(ANN) if isinstance(m, Moved)]
    assert moved.move != "b2" and moved.search is None


def test_the_search_of_an_answer_held_in_a_pause_goes_out_at_the_resume() -> None:
    """An answer kept through a pause keeps its search too."""
    room, _ = ai_room()
    move(room, ANN, "b2")
    room.pause(T0 + 1)
    assert room.ai_moved(1, 1, "a1", now=T0 + 2, search=SEARCH).messages == ()
    resumed = room.resume(T0 + 3)
    (moved,) = [m for m in resumed.to(ANN) if isinstance(m, Moved)]
    assert moved.search == SEARCH


def test_while_hints_are_off_the_ais_search_goes_out_without_its_line() -> None:
    """Hints off: the AI's move still comes with its figures and its own move,
    but not the line after it (its next move is the engine's move for Ann), to
    Ann and to Cat watching alike, and it says the line was left out. Hints on
    again: the next AI move comes with its whole line."""
    room, _ = ai_room(hints=False)
    room.watch(CAT, "cat", now=T0)
    move(room, ANN, "b2")
    output = room.ai_moved(1, 1, "a1", now=T0 + 1, search=SEARCH)
    hidden = msgspec.structs.replace(SEARCH, pv=["a1"], line_hidden=True)
    for client in (ANN, CAT):
        (moved,) = only(output.to(client), Moved)
        assert moved.search == hidden
        assert "c3" not in msgspec.json.encode(moved.search).decode()
    room.set_hints(True, now=T0 + 2)
    move(room, ANN, "c3", now=T0 + 3)
    whole = msgspec.structs.replace(SEARCH, pv=["c1", "a3"])
    (moved,) = only(room.ai_moved(1, 3, "c1", now=T0 + 4, search=whole).to(CAT), Moved)
    assert moved.search == whole


def test_an_ai_match_shows_its_whole_line_though_it_has_no_hints() -> None:
    """An AI match has no hints, but nobody there plays: its watchers see the line."""
    room, start = ai_match(pace=0.0)
    assert [request.ply for request in start.ai_requests] == [0]
    first = msgspec.structs.replace(SEARCH, pv=["b2", "a1"])
    (moved,) = only(room.ai_moved(1, 0, "b2", now=T0, search=first).to(ANN), Moved)
    assert moved.search == first


def test_search_info_is_the_engines_result_in_the_games_notation() -> None:
    """The wire form of a real search: figures as the engine counted them, the line
    in the game's notation starting with the move, and the one-line summary."""
    game = get_game("tictactoe")
    result = search(game, game.from_moves("b2 a1"), level="perfect")
    info = search_info(result, game)
    assert (info.nodes, info.depth, info.exact) == (result.nodes, result.depth, True)
    assert info.pv[0] == result.move_text and info.value == str(result.value)
    assert info.summary == summary(result) and info.elapsed_ms == round(result.elapsed * 1000)


def test_the_ai_declines_a_draw_at_once() -> None:
    """A draw offer to the AI is declined in the same output."""
    room, _ = ai_room()
    output = room.handle(ANN, OfferDraw(room=CODE), now=T0)
    assert output.to(ANN) == [
        DrawOffered(room=CODE, side="first"),
        DrawDeclined(room=CODE, side="first"),
    ]
    assert room.state_for(ANN, now=T0).draw_offer is None


def test_a_bad_ai_level_or_a_full_room_is_refused() -> None:
    """add_ai: bad_level for an unknown level, room_full with both seats taken."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    before = snapshot(room)
    output = room.add_ai("grandmaster", now=T0, by=ANN, request_id=1)
    assert len(output.messages) == 1
    assert [(m.code, m.id) for m in only(output.to(ANN), Error)] == [(ErrorCode.BAD_LEVEL, 1)]
    assert snapshot(room) == before
    with pytest.raises(ValueError, match="grandmaster"):
        room.add_ai("grandmaster", now=T0)
    room.add_ai("easy", now=T0, by=ANN)
    refused(room, ANN, AddAi(room=CODE, level="hard"), ErrorCode.ROOM_FULL)


# -- clocks ------------------------------------------------------------------------------------


def test_a_per_move_clock_flags_on_tick() -> None:
    """30 s per move: Bob, to move since T0+5, loses on time at T0+35 exactly."""
    room = started_room(clock=PER_MOVE)
    assert room.next_deadline == T0 + 30
    output = move(room, ANN, "b2", now=T0 + 5)
    assert output.next_deadline == T0 + 35
    (moved,) = only(output.to(BOB), Moved)
    assert moved.clocks == ClockState(first_ms=30_000, second_ms=30_000, running="second")
    assert move_made(output).clock_ms == 25_000
    assert room.tick(T0 + 34.9).events == ()
    late = room.tick(T0 + 40)
    assert late.events == (GameFinished(CODE, 1, "first", Termination.TIMEOUT, T0 + 35),)
    assert only(late.to(ANN), GameOver)[0].result.reason == "timeout"
    assert late.next_deadline is None
    assert room.state_for(ANN, now=T0 + 40).clocks == ClockState(first_ms=30_000, second_ms=0)


def test_a_move_after_the_flag_loses_on_time() -> None:
    """A move arriving after the flag (no tick in between): the timeout, then game_over."""
    room = started_room(clock=PER_MOVE)
    move(room, ANN, "b2", now=T0 + 5)
    output = move(room, BOB, "a1", now=T0 + 36, id=2)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.TIMEOUT, T0 + 35),)
    assert [type(m) for m in output.to(BOB)] == [GameOver, Error]
    assert only(output.to(BOB), Error)[0].code == ErrorCode.GAME_OVER


def test_a_flag_before_the_first_move_aborts() -> None:
    """Nobody moved within the first 30 s: aborted, no winner."""
    room = started_room(clock=PER_MOVE)
    assert room.tick(T0 + 30).events == (GameFinished(CODE, 1, None, Termination.ABORTED, T0 + 30),)


def test_increment_clock_arithmetic() -> None:
    """300 s + 2 s: time used is charged, the increment added after each move."""
    room = started_room(clock=FISCHER)
    first = move(room, ANN, "b2", now=T0 + 10)
    assert move_made(first).clock_ms == 290_000
    assert only(first.to(BOB), Moved)[0].clocks == ClockState(
        first_ms=292_000, second_ms=300_000, running="second"
    )
    second = move(room, BOB, "a1", now=T0 + 15)
    assert move_made(second).clock_ms == 295_000
    assert second.next_deadline == T0 + 15 + 292
    assert room.state_for(ANN, now=T0 + 20).clocks == ClockState(
        first_ms=287_000, second_ms=297_000, running="first"
    )
    assert room.tick(T0 + 15 + 292).events[0] == GameFinished(
        CODE, 1, "second", Termination.TIMEOUT, T0 + 307
    )


# -- dropped connections ---------------------------------------------------------------------


def test_a_drop_is_told_to_the_opponent_with_the_end_of_the_grace_window() -> None:
    """Bob drops: Ann hears that his seat is held until T0+61; the deadline follows."""
    room = started_room()
    play_moves(room, "b2")
    output = room.disconnected(BOB, now=T0 + 1)
    assert output.messages == (
        (ALL, PlayerStatus(room=CODE, side="second", connected=False, gone_until=T0 + 61)),
    )
    assert output.audience == {ANN} and output.next_deadline == T0 + 61
    seat = room.state_for(ANN, now=T0 + 1).seats[1]
    assert (seat.connected, seat.gone_until) == (False, T0 + 61)


def test_coming_back_within_the_grace_window_resends_the_state() -> None:
    """Bob returns in time: Ann hears he is back, Bob gets the whole state, play goes on."""
    room = started_room()
    play_moves(room, "b2")
    room.disconnected(BOB, now=T0 + 1)
    output = room.reconnected(BOB, now=T0 + 30)
    assert output.to(ANN) == [PlayerStatus(room=CODE, side="second", connected=True)]
    (state,) = output.to(BOB)
    assert isinstance(state, State) and state.room.moves == "b2" and state.room.you == "second"
    assert output.next_deadline is None
    assert room.tick(T0 + 100).events == ()
    assert move(room, BOB, "a1", now=T0 + 101).events


def test_the_end_of_the_grace_window_loses_the_game_by_abandonment() -> None:
    """Bob stays away: at T0+61 Ann wins by abandonment and Bob's seat is freed."""
    room = started_room()
    play_moves(room, "b2")
    room.disconnected(BOB, now=T0 + 1)
    assert room.tick(T0 + 60).events == ()
    output = room.tick(T0 + 90)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.ABANDONMENT, T0 + 61),)
    over, state = output.to(ANN)
    assert isinstance(over, GameOver) and over.result.winner == "first"
    assert isinstance(state, State) and state.room.seats[1].name is None
    assert room.side_of(BOB) is None and room.reconnected(BOB, now=T0 + 91).messages == ()


def test_when_both_players_are_gone_the_first_window_to_end_ends_the_game_without_a_winner() -> (
    None
):
    """Both drop: nobody waited, so nobody wins (abandonment, no winner), and the
    window ending later frees the other seat without a second result."""
    room = started_room()
    play_moves(room, "b2")
    room.disconnected(ANN, now=T0 + 1)
    room.disconnected(BOB, now=T0 + 2)
    output = room.tick(T0 + 61)
    assert output.events == (GameFinished(CODE, 1, None, Termination.ABANDONMENT, T0 + 61),)
    assert room.tick(T0 + 62).events == ()
    assert room.is_empty


def test_a_seat_held_in_a_waiting_room_is_freed_when_the_window_ends() -> None:
    """Before any game, the window ending just frees the seat; nobody wins anything."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.disconnected(ANN, now=T0)
    assert room.tick(T0 + 60).events == ()
    assert room.is_empty and room.next_deadline is None


def test_a_dropped_spectator_is_simply_gone() -> None:
    """A spectator's drop is not announced and holds nothing."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    output = room.disconnected(CAT, now=T0)
    assert output.messages == () and CAT not in room.members


def test_a_room_is_kept_for_a_dropped_spectator_to_see_how_its_game_ended() -> None:
    """Cat's connection drops mid-game; the game ends and both players leave
    while Cat is away. The room stays (not empty) for Cat's grace window: Cat,
    watching again, gets the finished game. When the window of the last drop
    ends with nobody there, the room is empty (the server drops it)."""
    room = started_room(grace_seconds=5.0)
    room.watch(CAT, "cat", now=T0)
    room.watch(DAN, "dan", now=T0)
    room.disconnected(CAT, now=T0 + 1)
    play_moves(room, "a1 b1 a2 b2 a3", now=T0 + 2)
    for client in (ANN, BOB):
        room.handle(client, Leave(room=CODE), now=T0 + 3)
    room.disconnected(DAN, now=T0 + 3)
    assert not room.is_empty and room.next_deadline == T0 + 8
    back = room.watch(CAT, "cat", now=T0 + 4)
    (state,) = only(back.to(CAT), State)
    assert state.room.status == "finished" and state.room.result is not None
    assert state.room.result.winner == "first"
    room.handle(CAT, Leave(room=CODE), now=T0 + 5)
    assert room.tick(T0 + 7.9).events == () and not room.is_empty  # Dan may come back
    room.tick(T0 + 8)
    assert room.is_empty and room.next_deadline is None


def test_a_spectator_dropped_before_any_game_keeps_nothing() -> None:
    """Before a game there is no ending to miss: the lone player's leave empties the room."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.watch(CAT, "cat", now=T0)
    room.disconnected(CAT, now=T0)
    room.handle(ANN, Leave(room=CODE), now=T0)
    assert room.is_empty and room.next_deadline is None


# -- rematch, leave, chat ---------------------------------------------------------------------


def test_a_rematch_swaps_colours_and_starts_game_two() -> None:
    """Both ask: game 2 starts, Bob now moves first, each hears the new state."""
    room = started_room()
    play_moves(room, "a1 b1 a2 b2 a3")
    ask = room.handle(ANN, Rematch(room=CODE, id=1), now=T0 + 5)
    assert ask.events == () and room.game_number == 1
    assert ask.to(BOB) == [RematchOffered(room=CODE, side="first")]
    output = room.handle(BOB, Rematch(room=CODE, id=2), now=T0 + 6)
    (started,) = output.events
    assert isinstance(started, GameStarted) and started.game_number == 2
    assert [s.name for s in started.seats] == ["bob", "ann"]
    (to_bob,) = output.to(BOB)
    assert isinstance(to_bob, State) and to_bob.id == 2
    assert (to_bob.room.you, to_bob.room.game_number, to_bob.room.moves) == ("first", 2, "")
    assert move(room, BOB, "b2", now=T0 + 7).events[0] == MoveMade(
        CODE, 2, 0, "first", "b2", T0 + 7
    )


def test_a_rematch_request_is_announced_to_everyone_and_kept_in_the_state() -> None:
    """Ann asks: she, Bob and a spectator hear who asked, and the state says so
    (for a client that reconnects) until the seat is freed."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    play_moves(room, "a1 b1 a2 b2 a3")
    ask = room.handle(ANN, Rematch(room=CODE, id=1), now=T0 + 5)
    offered = RematchOffered(room=CODE, side="first")
    assert ask.to(ANN) == [RematchOffered(room=CODE, side="first", id=1)]
    assert ask.to(BOB) == [offered] and ask.to(CAT) == [offered]
    assert room.state_for(BOB, now=T0 + 5).rematch_offer == "first"
    again = room.handle(ANN, Rematch(room=CODE, id=2), now=T0 + 6)
    assert again.messages == ((ANN, RematchOffered(room=CODE, side="first", id=2)),)
    room.handle(BOB, Leave(room=CODE), now=T0 + 7)
    assert room.state_for(ANN, now=T0 + 7).rematch_offer is None


def test_a_rematch_during_a_game_is_refused() -> None:
    """Rematch while game 1 is played: refused, nothing changes."""
    room = started_room()
    message = refused(room, ANN, Rematch(room=CODE), ErrorCode.GAME_IN_PROGRESS)
    assert "still being played" in message


def test_a_rematch_after_the_opponent_left_is_refused() -> None:
    """The other seat is empty: game_not_started until someone takes it."""
    room = started_room()
    room.handle(ANN, Resign(room=CODE), now=T0)
    room.handle(BOB, Leave(room=CODE), now=T0)
    refused(room, ANN, Rematch(room=CODE), ErrorCode.GAME_NOT_STARTED)


def test_leaving_a_game_in_progress_resigns_and_frees_the_seat() -> None:
    """Bob leaves mid-game: Ann wins by resignation; a newcomer's seat starts game 2."""
    room = started_room()
    play_moves(room, "b2")
    output = room.handle(BOB, Leave(room=CODE, id=6), now=T0 + 2)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.RESIGNATION, T0 + 2),)
    assert output.to(BOB)[1:] == [Left(room=CODE, id=6)]
    assert [type(m) for m in output.to(BOB)] == [GameOver, Left]
    assert [type(m) for m in output.to(ANN)] == [GameOver, State]
    assert BOB not in output.audience and room.side_of(BOB) is None
    join = room.seat(CAT, "cat", PlayerKind.HUMAN, now=T0 + 3)
    (started,) = join.events
    assert isinstance(started, GameStarted) and started.game_number == 2
    assert room.side_of(CAT) == "second"


def test_leaving_before_a_game_or_as_a_spectator_just_leaves() -> None:
    """A leaver gets ``left`` and nobody else hears of a spectator going; the
    lone player's leave empties the room."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.watch(CAT, "cat", now=T0)
    output = room.handle(CAT, Leave(room=CODE, id=3), now=T0)
    assert output.messages == ((CAT, Left(room=CODE, id=3)),)
    assert room.summary().spectators == 0
    output = room.handle(ANN, Leave(room=CODE), now=T0)
    assert output.events == () and output.messages == ((ANN, Left(room=CODE)),)
    assert room.is_empty and room.status == "waiting"


def test_chat_reaches_everyone_with_the_senders_name() -> None:
    """Players and spectators chat to all; the sender's copy echoes its id."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    output = room.handle(CAT, SendChat(room=CODE, text="good luck", id=3), now=T0)
    line = ChatLine(room=CODE, name="cat", text="good luck")
    assert output.to(ANN) == output.to(BOB) == [line]
    assert output.to(CAT) == [ChatLine(room=CODE, name="cat", text="good luck", id=3)]
    reply = room.handle(ANN, SendChat(room=CODE, text="gg"), now=T0)
    assert only(reply.to(CAT), ChatLine)[0].name == "ann"


@pytest.mark.parametrize(
    "text",
    ["\x1b]52;c;aGk=\x07", "\x1b[2J", "\x1b]0;pwned\x07", "two\nlines", "\u202egnp.exe"],
    ids=["osc52-clipboard", "clear-screen", "window-title", "newline", "rtl-override"],
)
def test_chat_with_control_characters_is_refused(text: str) -> None:
    """Terminal escapes and invisible controls never reach others' screens: ``bad_text``."""
    room = started_room()
    message = refused(room, ANN, SendChat(room=CODE, text=text, id=4), ErrorCode.BAD_TEXT)
    assert "control character" in message


def test_chat_keeps_emoji_sequences() -> None:
    """The zero-width joiner of an emoji sequence is not a control to refuse."""
    room = started_room()
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 gg"
    output = room.handle(ANN, SendChat(room=CODE, text=family), now=T0)
    assert output.to(BOB) == [ChatLine(room=CODE, name="ann", text=family)]


def test_get_state_answers_with_the_whole_room() -> None:
    """get_state: the receiver's own state, echoing its id."""
    room = started_room()
    output = room.handle(BOB, GetState(room=CODE, id="s"), now=T0)
    assert output.messages == ((BOB, State(room=room.state_for(BOB, now=T0), id="s")),)


# -- seats and options ---------------------------------------------------------------------------


def test_a_random_creator_seat_is_drawn_from_the_rng_at_the_start() -> None:
    """With seat random, the sides come from the seeded rng: both outcomes occur."""
    sides = set()
    for seed in range(10):
        room = new_room(creator_seat="random", seed=seed)
        room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
        assert room.side_of(ANN) == "first"  # provisional until the start
        room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
        sides.add(room.side_of(ANN))
    assert sides == {"first", "second"}


def test_the_creator_may_take_the_second_seat() -> None:
    """creator_seat second: the first occupant sits second, the joiner first."""
    room = new_room(creator_seat="second")
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    assert (room.side_of(ANN), room.side_of(BOB)) == ("second", "first")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"clock": Clock(kind="per_move")}, "per_move"),
        ({"clock": Clock(kind="increment")}, "initial"),
        ({"grace_seconds": 0}, "grace_seconds"),
        ({"creator_seat": "middle"}, "creator_seat"),
    ],
)
def test_options_that_do_not_fit_together_are_refused(options: dict[str, Any], field: str) -> None:
    """RoomOptions names the option at fault."""
    with pytest.raises(ValueError, match=field):
        RoomOptions(**options)


def test_broadcasts_resolve_against_the_audience() -> None:
    """Everyone(exclude=...) reaches the connected members except the one excluded."""
    line = ChatLine(room=CODE, name="ann", text="hi")
    output = Output(
        messages=((Everyone(exclude=ANN), line), (ANN, line)),
        audience=frozenset({ANN, BOB}),
    )
    assert output.recipients(ALL) == {ANN, BOB}
    assert output.to(ANN) == [line] and output.to(BOB) == [line]
    assert output.to(CAT) == []


def test_next_deadline_is_the_earliest_flag_or_window_end() -> None:
    """Flag at T0+30; Ann's window would end at T0+70: the flag comes first, then none."""
    room = started_room(clock=PER_MOVE)
    assert room.disconnected(ANN, now=T0 + 10).next_deadline == T0 + 30
    output = room.tick(T0 + 30)  # aborted on time; Ann's seat is still held
    assert output.next_deadline == T0 + 70
    assert room.tick(T0 + 70).next_deadline is None and room.side_of(ANN) is None


# -- restoring after a crash ---------------------------------------------------------------


def record_game(outputs: list[Output]) -> tuple[GameStarted, list[MoveMade]]:
    events = events_of(outputs)
    started = [e for e in events if isinstance(e, GameStarted)][-1]
    return started, [e for e in events if isinstance(e, MoveMade)]


def test_restoring_from_the_records_gives_the_same_room() -> None:
    """Rebuilt from its events, a room shows the same game and clocks, paused while down."""
    room = new_room("connect4", clock=FISCHER)
    outputs = [
        room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0),
        room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0),
    ]
    for i, column in enumerate("4453"):
        mover = ANN if i % 2 == 0 else BOB
        outputs.append(move(room, mover, column, now=T0 + 7 * (i + 1)))
    started, moves = record_game(outputs)
    restored = Room.restore(
        options=room.options, started=started, moves=moves, rng=random.Random(2)
    )
    live = room.state_for(ANN, now=T0 + 28)
    back = restored.state_for(ANN, now=T0 + 5000)  # down for a long time: paused
    assert [s.connected for s in back.seats] == [False, False]
    assert back.clocks == live.clocks
    assert msgspec.structs.replace(back, seats=[]) == msgspec.structs.replace(live, seats=[])
    resumed = restored.resume_after_restart(T0 + 5000)
    assert resumed.next_deadline == T0 + 5000 + 60  # the grace windows, before the flag
    (state,) = only(restored.reconnected(ANN, now=T0 + 5001).to(ANN), State)
    assert state.room.you == "first"
    restored.reconnected(BOB, now=T0 + 5001)
    # Ann took 7 s for each of her two moves: 300 - 7 + 2 - 7 + 2 = 290 s, from the resume.
    assert restored.next_deadline == T0 + 5000 + 290
    after = move(restored, ANN, "3", now=T0 + 5010)
    assert after.events == (MoveMade(CODE, 1, 4, "first", "3", T0 + 5010, 280_000),)


def test_a_game_keeps_its_players_names_after_they_leave() -> None:
    """``game_players`` names who played the last game, as it started: nobody
    before it, the same two once both have left (the room is empty), and the
    same in a room restored from the records."""
    room = new_room("tictactoe")
    assert room.game_players == {}
    outputs = [
        room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0),
        room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0),
    ]
    started, moves = record_game(outputs)
    for client in (ANN, BOB):
        room.handle(client, Leave(room=CODE), now=T0 + 1)
    assert room.is_empty and room.status == "finished" and not room.closed
    assert room.game_players == {"first": "ann", "second": "bob"}
    restored = Room.restore(
        options=room.options, started=started, moves=moves, rng=random.Random(2)
    )
    assert restored.game_players == {"first": "ann", "second": "bob"}


def test_the_state_of_a_finished_game_names_its_players_after_the_winner_leaves() -> None:
    """Ann wins and leaves: Bob's state has her seat empty, but ``game_players``
    still says who played each side (so his page can say "X ann wins"); it
    is left out before the first game."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    assert room.state_for(ANN, now=T0).game_players == {}
    assert "game_players" not in msgspec.json.encode(room.state_for(ANN, now=T0)).decode()
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    play_moves(room, "a1 b1 a2 b2 a3")
    left = room.handle(ANN, Leave(room=CODE), now=T0 + 1)
    (state,) = only(left.to(BOB), State)
    assert state.room.seats[0].name is None and state.room.result is not None
    assert state.room.result.winner == "first"
    assert state.room.game_players == {"first": "ann", "second": "bob"}
    room.rename(BOB, "Bobby", now=T0 + 2)  # the teacher's rename shows there too
    assert room.state_for(BOB, now=T0 + 2).game_players == {"first": "ann", "second": "Bobby"}


def test_restoring_a_finished_game_keeps_its_result() -> None:
    """A game with its GameFinished record comes back finished, ready for a rematch."""
    room = started_room()
    outputs = play_moves(room, "a1 b1 a2 b2 a3")
    started = GameStarted(
        CODE,
        "tictactoe",
        1,
        (
            SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
            SeatRecord("bob", PlayerKind.HUMAN, session=BOB),
        ),
        T0,
    )
    moves = [e for e in events_of(outputs) if isinstance(e, MoveMade)]
    finished = events_of(outputs)[-1]
    assert isinstance(finished, GameFinished)
    restored = Room.restore(
        options=RoomOptions(),
        started=started,
        moves=moves,
        finished=finished,
        rng=random.Random(1),
    )
    assert restored.state_for(None, now=T0).result == room.state_for(None, now=T0).result
    assert restored.resume_after_restart(T0 + 1).events == ()


def test_a_result_lost_in_the_crash_is_recorded_on_resume() -> None:
    """The winning move was stored but not the end: resume records the line win."""
    room = started_room()
    outputs = play_moves(room, "a1 b1 a2 b2 a3")
    moves = [e for e in events_of(outputs) if isinstance(e, MoveMade)]
    seats = (
        SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
        SeatRecord("bob", PlayerKind.HUMAN, session=BOB),
    )
    restored = Room.restore(
        options=RoomOptions(),
        started=GameStarted(CODE, "tictactoe", 1, seats, T0),
        moves=moves,
        rng=random.Random(1),
    )
    assert restored.status == "finished"
    assert restored.resume_after_restart(T0 + 9).events == (
        GameFinished(CODE, 1, "first", Termination.LINE, T0, ("a1", "a2", "a3")),
    )


def test_records_that_do_not_replay_are_refused() -> None:
    """A gap in the plies or an illegal move: ValueError, not a half-built room."""
    seats = (
        SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
        SeatRecord("AI", PlayerKind.AI, "easy"),
    )
    started = GameStarted(CODE, "tictactoe", 1, seats, T0)
    with pytest.raises(ValueError, match="ply 1"):
        Room.restore(
            options=RoomOptions(),
            started=started,
            moves=[
                MoveMade(CODE, 1, 0, "first", "b2", T0),
                MoveMade(CODE, 1, 2, "second", "a1", T0),
            ],
            rng=random.Random(1),
        )
    with pytest.raises(ValueError, match="taken"):
        Room.restore(
            options=RoomOptions(),
            started=started,
            moves=[
                MoveMade(CODE, 1, 0, "first", "b2", T0),
                MoveMade(CODE, 1, 1, "second", "b2", T0),
            ],
            rng=random.Random(1),
        )


@pytest.mark.parametrize(
    ("second", "fault"),
    [
        (SeatRecord("bob", PlayerKind.BOT), "seat second: a bot seat needs its session"),
        (SeatRecord("AI", PlayerKind.AI, "godlike"), "seat second: unknown AI level 'godlike'"),
        (SeatRecord("AI", PlayerKind.AI), "seat second: unknown AI level None"),
    ],
)
def test_seats_no_room_could_have_started_are_refused(second: SeatRecord, fault: str) -> None:
    """A stored seat is restored as the room wrote it: a person's or bot's with its
    session (who may reclaim it), the AI's with a level the engine plays;
    anything else is ValueError naming the seat."""
    seats = (SeatRecord("ann", PlayerKind.HUMAN, session=ANN), second)
    with pytest.raises(ValueError, match=fault.replace("(", r"\(")):
        Room.restore(
            options=RoomOptions(),
            started=GameStarted(CODE, "tictactoe", 1, seats, T0),
            moves=[],
            rng=random.Random(1),
        )


def test_a_restored_ai_to_move_is_asked_on_resume() -> None:
    """After a restart with the AI to move, resuming sends its engine request."""
    seats = (
        SeatRecord("ann", PlayerKind.HUMAN, session=ANN),
        SeatRecord("AI (easy)", PlayerKind.AI, "easy"),
    )
    restored = Room.restore(
        options=RoomOptions(),
        started=GameStarted(CODE, "tictactoe", 1, seats, T0),
        moves=[MoveMade(CODE, 1, 0, "first", "b2", T0)],
        rng=random.Random(1),
    )
    (request,) = restored.resume_after_restart(T0 + 100).ai_requests
    assert isinstance(request, AiRequest) and (request.ply, request.moves) == (1, "b2")


# -- AI matches -------------------------------------------------------------------------------


def ai_match(pace: float = 2.0, grace: float = 5.0) -> tuple[Room, Output]:
    """Ann watches an AI match (easy first, perfect second) at ``pace``: the
    room and the output of seating its second AI (the game's start)."""
    room = new_room(ai_match=True, ai_pace=pace, grace_seconds=grace)
    room.watch(ANN, "ann", now=T0)
    room.add_ai("easy", now=T0, side="first")
    return room, room.add_ai("perfect", now=T0, side="second")


def test_an_ai_match_asks_each_move_no_sooner_than_its_pace_after_the_last() -> None:
    """Both seats are the AI's; each request carries ``not_before``, the last
    move's time plus the pace (the search itself may start at once)."""
    room, started = ai_match(pace=2.0)
    (first,) = started.ai_requests
    assert (first.side, first.level, first.not_before) == ("first", "easy", T0 + 2.0)
    answered = room.ai_moved(1, 0, "b2", now=T0 + 2.5)
    (second,) = answered.ai_requests
    assert (second.side, second.level, second.not_before) == ("second", "perfect", T0 + 4.5)
    state = room.state_for(ANN, now=T0 + 3)
    assert state.ai_pace == 2.0 and state.you is None and state.watch_code == "WATCH1"
    assert state.join_code is None


def test_a_room_without_a_pace_asks_the_ai_for_an_answer_at_once() -> None:
    room, _ = ai_room()
    (request,) = move(room, ANN, "b2", now=T0 + 1).ai_requests
    assert request.not_before is None


def test_an_ai_match_nobody_watches_is_called_off_after_the_grace_window() -> None:
    """Ann leaves: the match goes on for the window, and a watcher coming back in
    time keeps it going; when nobody has watched for a whole window, the game
    ends aborted and the room is empty (the server drops it)."""
    room, _ = ai_match(grace=5.0)
    room.handle(ANN, Leave(room=CODE), now=T0 + 1)
    assert not room.is_empty and room.next_deadline == T0 + 6
    room.watch(BOB, "bob", now=T0 + 4)
    assert room.next_deadline is None
    assert room.tick(T0 + 7).events == ()
    room.disconnected(BOB, now=T0 + 8)
    assert room.tick(T0 + 12.9).events == ()
    called_off = room.tick(T0 + 13)
    (finished,) = called_off.events
    assert isinstance(finished, GameFinished)
    assert (finished.winner, finished.reason, finished.at) == (None, Termination.ABORTED, T0 + 13)
    assert room.is_empty and room.status == "finished"


def test_a_restored_ai_match_keeps_its_room_for_the_watchers_window_after_its_game_ends() -> None:
    """Restored mid-game, nobody watching (watchers are not kept): the window
    runs from the restart. The AIs finish the game within it: the room is not
    empty until the window ends (a watcher may come back to see the result);
    then it is, with the game's own ending, not ``aborted``."""
    room, started = ai_match(pace=0.0, grace=5.0)
    outputs = [started, room.ai_moved(1, 0, "a1", now=T0 + 1)]
    first_game, moves = record_game(outputs)
    restored = Room.restore(
        options=room.options, started=first_game, moves=moves, rng=random.Random(2)
    )
    restored.resume_after_restart(T0 + 100)
    assert not restored.is_empty and restored.next_deadline == T0 + 105
    for ply, move_text in enumerate(["b1", "a2", "b2", "a3"], start=1):
        restored.ai_moved(1, ply, move_text, now=T0 + 100 + ply)
    assert restored.status == "finished" and not restored.is_empty
    assert restored.tick(T0 + 104.9).events == () and not restored.is_empty
    assert restored.tick(T0 + 105).events == ()  # the game ended as it did
    assert restored.is_empty


def test_a_watcher_of_a_finished_ai_match_starts_the_next_with_sides_swapped() -> None:
    """Anyone watching may ask: both AIs agree at once. A non-match room still
    refuses a watcher's rematch."""
    room, _ = ai_match(pace=0.0)
    for ply, move in enumerate(["a1", "b1", "a2", "b2", "a3"]):
        room.ai_moved(1, ply, move, now=T0 + ply)
    assert room.status == "finished"
    output = room.handle(ANN, Rematch(room=CODE), now=T0 + 10)
    (state,) = [m for client, m in output.messages if client == ANN and isinstance(m, State)]
    assert state.room.game_number == 2 and state.room.status == "playing"
    assert [seat.level for seat in state.room.seats] == ["perfect", "easy"]
    (request,) = output.ai_requests
    assert (request.game_number, request.level) == (2, "perfect")
    plain = new_room()
    plain.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    plain.watch(ANN, "ann", now=T0)
    refused(plain, ANN, Rematch(room=CODE), ErrorCode.NOT_SEATED)


def test_ai_match_options_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="no clock"):
        RoomOptions(ai_match=True, clock=PER_MOVE)
    with pytest.raises(ValueError, match="pace"):
        RoomOptions(ai_match=True, ai_pace=10.5)


# -- hints -------------------------------------------------------------------------------------

HINT_SEARCH = SearchInfo(
    summary="s",
    nodes=1,
    depth=9,
    elapsed_ms=1,
    nodes_per_second=1,
    exact=True,
    value="draw",
    pv=["b2"],
)
"""What the engine says of its hint b2 on the empty board (made up, but well formed)."""


def test_the_player_to_move_gets_a_hint_alone_and_it_is_recorded() -> None:
    """Ann asks: the room asks the engine (perfect, for her, echoing her id);
    its answer goes to Ann alone, with its search, and is kept with the game."""
    room = started_room()
    room.watch(CAT, "cat", now=T0)
    asked = room.handle(ANN, AskHint(room=CODE, id=7), now=T0 + 1)
    (request,) = asked.ai_requests
    assert (request.hint_for, request.request_id, request.level) == (ANN, 7, "perfect")
    assert (request.ply, request.side, request.moves) == (0, "first", "")
    assert asked.messages == () and asked.events == ()
    search = HINT_SEARCH
    given = room.hint_found(ANN, 1, 0, "b2", search, now=T0 + 2, request_id=7)
    assert given.messages == ((ANN, Hint(room=CODE, ply=0, move="b2", search=search, id=7)),)
    (event,) = given.events
    assert event == HintGiven(CODE, 1, 0, "first", "b2", T0 + 2)


@pytest.mark.parametrize(
    ("who", "setup", "code"),
    [
        (BOB, "started", ErrorCode.NOT_YOUR_TURN),
        (CAT, "started", ErrorCode.NOT_SEATED),
        (ANN, "waiting", ErrorCode.GAME_NOT_STARTED),
        (ANN, "paused", ErrorCode.PAUSED),
        (ANN, "hints off", ErrorCode.HINTS_OFF),
        (ANN, "pending", ErrorCode.ENGINE_BUSY),
        (ANN, "over", ErrorCode.GAME_OVER),
    ],
)
def test_a_hint_asked_out_of_turn_or_place_is_refused_and_changes_nothing(
    who: ClientId, setup: str, code: ErrorCode
) -> None:
    room = new_room() if setup == "waiting" else started_room()
    if setup == "waiting":
        room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.watch(CAT, "cat", now=T0)
    if setup == "paused":
        room.pause(T0)
    if setup == "hints off":
        room.set_hints(False, now=T0)
    if setup == "pending":
        room.handle(ANN, AskHint(room=CODE), now=T0)
    if setup == "over":
        room.handle(ANN, Resign(room=CODE), now=T0)
    refused(room, who, AskHint(room=CODE, id=3), code, now=T0 + 1)


def test_a_hint_that_comes_after_the_game_moved_on_is_not_given() -> None:
    """Ann asks, then moves before the answer: the answer is for a position that
    is gone, so she is told so, and nothing is recorded; she may ask again."""
    room = started_room()
    room.handle(ANN, AskHint(room=CODE, id=1), now=T0)
    move(room, ANN, "a1", now=T0 + 1)
    search = HINT_SEARCH
    late = room.hint_found(ANN, 1, 0, "b2", search, now=T0 + 2, request_id=1)
    assert late.events == ()
    ((client, error),) = late.messages
    assert client == ANN and isinstance(error, Error) and error.code == ErrorCode.STALE_MOVE
    assert room.handle(BOB, AskHint(room=CODE), now=T0 + 3).ai_requests != ()


def test_a_hint_that_comes_after_hints_were_turned_off_is_not_given() -> None:
    """Ann asks; the teacher turns hints off while the engine searches: its answer
    is kept from her (``hints_off``, echoing her id), nothing is recorded, and
    once hints are on again she may ask again."""
    room = started_room()
    room.handle(ANN, AskHint(room=CODE, id=4), now=T0)
    room.set_hints(False, now=T0 + 1)
    late = room.hint_found(ANN, 1, 0, "b2", HINT_SEARCH, now=T0 + 2, request_id=4)
    assert late.events == ()
    ((client, error),) = late.messages
    assert client == ANN and isinstance(error, Error)
    assert (error.code, error.id) == (ErrorCode.HINTS_OFF, 4)
    room.set_hints(True, now=T0 + 3)
    assert room.handle(ANN, AskHint(room=CODE), now=T0 + 4).ai_requests != ()


def test_the_teachers_switch_tells_everyone_and_an_ai_match_has_no_hints() -> None:
    room = started_room()
    off = room.set_hints(False, now=T0)
    states = [m for _, m in off.messages if isinstance(m, State)]
    assert states and all(not s.room.hints for s in states)
    assert room.set_hints(False, now=T0).messages == ()  # no change, nothing said
    assert room.state_for(ANN, now=T0).hints is False
    match, _ = ai_match()
    assert match.state_for(ANN, now=T0).hints is False


# -- undoing an input the store refused --------------------------------------------------


def test_rollback_undoes_a_winning_move_and_the_same_move_plays_again() -> None:
    """A snapshot taken before a move, rolled back after it: the room is as before
    (its every part and its random source), and the move, sent again, plays the
    same way: what the adapter does when the store refuses a move for now."""
    room = started_room()
    play_moves(room, "a1 b1 a2 b2")
    before = snapshot(room)
    taken = room.snapshot()
    first = move(room, ANN, "a3", ply=4)
    assert room.status == "finished"
    room.rollback(taken)
    assert snapshot(room) == before
    assert room.status == "playing" and room.moves == "a1 b1 a2 b2"
    assert move(room, ANN, "a3", ply=4) == first


def test_saving_paused_stops_everyones_clock_and_the_resumption_runs_it_on_from_there() -> None:
    """The first hold (the store refused a move) tells both players, with the
    whole state: ``saving_paused``, Bob's 25 s standing, ``clocks.running`` null
    so their clocks stop counting down. A second hold says nothing, nor a hold
    again after an input that stored nothing. An hour of outage costs Bob no time
    and no game on time. Once an input is stored again, ``saving_resumed`` sends
    the state without the pause, his move made in his 25 s and Ann's clock running."""
    room = started_room(clock=PER_MOVE)
    move(room, ANN, "b2", now=T0 + 5)
    held = room.hold_clock(T0 + 10)
    assert held.events == () and room.saving_paused
    states = {client: message for client, message in held.messages if isinstance(message, State)}
    assert set(states) == {ANN, BOB}
    for state in states.values():
        assert state.room.saving_paused
        assert state.room.clocks is not None and state.room.clocks.running is None
        assert state.room.clocks.second_ms == 25_000
    assert room.hold_clock(T0 + 12).messages == ()  # told once
    assert room.tick(T0 + 3600).events == ()  # no flag falls for the outage
    room.release_clock(T0 + 3600)  # an input the store refuses again: held again, quietly
    assert room.hold_clock(T0 + 3600, tell=False).messages == () and room.saving_paused
    shown = room.state_for(BOB, now=T0 + 3600)
    assert shown.saving_paused and shown.clocks is not None
    assert (shown.clocks.second_ms, shown.clocks.running) == (25_000, None)

    room.release_clock(T0 + 3600)  # for an input: Bob's move, stored this time
    stored = move(room, BOB, "a1", now=T0 + 3601)
    assert move_made(stored).ply == 1 and not room.saving_paused
    resumed = room.saving_resumed(T0 + 3601)
    after = only([message for _, message in resumed.messages], State)
    assert len(after) == 2
    for state in after:
        assert not state.room.saving_paused and state.room.clocks is not None
        assert state.room.clocks.running == "first"  # Ann's turn, her 30 s running
        assert state.room.clocks.first_ms == 30_000
    assert "saving_paused" not in msgspec.json.decode(msgspec.json.encode(after[0].room))


def test_a_held_clock_charges_nobody_until_released_and_leaves_the_teachers_pause_alone() -> None:
    """hold_clock (the adapter's, while the store refuses moves) stops Bob's clock
    at T0+10 with 25 s left; an hour later nothing has flagged and he still has
    25 s once released. During the teacher's pause both do nothing: the resume
    is the teacher's."""
    room = started_room(clock=PER_MOVE)
    move(room, ANN, "b2", now=T0 + 5)
    room.hold_clock(T0 + 10)
    assert room.next_deadline is None
    assert room.tick(T0 + 3600).events == ()
    room.release_clock(T0 + 3600)
    assert room.next_deadline == T0 + 3600 + 25
    room.pause(T0 + 3601)
    room.release_clock(T0 + 3602)
    assert room.next_deadline is None  # still the teacher's pause
    room.hold_clock(T0 + 3603)
    room.resume(T0 + 3700)
    assert room.next_deadline == T0 + 3700 + 24
