"""A write killed at any moment leaves whole files: a child process saves the settings and the
statistics in a loop and is killed (SIGKILL) after a seeded random number of saves, wherever
in a write it is by then; after each kill both files load without a message and hold values
the child wrote, and the temp file a killed write left is gone after the load."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game.settings import Store
from tests.deep import sized

ROOT = Path(__file__).resolve().parent.parent
#: Kills a run: each costs a fresh interpreter (a fifth of a CPU second); about half the kills
#: fall inside a write and leave its temp file, so ten catch a write that is not whole.
KILLS = sized(10, 50)

#: Saves settings n, then statistics n, for n = START, START + 1, ...; says "ready" once the
#: first pair is on disk, then "saved" after each further pair. The values of n can be told
#: from the files: width and last_game in the settings, played and won in the statistics.
CHILD = """
import sys
import time
from pathlib import Path
from game.settings import GameStats, Settings, Statistics, Store, WindowSettings

store = Store(Path(sys.argv[1]))
n = int(sys.argv[2])
while True:
    store.save_settings(Settings(window=WindowSettings(width=1 + n % 16000), last_game=f"n{n}"))
    store.save_statistics(Statistics({"river": GameStats(played=n, won=n // 2)}))
    print("ready" if n == int(sys.argv[2]) else "saved", flush=True)
    n += 1
"""


@pytest.mark.deep
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")
def test_killed_writes_leave_whole_files_and_their_temp_files_are_removed(tmp_path: Path) -> None:
    rng = random.Random(20240610)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    store = Store(tmp_path)
    for kill in range(KILLS):
        start = kill * 1_000_000
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(tmp_path), str(start)],
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "ready\n"
            # After a seeded number of further pairs, while the child goes on writing: the
            # kill falls wherever in a write the child is by then (no clock: the child's own
            # news say when).
            for _ in range(rng.randrange(30)):
                assert child.stdout.readline() == "saved\n"
            child.send_signal(signal.SIGKILL)
        finally:
            child.kill()
            child.wait()
            child.stdout.close()  # type: ignore[union-attr]
        assert child.returncode == -signal.SIGKILL

        settings, messages = store.load_settings()
        assert messages == []
        n = int(settings.last_game.removeprefix("n"))
        assert n >= start and settings.window.width == 1 + n % 16000
        statistics, messages = store.load_statistics()
        assert messages == []
        record = statistics.games["river"]
        # Settings n is written before statistics n: the kill fell after one or the other.
        assert record.played in (n - 1, n) and record.won == record.played // 2
        # Nothing else is left: no temp file of a killed write (about half the kills leave
        # one), no file set aside.
        assert sorted(os.listdir(tmp_path)) == ["settings.toml", "statistics.toml"]
