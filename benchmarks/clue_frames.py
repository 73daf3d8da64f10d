"""Cluedo's notebook and the drawing thread: what the frames that open the table and take
your suggestions spend on the notebook.

    python benchmarks/clue_frames.py                  # 3 seats, 4 of your turns
    python benchmarks/clue_frames.py --seats 6 --turns 8

A headless window (Mesa, EGL) opens Cluedo from the menu as a window does (the notebook
worked out in the background, paced between frames), then plays the hint's move for you at each
of your turns (asked for first, then N), drawing frames until the notebook of each event is
shown.
One line::

    seats=3 turns=4 frames=212 sweeps_drawing=0 sweep_ms_drawing=0 sweeps_in_background=61
        sheet_ms_longest=3 sheet_sets=13 sheet_layouts=9 open_frame_ms=140

- ``sweeps_drawing``, ``sweep_ms_drawing``: sweeps of the deals (``deduce._solve``) run on
  the drawing thread and the milliseconds they took (0: none);
- ``sweeps_in_background``: those run on other threads (the notebook's, the detectives');
- ``sheet_ms_longest``: the longest the controller's ``sheet()`` took in a frame;
- ``sheet_sets``, ``sheet_layouts``: how often the HUD's sheet changed and how often all its
  labels were sized anew;
- ``open_frame_ms``: the frame the table opened in (the switch and its first drawing).

The milliseconds are this machine's at its load; the counts do not depend on it.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from typing import Any

FRAMES_AN_EVENT = 400  # frames drawn at most until a new event's notebook is shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--turns", type=int, default=4, help="your turns played")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(" ".join(f"{k}={v}" for k, v in measure(args.seats, args.turns, args.seed).items()))


def measure(seats: int, turns: int, seed: int) -> dict[str, Any]:
    from game.engine.window import configure_pyglet

    configure_pyglet(headless=True)
    from game.cli.play import build_director
    from game.engine import sheet as sheet_module
    from game.games.clue.controller import ClueController
    from game.logic.clue import deduce
    from game.registry import MemorySession

    director = build_director(headless=True, size=(1280, 720))
    director.hud.sheet.gradual = True  # as in a window
    drawing = threading.current_thread()
    sweeps = {"drawing": 0, "background": 0, "ms": 0.0}
    solve = deduce._solve

    def counted(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return solve(*args, **kwargs)
        finally:
            if threading.current_thread() is drawing:
                sweeps["drawing"] += 1
                sweeps["ms"] += 1000 * (time.perf_counter() - started)
            else:
                sweeps["background"] += 1

    deduce._solve = counted
    sheet_stats = {"sets": 0, "layouts": 0}
    view_set, paint = sheet_module.SheetView.set, sheet_module.SheetView._paint

    def set_counted(self: Any, sheet: Any) -> None:
        sheet_stats["sets"] += sheet != self.sheet
        view_set(self, sheet)

    def paint_counted(self: Any, font_size: float | None = None) -> None:
        sheet_stats["layouts"] += font_size is not None
        paint(self, font_size)

    sheet_module.SheetView.set = set_counted  # type: ignore[method-assign]
    sheet_module.SheetView._paint = paint_counted  # type: ignore[method-assign]
    longest = [0.0]
    session = MemorySession(options={"seats": seats, "opponent": "article"})

    def make() -> ClueController:
        controller = ClueController(session, seed=seed, background=True)  # as in a window
        sheet = controller.sheet

        def timed() -> Any:
            started = time.perf_counter()
            try:
                return sheet()
            finally:
                longest[0] = max(longest[0], time.perf_counter() - started)

        controller.sheet = timed  # type: ignore[method-assign]
        return controller

    director.register("clue-frames", make)
    director.switch("menu")
    frames = 0

    def frame() -> None:
        nonlocal frames
        director.update(1 / 60)
        director.on_draw()
        frames += 1

    started = time.perf_counter()
    clue = director.switch("clue-frames")
    frame()
    open_ms = 1000 * (time.perf_counter() - started)

    def until(done: Callable[[], bool]) -> None:
        for _ in range(FRAMES_AN_EVENT):
            if done():
                return
            frame()
            time.sleep(1 / 60)

    def shown() -> bool:
        sheet = director.hud.sheet.sheet
        return sheet is not None and not sheet.footer[0].startswith(("Working", "Likeliest: w"))

    played = 0
    until(shown)
    while played < turns and not clue.match.over:
        until(lambda: clue.human and clue.idle() and not clue.animating())
        if clue.match.over:
            break
        director.perform("hint")  # asked first: N without a hint thinks on this thread
        until(lambda: clue.match.current_hint() is not None)
        director.perform("next")
        played += 1
        frame()
        until(shown)
    director.switch("menu")
    return {
        "seats": seats,
        "turns": played,
        "frames": frames,
        "sweeps_drawing": sweeps["drawing"],
        "sweep_ms_drawing": round(sweeps["ms"]),
        "sweeps_in_background": sweeps["background"],
        "sheet_ms_longest": round(1000 * longest[0]),
        "sheet_sets": sheet_stats["sets"],
        "sheet_layouts": sheet_stats["layouts"],
        "open_frame_ms": round(open_ms),
    }


if __name__ == "__main__":
    main()
