"""Thinking in a worker process (game.logic.workers.pool): the same choice as on a
thread, a stop that reaches the worker, and every failure kept inside the call."""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest
from worker_agents import Announcing, Crashing, Dying, Hanging, Patient, WhereAmI

from game.logic.contract import Limits, Stop, ThinkingStopped
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame
from game.logic.workers import pool
from game.logic.workers.pool import ThinkingLost, WorkerAgent
from tests.waiting import HANG_S, wait_for_file


def _middle_game(game_id: str, plies: int = 4):
    state = RulesGame(rulebook(game_id), {}).initial_state(random.Random(0))
    rng = random.Random(3)
    for _ in range(plies):
        state = state.apply(rng.choice(list(state.legal_actions())))
    return state


@pytest.mark.parametrize("game_id", ["chess", "english-draughts", "kalah"])
def test_a_search_in_a_worker_chooses_what_it_chooses_here(game_id: str) -> None:
    state = _middle_game(game_id)
    limits = Limits(depth=2)
    local = make_agent("alphabeta")
    here = local.choose(state, limits, random.Random(5), Stop())
    worker = WorkerAgent(make_agent("alphabeta"))
    there = worker.choose(state, limits, random.Random(5), Stop())
    assert there == here
    assert there in state.legal_actions()
    assert worker.explain() == local.explain()  # what the search said, brought back


def test_the_agent_thinks_in_another_process() -> None:
    agent = WorkerAgent(WhereAmI())
    pid = agent.choose(None, Limits(time=HANG_S), random.Random(0), Stop())
    assert pid != os.getpid()
    assert agent.explain() == "looked at its process"
    # The worker is kept for the next search.
    assert agent.choose(None, Limits(time=HANG_S), random.Random(0), Stop()) == pid


def _stop_once_thinking(started: Path) -> Stop:
    """A stop set as soon as the worker has begun to think (it writes ``started``)."""
    stop = Stop()

    def watch() -> None:
        if wait_for_file(started):
            stop.set()

    threading.Thread(target=watch, daemon=True).start()
    return stop


def test_a_stop_reaches_the_worker(tmp_path: Path) -> None:
    # The agent ends only when the flag reaches it (ThinkingStopped, from the worker); a stop
    # that did not would end in ThinkingLost when the time runs out.
    started = tmp_path / "started"
    stop = _stop_once_thinking(started)
    agent = WorkerAgent(Announcing(Patient(), str(started)))
    with pytest.raises(ThinkingStopped):
        agent.choose(None, Limits(time=HANG_S), random.Random(0), stop)
    assert int(started.read_text()) != os.getpid()


def test_a_long_search_is_stopped_in_the_worker(tmp_path: Path) -> None:
    state = _middle_game("chess")
    started = tmp_path / "started"
    stop = _stop_once_thinking(started)
    agent = WorkerAgent(Announcing(make_agent("alphabeta"), str(started)))
    with pytest.raises(ThinkingStopped):
        agent.choose(state, Limits(time=HANG_S), random.Random(0), stop)


def test_an_agent_that_raises_raises_here() -> None:
    with pytest.raises(ValueError, match="tripped"):
        WorkerAgent(Crashing()).choose(None, Limits(time=HANG_S), random.Random(0), Stop())
    # The worker survives an agent's exception.
    assert WorkerAgent(WhereAmI()).choose(None, Limits(time=HANG_S), random.Random(0), Stop())


def test_a_hanging_agent_is_ended_and_the_next_search_works() -> None:
    agent = WorkerAgent(Hanging(), grace=0.5)
    with pytest.raises(ThinkingLost, match="no answer"):
        agent.choose(None, Limits(time=0.2), random.Random(0), Stop())
    assert WorkerAgent(WhereAmI()).choose(None, Limits(time=HANG_S), random.Random(0), Stop())


def test_a_worker_that_dies_is_reported_and_replaced() -> None:
    with pytest.raises(ThinkingLost, match="ended"):
        WorkerAgent(Dying()).choose(None, Limits(time=HANG_S), random.Random(0), Stop())
    assert WorkerAgent(WhereAmI()).choose(None, Limits(time=HANG_S), random.Random(0), Stop())


def test_an_agent_that_cannot_travel_thinks_here() -> None:
    class Local(WhereAmI):  # a class inside a function cannot be pickled
        pass

    assert WorkerAgent(Local()).choose(None, Limits(time=HANG_S), random.Random(0), Stop()) == (
        os.getpid()
    )


def test_the_described_games_think_in_workers_in_the_window() -> None:
    from game.registry import get

    entry = get("chess")
    assert entry.think_in_worker
    assert isinstance(entry.thinker("alphabeta", entry.options.defaults()), WorkerAgent)
    # Reversi's levels think in a worker too, in a worker that first readies the compiled search,
    # and come back with their last choice (the window shows its depth and score).
    reversi = get("reversi")
    level = reversi.thinker("expert", reversi.options.defaults())
    assert isinstance(level, WorkerAgent)
    assert level.prepare == reversi.compiled_search == "game.logic.reversi.players:prepare"
    assert level.bring_back


def test_an_idle_worker_that_was_killed_is_replaced_before_the_search() -> None:
    agent = WorkerAgent(WhereAmI())
    first = agent.choose(None, Limits(time=HANG_S), random.Random(0), Stop())
    # The worker now waits, idle, for the next search; it is killed there (kill -9).
    idle = next(w for w in pool._POOL._idle if w.process.pid == first)
    idle.process.kill()
    idle.process.join()
    # The search goes to a new worker: no broken pipe, no lost move.
    second = agent.choose(None, Limits(time=HANG_S), random.Random(0), Stop())
    assert second not in (first, os.getpid())
    assert agent.worker_pid == second


#: Run as a program: asks for a worker after multiprocessing's exit hook ended the workers, as
#: a search does whose worker was ended under it while the program exits.
_ASK_AT_EXIT = """
import atexit, sys

def ask_late():  # registered first, so it runs last
    from game.logic.workers import pool
    try:
        pool._POOL.acquire("")
    except pool.ThinkingLost as exc:
        print("refused:", exc)
    else:
        print("started a worker")

atexit.register(ask_late)
from game.logic.workers import pool
"""


def test_no_worker_is_started_while_the_program_ends() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", _ASK_AT_EXIT],
        capture_output=True,
        text=True,
        env=env,
        timeout=HANG_S,
    )
    # A worker started then is cut off as it reads its start (EOFError on the game's stderr)
    # or outlives the program.
    assert done.stdout.startswith("refused: the program is ending"), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
