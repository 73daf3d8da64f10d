"""Render the menu's card pictures: every registered game's scene at its start, without the HUD,
framed to fill the card (480x360, the cards' shape): drawn twice that size, cut to the pieces'
box (and the labels' places) with a margin, and scaled down.

Run ``python tools/make_cards.py [GAME ...]`` after a game is added or its look changes; it
writes ``scenes/cards/GAME.png`` (all games when none is named) with a headless window, the
same one ``gamehall shot`` uses. MasterGrab's map is the one of seed 5, as in the gallery.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CARDS = ROOT / "scenes" / "cards"
#: The controller's keyword arguments for a game whose start is drawn at random.
OVERRIDES = {"grab": {"seed": 5}}
#: Drawn this many times the picture's size, then cut and scaled down.
OVERSIZE = 2
#: The margin round the pieces' box, as a share of its size.
MARGIN = 0.08


def main(argv: list[str]) -> int:
    from game.cli.play import build_director
    from game.engine.png import write_png
    from game.engine.window import configure_pyglet
    from game.hall.menu_cards import PICTURE
    from game.registry import all_entries

    configure_pyglet(headless=True)
    entries = [e for e in all_entries() if not argv or e.id in argv]
    unknown = set(argv) - {e.id for e in entries}
    if unknown:
        print(f"make_cards: no game named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    CARDS.mkdir(parents=True, exist_ok=True)
    size = (PICTURE[0] * OVERSIZE, PICTURE[1] * OVERSIZE)
    director = build_director(headless=True, size=size, overrides=OVERRIDES)
    try:
        director.show_hud = False
        for entry in entries:
            director.switch(entry.id)
            director.settle()
            director.advance(0.5)  # the water moves a little, the pieces settle
            pixels = director.capture()
            box = _pieces_rect(director)
            if box is not None:
                pixels = _cut(pixels, box)
            out = write_png(CARDS / f"{entry.id}.png", _scaled(pixels, PICTURE))
            print(out.relative_to(ROOT))
    finally:
        director.close()
    return 0


def _pieces_rect(director: Any) -> tuple[float, float, float, float] | None:
    """The window rectangle (x0, y0, x1, y1 from the top-left) round the scene's pieces and
    labelled points, as drawn; None for a scene with none (MasterGrab's map fills it all)."""
    import numpy as np

    from game.engine.framing import pieces_box

    labels = getattr(director.controller, "world_labels", lambda: [])()
    points = [p for _t, p, *_ in labels]
    if director.scene.camera.keep is not None:  # where pieces will go (the far bank)
        points.extend(director.scene.camera.keep)
    box = pieces_box(director.scene, director.bounds, points)
    if box is None:
        return None
    lo, hi = box
    points = [director.to_window(np.array([x, y, z])) for x in (lo[0], hi[0])
              for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]  # fmt: skip
    if any(p is None for p in points):
        return None
    h = director.window_size()[1]
    xs, ys = [p[0] for p in points], [h - p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _cut(pixels: Any, box: tuple[float, float, float, float]) -> Any:
    """``pixels`` cut to ``box`` grown by the margin and widened to the card's shape, kept
    inside the picture."""
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = box
    bw, bh = (x1 - x0) * (1 + 2 * MARGIN), (y1 - y0) * (1 + 2 * MARGIN)
    aspect = w / h
    bw, bh = max(bw, bh * aspect), max(bh, bw / aspect)
    # no smaller than the card (every card pixel the mean of one or more), no larger than all
    bw, bh = min(max(bw, w / OVERSIZE), w), min(max(bh, h / OVERSIZE), h)
    cx = min(max((x0 + x1) / 2, bw / 2), w - bw / 2)
    cy = min(max((y0 + y1) / 2, bh / 2), h - bh / 2)
    left, top = round(cx - bw / 2), round(cy - bh / 2)
    return pixels[top : top + round(bh), left : left + round(bw)]


def _scaled(pixels: Any, size: tuple[int, int]) -> Any:
    """``pixels`` scaled to ``size`` (width, height): each new pixel the mean of the old ones
    it covers."""
    import numpy as np

    h, w = pixels.shape[:2]
    ys = np.linspace(0, h, size[1] + 1).astype(int)
    xs = np.linspace(0, w, size[0] + 1).astype(int)
    rows = np.add.reduceat(pixels.astype(np.float64), ys[:-1], axis=0)
    rows /= np.diff(ys)[:, None, None]
    out = np.add.reduceat(rows, xs[:-1], axis=1) / np.diff(xs)[None, :, None]
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
