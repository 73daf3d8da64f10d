"""Probe gamehall as a hostile user would, and count what misbehaves.

Each category is a module of ``tools/probing/`` (its docstring says what it tries and what
counts as misbehaving) and a list of cases made from ``--seed``: the same seed makes the same
cases, and ``--case N`` runs case N of the category named by ``--only`` again, as a repro.

- ``cli``: hostile command lines for every command and game (:mod:`probing.cli`).
- ``files``: damaged settings and statistics files (:mod:`probing.files`).
- ``kills``: writers of both files SIGKILLed mid-write (:mod:`probing.kills`).
- ``robots``: robot files that fail, and hostile ones that reach outside their seat
  (:mod:`probing.robots`, :mod:`probing.robots_hostile`).
- ``input``: random input on a headless Director (:mod:`probing.random_input`).
- ``games``: robots-only MasterGrab games replayed from their records (:mod:`probing.games`).
- ``descriptions``: hostile game description files (:mod:`probing.descriptions`).
- ``cases``: Cluedo case files and the assistant's console (:mod:`probing.cases`).
- ``workers``: tournament workers killed mid-run (:mod:`probing.workers`).
- ``dask``: Dask schedulers that hang, lie or die (:mod:`probing.scheduler`).
- ``saved``: links, pipes, devices and folders where the program saves, concurrent writers,
  a full disk, odd homes (:mod:`probing.saved`).

The command-line categories run ``--gamehall CMD`` (default: this interpreter with ``-m game``
and the repository root on PYTHONPATH, so the working tree); the others also import the
working tree's ``game`` package in scripts of their own. Every run gets a fresh GAMEHALL_HOME
and working folder under one temporary folder, with the XDG config and data folders pointed at
empty ones (which must stay empty), so nothing touches the user's own config. Output:
``category=NAME tried=N misbehaved=M`` per category, an indented line per misbehaviour (the
first 10 of each category, ``#N`` naming the case), ``misbehaved_total=K`` last; exit status 0
when nothing misbehaved, else 1.

    .venv/bin/python tools/probe.py [--only cli,files] [--seed 1] [--quick] [--jobs 2]
    .venv/bin/python tools/probe.py --only input --seed 1 --case 17     # one case again
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from probing.base import ROOT, Probe, clip

#: Each category and the module of ``probing`` that runs it (``run(probe) -> Tally``; the
#: ones run in worker processes also have ``worker(args)``).
CATEGORIES = {
    "cli": "cli",
    "files": "files",
    "kills": "kills",
    "robots": "robots",
    "input": "random_input",
    "games": "games",
    "descriptions": "descriptions",
    "cases": "cases",
    "workers": "workers",
    "dask": "scheduler",
    "saved": "saved",
}
SHOWN = 10


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    if args.worker:
        return _worker_main(args)
    only = args.only.split(",") if args.only else list(CATEGORIES)
    unknown = [c for c in only if c not in CATEGORIES]
    if unknown:
        print(f"probe: no category {', '.join(unknown)}; they are {', '.join(CATEGORIES)}")
        return 2
    if args.case is not None and len(only) != 1:
        print("probe: --case needs --only with one category")
        return 2
    total = 0
    with tempfile.TemporaryDirectory(prefix="gamehall-probe-") as scratch:
        probe = Probe(args, Path(scratch))
        for name in only:
            started = time.perf_counter()
            tally = _module(name).run(probe)
            seconds = time.perf_counter() - started
            print(f"category={name} tried={tally.tried} misbehaved={tally.misbehaved}")
            for line in tally.lines[:SHOWN]:
                print(f"    {clip(line, 400)}")
            if len(tally.lines) > SHOWN:
                print(f"    ... and {len(tally.lines) - SHOWN} more")
            sys.stdout.flush()
            print(f"    ({seconds:.0f} s)", file=sys.stderr, flush=True)
            total += tally.misbehaved
    print(f"misbehaved_total={total}")
    return 1 if total else 0


def _module(category: str) -> Any:
    return importlib.import_module(f"probing.{CATEGORIES[category]}")


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--only", help=f"categories, comma-separated: {','.join(CATEGORIES)}")
    p.add_argument("--seed", type=int, default=1, help="makes every case (default 1)")
    p.add_argument("--quick", action="store_true", help="a few cases of each (a smoke run)")
    p.add_argument("--case", type=int, help="run only this case of the one --only category")
    p.add_argument("--jobs", type=int, default=2, help="cases at once (default 2)")
    p.add_argument("--gamehall", help="the command to probe (default: python -m game here)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--steps", type=int, default=50, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.jobs = max(1, args.jobs)
    return args


def _worker_main(args: argparse.Namespace) -> int:
    """Read case numbers from stdin, one a line, and write one JSON line per case on stdout
    (the program's own printing goes to stderr)."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.path.insert(0, str(ROOT))
    run = _module(args.worker).worker(args)
    for line in sys.stdin:
        case = int(line)
        started = time.perf_counter()
        problems = run(case)
        reply = {"case": case, "problems": problems, "seconds": time.perf_counter() - started}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
