"""A real server on a free port and real WebSocket clients, for end-to-end tests.

:func:`running_server` starts the whole aiohttp application (SQLite file, engine
process pool, everything) on 127.0.0.1 with a free port, as ``boardroom serve``
would, and stops it gracefully. :class:`Player` is a thin test client over the
``websockets`` library that speaks the protocol as plain JSON dicts, so the tests
read like the protocol document (and check the wire format, not our structs).
:func:`wait_until` waits for what sends no message (a row, a file, a process
gone): the one place where a test polls.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import multiprocessing
import multiprocessing.forkserver
import os
import re
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from repo_paths import REPO_ROOT
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from boardroom.server import lifecycle
from boardroom.server.admission import AdmittingRunner
from boardroom.server.app import create_app
from boardroom.server.cluster.node import CLUSTER
from boardroom.server.config import ServerConfig
from boardroom.server.engine_pool import EnginePool
from boardroom.server.tls import server_ssl_context

TESTS_FOLDER = Path(__file__).resolve().parent
TIMEOUT = 10.0
"""Seconds a test waits for an expected message: generous, for a loaded CI machine."""
POLL_INTERVAL = 0.05
"""Seconds between two looks of :func:`wait_until`."""


async def wait_until(
    probe: Callable[[], Any], done: Callable[[Any], bool] = bool, timeout: float = TIMEOUT
) -> Any:
    """Call ``probe`` until ``done(its answer)``, and return that answer.

    For a condition that no message announces: a row in the database, a file, a
    process gone, a page redrawn. ``probe`` is a plain function or a coroutine
    function; ``done`` defaults to the answer's truth. Raises ``TimeoutError``
    after ``timeout`` seconds. Where a message, a line or a task says it, await
    that instead.
    """
    async with asyncio.timeout(timeout):
        while True:
            answer = probe()
            if inspect.isawaitable(answer):
                answer = await answer
            if done(answer):
                return answer
            await asyncio.sleep(POLL_INTERVAL)


class ForkedEnginePool(EnginePool):
    """The engine pool of the servers the tests start in their own process: its
    workers are forked from a forkserver that has imported the engine once, not
    spawned as fresh interpreters that each import it again.

    Why: nearly every test starts a server of its own, and spawning its two
    workers (``pool_size=1`` and the reserved one) took 1-3 s of a loaded
    machine's CPU for each; a forked worker is ready in a tenth of that. The
    workers run the same code either way. The spawn start of ``boardroom serve``
    stays tested: the pool's own tests (tests/unit/server/adapters/
    test_server_engine_pool.py) and every :class:`ServerProcess` spawn theirs.
    """

    def __init__(self, **options: Any) -> None:
        options.setdefault("start_method", "forkserver")
        super().__init__(**options)

    async def start(self) -> None:
        start_the_forkserver()
        await super().start()


multiprocessing.get_context("forkserver").set_forkserver_preload(
    # forkserver_warm: the warm-up games' kernels, built once for every worker forked
    ["__main__", "boardroom.server.engine_pool", "forkserver_warm"]
)


def start_the_forkserver() -> None:
    """Start this process's forkserver, if it is not running yet, with the tests'
    folder on its path: it imports its preloaded modules by name, and this
    Python's forkserver does not take the path of the process that starts it
    (``forkserver_warm`` lives here, not in the installed package). Only the
    forkserver gets the variable: the processes the tests start later do not."""
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS_FOLDER), saved]))
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved


lifecycle.EnginePool = ForkedEnginePool  # type: ignore[misc]


@dataclass(frozen=True)
class RunningServer:
    """A server started by :func:`running_server`."""

    config: ServerConfig
    port: int
    app: web.Application

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http_url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    async def get(
        self, path: str, *, source: str | None = None, **headers: str
    ) -> tuple[int, str, str]:
        """GET ``path``: (status, content type, body). ``source``: the local address
        to send from (any of 127.0.0.0/8 works), to be another client address."""
        async with (
            aiohttp.ClientSession(connector=source_connector(source)) as session,
            session.get(self.http_url(path), headers=headers) as response,
        ):
            return response.status, response.content_type, await response.text()

    async def get_json(self, path: str) -> Any:
        status, _, body = await self.get(path)
        assert status == 200, body
        return json.loads(body)

    async def raw_http(
        self, method: str, path: str, headers: bytes = b"", body: bytes = b""
    ) -> tuple[int, dict[str, str], Any]:
        """Send one HTTP/1.1 request written byte for byte, ``headers`` as given
        (``b"Name: value\\r\\n"`` lines): what aiohttp's client will not send, such
        as header bytes that are not UTF-8. (status, headers, body as JSON if
        it is JSON, else bytes)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            start = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            framing = f"Connection: close\r\nContent-Length: {len(body)}\r\n"
            writer.write(start.encode() + framing.encode() + headers + b"\r\n" + body)
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), TIMEOUT)  # to the close
        finally:
            writer.close()
            await writer.wait_closed()
        head, _, content = answer.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.split(": ", 1) for line in lines)
        if fields.get("Content-Type", "").startswith("application/json"):
            return int(status_line.split()[1]), fields, json.loads(content)
        return int(status_line.split()[1]), fields, content


async def lines_until(stream: asyncio.StreamReader, text: str, timeout: float = 30.0) -> str:
    """Read lines from a process's ``stream`` up to the one that holds ``text``;
    those lines. Fails if the stream ends first or ``timeout`` seconds pass."""
    read = ""
    async with asyncio.timeout(timeout):
        while text not in read:
            line = (await stream.readline()).decode()
            assert line, f"the stream ended before {text!r}: {read!r}"
            read += line
    return read


def source_connector(source: str | None) -> aiohttp.TCPConnector | None:
    """An aiohttp connector sending from local address ``source`` (None: the default).
    Loopback answers from all of 127.0.0.0/8, so a test can be several addresses."""
    return None if source is None else aiohttp.TCPConnector(local_addr=(source, 0))


def test_config(database: Path, **overrides: Any) -> ServerConfig:
    """A config for tests: loopback, a free port, one engine worker, the pure-Python
    solver (``engine="python"``).

    Why pure: most tests start a server of their own, and loading the compiled
    solver costs each fresh worker about 0.7 s of CPU (2 s on a busy machine), a
    third of the suite's time, for searches that are not what those tests are
    about. Tests of the engine in the server pass ``engine="auto"``, the default
    of ``boardroom serve``; the two builds play the same moves (tests/unit/shared/
    test_engine_native.py), the compiled one faster.
    """
    base = ServerConfig(
        host="127.0.0.1", port=0, database=str(database), pool_size=1, engine="python"
    )
    return replace(base, **overrides)


@asynccontextmanager
async def running_server(database: Path, **overrides: Any) -> AsyncIterator[RunningServer]:
    """Start the server on ``database`` (config ``overrides`` applied); stop it after."""
    config = test_config(database, **overrides)
    app = create_app(config)
    runner = AdmittingRunner(
        app,
        handle_signals=False,
        access_log=None,
        shutdown_timeout=2.0,
        tls=server_ssl_context(config),
    )
    try:
        await runner.setup()  # if it fails, cleanup() gives back what it had started
        site = web.TCPSite(runner, config.host, 0)  # TLS, if any, at the runner's door
        await site.start()
        port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
        node = app.get(CLUSTER)
        if node is not None:  # as boardroom serve does once it listens
            await node.advertise(f"http://127.0.0.1:{port}")
        yield RunningServer(config, port, app)
    finally:
        await runner.cleanup()


class Player:
    """One protocol client. Messages are JSON dicts; every one received is kept
    in :attr:`seen` so a test can check what came, in order."""

    _ids = itertools.count(1)

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self._pending: list[dict[str, Any]] = []
        self.token: str | None = None
        self.name: str | None = None

    @classmethod
    async def connect(
        cls, url: str, *, source: str | None = None, headers: dict[str, str] | None = None
    ) -> Player:
        """Open a connection without saying hello (from local address ``source``
        if given: see :func:`source_connector`; with ``headers`` in the upgrade
        request, such as a proxy's ``X-Forwarded-For``)."""
        local = {} if source is None else {"local_addr": (source, 0)}
        ws = await connect(
            url,
            compression=None,
            max_size=2**22,
            open_timeout=TIMEOUT,
            additional_headers=headers,
            **local,
        )
        return cls(ws)

    @classmethod
    async def join_server(
        cls,
        url: str,
        name: str,
        *,
        client: str = "human",
        token: str | None = None,
        source: str | None = None,
    ) -> Player:
        """Connect and say hello; the welcome is read (and its token kept)."""
        player = await cls.connect(url, source=source)
        hello: dict[str, Any] = {"type": "hello", "name": name, "version": 1, "client": client}
        if token is not None:
            hello["resume_token"] = token
        welcome = await player.request(hello)
        assert welcome["type"] == "welcome", welcome
        player.token, player.name = welcome["resume_token"], welcome["name"]
        return player

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes the connection (what came is kept in
        :attr:`seen`), and return its close code; ``TimeoutError`` if it stays
        open for ``timeout`` seconds."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await self.recv(timeout)
        except ConnectionClosed:
            return self.ws.close_code

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (a dict as JSON; str or bytes as a raw frame)."""
        await self.ws.send(json.dumps(message) if isinstance(message, dict) else message)

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message not yet taken by :meth:`expect` or :meth:`request`."""
        if self._pending:
            return self._pending.pop(0)
        return await self._read(timeout)

    async def _read(self, timeout: float) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(frame)
        self.seen.append(message)
        return message

    async def expect(self, kind: str, timeout: float = TIMEOUT, **fields: Any) -> dict[str, Any]:
        """The first message of type ``kind`` whose fields match ``fields``; other
        messages before it stay queued for :meth:`recv`."""
        for index, message in enumerate(self._pending):
            if _matches(message, kind, fields):
                return self._pending.pop(index)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self._read(max(0.01, deadline - loop.time()))
            if _matches(message, kind, fields):
                return message
            self._pending.append(message)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` with a fresh ``id`` and return the reply echoing it."""
        request_id = next(self._ids)
        await self.send({**message, "id": request_id})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        for index, pending in enumerate(self._pending):
            if pending.get("id") == request_id:
                return self._pending.pop(index)
        while True:
            reply = await self._read(max(0.01, deadline - loop.time()))
            if reply.get("id") == request_id:
                return reply
            self._pending.append(reply)

    async def close(self) -> None:
        await self.ws.close()


CLI_TIMEOUT = 90.0
"""Seconds a ``boardroom`` child process may run in a test (a whole game included)."""


@dataclass(frozen=True)
class CliRun:
    """How a ``boardroom`` child process ended: its status and what it printed."""

    status: int
    out: str
    err: str


async def run_boardroom(*argv: str, env: dict[str, str] | None = None) -> CliRun:
    """Run ``boardroom ARGV`` to its end as a child process, with ``env`` added to
    ours (and no ``BOARDROOM_SERVER`` from the test's own environment). It speaks
    English unless ``env`` or ``argv`` asks for a language (``LANG``, ``--lang``)."""
    environ = {k: v for k, v in os.environ.items() if k != "BOARDROOM_SERVER"}
    environ.update(LANGUAGE="", LC_ALL="", LC_MESSAGES="", LANG="C.UTF-8")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "boardroom.client.cli", *argv),
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**environ, **(env or {})},
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), CLI_TIMEOUT)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return CliRun(process.returncode, out.decode(), err.decode())


async def play_out(url: str, game: str, moves: list[str]) -> int:
    """Ann and Bob play ``moves`` in a new room of ``game`` on the server at ``url``,
    then leave; the stored game's id, as ``game_over`` gives it."""
    ann = await Player.join_server(url, "ann")
    code = (await ann.request({"type": "create_room", "game": game}))["room"]["code"]
    bob = await Player.join_server(url, "bob")
    await bob.request({"type": "join", "code": code})
    for ply, move in enumerate(moves):
        reply = await (ann, bob)[ply % 2].request({"type": "move", "room": code, "move": move})
        assert reply["type"] == "moved", reply
    over = await ann.expect("game_over")
    assert isinstance(over["game_id"], int), over
    await ann.close()
    await bob.close()
    return int(over["game_id"])


async def raw_upgrade(
    port: int, *headers: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to the server on ``port`` that has sent a WebSocket
    upgrade request for /ws (with ``headers``, each ``"Name: value"``) and does
    nothing more: the test reads the answer and decides whether to answer back,
    as a client that stalls or never answers a close would not."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        *headers,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    return reader, writer


async def assert_alive(player: Player) -> None:
    """The connection still works: a ping gets the pong echoing its id."""
    reply = await player.request({"type": "ping"})
    assert reply["type"] == "pong", reply


def _matches(message: dict[str, Any], kind: str, fields: dict[str, Any]) -> bool:
    return message.get("type") == kind and all(message.get(k) == v for k, v in fields.items())


class ServerProcess:
    """``python -m boardroom.server`` in a child process, for what needs a real process:
    SIGKILL, SIGTERM, restarts. Start with :meth:`start`; the port is read from
    the line the server prints. Its log (stderr) goes to a temporary file, shown
    when it fails to stop in time.

    It runs one engine worker (``--pool-size 1``, and the reserved one) with the
    pure-Python solver (``--engine python``), as :func:`test_config` does for the
    servers in the test's own process, and for the same reason: each of its
    spawned workers would otherwise load the compiled solver, about 1 s of CPU
    apiece, for a server that a test starts to kill, restart or stop, not to
    search. A test of the compiled engine in a server process passes
    ``--engine auto`` among its flags (the last one given wins)."""

    def __init__(self, process: asyncio.subprocess.Process, port: int, log: Path) -> None:
        self.process = process
        self.port = port
        self.log = log
        self.last_log = ""
        """The whole log, once :meth:`stop` has returned."""

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @classmethod
    async def start(cls, database: Path | str, *flags: str) -> ServerProcess:
        handle, name = tempfile.mkstemp(prefix="boardroom-server-", suffix=".log")
        log = Path(name)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "boardroom.server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--pool-size",
            "1",
            "--engine",
            "python",
            "--database",
            str(database),
            *flags,
            stdout=asyncio.subprocess.PIPE,
            stderr=handle,
        )
        os.close(handle)  # the child holds its own copy
        assert process.stdout is not None
        while True:
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            if not line:
                status, told = await process.wait(), log.read_text()[-4000:]
                log.unlink()
                raise RuntimeError(f"the server exited with {status}:\n{told}")
            if match := re.search(rb"serving on port (\d+)", line):
                return cls(process, int(match.group(1)), log)

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        """Send ``signum`` and wait for the exit status; the log is then read into
        :attr:`last_log` and its file removed.
        A server still running 30 s later is killed, and the test fails with the
        end of its log."""
        if self.process.returncode is None:
            self.process.send_signal(signum)
        try:
            status = await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            raise AssertionError(
                f"the server did not stop within 30 s of {signal.Signals(signum).name}; "
                f"its log ends:\n{self.log.read_text()[-6000:]}"
            ) from None
        self.last_log = self.log.read_text() if self.log.exists() else ""
        self.log.unlink(missing_ok=True)
        return status


class CuttableProxy:
    """A TCP proxy in front of a server whose connections a test can cut.

    ``cut()`` aborts every connection through it (both sides see a reset, as when
    a network cable is pulled or a laptop sleeps) and goes on accepting new ones,
    so a client that reconnects gets through again. Use ``async with``; clients
    connect to :attr:`ws_url`.
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._transports: set[asyncio.WriteTransport] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def __aenter__(self) -> CuttableProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def cut(self) -> None:
        """Abort every connection now open through the proxy."""
        for transport in list(self._transports):
            transport.abort()
        self._transports.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(
            "127.0.0.1", self.target_port
        )
        self._transports.update((writer.transport, upstream_writer.transport))
        for source, sink in ((reader, upstream_writer), (upstream_reader, writer)):
            task = asyncio.create_task(_pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        sink.transport.abort()
