"""The deep versions of the checks CI runs small: every test marked ``deep`` (see
``tests/deep.py``) at its full size, and then the deeper perft counts of
``benchmarks/rules_perft.py``. Prints pytest's lines, the time each part took, and exits with
the first non-zero status.

    .venv/bin/python benchmarks/slow_checks.py              # all of it (about an hour on 2 cores)
    .venv/bin/python benchmarks/slow_checks.py --no-perft   # only the deep tests
    .venv/bin/python benchmarks/slow_checks.py -k clue      # extra arguments go to pytest
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-perft", action="store_true", help="skip benchmarks/rules_perft.py")
    parser.add_argument("--jobs", default="auto", help="pytest-xdist processes (1: serial)")
    args, extra = parser.parse_known_args(argv)
    env = {**os.environ, "GAMEHALL_DEEP_CHECKS": "1"}
    parallel = [] if args.jobs == "1" else ["-n", args.jobs, "--dist", "worksteal"]
    runs = [[sys.executable, "-m", "pytest", "-q", "-m", "deep", *parallel, "tests", *extra]]
    if not args.no_perft:
        runs.append([sys.executable, str(ROOT / "benchmarks" / "rules_perft.py")])
    status = 0
    for command in runs:
        start = time.perf_counter()
        code = subprocess.call(command, cwd=ROOT, env=env)
        name = "deep tests" if "pytest" in command else "rules perft"
        print(f"{name}: status={code} seconds={time.perf_counter() - start:.0f}", flush=True)
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main())
