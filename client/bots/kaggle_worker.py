"""The process a Kaggle ConnectX agent runs in (``--kaggle agent.py``).

``python -m boardroom.client.bots.kaggle_worker AGENT.py`` loads the file as
Kaggle does, then answers one JSON line per JSON line on stdin: it reads
``{"observation": ..., "configuration": ...}``, calls the agent with both as
:class:`~boardroom.client.bots.kaggle_protocol.Struct` (or only as many as
the function takes, as Kaggle does), and writes ``{"action": N}`` (a whole
number), ``{"action": null, "returned": "..."}`` (anything else) or
``{"error": "traceback"}``. Once the file is loaded it writes ``{"ready":
NAME}``, so the time of a move does not count the loading. What the agent
prints goes to stderr (the run's log), never into the answers. ``--check
AGENT.py`` only loads it and writes ``{"name": ...}`` or ``{"error": ...}``.

The agent is the function ``agent`` if the file defines one, else the last
callable the file leaves behind, as Kaggle's ``get_last_callable`` takes it.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from boardroom.client.bots.kaggle_protocol import Struct, move_of_action


class AgentLoadError(Exception):
    """The file cannot be an agent; the message says why."""


def load_agent(path: Path) -> Callable[..., Any]:
    """The agent the file at ``path`` defines (see the module docstring)."""
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise AgentLoadError(f"{path}: {error.strerror}") from None
    try:
        code = compile(source, str(path), "exec")
    except SyntaxError as error:
        raise AgentLoadError(f"{path}, line {error.lineno}: {error.msg}") from None
    namespace: dict[str, Any] = {"__name__": "kaggle_agent", "__file__": str(path)}
    sys.path.append(str(path.resolve().parent))  # the files beside it, as Kaggle allows
    try:
        exec(code, namespace)  # noqa: S102 - the user's own agent, in its own process
    except Exception:
        raise AgentLoadError(f"{path} failed to load:\n{traceback.format_exc()}") from None
    named = namespace.get("agent")
    if callable(named):
        return named  # type: ignore[no-any-return]
    callables = [value for value in namespace.values() if callable(value)]
    if not callables:
        raise AgentLoadError(
            f"{path} defines no function: define agent(observation, configuration)"
        )
    return callables[-1]  # type: ignore[no-any-return]


def call_agent(agent: Callable[..., Any], request: dict[str, Any]) -> dict[str, Any]:
    """One move: the agent called as Kaggle calls it, its answer as a reply."""
    arguments = [Struct(request["observation"]), Struct(request["configuration"])]
    code = getattr(agent, "__code__", None)
    if code is not None:
        arguments = arguments[: code.co_argcount]
    try:
        action = agent(*arguments)
    except Exception:
        return {"error": traceback.format_exc()}
    if move_of_action(action) is None:
        return {"action": None, "returned": repr(action)[:200]}
    return {"action": int(action)}


def main(argv: list[str]) -> int:
    # The answers go to the real stdout; the agent's prints to stderr.
    answers: TextIO = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    check = argv[:1] == ["--check"]
    path = Path(argv[-1])
    try:
        agent = load_agent(path)
    except AgentLoadError as error:
        if check:
            answers.write(json.dumps({"error": str(error)}) + "\n")
            return 0
        print(error, file=sys.stderr, flush=True)
        return 2
    name = getattr(agent, "__name__", "agent")
    if check:
        answers.write(json.dumps({"name": name}) + "\n")
        return 0
    answers.write(json.dumps({"ready": name}) + "\n")  # loaded: the moves' time starts now
    for line in sys.stdin:
        if line.strip():
            answers.write(json.dumps(call_agent(agent, json.loads(line))) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
