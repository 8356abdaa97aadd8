"""A tournament's end or cancel as a code (the server's ``announcement``'s
``kind``, ``tournament_name``, ``winners``, ``points``; ``round`` and ``players``
for a game played again): the server's English
``text`` (byte for byte what it always said) and a Python client's words in
the reader's language."""

from __future__ import annotations

import pytest

from boardroom.client.announcements import announcement_text
from boardroom.shared.i18n import use_language
from boardroom.shared.protocol.messages import Announcement
from boardroom.shared.protocol.tournament_ending import TournamentEnding

CASES = [
    (
        TournamentEnding.over("Cup", ["ann"], 1.0),
        'Tournament "Cup" is over: ann wins with 1 point.',
        "El torneo «Cup» terminó: gana ann con 1 punto.",
    ),
    (
        TournamentEnding.over("Cup", ["ann"], 2.0),
        'Tournament "Cup" is over: ann wins with 2 points.',
        "El torneo «Cup» terminó: gana ann con 2 puntos.",
    ),
    (
        TournamentEnding.over("Cup", ["ann", "bob", "cat"], 1.5),
        'Tournament "Cup" is over: ann and bob and cat share first place with 1.5 points.',
        "El torneo «Cup» terminó: ann, bob y cat comparten el primer puesto con 1,5 puntos.",
    ),
    (
        TournamentEnding.cancelled("Cup"),
        "The tournament Cup was cancelled by the teacher.",
        "Tu docente canceló el torneo Cup.",
    ),
    (
        TournamentEnding.paused("Cup"),
        "The tournament Cup is paused: the server cannot save its results. "
        "It goes on by itself once it can.",
        "El torneo Cup está en pausa: el servidor no puede guardar sus resultados. "
        "Seguirá solo en cuanto pueda.",
    ),
    (
        TournamentEnding.resumed("Cup"),
        "The tournament Cup goes on: its results are saved again.",
        "El torneo Cup sigue: sus resultados vuelven a guardarse.",
    ),
    (
        TournamentEnding.replayed("Cup", 2, "ann", "bob"),
        "Round 2 of the tournament Cup: ann and bob play their game again from the start, "
        "because the server could not save it. Nobody loses it by forfeit.",
        "Ronda 2 del torneo Cup: ann y bob juegan su partida de nuevo desde el principio, "
        "porque el servidor no pudo guardarla. Nadie la pierde por no presentarse.",
    ),
]


def sent(ending: TournamentEnding) -> Announcement:
    """The announcement the server sends for ``ending`` (as its class controls make it)."""
    return Announcement(
        text=ending.english(),
        source="server",
        tournament=3,
        kind=ending.kind.value,
        tournament_name=ending.name,
        winners=list(ending.winners),
        points=ending.points,
        round=ending.round,
        players=list(ending.players),
    )


@pytest.mark.parametrize(("ending", "english", "spanish"), CASES)
def test_each_ending_in_english_and_in_spanish(
    ending: TournamentEnding, english: str, spanish: str
) -> None:
    assert ending.english() == english
    with use_language("en"):
        assert announcement_text(sent(ending)) == english
    with use_language("es"):
        assert announcement_text(sent(ending)) == spanish


@pytest.mark.parametrize(
    "message",
    [
        Announcement(text="Ten minutes left"),  # the teacher's: as typed
        Announcement(text="Ten minutes left", source="server"),  # no code
        Announcement(text="Cup: over", source="server", kind="tournament_over"),  # no values
        Announcement(text="Cup: moved", source="server", kind="moved", tournament_name="Cup"),
    ],
)
def test_any_other_announcement_keeps_its_text(message: Announcement) -> None:
    with use_language("es"):
        assert announcement_text(message) == message.text
