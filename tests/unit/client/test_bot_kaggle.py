"""Kaggle ConnectX agents: the translator and time rule (pure), the worker's
loading and calling rules, and the adapter driving agents in real processes."""

from __future__ import annotations

import http.server
import json
import socket
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest
from repo_paths import REPO_ROOT
from room_states import room_in_play

from boardroom.client.bots.errors import BotFailedError, FailureKind
from boardroom.client.bots.kaggle_bot import KaggleBrains, KaggleUrlBrains
from boardroom.client.bots.kaggle_protocol import (
    KaggleTime,
    Struct,
    configuration,
    connectx_shape,
    move_of_action,
    observation,
)
from boardroom.client.bots.kaggle_worker import AgentLoadError, call_agent, load_agent
from boardroom.client.bots.pipe_bot import StderrLog
from boardroom.client.bots.state import GameState, game_state
from boardroom.shared.games import Player, get_game

BOTS = REPO_ROOT / "tests" / "bots"


def state_of(moves: str = "", side: Player = Player.FIRST) -> GameState:
    return game_state(room_in_play("connect4", moves, you=side))


# -- the translator ----------------------------------------------------------------------------


def test_the_observation_is_kaggles_board_mark_and_step() -> None:
    """42 ints, top row first; 1 the first player's stones, 2 the second's."""
    seen = Struct(observation(state_of("4451", side=Player.SECOND), remaining_overage=12.5))
    assert len(seen.board) == 42
    bottom, above = seen.board[35:], seen.board[28:35]
    assert bottom == [2, 0, 0, 1, 1, 0, 0]  # 1 (X) at d1 and e1, 2 (O) at a1
    assert above == [0, 0, 0, 2, 0, 0, 0]
    assert sum(seen.board[:28]) == 0
    assert (seen.mark, seen.step, seen.remainingOverageTime) == (2, 4, 12.5)
    assert seen["mark"] == seen.mark


def test_the_configuration_names_the_board_and_the_time() -> None:
    shape = connectx_shape(get_game("connect4"))
    settings = Struct(configuration(shape, act_timeout=1.5))
    assert (settings.columns, settings.rows, settings.inarow) == (7, 6, 4)
    assert (settings.actTimeout, settings.timeout, settings.agentTimeout) == (1.5, 1.5, 60.0)


def test_a_struct_reads_as_attributes_and_as_a_dict() -> None:
    seen = Struct({"board": [0], "mark": 2})
    seen.step = 3
    assert (
        seen["step"] == 3
        and seen.mark == 2
        and dict(seen)
        == {
            "board": [0],
            "mark": 2,
            "step": 3,
        }
    )
    with pytest.raises(AttributeError):
        _ = seen.missing


@pytest.mark.parametrize(
    ("action", "move"),
    [(0, "1"), (6, "7"), (7, "8"), (-1, "0"), (True, None), (3.0, None), ("3", None), (None, None)],
)
def test_an_action_is_a_column_from_0_or_not_a_move(action: object, move: str | None) -> None:
    assert move_of_action(action) == move


def test_kaggles_time_rule_without_a_clock_is_a_bank_within_the_move_timeout() -> None:
    rule = KaggleTime()
    assert rule.budget(timeout=30, time_ms=30000) == (2.0, 28.0, 30.0)
    rule.spent(20.0, act_timeout=2.0)  # 18 s of overage used
    assert rule.bank == 42.0
    rule.spent(1.0, act_timeout=2.0)  # within its 2 s: the bank is untouched
    assert rule.bank == 42.0
    rule.spent(50.0, act_timeout=2.0)
    assert rule.bank == 0.0
    assert rule.budget(timeout=30, time_ms=30000) == (2.0, 0.0, 2.0)
    assert KaggleTime().budget(timeout=0.5, time_ms=500) == (0.5, 0.0, 0.5)


def test_kaggles_time_rule_with_a_clock_is_the_clock() -> None:
    assert KaggleTime().budget(timeout=None, time_ms=45000) == (2.0, 43.0, None)
    assert KaggleTime().budget(timeout=None, time_ms=800) == (0.8, 0.0, None)


# -- the worker ----------------------------------------------------------------------------------


def agent_file(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "submission.py"
    path.write_text(source)
    return path


def request(moves: str = "") -> dict[str, Any]:
    shape = connectx_shape(get_game("connect4"))
    return {
        "observation": observation(state_of(moves), remaining_overage=60),
        "configuration": configuration(shape, act_timeout=2),
    }


def test_the_agent_is_agent_else_the_last_callable(tmp_path: Path) -> None:
    named = load_agent(agent_file(tmp_path, "def agent(o, c):\n    return 1\ndef helper():\n"
                                            "    return 2\n"))  # fmt: skip
    assert named.__name__ == "agent"
    last = load_agent(agent_file(tmp_path, "def first(o, c):\n    return 1\n"
                                           "def my_agent(o, c):\n    return 2\n"))  # fmt: skip
    assert last.__name__ == "my_agent"


def test_the_agent_gets_only_the_arguments_it_takes(tmp_path: Path) -> None:
    one = load_agent(agent_file(tmp_path, "def act(observation):\n    return observation.step\n"))
    assert call_agent(one, request("44")) == {"action": 2}
    both = load_agent(
        agent_file(tmp_path, "def act(obs, config):\n    return config.columns - 1\n")
    )
    assert call_agent(both, request()) == {"action": 6}


def test_what_an_agent_does_wrong_is_a_reply_not_a_crash(tmp_path: Path) -> None:
    raising = load_agent(agent_file(tmp_path, "def agent(o, c):\n    return 1 / 0\n"))
    assert "ZeroDivisionError" in call_agent(raising, request())["error"]
    wrong = load_agent(agent_file(tmp_path, "def agent(o, c):\n    return [3]\n"))
    assert call_agent(wrong, request()) == {"action": None, "returned": "[3]"}


def test_a_file_without_a_function_is_not_an_agent(tmp_path: Path) -> None:
    with pytest.raises(AgentLoadError, match="defines no function"):
        load_agent(agent_file(tmp_path, "x = 1\n"))


# -- the adapter: agents in processes -----------------------------------------------------------


def source_of(tmp_path: Path, name: str) -> KaggleBrains:
    return KaggleBrains(BOTS / name, StderrLog(tmp_path / "agent.log"))


async def test_an_agent_answers_in_its_own_process_and_its_prints_are_logged(
    tmp_path: Path,
) -> None:
    source = source_of(tmp_path, "kaggle_agent.py")
    assert source.check_agent() == "agent"
    brain = source.new_brain("game 1")
    try:
        # X threatens a1 b1 c1 (columns 1 to 3): the agent (O) blocks at column 4.
        assert await brain.choose(state_of("17273", Player.SECOND), timeout=5, time_ms=5000) == "4"
    finally:
        await brain.close()
        await source.close()
    assert "[game 1] agent pid " in (tmp_path / "agent.log").read_text()


async def test_a_hanging_agent_is_cut_off_at_its_allowance(tmp_path: Path) -> None:
    source = source_of(tmp_path, "kaggle_hang.py")
    brain = source.new_brain("game 1")
    try:
        with pytest.raises(BotFailedError) as failed:
            await brain.choose(state_of(), timeout=0.5, time_ms=500)
        assert failed.value.kind is FailureKind.HUNG
    finally:
        await brain.close()
    assert brain.program is not None and brain.program.process.returncode is not None


async def test_a_crashing_agent_is_reported_with_its_last_words(tmp_path: Path) -> None:
    source = source_of(tmp_path, "kaggle_crash.py")
    brain = source.new_brain("game 1")
    try:
        with pytest.raises(BotFailedError) as failed:
            await brain.choose(state_of(), timeout=5, time_ms=5000)
    finally:
        await brain.close()
    assert failed.value.kind is FailureKind.CRASHED
    assert "exit status 3" in failed.value.message
    assert "kaggle_crash: crashing as asked" in failed.value.message


class _AgentServer(http.server.BaseHTTPRequestHandler):
    """A URL agent as Kaggle runs one: POST ``act``, answer the action."""

    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        reply = json.dumps({"action": body["state"]["observation"]["step"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: object) -> None:
        pass


async def test_a_url_agent_is_posted_what_kaggle_posts() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AgentServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        source = KaggleUrlBrains(f"http://127.0.0.1:{server.server_address[1]}/")
        brain = source.new_brain("game 1")
        assert await brain.choose(state_of("44"), timeout=5, time_ms=5000) == "3"
    finally:
        server.shutdown()
        server.server_close()
    (sent,) = _AgentServer.requests
    assert sent["action"] == "act" and sent["environment"] == "connectx"
    assert sent["configuration"]["actTimeout"] == 2.0 and sent["configuration"]["inarow"] == 4
    assert sent["state"]["observation"]["mark"] == 1


async def test_an_unreachable_url_agent_fails_the_game() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    brain = KaggleUrlBrains(f"http://127.0.0.1:{port}/").new_brain("game 1")
    with pytest.raises(BotFailedError, match=r"the agent at http://127\.0\.0\.1:") as failed:
        await brain.choose(state_of(), timeout=5, time_ms=5000)
    assert failed.value.kind is FailureKind.CRASHED
