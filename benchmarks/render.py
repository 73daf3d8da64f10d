"""Frame times of every scene (the menu and every registered game), offscreen at 1280x720
(Mesa llvmpipe on a machine without a GPU).

    python benchmarks/render.py [--frames N]

Runs ``gamehall bench render`` with and without shadows and prints its lines unchanged:
``scene=NAME median_ms=... p95_ms=... moving_median_ms=... clear_ms=... draw_calls=...``.
``median_ms`` is a still frame (the shadow map of the last frame is reused);
``moving_median_ms`` redraws the shadow map every frame, as while something walks or rows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    frames = sys.argv[sys.argv.index("--frames") + 1] if "--frames" in sys.argv else "240"
    for extra in ([], ["--no-shadows"]):
        subprocess.run(
            [sys.executable, "-m", "game", "bench", "render", "--frames", frames, *extra],
            cwd=ROOT,
            check=True,
        )


if __name__ == "__main__":
    main()
