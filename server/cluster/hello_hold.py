"""A resuming hello held for a takeover: :class:`HelloHold`.

Contract: a session that resumes here learns where it holds seats on other
processes (:meth:`HelloHold.rooms_elsewhere`, asking every live process with an
``Ask`` that each answers at once, :meth:`HelloHold.answer`). It is never
welcomed without seats that a process which died a moment ago held: while a
process is silent or dead and not yet taken over, the hello is held until the
takeover is done, :data:`~boardroom.server.cluster.process.HELLO_HOLD_S` at most,
and past it the client is told to try again (None; the hub closes with 1013).
A class's cluster never takes rooms over (they all live in its home), so there
the hello is never held. The processes that know the session are told where it
is once it is welcomed (:attr:`~boardroom.server.cluster.gateway.Gateway.attach_to`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging

from boardroom.server.cluster.class_home import ClassHome
from boardroom.server.cluster.envelopes import Answer, Ask
from boardroom.server.cluster.gateway import Gateway
from boardroom.server.cluster.process import HELLO_HOLD_S, TAKEOVER_POLL_S, Process
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.sessions import Session

logger = logging.getLogger(__name__)

ASK_TIMEOUT_S = 2.0
"""How long a gateway waits for the other processes to say where a resuming
session holds seats: a live process answers in a millisecond; a process that
died a moment ago never does, and the gateway then waits for its takeover
(:data:`HELLO_HOLD_S`)."""


class HelloHold:
    """Where a resuming session holds seats elsewhere (see the module docstring)."""

    def __init__(self, process: Process, home: ClassHome, gateway: Gateway) -> None:
        self._process = process
        self._home = home
        self._gateway = gateway
        self._questions = itertools.count(1)
        self._answers: dict[int, asyncio.Queue[Answer]] = {}

    async def rooms_elsewhere(self, session: Session, token: str) -> list[str] | None:
        """Ask every other process where the session holds seats. A process that
        does not answer within :data:`ASK_TIMEOUT_S` (it died a moment ago: its
        heartbeat has not expired yet), or a dead one whose rooms are not taken
        over yet, may hold some of them: then wait for its takeover and ask
        again, until :data:`HELLO_HOLD_S` has passed (None: the hub has the
        client try again). A class's cluster never takes rooms over (they all
        live in its home), so there it does not wait."""
        directory = self._process.directory
        deadline = asyncio.get_running_loop().time() + HELLO_HOLD_S
        while True:
            live, dead = await directory.nodes()
            others = [node for node in live if node != self._process.node]
            known, rooms, silent = await self._ask_where(session, others)
            waiting_for = silent | set(dead)
            if not waiting_for or self._home.running is not None:
                self._gateway.attach_to[session.id] = known
                return sorted(rooms)
            if asyncio.get_running_loop().time() >= deadline:
                logger.warning(
                    "a resuming session waited for a takeover in vain",
                    extra={"session": session.id, "nodes": sorted(waiting_for)},
                )
                return None
            await self._wait_for_takeover(waiting_for, deadline)

    async def _ask_where(
        self, session: Session, others: list[str]
    ) -> tuple[set[str], set[str], set[str]]:
        """(the processes that know the session, its seats there, the processes
        that did not answer within :data:`ASK_TIMEOUT_S`)."""
        if not others:
            return set(), set(), set()
        question = next(self._questions)
        answers: asyncio.Queue[Answer] = asyncio.Queue()
        self._answers[question] = answers
        known: set[str] = set()
        rooms: set[str] = set()
        answered: set[str] = set()
        try:
            for node in others:
                self._process.publisher.send(node, Ask(self._process.node, question, session.id))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ASK_TIMEOUT_S):
                    while len(answered) < len(others):
                        answer = await answers.get()
                        answered.add(answer.sender)
                        if answer.known:
                            known.add(answer.sender)
                        rooms.update(answer.rooms)
        finally:
            del self._answers[question]
        return known, rooms, set(others) - answered

    async def _wait_for_takeover(self, nodes: set[str], deadline: float) -> None:
        """Until one of ``nodes`` is taken over (gone from the directory's
        processes) or :data:`TAKEOVER_POLL_S` times ten, at most to ``deadline``."""
        loop = asyncio.get_running_loop()
        until = min(deadline, loop.time() + 10 * TAKEOVER_POLL_S)
        while loop.time() < until:
            await asyncio.sleep(TAKEOVER_POLL_S)
            live, dead = await self._process.directory.nodes()
            if nodes - set(live) - set(dead):
                return

    def answer(self, ask: Ask) -> None:
        """Another process asks where a session holds seats here: say it at once."""
        hub = self._process.hub
        known = hub.knows(ClientId(ask.session))
        rooms = hub.seated_rooms(ClientId(ask.session)) if known else []
        answer = Answer(self._process.node, ask.question, known, rooms)
        self._process.publisher.send(ask.sender, answer)

    def answered(self, answer: Answer) -> None:
        """Another process answered one of this process's questions."""
        queue = self._answers.get(answer.question)
        if queue is not None:
            queue.put_nowait(answer)
