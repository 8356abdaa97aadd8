"""Bots, waiting and an independent count of the results, for the tournament tests."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from classroom_helpers import Teacher
from harness import Player, wait_until
from repo_paths import REPO_ROOT

from boardroom.client.bots.loader import load_script
from boardroom.client.bots.python_bot import ScriptBrains
from boardroom.client.bots.report import Report
from boardroom.client.bots.runner import BotRunner, Entry, RunOptions
from boardroom.client.session import Session, SessionEvent
from boardroom.server.classroom.tournament_routes import DIRECTOR
from boardroom.server.tournaments.players import Bye, GameResult, Outcome, Result
from boardroom.server.tournaments.spec import TournamentSpec
from boardroom.server.tournaments.standings import TieBreak, compute_standings
from boardroom.shared.engine.search import search
from boardroom.shared.games import get_game
from boardroom.shared.protocol.messages import Clock

RANDOM_BOT = REPO_ROOT / "examples" / "random_bot.py"
WAIT = 45.0
"""Seconds a test waits for a tournament to reach a state (``harness.wait_until(...,
timeout=WAIT)``): generous, for a loaded machine."""


@dataclass
class InProcessBot:
    """``boardroom bot --script examples/random_bot.py --tournament``, in this process."""

    session: Session
    runner: BotRunner
    task: asyncio.Task[None]
    events: asyncio.Queue[SessionEvent]
    """Everything the bot's session received since it started."""

    async def stop(self) -> None:
        self.runner.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, 15)
        await self.session.close()

    def received(self, kind: type[Any]) -> list[Any]:
        seen = []
        while not self.events.empty():
            seen.append(self.events.get_nowait())
        for event in seen:
            self.events.put_nowait(event)
        return [event for event in seen if isinstance(event, kind)]


@contextlib.asynccontextmanager
async def in_process_bots(url: str, names: list[str]) -> AsyncIterator[list[InProcessBot]]:
    bots = []
    try:
        for name in names:
            session = Session(url, name, client_kind="bot")
            await session.start()
            events = session.subscribe()
            brains = ScriptBrains(load_script(RANDOM_BOT), hook_timeout=5)
            await brains.open()
            options = RunOptions(entry=Entry("tournament"), games=0, move_timeout=5)
            runner = BotRunner(session, brains, options, Report())
            bots.append(InProcessBot(session, runner, asyncio.create_task(runner.run()), events))
        yield bots
    finally:
        for bot in bots:
            await bot.stop()


async def get_json(base_url: str, path: str) -> Any:
    async with aiohttp.ClientSession() as session, session.get(base_url + path) as response:
        assert response.status == 200, await response.text()
        return await response.json()


async def tournament(base_url: str, tournament_id: int) -> dict[str, Any]:
    body = await get_json(base_url, f"/api/tournaments/{tournament_id}")
    return dict(body["tournament"])


# -- counting the results again, from the game records -------------------------------------

_RESULTS = {"1-0": Outcome.FIRST_WINS, "0-1": Outcome.SECOND_WINS, "1/2-1/2": Outcome.DRAW}


async def results_from_records(base_url: str, shown: dict[str, Any]) -> list[Result]:
    """Every game of the tournament as its record at /api/games/{id} says it
    went (seats by player name), plus the byes a Swiss scores 1 for."""
    entrant_by_name = {player["name"]: player["id"] for player in shown["players"]}
    results: list[Result] = []
    for round_ in shown["rounds_played"]:
        for game in round_["games"]:
            record = await get_json(base_url, f"/api/games/{game['game_id']}")
            first, second = (entrant_by_name[p["name"]] for p in record["players"])
            assert (first, second) == (game["first"], game["second"]), (record, game)
            results.append(GameResult(first, second, _RESULTS[record["result"]], round_["round"]))
        if round_["bye"] is not None and shown["format"] == "swiss":
            results.append(Bye(round_["bye"], round_["round"], 1.0))
    return results


def check_standings(shown: dict[str, Any], results: list[Result]) -> None:
    """The standings shown are those of ``results``: same ranks, points, tie-breaks."""
    players = [player["id"] for player in shown["players"]]
    tie_breaks = [TieBreak(name) for name in shown["tie_breaks"]]
    expected = compute_standings(results, players=players, tie_breaks=tie_breaks)
    assert [(s["player"], s["rank"], s["place"]) for s in shown["standings"]] == [
        (s.player, s.rank, s.place) for s in expected
    ]
    for line, standing in zip(shown["standings"], expected, strict=True):
        assert line["points"] == standing.points
        assert (line["wins"], line["draws"], line["losses"]) == (
            standing.wins,
            standing.draws,
            standing.losses,
        )
        for tie_break in ("buchholz", "buchholz_cut1", "sonneborn_berger"):
            assert line[tie_break] == getattr(standing, tie_break), (line, tie_break)


def meetings(shown: dict[str, Any]) -> list[frozenset[str]]:
    """Each game's two players, every round."""
    return [
        frozenset((game["first"], game["second"]))
        for round_ in shown["rounds_played"]
        for game in round_["games"]
    ]


def colour_counts(shown: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(first seats, second seats) of each player over the games played."""
    counts = {player["id"]: [0, 0] for player in shown["players"]}
    for round_ in shown["rounds_played"]:
        for game in round_["games"]:
            counts[game["first"]][0] += 1
            counts[game["second"]][1] += 1
    return {player: (a, b) for player, (a, b) in counts.items()}


def every_pair(players: list[str]) -> list[frozenset[str]]:
    return [frozenset(pair) for pair in itertools.combinations(players, 2)]


# -- a synthetic student who copies the engine (the fair-play list) ----------------------

TICTACTOE = get_game("tictactoe")
Choose = Callable[[str], str]
"""How a synthetic student picks its move from the game's move string."""


def engine_move(moves: str) -> str:
    """The perfect engine's move: what a student copying it plays."""
    return search(TICTACTOE, TICTACTOE.from_moves(moves), level="perfect").move_text


def worst_move(moves: str) -> str:
    """The move after which the opponent stands best, as the perfect engine sees it."""
    game = TICTACTOE
    position = game.from_moves(moves)

    def opponent_score(move: Any) -> int:
        after = game.play_unchecked(position, move)
        outcome = game.outcome(after)
        if outcome.is_over:
            return -1_000_000 if outcome.winner is not None else 0
        return search(game, after, level="perfect").score

    return game.format_move(max(game.legal_moves(position), key=opponent_score))


async def play_game(player: Any, room: str, choose: Choose) -> None:
    """Play ``player``'s (a harness.Player) side of the game in ``room`` with
    ``choose`` to its end."""
    while True:
        state = (await player.request({"type": "get_state", "room": room}))["room"]
        if state["status"] == "finished":
            return
        if state["status"] == "playing" and state.get("to_move") == state.get("you"):
            move = {"type": "move", "room": room, "move": choose(state["moves"])}
            await player.request({**move, "ply": state["ply"]})
        else:
            # The AI's move, or the game still to start: asked again well within
            # the connection's message rate.
            await asyncio.sleep(0.2)


async def casual_games(player: Any, count: int, choose: Choose) -> None:
    """``count`` tic-tac-toe games against the AI at easy, ``player`` first."""
    for _ in range(count):
        created = await player.request(
            {"type": "create_room", "game": "tictactoe", "ai_level": "easy", "seat": "first"}
        )
        room = created["room"]["code"]
        await play_game(player, room, choose)
        await player.request({"type": "leave", "room": room})


async def tournament_games(player: Any, count: int, choose: Choose) -> None:
    """``player``'s next ``count`` tournament games, each joined on its ``match``."""
    for _ in range(count):
        match = await player.expect("match", timeout=WAIT)
        await player.request({"type": "join", "code": match["code"]})
        await play_game(player, match["room"], choose)


async def engine_copier_tournament(server: Any) -> tuple[int, dict[str, str], list[Any]]:
    """On ``server`` (a harness.RunningServer in class mode): cleo plays two
    casual games as badly as she can, then a round robin against dan and three
    AIs copying the perfect engine's every move; dan plays the engine's moves
    throughout. Returns the finished tournament's id, the students' roster ids
    by name, and their two connections (harness.Player)."""
    teacher = Teacher(server)
    cleo = await Player.join_server(server.ws_url, "cleo")
    dan = await Player.join_server(server.ws_url, "dan")
    await asyncio.gather(casual_games(cleo, 2, worst_move), casual_games(dan, 2, engine_move))
    ids = {name: await teacher.student_id(name) for name in ("cleo", "dan")}
    spec = TournamentSpec(
        name="Cup",
        game="tictactoe",
        format="round_robin",
        rounds=5,
        double=False,
        clock=Clock(),
        no_show_seconds=WAIT,
        entrants=(
            f"student:{ids['cleo']}",
            f"student:{ids['dan']}",
            "ai:random",
            "ai:easy",
            "ai:medium",
        ),
    )
    tournament_id = (await server.app[DIRECTOR].create(spec)).id
    # Five entrants: four games each, one round sat out.
    await asyncio.gather(
        tournament_games(cleo, 4, engine_move), tournament_games(dan, 4, engine_move)
    )
    await wait_until(
        lambda: tournament(server.http_url(""), tournament_id),
        lambda shown: shown["status"] == "finished",
        timeout=WAIT,
    )
    return tournament_id, ids, [cleo, dan]


@dataclass(frozen=True)
class Pairing:
    """Ann and Bob's one game of a two-student round robin: each one's ``match``
    message, the room's code, each one's side and who plays each side."""

    matches: dict[str, dict[str, Any]]
    room: str
    sides: dict[str, str]
    by_side: dict[str, str]


async def pair_ann_and_bob(teacher: Teacher, ann: Any, bob: Any, name: str) -> Pairing:
    """Start a round-robin tournament ``name`` of tic-tac-toe between the class's
    ann and bob (60 s to sit down), and read the ``match`` each is sent."""
    entrants = [f"student:{await teacher.student_id(student)}" for student in ("ann", "bob")]
    body = {"name": name, "game": "tictactoe", "format": "round_robin", "entrants": entrants}
    body["no_show_seconds"] = 60
    status, _, _ = await teacher.call("POST", "/api/admin/tournaments", body)
    assert status == 201
    matches = {"ann": await ann.expect("match"), "bob": await bob.expect("match")}
    sides = {student: match["side"] for student, match in matches.items()}
    return Pairing(
        matches=matches,
        room=matches["ann"]["room"],
        sides=sides,
        by_side={side: student for student, side in sides.items()},
    )


async def start_round_robin(
    server: Any, name: str, entrants: list[str], *, no_show_seconds: float
) -> int:
    """Start a one-round round robin of tic-tac-toe called ``name`` on ``server`` (a
    harness.RunningServer in class mode) through its tournament director, as the
    teacher's ``POST /api/admin/tournaments`` would, and return its id.

    Why not through the API: it keeps the no-show window to 10 s at least (a
    teacher's class needs the time to sit down), and a test of what a no-show
    looks like would wait it out. The director takes any window; the API's
    limits are tested in tests/e2e/test_tournament_api.py."""
    spec = TournamentSpec(
        name=name,
        game="tictactoe",
        format="round_robin",
        rounds=1,
        double=False,
        clock=Clock(),
        no_show_seconds=no_show_seconds,
        entrants=tuple(entrants),
    )
    return (await server.app[DIRECTOR].create(spec)).id
