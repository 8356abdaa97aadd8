"""Bots in any language: a program that reads a line per turn and answers its move.

The line protocol (``docs/bots.md`` is the reference for bot authors): one
program process per game, started when the game starts; for each of its turns
it gets one line on stdin, fields separated by single spaces::

    GAME YOU TIME_MS MOVES LEGAL
    connect4 O 29500 4,4,5 1,2,3,4,5,6,7

and answers with one line on stdout, its move. Its stdin is closed when the game
ends. What it writes on stderr goes to the log, each line prefixed with the
room and the game.

>>> from boardroom.shared.games import Player
>>> from boardroom.shared.protocol.messages import Clock, RoomState, SeatInfo
>>> from boardroom.client.bots.state import game_state
>>> state = game_state(RoomState(code="ABCDEF", game="tictactoe", title="Tic-tac-toe",
...     status="playing", public=True, clock=Clock(), moves="", ply=0, to_move=Player.FIRST,
...     seats=[SeatInfo(side=Player.FIRST), SeatInfo(side=Player.SECOND)],
...     you=Player.FIRST))
>>> turn_line(state, 30000)
'tictactoe X 30000 - a1,b1,c1,a2,b2,c2,a3,b3,c3'

The bridge trusts nothing the program does: :class:`PipeProgram` turns a crash
(exit, or stdout closed, before answering), a hang (no answer in time) and an
over-long line into :class:`~boardroom.client.bots.errors.BotFailedError` with the exit status
and the last lines of stderr, and kills the program's whole process group, so a
script's children (a ``sleep``) go with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from boardroom.client.bots.brains import Brain, BrainSource
from boardroom.client.bots.errors import BotFailedError, BotLoadError, FailureKind
from boardroom.client.bots.state import GameResult, GameState
from boardroom.shared.i18n import _

MAX_LINE_BYTES = 64 * 1024
"""Longest answer read from a program; the longest real move is three characters."""
STDERR_LINES_KEPT = 5
"""Lines of the program's stderr quoted when it fails: enough for a Python
traceback's last frames and the error, short enough to read in a terminal."""
EXIT_GRACE = 1.0
"""Seconds a program gets to exit by itself once its stdin is closed, before it
is killed (a well-behaved ``while read`` loop ends at once)."""
CRASH_SETTLE = 1.0
"""Seconds to wait, after a program's stdout closes, for it to exit and its last
stderr lines to arrive, so the report can quote them."""


def turn_line(state: GameState, time_ms: int) -> str:
    """The line a program reads for its turn: ``GAME YOU TIME_MS MOVES LEGAL``
    (``-`` for an empty list)."""
    moves = ",".join(state.moves) or "-"
    legal = ",".join(state.legal_moves) or "-"
    return f"{state.game} {state.you} {max(0, time_ms)} {moves} {legal}"


def parse_command(text: str, flag: str = "--cmd") -> list[str]:
    """The program and its arguments from ``--cmd`` (or ``flag``, named in the
    errors): words split as a shell would (quotes work), but no shell runs them.
    Raises :class:`BotLoadError` when the program cannot be found or run."""
    try:
        argv = shlex.split(text)
    except ValueError as error:
        raise BotLoadError(f"{flag} {text!r}: {error}") from None
    if not argv:
        raise BotLoadError(
            _(
                "{flag} is empty: give the program to run, such as {example}",
                flag=flag,
                example="'./mybot'",
            )
        )
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program)
        if not path.is_file():
            raise BotLoadError(_("{flag}: no such program: {program}", flag=flag, program=program))
        if not os.access(path, os.X_OK):
            raise BotLoadError(
                _(
                    "{flag}: {program} is not executable: run {chmod}, or name its interpreter "
                    "first ({example})",
                    flag=flag,
                    program=program,
                    chmod="'chmod +x " + program + "'",
                    example=flag + " 'bash " + program + "'",
                )
            )
    elif shutil.which(program) is None:
        raise BotLoadError(
            _(
                "{flag}: program {program!r} not found on PATH (for a file here, write {here})",
                flag=flag,
                program=program,
                here="./" + program,
            )
        )
    return argv


def command_name(argv: Sequence[str]) -> str:
    """A player name from a command: the program's file name without its suffix,
    or the script's when an interpreter runs one (``node bot.js`` is ``bot``).

    >>> command_name(["./mybot"]), command_name(["python3", "-u", "bots/smart.py"])
    ('mybot', 'smart')
    """
    for word in reversed(argv[1:]):
        if not word.startswith("-") and Path(word).suffix:
            return Path(word).stem
    return Path(argv[0]).stem


class StderrLog:
    """Where programs' stderr lines go: a file (appended to) or this process's
    stderr, each line prefixed with the game it came from."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._file: TextIO | None = None
        if path is not None:
            try:
                self._file = path.open("a", encoding="utf-8", buffering=1)
            except OSError as error:
                raise BotLoadError(f"--log {path}: {error.strerror}") from None

    def write(self, label: str, line: str) -> None:
        """Log one of the program's lines, prefixed ``[label]``."""
        stream = self._file if self._file is not None else sys.stderr
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"[{label}] {line}\n")
            stream.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class PipeProgram:
    """One running bot program. Start it with :meth:`start`; ask it with :meth:`ask`
    (one question at a time); always :meth:`stop` it.

    The program runs in a session of its own (its own process group), so a Ctrl-C
    at the terminal reaches ``boardroom bot`` only, which decides when the
    program stops; and stopping it kills every process it started.
    """

    def __init__(
        self, process: asyncio.subprocess.Process, on_stderr: Callable[[str], None]
    ) -> None:
        self.process = process
        self.last_stderr: deque[str] = deque(maxlen=STDERR_LINES_KEPT)
        self._on_stderr = on_stderr
        self._stderr_task = asyncio.create_task(self._copy_stderr())
        self.waiting_for_answer = False
        """True from a question until its answer: a program cut off then is killed at once."""

    @classmethod
    async def start(cls, argv: Sequence[str], on_stderr: Callable[[str], None]) -> PipeProgram:
        """Start the program; :class:`BotFailedError` (crashed) if it cannot start."""
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=MAX_LINE_BYTES,
                start_new_session=True,
            )
        except OSError as error:
            raise BotFailedError(
                FailureKind.CRASHED,
                _(
                    "the program could not start: {command}: {error}",
                    command=shlex.join(argv),
                    error=error,
                ),
            ) from None
        return cls(process, on_stderr)

    async def ask(self, line: str, *, timeout: float | None) -> str:
        """Send ``line``, return the program's one-line answer (stripped).

        Raises :class:`BotFailedError`: ``crashed`` if it exits or closes stdout
        first, ``hung`` if no answer comes within ``timeout`` seconds, ``refused``
        for a line over :data:`MAX_LINE_BYTES`.
        """
        return await self.exchange([line], timeout=timeout)

    async def exchange(
        self,
        lines: Sequence[str],
        *,
        timeout: float | None,
        is_answer: Callable[[str], bool] | None = None,
    ) -> str:
        """Send ``lines``, then read lines until one ``is_answer`` (default: the
        first), and return it stripped; :meth:`ask`'s errors, with ``timeout``
        for the whole exchange. A protocol where the program may write other
        lines before its answer (Piskvork's ``MESSAGE``) passes ``is_answer``,
        which sees (and may log) each line."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        self.waiting_for_answer = True
        gone = False
        try:
            # One deadline for both: a program that stops reading its stdin fills
            # the pipe, and then even the write waits.
            async with asyncio.timeout(timeout):
                try:
                    stdin.write(b"".join(line.encode() + b"\n" for line in lines))
                    await stdin.drain()
                except (BrokenPipeError, ConnectionResetError):
                    gone = True
                while True:
                    answer = b"" if gone else await stdout.readline()
                    if not answer:
                        break
                    text = answer.decode(errors="replace").strip()
                    if is_answer is None or is_answer(text):
                        break
        except TimeoutError:
            raise BotFailedError(
                FailureKind.HUNG,
                _("the program did not answer within {seconds} s", seconds=format(timeout, "g")),
            ) from None
        except ValueError:  # the line is over the reader's limit
            raise BotFailedError(
                FailureKind.REFUSED,
                _(
                    "the program answered a line of over {bytes} bytes, not a move",
                    bytes=MAX_LINE_BYTES,
                ),
            ) from None
        if not answer:  # end of file (or a broken pipe): the program is gone
            raise await self._crashed()
        self.waiting_for_answer = False
        return text

    async def tell(self, lines: Sequence[str]) -> None:
        """Send ``lines`` that have no answer (Piskvork's ``INFO``, ``END``);
        a program already gone is left to the next question to find out."""
        stdin = self.process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            stdin.write(b"".join(line.encode() + b"\n" for line in lines))
            await stdin.drain()

    async def stop(self) -> None:
        """Close the program's stdin, give it :data:`EXIT_GRACE` to exit (none if it
        was cut off mid-question), then kill its process group. Never raises."""
        process = self.process
        if process.stdin is not None:
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.close()
        if process.returncode is None and not self.waiting_for_answer:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), EXIT_GRACE)
        # Even after the program exits, processes it started may live on in its
        # group (and hold its stderr open): they go too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        try:
            await asyncio.wait_for(self._stderr_task, CRASH_SETTLE)
        except (TimeoutError, asyncio.CancelledError):
            self._stderr_task.cancel()

    def exit_description(self) -> str:
        """How the program ended, in words (``exit status 1``, ``killed by SIGSEGV``)."""
        code = self.process.returncode
        if code is None:
            return _("still running, but its stdout is closed")
        if code < 0:
            try:
                return _("killed by {signal}", signal=signal.Signals(-code).name)
            except ValueError:
                return _("killed by signal {number}", number=-code)
        return _("exit status {code}", code=code)

    async def _crashed(self) -> BotFailedError:
        """The failure of a program whose stdout ended: its exit status and last words."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), CRASH_SETTLE)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._stderr_task), CRASH_SETTLE)
        ended = self.exit_description()
        if self.last_stderr:
            message = _(
                "the program ended without answering ({how}); its last stderr lines:", how=ended
            ) + "".join(f"\n    {line}" for line in self.last_stderr)
        else:
            message = _(
                "the program ended without answering ({how}); it wrote nothing on stderr",
                how=ended,
            )
        return BotFailedError(FailureKind.CRASHED, message)

    async def _copy_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        while True:
            try:
                raw = await stderr.readline()
            except ValueError:  # a line over the limit: take it in pieces
                raw = await stderr.read(MAX_LINE_BYTES)
            if not raw:
                return
            line = raw.decode(errors="replace").rstrip("\r\n")
            self.last_stderr.append(line)
            self._on_stderr(line)


class PipeBrain(Brain):
    """One game of a program bot: a fresh process, started with the game."""

    def __init__(self, argv: Sequence[str], log: StderrLog, label: str) -> None:
        self.argv = list(argv)
        self.log = log
        self.label = label
        self.program: PipeProgram | None = None
        self._starting: asyncio.Future[PipeProgram] | None = None

    async def start(self, state: GameState) -> None:
        # Shielded: a game that ends while the process starts must not leave a
        # process nobody holds; close() waits for the start and stops it.
        self._starting = asyncio.ensure_future(
            PipeProgram.start(self.argv, lambda line: self.log.write(self.label, line))
        )
        self.program = await asyncio.shield(self._starting)

    async def choose(self, state: GameState, *, timeout: float | None, time_ms: int) -> str:
        if self.program is None:
            await self.start(state)
        assert self.program is not None
        return await self.program.ask(turn_line(state, time_ms), timeout=timeout)

    async def end(self, state: GameState, result: GameResult) -> None:
        """Nothing to say: the closed stdin tells the program the game is over."""

    async def close(self) -> None:
        if self.program is None and self._starting is not None:
            with contextlib.suppress(BotFailedError):
                self.program = await self._starting
        if self.program is not None:
            await self.program.stop()


class PipeBrains(BrainSource):
    """``--cmd``: each game gets a new process of the command."""

    def __init__(self, command: str, log: StderrLog) -> None:
        self.argv = parse_command(command)
        self.name = command_name(self.argv)
        self.log = log

    def new_brain(self, label: str) -> PipeBrain:
        return PipeBrain(self.argv, self.log, label)

    async def close(self) -> None:
        self.log.close()
