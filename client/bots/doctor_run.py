"""The doctor's driver: plays its short games with a bot, locally, and writes down what it saw.

No server: each of the doctor's games (:func:`boardroom.client.bots.doctor.plans`)
is played here, the doctor choosing the opponent's moves, but the bot is driven
exactly as in a real game: the same :class:`~boardroom.client.bots.brains.BrainSource`
``boardroom bot`` builds from ``--script``, ``--cmd`` or ``--engine``, a fresh
:class:`~boardroom.client.bots.brains.Brain` per game, the same
:class:`~boardroom.client.bots.state.GameState` built by
:func:`~boardroom.client.bots.state.game_state` from a room, the same timeout,
the same end of a game (``brain.end``, then ``brain.close``, which closes a
program's stdin and kills it after :data:`~boardroom.client.bots.pipe_bot.EXIT_GRACE`).

What a real game cannot tell apart, the doctor looks closer at, through a
*probe* of the bot's process (:class:`ProgramProbe` for ``--cmd``): after a
hang, whether the answer came late, or only when the program's input was
closed (it did not flush), or never; at the end, whether the program exited by
itself and with what status.

Other kinds of bot plug in here: a :class:`BrainSource` whose brains run a
process registers a probe for its brains in :data:`PROBES`, and one whose
protocol says which games the bot plays gives them as a ``games`` attribute
(:func:`claimed_games`); anything else works as it is, with the process checks
marked "does not apply".
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
from collections.abc import Callable, Sequence
from typing import Protocol

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.doctor import (
    TURNS_PER_GAME,
    Answer,
    AnswerKind,
    Ending,
    Examination,
    Session,
    SessionKind,
    SessionPlan,
    opponent_move,
    plans,
)
from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.pipe_bot import MAX_LINE_BYTES, PipeBrain, turn_line
from boardroom.client.bots.state import GameResult, GameState, game_result, game_state
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games import Game, Player, Position
from boardroom.shared.protocol.messages import Clock, ResultInfo, RoomState, SeatInfo

ROOM = "DOCTOR"
"""The room code the bot is shown (no server holds it)."""
OPPONENT = "doctor"
LATE_WINDOW = (1.0, 5.0)
"""How long to wait, after the time allowed, for a late answer: as long as the time
allowed, within these bounds. A late answer is told apart from one held in an
output buffer by coming now, before the program's input is closed."""
FLUSH_GRACE = 0.5
"""Seconds a silent program gets to exit, once its input is closed, so that a move
held in its output buffer comes out (a program that does not flush writes it then)."""


class Probe(Protocol):
    """A closer look at a brain's process (see the module docstring)."""

    async def late_answer(self, window: float) -> str | None:
        """The answer the bot gives within ``window`` more seconds, if any."""

    async def output_at_exit(self, grace: float) -> str | None:
        """Close the bot's input and return the first line it writes before it
        exits, within ``grace`` seconds; None if nothing came."""

    def ending(self) -> Ending | None:
        """How the process ended; called after ``brain.close()``. None if it was
        stopped in the middle of a question (it had failed already)."""


class ProgramProbe:
    """The probe of a ``--cmd`` program (:class:`PipeBrain`)."""

    def __init__(self, brain: Brain) -> None:
        assert isinstance(brain, PipeBrain)
        self.brain = brain

    async def late_answer(self, window: float) -> str | None:
        program = self.brain.program
        if program is None or program.process.stdout is None:
            return None
        try:
            raw = await asyncio.wait_for(program.process.stdout.readline(), window)
        except (TimeoutError, ValueError):
            return None
        return raw.decode(errors="replace").strip() or None

    async def output_at_exit(self, grace: float) -> str | None:
        program = self.brain.program
        if program is None or program.process.stdout is None:
            return None
        process = program.process
        if process.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), grace)
            assert process.stdout is not None
            rest = await asyncio.wait_for(process.stdout.read(MAX_LINE_BYTES), grace)
        except TimeoutError:
            return None
        lines = [line.strip() for line in rest.decode(errors="replace").splitlines()]
        return next((line for line in lines if line), None)

    def ending(self) -> Ending | None:
        program = self.brain.program
        if program is None or program.waiting_for_answer:
            return None
        status = program.process.returncode
        return Ending(
            # brain.close() kills with SIGKILL a program still running after its grace.
            by_itself=status != -signal.SIGKILL,
            status=status,
            how=program.exit_description(),
            stderr=tuple(program.last_stderr),
        )


PROBES: dict[type[Brain], Callable[[Brain], Probe]] = {PipeBrain: ProgramProbe}
"""The probe of each kind of brain that runs a process (see the module docstring)."""


def claimed_games(source: BrainSource) -> tuple[str, ...] | None:
    """The games a bot says it plays, when its protocol lets it say (a ``games``
    attribute of its source); None when it cannot (the line protocol, a script)."""
    games = getattr(source, "games", None)
    return tuple(games) if games else None


class Doctor:
    """Plays the doctor's games with one bot; made inside the running event loop
    (it times the answers by the loop's clock). How long a program gets to exit at
    the end of a game is not the doctor's to set: ``brain.close()`` decides, as in
    a real game."""

    def __init__(
        self,
        source: BrainSource,
        *,
        move_timeout: float,
        rng: random.Random,
        flush_grace: float = FLUSH_GRACE,
    ) -> None:
        self.source = source
        self.move_timeout = move_timeout
        self.rng = rng
        self.flush_grace = flush_grace
        self.loop = asyncio.get_running_loop()

    async def examine(self, bot: str, games: Sequence[Game]) -> Examination:
        """Every game of every one of ``games``; the source is opened and closed here."""
        sessions: list[Session] = []
        probed = type(self.source.new_brain(ROOM)) in PROBES
        await self.source.open()
        try:
            for rules in games:
                for plan in plans(rules, self.rng):
                    session = await self.play(rules, plan)
                    sessions.append(session)
                    if plan.kind is SessionKind.FIRST and _cannot_play(session):
                        break  # more games would only say it again, slowly
        finally:
            await self.source.close()
        return Examination(bot, probed, self.move_timeout, tuple(sessions))

    async def play(self, rules: Game, plan: SessionPlan) -> Session:
        """One game: the bot's first :data:`TURNS_PER_GAME` moves, then the doctor
        resigns (unless the game ended first); the bot is told and closed."""
        number = list(SessionKind).index(plan.kind) + 1
        brain = self.source.new_brain(f"{ROOM} {rules.name} game {number}")
        probe_of = PROBES.get(type(brain))
        probe = probe_of(brain) if probe_of is not None else None
        side, position = plan.side, plan.start
        answers: list[Answer] = []
        start_failure = end_failure = ""
        reached_end = False
        try:
            try:
                await brain.start(self.state(rules, position, side, number))
            except BotFailedError as failure:
                start_failure = failure.message
            else:
                turns = 0
                failed = False
                while not rules.outcome(position).is_over and turns < TURNS_PER_GAME:
                    if rules.to_move(position) is not side:
                        move = opponent_move(rules, position, self.rng)
                        position = rules.play_unchecked(position, move)
                        continue
                    state = self.state(rules, position, side, number)
                    answer, played = await self.ask(brain, probe, state)
                    answers.append(answer)
                    if played is None:
                        failed = True
                        break
                    position = rules.play_unchecked(position, played)
                    turns += 1
                if not failed:
                    final, result = self.ending(rules, position, side, number)
                    try:
                        await brain.end(final, result)
                    except BotFailedError as failure:
                        end_failure = failure.message
                    reached_end = True
        finally:
            await brain.close()
        return Session(
            game=rules.name,
            kind=plan.kind,
            side=side,
            answers=tuple(answers),
            start_failure=start_failure,
            reached_end=reached_end,
            end_failure=end_failure,
            ending=probe.ending() if probe is not None else None,
        )

    async def ask(
        self, brain: Brain, probe: Probe | None, state: GameState
    ) -> tuple[Answer, int | None]:
        """Ask the bot for its move in ``state``, as a room without a clock does: what
        came of it, and the move if it was a legal one in time."""
        timeout = self.move_timeout
        time_ms = int(timeout * 1000)
        line = turn_line(state, time_ms)
        started = self.loop.time()

        def answer(kind: AnswerKind, text: str = "", detail: str = "") -> Answer:
            seconds = self.loop.time() - started
            return Answer(kind, state.game, line, text, seconds, timeout, detail)

        try:
            text = await brain.choose(state, timeout=timeout, time_ms=time_ms)
        except BotFailedError as failure:
            if failure.kind is FailureKind.HUNG and probe is not None:
                shortest, longest = LATE_WINDOW
                late = await probe.late_answer(max(shortest, min(timeout, longest)))
                if late is not None:
                    return answer(AnswerKind.LATE, late), None
                silent = answer(AnswerKind.SILENT)  # how long it wrote nothing
                buffered = await probe.output_at_exit(self.flush_grace)
                if buffered is not None:
                    return Answer(
                        AnswerKind.BUFFERED, state.game, line, buffered, silent.seconds, timeout
                    ), None
                return silent, None
            return answer(_KINDS[failure.kind], detail=failure.message), None
        try:
            move = state.rules.parse_move(state.position, text)
        except IllegalMoveError as error:
            if error.reason is IllegalMoveReason.NOT_A_MOVE:
                return answer(AnswerKind.NOT_A_MOVE, text), None
            return answer(AnswerKind.ILLEGAL, text, error.reason.value), None
        return answer(AnswerKind.MOVE, text), move

    def state(self, rules: Game, position: Position, side: Player, number: int) -> GameState:
        """The bot's view of ``position``, built as from the room a server sends."""
        return game_state(self._room(rules, position, side, number))

    def ending(
        self, rules: Game, position: Position, side: Player, number: int
    ) -> tuple[GameState, GameResult]:
        """The game's end as the bot is told it: by the rules if it is over, else
        the doctor resigns."""
        outcome = rules.outcome(position)
        if outcome.is_over:
            assert outcome.termination is not None
            result = ResultInfo(
                winner=outcome.winner,
                reason=outcome.termination.value,
                line=[rules.cell_name(cell) for cell in outcome.line],
            )
        else:
            result = ResultInfo(winner=side, reason="resignation")
        room = self._room(rules, position, side, number, result=result)
        state = game_state(room)
        return state, game_result(result, state.moves, side)

    def _room(
        self,
        rules: Game,
        position: Position,
        side: Player,
        number: int,
        result: ResultInfo | None = None,
    ) -> RoomState:
        names = {side: "bot", side.other: OPPONENT}
        return RoomState(
            code=ROOM,
            game=rules.name,
            title=rules.title,
            status="finished" if result is not None else "playing",
            public=False,
            clock=Clock(),
            seats=[SeatInfo(side=player, name=names[player]) for player in Player],
            moves=rules.move_string(position),
            ply=position.ply,
            to_move=None if result is not None else rules.to_move(position),
            result=result,
            game_number=number,
            you=side,
        )


_KINDS = {
    FailureKind.HUNG: AnswerKind.SILENT,
    FailureKind.CRASHED: AnswerKind.CRASHED,
    FailureKind.RAISED: AnswerKind.RAISED,
    FailureKind.REFUSED: AnswerKind.NOT_A_MOVE,
}


def _cannot_play(session: Session) -> bool:
    """The bot did not answer its very first move at all (it could not start, crashed,
    or said nothing): its other games would only show the same, slowly."""
    if session.start_failure:
        return True
    first = session.answers[0] if session.answers else None
    return first is not None and first.kind in (
        AnswerKind.CRASHED,
        AnswerKind.SILENT,
        AnswerKind.BUFFERED,
    )
