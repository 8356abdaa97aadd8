"""A private Boardroom server for ``boardroom play --local``: a child process on a
free loopback port with a throwaway database, stopped when the client is done.

The client never imports the server (see ``docs/architecture.md``: ``client/`` depends on
``shared/`` only), so the server runs as ``python -m boardroom.server`` in a subprocess, and
its port is read from the line it prints when it is ready
(``Boardroom is serving on port N.``). Contract of :func:`local_server`: on exit,
normal or not, the child is sent SIGTERM (which saves and closes cleanly), killed if
it has not stopped within :data:`STOP_TIMEOUT`, and the temporary directory is removed.

:func:`local_process` is the same for any such program (``boardroom loadtest``
starts ``python -m boardroom.server.echo_server`` with it): a module, its flags, and the
pattern of the line that gives its port.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import re
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from boardroom.client.errors import ClientError
from boardroom.shared.i18n import _

START_TIMEOUT = 30.0
"""Seconds to wait for the server to listen: it starts its engine worker first,
which takes a second or two on a slow machine."""
STOP_TIMEOUT = 10.0
"""Seconds to wait after SIGTERM before killing the server."""

_READY_LINE = re.compile(rb"serving on port (\d+)")


class LocalServerError(ClientError):
    """The local server could not be started."""


@dataclass(frozen=True)
class LocalProcess:
    """A program started by :func:`local_process`, listening on 127.0.0.1."""

    port: int
    pid: int
    directory: Path
    """Its temporary directory (its log is ``directory / "server.log"``)."""


@contextlib.asynccontextmanager
async def local_server(
    *, server_module: str = "boardroom.server", extra_flags: tuple[str, ...] = ()
) -> AsyncIterator[str]:
    """Run a server on 127.0.0.1 for the duration; yields its WebSocket URL.

    Raises :class:`LocalServerError` if the server package is not installed, or
    if the server exits or stays silent before it is ready (with the end of its log).
    """
    if importlib.util.find_spec(server_module) is None:
        raise LocalServerError(
            _(
                "--local needs the Boardroom server, and the {package!r} package is not "
                "installed with this client: install the full boardroom package, or connect "
                "to a running server with --server",
                package=server_module,
            )
        )
    async with local_process(
        server_module,
        # One engine worker: one player, and the machine stays responsive.
        ("--pool-size", "1", *extra_flags),
        database=True,
    ) as started:
        yield f"ws://127.0.0.1:{started.port}/ws"


@contextlib.asynccontextmanager
async def local_process(
    module: str,
    flags: Sequence[str] = (),
    *,
    database: bool = False,
    ready: re.Pattern[bytes] = _READY_LINE,
    label: str = "the local server",
    own_session: bool = False,
    env: Mapping[str, str] | None = None,
) -> AsyncIterator[LocalProcess]:
    """Run ``python -m module --host 127.0.0.1 --port 0 [--database FILE] FLAGS`` for
    the duration, and yield it once it has printed a line matching ``ready``, whose
    first group is its port. ``database``: pass a file in the temporary directory.
    ``own_session``: start it in a session of its own, so a Ctrl-C typed at the
    terminal reaches only us (we stop it ourselves, with SIGTERM). ``env``: variables
    added to the program's environment (``bench relay`` runs an older checkout's
    server with ``PYTHONPATH``).

    Stopped on exit as :func:`local_server` is. Raises :class:`LocalServerError`
    (its messages name the program as ``label``) if the module is not installed, or
    if the program exits or stays silent before it is ready.
    """
    if importlib.util.find_spec(".".join(module.split(".")[:2])) is None:
        raise LocalServerError(
            _(
                "{program} needs the {package!r} package, which is not installed with this "
                "client: install the full boardroom package, or give the address of a "
                "running server with --server",
                program=label,
                package=module,
            )
        )
    with tempfile.TemporaryDirectory(prefix="boardroom-local-") as name:
        directory = Path(name)
        log_path = directory / "server.log"
        database_flags = ("--database", str(directory / "local.db")) if database else ()
        with log_path.open("wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                module,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                *database_flags,
                *flags,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                start_new_session=own_session,
                # The ready line is read in English: the program speaks the
                # locale's language (LANG=es_ES.UTF-8 would say "puerto").
                env={**os.environ, **(env or {}), "LANGUAGE": "en"},
            )
            try:
                port = await _wait_until_ready(process, log_path, ready, label)
                yield LocalProcess(port=port, pid=process.pid, directory=directory)
            finally:
                await _stop(process)


async def _wait_until_ready(
    process: asyncio.subprocess.Process, log_path: Path, ready: re.Pattern[bytes], label: str
) -> int:
    assert process.stdout is not None
    try:
        async with asyncio.timeout(START_TIMEOUT):
            while line := await process.stdout.readline():
                if match := ready.search(line):
                    return int(match.group(1))
            status = await process.wait()
    except TimeoutError:
        raise LocalServerError(
            _(
                "{program} did not start within {seconds} s",
                program=label,
                seconds=format(START_TIMEOUT, "g"),
            )
            + _log_tail(log_path)
        ) from None
    raise LocalServerError(
        _("{program} exited with status {status}", program=label, status=status)
        + _log_tail(log_path)
    )


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


def _log_tail(log_path: Path, lines: int = 5) -> str:
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    if not text:
        return ""
    return ":\n" + "\n".join(text.splitlines()[-lines:])
