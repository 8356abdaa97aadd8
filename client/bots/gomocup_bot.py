"""Gomocup brains (``--gomocup ./pbrain-foo``): a Piskvork-protocol program over pipes.

The translation is :mod:`boardroom.client.bots.gomocup_protocol`; this module
runs the programs. A brain process lives across games, as under Piskvork: when
a game ends, its process waits for the next one, which starts with ``RESTART``
(a brain that answers anything but ``OK`` is ended and a new process started
with ``START``). A process that failed, or was cut off while thinking, is
killed instead. ``--parallel P`` keeps up to P processes. At the end of the
run each gets ``END``, then what :class:`~boardroom.client.bots.pipe_bot.PipeProgram`
does to any program (stdin closed, a grace, its process group killed).

After a reconnection during a game the brain is not trusted to know the
position (a move may have been lost with the connection): its next turn starts
with ``RESTART`` and ``BOARD``. A game the brain did not see from its start (a
tournament game joined again after ``boardroom bot`` was restarted) starts with
``BOARD`` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Sequence

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import (
    BotFailedError,
    BotLoadError,
    FailureKind,
    ProtocolMismatchError,
)
from boardroom.client.bots.gomocup_protocol import (
    BoardShape,
    LineKind,
    board_shape,
    cell_text,
    info_lines,
    line_kind,
    move_number,
    move_request,
    parse_about,
    refusal_of,
    start_line,
    time_left_line,
)
from boardroom.client.bots.pipe_bot import PipeProgram, StderrLog, command_name, parse_command
from boardroom.client.bots.state import GameResult, GameState
from boardroom.shared.errors import BoardroomError
from boardroom.shared.games import GridGame, get_game
from boardroom.shared.i18n import _

SETUP_TIMEOUT = 10.0
"""Seconds a brain has to answer ``START``, ``RECTSTART`` or ``RESTART`` (a strong
brain may load its tables first)."""
ABOUT_TIMEOUT = 5.0
"""Seconds a brain has to answer ``ABOUT`` when asked for its name before the run."""


class GomocupProcess:
    """One running brain, and the board it was started on."""

    def __init__(self, program: PipeProgram, shape: BoardShape, label: list[str]) -> None:
        self.program = program
        self.shape = shape
        self.label = label
        """The game its stderr lines are logged under (a box: it changes each game)."""


class GomocupBrains(BrainSource):
    """``--gomocup COMMAND``: a Piskvork brain plays every game, its processes
    kept from one game to the next (see the module docstring).

    ``move_timeout``: the ``--move-timeout``, told to the brain as its
    ``timeout_turn`` in rooms without a clock.
    """

    def __init__(
        self,
        command: str,
        log: StderrLog,
        *,
        move_timeout: float,
        setup_timeout: float = SETUP_TIMEOUT,
    ) -> None:
        self.argv = parse_command(command, "--gomocup")
        self.name = command_name(self.argv)
        self.log = log
        self.move_timeout = move_timeout
        self.setup_timeout = setup_timeout
        self.about: dict[str, str] = {}
        """The brain's ``ABOUT`` fields, once :meth:`read_about` has asked."""
        self._idle: list[GomocupProcess] = []

    def check_game(self, game: str) -> None:
        try:
            board_shape(get_game(game))
        except ProtocolMismatchError as error:
            raise BotLoadError(f"--gomocup: {error}") from None
        except BoardroomError:
            return  # an unknown game: the server says so, in its words

    def read_about(self, timeout: float = ABOUT_TIMEOUT) -> dict[str, str]:
        """Ask the brain ``ABOUT`` in a process of its own (before the run: the
        answer's ``name`` becomes the player's name when no ``--name`` is given).
        A brain that does not answer keeps its file's name."""
        try:
            done = subprocess.run(  # noqa: S603 - the user's own program, as --cmd runs it
                self.argv,
                input="ABOUT\nEND\n",
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return {}
        for line in done.stdout.splitlines():
            if line_kind(line) is LineKind.ANSWER:
                self.about = parse_about(line)
                break
        if self.about.get("name"):
            self.name = self.about["name"]
        return self.about

    def new_brain(self, label: str) -> GomocupBrain:
        return GomocupBrain(self, label)

    async def acquire(self, shape: BoardShape, label: str) -> GomocupProcess:
        """A brain ready for a new game on ``shape``: an idle one that answers
        ``RESTART`` with ``OK``, else a new process started with ``START``.
        Raises :class:`BotFailedError`."""
        while self._idle:
            process = self._idle.pop()
            if process.shape != shape:
                await _end(process)
                continue
            process.label[0] = label
            try:
                answer = await process.program.exchange(
                    ["RESTART"], timeout=self.setup_timeout, is_answer=self._setup_answer(process)
                )
            except BotFailedError:
                await process.program.stop()
                continue
            except BaseException:  # cancelled (the game ended): nobody holds it now
                await process.program.stop()
                raise
            if line_kind(answer) is LineKind.OK:
                return process
            self.log.write(label, _("the brain does not RESTART: starting a new process"))
            await _end(process)
        return await self._start(shape, label)

    def release(self, process: GomocupProcess) -> None:
        """A brain whose game ended cleanly: kept for the next game."""
        self._idle.append(process)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for process in idle:
            await _end(process)
        self.log.close()

    async def _start(self, shape: BoardShape, label: str) -> GomocupProcess:
        box = [label]
        # Shielded, as a --cmd program's start: a game that ends while the brain
        # starts must not leave a process nobody holds.
        starting = asyncio.ensure_future(
            PipeProgram.start(self.argv, lambda line: self.log.write(box[0], line))
        )
        try:
            program = await asyncio.shield(starting)
        except asyncio.CancelledError:
            with contextlib.suppress(BotFailedError):
                await (await starting).stop()
            raise
        process = GomocupProcess(program, shape, box)
        command = start_line(shape)
        try:
            answer = await program.exchange(
                [command], timeout=self.setup_timeout, is_answer=self._setup_answer(process)
            )
        except BaseException:
            await program.stop()
            raise
        if line_kind(answer) is not LineKind.OK:
            await _end(process)
            raise BotFailedError(
                FailureKind.RAISED,
                _(
                    "the brain refused {command}: {answer}",
                    command=command,
                    answer=refusal_of(answer) or answer,
                ),
            )
        return process

    def _setup_answer(self, process: GomocupProcess) -> _Answers:
        return _Answers(self.log, process.label, setup=True)


class GomocupBrain(Brain):
    """One game of a Gomocup brain (a process lent by :class:`GomocupBrains`)."""

    def __init__(self, source: GomocupBrains, label: str) -> None:
        self.source = source
        self.label = label
        self.process: GomocupProcess | None = None
        self.known: list[int] | None = None
        """The moves of this game the brain was told or played; None: it must
        be told the position afresh (after a reconnection)."""
        self.broken = False
        """It failed: its process is not kept for another game."""
        self._reconnections = 0
        """Reconnections so far: one during a question voids what it would teach."""

    async def start(self, state: GameState) -> None:
        try:
            shape = board_shape(state.rules)
        except ProtocolMismatchError as error:
            raise BotFailedError(FailureKind.RAISED, str(error)) from None
        self.process = await self.source.acquire(shape, self.label)
        await self._tell_rules(state)
        self.known = []

    def reconnected(self) -> None:
        self.known = None
        self._reconnections += 1

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        if self.process is None:
            await self.start(state)
        assert self.process is not None
        rules = state.rules
        assert isinstance(rules, GridGame)
        reconnections = self._reconnections
        try:
            if self.known is None:
                await self._restart(state)
            _ask, lines = move_request(rules, state.position, state.side, self.known)
            told = time_left_line(state.clock, time_ms)
            answer = await self.process.program.exchange(
                [told, *lines] if told else lines,
                timeout=timeout,
                is_answer=_Answers(self.source.log, self.process.label, setup=False),
            )
        except BotFailedError:
            self.broken = True
            raise
        move = move_number(rules, answer)
        if move is None or reconnections != self._reconnections:
            self.known = None
        else:
            self.known = [*state.position.moves, move]
        return cell_text(rules, answer) or answer

    async def end(self, state: GameState, result: GameResult) -> None:
        """Nothing to say: the next game starts with ``RESTART``."""

    async def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if self.broken or process.program.waiting_for_answer:
            await process.program.stop()  # cut off mid-thought, or failed: not reused
        else:
            self.source.release(process)

    async def _tell_rules(self, state: GameState) -> None:
        assert self.process is not None
        await self.process.program.tell(
            info_lines(
                state.clock,
                move_timeout=self.source.move_timeout,
                opponent_kind=state.opponent_kind,
            )
        )

    async def _restart(self, state: GameState) -> None:
        """Empty the brain's board (``RESTART``, or a new process) for a ``BOARD``."""
        assert self.process is not None
        shape = self.process.shape
        self.source.release(self.process)
        self.process = None
        self.process = await self.source.acquire(shape, self.label)
        await self._tell_rules(state)
        self.known = []


class _Answers:
    """Reads a brain's lines for one question: logs what is not an answer."""

    def __init__(self, log: StderrLog, label: Sequence[str], *, setup: bool) -> None:
        self.log = log
        self.label = label
        self.setup = setup

    def __call__(self, line: str) -> bool:
        kind = line_kind(line)
        if kind is LineKind.EMPTY:
            return False
        if kind is LineKind.CHATTER:
            self.log.write(self.label[0], line)
            # To START or RESTART, ERROR and UNKNOWN are the answer (a refusal).
            return self.setup and refusal_of(line) is not None
        if kind is LineKind.OK:
            return self.setup  # a stray OK during a game is not a move
        return True


async def _end(process: GomocupProcess) -> None:
    """``END``, then stop the program (it has a grace to exit by itself)."""
    with contextlib.suppress(BotFailedError):
        await process.program.tell(["END"])
    await process.program.stop()
