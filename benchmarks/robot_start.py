"""How long a robot found on disk takes to start: the discovery process that imports its file,
then its own process (spawn, the sandbox's layers, import, constructor) up to its first move.

    python benchmarks/robot_start.py               # three runs of each
    python benchmarks/robot_start.py --runs 5

Prints one line per run (wall seconds, measured in this process)::

    robot_start run=1 discovery_s=... first_move_s=... next_move_ms=... cpu_s=...

``discovery_s`` is finding one trivial robot file (one discovery process), ``first_move_s`` the
first ``choose`` of its agent (its process started and jailed, the robot imported and made, one
move), ``next_move_ms`` a later move (the pipe round trip only), ``cpu_s`` the CPU time of
the robot processes of the run (discovery and the robot's, counted once they ended). The
robot sandbox's report of missing layers, if any, goes to stderr through the log.
"""

from __future__ import annotations

import argparse
import logging
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Limits, Stop  # noqa: E402
from game.logic.grab.discovery import RobotRegistry  # noqa: E402
from game.logic.grab.state import NO_MOVE, GrabBoard, GrabState  # noqa: E402

TRIVIAL = """
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE


class Trivial(Robot):
    def plan(self, game):
        return NO_MOVE
"""


def one_run(run: int, folder: Path) -> str:
    cpu = _children_cpu()
    started = time.perf_counter()
    registry = RobotRegistry(folder, entry_points=False)
    found = time.perf_counter()
    agent = registry.agent("trivial", budget_s=60.0)
    board = GrabBoard(sizes=(100, 100), neighbours=((1,), (0,)), players=2)
    try:
        state = GrabState(board, (0, 1), (9.0, 2.0))
        agent.choose(state, Limits(), random.Random(1), Stop())
        first = time.perf_counter()
        agent.choose(state.apply(NO_MOVE), Limits(), random.Random(1), Stop())
        second = time.perf_counter()
    finally:
        agent.close()
    return (
        f"robot_start run={run} discovery_s={found - started:.3f} "
        f"first_move_s={first - found:.3f} next_move_ms={(second - first) * 1000:.1f} "
        f"cpu_s={_children_cpu() - cpu:.3f}"
    )


def _children_cpu() -> float:
    """User and system CPU seconds of this process's ended children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "trivial.py").write_text(TRIVIAL)
        for run in range(1, args.runs + 1):
            print(one_run(run, folder), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
