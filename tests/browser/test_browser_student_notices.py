"""The student's page in class mode, in Chromium, at the sizes students have.

On a phone the teacher's message must read as written (whole words, wrapped
where a line ends), stand above the board and leave the whole board on screen;
the "Reconnecting…" banner must not cover it; a message from the server (a
tournament's end) says it is from the server, not from the teacher, and the
tournament's players are shown its final standings.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from browser import WebPlayer, web_session
from classroom_helpers import Teacher
from harness import Player
from playwright.async_api import WebSocketRoute, expect

PHONES = ((390, 844), (360, 640))
"""A common phone and a small one (CSS pixels)."""

NOTICE = "Hands off the keyboards for a minute: look at the wall, then finish your game."
LONG_WORD = "https://school.example.org/boardroom/lesson-twelve/connect-four-openings"
"""One word longer than a phone's line: the only word that may break."""

BROKEN_WORDS = """
(element) => {
  // Each word of the element's text whose letters lie on more than one line.
  const text = element.firstChild;
  const broken = [];
  const pattern = /\\S+/g;
  let found;
  while ((found = pattern.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, found.index);
    range.setEnd(text, found.index + found[0].length);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (tops.size > 1) broken.push(found[0]);
  }
  return broken;
}
"""


def disjoint(one: dict[str, float], other: dict[str, float]) -> bool:
    """Two boxes (Playwright's bounding boxes) share no pixel."""
    return (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


async def box(person: WebPlayer, selector: str) -> dict[str, float]:
    found = await person.page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def inside(found: dict[str, float], width: int, height: int) -> bool:
    """The box lies whole within a ``width`` x ``height`` window."""
    return (
        found["x"] >= 0
        and found["y"] >= 0
        and found["x"] + found["width"] <= width
        and found["y"] + found["height"] <= height
    )


async def test_a_teacher_s_message_on_a_phone_wraps_whole_words_above_the_whole_board(
    db_path: Path,
) -> None:
    """Lee plays Connect Four on a phone; the teacher sends a message, then one
    with a word longer than the line. At 390x844 and 360x640: the messages show
    above the board, the board whole on screen below them, no word broken across
    lines but the over-long one, the text as wide as the notice, nothing to
    scroll sideways."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        lee = await web.person("lee", viewport={"width": 390, "height": 844})
        await lee.create_room("connect4", ai="random")
        await expect(lee.room).to_have_attribute("data-status", "playing")
        await teacher.post("/api/admin/broadcast", {"text": NOTICE})
        pinned = lee.page.locator("#pinned .pinned.announcement")
        await expect(pinned).to_have_count(1)
        await expect(pinned.locator(".pinned-label")).to_have_text("From the teacher")

        async def check(width: int, height: int, count: int) -> None:
            where = f"{width}x{height}, {count} notice(s)"
            await lee.page.set_viewport_size({"width": width, "height": height})
            board = await box(lee, ".board")
            assert inside(board, width, height), f"{where}: the board is cut off: {board}"
            for index in range(count):
                notice = pinned.nth(index)
                shown = await notice.bounding_box()
                assert shown is not None and inside(shown, width, height), where
                assert shown["y"] + shown["height"] <= board["y"], f"{where}: not above the board"
                text = notice.locator(".pinned-text")
                said = await text.inner_text()
                broken = await text.evaluate(BROKEN_WORDS)
                assert broken in ([], [LONG_WORD]), f"{where}: words broken: {broken}"
                assert (LONG_WORD in said) == (broken == [LONG_WORD]), where
                # Not squeezed into a narrow column beside the label.
                text_box = await text.bounding_box()
                assert text_box is not None and text_box["width"] >= shown["width"] * 0.8, where
            scroll_width = await lee.page.evaluate("document.documentElement.scrollWidth")
            assert scroll_width <= width, f"{where}: the page scrolls sideways"

        for width, height in PHONES:
            await check(width, height, 1)
        await teacher.post("/api/admin/broadcast", {"text": f"The lesson's page: {LONG_WORD}"})
        await expect(pinned).to_have_count(2)
        for width, height in PHONES:
            await check(width, height, 2)

        await pinned.last.get_by_role("button", name="Dismiss").click()
        await expect(pinned).to_have_count(1)
        # With the notices gone the board moves up into their place.
        before = await box(lee, ".board")
        await pinned.get_by_role("button", name="Dismiss").click()
        await expect(pinned).to_have_count(0)
        after = await box(lee, ".board")
        assert after["y"] < before["y"] and inside(after, *PHONES[-1]), (before, after)


async def test_the_reconnecting_banner_does_not_cover_the_teacher_s_message(
    db_path: Path,
) -> None:
    """The teacher's message is up when Lee's connection drops and cannot come
    back: the "Reconnecting…" banner and the message both show, one above the
    other, on a phone and on a laptop, and the board stays whole on screen."""
    async with web_session(db_path, through_proxy=True, class_name="7B") as web:
        assert web.proxy is not None
        teacher = Teacher(web.server)
        lee = await web.person("lee", viewport={"width": 390, "height": 844})
        await lee.create_room("connect4", ai="random")
        await expect(lee.room).to_have_attribute("data-status", "playing")
        await teacher.post("/api/admin/broadcast", {"text": NOTICE})
        notice = lee.page.locator("#pinned .pinned.announcement")
        await expect(notice).to_be_visible()

        refused: list[Any] = []

        def refuse(socket: WebSocketRoute) -> None:
            # Every new connection is closed at once: the page keeps reconnecting.
            refused.append(asyncio.ensure_future(socket.close(code=1011)))

        await lee.page.route_web_socket("**/*", refuse)
        web.proxy.cut()
        await expect(lee.banner).to_contain_text("Reconnecting…")
        for width, height in ((390, 844), (360, 640), (1280, 720)):
            await lee.page.set_viewport_size({"width": width, "height": height})
            banner = await box(lee, "#banner")
            shown = await box(lee, "#pinned .pinned.announcement")
            where = f"{width}x{height}: banner {banner}, notice {shown}"
            assert disjoint(banner, shown), where
            assert inside(banner, width, height) and inside(shown, width, height), where
            assert banner["y"] + banner["height"] <= shown["y"], where
            assert inside(await box(lee, ".board"), width, height), where
        await asyncio.gather(*refused)


async def test_a_tournament_s_end_is_the_server_s_word_and_shows_its_standings(
    db_path: Path,
) -> None:
    """Ann (a phone) plays Bob (a protocol client) in a one-game tournament while
    Cat, who is not in it, waits in the lobby; Ann reloads her page during the
    game. When it ends, both pages say so
    "From the server", not "From the teacher"; Ann's page shows the final
    standings at once (her row marked, the table within the phone's width),
    Cat's offers them with a button, and the teacher's own message that follows
    is still "From the teacher"."""
    async with web_session(db_path, class_name="7B") as web:
        teacher = Teacher(web.server)
        ann = await web.person("ann", viewport={"width": 390, "height": 844})
        cat = await web.person("cat", viewport={"width": 360, "height": 640})
        bob = await Player.join_server(web.server.ws_url, "bob")
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ann", "bob")]
        status, answer, _ = await teacher.call(
            "POST",
            "/api/admin/tournaments",
            {"name": "Cup", "game": "tictactoe", "format": "round_robin", "entrants": entrants},
        )
        assert status == 201, answer
        match = await bob.expect("match", round=1)
        await bob.request({"type": "join", "code": match["code"]})
        await expect(ann.room).to_have_attribute("data-room", match["room"])
        await expect(ann.room).to_have_attribute("data-status", "playing")
        if match["side"] == "first":
            await bob.request({"type": "move", "room": match["room"], "move": "a1", "ply": 0})
        await ann.wait_turn()
        await ann.play("b2")
        # A reload forgets the match (not sent again for a game started): the
        # tournament room Ann sits in still says she plays in it.
        await ann.page.reload()
        await expect(ann.room).to_have_attribute("data-room", match["room"])
        await expect(ann.page.locator("body")).to_have_attribute("data-connection", "open")
        await bob.request({"type": "resign", "room": match["room"]})

        over = 'Tournament "Cup" is over: ann wins with 1 point.'
        for person in (ann, cat):
            notice = person.page.locator("#pinned .pinned.server")
            await expect(notice.locator(".pinned-label")).to_have_text("From the server")
            await expect(notice.locator(".pinned-text")).to_have_text(over)
            await expect(person.page.locator("#pinned .pinned.announcement")).to_have_count(0)

        view = ann.page.locator(".standings-view")
        await expect(view).to_have_attribute("data-status", "finished")
        await expect(view.locator("h2")).to_have_text("Final standings: Cup")
        rows = view.locator(".standings tbody tr")
        await expect(rows.locator(".name")).to_have_text(["ann", "bob"])
        await expect(rows.locator(".points")).to_have_text(["1", "0"])
        await expect(view.locator(".standings tr.you .name")).to_have_text("ann")
        table = await box(ann, ".standings-view .standings")
        assert inside(table, 390, 844), table
        assert await ann.page.evaluate("document.documentElement.scrollWidth") <= 390

        # Cat did not play: her lobby stays, and the notice's button opens the standings.
        await expect(cat.page.locator(".lobby-view")).to_be_visible()
        await (
            cat.page.locator("#pinned .pinned.server")
            .get_by_role("button", name="Standings")
            .click()
        )
        await expect(cat.page.locator(".standings-view .standings tbody tr")).to_have_count(2)
        await expect(cat.page.locator(".standings-view tr.you")).to_have_count(0)
        assert await cat.page.evaluate("document.documentElement.scrollWidth") <= 360

        await teacher.post("/api/admin/broadcast", {"text": "Well played, everyone."})
        said = cat.page.locator("#pinned .pinned.announcement")
        await expect(said.locator(".pinned-label")).to_have_text("From the teacher")
        await bob.close()
