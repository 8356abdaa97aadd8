"""The console: plain lines from a pipe (for scripts), and prompt_toolkit at a
terminal (driven here through prompt_toolkit's own pipe input)."""

from __future__ import annotations

import asyncio
import io
import os
import re

from harness import wait_until
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from boardroom.client.terminal.console import LineConsole, PromptConsole
from boardroom.client.terminal.style import Palette

PLAIN = Palette(enabled=False)


async def test_a_line_console_reads_lines_from_a_pipe_then_none_at_its_end() -> None:
    """Lines split across writes, Windows line ends and a last line without a newline
    all arrive whole; the end of input is None, and stays None."""
    read_end, write_end = os.pipe()
    console = LineConsole(io.StringIO(), read_end, palette=PLAIN, echo=False)
    os.write(write_end, b"new tic")
    os.write(write_end, b"tactoe\r\nb2\n\nc")
    os.write(write_end, "3 é\n".encode())
    os.write(write_end, b"last")
    os.close(write_end)
    lines = [await console.read_line("> ") for _ in range(6)]
    assert lines == ["new tictactoe", "b2", "", "c3 é", "last", None]
    assert await console.read_line("> ") is None
    os.close(read_end)


async def test_a_line_console_echoes_lines_after_their_prompt_only_when_asked() -> None:
    output = io.StringIO()
    LineConsole(output, 0, palette=PLAIN, echo=True).echo("X> ", "b2")
    LineConsole(output, 0, palette=PLAIN, echo=False).echo("X> ", "c3")
    LineConsole(output, 0, palette=PLAIN, echo=False).show("board")
    assert output.getvalue() == "X> b2\nboard\n"


async def test_a_prompt_console_reads_typed_lines_and_ctrl_d_ends_the_input() -> None:
    """At a terminal: Enter gives the line, Ctrl-C clears it (with a hint) and
    Ctrl-D on an empty line is the end of input."""
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=100), term="xterm")
    with create_pipe_input() as keyboard, create_app_session(input=keyboard, output=output):
        console = PromptConsole(palette=PLAIN)
        keyboard.send_text("b2\r")
        assert await console.read_line("X> ") == "b2"
        keyboard.send_text("resing\x03resign\r")
        assert await console.read_line("X> ") == "resign"
        keyboard.send_text("\x04")
        assert await console.read_line("X> ") is None


async def test_the_toolbar_shows_the_status_and_is_redrawn_while_the_user_types() -> None:
    """The status (clocks) changes under a waiting prompt: refresh redraws it in the
    toolbar, without a line printed and without losing what is being typed."""
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=100), term="xterm")
    clock = ["1:59"]
    drawn_clocks: list[str] = []

    def status() -> str:
        drawn_clocks.append(clock[0])
        return f"Tic-tac-toe, room C9FVBQ | X ann (you) {clock[0]}"

    def drawn() -> str:
        return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", screen.getvalue())

    with create_pipe_input() as keyboard, create_app_session(input=keyboard, output=output):
        console = PromptConsole(palette=PLAIN)
        console.set_status(status)
        reading = asyncio.create_task(console.read_line("X> "))
        await wait_until(lambda: "X>" in drawn())  # the prompt is up, reading keys
        # A terminal answers prompt_toolkit's cursor position request; the toolbar is
        # drawn once the height below the cursor is known.
        keyboard.send_text("\x1b[1;1R")
        keyboard.send_text("b")
        await wait_until(lambda: "X ann (you) 1:59" in drawn())
        clock[0] = "1:58"
        console.refresh()
        await wait_until(lambda: "1:58" in drawn_clocks)
        keyboard.send_text("2\r")
        assert await reading == "b2"
    assert "Tic-tac-toe, room C9FVBQ | X ann (you) 1:59" in drawn()
    assert "1:58" in drawn_clocks  # redrawn (only the changed characters are written)
