"""The first start of a compiled engine: numba's cache lives in the person's cache folder (or
under GAMEHALL_HOME), not beside the installed package; the engine is readied in a worker
process while the window keeps drawing, answering keys and taking the person's moves; the
computer's move goes to that worker the moment it is ready; and the window's own process never
loads numba for Reversi. Nothing here is timed: the slow compile is a gate the test opens."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest
from worker_agents import GATE_ENV, WhereAmI

import game.games.reversi.controller as reversi_controller
from game.games.reversi.controller import ReversiController
from game.logic.workers import pool
from game.places import cache_dir, use_numba_cache
from game.registry import MemorySession
from tests.fresh_python import run_script
from tests.waiting import write_to_reader

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "game"

PROBE = """
import json, os
import game.logic.reversi.kernels as kernels
import numba
from game.logic.reversi.board import Position
start = Position.start()
mask = int(kernels.legal_moves(kernels.U64(start.mine), kernels.U64(start.theirs)))
print(json.dumps({
    "config": numba.config.CACHE_DIR,
    "env": os.environ.get("NUMBA_CACHE_DIR"),
    "kernel_cache": kernels.legal_moves._cache.cache_path,
    "moves_agree": mask == sum(1 << m for m in start.legal_moves()),
}))
"""


def _python(
    code: str, env: dict[str, str], *, keep_cache: bool = False
) -> subprocess.CompletedProcess[str]:
    """``code`` in a new interpreter with ``env``; numba's folder is the game's own choice,
    as on a person's machine, unless ``keep_cache`` (the tests' folder, already full)."""
    env = dict(env)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if not keep_cache:
        env.pop("NUMBA_CACHE_DIR", None)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_numba_keeps_the_compiled_kernels_under_gamehall_home_not_in_the_package(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    done = _python(PROBE, {**os.environ, "GAMEHALL_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    folder = home / "cache" / "numba"
    assert seen["config"] == seen["env"] == str(folder)
    assert Path(seen["kernel_cache"]).is_relative_to(folder)
    assert not Path(seen["kernel_cache"]).is_relative_to(PACKAGE)
    assert seen["moves_agree"]  # the kernel compiled there works
    assert any(folder.rglob("kernels.legal_moves-*.nbi"))  # and was kept there


TWICE = """
from numba import njit

from game.logic.compiling import cache_by_package_path

cache_by_package_path()


@njit(cache=True)
def twice(x):
    return 2 * x
"""

TWICE_PROBE = """
import json
from game.logic import twice as module
value = module.twice(3)
stats = module.twice.stats
print(json.dumps({
    "value": int(value),
    "hits": sum(stats.cache_hits.values()),
    "misses": sum(stats.cache_misses.values()),
    "cache": module.twice._cache.cache_path,
}))
"""


def test_another_copy_of_the_package_loads_what_the_first_compiled_until_the_source_changes(
    tmp_path: Path,
) -> None:
    """Two installs of the same code (two virtual environments, two clones) share numba's
    cache; another version of the code compiles into a folder of its own, never loading or
    overwriting the first's machine code."""
    cache = tmp_path / "numba"

    def run(copy: Path, body: str) -> dict[str, object]:
        if not (copy / "game").exists():
            shutil.copytree(PACKAGE, copy / "game", ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "game" / "logic" / "twice.py").write_text(body, encoding="utf-8")
        done = run_script(
            TWICE_PROBE, copy, importable=copy, environ={"NUMBA_CACHE_DIR": str(cache)}
        )
        assert done.returncode == 0, done.stderr[-3000:]
        seen: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
        return seen

    first = run(tmp_path / "a", TWICE)
    assert first == {"value": 6, "hits": 0, "misses": 1, "cache": first["cache"]}
    assert Path(str(first["cache"])).is_relative_to(cache)
    # Another version of the folder's code: a folder of its own, compiled afresh (the two
    # functions' bytecode is the same; only a constant differs).
    changed = run(tmp_path / "c", TWICE.replace("2 * x", "3 * x"))
    assert changed["cache"] != first["cache"]
    assert changed == {**first, "value": 9, "cache": changed["cache"]}
    assert Path(str(changed["cache"])).parent == Path(str(first["cache"])).parent
    # A second copy of the first version, after the other version compiled: the first's
    # folder, loaded (shared between copies, and neither overwritten nor taken by the other).
    second = run(tmp_path / "b", TWICE)
    assert second == {**first, "hits": 1, "misses": 0}


def test_other_versions_kernel_folders_go_after_a_month_unused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.logic import compiling

    monkeypatch.setattr(compiling, "_cache_dir", lambda: str(tmp_path))
    parent = tmp_path / compiling.CACHE_FOLDER / "game" / "logic"
    old, recent = parent / "grab-0000000000000000", parent / "grab-1111111111111111"
    elsewhere = parent / "reversi-0000000000000000"  # another folder's: not this one's to judge
    for folder in (old, recent, elsewhere):
        folder.mkdir(parents=True)
    unused = time.time() - (compiling.KEEP_DAYS + 1) * 86400
    for folder in (old, elsewhere):
        os.utime(folder, (unused, unused))
    made = Path(compiling._kernel_folder.__wrapped__(compiling.PACKAGE / "logic" / "grab"))
    digest = compiling.folder_digest(compiling.PACKAGE / "logic" / "grab")
    assert made == parent / f"grab-{digest}" and made.is_dir()
    assert not old.exists() and recent.exists() and elsewhere.exists()


def test_without_gamehall_home_the_cache_is_the_persons_cache_folder() -> None:
    folder = cache_dir({})
    assert folder == Path(platformdirs.user_cache_dir("gamehall"))
    assert not folder.is_relative_to(PACKAGE)


def test_the_folder_is_made_and_named_for_numba(tmp_path: Path) -> None:
    env = {"GAMEHALL_HOME": str(tmp_path / "new")}
    assert use_numba_cache(env) == tmp_path / "new" / "cache" / "numba"
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "new" / "cache" / "numba")
    assert (tmp_path / "new" / "cache" / "numba").is_dir()


def test_a_numba_cache_dir_the_person_set_is_kept(tmp_path: Path) -> None:
    env = {"GAMEHALL_HOME": str(tmp_path), "NUMBA_CACHE_DIR": "/somewhere/else"}
    assert use_numba_cache(env) == Path("/somewhere/else")
    assert env["NUMBA_CACHE_DIR"] == "/somewhere/else"
    assert not (tmp_path / "cache").exists()


def test_a_cache_folder_that_cannot_be_made_falls_back_and_the_kernels_still_run(
    tmp_path: Path,
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    env = {"GAMEHALL_HOME": str(blocked)}
    assert use_numba_cache(env) is None
    assert "NUMBA_CACHE_DIR" not in env
    done = _python(PROBE, {**os.environ, "GAMEHALL_HOME": str(blocked)})
    assert done.returncode == 0, done.stderr
    assert "cannot keep compiled code in" in done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["env"] is None and seen["moves_agree"]


WINDOW_PROBE = """
import json, sys
from game.engine.window import configure_pyglet
configure_pyglet(headless=True)
from game.cli.play import build_director
director = build_director(headless=True, size=(320, 240))
director.switch("reversi")
director.perform("hint")
assert director.settle(), "the hint did not come"
hint = director.controller.match.current_hint()
director.perform("overlay")
director.capture()  # the overlay's Reversi panel, drawn
director.close()
print(json.dumps({"hint": hint.text, "numba": "numba" in sys.modules}))
"""


@pytest.mark.gl
def test_the_window_never_loads_numba_for_reversi(tmp_path: Path) -> None:
    """Everything compiled (the hint's search, the overlay's evaluation) runs in the engine's
    worker process: the drawing process has nothing to compile and no lock to wait for."""
    # The kernels the other tests compiled are reused: this is not about a cold start.
    done = _python(WINDOW_PROBE, {**os.environ, "GAMEHALL_HOME": str(tmp_path)}, keep_cache=True)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["hint"] in {"d3", "c4", "f5", "e6"}
    assert seen["numba"] is False


# -- a slow compile, as slow as the test wants --------------------------------------------------

GATED = "worker_agents:gated_prepare"
#: The pause after each frame :func:`_frames_until` draws (not a wait for anything).
FRAME_GAP_S = 0.01


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A named pipe that :func:`worker_agents.gated_prepare` waits on; the workers are new, so
    that they see it; Reversi's engine is the gated one."""
    path = tmp_path / "gate"
    os.mkfifo(path)
    monkeypatch.setenv(GATE_ENV, str(path))
    pool.stop_workers()
    entry = dataclasses.replace(reversi_controller.ENTRY, compiled_search=GATED)
    monkeypatch.setattr(reversi_controller, "ENTRY", entry)
    yield path
    _open(path, wait=False)  # a worker still waiting is let go
    pool._PREPARATIONS.pop(GATED, None)


def _open(gate: Path, *, wait: bool = True) -> None:
    """Let the gated preparation finish. With ``wait``, once the worker has the pipe open for
    reading: it says "half" just before it opens it, so on a busy machine the test can come
    here first, and a write with no reader would be lost (the preparation then waits for
    ever). Without ``wait`` (the fixture's clean-up), a worker not at the gate is let be."""
    if wait:
        assert write_to_reader(gate, b"go"), "the worker never came to the gate"
        return
    try:
        fd = os.open(gate, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:  # nobody is waiting at the gate
        return
    os.write(fd, b"go")
    os.close(fd)


def _frames_until(director, condition, limit: int = 200_000) -> int:
    """Draw frames (update, render), as the window does, until ``condition()`` (news from the
    worker), and one more, which shows it; returns how many it took (``limit`` is only a
    bound). Between two frames the processor is left to the worker for a moment, as a
    window waiting for the screen's next refresh leaves it (drawn back to back, the frames
    took more CPU time than the worker they wait for)."""
    for count in range(limit):
        director.update(1 / 60)
        director.capture()
        time.sleep(FRAME_GAP_S)
        if condition():
            director.update(1 / 60)
            director.capture()
            return count
    raise AssertionError("the condition never came")


@pytest.fixture
def reversi_waiting(director, gate: Path) -> Iterator[object]:
    """Reversi opened in the shared window, a person (Black) against the computer (White),
    while the engine's preparation waits at the ``gate``; the window's own Reversi comes
    back afterwards."""
    session = MemorySession({"black": "human", "white": "intermediate", "time_per_move": 0.05})
    before = director.factories.get("reversi")
    director.register("reversi", lambda: ReversiController(session, seed=1))
    try:
        director.switch("reversi")
        yield director.controller
    finally:
        director.tweens.cancel_all()
        if before is not None:
            director.register("reversi", before)


@pytest.mark.gl
def test_the_window_answers_while_the_engine_prepares_and_the_computer_moves_when_ready(
    director, gate: Path, reversi_waiting
) -> None:
    c = reversi_waiting
    _frames_until(director, lambda: c.engine_preparation() is not None)  # started at once
    prep = c.engine_preparation()
    assert prep.task == GATED
    # The worker says how far it got; the banner shows it.
    _frames_until(director, lambda: prep.fraction >= 0.5)
    assert prep.stage is pool.Stage.COMPILING
    assert "Preparing the engine (first start only): 50%" in director.hud.banner.text
    # The person moves at once: the rules need no engine.
    assert director.play(19)  # d3
    assert c.match.record[0].text == "d3"
    _frames_until(director, c.match.thinking)  # the computer's move waits for the engine...
    banner = director.hud.banner.text
    preparing = "Preparing the engine (first start only): 50%"
    assert f"the computer (intermediate) thinks. {preparing}" in banner
    # ... while every key answers: F3, F1, O.
    director.on_key_press(_key("F3"), 0)
    director.capture()
    assert director.overlay.visible
    director.on_key_press(_key("F3"), 0)
    assert not director.overlay.visible
    director.on_key_press(_key("O"), 0)
    assert c.show_options
    assert not prep.done.is_set() and len(c.match.record) == 1
    # The compile ends: the computer moves, in the worker that prepared.
    _open(gate)
    _frames_until(director, lambda: len(c.match.record) >= 2)
    assert prep.ready and c.engine_preparation() is None
    seat = c.match.seats[1]
    assert isinstance(seat, pool.WorkerAgent)
    assert seat.worker_pid == prep.pid
    assert "Preparing the engine" not in director.hud.banner.text


@pytest.mark.gl
def test_the_hint_waits_for_the_engine_and_comes_when_it_is_ready(
    director, gate: Path, reversi_waiting
) -> None:
    c = reversi_waiting
    assert director.perform("hint")
    assert "The hint waits for the engine" in director.hud.banner.text
    _frames_until(director, lambda: c.engine_preparation().fraction >= 0.5)
    assert c.match.current_hint() is None
    _open(gate)
    _frames_until(director, lambda: c.match.current_hint() is not None)
    assert c.match.current_hint().text in {"d3", "c4", "f5", "e6"}


def test_a_preparation_that_fails_says_why_and_the_search_waiting_for_it_is_lost() -> None:
    import random

    from game.logic.contract import Limits, Stop

    agent = pool.WorkerAgent(WhereAmI(), prepare="worker_agents:failing_prepare")
    with pytest.raises(pool.ThinkingLost, match="ran out of patience"):
        agent.choose(None, Limits(time=1.0), random.Random(0), Stop())
    prep = pool._PREPARATIONS["worker_agents:failing_prepare"]
    assert prep.stage is pool.Stage.FAILED
    assert prep.describe() == "The engine could not be prepared: the compiler ran out of patience"


def _key(name: str) -> int:
    from pyglet.window import key

    return int(getattr(key, name))
