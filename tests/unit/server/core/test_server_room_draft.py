"""The draft a room input writes into: replies with ids, and a refusal's clean slate."""

from __future__ import annotations

import pytest

from boardroom.server.core.room_draft import Draft, RefusedError, chat_text, with_id
from boardroom.server.core.room_output import ALL, AiRequest, ClientId, Everyone, HintGiven
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import ChatLine, Left

ANN = ClientId("ann")
LINE = ChatLine(room="K7Q2", name="ann", text="hello")


def test_an_announcement_carries_the_id_to_its_requester_only() -> None:
    out = Draft()
    out.announce(LINE, ANN, 4)
    out.announce(LINE, None, 5)
    assert out.messages == [
        (ANN, with_id(LINE, 4)),
        (Everyone(exclude=ANN), LINE),
        (ALL, LINE),
    ]
    assert with_id(LINE, None) is LINE


def test_dropping_since_a_mark_forgets_only_what_came_after() -> None:
    out = Draft()
    out.send(ANN, Left(room="K7Q2"))
    mark = out.mark()
    out.send(ALL, LINE)
    out.events.append(HintGiven("K7Q2", 1, 0, "first", "b2", 0.0))
    request = AiRequest("K7Q2", "tictactoe", "", "easy", 1, 0, "first", seed=1, clock_left=None)
    out.ai_requests.append(request)
    out.drop_since(mark)
    assert out == Draft(messages=[(ANN, Left(room="K7Q2"))])


def test_chat_that_others_screens_may_not_print_is_refused() -> None:
    assert chat_text("hello") == "hello"
    with pytest.raises(RefusedError) as refusal:
        chat_text("\x1b[2J")
    assert refusal.value.code is ErrorCode.BAD_TEXT
