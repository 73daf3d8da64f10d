"""``gamehall bench render``: frame times of the menu and every registered game's scene.

First ``scene=baseline median_ms=...``: a frame of the clear and the HUD alone, the floor every
scene stands on. Then one line a scene: ``scene=NAME median_ms=... p95_ms=...
overlay_median_ms=... ratio=... drawn_median_ms=... moving_median_ms=... pass_scene_ms=...
pass_hud_ms=... pass_overlay_ms=... clear_ms=... draw_calls=... triangles=... meshes=...
nodes=... shadows=on|off size=WxH``.

- ``median_ms``: a still frame. The shadow map of the last frame is reused, and the still part
  of the picture is copied from the renderer's cache (only the water is drawn again).
- ``overlay_median_ms``: the same with the F3 overlay open; ``ratio``: the median over the
  baseline's.
- ``drawn_median_ms``: the still frame drawn whole, with no cache.
- ``pass_*``: the passes of one frame drawn whole, each drawn to the end (where the time goes).
- ``moving_median_ms``: the shadow map and the scene redrawn every frame, as while something
  walks or rows.

A game whose entry names ``bench_render`` overrides is measured with them (its scene at its
hardest: the biggest map). A game whose hint agent thinks for longer than a frame also gets
``thinking_median_ms`` and ``thinking_max_ms``, the frames drawn while that agent searches as
the window has it search (on a thread, or in a worker process for a game that thinks in a worker).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.registry import Entry

MENU = "menu"


def run_render(args: argparse.Namespace) -> int:
    """Time the frames of ``--scene`` (default: every scene); ``--size`` and ``--frames`` are
    checked by the parser, the scene name here, all before the window is made."""
    from game.cli.play import build_director
    from game.registry import all_entries

    size: tuple[int, int] = args.size
    games = {e.id: e for e in all_entries()}
    names = [MENU, *games]
    if args.scene is not None and args.scene not in names:
        print(
            f"gamehall bench: unknown scene {args.scene!r} for --scene; try: {', '.join(names)}",
            file=sys.stderr,
        )
        return 2
    scenes = [args.scene] if args.scene else names
    import numpy as np

    overrides = {gid: dict(e.bench_render) for gid, e in games.items()}
    director = build_director(
        headless=True, size=size, shadows=not args.no_shadows, overrides=overrides
    )
    try:
        fbo = director.offscreen(size)
        baseline = 0.0
        for name in scenes:
            director.switch(name)
            director.advance(0.2)
            if not baseline:  # the first scene's HUD, with no scene under it
                baseline = _clear_frames(director, fbo, max(10, args.frames))
                print(f"scene=baseline median_ms={baseline:.2f} size={size[0]}x{size[1]}")
            for _ in range(5):  # warm-up: shader compilation, first buffer uploads
                director.render(fbo, size)
            director.ctx.finish()
            frames = time_frames(director, fbo, size, args.frames)
            calls = director.last_draw_calls
            director.renderer.cache_still = False
            drawn = time_frames(director, fbo, size, max(10, args.frames // 2))
            director.time_passes = True
            director.render(fbo, size)
            passes = dict(director.pass_ms)
            director.renderer.cache_still = True
            director.overlay.toggle()
            for _ in range(3):  # the overlay's first frames build its windows
                director.render(fbo, size)
            overlay = time_frames(director, fbo, size, max(10, args.frames // 2))
            passes["overlay"] = director.pass_ms.get("overlay", 0.0)
            director.overlay.toggle()
            director.time_passes = False
            # The same frames with every object bobbing by a millimetre: the shadow map must be
            # redrawn each frame, as while something walks or rows.
            scene = director.scene
            movers = [n for n in scene if n.mesh and not n.material.wave] if scene else []
            rest = [(n, n.position.copy()) for n in movers]

            def bob(i: int, rest: list[tuple[Any, np.ndarray]] = rest) -> None:
                for n, pos in rest:
                    n.position = pos + np.array([0.0, 0.001 * (i % 2), 0.0], "f4")

            moving = time_frames(director, fbo, size, args.frames, before=bob)
            for n, pos in rest:
                n.position = pos
            extra = "".join(f"{k}={v} " for k, v in overrides.get(name, {}).items() if _scalar(v))
            thinking = (
                _frames_while_thinking(director, fbo, size, games[name]) if name in games else None
            )
            if thinking is not None:
                extra += f"thinking_median_ms={thinking[0]:.2f} thinking_max_ms={thinking[1]:.2f} "
            clear_ms = _clear_frames(director, fbo, max(5, args.frames // 4))
            frames.sort()
            p95 = frames[min(len(frames) - 1, round(0.95 * (len(frames) - 1)))]
            stats = director.renderer.stats
            median = statistics.median(frames)
            gpu = " ".join(
                f"pass_{key}_ms={passes.get(label, 0.0):.2f}"
                for key, label in (("scene", "3D scene"), ("hud", "HUD"), ("overlay", "overlay"))
            )
            print(
                f"scene={name} median_ms={median:.2f} p95_ms={p95:.2f} "
                f"overlay_median_ms={statistics.median(overlay):.2f} "
                f"ratio={median / baseline if baseline else 0.0:.1f} "
                f"drawn_median_ms={statistics.median(drawn):.2f} "
                f"moving_median_ms={statistics.median(moving):.2f} {gpu} {extra}"
                f"clear_ms={clear_ms:.2f} draw_calls={calls} "
                f"triangles={stats.triangles} meshes={stats.meshes} nodes={stats.nodes} "
                f"shadows={'on' if director.renderer.shadows else 'off'} size={size[0]}x{size[1]}",
                flush=True,
            )
    finally:
        director.close()
    return 0


def time_frames(
    director: Director,
    fbo: object,
    size: tuple[int, int],
    count: int,
    before: Callable[[int], None] | None = None,
) -> list[float]:
    """Milliseconds per whole frame (scene, HUD), waiting for the GL to finish each one."""
    frames = []
    for i in range(count):
        director.advance(1.0 / 60.0)
        if before is not None:
            before(i)
        t0 = time.perf_counter()
        director.render(fbo, size)  # type: ignore[arg-type]
        director.ctx.finish()
        frames.append((time.perf_counter() - t0) * 1000.0)
    return frames


def _clear_frames(director: Director, fbo: Any, count: int) -> float:
    """The median frame of a clear and the HUD alone (no scene), in milliseconds."""
    import moderngl

    frames = []
    for _ in range(count):
        t0 = time.perf_counter()
        fbo.use()
        fbo.clear(0.2, 0.3, 0.4, 1.0)
        director.ctx.enable_only(moderngl.BLEND)
        director.hud.draw()
        director.ctx.finish()
        frames.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(frames)


def _frames_while_thinking(
    director: Director, fbo: object, size: tuple[int, int], entry: Entry
) -> tuple[float, float] | None:
    """The median and the longest frame time while ``entry``'s hint agent searches a middle
    game as the window runs it (see above); None when it answers within
    a moment."""
    think, stop = _thinker(entry)
    if think is None:
        return None
    worker = threading.Thread(target=think, daemon=True)
    worker.start()
    try:
        worker.join(timeout=0.2)
        if not worker.is_alive():
            return None
        frames = time_frames(director, fbo, size, 60)
    finally:
        stop()
        worker.join(timeout=10)
    return statistics.median(frames), max(frames)


def _thinker(entry: Entry) -> tuple[Callable[[], None] | None, Callable[[], None]]:
    """A function that runs the hint agent for up to a minute on the position after three
    actions (after a short warm-up search, so compiling is not measured), and its stop."""
    if not entry.hint_agent:
        return None, lambda: None
    from game.logic.contract import Limits, Stop, ThinkingStopped

    rng = random.Random(1)
    options = entry.options.defaults()
    state = entry.make_game(options).initial_state(rng)
    for _ in range(3):
        actions = state.legal_actions()
        if state.is_terminal() or not actions:
            return None, lambda: None
        state = state.apply(actions[0])
    agent = entry.thinker(entry.hint_agent, options)  # as the window seats it
    stop = Stop()
    try:
        agent.choose(state, Limits(time=0.05), rng, Stop())
    except Exception:  # an agent that cannot think here has no figure
        return None, lambda: None

    def think() -> None:
        with contextlib.suppress(ThinkingStopped):
            agent.choose(state, Limits(time=60.0), random.Random(2), stop)

    return think, stop.set


def _scalar(value: object) -> bool:
    return isinstance(value, int | float | str) and not isinstance(value, bool)
