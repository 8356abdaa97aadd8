"""Helpers for the terminal client's end-to-end tests: the client as a real
process (``python -m boardroom.client.cli``) with piped input and output."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

TIMEOUT = 15.0
"""Seconds to wait for a line the client should print: generous for a busy machine."""


WIDE_TERMINAL = 1000
"""The width in columns the tests' clients take their terminal to have."""

PURE_PYTHON_ENGINE = {"BOARDROOM_ENGINE": "python"}
"""The environment for a client whose ``--local`` server's engine workers use the
pure-Python solver (the variable of the server's ``--engine``), as the tests' other
servers do (harness.test_config): each of its two spawned workers would otherwise
load the compiled solver, about 1 s of CPU apiece, for a game of tic-tac-toe or
none. The client's own engine (``solve``, ``review``) reads it too: pass it only
where the client plays through ``--local`` and searches nothing itself."""


class ClientProcess:
    """``python -m boardroom.client.cli ARGS`` with a pipe for input and one for output.

    It speaks English and its terminal is 1,000 columns wide (``COLUMNS``) unless
    ``env`` says otherwise (``LANG=es_ES.UTF-8``):
    the client breaks longer lines between words, and most tests match whole lines.
    Every line printed is kept in :attr:`lines`; :meth:`expect` waits for the next
    line (from where the last expect stopped) that matches a pattern.
    """

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._cursor = 0

    @classmethod
    async def start(cls, *args: str, config_home: Path, **env: str) -> ClientProcess:
        environ = {
            **os.environ,
            "COLUMNS": str(WIDE_TERMINAL),
            "XDG_CONFIG_HOME": str(config_home),
            # English unless a test asks for a language (LANG=es_ES.UTF-8, --lang es):
            # the tests read the client's words.
            "LANGUAGE": "",
            "LC_ALL": "",
            "LC_MESSAGES": "",
            "LANG": "C.UTF-8",
            **env,
        }
        environ.pop("NO_COLOR", None)  # colour is off anyway: the output is a pipe
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "boardroom.client.cli",
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=environ,
        )
        return cls(process)

    @property
    def transcript(self) -> str:
        return "\n".join(self.lines)

    def send(self, *lines: str) -> None:
        """Type ``lines``; the client acts on them in its own time."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines).encode())

    def close_input(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    async def _read_line(self) -> str | None:
        assert self.process.stdout is not None
        raw = await self.process.stdout.readline()
        if not raw:
            return None
        line = raw.decode().rstrip("\n")
        self.lines.append(line)
        return line

    async def expect(self, pattern: str, timeout: float = TIMEOUT) -> re.Match[str]:
        """The first line from the cursor on that ``pattern`` matches (searched)."""
        regex = re.compile(pattern)
        try:
            async with asyncio.timeout(timeout):
                while True:
                    while self._cursor < len(self.lines):
                        line = self.lines[self._cursor]
                        self._cursor += 1
                        if match := regex.search(line):
                            return match
                    if await self._read_line() is None:
                        raise AssertionError(
                            f"the client ended without printing {pattern!r}:\n{self.transcript}"
                        )
        except TimeoutError:
            raise AssertionError(
                f"no line matching {pattern!r} within {timeout} s:\n{self.transcript}"
            ) from None

    async def finish(self, timeout: float = TIMEOUT) -> int:
        """Read the rest of the output and return the exit status."""
        try:
            async with asyncio.timeout(timeout):
                while await self._read_line() is not None:
                    pass
                return await self.process.wait()
        except TimeoutError:
            raise AssertionError(f"the client did not exit:\n{self.transcript}") from None

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


@contextlib.asynccontextmanager
async def client_process(*args: str, config_home: Path, **env: str) -> AsyncIterator[ClientProcess]:
    """A :class:`ClientProcess` (``env``: variables to add or change), killed after
    the test if it is still running."""
    client = await ClientProcess.start(*args, config_home=config_home, **env)
    try:
        yield client
    finally:
        await client.kill()
