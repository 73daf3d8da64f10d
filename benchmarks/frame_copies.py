"""What the renderer's still-frame copies cost (River's frames: the cached picture copied, the
water drawn over it, the picture copied out to the window), each alone, on this machine's GL.

    python benchmarks/frame_copies.py                # a headless window (EGL)
    xvfb-run -a python benchmarks/frame_copies.py --window   # a real X window, as a player's

One line a copy and size::

    copy=cache_to_work size=800x600 ms=0.26
    copy=colours_to_own_corner size=800x600 ms=0.09
    copy=colours_to_window size=800x600 ms=5.20

- ``cache_to_work``: colours and depth from the cache into the frame the water is drawn on
  (two framebuffers of our own, the same formats);
- ``colours_to_own_corner``: the colours into a framebuffer of ours at an offset (the game's
  part of the window beside the F3 overlay);
- ``colours_to_window``: the colours into the window's own framebuffer, as every frame of a
  window does. With Mesa's software renderer only a copy between the same formats is a plain
  memory copy; the window's format differs from ours, so this one converts every pixel.

Each figure is the median of ``--repeat`` copies, each waited for (``ctx.finish``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--window", action="store_true", help="a real window (needs a display)")
    parser.add_argument("--repeat", type=int, default=40, help="copies measured (default 40)")
    parser.add_argument("--sizes", default="800x600,1280x720,1920x1080")
    args = parser.parse_args()
    import moderngl
    import pyglet

    pyglet.options["headless"] = not args.window
    import pyglet.window

    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    widest = (max(w for w, _ in sizes), max(h for _, h in sizes))
    window = pyglet.window.Window(*widest, visible=args.window)
    ctx = moderngl.create_context()
    print(f"renderer={ctx.info['GL_RENDERER'].replace(' ', '_')}", flush=True)
    for size in sizes:
        measure(ctx, size, widest, args.repeat)
    window.close()
    return 0


def measure(ctx: Any, size: tuple[int, int], widest: tuple[int, int], repeat: int) -> None:
    """Print the three copies' lines for a frame of ``size`` (``widest``: the window's)."""
    from game.engine.targets import Target

    w, h = size
    cache, work, own = Target(ctx, size), Target(ctx, size), Target(ctx, widest)
    copies = {
        "cache_to_work": lambda: ctx.copy_framebuffer(work.fbo, cache.fbo),
        "colours_to_own_corner": lambda: work.copy_colour_to(own.fbo, (widest[0] - w, 0)),
        "colours_to_window": lambda: work.copy_colour_to(ctx.screen, (0, 0)),
    }
    for name, copy in copies.items():
        times = []
        for _ in range(repeat + 3):
            started = time.perf_counter()
            copy()
            ctx.finish()
            times.append((time.perf_counter() - started) * 1000.0)
        ms = statistics.median(times[3:])  # the first few warm the driver up
        print(f"copy={name} size={w}x{h} ms={ms:.2f}", flush=True)
    for target in (cache, work, own):
        target.release()


if __name__ == "__main__":
    raise SystemExit(main())
