"""Input and output for the terminal client: one interface, two ways of working.

- :class:`PromptConsole`, at a terminal: prompt_toolkit's asyncio prompt, with
  standard output patched so that lines printed while the user is typing appear
  above the input line instead of garbling it, and a bottom toolbar redrawn twice
  a second (the room's status line, so clocks count down without new lines).
- :class:`LineConsole`, for piped input or output: plain lines, no colour unless
  the output is a terminal, no toolbar and so no ticking clocks. Each line read
  from a pipe is echoed after its prompt, so a transcript reads like a session.

:func:`open_console` picks one. Contract for both: one coroutine at a time may
await :meth:`Console.read_line` (it may be cancelled, and the line being read is
then lost); :meth:`Console.show` may be called at any time from the event loop's
thread.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.patch_stdout import patch_stdout

from boardroom.client.terminal.style import Palette, colour_wanted
from boardroom.client.terminal.wrap import output_width, wrap_text
from boardroom.shared.i18n import _

TextSource = Callable[[], str]
"""Text computed when it is drawn (the prompt, the status toolbar)."""

TOOLBAR_REFRESH_SECONDS = 0.5
"""How often the toolbar is redrawn at a terminal: clocks show whole seconds, so
twice a second keeps them exact to within half a second."""


class Console(ABC):
    """Where the client writes and reads lines."""

    palette: Palette
    """Colour, or none (see :mod:`boardroom.client.terminal.style`)."""
    interactive: bool
    """True at a terminal (a person types, a toolbar shows live status); False when
    reading from a pipe or file (a script types ahead)."""

    @abstractmethod
    def show(self, text: str = "") -> None:
        """Print ``text`` (one or more lines) above the input line, each line wider
        than the terminal broken between words (:mod:`boardroom.client.terminal.wrap`)."""

    @abstractmethod
    async def read_line(self, prompt: str | TextSource) -> str | None:
        """The next line typed, without its newline; None at the end of input."""

    def echo(self, prompt: str, line: str) -> None:  # noqa: B027 - optional hook
        """Show ``line`` after ``prompt`` where the input itself is not seen (a pipe).

        Called when the line is acted on rather than when it is read, so that a
        transcript shows a script's move where it was played.
        """

    def set_status(self, status: TextSource | None) -> None:  # noqa: B027 - optional hook
        """Show ``status`` live below the input line (a terminal only; ignored elsewhere)."""

    def refresh(self) -> None:  # noqa: B027 - optional hook
        """Redraw the prompt and status now rather than at the next tick."""


class LineConsole(Console):
    """Plain lines on ``output``; input read from file descriptor ``input_fd`` by a
    daemon thread, so that waiting for input never blocks the event loop and an
    unfinished read never holds up the exit."""

    interactive = False

    def __init__(self, output: TextIO, input_fd: int, *, palette: Palette, echo: bool) -> None:
        self.palette = palette
        self._output = output
        self._input_fd = input_fd
        self._echo = echo
        self._lines: asyncio.Queue[str | None] | None = None
        self._at_end = False

    def show(self, text: str = "") -> None:
        # Flushed at once: a script or test reading the other end sees each line as it happens.
        print(wrap_text(text, output_width()), file=self._output, flush=True)

    async def read_line(self, prompt: str | TextSource) -> str | None:
        if self._at_end:
            return None
        if self._lines is None:
            self._lines = asyncio.Queue()
            _start_reader(self._input_fd, self._lines, asyncio.get_running_loop())
        line = await self._lines.get()
        if line is None:
            self._at_end = True
        return line

    def echo(self, prompt: str, line: str) -> None:
        if self._echo:
            self.show(f"{prompt}{line}")


def _start_reader(
    fd: int, lines: asyncio.Queue[str | None], loop: asyncio.AbstractEventLoop
) -> None:
    """Read lines from ``fd`` into ``lines`` until the end of input (then None).

    A daemon thread with raw ``os.read``: a pipe cannot be read without blocking
    on every platform, and the buffered ``sys.stdin`` would hold a lock at exit.
    """

    def put(line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is reading
            loop.call_soon_threadsafe(lines.put_nowait, line)

    def read() -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            *complete, pending = pending.split("\n")
            for line in complete:
                put(line.removesuffix("\r"))
            if not chunk:
                break
        if pending:
            put(pending)
        put(None)

    threading.Thread(target=read, name="boardroom-stdin", daemon=True).start()


class PromptConsole(Console):
    """A prompt_toolkit prompt at a terminal; use as a context manager, which patches
    standard output for the duration (so ``print`` from anywhere lands above the prompt)."""

    interactive = True

    def __init__(self, *, palette: Palette) -> None:
        self.palette = palette
        self._session: PromptSession[str] = PromptSession()
        self._status: TextSource | None = None

    @contextlib.contextmanager
    def patched_output(self) -> Iterator[PromptConsole]:
        # raw: our colour codes pass through as they are instead of being escaped.
        with patch_stdout(raw=True):
            yield self

    def show(self, text: str = "") -> None:
        print(wrap_text(text, self._width()), flush=True)

    def _width(self) -> int:
        """The terminal's width now (it may have been resized), as the prompt sees it."""
        columns = self._session.app.output.get_size().columns
        return columns if columns > 0 else output_width()

    def set_status(self, status: TextSource | None) -> None:
        self._status = status
        self.refresh()

    def refresh(self) -> None:
        app = self._session.app
        if app.is_running:
            app.invalidate()

    def _toolbar(self) -> ANSI | None:
        if self._status is None:
            return None
        # Broken between words too: the toolbar would cut the line at the last column.
        return ANSI(wrap_text(self._status(), self._width()))

    async def read_line(self, prompt: str | TextSource) -> str | None:
        while True:
            try:
                return await self._session.prompt_async(
                    prompt,
                    bottom_toolbar=self._toolbar,
                    refresh_interval=TOOLBAR_REFRESH_SECONDS,
                )
            except EOFError:  # Ctrl-D
                return None
            except KeyboardInterrupt:  # Ctrl-C clears the line, as in a shell
                self.show(self.palette.dim(_("(Ctrl-D or quit to leave)")))


@contextlib.contextmanager
def open_console(stdin: TextIO | None = None, stdout: TextIO | None = None) -> Iterator[Console]:
    """The console for this process: a prompt when both ends are a terminal, plain
    lines otherwise. Colour follows :func:`~boardroom.client.terminal.style.colour_wanted`."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    palette = Palette(enabled=colour_wanted(stdout))
    if _is_terminal(stdin) and _is_terminal(stdout):
        console = PromptConsole(palette=palette)
        with console.patched_output():
            yield console
    else:
        yield LineConsole(stdout, stdin.fileno(), palette=palette, echo=not _is_terminal(stdin))


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
