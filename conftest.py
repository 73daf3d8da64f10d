"""pytest settings for every run from the repository root, the doctests in game/ included.

pyglet opens a hidden "shadow" window on a real display the moment ``pyglet.window`` is
imported (``pyglet.text`` imports it too); collecting ``game/engine/hud.py`` for its doctests
would then fail on a machine without a display. Headless (EGL) is set here, before any module
is collected; ``tests/conftest.py`` sets the same for the tests.

The compiled kernels of the tests (and of the programs they start, which inherit the
variable) are kept in ``.pytest_cache/numba``, in the checkout, unless ``NUMBA_CACHE_DIR`` is
set (``.ci/run`` sets a folder it keeps for every clone on the machine, where each version of
the kernels' sources has folders of its own: see :mod:`game.logic.compiling`), and kept from
one run to the next. The person's own cache folder (:mod:`game.places`) is left alone. Set
before ``game`` is imported, since that is when numba's folder is chosen.

The programs the tests start (``gamehall`` from the virtual environment) import ``game`` from
this checkout too, as pytest does: numba keys its cache by the source file's path, and the
installed copy beside it cost a second compile of every kernel on a clean clone (about 100
CPU seconds). What the wheel holds is checked by ``tests/test_packaging.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from subprocess import Popen

import pytest

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).parent / ".pytest_cache" / "numba"))
# A described game's first compile is started in a worker (game.logic.rules.compiled.worker) when
# its scene opens or a search asks for it: not in the tests, where that process would take the
# processor from the rest of the run (chess: a minute); the tests build what they test.
os.environ.setdefault("GAMEHALL_COMPILE_WORKER", "0")
# Nor do the levels search on a compiled module that an earlier test happened to build: a test
# of a level's play asks for the compiled search itself (monkeypatch GAMEHALL_COMPILED_SEARCH).
os.environ.setdefault("GAMEHALL_COMPILED_SEARCH", "0")
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH", "")) if p
)
# Mesa's software renderer (llvmpipe) rasterizes on threads of its own, one a core, in every
# test process and every program the tests start: with one test process a core already (the
# parallel run), they only handed each small frame back and forth, about a tenth more CPU
# time in the drawing tests. The tests' processes draw on their own thread instead (the same
# pixels); a value set outside is kept.
os.environ.setdefault("LP_NUM_THREADS", "0")

from hypothesis import settings as hypothesis_settings

from game.engine.window import configure_pyglet

configure_pyglet(headless=True)

# Property tests are bounded by their number of examples, never by the clock: Hypothesis'
# default 200 ms deadline per example fails a test on a busy machine (CI beside another job).
hypothesis_settings.register_profile("gamehall", deadline=None)
hypothesis_settings.load_profile("gamehall")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """A parallel run compiles the games' kernels once, in a process of its own, while the
    workers start (``tests/warm_kernels.py`` says why); every test process waits for it
    before its first compile."""
    from tests import warm_kernels

    config = session.config
    controller = not hasattr(config, "workerinput")
    parallel = config.getoption("numprocesses", default=None) not in (None, 0, "0")
    if controller and parallel:
        if not os.environ.get(warm_kernels.LOCK_ENV):
            # Its locks and log are this run's own, beside the checkout's other caches: the
            # numba cache may be shared with other runs (.ci/run keeps one for every clone).
            folder = Path(__file__).parent / ".pytest_cache" / "warm-up"
            config.stash[_WARM_UP] = warm_kernels.start(folder)
    else:  # a process that runs tests
        warm_kernels.install()


def pytest_collection_finish(session: pytest.Session) -> None:
    """From here on a compile waits for the whole warm-up, not only its first part."""
    from tests import warm_kernels

    warm_kernels.collected()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A warm-up still compiling when the tests are done (a run of a few tests) is stopped;
    what it compiled so far stays in the cache."""
    process = session.config.stash.get(_WARM_UP, None)
    if process is not None and process.poll() is None:
        process.terminate()
        process.wait()


_WARM_UP = pytest.StashKey[Popen[bytes]]()


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> object:
    """``--doctest-modules`` collects every module, game's and the tests' alike: a module
    whose text holds no ``>>>`` has no example to run, so its doctest collector (an import
    and a walk through everything it defines, a few CPU seconds in all for each test
    process) is left out."""
    from _pytest.doctest import DoctestModule  # pytest's own collector of a module's examples

    collectors = yield
    if file_path.suffix == ".py" and collectors:
        kept = [c for c in collectors if not isinstance(c, DoctestModule)]
        if len(kept) < len(collectors) and ">>>" not in file_path.read_text(encoding="utf-8"):
            return kept
    return collectors
