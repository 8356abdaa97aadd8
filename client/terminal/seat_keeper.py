"""The player's seat, kept in the profile while the client runs, so that a client
killed in a game (SIGKILL, a closed terminal, a crash) takes it back next time;
and the player's last game, for ``boardroom review`` without an id.

The keeper follows the session: as soon as the session is seated in a room
(the ``state`` that seats it arrives), the resume token and the room are saved;
once it is seated nowhere (the game over and the room left, or the seat lost),
they are forgotten. A new token (the server forgot the old session) replaces
the old one. The seat is the player's (the profile keeps one player per
server), not the name's: the next run takes it back under any name. The id of
the latest game the player sits in is kept as the last game, from its start.
The file is written only when what should be saved changes, not at every move.

Contract: call :meth:`SeatKeeper.sync` after anything that may change the
session's rooms, or :meth:`SeatKeeper.start`, which syncs at every session
event as it happens (a session listener): before the screens see the event, so
a client killed right after "Back in the lobby" has forgotten the seat. The
keeper must hold the seat's :class:`~boardroom.client.terminal.profile.SeatClaim`: two
clients never save one seat.
"""

from __future__ import annotations

from boardroom.client.session import Session, SessionEvent
from boardroom.client.terminal.profile import Profile, SavedSeat


class SeatKeeper:
    """Keeps the player's seat and last game in ``profile`` in step with ``session``."""

    def __init__(self, session: Session, profile: Profile) -> None:
        self.session = session
        self.profile = profile
        self._saved = profile.saved_seat(session.url)
        self._last_game = profile.last_game(session.url)

    def wanted(self) -> SavedSeat | None:
        """The seat to save now: the session's token and the room it is seated in
        (one with a game in progress first), or None when it is seated nowhere."""
        token = self.session.resume_token
        seated = [room for room in self.session.rooms.values() if room.you is not None]
        if token is None or not seated:
            return None
        seated.sort(key=lambda room: not room.playing)
        return SavedSeat(token, seated[0].code)

    def latest_game(self) -> int | None:
        """The id of the latest game stored of those the player sits in (ids grow
        with time), or None if none has one."""
        ids = [
            room.state.game_id
            for room in self.session.rooms.values()
            if room.you is not None and room.state.game_id is not None
        ]
        return max(ids, default=None)

    def sync(self) -> None:
        """Save or forget the seat, and save the last game, if they changed."""
        self.keep(self.wanted())
        game_id = self.latest_game()
        if game_id is not None and game_id != self._last_game:
            self.profile.remember_last_game(self.session.url, game_id)
            self._last_game = game_id

    def keep(self, seat: SavedSeat | None) -> None:
        """Save ``seat``, or forget the one saved if None."""
        if seat == self._saved:
            return
        if seat is None:
            self.profile.forget_seat(self.session.url)
        else:
            self.profile.save_seat(self.session.url, seat)
        self._saved = seat

    def start(self) -> None:
        """Sync now, then at every session event until :meth:`stop`."""
        self.sync()
        self.session.add_listener(self._on_event)

    def stop(self) -> None:
        self.session.remove_listener(self._on_event)

    def _on_event(self, event: SessionEvent) -> None:
        self.sync()
