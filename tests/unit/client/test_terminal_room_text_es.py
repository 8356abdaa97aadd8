"""The room in words in Spanish (``--lang es``, ``LANG=es_ES.UTF-8``): the status
line, the turn, how a game ended, ``why`` and the AI's seats, each a whole
sentence of the catalogue (tests/unit/client/test_terminal_room_text.py is the
English)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from room_states import room_in_play

from boardroom.client.errors import RequestRefusedError
from boardroom.client.refusals import REFUSALS, move_refusal_text, refusal_text
from boardroom.client.terminal.commands import HELP_WIDTH, lobby_help, room_help, spectator_help
from boardroom.client.terminal.room_screen import hint_text
from boardroom.client.terminal.room_text import (
    rematch_text,
    result_line,
    result_text,
    search_text,
    seat_text,
    status_line,
)
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games import Player
from boardroom.shared.i18n import translator, use_language
from boardroom.shared.protocol.messages import Hint, Moved, ResultInfo, SearchInfo, SeatInfo

ANN = SeatInfo(side=Player.FIRST, name="ann", kind="human", connected=True)
BOB = SeatInfo(side=Player.SECOND, name="bob", kind="human", connected=True)
AI = SeatInfo(side=Player.SECOND, name="AI (hard)", kind="ai", level="hard", connected=True)
SEARCH = SearchInfo(
    summary="searched 1.2 M positions in 0.84 s, depth 14: sees a win in 9",
    nodes=1_234_567,
    depth=14,
    elapsed_ms=840,
    nodes_per_second=1_469_722,
    exact=True,
    value="win in 9",
    pv=["4", "4", "3"],
)


@pytest.fixture(autouse=True)
def spanish() -> Iterator[None]:
    with use_language("es"):
        yield


def room(**fields: Any) -> TrackedRoom:
    """A tic-tac-toe room in play, ann (X, you) against bob, with ``fields`` changed."""
    return TrackedRoom(room_in_play(**{"code": "C9FVBQ", "seats": [ANN, BOB], **fields}))


def finished(result: ResultInfo, **fields: Any) -> TrackedRoom:
    return room(status="finished", to_move=None, result=result, **fields)


def plain(text: str) -> str:
    """``text`` with Babel's no-break spaces (``1,2 M``) as spaces, as a reader sees them."""
    return text.replace("\xa0", " ").replace("\u202f", " ")


def test_the_status_line_says_the_seats_and_the_turn_in_spanish() -> None:
    assert status_line(room()).endswith(", sala C9FVBQ | X ann (tú) | O bob | te toca")
    assert status_line(room(moves="b2", ply=1, to_move=Player.SECOND)).endswith("| turno de O")
    waiting = room(status="waiting", to_move=None, seats=[ANN, SeatInfo(side=Player.SECOND)])
    assert status_line(waiting).endswith("| X ann (tú) | O (puesto libre) | esperando rival")


def test_the_ais_seat_says_its_level_in_words() -> None:
    """The server names the seat ``AI (hard)``: a code on the wire, words on the screen."""
    assert seat_text(room(seats=[ANN, AI]), Player.SECOND) == "O IA (difícil)"


def test_a_seat_the_autopilot_plays_says_whose_it_is_and_the_level() -> None:
    """Bob's window ran out and the engine plays for him (``autopilot: medium``)."""
    away = SeatInfo(side=Player.SECOND, name="bob", kind="human", autopilot="medium")
    assert seat_text(room(seats=[ANN, away]), Player.SECOND) == "O IA por bob (medio)"


def test_a_draw_offer_and_a_pause_are_said_in_spanish() -> None:
    offered = room(moves="b2", ply=1, to_move=Player.SECOND, draw_offer=Player.SECOND)
    assert status_line(offered).endswith("| turno de O, O bob ofrece empate: accept o decline")
    paused = room(paused=True)
    assert status_line(paused).endswith(
        "| en pausa por tu docente (te toca cuando se reanuden las partidas)"
    )
    assert status_line(paused, held="c3").endswith(
        "| en pausa por tu docente: tu jugada c3 queda retenida"
    )
    saving = room(saving_paused=True)
    assert status_line(saving).endswith(
        "| te toca (guardado en pausa: los relojes están detenidos)"
    )


@pytest.mark.parametrize(
    ("result", "you_see", "bob_sees"),
    [
        (ResultInfo(winner=Player.FIRST, reason="resignation"), "Ganas tú: O bob abandonó",
         "Gana X ann: abandonaste"),
        (ResultInfo(winner=Player.FIRST, reason="timeout"), "Ganas tú por tiempo",
         "Gana X ann por tiempo"),
        (ResultInfo(winner=Player.FIRST, reason="abandonment"),
         "Ganas tú: O bob se fue y no volvió", "Gana X ann: te fuiste y no volviste"),
        (ResultInfo(winner=None, reason="full_board"), "Empate: el tablero está lleno",
         "Empate: el tablero está lleno"),
        (ResultInfo(winner=None, reason="agreement"), "Empate de común acuerdo",
         "Empate de común acuerdo"),
    ],
)  # fmt: skip
def test_a_result_is_said_to_each_player_in_spanish(
    result: ResultInfo, you_see: str, bob_sees: str
) -> None:
    assert result_text(finished(result)) == you_see
    assert result_text(finished(result, you=Player.SECOND)) == bob_sees


def test_a_line_is_said_with_its_length_in_words() -> None:
    line = ResultInfo(winner=Player.SECOND, reason="line", line=["a1", "b2", "c3"])
    assert result_text(finished(line)) == "Gana O bob: tres en línea a1-b2-c3"


def test_the_result_line_gives_the_games_id_and_the_review_command() -> None:
    over = finished(ResultInfo(winner=Player.FIRST, reason="resignation"), game_id=12)
    assert result_line(over, server_url="ws://10.0.0.5:8765/ws") == (
        "Resultado: Ganas tú: O bob abandonó (partida #12: boardroom review 12 --server 10.0.0.5)"
    )


def test_a_rematch_request_is_said_in_spanish() -> None:
    over = finished(
        ResultInfo(winner=Player.FIRST, reason="resignation"), rematch_offer=Player.SECOND
    )
    assert rematch_text(over, Player.SECOND) == (
        "bob pide la revancha: escribe rematch (o r) para jugar otra vez, con los lados cambiados."
    )
    assert status_line(over).endswith(
        "| partida terminada: bob pide la revancha: rematch (r) o leave"
    )


def test_why_says_the_search_in_spanish_with_spanish_numbers() -> None:
    """The glossary's own line: positions in the locale's short form, depth, the win."""
    moved = Moved(room="C9FVBQ", ply=1, move="4", side=Player.SECOND, search=SEARCH)
    said = plain(search_text(room(seats=[ANN, AI]), moved)).splitlines()
    assert said == [
        "O IA (difícil) jugó 4: búsqueda de 1,2 M posiciones en 0,84 s, profundidad 14: gana en 9",
        "  línea prevista: 4 4 3 (1,5 M posiciones por segundo)",
    ]
    assert search_text(room(), None).startswith("Aún no hay jugada de la IA que explicar")


def test_a_hint_says_its_move_its_value_and_the_search_in_spanish() -> None:
    hint = Hint(room="C9FVBQ", ply=0, move="4", search=SEARCH)
    assert plain(hint_text(hint)) == (
        "Pista: 4 (victoria en 9): búsqueda de 1,2 M posiciones en 0,84 s, profundidad 14: "
        "gana en 9"
    )


def test_a_refusal_is_said_from_its_code_and_a_refused_move_from_the_rules() -> None:
    """The server's English message is the fallback for a code the client does not know."""
    refused = RequestRefusedError("not_your_turn", "it is not your turn (X to move)")
    assert refusal_text(refused) == "No es tu turno."
    unknown = RequestRefusedError("something_new", "a new refusal")
    assert refusal_text(unknown) == "a new refusal"
    taken = IllegalMoveError("'b2' is taken", move_text="b2", reason=IllegalMoveReason.OCCUPIED)
    illegal = RequestRefusedError("illegal_move", "'b2' is taken: X already has a stone there")
    assert move_refusal_text(illegal, taken) == "'b2' está ocupada: elige una casilla vacía."


def test_every_refusal_code_the_protocol_has_is_translated() -> None:
    from boardroom.shared.protocol.errors import ErrorCode

    assert set(REFUSALS) == {code.value for code in ErrorCode}
    spanish = translator("es")
    for message in REFUSALS.values():
        assert spanish.gettext(message) != message, message


@pytest.mark.parametrize("help_text", [lobby_help, room_help, spectator_help])
def test_the_help_in_spanish_fits_80_columns_and_keeps_the_commands_english(
    help_text: Any,
) -> None:
    """Spanish words are longer: every line still fits; the words typed stay English."""
    text = help_text()
    assert all(len(line) <= HELP_WIDTH for line in text.splitlines()), text
    assert "  help" in text and "esta lista" in text


def test_the_room_help_in_spanish_says_what_each_command_does() -> None:
    text = room_help()
    assert text.startswith("En una sala, escribe una jugada para hacerla")
    assert "abandona la partida" in text and "why, info" in text
