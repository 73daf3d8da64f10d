"""The tests themselves: each test asserts something, and none waits for wall time.

A test that asserts nothing passes whatever the code does; a ``time.sleep`` stands in for an
event the test should wait for (``tests/waiting.py`` waits for one, bounded), so a busy
machine fails it or an idle one wastes the time; a wall-clock assert fails on a busy machine.
The scan reads every module under ``tests/`` with :mod:`ast`, so a test that comes back with
one of these fails here, named with its line.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

TESTS = Path(__file__).parent

# Calls that check by themselves (pytest's).
_CHECKING = {"raises", "fail", "warns", "deprecated_call", "approx", "xfail"}
# Helper modules of the tests whose functions may wait on purpose, bounded: waiting.py is
# the one place that polls for an event (with a deadline), and the agents/robots that tests
# start in other processes sleep to play a slow or hung player, which is what they test.
_MAY_SLEEP = {"waiting.py", "worker_agents.py"}
# Helpers that pace frames as a window's refresh does (not a wait for anything: the event they
# wait for is their condition, checked each frame).
_PACES = {("test_engine_start.py", "_frames_until")}
_CLOCK = {"sleep", "perf_counter", "monotonic", "process_time"}


@functools.cache
def _tests_folder() -> dict[str, ast.Module]:
    return {p.name: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in TESTS.glob("*.py")}


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _looks(node: ast.AST) -> tuple[bool, set[str]]:
    """Whether ``node`` checks something itself, and the names it calls (one walk)."""
    checks, calls = False, set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert):
            checks = True
        elif isinstance(sub, ast.Call) and (called := _called_name(sub)) is not None:
            calls.add(called)
    return checks or bool(calls & _CHECKING), calls


def _checking_helpers(
    modules: dict[str, ast.Module],
) -> tuple[set[str], dict[ast.AST, tuple[bool, set[str]]]]:
    """The names of the functions and methods under tests/ that check something, themselves
    or through another such helper (a fixed point over the calls), and what each function
    node does itself (:func:`_looks`)."""
    calls: dict[str, set[str]] = {}
    looks: dict[ast.AST, tuple[bool, set[str]]] = {}
    checking: set[str] = set()
    for tree in modules.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                looks[node] = checks, called = _looks(node)
                calls.setdefault(node.name, set()).update(called)
                if checks:
                    checking.add(node.name)
    while more := {name for name, called in calls.items() if called & checking} - checking:
        checking |= more
    return checking, looks


def _tests(tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    found: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for node in tree.body:
        bodies = node.body if isinstance(node, ast.ClassDef) else [node]
        found += [
            f
            for f in bodies
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test")
        ]
    return found


def idle_tests(modules: dict[str, ast.Module]) -> list[str]:
    """``file:line name`` of each test that checks nothing, itself or through a helper."""
    checking, looks = _checking_helpers(modules)
    return [
        f"{name}:{test.lineno} {test.name}"
        for name, tree in modules.items()
        for test in _tests(tree)
        if not looks[test][0] and not looks[test][1] & checking
    ]


def clock_calls(modules: dict[str, ast.Module]) -> list[str]:
    """``file:line time.X`` of each sleep or clock reading in a test or a module-level helper.

    Allowed: the helper modules of :data:`_MAY_SLEEP`, methods of classes (a player or robot
    a test builds slow on purpose: its slowness is what the test is about) and the frame pace
    of :data:`_PACES`."""
    found = []
    for name, tree in modules.items():
        if name in _MAY_SLEEP:
            continue
        for top in tree.body:
            if isinstance(top, ast.ClassDef) or (name, getattr(top, "name", "")) in _PACES:
                continue
            for sub in ast.walk(top):
                if (
                    isinstance(sub, ast.Call)
                    and isinstance(sub.func, ast.Attribute)
                    and isinstance(sub.func.value, ast.Name)
                    and sub.func.value.id == "time"
                    and sub.func.attr in _CLOCK
                ):
                    found.append(f"{name}:{sub.lineno} time.{sub.func.attr}")
    return found


def test_every_test_asserts_something() -> None:
    idle = idle_tests(_tests_folder())
    assert not idle, "tests that assert nothing (add the check they stand for):\n" + "\n".join(idle)


def test_no_test_sleeps_or_reads_the_clock() -> None:
    found = clock_calls(_tests_folder())
    assert not found, (
        "a test waits for an event (tests/waiting.py), never for wall time, and asserts no "
        "time (bound the work by steps or nodes):\n" + "\n".join(found)
    )


def test_the_scan_finds_what_it_looks_for() -> None:
    sample = ast.parse(
        "import time\n"
        "def helper():\n    assert 1\n"
        "def test_idle():\n    x = 1\n"
        "def test_through_helper():\n    helper()\n"
        "def test_raises():\n    with pytest.raises(ValueError):\n        int('a')\n"
        "def test_sleeps():\n    time.sleep(1)\n    assert True\n"
        "class Slow:\n    def plan(self):\n        time.sleep(1)\n"
        "def test_times():\n    t = time.perf_counter()\n    assert t < 1\n"
    )
    assert idle_tests({"sample.py": sample}) == ["sample.py:4 test_idle"]
    assert clock_calls({"sample.py": sample}) == [
        "sample.py:12 time.sleep",
        "sample.py:18 time.perf_counter",
    ]
