"""``workers`` (issue 25 item 3): the tournament's worker processes and the window's thinking
worker (``WorkerAgent``) SIGKILLed.

The cases: ``tournament chess --jobs 2`` (and ``tournament grab --jobs 2``) with one worker,
or both, SIGKILLed at a seeded moment after the workers have started (found as the children
of the tournament's process in ``/proc``); a script that asks a ``WorkerAgent`` for a move,
kills its idle worker and asks again (twice), and one that kills the worker while it thinks.

Misbehaving: a traceback, ``internal error``, an exit status other than 0 or 2, no end within
the time limit, no summary line (``game=... games=N``: the finished games' results must be
printed), fewer games than asked for with exit status 0; for the ``WorkerAgent``: anything but
a legal move or ``ThinkingLost`` from the call after the kill, no legal move from the call
after that.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shlex
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    Place,
    Probe,
    Ran,
    Tally,
    clip,
    common_problems,
    execute,
    last_line,
)

TIMEOUT_S = 180.0
GAMES = 6

#: Asks a WorkerAgent for moves around a SIGKILL of its worker; prints a JSON line of what
#: each call gave. argv: the game, the agent, "idle" or "thinking".
APART_SCRIPT = r"""
import json, multiprocessing, os, random, signal, sys, threading, time
from game.logic.workers.pool import WorkerAgent, ThinkingLost
from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame

game_id, agent_name, when = sys.argv[1:4]
state = RulesGame(rulebook(game_id), {}).initial_state(random.Random(0))
legal = set(state.legal_actions())
agent = WorkerAgent(make_agent(agent_name))
said = {}

def ask(key, limits):
    try:
        move = agent.choose(state, limits, random.Random(1), Stop())
        said[key] = "move" if move in legal else f"not a legal move: {move!r}"
    except ThinkingLost as exc:
        said[key] = "ThinkingLost"
    except BaseException as exc:
        said[key] = f"{type(exc).__name__}: {exc}"

def kill_workers():
    for child in multiprocessing.active_children():
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)

ask("first", Limits(depth=1))
if when == "idle":
    kill_workers()
    ask("after the kill", Limits(depth=1))
else:
    asking = threading.Thread(target=ask, args=("after the kill", Limits(time=20)))
    asking.start()
    time.sleep(1.0)
    kill_workers()
    asking.join(60)
    if asking.is_alive():
        said["after the kill"] = "no answer within 60 s"
ask("next", Limits(depth=1))
print(json.dumps(said))
"""


@dataclass(frozen=True)
class WorkerCase:
    """``kind``: ``tournament`` (``argv`` after ``tournament``; ``kill``: how many workers)
    or ``thinking`` (``argv``: the game, the agent, ``idle`` or ``thinking``)."""

    kind: str
    argv: tuple[str, ...]
    kill: int = 1


def worker_cases() -> list[WorkerCase]:
    chess = (
        "chess", "--agents", "random,beginner", "--games", str(GAMES), "--jobs", "2",
        "--max-steps", "60", "--time", "0.1",
    )  # fmt: skip
    # Robots' games are quick: enough of them that the workers still play when the kill comes.
    grab = (
        "grab", "--agents", "basic,basic", "--games", str(4 * GAMES), "--jobs", "2",
        "--countries", "60", "--max-steps", "150",
    )  # fmt: skip
    return [
        *(WorkerCase("tournament", chess) for _ in range(3)),
        WorkerCase("tournament", chess, kill=2),
        WorkerCase("tournament", grab),
        WorkerCase("thinking", ("tic-tac-toe", "alphabeta", "idle")),
        WorkerCase("thinking", ("chess", "alphabeta", "idle")),
        WorkerCase("thinking", ("chess", "alphabeta", "thinking")),
    ]


def run(probe: Probe) -> Tally:
    cases = worker_cases()
    indices = probe.pick(len(cases), 3)
    # One at a time: a kill must land while the workers have work, not while they wait for
    # a core another case holds.
    tally = Tally()
    for i in indices:
        tally.add(i, _case(probe, cases[i], i))
    return tally


def _case(probe: Probe, case: WorkerCase, index: int) -> list[str]:
    place = probe.place()
    try:
        if case.kind == "thinking":
            ran = execute(
                [sys.executable, "-c", APART_SCRIPT, *case.argv], env=probe.store_env(place),
                cwd=place.cwd, timeout=TIMEOUT_S,
            )  # fmt: skip
            problems = thinking_problems(ran)
        else:
            delay = random.Random(f"{probe.seed}:workers:{index}").uniform(1.0, 5.0)
            ran, killed = _killed_run(probe, ["tournament", *case.argv], place, delay, case.kill)
            problems = tournament_problems(ran, killed)
        what = f"{case.kind} {clip(shlex.join(case.argv), 90)}"
        return [f"{what}: {p}" for p in problems]
    finally:
        probe.done(place)


def _killed_run(
    probe: Probe, argv: list[str], place: Place, delay: float, kill: int
) -> tuple[Ran, list[int]]:
    """Run the tournament and SIGKILL ``kill`` of its workers ``delay`` s after they appear."""
    killed: list[int] = []
    started = threading.Event()
    result: dict[str, Ran] = {}

    def go() -> None:
        result["ran"] = probe.gamehall(argv, place, TIMEOUT_S)

    runner = threading.Thread(target=go)
    runner.start()
    deadline = time.monotonic() + TIMEOUT_S
    game_pid = None
    while runner.is_alive() and time.monotonic() < deadline and not started.is_set():
        game_pid = game_pid or _find_game(place)
        workers = _children(game_pid) if game_pid else []
        workers = [p for p in workers if b"resource_tracker" not in _cmdline(p)]
        if game_pid is not None and len(workers) >= 2:
            started.set()
            time.sleep(delay)
            for pid in [p for p in _children(game_pid) if p in workers][:kill]:
                _kill(pid)
                killed.append(pid)
        time.sleep(0.05)
    runner.join()
    return result["ran"], killed


def _find_game(place: Place) -> int | None:
    """The tournament's process: the one whose GAMEHALL_HOME is this case's."""
    home = f"GAMEHALL_HOME={place.home}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if b"game" in _cmdline(int(entry.name)) and home in (
                entry / "environ"
            ).read_bytes().split(b"\0"):
                parent = _ppid(int(entry.name))
                if parent is None or home not in _environ(parent):
                    return int(entry.name)
        except OSError:
            continue
    return None


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _environ(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return []


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def tournament_problems(ran: Ran, killed: list[int]) -> list[str]:
    problems = common_problems(ran, TIMEOUT_S)
    if not killed:
        problems.append("(the probe found no worker to kill)")
        return problems
    summary = re.search(r"^game=\S+ games=(\d+)", ran.out, re.M)
    if ran.rc is not None and summary is None:
        problems.append(f"no results printed after the kill ({last_line(ran.err)})")
    elif summary is not None and ran.rc == 0 and int(summary.group(1)) < GAMES:
        problems.append(f"exit status 0 with {summary.group(1)} of {GAMES} games")
    return problems


def thinking_problems(ran: Ran) -> list[str]:
    problems = common_problems(ran, TIMEOUT_S, allowed=(0,))
    try:
        said = json.loads(ran.out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return problems or [f"no answer from the script ({last_line(ran.err)})"]
    if said.get("first") != "move":
        problems.append(f"the first call gave {said.get('first')!r}")
    if said.get("after the kill") not in ("move", "ThinkingLost"):
        problems.append(f"the call after the kill gave {said.get('after the kill')!r}")
    if said.get("next") != "move":
        problems.append(f"the call after that gave {said.get('next')!r}")
    return problems
