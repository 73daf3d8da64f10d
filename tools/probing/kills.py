"""``kills``: 20 child processes saving both files in a loop through ``Store``, SIGKILLed at
seeded moments.

Misbehaving: a file that does not load whole, a temp file left after the next load.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from probing.base import (
    ROOT,
    Probe,
    Tally,
    clip,
    kill_group,
    last_line,
    parallel,
)  # fmt: skip


def run(probe: Probe) -> Tally:
    indices = probe.pick(20, 5)
    results = parallel(lambda i: _kill_case(probe, i), indices, probe.jobs)
    tally = Tally()
    for i, problems in zip(indices, results, strict=True):
        tally.add(i, problems)
    return tally


def _kill_case(probe: Probe, index: int) -> list[str]:
    delay = random.Random(f"{probe.seed}:kills:{index}").uniform(0.0, 0.4)
    place = probe.place()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", SAVER_SCRIPT, str(place.home)], cwd=place.cwd,
            env=probe.store_env(place), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        out, err = proc.stdout, proc.stderr
        assert out is not None and err is not None
        with out, err:
            if not out.readline().startswith(b"ready"):
                proc.wait(10)
                return [f"the saving child did not start: {last_line(err.read().decode())}"]
            time.sleep(delay)
            kill_group(proc.pid)
            proc.wait()
            saves = 1 + sum(1 for _ in out)
        return [
            f"killed {delay:.3f} s after its first save (after {saves} saves): {p}"
            for p in _load_whole(place.home)
        ]
    finally:
        probe.done(place)


# --- 3. kills -----------------------------------------------------------------------------------

#: Saves settings and statistics in a loop (a big statistics file: the writes take a while);
#: prints "ready" after the first pair and a line after each pair.
SAVER_SCRIPT = """
import sys
from game.settings import Settings, Statistics, Store
store = Store(sys.argv[1])
settings, stats = Settings(), Statistics()
for g in range(300):
    stats.record(f"game{g}", won=True, setting=f"setting{g}", score=g)
i = 0
while True:
    i += 1
    settings.window.width = 100 + i
    stats.record("counter", won=True)
    store.save_settings(settings)
    store.save_statistics(stats)
    print("ready" if i == 1 else i, flush=True)
"""


def _load_whole(folder: Path) -> list[str]:
    """Load both files the way the game does; what is wrong with them."""
    sys.path.insert(0, str(ROOT))
    from game.settings import Store  # the working tree's

    store = Store(folder)
    problems = []
    settings, messages = store.load_settings({})
    stats, more = store.load_statistics()
    problems += [f"load: {clip(m, 160)}" for m in messages + more]
    if (folder / "settings.toml").exists() and settings.window.width <= 100:
        problems.append(f"settings.toml loaded with width {settings.window.width}")
    if (folder / "statistics.toml").exists() and len(stats.games) != 301:
        problems.append(f"statistics.toml loaded with {len(stats.games)} of 301 games")
    leftovers = sorted(p.name for p in folder.glob(".*.tmp"))
    if leftovers:
        problems.append(f"temp files left after the next load: {', '.join(leftovers)}")
    return problems
