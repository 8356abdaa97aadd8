"""Who is in a room: its two seats, the spectators, and the seats held for the dropped.

:class:`Seating` is the part of a :class:`~boardroom.server.core.room.Room` that knows
nothing of the game: who sits where (a person, a bot or the server AI), who
watches, who is connected, and until when a dropped player's seat is held.
Like the room, it reads no clock (every call that needs the time gets ``now``)
and refuses a request (:class:`~boardroom.server.core.room_draft.RefusedError`) before it
changes anything. The room decides what a change means for the game.

Rules of the seats (``docs/protocol.md`` states the wire side):

- The first occupant of an empty room takes ``RoomOptions.creator_seat``
  (the server AI, seated first, takes the other side); ``random`` is drawn by
  the game when the first game starts (:meth:`Seating.swap`), so until then
  the creator shows in ``first``, provisionally. Later occupants take the free
  seat.
- Taking a seat stops watching. Leaving frees the seat (in a game in
  progress the room resigns it first).
- A dropped player's seat is held for ``grace_seconds``
  (:meth:`Seating.hold`): the opponent is told (``player_status`` with
  ``gone_until``), and on return (:meth:`Seating.reconnect`) the others are
  told it is back. When the window ends the room frees the seat
  (:meth:`Seating.window_deadlines` says when). Spectators are not held: a
  dropped spectator is gone. But once a game has started, the room itself is
  kept for a dropped spectator's ``grace_seconds``
  (:attr:`Seating.kept_for_watchers_until`), empty or not: its game may end
  while the spectator is away and everyone else leave, and the spectator,
  watching again, must still find the room and see how the game ended.

In a *tournament room* (``RoomOptions.tournament``) each seat is reserved
(``reserved_first``, ``reserved_second``) for a durable player (or a
session): any session of that player sits in its own side, anyone else is
refused ``room_full``; a side reserved for nobody is the server AI's, which
the server seats itself (no ``add_ai`` from a client: ``tournament_room``).
Once its game is over nobody sits down again (``tournament_room``).

In an *AI match* (``RoomOptions.ai_match``) the watchers are the audience: when
the last one goes during a game, :attr:`Seating.unwatched_until` says when the
room calls the game off unless someone watches again first
(:meth:`Seating.note_unwatched`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from boardroom.server.core.records import PlayerKind, SeatRecord
from boardroom.server.core.room_draft import RefusedError
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import ClientId
from boardroom.shared.games import Player
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    LEVELS,
    Level,
    PlayerStatus,
    SeatInfo,
    chosen_seat,
)

_SIDES: Final = tuple(Player)
"""Both sides, first then second: iterating the enum itself costs a generator each
time, and the seats are looked at on every input (issue 29)."""


@dataclass(frozen=True, slots=True)
class Occupant:
    """Who holds a seat: a person, a bot (``client`` is its session) or the server
    AI (no client, a ``level``)."""

    client: ClientId | None
    name: str
    kind: PlayerKind
    level: Level | None = None
    connected: bool = True
    gone_until: float | None = None
    player: str | None = None
    """The durable player's id (for the record); None for the AI and unknown players."""
    autopilot: Level | None = None
    """The engine's level while it plays for this person or bot (its window ran
    out in a room with ``RoomOptions.autopilot``); None otherwise."""

    @property
    def engine_level(self) -> Level | None:
        """The level the engine moves this seat at: the server AI's, or the
        autopilot's; None while a person or bot plays it."""
        return self.level if self.kind is PlayerKind.AI else self.autopilot

    def info(self, side: Player) -> SeatInfo:
        return SeatInfo(
            side=side,
            name=self.name,
            kind=self.kind.value,
            level=self.level,
            connected=self.connected,
            gone_until=self.gone_until,
            autopilot=self.autopilot,
        )

    def record(self) -> SeatRecord:
        return SeatRecord(self.name, self.kind, self.level, self.client, self.player)

    @classmethod
    def restored(cls, record: SeatRecord, side: Player) -> Occupant:
        """Who sat in ``side`` as ``record`` has it, disconnected unless it is the
        AI; ValueError for a record no room could have written."""
        if record.kind is PlayerKind.AI:
            if record.ai_level not in LEVELS:
                raise ValueError(f"seat {side}: unknown AI level {record.ai_level!r}")
            return cls(None, record.name, record.kind, Level(record.ai_level))
        if record.session is None:
            raise ValueError(f"seat {side}: a {record.kind.value} seat needs its session")
        return cls(
            ClientId(record.session),
            record.name,
            record.kind,
            connected=False,
            player=record.player,
        )


def _no_seats() -> dict[Player, Occupant | None]:
    return {Player.FIRST: None, Player.SECOND: None}


@dataclass
class Seating:
    """The seats and spectators of room ``code`` (see the module docstring)."""

    code: str
    options: RoomOptions
    seats: dict[Player, Occupant | None] = field(default_factory=_no_seats)
    spectators: dict[ClientId, str] = field(default_factory=dict)
    """Who watches, by session, with the name each watches under."""
    unwatched_until: float | None = None
    """An AI match in play that nobody watches: when it is called off, unless
    someone watches again first (``grace_seconds`` after the last one went)."""
    kept_for_watchers_until: float | None = None
    """A spectator dropped (its connection, not a ``leave``) after a game had
    started: the room is kept until then, empty or not, for it to watch again
    (``grace_seconds`` after the last such drop)."""

    # -- reading -----------------------------------------------------------------------

    def side_of(self, client: ClientId | None) -> Player | None:
        """The seat ``client`` holds (connected or not), if any."""
        for side in _SIDES:
            occupant = self.seats[side]
            if occupant is not None and occupant.client == client:
                return side
        return None

    def occupant(self, side: Player) -> Occupant:
        """Who holds ``side``; RuntimeError for an empty seat (a caller's bug)."""
        occupant = self.seats[side]
        if occupant is None:
            raise RuntimeError(f"seat {side} of room {self.code} is empty")
        return occupant

    @property
    def full(self) -> bool:
        """True when both seats are taken."""
        return None not in self.seats.values()

    @property
    def members(self) -> frozenset[ClientId]:
        """Every client here: seated (connected or held) or watching."""
        seated = {o.client for o in self.seats.values() if o is not None and o.client is not None}
        return frozenset(seated | set(self.spectators))

    def audience(self) -> list[ClientId]:
        """Connected seated players (in seat order), then spectators."""
        seated = [
            o.client
            for o in self.seats.values()
            if o is not None and o.client is not None and o.connected
        ]
        return seated + list(self.spectators)

    def ai_sides(self) -> set[Player]:
        """The sides the server AI holds."""
        return {s for s, o in self.seats.items() if o is not None and o.kind is PlayerKind.AI}

    @property
    def has_player(self) -> bool:
        """True while a person or a bot holds a seat (connected or not)."""
        return any(o is not None and o.kind is not PlayerKind.AI for o in self.seats.values())

    def gone(self, side: Player) -> bool:
        """True if a person or bot holds ``side`` but is disconnected."""
        occupant = self.seats[side]
        return (
            occupant is not None and occupant.kind is not PlayerKind.AI and not occupant.connected
        )

    def infos(self) -> list[SeatInfo]:
        """Both seats as ``state`` shows them."""
        return [o.info(s) if (o := self.seats[s]) else SeatInfo(side=s) for s in _SIDES]

    def records(self) -> tuple[SeatRecord, SeatRecord]:
        """Both occupants as a game's record keeps them (both seats must be taken)."""
        first, second = (self.occupant(side) for side in _SIDES)
        return first.record(), second.record()

    def window_deadlines(self) -> list[tuple[float, Player]]:
        """When each held seat's grace window ends, with its side."""
        found = []  # a loop, not a comprehension: asked twice an input (issue 29)
        for side in _SIDES:
            occupant = self.seats[side]
            if occupant is not None and occupant.gone_until is not None:
                found.append((occupant.gone_until, side))
        return found

    # -- checks (raise RefusedError before any change) ------------------------------------------

    def require_player(self, client: ClientId, action: str) -> Player:
        """The side ``client`` holds; refused (``not_seated``) if it holds none."""
        side = self.side_of(client)
        if side is not None:
            return side
        if client in self.spectators:
            raise RefusedError(
                ErrorCode.NOT_SEATED,
                f"you are watching room {self.code}: only its players can {action}",
            )
        raise RefusedError(
            ErrorCode.NOT_SEATED, f"you have no seat in room {self.code}: join it to {action}"
        )

    def member_name(self, client: ClientId, action: str) -> str:
        """The name ``client`` is in the room under; refused (``not_seated``) if it
        is not in the room."""
        side = self.side_of(client)
        if side is not None:
            return self.occupant(side).name
        if client in self.spectators:
            return self.spectators[client]
        raise RefusedError(
            ErrorCode.NOT_SEATED, f"you are not in room {self.code}: join or watch it to {action}"
        )

    def ai_occupant(self, level: str, by: ClientId | None) -> Occupant:
        """The server AI at ``level``, to seat at the request of ``by`` (a client,
        who must be seated; None: the server's own). Refused (``not_seated``,
        ``tournament_room``, ``bad_level``) otherwise: a tournament room's
        seats are the server's to fill."""
        if by is not None:
            self.require_player(by, "add an AI player")
            if self.options.tournament:
                raise RefusedError(
                    ErrorCode.TOURNAMENT_ROOM,
                    "the server seats a tournament game's players itself: "
                    "there is no AI to add here",
                )
        if level not in LEVELS:
            raise RefusedError(
                ErrorCode.BAD_LEVEL, f"no AI level {level!r}: choose one of {', '.join(LEVELS)}"
            )
        return Occupant(client=None, name=f"AI ({level})", kind=PlayerKind.AI, level=Level(level))

    def choose_side(self, occupant: Occupant, wanted: Player | None, *, game_over: bool) -> Player:
        """The free side ``occupant`` takes: ``wanted`` if given (the server's own
        choice, for an AI match), else by the rules of the module docstring.
        ``game_over``: the room's game is finished (a tournament room's is its
        last). RefusedError (``room_full``, ``tournament_room``) if there is none."""
        free = [side for side in Player if self.seats[side] is None]
        if wanted is not None:
            if wanted not in free:
                raise RefusedError(ErrorCode.ROOM_FULL, f"seat {wanted} of {self.code} is taken")
            return wanted
        if self.options.tournament:
            return self._reserved_side(occupant, free, game_over)
        if not free:
            raise RefusedError(
                ErrorCode.ROOM_FULL, f"both seats of room {self.code} are taken: watch it instead"
            )
        if len(free) == len(Player):
            # The first occupant: the creator's choice, or opposite it for the AI.
            preferred = chosen_seat(self.options.creator_seat)
            creator_side = (
                Player.FIRST if preferred == "random" else preferred
            )  # swapped at the start
            return creator_side if occupant.kind is not PlayerKind.AI else creator_side.other
        return free[0]

    def _reserved_side(self, occupant: Occupant, free: list[Player], game_over: bool) -> Player:
        """The side of a tournament room that ``occupant`` may take (see the module
        docstring); refuses anyone else, and everyone once the game is over."""
        if occupant.kind is PlayerKind.AI:
            sides = [s for s in free if self.options.reserved_for(s) is None]
        else:
            identities = {occupant.client, occupant.player} - {None}
            sides = [s for s in Player if self.options.reserved_for(s) in identities]
        if not sides:
            raise RefusedError(
                ErrorCode.ROOM_FULL,
                f"the seats of room {self.code} are reserved for the tournament's players: "
                "watch it instead",
            )
        if game_over:
            raise RefusedError(
                ErrorCode.TOURNAMENT_ROOM,
                f"the tournament game in room {self.code} is over: the next round opens by itself",
            )
        return sides[0]

    # -- changes -------------------------------------------------------------------------

    def restore(self, records: Sequence[SeatRecord]) -> None:
        """Seat whoever ``records`` (first, second) say sat, from a stored game:
        held for their sessions, disconnected, with no window running yet
        (:meth:`start_windows`). ValueError for a record no room could have written."""
        for side, record in zip(Player, records, strict=True):
            self.seats[side] = Occupant.restored(record, side)

    def sit(self, side: Player, occupant: Occupant) -> None:
        """Seat ``occupant`` in ``side`` (chosen by :meth:`choose_side`); a
        spectator who sits down stops watching."""
        if occupant.client is not None:
            self.spectators.pop(occupant.client, None)
        self.seats[side] = occupant

    def free(self, side: Player) -> None:
        self.seats[side] = None

    def swap(self) -> None:
        """The occupants change sides (a rematch; a ``random`` creator seat)."""
        self.seats = {
            Player.FIRST: self.seats[Player.SECOND],
            Player.SECOND: self.seats[Player.FIRST],
        }

    def watch(self, client: ClientId, name: str) -> None:
        """``client`` watches as ``name``; an AI match is watched again."""
        self.spectators[client] = name
        self.unwatched_until = None

    def stop_watching(self, client: ClientId) -> bool:
        """``client`` no longer watches; True if it did."""
        return self.spectators.pop(client, None) is not None

    def drop_spectator(self, client: ClientId, now: float, *, game_started: bool) -> None:
        """``client``'s connection dropped: it no longer watches, but if it did
        and a game has started (``game_started``), the room is kept
        ``grace_seconds`` from ``now`` for it to watch again
        (:attr:`kept_for_watchers_until`)."""
        if self.stop_watching(client) and game_started:
            until = now + self.options.grace_seconds
            kept = self.kept_for_watchers_until
            self.kept_for_watchers_until = until if kept is None else max(kept, until)

    def note_unwatched(self, now: float, *, playing: bool) -> None:
        """After someone left: an AI match in play (``playing``) that nobody watches
        any more is called off ``grace_seconds`` from ``now`` (the engine plays
        for people to watch; a watcher whose connection blipped has that long to
        watch again)."""
        if self.options.ai_match and playing and not self.members:
            self.unwatched_until = now + self.options.grace_seconds

    def hold(self, client: ClientId, now: float) -> PlayerStatus | None:
        """``client``'s connection dropped: its seat, if connected, is held until
        ``now + grace_seconds``; the ``player_status`` to tell everyone left, or
        None if nothing changed (not seated, or held already)."""
        side = self.side_of(client)
        occupant = self.seats[side] if side is not None else None
        if side is None or occupant is None or not occupant.connected:
            return None
        gone_until = now + self.options.grace_seconds
        self.seats[side] = replace(occupant, connected=False, gone_until=gone_until)
        return PlayerStatus(room=self.code, side=side, connected=False, gone_until=gone_until)

    def reconnect(self, side: Player) -> PlayerStatus | None:
        """The held seat ``side`` is connected again (taken back from the
        autopilot, if it played it); the ``player_status`` to tell the others,
        or None if it was connected already."""
        occupant = self.occupant(side)
        if occupant.connected:
            return None
        self.seats[side] = replace(occupant, connected=True, gone_until=None, autopilot=None)
        return PlayerStatus(room=self.code, side=side, connected=True)

    def engage_autopilot(self, side: Player, level: Level) -> PlayerStatus:
        """The engine plays the held seat ``side`` at ``level`` from now on (its
        window ran out): no window runs any more; the ``player_status`` to tell
        everyone."""
        self.seats[side] = replace(self.occupant(side), gone_until=None, autopilot=level)
        return PlayerStatus(room=self.code, side=side, connected=False, autopilot=level)

    def autopiloted(self) -> list[Player]:
        """The sides the engine plays for an absent person or bot."""
        return [s for s, o in self.seats.items() if o is not None and o.autopilot is not None]

    def release_autopilot(self, side: Player, now: float) -> None:
        """The game the autopilot played ``side`` in is over: the seat is held
        for its player for a whole window from ``now`` (then freed, as any)."""
        occupant = self.occupant(side)
        gone_until = now + self.options.grace_seconds
        self.seats[side] = replace(occupant, gone_until=gone_until, autopilot=None)

    def start_windows(self, now: float) -> None:
        """Held seats whose window has not started yet (a restored room's) get a
        whole one from ``now``."""
        for side in Player:
            occupant = self.seats[side]
            if occupant is not None and not occupant.connected and occupant.gone_until is None:
                self.seats[side] = replace(occupant, gone_until=now + self.options.grace_seconds)

    def extend_windows(self, paused_at: float, now: float) -> None:
        """A pause from ``paused_at`` to ``now`` ended: each held seat gets back
        what was left of its window at the pause, a whole one if it dropped since."""
        grace = self.options.grace_seconds
        for side in Player:
            occupant = self.seats[side]
            if occupant is not None and occupant.gone_until is not None:
                window_from = max(paused_at, occupant.gone_until - grace)
                gone_until = occupant.gone_until + (now - window_from)
                self.seats[side] = replace(occupant, gone_until=gone_until)

    def rename(self, client: ClientId, name: str) -> Player | None:
        """``client`` is called ``name`` from now on, seated or watching; the side
        it holds, if any."""
        side = self.side_of(client)
        if side is not None:
            self.seats[side] = replace(self.occupant(side), name=name)
        elif client in self.spectators:
            self.spectators[client] = name
        return side

    def clear(self) -> None:
        """Everyone is let go (the room closed): nobody is waited for either."""
        self.seats = _no_seats()
        self.spectators.clear()
        self.kept_for_watchers_until = None
