"""The time from starting ``gamehall play GAME`` to the end of its first frame drawn.

    python benchmarks/first_frame.py                     # chess, warm, twice
    python benchmarks/first_frame.py --game othello --starts 3
    python benchmarks/first_frame.py --cold              # the first start in a new home too

Each start is a new process ``python -m game play GAME`` (this interpreter, the repository's
``game`` package) in a real window, on an Xvfb display of its own when there is none, with
``GAMEHALL_HOME`` in a folder of its own and ``NUMBA_CACHE_DIR`` unset: the game's own cache
folder (``$GAMEHALL_HOME/cache/numba``). The first start fills it (and is printed with
``--cold``); the starts after it are warm. The process ends itself at its first frame. One
line a start::

    game=chess start=warm load_avg=0.4 first_frame_s=1.31 cpu_s=1.12

- ``first_frame_s``: from starting the process to the end of the first frame, on the clock;
- ``cpu_s``: the processor time the process had spent by then;
- ``load_avg``: the machine's load (one minute) as the start ended.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from cold_start import display  # noqa: E402

#: The longest one start may take (a cold start compiles what the game compiles).
START_TIMEOUT_S = 600.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="chess", help="the game to start (default: chess)")
    parser.add_argument("--starts", type=int, default=2, help="warm starts to time (default: 2)")
    parser.add_argument("--cold", action="store_true", help="print the first (cold) start too")
    parser.add_argument("--size", default="1280x720", help="the window's size")
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        return drive(args.game, args.size)
    with tempfile.TemporaryDirectory(prefix="gamehall-first-frame-") as home, display() as env:
        env.pop("NUMBA_CACHE_DIR", None)
        env.pop("GAMEHALL_COMPILED_DIR", None)
        env["GAMEHALL_HOME"] = home
        env["PYTHONPATH"] = str(ROOT)
        for start in range(args.starts + 1):
            figures = run_start(args.game, args.size, env)
            if start or args.cold:
                kind = "warm" if start else "cold"
                load = os.getloadavg()[0]
                print(
                    f"game={args.game} start={kind} load_avg={load:.1f} "
                    f"first_frame_s={figures['first_frame_s']:.2f} cpu_s={figures['cpu_s']:.2f}",
                    flush=True,
                )
    return 0


def run_start(game: str, size: str, env: dict[str, str]) -> dict[str, float]:
    """One start in a new process; its figures."""
    env = dict(env, FIRST_FRAME_T0=repr(time.time()))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--drive", "--game", game, "--size", size],
        env=env,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"first_frame: the game ended with status {done.returncode}")
    figures: dict[str, float] = json.loads(lines[-1])
    return figures


def drive(game: str, size: str) -> int:
    """Inside the game's process: ``gamehall play GAME``, ended at its first frame."""
    t0 = float(os.environ["FIRST_FRAME_T0"])
    import pyglet

    from game.cli import main as gamehall
    from game.engine.director import Director

    seen: dict[str, float] = {}
    draw = Director.on_draw

    def on_draw(self: Director) -> None:
        draw(self)
        if not seen:
            seen["first_frame_s"] = time.time() - t0
            seen["cpu_s"] = time.process_time()
            pyglet.app.exit()

    Director.on_draw = on_draw  # type: ignore[method-assign]
    status = gamehall(["play", game, "--size", size])
    if status != 0 or not seen:
        print(f"first_frame: the game ended ({status}) before its first frame", file=sys.stderr)
        return 1
    print(json.dumps(seen), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
