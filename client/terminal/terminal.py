"""The terminal's two inputs, taken one at a time: lines the user types, and events
from the session.

Both screens (:mod:`boardroom.client.terminal.lobby`, :mod:`boardroom.client.terminal.room_screen`)
run the same loop: ``item = await terminal.next(prompt)``, then act on a
:class:`Line` or on a session event. Events come first when both are ready, so
that a line is always judged against the latest state. A line is read only when
the screen asks for one (``read=True``): a script's lines stay unread in the pipe
while the client waits for its turn, which is what lets a script list its moves
in advance.

Contract: one screen at a time owns the terminal; a read left in flight by
:meth:`Terminal.next` is kept for the next call (never lost) until
:meth:`Terminal.close`. Such a read shows the prompt of the latest call, so a
screen that takes over (the lobby entering a room by itself) shows its own
prompt at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from boardroom.client.errors import ClientError, ConnectionLostError, RequestRefusedError
from boardroom.client.refusals import refusal_text
from boardroom.client.session import Disconnected, Reconnected, Session, SessionEnded, SessionEvent
from boardroom.client.terminal.console import Console, TextSource
from boardroom.client.terminal.style import Palette
from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import ClientMessage, ServerMessage

YES = frozenset({"y", "yes", "s", "si", "sí"})
"""The answers that mean yes, in English and Spanish alike (the question's ``[y/N]``
is ``[s/N]`` in Spanish)."""


@dataclass(frozen=True)
class Line:
    """A line the user typed; ``text`` is None at the end of input."""

    text: str | None


class Terminal:
    """The console and the session of one run of the client."""

    def __init__(self, console: Console, session: Session, *, local: bool = False) -> None:
        self.console = console
        self.session = session
        self.local = local
        """True when the server is the client's own (``--local``): nobody else can
        reach it, and it goes, with its games, when the client quits."""
        self.events = session.subscribe()
        self.input_ended = False
        """True once the input has ended (a pipe's end, or Ctrl-D)."""
        self._reading: asyncio.Task[str | None] | None = None
        self._prompt: str | TextSource = ""
        """The prompt of the latest :meth:`next`: the one a read in flight shows."""

    @property
    def palette(self) -> Palette:
        return self.console.palette

    def show(self, text: str = "") -> None:
        self.console.show(text)

    def echo(self, prompt: str, line: str) -> None:
        """Show a line being acted on, after its prompt, where input is not seen."""
        self.console.echo(prompt, line)

    def notice(self, text: str) -> None:
        """Something about the client itself (the connection), set apart by colour."""
        self.console.show(self.console.palette.notice(text))

    def problem(self, text: str) -> None:
        """Why something typed was refused, as a sentence."""
        self.console.show(self.console.palette.problem(text[:1].upper() + text[1:]))

    async def next(self, prompt: str | TextSource, *, read: bool = True) -> Line | SessionEvent:
        """The next session event or, if ``read``, the next line typed (events first)."""
        if prompt != self._prompt:
            self._prompt = prompt
            self.console.refresh()  # a read in flight shows the new prompt now
        if not self.events.empty():
            return self.events.get_nowait()
        if read and self._reading is not None and self._reading.done():
            return self._take_line()
        if read and self._reading is None and not self.input_ended:
            self._reading = asyncio.create_task(self.console.read_line(self._current_prompt))
        getting = asyncio.create_task(self.events.get())
        waiting: set[asyncio.Future[Any]] = {getting}
        if read and self._reading is not None:
            waiting.add(self._reading)
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not getting.done():
                getting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await getting
        if getting.done() and not getting.cancelled():
            return getting.result()
        return self._take_line()

    def _current_prompt(self) -> str:
        prompt = self._prompt
        return prompt if isinstance(prompt, str) else prompt()

    def _take_line(self) -> Line:
        assert self._reading is not None
        text = self._reading.result()
        self._reading = None
        if text is None:
            self.input_ended = True
        return Line(text)

    async def ask(self, question: str) -> str | None:
        """Ask ``question`` and return the answer (None at the end of input). Events
        arriving meanwhile wait in the queue for the screen's loop."""
        await self._stop_reading()  # the question replaces the prompt
        if self.input_ended:
            return None
        line = await self.console.read_line(question)
        if line is None:
            self.input_ended = True
        else:
            self.console.echo(question, line)
        return line

    async def confirm(self, question: str) -> bool:
        """True if the user answers yes to ``question``; always True for a script,
        which cannot be asked (it meant what it typed)."""
        if not self.console.interactive:
            return True
        answer = await self.ask(_("{question} [y/N] ", question=question))
        return answer is not None and answer.strip().lower() in YES

    async def request(
        self, message: ClientMessage, *, raising: Collection[str] = ()
    ) -> ServerMessage | None:
        """Send ``message``; the reply, or None once the refusal has been shown in
        plain words. :class:`ConnectionLostError` is left to the caller, which knows
        whether what it sent is worth sending again, and so is a refusal whose code
        is in ``raising`` (:class:`RequestRefusedError`): the caller deals with it."""
        try:
            return await self.session.request(message)
        except RequestRefusedError as refusal:
            if refusal.code in raising:
                raise
            self.problem(refusal_text(refusal))
            return None
        except ConnectionLostError:
            raise
        except ClientError as error:
            self.problem(str(error))
            return None

    async def request_or_say_why(self, message: ClientMessage) -> ServerMessage | None:
        """:meth:`request`, showing a lost connection in words too."""
        try:
            return await self.request(message)
        except ConnectionLostError:
            self.problem(_("Not connected to the server right now (reconnecting): try again soon."))
            return None

    def show_connection_event(self, event: SessionEvent) -> None:
        """Tell the user about a drop, a reconnection or the end of the session."""
        if isinstance(event, Disconnected):
            # A plain drop (1006) needs no reason; a server shutting down (1001) does.
            if event.will_retry and event.code in (None, 1006):
                self.notice(_("Connection lost, reconnecting..."))
            elif event.will_retry:
                self.notice(_("Connection lost ({reason}), reconnecting...", reason=event.reason))
            else:
                self.notice(_("Connection lost: {reason}.", reason=event.reason))
        elif isinstance(event, Reconnected):
            self.notice(_("Reconnected."))
        elif isinstance(event, SessionEnded):
            self.notice(_("Disconnected: {reason}.", reason=event.reason))

    async def _stop_reading(self) -> None:
        reading, self._reading = self._reading, None
        if reading is not None and not reading.done():
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading

    async def close(self) -> None:
        """Stop reading input and stop receiving events."""
        await self._stop_reading()
        self.session.unsubscribe(self.events)
