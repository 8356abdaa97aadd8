"""End to end: a bot and the engine autopilot (issue 31 §1, "bots show it").

A real server (``--autopilot medium``, short grace windows), a protocol client
for the person, and a bot as ``boardroom bot`` runs it: the SDK's
:class:`~boardroom.client.session.Session` driven by its
:class:`~boardroom.client.bots.runner.BotRunner`, with a script whose hooks keep
the states they were shown. The bot's log (its
:class:`~boardroom.client.bots.report.Report`) and the states are checked
against the stored record's flags.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import CuttableProxy, Player, RunningServer, running_server, wait_until

from boardroom.client.bots.loader import BotScript, load_script
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import BotRunner, Entry, RunOptions
from boardroom.client.session import Session

GRACE = 0.3
LEVEL = "medium"
RECORDING_BOT = """
import asyncio

SEEN = []
\"\"\"(hook, ply, opponent_autopilot, autopilot_plies) of each call.\"\"\"


async def choose_move(state):
    SEEN.append(("move", state.ply, state.opponent_autopilot, state.autopilot_plies))
    await asyncio.sleep(0.2)  # slow enough that the person comes back mid-game
    return state.legal_moves[0]


def on_game_end(state, result):
    SEEN.append(("end", state.ply, state.opponent_autopilot, state.autopilot_plies))
"""


@dataclass
class RunningBot:
    session: Session
    script: BotScript
    report: Report
    task: asyncio.Task[None]

    @property
    def log(self) -> str:
        assert isinstance(self.report.err, io.StringIO)
        return self.report.err.getvalue()

    @property
    def seen(self) -> list[tuple[str, int, str | None, tuple[int, ...]]]:
        seen: list[tuple[str, int, str | None, tuple[int, ...]]] = self.script.module.SEEN
        return seen


@asynccontextmanager
async def bot_in(url: str, code: str, tmp_path: Path) -> AsyncIterator[RunningBot]:
    """The recording bot, joined to room ``code`` through ``url`` for one game."""
    path = tmp_path / "recording_bot.py"
    path.write_text(RECORDING_BOT)
    script = load_script(path)
    session = Session(url, "robo", client_kind="bot", reconnect_for=30.0)
    await session.start()
    brains = ScriptBrains(script, hook_timeout=5)
    await brains.open()
    report = Report(out=io.StringIO(), err=io.StringIO())
    runner = BotRunner(session, brains, RunOptions(entry=Entry("join", code=code), games=1), report)
    bot = RunningBot(session, script, report, asyncio.create_task(runner.run()))
    try:
        yield bot
    finally:
        runner.abort()
        await asyncio.gather(bot.task, return_exceptions=True)
        await brains.close()
        await session.close()


class ClosedProxy(CuttableProxy):
    """A :class:`CuttableProxy` that can also turn new connections away (while
    :attr:`refusing`): a client cut off stays away for as long as a test says."""

    refusing = False

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        await super()._accept(reader, writer)


async def ann_opens(server: RunningServer) -> tuple[Player, str]:
    """Ann opens a Connect Four room (the server's autopilot applies)."""
    ann = await Player.join_server(server.ws_url, "ann")
    created = await ann.request({"type": "create_room", "game": "connect4"})
    return ann, created["room"]["code"]


async def started(ann: Player) -> None:
    """Until Ann hears the bot sit down: the game is on, her move."""
    while (await ann.expect("state"))["room"]["status"] != "playing":
        pass


async def move(player: Player, code: str, column: str) -> None:
    reply = await player.request({"type": "move", "room": code, "move": column})
    assert reply["type"] == "moved", reply


async def flagged_plies(server: RunningServer, game_id: int) -> tuple[int, ...]:
    """The plies the stored record flags as the engine's."""
    record = await server.get_json(f"/api/games/{game_id}")
    return tuple(move["ply"] for move in record["moves"] if move["autopilot"])


async def test_a_bot_is_told_when_the_ai_plays_for_its_opponent_and_when_they_are_back(
    tmp_path: Path,
) -> None:
    """Ann drops on her turn against a bot. When her window runs out the bot's
    log says the AI plays for her, at medium, and the states its hooks get say
    so (``opponent_autopilot``) and which moves were the engine's
    (``autopilot_plies``); she comes back, the log says so, the states no longer
    show the autopilot, and she resigns. The plies the bot was told of are the
    ones the stored record flags."""
    async with running_server(
        tmp_path / "games.db", grace_seconds=GRACE, autopilot=LEVEL
    ) as server:
        ann, code = await ann_opens(server)
        async with bot_in(server.ws_url, code, tmp_path) as bot:
            await started(ann)
            await move(ann, code, "4")
            await ann.expect("moved", ply=1)
            await move(ann, code, "4")
            await ann.expect("moved", ply=3)
            await ann.close()  # on her turn
            await wait_until(lambda: bot.log, lambda log: "the AI plays for ann" in log)
            room = bot.session.rooms[code]
            await wait_until(lambda: room.autopilot_plies)  # the engine moved for her
            ann = await Player.join_server(server.ws_url, "ann", token=ann.token)
            await wait_until(lambda: bot.log, lambda log: "ann is back" in log)
            resigned = await ann.request({"type": "resign", "room": code})
            assert resigned["type"] == "game_over", resigned
            await asyncio.wait_for(bot.task, 10)

            game = f"game 1 in room {code}"
            assert f"{game}: the AI plays for ann (medium) until they come back\n" in bot.log
            assert f"{game}: ann is back\n" in bot.log
            flagged = await flagged_plies(server, resigned["game_id"])
            assert flagged and all(ply % 2 == 0 for ply in flagged), flagged  # Ann's side
            *moves, end = bot.seen
            assert end == ("end", end[1], None, flagged), (end, flagged)
            during = [seen for seen in moves if seen[2] == LEVEL]
            assert during, moves
            for _, ply, _, plies in during:
                assert plies == tuple(p for p in flagged if p < ply), (ply, plies)
            assert all(seen[3] == () for seen in moves if seen[1] <= 4), moves
        await ann.close()


async def test_a_bot_whose_seat_the_ai_played_while_it_was_away_learns_it_on_return(
    tmp_path: Path,
) -> None:
    """The bot's connection is cut on Ann's turn and it cannot reconnect past its
    window: the engine plays two moves for it. Once it gets through again it
    takes its seat back, its log says how many moves the AI played for it, and
    the state of its game's end lists those plies, as the stored record does."""
    async with running_server(
        tmp_path / "games.db", grace_seconds=GRACE, autopilot=LEVEL
    ) as server:
        ann, code = await ann_opens(server)
        async with ClosedProxy(server.port) as proxy, bot_in(proxy.ws_url, code, tmp_path) as bot:
            await started(ann)
            await move(ann, code, "4")
            await ann.expect("moved", ply=1)
            proxy.refusing = True
            proxy.cut()
            took = await ann.expect("player_status", side="second", autopilot=LEVEL)
            assert took["connected"] is False, took
            await move(ann, code, "4")
            engine: list[dict[str, Any]] = [await ann.expect("moved", ply=3)]
            await move(ann, code, "5")
            engine.append(await ann.expect("moved", ply=5))
            assert all(moved["autopilot"] is True for moved in engine), engine
            proxy.refusing = False
            await ann.expect("player_status", side="second", connected=True, timeout=20)
            resigned = await ann.request({"type": "resign", "room": code})
            assert resigned["type"] == "game_over", resigned
            await asyncio.wait_for(bot.task, 10)

            assert (
                f"game 1 in room {code}: the AI played 2 moves for this bot while it was away\n"
                in bot.log
            )
            flagged = await flagged_plies(server, resigned["game_id"])
            assert flagged == (3, 5), flagged
            assert bot.seen[-1] == ("end", 6, None, (3, 5)), bot.seen
        await ann.close()
