"""What a :class:`~boardroom.server.core.room.Room` says back: recipients, persistence events,
engine requests, and the :class:`Output` that carries them.

Small frozen values, so the server's adapters (socket, store, engine pool) can
act on them without reaching into the room. Those made on every move or game
(:class:`Output`, :class:`MoveMade`, :class:`GameStarted`, :class:`GameFinished`)
are frozen msgspec structs rather than frozen dataclasses, which set each field
through ``object.__setattr__`` (an ``Output``: 1.7 µs against 0.2, issue 29);
they are never encoded, only read. The contract for acting on an
``Output`` is in :mod:`boardroom.server.core.room`'s docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, NewType

import msgspec

from boardroom.server.core.records import SeatRecord, Termination
from boardroom.shared.engine.explain import principal_line, summary
from boardroom.shared.engine.remote import SearchRequest
from boardroom.shared.engine.search import SearchResult
from boardroom.shared.games import (
    Game,
    Player,
)
from boardroom.shared.protocol.messages import (
    Level,
    Moved,
    RequestId,
    SearchInfo,
    ServerMessage,
)

ClientId = NewType("ClientId", str)
"""An opaque session id given by the server (see the module docstring)."""

RoomStatus = Literal["waiting", "playing", "finished"]
"""``waiting`` until the first game starts; then ``playing`` or ``finished``."""


# -- recipients and outputs ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Everyone:
    """A broadcast: every client in :attr:`Output.audience`, except ``exclude``."""

    exclude: ClientId | None = None


ALL: Final = Everyone()
"""Every seated player who is connected, and every spectator, as the room stands
after the input (:attr:`Output.audience`). A client that the input removed
(``leave``) gets its reply addressed to it by id instead."""

Recipient = ClientId | Everyone


class GameStarted(msgspec.Struct, frozen=True):
    """Persist: game ``game_number`` of ``room`` started at ``at`` with these seats,
    the first player's then the second's (each with the session holding it, so
    that a restored room knows who may reclaim it)."""

    room: str
    game: str
    game_number: int
    seats: tuple[SeatRecord, SeatRecord]
    at: float


class MoveMade(msgspec.Struct, frozen=True):
    """Persist: ``side`` played ``move_text`` at ply ``ply`` (moves before it).

    ``clock_ms``: what was left on the mover's clock when it moved, before any
    increment; None in a room without a clock. ``autopilot``: the server's
    engine made it for an absent player (``RoomOptions.autopilot``).
    """

    room: str
    game_number: int
    ply: int
    side: Player
    move_text: str
    at: float
    clock_ms: int | None = None
    autopilot: bool = False


class GameFinished(msgspec.Struct, frozen=True):
    """Persist: the game ended; ``winner`` is None for a draw or an abort.
    ``reason`` is how, in the records' own terms (its value is ``ResultInfo.reason``
    on the wire), so the store takes it as it is."""

    room: str
    game_number: int
    winner: Player | None
    reason: Termination
    at: float
    line: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HintGiven:
    """Persist: the player on ``side`` was given the engine's ``move_text`` as a
    hint before their move at ``ply`` (kept with the game, for its analysis)."""

    room: str
    game_number: int
    ply: int
    side: Player
    move_text: str
    at: float


PersistEvent = GameStarted | MoveMade | GameFinished | HintGiven


@dataclass(frozen=True, slots=True)
class AiRequest:
    """Ask the engine pool for the AI seat's move. Small and picklable.

    Answer with ``room.ai_moved(game_number, ply, move_text)``, or
    ``room.ai_failed(game_number, ply)`` if no move came. ``seed`` comes from the
    room's rng, so seeded games replay; ``clock_left`` is the AI's time (seconds)
    when asked, None without a clock: the pool must answer well within it.
    The search may start at once; only its answer waits for ``not_before``.
    """

    room: str
    game_name: str
    moves: str
    level: Level
    game_number: int
    ply: int
    side: Player
    seed: int
    clock_left: float | None = None
    hint_for: ClientId | None = None
    """Set for a hint: the player who asked (answer with ``room.hint_found``, or
    ``room.hint_failed``), and ``request_id`` their request's id."""
    request_id: RequestId = None
    not_before: float | None = None
    """When the answer may be played, at the earliest (Unix seconds; an AI
    match's pace): the server holds an earlier answer until then. None: at once."""

    def search_request(self, *, time_limit: float | None = None) -> SearchRequest:
        """The request for :func:`boardroom.shared.engine.remote.run_search_request`."""
        return SearchRequest(
            self.game_name, self.moves, level=self.level, time_limit=time_limit, seed=self.seed
        )


def search_info(result: SearchResult, game: Game) -> SearchInfo:
    """The wire form of the engine's ``result`` in ``game`` (``moved.search``)."""
    return SearchInfo(
        summary=summary(result),
        nodes=result.nodes,
        depth=result.depth,
        elapsed_ms=round(result.elapsed * 1000),
        nodes_per_second=round(result.nodes_per_second),
        exact=result.exact,
        value=str(result.value),
        pv=principal_line(game, result),
        book=result.book,
    )


def without_line(search: SearchInfo) -> SearchInfo:
    """``search`` as it may be shown while hints are off: the AI's own move (played
    already) and its figures, without the rest of the expected line, whose next
    move would be the engine's move for the player."""
    return msgspec.structs.replace(search, pv=search.pv[:1], line_hidden=True)


def without_search(message: ServerMessage) -> ServerMessage:
    """``message`` as a client that did not ask for search info gets it: a
    ``moved`` without its ``search``; any other message (or a ``moved`` without
    one) is ``message`` itself, so a caller can tell by identity that nothing
    was taken out."""
    if isinstance(message, Moved) and message.search is not None:
        return msgspec.structs.replace(message, search=None)
    return message


class Output(msgspec.Struct, frozen=True):
    """What an input produced. Persist ``events``, then send ``messages`` (see
    the module docstring for the whole contract).

    """

    messages: tuple[tuple[Recipient, ServerMessage], ...] = ()
    events: tuple[PersistEvent, ...] = ()
    ai_requests: tuple[AiRequest, ...] = ()
    next_deadline: float | None = None
    """When :meth:`Room.tick` must next be called: the earliest clock flag or end
    of a grace window; None when nothing is timed."""
    audience: frozenset[ClientId] = frozenset()
    """Who an :class:`Everyone` recipient means: the connected members after the input."""

    def recipients(self, recipient: Recipient) -> frozenset[ClientId]:
        """The clients that ``recipient`` names."""
        if isinstance(recipient, Everyone):
            return self.audience - {recipient.exclude} if recipient.exclude else self.audience
        return frozenset({recipient})

    def to(self, client: ClientId) -> list[ServerMessage]:
        """The messages ``client`` receives, in order."""
        return [message for r, message in self.messages if client in self.recipients(r)]


def write_units(events: Sequence[PersistEvent]) -> list[tuple[PersistEvent, ...]]:
    """``events`` (an :class:`Output`'s) as the server stores them, in order: each
    alone, but a move followed by the end of its game, which go together (both or
    neither, in one transaction: a game that ends on a move costs one write, not
    two). The adapter undoes an input only while nothing of it is stored: what it
    can undo is a refusal of the first unit.

    >>> from boardroom.server.core.records import Termination
    >>> from boardroom.shared.games import Player
    >>> move = MoveMade("K7Q2", 1, 4, Player.FIRST, "a3", 0.0, None)
    >>> end = GameFinished("K7Q2", 1, Player.FIRST, Termination.LINE, at=0.0)
    >>> [len(unit) for unit in write_units([move, end])], len(write_units([end, move]))
    ([2], 2)
    """
    units: list[tuple[PersistEvent, ...]] = []
    for event in events:
        last = units[-1] if units else ()
        if (
            isinstance(event, GameFinished)
            and len(last) == 1
            and isinstance(last[0], MoveMade)
            and (last[0].room, last[0].game_number) == (event.room, event.game_number)
        ):
            units[-1] = (last[0], event)
        else:
            units.append((event,))
    return units
