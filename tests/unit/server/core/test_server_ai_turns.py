"""The engine's turns alone: when the AI is asked, what it is told, and its answers.

:class:`AiTurns` is handed the seats and the game; these tests build both by
hand (no room), so what is asked, kept, settled or refused is all there is.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from refusals import refused_unchanged

from boardroom.server.core.ai_turns import AiTurns, answers_position, move_to_play
from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.records import PlayerKind, SeatRecord
from boardroom.server.core.room_draft import Draft
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import AiRequest, ClientId, HintGiven
from boardroom.server.core.seating import Occupant, Seating
from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import Error, Hint, MakeMove, SearchInfo

ANN = ClientId("ann")
T0 = 1_700_000_000.0
CODE = "K7Q2"
AI = Occupant(client=None, name="AI (easy)", kind=PlayerKind.AI, level="easy")
HUMAN = Occupant(client=ANN, name="ann", kind=PlayerKind.HUMAN)
SEARCH = SearchInfo(
    summary="searched 120 positions",
    nodes=120,
    depth=3,
    elapsed_ms=1,
    nodes_per_second=120_000,
    exact=False,
    value="+0.10",
    pv=["b2"],
)


def table(first: Occupant, second: Occupant, **options: Any) -> tuple[GameInPlay, Seating]:
    """A game started at T0 between ``first`` and ``second``."""
    room_options = RoomOptions(**options)
    seats = Seating(CODE, room_options, seats={"first": first, "second": second})
    play = GameInPlay.new(CODE, get_game("tictactoe"), room_options)
    play.start(seats.records(), T0, Draft(), paused=False)
    return play, seats


def move(play: GameInPlay, text: str, now: float = T0) -> None:
    side = play.to_move
    play.play(
        side, play.require_turn(side, MakeMove(room=CODE, move=text)), now, Draft(), None, None
    )


def test_the_ai_is_asked_once_when_it_is_to_move() -> None:
    play, seats = table(AI, HUMAN)
    turns, out = AiTurns(), Draft()
    turns.request(play, seats, random.Random(1), T0, out, paused=False)
    turns.request(play, seats, random.Random(1), T0, out, paused=False)  # one at a time
    (request,) = out.ai_requests
    assert (request.level, request.side, request.game_number, request.ply) == (
        "easy",
        "first",
        1,
        0,
    )
    assert request.not_before is None and turns.pending == (1, 0)


def test_the_ai_is_not_asked_for_a_person_nor_in_a_pause() -> None:
    play, seats = table(HUMAN, AI)
    turns, out = AiTurns(), Draft()
    turns.request(play, seats, random.Random(1), T0, out, paused=False)
    move(play, "b2")
    turns.request(play, seats, random.Random(1), T0, out, paused=True)
    assert out.ai_requests == [] and turns.pending is None


def test_an_ai_match_paces_its_moves_from_the_last_one() -> None:
    play, seats = table(AI, AI, ai_match=True, ai_pace=2.5)
    out = Draft()
    AiTurns().request(play, seats, random.Random(1), T0 + 1, out, paused=False)
    assert out.ai_requests[0].not_before == T0 + 2.5  # the game started at T0


def test_an_answer_in_a_pause_is_kept_and_still_pending() -> None:
    turns = AiTurns(pending=(1, 4))
    assert not turns.hold(1, 3, "a1", None, paused=True)  # not the one awaited
    assert not turns.hold(1, 4, "a1", None, paused=False)
    assert turns.hold(1, 4, "a1", SEARCH, paused=True)
    assert turns.pending == (1, 4)
    assert turns.release_held() == (1, 4, "a1", SEARCH)
    assert turns.release_held() is None


def test_an_answer_settles_only_the_search_it_answers() -> None:
    turns = AiTurns(pending=(2, 0))
    assert not turns.settle(1, 0)
    assert turns.settle(2, 0) and turns.pending is None
    assert not turns.settle(2, 0)  # answered already


def test_a_stale_answer_is_not_for_the_position_in_play() -> None:
    play, seats = table(AI, HUMAN)
    assert answers_position(play, seats, 1, 0)
    move(play, "b2")
    assert not answers_position(play, seats, 1, 0)  # the game moved on
    assert not answers_position(play, seats, 1, 1)  # a person is to move


def test_a_refused_or_missing_move_is_replaced_by_a_random_legal_one() -> None:
    play, _ = table(AI, HUMAN)
    game = play.game
    chosen, search = move_to_play(play, "b2", SEARCH, random.Random(1))
    assert game.format_move(chosen) == "b2" and search == SEARCH
    legal = {game.format_move(m) for m in game.legal_moves(play.position)}
    for text in ("z9", None):
        chosen, search = move_to_play(play, text, SEARCH, random.Random(1))
        assert game.format_move(chosen) in legal and search is None


def test_a_hint_is_asked_for_the_side_to_move_one_at_a_time_while_allowed() -> None:
    play, _ = table(HUMAN, AI)
    turns, out, rng = AiTurns(), Draft(), random.Random(1)

    def ask(side: Player = Player.FIRST, allowed: bool = True) -> None:
        turns.ask_hint(side, play, rng, T0, out, allowed=allowed, client=ANN, request_id=5)

    refused_unchanged(turns, ErrorCode.HINTS_OFF, lambda: ask(allowed=False))
    refused_unchanged(turns, ErrorCode.NOT_YOUR_TURN, lambda: ask("second"))
    ask()
    (request,) = out.ai_requests
    assert isinstance(request, AiRequest)
    assert (request.level, request.hint_for, request.request_id) == ("perfect", ANN, 5)
    refused_unchanged(turns, ErrorCode.ENGINE_BUSY, ask)


def test_a_hint_goes_to_its_asker_if_still_current_and_is_recorded() -> None:
    play, _ = table(HUMAN, AI)
    turns, out = AiTurns(hint_pending=True), Draft()
    args = (ANN, "first", play, 1, 0, "b2", SEARCH, T0 + 1, out)
    turns.hint_found(*args, allowed=True, request_id=5)
    assert not turns.hint_pending
    assert out.events == [HintGiven(CODE, 1, 0, "first", "b2", T0 + 1)]
    assert out.messages == [(ANN, Hint(room=CODE, ply=0, move="b2", search=SEARCH, id=5))]


@pytest.mark.parametrize(
    ("allowed", "ply", "code"),
    [(False, 0, ErrorCode.HINTS_OFF), (True, 1, ErrorCode.STALE_MOVE)],
)
def test_a_hint_turned_off_or_too_late_is_refused_and_not_recorded(
    allowed: bool, ply: int, code: ErrorCode
) -> None:
    play, _ = table(HUMAN, AI)
    turns, out = AiTurns(hint_pending=True), Draft()
    turns.hint_found(
        ANN, "first", play, 1, ply, "b2", SEARCH, T0, out, allowed=allowed, request_id=5
    )
    assert out.events == [] and not turns.hint_pending
    ((recipient, error),) = out.messages
    assert recipient == ANN and isinstance(error, Error) and (error.code, error.id) == (code, 5)


def test_closing_forgets_what_the_ai_was_asked() -> None:
    turns = AiTurns(pending=(1, 2), held=(1, 2, None, None))
    turns.forget()
    assert turns == AiTurns()


def test_the_records_name_the_ai_seat() -> None:
    _, seats = table(AI, HUMAN)
    first, _ = seats.records()
    assert first == SeatRecord("AI (easy)", PlayerKind.AI, "easy", None, None)
