"""The roster keeps its order across a restart, on both store backends.

Students added together (one bulk add of class accounts) and students who
joined one by one come back, after the server is stopped and started again on
the same database, in the order they were added: on the roster (which the
tournament form's checkboxes follow) and in the export's ``students.csv``.
"""

from __future__ import annotations

import csv
import io
import zipfile

from classroom_helpers import Teacher
from harness import Player, RunningServer, running_server

# Not in alphabetical order, nor in any order a random id would give by chance
# (1 in 10! for the bulk add).
BULK = ["Zoë", "Ann", "Mo", "Bob Smith", "Cy", "Dmitri", "Eve", "Xu", "Kai", "Lee"]


async def roster_names(teacher: Teacher) -> list[str]:
    return [s["name"] for s in (await teacher.get("/api/admin/roster"))["students"]]


async def students_csv_names(teacher: Teacher) -> list[str]:
    status, body, _ = await teacher.call("GET", "/api/admin/export/games.zip")
    assert status == 200
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        text = archive.read("students.csv").decode("utf-8-sig")
    return [row["name"] for row in csv.DictReader(io.StringIO(text))]


async def add_class(server: RunningServer) -> list[str]:
    """Two students join by hello, then ten are added at once, then one more
    joins: the names in the order they were added."""
    teacher = Teacher(server)
    early = [await Player.join_server(server.ws_url, name) for name in ("walt", "ada")]
    status, made, _ = await teacher.call("POST", "/api/admin/students", {"names": BULK})
    assert status == 201, made
    late = await Player.join_server(server.ws_url, "bea")
    for player in (*early, late):
        await player.close()
    return ["walt", "ada", *BULK, "bea"]


async def test_the_roster_comes_back_in_the_order_it_was_added(database: str) -> None:
    # running_server takes a path; a PostgreSQL URL goes as it is (Path() would fold its "//").
    async with running_server(database, class_name="7B") as server:  # type: ignore[arg-type]
        added = await add_class(server)
        teacher = Teacher(server)
        assert await roster_names(teacher) == added
        assert await students_csv_names(teacher) == added

    async with running_server(database, class_name="7B") as server:  # type: ignore[arg-type]
        teacher = Teacher(server)
        assert await roster_names(teacher) == added
        assert await students_csv_names(teacher) == added
