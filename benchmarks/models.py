"""Load time of the shipped models (the OBJ loader, no OpenGL).

    .venv/bin/python benchmarks/models.py [--rounds N]

Prints one line: ``models=N triangles=T median_ms=... per_ktri_ms=...``, the median over the
rounds of loading every file in ``models/`` once (after one warm-up round).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.engine.mesh import load_obj  # noqa: E402
from game.resources import asset_dir  # noqa: E402


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 20
    paths = sorted(asset_dir("models").glob("*.obj"))
    triangles = sum(load_obj(path).triangles for path in paths)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for path in paths:
            load_obj(path)
        times.append(time.perf_counter() - start)
    median_ms = statistics.median(times) * 1000
    print(
        f"models={len(paths)} triangles={triangles} median_ms={median_ms:.1f}"
        f" per_ktri_ms={median_ms / triangles * 1000:.2f}"
    )


if __name__ == "__main__":
    main()
