"""The web client's files as the server serves them (no browser needed).

``/`` is the page and ``/static/NAME`` its modules, style sheet and icon: each with
a type browsers accept for it, ``Cache-Control: no-cache`` (a new server version
is picked up at once) and an ETag for cheap revalidation. Nothing else is served
from the folder, and nothing in the client points outside the server.
"""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
from harness import running_server

from boardroom.server.web.routes import STATIC_DIR, WRITTEN_MODULES

IMPORT = re.compile(r'^import .* from "\./([a-z0-9-]+\.js)";$', re.MULTILINE)


async def test_the_page_and_its_files_are_served_fresh_with_their_types(db_path: Path) -> None:
    """The page carries a policy that keeps it on this server; each file has its
    type, asks to be revalidated, and an unchanged file answers 304."""
    async with running_server(db_path) as server:
        status, content_type, body = await server.get("/")
        assert (status, content_type) == (200, "text/html")
        assert '<script type="module" src="static/main.js">' in body
        expected = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
        async with aiohttp.ClientSession() as session:
            async with session.get(server.http_url("/")) as page:
                policy = page.headers["Content-Security-Policy"]
                assert "default-src 'self'" in policy and "connect-src 'self'" in policy
            for path in sorted(STATIC_DIR.iterdir()):
                if path.suffix == ".html":
                    continue
                url = server.http_url(f"/static/{path.name}")
                async with session.get(url) as response:
                    assert response.status == 200, path.name
                    assert response.content_type == expected[path.suffix], path.name
                    assert response.headers["Cache-Control"] == "no-cache"
                    etag = response.headers["ETag"]
                async with session.get(url, headers={"If-None-Match": etag}) as again:
                    assert again.status == 304, path.name


async def test_nothing_outside_the_client_folder_is_served(db_path: Path) -> None:
    """Unknown names, other folders and encoded path tricks are 404."""
    async with running_server(db_path) as server:
        for path in (
            "/static/nope.js",
            "/static/Main.js",
            "/static/%2e%2e%2froutes.py",
            "/static/..%2f__init__.py",
            "/static/routes.py",
        ):
            status, _, _ = await server.get(path)
            assert status == 404, path


def test_every_module_imported_exists_and_nothing_points_elsewhere() -> None:
    """The modules' imports all resolve inside the folder, each module opens with
    a comment saying its job, and no file names an outside address."""
    modules = {path.name: path.read_text() for path in STATIC_DIR.glob("*.js")}
    assert "main.js" in modules
    for name, text in modules.items():
        assert text.startswith(f"// {name}: "), f"{name} should open with its job"
        for imported in IMPORT.findall(text):
            assert imported in modules or imported in WRITTEN_MODULES, f"{name} imports {imported}"
    for path in STATIC_DIR.iterdir():
        text = path.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")
        outside = re.search(r"(https?:|wss?:)?//[a-z0-9-]+(\.[a-z0-9-]+)+", text, re.IGNORECASE)
        assert outside is None, f"{path.name} names an outside address: {outside}"
