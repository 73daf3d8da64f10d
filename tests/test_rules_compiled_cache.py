"""The compiled back end in the program: its modules cached under the cache folder by the
description they come from (a warm open neither generates nor compiles), the first compile in
a worker process with its progress in files any process reads, a module imported under its
lock (a second process waits for the first one's compile), the back end named in the command
line (``rules check``, ``rules perft --backend``), and nothing of it loading numba
where the window reads it. Breakthrough is the compiled game (it compiles in seconds, once a
run: tests/test_rules_compiled.py builds it in the same folder); Go the refused one."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.cli import main
from game.logic.rules.catalogue import path_of, rulebook
from game.logic.rules.compiled import build, cache, worker
from game.logic.rules.design import load, parse

ROOT = Path(__file__).resolve().parents[1]

#: In a fresh interpreter: the levels (which the window's scene reads) and reading the back
#: end's standing load no numba (it would hold up a described game's first frame a second);
#: then the module built before is imported with its text never generated, and counts as the
#: Python back end does.
WARM = """
import sys
import game.logic.rules.levels
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled import build
e = rulebook("breakthrough")
said = build.reason(e.design)
assert "numba" not in sys.modules, "the levels or the standing loaded numba"
def refuse(design):
    raise AssertionError("the module's text was generated again")
build.module_source = refuse
print(said, build.compiled_rules(e.design).perft(e.start(), 3))
"""


def test_a_warm_open_imports_the_module_without_generating_it_compiled() -> None:
    e = rulebook("breakthrough")
    rules = build.compiled_rules(e.design)  # built here, or found by an earlier test
    assert rules.path.parent == cache.folder()
    assert rules.path.stem == cache.stem(e.design)
    assert cache.marker(rules.path.stem, "ready").is_file()
    done = subprocess.run(
        [sys.executable, "-c", WARM], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["compiled", str(e.perft(e.start(), 3))]


def test_the_key_is_the_description_as_forms_with_its_parameters() -> None:
    text = (ROOT / "game/logic/rules/games/hex.txt").read_text(encoding="utf-8")
    laid_out = "\n\n".join(line.strip() for line in text.splitlines())
    same, again = parse(text, "a"), parse(laid_out, "b")
    assert cache.stem(same) == cache.stem(again) != ""
    assert cache.stem(parse(text, "a", {"side": 5})) != cache.stem(same)
    same.digest = ""  # a design not read from forms: named by its generated text instead
    assert cache.stem(same) == ""


def test_cli_names_the_backend_and_counts_on_either(capsys: pytest.CaptureFixture[str]) -> None:
    e = rulebook("breakthrough")
    build.compiled_rules(e.design)
    assert main(["rules", "perft", "breakthrough", "3", "--backend", "compiled"]) == 0
    compiled = capsys.readouterr().out
    assert main(["rules", "perft", "breakthrough", "3"]) == 0
    python = capsys.readouterr().out
    assert compiled.split()[:2] == python.split()[:2] == ["depth=3", "nodes=11132"]
    assert main(["rules", "check", "breakthrough"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "backend: compiled"


def test_cli_refuses_the_compiled_backend_with_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "perft", "go", "1", "--backend", "compiled"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamehall rules perft: go has no compiled back end: "), err
    assert main(["rules", "check", "go"]) == 0
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith("backend: python: ") and "not compiled yet" not in said, said


def test_the_first_compile_runs_in_a_worker_and_its_files_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.COMPILED_ENV, str(tmp_path))
    monkeypatch.setenv(worker.WORKER_ENV, "1")
    design = load(path_of("go"))  # a design of its own: nothing known of it in this process
    name = cache.stem(design)
    assert build.reason(design) == "python: not compiled yet"
    assert build.available(design) is None  # at once: the worker process decides
    child = worker._STARTED[name]
    assert child.wait(timeout=120) == 0, cache.read_marker(name, "log")
    assert build.reason(design) == f"python: {cache.read_marker(name, 'refused')}"
    assert not any(cache.marker(name, k).exists() for k in ("lock", "design", "progress"))
    assert build.available(design) is None and worker.readying(design) == ""
    assert worker._STARTED[name] is child  # none started again


def test_a_compile_under_way_shows_its_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.COMPILED_ENV, str(tmp_path))
    design = load(path_of("breakthrough"))  # not the one built here by the tests before
    name = cache.stem(design)
    cache.write_whole(cache.marker(name, "lock"), str(os.getpid()))  # this process compiles
    worker.reporter(name)(0.4)
    assert build.reason(design) == "python: compiling, 40% (first start only)"
    assert worker.readying(design) == "Compiling the rules (first start only): 40%"
    cache.marker(name, "lock").write_text("999999999")  # no such process: it died
    assert build.reason(design) == "python: not compiled yet"
    assert worker.readying(design) == ""  # none started: the tests switch that off


def test_no_more_compiles_start_than_the_machine_runs_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.COMPILED_ENV, str(tmp_path))
    monkeypatch.setenv(worker.WORKER_ENV, "1")
    for k in range(worker.AT_ONCE):  # compiles of other games, under way in this process
        cache.write_whole(cache.marker(f"rules_other_{k}", "lock"), str(os.getpid()))
    design = load(path_of("breakthrough"))
    name = cache.stem(design)
    assert worker.under_way() == worker.AT_ONCE
    assert worker.readying(design) == worker.WAITING
    assert build.available(design) is None
    assert name not in worker._STARTED and not cache.marker(name, "lock").exists()
    cache.marker("rules_other_0", "lock").write_text("999999999")  # one of them ended
    assert worker.under_way() == worker.AT_ONCE - 1


def test_modules_unused_for_a_month_are_removed(tmp_path: Path) -> None:
    old, new = tmp_path / "rules_a_1.py", tmp_path / "rules_b_2.py"
    for path in (old, new, tmp_path / "rules_a_1.ready", tmp_path / "rules_b_2.ready"):
        path.write_text("")
    month = time.time() - (cache.KEEP_DAYS + 1) * 86400
    for path in (old, tmp_path / "rules_a_1.ready", new):  # b's marker says it was used now
        os.utime(path, (month, month))
    assert cache.prune(tmp_path) == ["rules_a_1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules_b_2.py", "rules_b_2.ready"]


def test_a_folder_that_cannot_be_used_leaves_the_game_on_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv(cache.COMPILED_ENV, str(blocked / "compiled"))
    design = load(path_of("breakthrough"))
    assert build.reason(design).startswith("python: the compiled modules' folder cannot be used")
    assert worker.readying(design) == ""
    assert build.available(design) is None
    assert build.reason(design).startswith("python: the compile failed")


def _locked(name: str) -> bool:
    """Whether some open file holds the lock a process importing the module ``name`` takes
    (:func:`cache.compiling`); asked without waiting."""
    fcntl = pytest.importorskip("fcntl")
    fd = os.open(cache.marker(name, "compiling"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # (releases it where it was taken here)
    return False


def test_a_module_is_imported_under_its_lock_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import that compiles a module holds its lock: a second process asking for the same
    module meanwhile waits for it and loads the machine code, rather than compile it again
    (two test processes, the window beside a command line)."""
    e = rulebook("breakthrough")
    name = cache.stem(e.design)
    held = []
    imported = build._imported

    def watched(*args: object) -> object:
        held.append(_locked(name))
        return imported(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "_imported", watched)
    build.compiled_rules(e.design)  # built here, or found by an earlier test
    assert held == [True]
    # Released: this process keeps no file of the lock open (another test process may hold
    # the lock itself now, compiling the same module).
    lock = os.path.realpath(cache.marker(name, "compiling"))
    fds = Path("/proc/self/fd")
    if fds.is_dir():
        assert lock not in {os.path.realpath(fds / fd) for fd in os.listdir(fds)}
