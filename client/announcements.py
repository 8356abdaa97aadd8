"""The server's own announcement (a tournament's end, cancel, pause or resumption, or a game
of it played again) in the reader's language, from its code (``kind``) and values; the
teacher's are shown as typed.

In English the server's ``text`` is shown as it is (the very words these codes
make); in another language a known code is worded from the catalogue, and any
other announcement keeps its text.
"""

from __future__ import annotations

from babel.lists import format_list

from boardroom.shared.i18n import SOURCE_LANGUAGE, _, current, current_language, ngettext
from boardroom.shared.protocol.messages import Announcement
from boardroom.shared.protocol.tournament_ending import (
    CANCELLED,
    PAUSED,
    REPLAYED,
    RESUMED,
    SHARE,
    WINS,
    EndingKind,
)

_NAME_ONLY = {
    EndingKind.CANCELLED: CANCELLED,
    EndingKind.PAUSED: PAUSED,
    EndingKind.RESUMED: RESUMED,
}
"""The kinds worded from the tournament's name alone."""


_KINDS = {kind.value for kind in EndingKind}


def announcement_text(message: Announcement) -> str:
    """What ``message`` says, in the active language."""
    if message.source != "server" or current_language() == SOURCE_LANGUAGE:
        return message.text
    name = message.tournament_name
    if name is None:
        return message.text
    words_of_name = _NAME_ONLY.get(EndingKind(message.kind)) if message.kind in _KINDS else None
    if words_of_name is not None:
        return _(words_of_name, name=name)
    replayed = message.kind == EndingKind.REPLAYED and message.round is not None
    if replayed and len(message.players) == 2:
        first, second = message.players
        return _(REPLAYED, name=name, round=message.round, first=first, second=second)
    if message.kind != EndingKind.OVER or not message.winners or message.points is None:
        return message.text
    points = message.points
    if points.is_integer():
        written = ngettext("{n} point", "{n} points", int(points))
    else:  # a half point: plural in both languages
        written = _("{points} points", points=current().decimal(points, 1))
    names = format_list(message.winners, locale=current().locale)
    words = WINS if len(message.winners) == 1 else SHARE
    return _(words, name=name, names=names, points=written)
