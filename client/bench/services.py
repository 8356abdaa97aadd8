"""Private Redis and PostgreSQL for ``boardroom bench cluster`` and ``faults``; their counters.

The benchmark starts what a cluster needs itself, as ``tests/services.py`` does
for the test suite: Debian's ``redis-server`` and PostgreSQL programs, run from a
temporary folder on a free loopback port and stopped at the end, so a run shares
nothing with a server the machine may already have. PostgreSQL keeps its
durable defaults (``fsync``, ``synchronous_commit`` on): a move is committed
to disk before anyone sees it, as in production. As root, PostgreSQL runs as the
``postgres`` user that Debian's package makes (it refuses to run as root).

The counters (:meth:`RedisServer.counters`, :meth:`PostgresServer.counters`) are
read with the servers' own command-line clients (``redis-cli``, ``psql``): the
client package has no Redis or PostgreSQL library, and needs none for this.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

POSTGRES_BIN = Path("/usr/lib/postgresql")
"""Debian keeps each major version's programs in /usr/lib/postgresql/VERSION/bin."""
START_TIMEOUT_S = 30.0
INSTALL_HINT = "install Debian's redis-server and postgresql packages (`make services`)"


class ServiceError(RuntimeError):
    """Redis or PostgreSQL is missing, or did not start; the message says which."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_bin() -> Path | None:
    """The folder of the newest PostgreSQL that Debian's packages installed; None if none."""
    found = [path for path in POSTGRES_BIN.glob("*/bin") if (path / "postgres").exists()]
    found.sort(key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0)
    return found[-1] if found else None


def missing_programs() -> list[str]:
    """The programs the benchmark needs that this machine lacks."""
    missing = [name for name in ("redis-server", "redis-cli") if shutil.which(name) is None]
    return missing + (["postgres"] if postgres_bin() is None else [])


def _wait_for(ready: Iterator[bool], process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    for answered in ready:
        if answered:
            return
        if process.poll() is not None:
            raise ServiceError(f"{what} stopped as it started (status {process.returncode})")
        if time.monotonic() > deadline:
            raise ServiceError(f"{what} did not answer within {START_TIMEOUT_S:g} s")
        time.sleep(0.05)


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop a server started here: SIGTERM, then SIGKILL after 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def stop_postgres(process: subprocess.Popen[bytes], data: Path) -> None:
    """Stop a throwaway PostgreSQL (its ``data`` folder is deleted next) at once.

    SIGQUIT to the postmaster itself is PostgreSQL's immediate shutdown: its
    backends end and it writes no checkpoint, which only a cluster that is kept
    would need. Sent to the postmaster, not to ``process``: as root that is
    ``runuser``, which on a signal of its own waits 2 s before it kills its
    child; the postmaster exiting by itself ends ``runuser`` at once."""
    if process.poll() is None:
        with contextlib.suppress(OSError):  # gone already
            os.kill(_postmaster(data, process), signal.SIGQUIT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
    stop_process(process)  # the slow way, if it is still running


@dataclass(frozen=True)
class RedisServer:
    """A running private ``redis-server``."""

    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self, *words: str) -> str:
        """``redis-cli`` ``words`` against this server; its output."""
        argv = ["redis-cli", "-h", "127.0.0.1", "-p", str(self.port), *words]
        return subprocess.run(argv, check=True, capture_output=True, text=True).stdout  # noqa: S603 - our arguments

    def reset_counters(self) -> None:
        self.command("CONFIG", "RESETSTAT")

    def counters(self) -> dict[str, int]:
        """Since the last reset: commands, bytes in and out, and calls per command
        (``calls:publish``, ``calls:evalsha``...), from ``INFO``; and the CPU time
        since start (``used_cpu_user_ms``, ``used_cpu_sys_ms``: not reset)."""
        figures: dict[str, int] = {}
        for line in self.command("INFO", "all").splitlines():
            key, _, value = line.strip().partition(":")
            if key in (
                "total_commands_processed",
                "total_net_input_bytes",
                "total_net_output_bytes",
            ):
                figures[key] = int(value)
            elif key in ("used_cpu_sys", "used_cpu_user"):
                figures[key + "_ms"] = round(float(value) * 1000)
            elif key.startswith("cmdstat_"):
                fields = dict(part.split("=", 1) for part in value.split(","))
                figures["calls:" + key.removeprefix("cmdstat_")] = int(fields["calls"])
        return figures


@contextlib.contextmanager
def start_redis() -> Iterator[RedisServer]:
    """A fresh ``redis-server`` without persistence (a cluster's Redis holds only
    what the live processes rebuild), until the block ends."""
    with tempfile.TemporaryDirectory(prefix="boardroom-bench-redis-") as folder:
        port = free_port()
        command = [
            "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--dir", folder, "--logfile", str(Path(folder) / "redis.log"),
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)  # noqa: S603 - our arguments
        try:
            server = RedisServer(port)

            def pings() -> Iterator[bool]:
                while True:
                    with contextlib.suppress(subprocess.CalledProcessError):
                        yield server.command("PING").strip() == "PONG"
                        continue
                    yield False

            _wait_for(pings(), process, "redis-server")
            yield server
        finally:
            stop_process(process)


@dataclass(frozen=True)
class PostgresServer:
    """A running private PostgreSQL server."""

    port: int
    user: str
    programs: Path
    pid: int
    """The postmaster's: its children are the server's backends."""

    def cpu_seconds(self) -> float:
        """CPU time of the postmaster, its live children (the backends, the WAL
        writer...) and the children it has reaped, from ``/proc``."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rpartition(")")[2].split()
                pid, ppid = int(stat.parent.name), int(fields[1])
                if pid == self.pid:
                    total += sum(int(value) for value in fields[11:15]) / ticks
                elif ppid == self.pid:
                    total += (int(fields[11]) + int(fields[12])) / ticks
        return total

    @classmethod
    def running(cls, port: int, user: str) -> PostgresServer:
        """A server already running on 127.0.0.1:``port`` that ``user`` may use
        (the test suite's own, which saves the benchmark its ``initdb``): its
        postmaster read from the data folder the server names."""
        programs = postgres_bin()
        if programs is None:
            raise ServiceError(f"PostgreSQL is not installed: {INSTALL_HINT}")
        asking = cls(port, user, programs, pid=0)
        data = asking._client("psql", "-d", "postgres", "-At", "-c", "SHOW data_directory")
        return cls(port, user, programs, _postmaster(Path(data.strip()), None))

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    @contextlib.contextmanager
    def frozen(self) -> Iterator[None]:
        """The server stopped (SIGSTOP) until the block ends, then continued
        (SIGCONT): the postmaster first, so that it forks no backend meanwhile,
        then every process under it. It neither answers nor refuses: its
        connections stay open and silent, new ones wait unanswered, as with a
        host that hangs or a network cut; nothing of it is lost, and it goes on
        where it stopped.

        As root the postmaster's parent is ``runuser``, which stops itself when
        its child stops (as ``su`` does, for job control) and stays stopped,
        unable to reap the postmaster when it exits: it is continued too."""
        parent = _parent(self.pid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGSTOP)
        family = descendants(self.pid)
        for pid in family:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in [*family, self.pid]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
            if parent is not None and _state(parent) == "T":
                with contextlib.suppress(ProcessLookupError):
                    os.kill(parent, signal.SIGCONT)

    def _client(self, program: str, *words: str) -> str:
        argv = [str(self.programs / program), "-h", "127.0.0.1", "-p", str(self.port)]
        argv += ["-U", self.user, *words]
        return subprocess.run(argv, check=True, capture_output=True, text=True).stdout  # noqa: S603 - our arguments

    def new_database(self) -> str:
        """A new empty database; its name."""
        name = f"boardroom_bench_{os.urandom(4).hex()}"
        self._client("createdb", name)
        return name

    def counters(self, database: str) -> dict[str, int]:
        """Transactions committed (``xact_commit``: asyncpg's reset of a connection
        given back to its pool is one too) and rows inserted in ``database`` since
        it was made, and the WAL's flushes to disk (``wal_sync``: the fsyncs) and
        records over the whole server since it started (pg_stat_database,
        pg_stat_wal)."""
        columns = "d.xact_commit, d.tup_inserted, w.wal_sync, w.wal_records"
        tables = "pg_stat_database d, pg_stat_wal w"
        where = f"d.datname = '{database}'"  # a name we made: no quote in it
        query = f"SELECT {columns} FROM {tables} WHERE {where}"  # noqa: S608
        out = self._client("psql", "-d", "postgres", "-At", "-c", query).strip()
        names = ("xact_commit", "tup_inserted", "wal_sync", "wal_records")
        return dict(zip(names, (int(value) for value in out.split("|")), strict=True))


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (state, parent...);
    [] if the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return []


def _state(pid: int) -> str:
    """The process's state letter (``T``: stopped); "" if it is gone."""
    fields = _stat(pid)
    return fields[0] if fields else ""


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[1]) if fields else None


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (its children, theirs...), from ``/proc``."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found: list[int] = []
    todo = list(children.get(pid, []))
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def _as_postgres_user() -> tuple[list[str], str]:
    """The prefix that runs a command as a user PostgreSQL accepts, and that user."""
    if os.geteuid() != 0:
        return [], pwd.getpwuid(os.geteuid()).pw_name
    return ["runuser", "-u", "postgres", "--"], "postgres"


def _postmaster(data: Path, started: subprocess.Popen[bytes] | None) -> int:
    """The postmaster's process id (as root, ``runuser`` started it: not ``started``)."""
    with contextlib.suppress(OSError, ValueError):
        return int((data / "postmaster.pid").read_text().split()[0])
    if started is None:
        raise ServiceError(f"no postmaster.pid in {data}: is PostgreSQL running there?")
    return started.pid


@contextlib.contextmanager
def start_postgres(max_connections: int = 200) -> Iterator[PostgresServer]:
    """``initdb`` and a fresh PostgreSQL on a free port, until the block ends."""
    programs = postgres_bin()
    if programs is None:
        raise ServiceError(f"PostgreSQL is not installed: {INSTALL_HINT}")
    prefix, user = _as_postgres_user()
    with tempfile.TemporaryDirectory(prefix="boardroom-bench-postgres-") as folder:
        data = Path(folder) / "data"
        data.mkdir()
        if prefix:
            shutil.chown(folder, user)
            shutil.chown(data, user)
        subprocess.run(  # noqa: S603 - our arguments
            [*prefix, str(programs / "initdb"), "-D", str(data), "-U", user,
             "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            check=True,
            capture_output=True,
        )  # fmt: skip
        port = free_port()
        command = [
            *prefix, str(programs / "postgres"), "-D", str(data), "-p", str(port),
            "-h", "127.0.0.1", "-k", str(data), "-c", f"max_connections={max_connections}",
        ]  # fmt: skip
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)  # noqa: S603 - our arguments
        try:
            ready = [str(programs / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port)]

            def answers() -> Iterator[bool]:
                while True:
                    done = subprocess.run([*ready, "-U", user], check=False)  # noqa: S603
                    yield done.returncode == 0

            _wait_for(answers(), process, "PostgreSQL")
            yield PostgresServer(port, user, programs, _postmaster(data, process))
        finally:
            stop_postgres(process, data)
