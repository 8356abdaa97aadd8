"""The engine in a real process pool, as the server runs it.

Workers are started with ``spawn`` explicitly: a fresh interpreter that imports
everything it needs, as on macOS and Windows and as Python 3.14 will default to on
Linux, so nothing may depend on state inherited by ``fork``.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from boardroom.shared.engine import SearchRequest, SearchResult, run_search_request
from boardroom.shared.games import get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

REQUESTS = [
    SearchRequest("tictactoe", "b2 a1 c3", level="perfect"),
    SearchRequest("tictactoe4", "a1 b2", level="medium", seed=3),
    SearchRequest("connect4", "4453", level="easy", seed=1),
    SearchRequest("connect4", "", time_limit=0.3),
    SearchRequest("gomoku", "h8 h9", depth=1),
    SearchRequest("mnk-5-4-3", "c2", level="random", seed=9),
    SearchRequest("mnk-7-7-5", "d4", level="hard", time_limit=0.3),
]


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as executor:
        yield executor


def test_workers_answer_every_game_with_legal_moves(pool: ProcessPoolExecutor) -> None:
    """Each request comes back from a spawned worker as a ``SearchResult`` with a
    legal move for its position, named in the game's notation."""
    futures = [pool.submit(run_search_request, request) for request in REQUESTS]
    for request, future in zip(REQUESTS, futures, strict=True):
        result = future.result(timeout=60)
        assert isinstance(result, SearchResult)
        game = get_game(request.game)
        position = game.from_moves(request.moves)
        assert result.move in game.legal_moves(position), request
        assert result.move_text == game.format_move(result.move)
        assert result.pv[0] == result.move


def test_a_worker_gives_the_same_answer_as_a_search_in_process(
    pool: ProcessPoolExecutor,
) -> None:
    """Requests decided by depth and seed, not by the clock, give equal results in
    and out of process, apart from the measured time and node counts."""
    deterministic = [request for request in REQUESTS if request.time_limit is None]
    for request in deterministic:
        remote = pool.submit(run_search_request, request).result(timeout=60)
        local = run_search_request(request)
        assert (remote.move, remote.score, remote.value, remote.exact, remote.pv) == (
            local.move,
            local.score,
            local.value,
            local.exact,
            local.pv,
        ), request


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: f"{r.game}:{r.moves}")
def test_a_request_pickles_small_and_back_to_an_equal_value(request_: SearchRequest) -> None:
    """A request is a few dozen bytes on the wire (name, moves and limits only)."""
    data = pickle.dumps(request_)
    assert len(data) < 200
    assert pickle.loads(data) == request_


def test_a_search_result_pickles_back_to_an_equal_value() -> None:
    """Results cross back whole: every field, the ``Value`` included, compares equal."""
    result = run_search_request(SearchRequest("connect4", "4453", level="easy", seed=1))
    data = pickle.dumps(result)
    assert pickle.loads(data) == result
    assert len(data) < 1000


@pytest.mark.parametrize("name", ["tictactoe", "tictactoe4", "connect4", "gomoku", "mnk-5-4-3"])
def test_a_game_pickles_by_name_to_the_same_cached_object(name: str) -> None:
    """Unpickling a game gives back the registry's one instance, not a copy."""
    game = get_game(name)
    data = pickle.dumps(game)
    assert pickle.loads(data) is game
    assert len(data) < 200
