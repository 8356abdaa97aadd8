"""A match played on a server (``--server URL``): watchable, and stored there.

Both bots connect as bots (``boardroom bot`` does the playing: its
:class:`~boardroom.client.bots.runner.BotRunner`), A opens a room and B joins
it by its code; each game after the first is a rematch in that room, where the
server swaps the seats, so games ``2n - 1`` and ``2n`` are pair ``n``, A first
in the first. The opening of a pair is played by the bots' wrappers
(:class:`_OpeningBrain`): while the game is still on the opening's moves, the
side to move plays the opening's next one; then the bot plays. Results come
from A's side as each game ends (``on_game_end``), into the same
:class:`~boardroom.client.match.runner.PairBook` as a local match.

What the server decides, it decides: its clocks, its rules on a bot that
fails (it resigns). Games are adjudicated as a local match adjudicates them
(:class:`~boardroom.client.match.runner.Adjudicator`: few cells left, and the
exact solver knows the result), by the players themselves, through the room's
own requests, as people end a decided game (:class:`_Adjudication`): when the
side to move is to think in such a position, the side that loses with best play
resigns, or, for a draw, the side to move offers one and the other accepts. The
room stores the game as resigned or agreed, with every move played; the match's
report says ``adjudicated`` (a game whose request the room refused plays on to
its end). Nothing is asked of the server that two players could not ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.game_play import request
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import BotRunner, Entry, RunOptions
from boardroom.client.bots.state import GameResult, GameState
from boardroom.client.errors import ClientError
from boardroom.client.match.runner import (
    Adjudicator,
    GameRecord,
    Letter,
    MatchOutcome,
    MatchSetup,
    PairBook,
    Tally,
)
from boardroom.client.session import Session
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import AcceptDraw, OfferDraw, Resign


class _Adjudication:
    """Ends a server game once its result is exactly known, through both players'
    sessions (see the module docstring), and remembers which games it ended."""

    def __init__(self, setup: MatchSetup) -> None:
        self.setup = setup
        self.sessions: dict[Letter, Session] = {}
        """A's session and B's, once connected."""
        self.decided: dict[tuple[str, int], Player | None] = {}
        """The winner (None: a draw) of each game ended so, by room and game number."""

    async def end(self, letter: Letter, state: GameState) -> bool:
        """If ``state`` (``letter``'s turn) is to be adjudicated, end the game with
        the solver's result and return True; False (the bot plays on) otherwise,
        or if the room refused a request."""
        game = self.setup.game
        position = game.from_moves(state.move_string)
        if len(self.sessions) < 2 or not self.setup.adjudicator.applies(game, position):
            return False
        winner = await asyncio.to_thread(Adjudicator.winner, game, position)
        mine = self.sessions[letter]
        theirs = self.sessions["B" if letter == "A" else "A"]
        key = (state.room, state.game_number)
        self.decided[key] = winner
        try:
            if winner is None:
                await request(mine, OfferDraw(room=state.room))
                await request(theirs, AcceptDraw(room=state.room))
            else:
                loser = theirs if winner == state.side else mine
                await request(loser, Resign(room=state.room))
        except ClientError:
            self.decided.pop(key, None)  # refused (or ended first): the game plays on
            return False
        return True


class _OpeningBrains(BrainSource):
    """A bot that plays its side of each pair's opening before thinking itself,
    and has its games adjudicated (:class:`_Adjudication`)."""

    def __init__(
        self,
        inner: BrainSource,
        setup: MatchSetup,
        letter: Letter,
        adjudication: _Adjudication,
        on_end: Callable[[GameState, GameResult], None] | None = None,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.letter = letter
        self.adjudication = adjudication
        self.on_end = on_end
        game = setup.game
        self.openings = [
            tuple(game.format_move(move) for move in game.from_moves(text).moves)
            for text in setup.openings
        ]
        self.texts = setup.openings

    def opening_of(self, game_number: int) -> tuple[str, ...]:
        """The opening moves of the room's game ``game_number`` (from 1)."""
        return self.openings[((game_number - 1) // 2) % len(self.openings)]

    async def open(self) -> None:
        await self.inner.open()

    def new_brain(self, label: str) -> Brain:
        return _OpeningBrain(self.inner.new_brain(label), self)

    async def close(self) -> None:
        await self.inner.close()


class _OpeningBrain(Brain):
    def __init__(self, inner: Brain, source: _OpeningBrains) -> None:
        self.inner = inner
        self.source = source

    async def start(self, state: GameState) -> None:
        await self.inner.start(state)

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        opening = self.source.opening_of(state.game_number)
        if state.ply < len(opening) and state.moves == opening[: state.ply]:
            return opening[state.ply]
        if await self.source.adjudication.end(self.source.letter, state):
            await asyncio.Event().wait()  # the game's end cancels this thinker
        return await self.inner.choose(state, timeout=timeout, time_ms=time_ms)

    async def end(self, state: GameState, result: GameResult) -> None:
        if self.source.on_end is not None:
            self.source.on_end(state, result)
        await self.inner.end(state, result)

    async def close(self) -> None:
        await self.inner.close()


async def play_on_server(
    url: str,
    setup: MatchSetup,
    a: BrainSource,
    b: BrainSource,
    *,
    on_pair: Callable[[Tally], None] | None = None,
    on_room: Callable[[str], None] | None = None,
) -> MatchOutcome:
    """Play the match on the server at ``url``; ``on_room`` is told the room's
    code once A has opened it (for people to watch)."""
    book = PairBook(setup.sprt, on_pair)
    runners: list[BotRunner] = []
    adjudication = _Adjudication(setup)

    def game_over(state: GameState, result: GameResult) -> None:
        if result.outcome == "aborted":
            return
        pair = (state.game_number - 1) // 2
        winner: Letter | None = (
            "A" if result.outcome == "win" else "B" if result.outcome == "loss" else None
        )
        key = (state.room, state.game_number)
        reason = "adjudicated" if key in adjudication.decided else result.reason
        book.count(
            GameRecord(
                pair=pair,
                a_first=state.side == Player.FIRST,
                opening=setup.openings[pair % len(setup.openings)],
                moves=setup.game.move_string(setup.game.from_moves(" ".join(result.moves))),
                winner=winner,
                reason=reason,
            )
        )
        if book.decision is not None:
            for runner in runners:
                runner.stop()

    sources = (
        _OpeningBrains(a, setup, "A", adjudication, game_over),
        _OpeningBrains(b, setup, "B", adjudication),
    )
    games = setup.max_games - setup.max_games % 2
    sessions = [Session(url, name, client_kind="bot") for name in (setup.names[0], setup.names[1])]
    try:
        for session in sessions:
            await session.start()
        adjudication.sessions = {"A": sessions[0], "B": sessions[1]}
        quiet = Report(out=io.StringIO(), err=io.StringIO())
        creator = BotRunner(
            sessions[0],
            sources[0],
            RunOptions(
                entry=Entry("create", game=setup.game.name, clock=setup.clock),
                games=games,
                move_timeout=setup.move_timeout,
            ),
            quiet,
        )
        runners.append(creator)
        creating = asyncio.create_task(creator.run())
        code = await _room_code(sessions[0], creating)
        if on_room is not None:
            on_room(code)
        joiner = BotRunner(
            sessions[1],
            sources[1],
            RunOptions(
                entry=Entry("join", code=code), games=games, move_timeout=setup.move_timeout
            ),
            Report(out=io.StringIO(), err=io.StringIO()),
        )
        runners.append(joiner)
        await asyncio.gather(creating, joiner.run())
    finally:
        for session in sessions:
            with contextlib.suppress(Exception):
                await session.close()
    return book.outcome()


async def _room_code(session: Session, creating: asyncio.Task[None]) -> str:
    """The code of the room A's runner opened (it is seated there, waiting)."""
    while True:
        for code, room in session.rooms.items():
            if room.state.you is not None:
                return code
        if creating.done():
            creating.result()  # its error, if it failed
            raise RuntimeError("the room was not opened")
        await asyncio.sleep(0.02)
