"""The engine's turns in a room: the server AI's moves and the players' hints.

:class:`AiTurns` is the part of a :class:`~boardroom.server.core.room.Room` that asks the
engine (an :class:`~boardroom.server.core.room_output.AiRequest` in the output) and takes
its answers. It keeps what is outstanding: at most one search for the AI's move
per room (a new one waits for the old one's answer), at most one hint, and an
answer that came during a pause. It draws the engine's seeds, and a move for an
engine that failed, only from the ``random.Random`` it is given.

Rules of the engine's turns:

- The AI is asked to move when it is to move in a game in play and the room is
  not paused. Its answer is played if that position is still the one to move
  in; a stale answer (the game ended or moved on) is dropped and, if the AI is
  to move elsewhere now, a new request goes out. A move the rules refuse, or no
  move (the engine failed), is replaced by a random legal one: an engine fault
  must not stall a game.
- In a pause the AI is not asked to move; an answer that was on its way when
  the pause came is kept and played at the resume, so the search is not wasted.
- A hint is searched for the side to move (the one asking) at the ``perfect``
  level, one at a time per room, and only while hints are allowed. It goes to
  the asker alone, and is recorded, if the position is still the one asked
  about; otherwise the asker is told it came too late (``stale_move``).

An *AI match* (``RoomOptions.ai_match``) is the server AI in both seats, seated
by the server, for people to watch:

- every ``AiRequest`` carries ``not_before``, the game's last move (or start)
  plus ``RoomOptions.ai_pace``: the server holds an earlier answer until then;
- anyone watching may ask for the next game (``rematch``): both seats agree;
- when its last watcher goes during a game, the game is *called off* (ended
  ``aborted``) ``grace_seconds`` later unless someone watches again first
  (:attr:`~boardroom.server.core.seating.Seating.unwatched_until`); until then, and while
  its game is played, the room is not :attr:`~boardroom.server.core.room.Room.is_empty`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.room_draft import Draft, RefusedError
from boardroom.server.core.room_output import AiRequest, ClientId, HintGiven
from boardroom.server.core.seating import Seating
from boardroom.shared.errors import IllegalMoveError
from boardroom.shared.games import (
    Move,
    Player,
)
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    Error,
    Hint,
    Level,
    RequestId,
    SearchInfo,
)


@dataclass
class AiTurns:
    """What the engine has been asked and not yet answered (see the module docstring)."""

    pending: tuple[int, int] | None = None
    """The game number and ply of the AI's move being searched."""
    held: tuple[int, int, str | None, SearchInfo | None] | None = None
    """An AI answer that came during a pause (game, ply, move or None if the
    engine failed, and its search): played at the resume."""
    hint_pending: bool = False
    """True while a hint is being searched (one at a time per room)."""

    # -- the AI's moves ----------------------------------------------------------------

    def request(
        self,
        play: GameInPlay,
        seating: Seating,
        rng: random.Random,
        now: float,
        out: Draft,
        *,
        paused: bool,
    ) -> None:
        """Ask for the AI's move if it is to move and no search is outstanding,
        and the room is not ``paused`` (the resume asks)."""
        if play.status != "playing" or self.pending is not None or paused:
            return
        side = play.to_move
        level = seating.occupant(side).engine_level
        if level is None:
            return
        ply = play.position.ply
        self.pending = (play.number, ply)
        clock_left = play.clock.time_left(side, now) if play.clock is not None else None
        pace, last = seating.options.ai_pace, play.last_move_at
        not_before = last + pace if pace > 0 and last is not None else None
        out.ai_requests.append(
            AiRequest(
                room=play.code,
                game_name=play.game.name,
                moves=play.moves,
                level=level,
                game_number=play.number,
                ply=ply,
                side=side,
                seed=rng.getrandbits(32),
                clock_left=clock_left,
                not_before=not_before,
            )
        )

    def hold(
        self,
        game_number: int,
        ply: int,
        move_text: str | None,
        search: SearchInfo | None,
        *,
        paused: bool,
    ) -> bool:
        """Keep the answer for ``game_number``, ``ply`` if it is the one awaited
        and the room is ``paused`` (it stays pending, so nothing else is asked);
        True if kept."""
        if self.pending == (game_number, ply) and paused:
            self.held = (game_number, ply, move_text, search)
            return True
        return False

    def release_held(self) -> tuple[int, int, str | None, SearchInfo | None] | None:
        """The answer kept during the pause, if any, to play now."""
        held, self.held = self.held, None
        return held

    def settle(self, game_number: int, ply: int) -> bool:
        """True if an answer for ``game_number``, ``ply`` answers the search
        outstanding (which it settles); False if it was not asked, or answered
        already."""
        if self.pending != (game_number, ply):
            return False
        self.pending = None
        return True

    def forget(self) -> None:
        """Nothing the AI was asked is awaited any more (the room closed)."""
        self.pending = self.held = None

    # -- hints -------------------------------------------------------------------------

    def ask_hint(
        self,
        side: Player,
        play: GameInPlay,
        rng: random.Random,
        now: float,
        out: Draft,
        *,
        allowed: bool,
        client: ClientId,
        request_id: RequestId,
    ) -> None:
        """``side`` (``client``) asks for a hint in the game in play; refused
        (``hints_off``, ``not_your_turn``, ``engine_busy``) unless hints are
        ``allowed``, it is to move and no other hint is searched."""
        if not allowed:
            raise RefusedError(
                ErrorCode.HINTS_OFF, f"hints are off in room {play.code}: play your own move"
            )
        if side != play.to_move:
            raise RefusedError(
                ErrorCode.NOT_YOUR_TURN,
                f"it is {play.to_move}'s turn: ask for a hint when it is yours",
            )
        if self.hint_pending:
            raise RefusedError(
                ErrorCode.ENGINE_BUSY, "a hint is being searched already: wait for it"
            )
        self.hint_pending = True
        clock_left = play.clock.time_left(side, now) if play.clock is not None else None
        out.ai_requests.append(
            AiRequest(
                room=play.code,
                game_name=play.game.name,
                moves=play.moves,
                level=Level.PERFECT,
                game_number=play.number,
                ply=play.position.ply,
                side=side,
                seed=rng.getrandbits(32),
                clock_left=clock_left,
                hint_for=client,
                request_id=request_id,
            )
        )

    def hint_found(
        self,
        client: ClientId,
        side: Player | None,
        play: GameInPlay,
        game_number: int,
        ply: int,
        move_text: str,
        search: SearchInfo,
        now: float,
        out: Draft,
        *,
        allowed: bool,
        request_id: RequestId,
    ) -> None:
        """The engine's hint for ``client`` (who holds ``side``) at
        ``game_number``, ``ply``: sent and recorded if still current and
        ``allowed``, refused with an ``error`` to ``client`` otherwise."""
        self.hint_pending = False
        if not allowed:
            message = f"hints were turned off in room {play.code} before the hint came"
            out.send(client, Error(code=ErrorCode.HINTS_OFF, message=message, id=request_id))
            return
        current = (
            play.status == "playing"
            and (play.number, play.position.ply) == (game_number, ply)
            and side == play.to_move
        )
        try:
            move = play.game.parse_move(play.position, move_text) if current else None
        except IllegalMoveError:
            move = None
        if side is None or move is None:
            message = "the game moved on before the hint came: ask again"
            out.send(client, Error(code=ErrorCode.STALE_MOVE, message=message, id=request_id))
            return
        text = play.game.format_move(move)
        out.events.append(HintGiven(play.code, game_number, ply, side, text, now))
        out.send(client, Hint(room=play.code, ply=ply, move=text, search=search, id=request_id))

    def hint_failed(self, client: ClientId, out: Draft, request_id: RequestId) -> None:
        """The engine found no hint for ``client``: it is told (``engine_busy``)."""
        self.hint_pending = False
        message = "the engine could not find a hint just now: ask again"
        out.send(client, Error(code=ErrorCode.ENGINE_BUSY, message=message, id=request_id))


def answers_position(play: GameInPlay, seating: Seating, game_number: int, ply: int) -> bool:
    """True if an answer for ``game_number``, ``ply`` is for the position in play,
    with the engine to move there (the AI, or the autopilot of an absent player)."""
    return (
        play.status == "playing"
        and (play.number, play.position.ply) == (game_number, ply)
        and seating.occupant(play.to_move).engine_level is not None
    )


def move_to_play(
    play: GameInPlay, move_text: str | None, search: SearchInfo | None, rng: random.Random
) -> tuple[Move, SearchInfo | None]:
    """The engine's move ``move_text`` (with ``search``) in the position in play,
    or a random legal one (without a search) if the rules refuse it or the
    engine gave none."""
    move: Move | None = None
    if move_text is not None:
        try:
            move = play.game.parse_move(play.position, move_text)
        except IllegalMoveError:
            move = None
    if move is None:
        move, search = rng.choice(play.game.legal_moves(play.position)), None
    return move, search
