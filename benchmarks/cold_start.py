"""The window's first start: the first frame, the frames while Reversi's engine compiles, how
soon the computer moves once it has compiled, and every game's first open from the menu.

    python benchmarks/cold_start.py                  # a new virtual environment: pip install .
    python benchmarks/cold_start.py --python .venv/bin/python   # an existing one
    python benchmarks/cold_start.py --only tour      # only the games' first opens

With no ``--python`` it makes a new virtual environment in a temporary folder and installs
the repository into it with ``pip install .`` (a plain install, as a person's first one; pip
takes the dependencies from its wheel cache or the package index, and that time is printed as
``install_s``, apart from the figures). Then it starts the game twice, each time a new process
``gamehall play reversi`` in a real window (on an Xvfb display of its own when there is
none), with ``GAMEHALL_HOME`` in a new empty folder: numba's cache folder
(``$GAMEHALL_HOME/cache/numba``) is empty for the first start (``start=cold``: every kernel
compiles) and full for the second (``start=warm``). In each start, as a person would: a move
typed (d3) one second after the first frame, F3 two seconds after it (and again once its
overlay has shown), then the computer's reply (White, intermediate, 1 s) is awaited, then five
seconds of frames with nothing going on. The Reversi controller, the director and the worker
pool are watched from inside the process (their methods wrapped); nothing in the game is
changed. One line a start (``venv=given`` with ``--python``)::

    start=cold venv=new load_avg=9.1 first_frame_s=3.8 engine_ready_s=250.3 frames=9000
        longest_frame_ms=310 frames_over_100ms=40 median_frame_ms=22 longest_frame_after_ms=90
        person_move_ms=40 f3_ms=300 move_delay_ms=0 first_computer_move_s=252.0
        idle_longest_frame_ms=290 idle_frames_over_100ms=6 idle_median_frame_ms=21
        progress_steps=45 last_fraction=1.00 longest_at=2.1s:310ms,...

- ``load_avg``: the machine's load (one minute) when the start ended: the figures below are
  what this machine gave at that load;
- ``first_frame_s``: from starting the process to the end of the first frame drawn (< 3);
- ``engine_ready_s``: from the first frame until the engine's worker says it is ready;
- ``longest_frame_ms``, ``frames_over_100ms``, ``median_frame_ms``: the time between one
  drawn frame and the next, from the first frame until the engine is ready (< 100);
  ``longest_frame_from_10s_ms``, ``frames_over_100ms_from_10s``: the same from ten seconds
  after the first frame (the compile alone: the start, the person's first move and the first
  F3, each with costs of its own, are over);
  ``longest_frame_after_ms``: the same from then until the computer's move has been played;
- ``person_move_ms``: from typing the move to the frame that shows the disc falling;
- ``f3_ms``: from pressing F3 to the first frame drawn with the overlay;
- ``move_delay_ms``: from the engine being ready to the computer's search being sent to it
  (~0: the move waits for nothing else);
- ``first_computer_move_s``: from the first frame to the computer's move being played;
- ``idle_*``: the frames of the last seconds, nothing going on: what a frame costs here
  anyway (the software renderer on a busy machine), to set the frames above against;
- ``progress_steps``, ``last_fraction``: how many different percentages the banner showed
  while it compiled, and the last one (0 when nothing compiled: the cache was full);
- ``longest_at``: the five longest frames until the move, as seconds after the first frame
  and milliseconds, and for one over 100 ms what the drawing thread was seen doing (the
  game's stall watch, as in the tour below);
- ``jobs``: what the worker processes were given, in order, each as its kind (``prepare``:
  the engine readied, ``choose``: a move, ``call``: a question such as F3's), the worker's
  process id and the seconds after the first frame it ran from and to (and how it failed).

Then the tour (``--only tour`` alone), in a home of its own, cold then warm: ``gamehall play``
opens on the menu, and each game of :data:`TOUR` (river, reversi, grab, clue, chess; or those
of ``--games``, ``all`` for every game the menu shows, in its order) is
opened from it in turn, as a person would: its card played, a hint asked a second later, F3
shown and hidden again, back to the menu after six seconds, two seconds in the menu before
the next. Reversi's engine compiles in a worker meanwhile on the cold tour (the menu's
warm-up starts it), MasterGrab's map kernels too. A line for the whole start, then one per
game (from its opening to leaving it) and one for the menu's own frames::

    tour=cold venv=new game=all load_avg=8.3 first_frame_s=2.5 frames=1361
        longest_frame_ms=624 frames_over_100ms=25 median_frame_ms=24 longest_at=...
    tour=cold venv=new game=grab open_ms=59 frames=258 longest_frame_ms=505
        frames_over_100ms=2 median_frame_ms=20 longest_at=overlay@grab+0.9s:505ms@...

- ``open_ms``: the frame the game opened in;
- ``longest_at``: the three longest frames over 100 ms, each as the tour's step before it and
  how long before (``hint@clue+0.3s``), its milliseconds, and after ``@`` what the drawing
  thread was seen doing meanwhile (the game's own stall watch, :mod:`game.engine.stalls`:
  ``file:line function``, a library's line first, then the game's lines that called it).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The longest a start may take (a cold compile on a loaded two-core machine: minutes).
START_TIMEOUT_S = 1200.0
#: Seconds after the first frame from which the compile has the window to itself (the start,
#: the first move and the first F3 are over).
SETTLED_S = 10.0
#: Seconds of frames drawn after the computer's move with nothing going on: what a frame
#: takes on this machine at this load, beside the frames while the engine compiles.
IDLE_S = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--python", help="an interpreter with gamehall installed (default: a new venv)"
    )
    parser.add_argument("--size", default="800x600", help="the window's size")
    parser.add_argument(
        "--only", choices=("reversi", "tour"), help="only Reversi's starts, or only the tour"
    )
    parser.add_argument(
        "--games",
        default=",".join(TOUR),
        help="the games the tour opens, by id, comma-separated, or all (default: %(default)s)",
    )
    parser.add_argument("--drive", choices=("reversi", "tour"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        return drive(args.size) if args.drive == "reversi" else drive_tour(args.size, args.games)
    with tempfile.TemporaryDirectory(prefix="gamehall-cold-") as tmp:
        folder = Path(tmp)
        if args.python:
            # The starts run in a folder of their own: a relative path is the caller's.
            given = Path(args.python)
            python = str(given.absolute()) if given.parent != Path() else args.python
            venv = "given"
        else:
            python, venv = new_venv(folder / "venv"), "new"
        with display() as env:
            env.pop("NUMBA_CACHE_DIR", None)  # the game's own choice: $GAMEHALL_HOME/cache
            for mode in ("reversi", "tour"):
                if args.only not in (None, mode):
                    continue
                # Each mode in a home of its own: the first start finds every cache empty.
                env["GAMEHALL_HOME"] = str(folder / f"home-{mode}")
                for start in ("cold", "warm"):
                    lines = run_start(python, args.size, env, folder, mode, args.games)
                    for figures in lines:
                        pairs = " ".join(f"{key}={value}" for key, value in figures.items())
                        name = "start" if mode == "reversi" else "tour"
                        print(f"{name}={start} venv={venv} {pairs}")
                    sys.stdout.flush()
    return 0


def new_venv(path: Path) -> str:
    """A new virtual environment at ``path`` with the repository installed (``pip install .``);
    returns its interpreter."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    python = str(path / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)],
        check=True,
        cwd=path,
    )
    print(f"install_s={time.perf_counter() - started:.1f} venv={path}", flush=True)
    return python


@contextlib.contextmanager
def display() -> Iterator[dict[str, str]]:
    """The environment for the game: this one's display, or a new Xvfb's."""
    env = dict(os.environ)
    if env.get("DISPLAY"):
        yield env
        return
    if shutil.which("Xvfb") is None:
        raise SystemExit("cold_start: no display and no Xvfb (apt-get install xvfb)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    env["DISPLAY"] = f":{number}"
    try:
        yield env
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def run_start(
    python: str, size: str, env: dict[str, str], cwd: Path, mode: str, games: str
) -> list[dict[str, Any]]:
    """Start the game once in a new process (``mode``: Reversi's start, or the tour) and
    return its figures: one line for Reversi's start, a line per game for the tour."""
    env = dict(env, COLD_START_T0=repr(time.time()))
    done = subprocess.run(
        [python, str(Path(__file__).resolve()), "--drive", mode, "--size", size, "--games", games],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(("{", "["))]
    if done.returncode != 0 or not lines:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"cold_start: the game ended with status {done.returncode}")
    figures = json.loads(lines[-1])
    return figures if isinstance(figures, list) else [figures]


# -- inside the game's process ----------------------------------------------------------------


def record_frames(
    director: Any,
    frames: list[float],
    marks: dict[str, float],
    seen: Callable[[Any, float], None],
) -> None:
    """Make the Director class ``director`` note each frame it draws: the end of each in
    ``frames`` (perf_counter), the wall-clock time of the first in ``marks``, then
    ``seen(director, end)`` for what the caller watches."""
    draw = director.on_draw

    def on_draw(self: Any) -> None:
        draw(self)
        now = time.perf_counter()
        if not frames:
            marks["first_frame_wall"] = time.time()
        frames.append(now)
        seen(self, now)

    director.on_draw = on_draw


def record_stalls(director: Any, stalls: list[Any]) -> None:
    """Make the Director class ``director`` hand what its stall watch saw to ``stalls`` when
    it closes (each a :class:`game.engine.stalls.Stall`)."""
    close = director.close

    def close_watched(self: Any) -> None:
        watch = getattr(self, "stalls", None)
        stalls.extend(watch.stalls if watch is not None else ())
        close(self)

    director.close = close_watched


def doing(stalls: list[Any], end: float) -> str:
    """``@`` and what the drawing thread was seen doing in the frame that ended at ``end``,
    with no spaces ("" when the stall watch did not see it)."""
    found = [s for s in stalls if abs(s.at - end) < 0.005 and s.doing]
    return "@" + found[0].doing.replace(" ", "_") if found else ""


def drive(size: str) -> int:
    """Run ``gamehall play reversi`` with its director, controller and worker pool watched;
    print the figures as one JSON line."""
    t0 = float(os.environ["COLD_START_T0"])
    import pyglet  # the installed game's dependencies, not the repository's copy

    from game import registry
    from game.cli import main as gamehall
    from game.engine.director import Director
    from game.logic.workers import pool

    frames: list[float] = []  # perf_counter at the end of each frame drawn
    overlay_frames: list[float] = []
    marks: dict[str, float] = {}
    fractions: set[int] = set()

    def seen(self: Director, now: float) -> None:
        if self.overlay.visible:
            overlay_frames.append(now)
        if "typed" in marks and "person_seen" not in marks and self.tweens.busy:
            marks["person_seen"] = now

    finish = pool.Preparation._finish

    engine = registry.get("reversi").engine  # the warm-up readies MasterGrab's kernels too

    def _finish(self: pool.Preparation, error: str = "", pid: int | None = None) -> None:
        if self.task == engine:
            marks.setdefault("ready", time.perf_counter())
        finish(self, error, pid)

    progress = pool.Preparation._progress

    def _progress(self: pool.Preparation, fraction: float) -> None:
        progress(self, fraction)
        fractions.add(int(self.fraction * 100))

    run, prepare = pool._Worker.run, pool._Worker.prepare
    jobs: list[tuple[str, int, float, float, str]] = []  # (kind, worker, start, end, outcome)

    def watched(kind: str, worker: Any, call: Callable[[], Any]) -> Any:
        start, outcome = time.perf_counter(), "ok"
        try:
            return call()
        except BaseException as exc:
            outcome = type(exc).__name__
            raise
        finally:
            jobs.append((kind, worker.process.pid, start, time.perf_counter(), outcome))

    def run_job(self: Any, job: bytes, *rest: Any) -> Any:
        import pickle

        kind = pickle.loads(job)[0]
        if kind == "choose" and "ready" in marks:
            marks.setdefault("move_sent", time.perf_counter())
        return watched(kind, self, lambda: run(self, job, *rest))

    def prepare_job(self: Any, task: str, *rest: Any) -> Any:
        return watched("prepare", self, lambda: prepare(self, task, *rest))

    stalls: list[Any] = []
    record_frames(Director, frames, marks, seen)
    record_stalls(Director, stalls)
    pool.Preparation._finish = _finish  # type: ignore[method-assign]
    pool.Preparation._progress = _progress  # type: ignore[method-assign]
    pool._Worker.run = run_job  # type: ignore[method-assign]
    pool._Worker.prepare = prepare_job  # type: ignore[method-assign]

    def watch(dt: float) -> None:
        director = Director.current
        if director is None or not frames or director.controller is None:
            return
        now = time.perf_counter()
        since = now - frames[0]
        controller: Any = director.controller
        if since > 1.0 and "typed" not in marks:
            marks["typed"] = now
            for char in "d3":
                director.window.dispatch_event("on_text", char)
        if since > 2.0 and "f3" not in marks:
            marks["f3"] = now
            director.window.dispatch_event("on_key_press", pyglet.window.key.F3, 0)
        if "f3" in marks and overlay_frames and "f3_off" not in marks:
            marks["f3_off"] = now
            director.window.dispatch_event("on_key_press", pyglet.window.key.F3, 0)
        played = len(controller.match.record) >= 2 and not director.busy()
        if played and "ready" in marks:
            marks.setdefault("computer_move", now)
        if "computer_move" in marks and now - marks["computer_move"] > IDLE_S:
            pyglet.app.exit()  # after a while of nothing, for the machine's own frame times
        if since > START_TIMEOUT_S:
            pyglet.app.exit()

    pyglet.clock.schedule_interval(watch, 0.05)
    status = gamehall(["play", "reversi", "--size", size, "--black", "human", "--white",
                       "intermediate", "--time", "1"])  # fmt: skip
    if status != 0 or "computer_move" not in marks:
        print(f"cold_start: the game ended ({status}) before the computer moved", file=sys.stderr)
        return 1
    line = figures(frames, overlay_frames, marks, fractions, t0, stalls)
    # What each worker was given, in seconds after the first frame: the compile, the moves.
    line["jobs"] = ",".join(
        f"{kind}:{pid}@{start - frames[0]:.1f}-{end - frames[0]:.1f}"
        + ("" if outcome == "ok" else f":{outcome}")
        for kind, pid, start, end, outcome in jobs
    )
    print(json.dumps(line))
    return 0


def figures(
    frames: list[float],
    overlay_frames: list[float],
    marks: dict[str, float],
    fractions: set[int],
    t0: float,
    stalls: list[Any],
) -> dict[str, Any]:
    """The figures of one start, from the frame times and the moments marked."""
    first, ready, moved = frames[0], marks["ready"], marks["computer_move"]
    gaps = [(b - a, b) for a, b in itertools.pairwise(frames)]
    before = [g for g, end in gaps if end <= ready] or [0.0]
    # From ten seconds on: the compile alone, after the start, the first move and the first F3.
    later = [g for g, end in gaps if first + SETTLED_S < end <= ready] or [0.0]
    after = [g for g, end in gaps if ready < end <= moved] or [0.0]
    idle = [g for g, end in gaps if end > moved + 1.0] or [0.0]  # the move's tweens done
    return {
        "load_avg": f"{os.getloadavg()[0]:.1f}",
        "first_frame_s": round(marks["first_frame_wall"] - t0, 2),
        "engine_ready_s": round(ready - first, 2),
        "frames": len(before),
        "longest_frame_ms": round(max(before) * 1000),
        "frames_over_100ms": sum(1 for g in before if g > 0.1),
        "median_frame_ms": round(statistics.median(before) * 1000),
        "longest_frame_from_10s_ms": round(max(later) * 1000),
        "frames_over_100ms_from_10s": sum(1 for g in later if g > 0.1),
        "longest_frame_after_ms": round(max(after) * 1000),
        "person_move_ms": round((marks["person_seen"] - marks["typed"]) * 1000)
        if "person_seen" in marks
        else "none",
        "f3_ms": round((overlay_frames[0] - marks["f3"]) * 1000) if overlay_frames else "none",
        "move_delay_ms": round((marks["move_sent"] - ready) * 1000)
        if "move_sent" in marks
        else "none",
        "first_computer_move_s": round(moved - first, 2),
        "idle_longest_frame_ms": round(max(idle) * 1000),
        "idle_frames_over_100ms": sum(1 for g in idle if g > 0.1),
        "idle_median_frame_ms": round(statistics.median(idle) * 1000),
        "progress_steps": len(fractions),
        "last_fraction": f"{max(fractions, default=0) / 100:.2f}",
        # The five longest frames: seconds after the first frame, milliseconds, and what the
        # drawing thread was seen doing (over 100 ms).
        "longest_at": ",".join(
            f"{end - first:.1f}s:{gap * 1000:.0f}ms" + doing(stalls, end)
            for gap, end in sorted((g for g in gaps if g[1] <= moved), reverse=True)[:5]
        ),
    }


# -- the tour: every game's first open, from the menu -------------------------------------------

#: The games the tour opens from the menu, in this order.
TOUR = ("river", "reversi", "grab", "clue", "chess")
#: Seconds in the menu before the first game (the warm-up starts half a second in), and
#: between two games.
MENU_S = 2.0
#: What the tour does in each game, in seconds after opening it: a hint asked, F3 shown and
#: hidden again once drawn, then back to the menu.
HINT_AT_S, F3_AT_S, LEAVE_AT_S = 1.0, 2.5, 6.0


def drive_tour(size: str, games: str = ",".join(TOUR)) -> int:
    """Run ``gamehall play`` (the menu) and open each game of :data:`TOUR` in turn, as a
    person would: the game's card played from the menu, a hint, F3 on and off, Esc; print
    the figures as one JSON list (a line for the whole start, then one per game and one for
    the menu's own frames)."""
    t0 = float(os.environ["COLD_START_T0"])
    import pyglet

    from game.cli import main as gamehall
    from game.engine.director import Director
    from game.registry import all_entries

    tour = [e.id for e in all_entries()] if games == "all" else games.split(",")
    frames: list[float] = []
    marks: dict[str, float] = {}
    steps: list[tuple[float, str, str]] = []  # (when it was done, what, the game)
    at = MENU_S
    plan: list[tuple[float, str, str]] = []  # (seconds after the first frame, command, game)
    for game in tour:
        plan += [(at, f"play:{game}", game), (at + HINT_AT_S, "hint", game)]
        plan += [(at + F3_AT_S, "overlay", game), (at + LEAVE_AT_S, "menu", game)]
        at += LEAVE_AT_S + MENU_S
    todo = iter(plan)
    pending: list[tuple[float, str, str] | None] = [next(todo)]
    overlay_up: list[bool] = [False]

    def seen(self: Director, now: float) -> None:
        overlay_up[0] = self.overlay.visible

    stalls: list[Any] = []  # what the game's stall watch saw
    record_frames(Director, frames, marks, seen)
    record_stalls(Director, stalls)

    def watch(dt: float) -> None:
        director = Director.current
        if director is None or not frames or director.controller is None:
            return
        now = time.perf_counter()
        if overlay_up[0] and director.overlay.visible:  # drawn once: hide it again
            director.perform("overlay")
            overlay_up[0] = False
        step = pending[0]
        if step is None:
            if now - frames[0] > at:
                pyglet.app.exit()
            return
        if now - frames[0] < step[0]:
            return
        _when, command, game = step
        steps.append((now, command, game))
        director.perform(command)
        if command == "menu" and director.controller.name != "menu":
            director.switch("menu")  # Esc was the scene's (an animation ended): leave anyway
        pending[0] = next(todo, None)

    pyglet.clock.schedule_interval(watch, 0.05)
    status = gamehall(["play", "--size", size])
    if status != 0 or pending[0] is not None:
        print(f"cold_start: the game ended ({status}) before the tour did", file=sys.stderr)
        return 1
    first_frame_s = marks["first_frame_wall"] - t0
    print(json.dumps(tour_figures(frames, steps, first_frame_s, stalls, tour)))
    return 0


def tour_figures(
    frames: list[float],
    steps: list[tuple[float, str, str]],
    first_frame_s: float,
    stalls: Any,
    tour: list[str],
) -> list[dict[str, Any]]:
    """The tour's figures: the whole start, each game from its opening to leaving it, and
    the menu's frames; the frames over 100 ms each with the step before it and, where the
    game watches its stalls, what the drawing thread was doing."""
    gaps = [(b - a, b) for a, b in itertools.pairwise(frames)]
    opened = {game: when for when, command, game in steps if command.startswith("play:")}
    left = {game: when for when, command, game in steps if command == "menu"}

    def spans(game: str) -> list[tuple[float, float]]:
        if game == "menu":
            edges = [frames[0], *sorted(v for g in tour for v in (opened[g], left[g]))]
            edges.append(frames[-1])
            return list(itertools.pairwise(edges))[::2]
        return [(opened[game], left[game])]

    def line(game: str, chosen: list[tuple[float, float]]) -> dict[str, Any]:
        times = [g for g, _end in chosen] or [0.0]
        out: dict[str, Any] = {"game": game}
        if game in opened:  # the frame the game opened in
            out["open_ms"] = round(next((g for g, end in gaps if end > opened[game]), 0) * 1000)
        out |= {
            "frames": len(chosen),
            "longest_frame_ms": round(max(times) * 1000),
            "frames_over_100ms": sum(1 for g in times if g > 0.1),
            "median_frame_ms": round(statistics.median(times) * 1000),
        }
        slow = sorted((c for c in chosen if c[0] > 0.1), reverse=True)[:3]
        if slow:
            out["longest_at"] = ",".join(
                f"{step_before(steps, end)}:{gap * 1000:.0f}ms" + doing(stalls, end)
                for gap, end in slow
            )
        return out

    whole = {"game": "all", "load_avg": f"{os.getloadavg()[0]:.1f}"}
    whole["first_frame_s"] = round(first_frame_s, 2)
    out = [whole | line("all", gaps)]
    for game in (*tour, "menu"):
        chosen = [(g, end) for g, end in gaps if any(a < end <= b for a, b in spans(game))]
        out.append(line(game, chosen))
    return out


def step_before(steps: list[tuple[float, str, str]], end: float) -> str:
    """The tour's last step before a frame that ended at ``end``, and how long before:
    ``hint@grab+0.1s`` (``start`` before the first)."""
    before = [s for s in steps if s[0] < end]
    if not before:
        return "start"
    when, command, game = before[-1]
    name = command.partition(":")[0]
    return f"{name}@{game}+{end - when:.1f}s"


if __name__ == "__main__":
    sys.exit(main())
