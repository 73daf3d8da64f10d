"""Robots that cannot hurt the game: robot files are imported only in a confined discovery
process, a robot that cannot start is disabled for the game with one message, robot
processes have a memory cap and their printing is captured, and a robot that exits is
reported by its exit status. Ends with a fuzz test over generated robot files."""

from __future__ import annotations

import builtins
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.logic.contract import Limits, Stop
from game.logic.grab.discovery import RobotOrigin, RobotRegistry, discover
from game.logic.grab.game import GrabGame, play_rounds
from game.logic.grab.options import SCHEMA, GrabOptions
from game.logic.grab.record import failures, grab_state
from game.logic.grab.robot import UnknownRobotError
from game.logic.grab.sandbox import ProcessRunner, RobotDisabledError, RobotError
from game.logic.grab.state import Move
from game.logic.match import Match
from game.logic.workers.confine import Captured
from tests.deep import sized
from tests.waiting import HANG_S, wait_for_exit

pytestmark = pytest.mark.slow

ROBOT_HEAD = """
import os, sys, time
from game.logic.grab.robot import Robot
from game.logic.grab.robots.basic import BasicRobot
"""


def robot_file(*, top: str = "", init: str = "", plan: str = "") -> str:
    """A robot file that runs ``top`` when imported, ``init`` in its constructor and ``plan``
    before each move (then plays as BasicRobot)."""
    return f"""{ROBOT_HEAD}
{top}

class Made(Robot):
    def __init__(self):
        self.inner = BasicRobot()
        {init or "pass"}

    def plan(self, game):
        {plan or "pass"}
        return self.inner.plan(game)
"""


def _registry(
    folder: Path, *, import_s: float = 5.0, construct_s: float = 5.0, memory_mb: int = 512
) -> RobotRegistry:
    return RobotRegistry(
        folder,
        entry_points=False,
        import_s=import_s,
        construct_s=construct_s,
        memory_mb=memory_mb,
    )


@contextmanager
def robots_match(
    robots: tuple[str, ...], registry: RobotRegistry, budget_s: float = 1.0
) -> Iterator[Match[Move]]:
    game = GrabGame(GrabOptions(countries=20, robots=robots, human_playing=False), size=(240, 160))
    agents = [registry.agent(key, budget_s) for key in robots]
    match = Match(game, agents, seed=3, limits=Limits())
    try:
        yield match
    finally:
        match.close()


# --- discovery ----------------------------------------------------------------------------------


def test_robot_files_are_imported_in_another_process_only(tmp_path: Path) -> None:
    (tmp_path / "marker.py").write_text(robot_file(top="import builtins; builtins.GH_MARK = 1"))
    registry = _registry(tmp_path)
    assert "marker" in registry.names()
    assert not hasattr(builtins, "GH_MARK")
    assert not any(name.startswith("gamehall_robots.") for name in sys.modules)
    assert registry.robot_class("marker") is None
    assert registry.info("marker").origin.target == str(tmp_path / "marker.py")


def test_a_robot_file_that_exits_or_hangs_when_imported_is_listed_as_broken(
    tmp_path: Path,
) -> None:
    (tmp_path / "aexit.py").write_text("import os\nos._exit(3)\n")
    (tmp_path / "bspin.py").write_text("while True:\n    pass\n")
    (tmp_path / "cquit.py").write_text("raise SystemExit(4)\n")
    (tmp_path / "dgood.py").write_text(robot_file())
    registry = _registry(tmp_path, import_s=1.5)
    # The files after the ones that ended or hung the discovery process are still found.
    assert "dgood" in registry.names()
    assert registry.broken == {
        "aexit": "importing it ended its process (exit code 3)",
        "bspin": "importing it took more than 1.5 s",
        "cquit": "importing it raised SystemExit: 4",
    }
    problems = "\n".join(registry.problems)
    assert f"{tmp_path / 'aexit.py'}: importing it ended its process (exit code 3)" in problems
    with pytest.raises(UnknownRobotError, match="robot 'bspin' is broken: importing it took"):
        registry.agent("bspin")


def test_discovery_starts_no_process_when_there_is_nothing_to_import(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a robot")
    assert discover(tmp_path, entry_points=False) == ([], [])


# --- robots that cannot start --------------------------------------------------------------------


def test_a_robot_whose_constructor_hangs_is_disabled_for_the_game_with_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "ctorhang.py").write_text(robot_file(init="time.sleep(1e6)"))
    registry = _registry(tmp_path, construct_s=1.0)
    starts = []
    start = ProcessRunner._start

    def counted(runner: ProcessRunner) -> str | None:
        starts.append(runner.key)
        return start(runner)

    monkeypatch.setattr(ProcessRunner, "_start", counted)
    caplog.set_level(logging.WARNING)
    with robots_match(("ctorhang", "basic"), registry) as match:
        play_rounds(match, 4)
        lost = [s.forfeit for s in match.record if s.seat == 0]
        assert len(lost) == 4
        assert (
            lost
            == [
                "ctorhang: RobotDisabledError: disabled for this game: it did not start: "
                "more than 1 s for its constructor"
            ]
            * 4
        )
        assert all(s.forfeit is None for s in match.record if s.seat == 1)
    assert starts == ["ctorhang"]  # started once, not once a move
    warnings = [r.getMessage() for r in caplog.records if "ctorhang" in r.getMessage()]
    assert len(warnings) == 2  # the sandbox's reason, and the match's first lost turn


def test_a_robot_whose_constructor_raises_is_disabled(tmp_path: Path) -> None:
    (tmp_path / "ctorbad.py").write_text(robot_file(init="raise KeyError('no')"))
    runner = _registry(tmp_path).runner("ctorbad")
    assert isinstance(runner, ProcessRunner)
    with robots_match(("basic", "basic"), _registry(tmp_path)) as match:
        state = grab_state(match)
    with pytest.raises(RobotDisabledError, match="its constructor raised KeyError: 'no'"):
        runner.ask(state, 0, 1.0, Stop())
    with pytest.raises(RobotDisabledError, match="its constructor raised KeyError"):
        runner.ask(state, 0, 1.0, Stop())
    assert not runner.running
    runner.close()


# --- exits, printing and memory ------------------------------------------------------------------


QUITTER = robot_file(
    init="self.moves = 0",
    plan="""self.moves += 1
        if self.moves == 1:
            raise SystemExit(5)
        if self.moves == 2:
            sys.exit()
        if self.moves == 3:
            os._exit(7)""",
)


def test_a_robot_that_exits_is_reported_by_how_it_ended(tmp_path: Path) -> None:
    (tmp_path / "quitter.py").write_text(QUITTER)
    with robots_match(("quitter", "basic"), _registry(tmp_path)) as match:
        play_rounds(match, 4)
        lost = [s.forfeit for s in match.record if s.seat == 0]
    assert lost == [
        "quitter: RobotError: SystemExit: 5",
        "quitter: RobotError: SystemExit",
        "quitter: RobotError: its process ended (exit code 7); it restarts on its next move",
        "quitter: RobotError: SystemExit: 5",  # a new process, a new robot: it starts over
    ]


def test_a_robots_printing_is_captured_capped_and_kept_for_the_overlay(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    loud = robot_file(
        top="print('hello from the import')",
        plan="print('x' * 2_000_000); print('second line'); os.write(1, b'raw' * 10000)",
    )
    (tmp_path / "loud.py").write_text(loud)
    with robots_match(("loud", "basic"), _registry(tmp_path)) as match:
        play_rounds(match, 2)
        agent = match.seats[0]
        assert all(s.forfeit is None for s in match.record)
        printed = agent.printed  # type: ignore[union-attr]
    out, err = capfd.readouterr()
    assert "xxxx" not in out and "raw" not in out and "xxxx" not in err
    assert "hello from the import" not in out
    assert any(line.startswith("x" * 100) for line in printed)
    assert any("more characters not kept" in line for line in printed)
    assert all(len(line) <= 200 for line in printed)


def test_captured_keeps_the_first_characters_and_counts_the_rest() -> None:
    stream = Captured(cap=10)
    stream.write("hello ")
    stream.write("world, and more")
    assert stream.take() == "hello worl\n[11 more characters not kept]\n"
    assert stream.take() == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_a_robot_over_its_memory_limit_loses_its_move(tmp_path: Path) -> None:
    (tmp_path / "hog.py").write_text(robot_file(plan="x = bytearray(3 * 1024**3)"))
    registry = _registry(tmp_path, memory_mb=128)
    with robots_match(("hog", "basic"), registry) as match:
        play_rounds(match, 1)
        step = match.record[0]
    assert step.forfeit == "hog: MemoryError: over its memory limit of 128 MiB"


def test_the_robot_memory_limit_is_a_checked_option() -> None:
    assert SCHEMA.validate({"robot_memory_mb": 256})["robot_memory_mb"] == 256
    with pytest.raises(ValueError, match="robot_memory_mb must be at least 64"):
        SCHEMA.validate({"robot_memory_mb": 1})
    assert GrabOptions.from_values(SCHEMA.defaults()).robot_memory_mb == 512


# --- fuzz: generated robot files ----------------------------------------------------------------

BEHAVIOURS = {
    "raise": "raise RuntimeError('generated')",
    "hang": "time.sleep(1e6)",
    "spin": "while True: pass",
    "os_exit": "os._exit(3)",
    "sys_exit": "sys.exit(0)",
    "print": "print('p' * 2_000_000)",
    "allocate": "x = bytearray(3 * 1024**3)",
    "fine": "pass",
}
FAILS = {"raise", "hang", "spin", "os_exit", "sys_exit", "allocate"}
PLACES = ("top", "init", "plan")
_NAMES = sorted(BEHAVIOURS)
#: Every behaviour in every place once: (b[i] at import, b[i+1] in __init__, b[i+2] in plan).
EVERY_PLACE = [
    [(_NAMES[(i + k) % len(_NAMES)], place) for k, place in enumerate(PLACES)]
    for i in range(len(_NAMES))
]


@pytest.mark.parametrize("robots", EVERY_PLACE, ids=lambda robots: "-".join(b for b, _ in robots))
def test_every_behaviour_in_every_place_never_stops_the_game(
    tmp_path: Path, robots: list[tuple[str, str]]
) -> None:
    """Each row puts one behaviour at import, the next in ``__init__`` and the one after in
    ``plan``: together the rows put every behaviour in every place once. One test a row, so
    that the parallel workers share the rows (each waits out its hanging robots' limits)."""
    _check_generated_robots(tmp_path, robots)


@pytest.mark.deep
@settings(
    # generated, besides the rows of EVERY_PLACE (the test above), which already put every
    # behaviour in every place (6 under slow_checks.py: each example's hanging and spinning
    # robots run to their limits, a CPU second or more each)
    max_examples=sized(1, 6),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    robots=st.lists(
        st.tuples(st.sampled_from(sorted(BEHAVIOURS)), st.sampled_from(PLACES)),
        min_size=3,
        max_size=3,
    )
)
def test_fuzz_generated_robot_files_never_stop_the_game(
    tmp_path_factory: pytest.TempPathFactory, robots: list[tuple[str, str]]
) -> None:
    _check_generated_robots(tmp_path_factory.mktemp("robots"), robots)


def _check_generated_robots(folder: Path, robots: list[tuple[str, str]]) -> None:
    """Robot files with the given behaviours in the given places: those that fail on import
    are listed as broken, the others found; a game with them plays two rounds, and each
    seated robot that fails is named among the failures."""
    keys = []
    for i, (behaviour, place) in enumerate(robots):
        (folder / f"r{i}.py").write_text(robot_file(**{place: BEHAVIOURS[behaviour]}))
        keys.append(f"r{i}")
    registry = _registry(folder, import_s=1.5, construct_s=1.0, memory_mb=128)
    seated = (*(k for k in keys if k in registry), "basic")
    for key, (behaviour, place) in zip(keys, robots, strict=True):
        if place == "top" and behaviour in FAILS:
            assert key in registry.broken, (key, behaviour, registry.problems)
        else:
            assert key in registry.names(), (key, behaviour, registry.problems)
    if len(seated) < 2:
        seated = (*seated, "basic")
    with robots_match(seated, registry, budget_s=0.3) as match:
        play_rounds(match, 2)  # returns: the game goes on whatever the robots do
        state = grab_state(match)
        assert state.turn >= 2 * len(seated) or match.over
        lost = "\n".join(failures(match))
    for key, (behaviour, place) in zip(keys, robots, strict=True):
        if key in seated and behaviour in FAILS:
            assert f": {key}: " in lost, (key, behaviour, place, lost)


# --- what a robot's process sends back -----------------------------------------------------------

SNEAKY_NAME = """
from game.logic.grab.robot import Robot


class Sly(str):
    def __reduce__(self):
        return (exec, ("import builtins; builtins.GH_SLY_NAME = 1",))


class Sneaky(Robot):
    name = Sly("sneaky")
"""

SNEAKY_MOVE = robot_file(
    top="""
from game.logic.grab.state import Move


class Sly(str):
    def __reduce__(self):
        return (exec, ("import builtins; builtins.GH_SLY_MOVE = 1",))
""",
    plan="Move.__str__ = lambda move: Sly('none')",
)


def test_a_robots_own_classes_never_travel_back_to_the_game(tmp_path: Path) -> None:
    (tmp_path / "sneaky.py").write_text(SNEAKY_NAME)
    (tmp_path / "sneakymove.py").write_text(SNEAKY_MOVE)
    registry = _registry(tmp_path)
    assert registry.info("sneaky").name == "sneaky"
    assert type(registry.info("sneaky").name) is str
    with robots_match(("sneakymove", "basic"), registry) as match:
        play_rounds(match, 2)
        assert match.record[0].forfeit is None and match.record[0].text == "none"
    assert not hasattr(builtins, "GH_SLY_NAME") and not hasattr(builtins, "GH_SLY_MOVE")
    assert not any(name.startswith("gamehall_robots.") for name in sys.modules)


#: A robot that, on its second move, writes past its message limit into the game's pipe (it
#: finds its end of the pipe among its objects), then plays on.
FLOODER = robot_file(
    init="self.moves = 0",
    plan="""self.moves += 1
        if self.moves == 2:
            import gc
            from multiprocessing.connection import Connection
            pipe = next(o for o in gc.get_objects() if isinstance(o, Connection))
            pipe.send_bytes(b"x" * (2 << 20))""",
)


def test_a_robot_that_floods_its_pipe_loses_the_move_and_its_process(tmp_path: Path) -> None:
    (tmp_path / "flooder.py").write_text(FLOODER)
    runner = ProcessRunner("flooder", RobotOrigin("file", str(tmp_path / "flooder.py"), "Made"))
    with robots_match(("basic", "basic"), RobotRegistry.builtins()) as match:
        state = grab_state(match)
    try:
        assert isinstance(runner.ask(state, 0, HANG_S, Stop()), Move)
        with pytest.raises(RobotError, match="more than 1,048,576 bytes; it was ended; it rest"):
            runner.ask(state, 0, HANG_S, Stop())
        assert not runner.running  # the rest of its message is never read as an answer
    finally:
        runner.close()


def test_what_a_robot_starts_is_stopped_with_it(tmp_path: Path) -> None:
    import os

    # The robot cannot write outside its temp folder (its jail), so its child is found by a
    # mark on its command line instead of a pid file.
    mark = f"gh-spawned-{os.getpid()}-{tmp_path.name}"
    (tmp_path / "spawner.py").write_text(
        robot_file(
            init=f"""import subprocess
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", {mark!r}])"""
        )
    )
    with robots_match(("spawner", "basic"), _registry(tmp_path)) as match:
        play_rounds(match, 1)
        pids = _marked(mark)
        assert len(pids) == 1  # running while the robot plays
    # Killed with the robot (an exit the pidfd reports, reaped or not).
    assert wait_for_exit(pids[0]), "the process the robot started is still running"


def _marked(mark: str) -> list[int]:
    """The processes with ``mark`` on their command line."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if mark.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_entry_points_are_found_in_the_discovery_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.metadata

    # A folder of its own: one that holds GAMEHALL_HOME (tmp_path does) is not read in a jail.
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "gh_plugin_robots.py").write_text(
        robot_file().replace("class Made(Robot):", "class Outer:\n    pass\n\n\nclass Made(Robot):")
        + "\nOuter.Inner = Made\n"
    )
    monkeypatch.syspath_prepend(str(packages))
    points = [
        importlib.metadata.EntryPoint("Plugged", "gh_plugin_robots:Outer.Inner", "gamehall.robots"),
        importlib.metadata.EntryPoint("Loose", "gh_plugin_robots", "gamehall.robots"),
        importlib.metadata.EntryPoint("Gone", "gh_no_such_module:X", "gamehall.robots"),
    ]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: points)
    found, broken = discover(None)
    assert [(f.key, f.origin.describe()) for f in found] == [
        ("plugged", "gh_plugin_robots:Outer.Inner")
    ]
    assert {b.key: b.reason for b in broken} == {
        "loose": "names no class",
        "gone": "importing it raised ModuleNotFoundError: No module named 'gh_no_such_module'",
    }
    assert "gh_plugin_robots" not in sys.modules
