"""The ``Dockerfile`` against the real server, without a Docker engine.

The test machines have no Docker engine, so the image is never built here
(docs/internet.md says so). What can be checked without one is: the command the
image runs, its variables and its volume are those of the real ``boardroom
serve`` (a flag or variable renamed in server/config.py fails here), the files it
copies are what the package is built from, the build context leaves out what
must not go into an image, and its health check passes against a running server
and fails when none answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness import run_boardroom, running_server
from repo_paths import REPO_ROOT

from boardroom.client.cli import build_parser
from boardroom.server.config import config_from

DOCKERFILE = REPO_ROOT / "Dockerfile"
DOCKERIGNORE = REPO_ROOT / ".dockerignore"


@dataclass
class Image:
    """What a Dockerfile says, as far as these tests read it."""

    entrypoint: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    volumes: list[str] = field(default_factory=list)
    exposed: list[int] = field(default_factory=list)
    user: str = "root"
    copied: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)


def read_dockerfile(text: str) -> Image:
    """The instructions of ``text`` that the tests check (comments and line
    continuations handled as Docker does; exec forms as JSON)."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    image = Image()
    for line in "\n".join(lines).replace("\\\n", " ").splitlines():
        keyword, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        match keyword.upper():
            case "ENTRYPOINT":
                image.entrypoint = json.loads(rest)
            case "ENV":
                for item in shlex.split(rest):
                    name, _, value = item.partition("=")
                    image.env[name] = value
            case "VOLUME":
                image.volumes.extend(rest.split())
            case "EXPOSE":
                image.exposed.extend(int(port.split("/")[0]) for port in rest.split())
            case "USER":
                image.user = rest
            case "COPY":
                *sources, _ = shlex.split(rest)
                image.copied.extend(s for s in sources if not s.startswith("--"))
            case "HEALTHCHECK":
                _, _, command = rest.partition(" CMD ")
                image.healthcheck = json.loads(command)
    return image


def test_the_image_runs_the_real_serve_with_its_database_on_the_volume() -> None:
    """``boardroom serve`` as the image runs it takes the image's variables and
    puts the database on the volume, listening on every interface on the
    exposed port, as a user who is not root."""
    image = read_dockerfile(DOCKERFILE.read_text())
    assert image.entrypoint[:2] == ["boardroom", "serve"], image.entrypoint
    scripts = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert "boardroom" in scripts

    settings = {name: value for name, value in image.env.items() if name.startswith("BOARDROOM_")}
    args = build_parser().parse_args(image.entrypoint[1:])
    config = config_from(args, environ=settings)  # raises on a variable it cannot read
    assert config.host == "0.0.0.0"
    assert image.exposed == [config.port]
    (volume,) = image.volumes
    assert PurePosixPath(config.database).parent == PurePosixPath(volume), config.database
    assert image.user not in ("root", "0")
    # The numba cache variable is the engine's, and in the user's home.
    assert "NUMBA_CACHE_DIR" in (REPO_ROOT / "shared/engine/native_kernel.py").read_text()
    assert image.env["NUMBA_CACHE_DIR"].startswith(f"/home/{image.user}/")


async def test_every_variable_of_the_image_is_one_that_serve_help_names() -> None:
    """A BOARDROOM_* variable that ``boardroom serve`` does not read would be
    silently ignored: each one is in its ``--help``."""
    image = read_dockerfile(DOCKERFILE.read_text())
    shown = await run_boardroom("serve", "--help")
    assert shown.status == 0, shown.err
    named = set(re.findall(r"env\s+(BOARDROOM_[A-Z_]+)", shown.out))
    given = {name for name in image.env if name.startswith("BOARDROOM_")}
    assert given and given <= named, given - named


def test_the_image_copies_what_the_package_is_built_from_and_the_context_leaves_out_the_rest() -> (
    None
):
    """The copied paths hold every folder pyproject.toml maps to a package,
    setup.py (which lists the packages) and the readme it reads; .dockerignore
    keeps them, and keeps out the virtualenv and any local database."""
    image = read_dockerfile(DOCKERFILE.read_text())
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    packages = set(project["tool"]["setuptools"]["package-dir"].values())
    assert {"pyproject.toml", "setup.py", project["project"]["readme"]} <= set(image.copied)
    assert packages <= {s.rstrip("/").removeprefix("./") for s in image.copied}, image.copied
    assert all((REPO_ROOT / s).exists() for s in image.copied), image.copied

    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert {".venv", "**/*.db", "**/*.db-*", "**/*.db.lock"} <= set(patterns), patterns
    kept = {s.rstrip("/").removeprefix("./") for s in image.copied}
    assert not kept & set(patterns), kept & set(patterns)


async def test_the_health_check_passes_on_a_running_server_and_fails_without_one(
    tmp_path: Path,
) -> None:
    """The image's HEALTHCHECK command, run as Docker runs it (with the port the
    server listens on in BOARDROOM_PORT), exits 0 while the server answers and
    not 0 once it has stopped."""
    image = read_dockerfile(DOCKERFILE.read_text())
    program, *arguments = image.healthcheck
    assert program == "python", image.healthcheck

    async def health_check(port: int) -> int:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *arguments,
            env={"BOARDROOM_PORT": str(port)},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return await asyncio.wait_for(process.wait(), 30)

    async with running_server(tmp_path / "games.db") as srv:
        assert await health_check(srv.port) == 0
    assert await health_check(srv.port) != 0
