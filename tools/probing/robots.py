"""``robots``: about 40 robot files in ``$GAMEHALL_HOME/robots`` that raise, hang, exit,
print, allocate 3 GB, spawn a process (at import, in ``__init__``, in ``plan``), return junk,
cheat or send a pickle up their pipe, run in ``shot grab`` and ``tournament grab``; then the
hostile robots of :mod:`probing.robots_hostile`.

Misbehaving: an exit status other than 0 or 2, a traceback, no answer within 120 s, more than
100 KB of output, a failing robot not named on stderr, robot code run in the game's own
process, processes left running, and any effect of a broken robot that was not picked (or of
a cheating one) on the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    OUTPUT_CAP,
    ROBOT_TIMEOUT_S,
    SMALL,
    Place,
    Probe,
    Ran,
    Tally,
    common_problems,
    last_line,
    parallel,
)  # fmt: skip
from probing.robots_hostile import run_hostile


def run(probe: Probe) -> Tally:
    cases = robot_cases()
    indices = probe.pick(len(cases), 6)
    tally = Tally()
    base_place = probe.place()
    try:
        plain = probe.gamehall(_robot_shot("basic,basic"), base_place, ROBOT_TIMEOUT_S)
        baseline = _status(plain.out)
        _write_robot(base_place.home, "passer", robot_source("plan", "pass"))
        passer = probe.gamehall(_robot_shot("passer,basic"), base_place, ROBOT_TIMEOUT_S)
        passing = _status(passer.out)
    finally:
        probe.done(base_place)
    for what, ran in (("baseline basic,basic", plain), ("baseline passer,basic", passer)):
        problems = common_problems(ran, ROBOT_TIMEOUT_S, allowed=(0,))
        if problems:
            tally.lines.extend(f"{what}: {p}" for p in problems)
    results = parallel(
        lambda i: _robot_case(probe, cases[i], baseline, passing), indices, probe.jobs
    )
    for i, problems in zip(indices, results, strict=True):
        tally.add(i, problems)
    run_hostile(probe, len(cases), tally)
    return tally


def _robot_case(probe: Probe, case: RobotCase, baseline: str, passing: str) -> list[str]:
    problems: list[str] = []
    for run in case.runs:
        place = probe.place()
        try:
            _write_robot(place.home, case.stem, case.source)
            if run == "unpicked":
                argv = _robot_shot("basic,basic")
            elif run == "tournament":
                argv = [
                    "tournament", "grab", "--agents", f"{case.stem},basic", "--games", "1",
                    "--countries", "20", "--max-steps", "12", "--jobs", "1",
                ]  # fmt: skip
            else:
                argv = _robot_shot(f"{case.stem},basic")
            ran = probe.gamehall(argv, place, ROBOT_TIMEOUT_S)
            found = [
                f"{run}: {p}" for p in _robot_problems(case, run, ran, place, baseline, passing)
            ]
            problems.extend(found)
        finally:
            probe.done(place)
    return [f"robot {case.stem} ({case.about}): {p}" for p in problems]


# --- 4. robots ------------------------------------------------------------------------------------

#: The top of every robot file: it notes the id of each process that imports it.
ROBOT_HEAD = """import os, sys, time
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE, Move, MoveKind
try:  # a robot kept from writing outside its own folder cannot note itself: no matter
    with open(os.path.join(os.environ.get("GAMEHALL_HOME", "."), "robot-pids.txt"), "a") as _f:
        _f.write(f"{os.getpid()}\\n")
except OSError:
    pass
"""
#: Code that notes the process it runs in (the game's must never run a robot's code).
PICKLE_CODE = (
    "import os; open(os.environ['GAMEHALL_HOME'] + '/robot-pids.txt', 'a')"
    ".write(str(os.getpid()) + chr(10))"
)
#: What a robot does wrong, as code (an indented body).
DEEDS = {
    "raise": 'raise RuntimeError("hostile robot")',
    "spin": "while True:\n    pass",
    "sleep": "time.sleep(1e6)",
    "os_exit": "os._exit(3)",
    "sys_exit": "sys.exit(0)",
    "systemexit": "raise SystemExit",
    "interrupt": "raise KeyboardInterrupt",
    "print": 'print("x" * 2_000_000)\nprint("y" * 2_000_000, file=sys.stderr)',
    "alloc": 'blob = b"x" * (3 * 1024 ** 3)',
    "pass": "pass",
    "slow": "time.sleep(3)",
    "spawn": 'import subprocess\nsubprocess.Popen(["sleep", "1000"])',
    "junk_text": 'return "attack 1>2"',
    "junk_none": "return None",
    "junk_int": "return 42",
    "illegal": "return Move(MoveKind.ATTACK, 10 ** 20, (0,))",
    "list_sources": "return Move(MoveKind.ATTACK, 1, [0, 2])",
    "subclass": (
        "class Evil(Move):\n    def __str__(self):\n        return 'none' * 100000\n"
        "return Evil(MoveKind.GATHER, game.my_countries[0], ())"
    ),
    "cheat": (
        "st = game.state\n"
        "object.__setattr__(st, 'armies', tuple(1e9 for _ in st.armies))\n"
        "object.__setattr__(st, 'owners', tuple(game.player if o >= 0 else o for o in st.owners))\n"
        "import gc\n"
        "for obj in gc.get_objects():\n"
        "    if type(obj).__name__ == 'GrabState':\n"
        "        object.__setattr__(obj, 'armies', tuple(1e9 for _ in obj.armies))\n"
        "return NO_MOVE"
    ),
    # A pickle sent up the robot's own pipe: unpickled by the game, it would run code there.
    "pickle": (
        "import gc\n"
        "from multiprocessing.connection import Connection\n"
        f"code = {PICKLE_CODE!r}\n"
        "class Payload:\n"
        "    def __reduce__(self):\n"
        "        return (exec, (code,))\n"
        "for obj in gc.get_objects():\n"
        "    if isinstance(obj, Connection):\n"
        "        try:\n"
        "            obj.send(Payload())\n"
        "        except Exception:\n"
        "            pass\n"
        "return NO_MOVE"
    ),
}


def robot_source(where: str, deed: str, *, attrs: str = "") -> str:
    """A robot file that does ``deed`` at ``where`` (``import``, ``init`` or ``plan``)."""
    body = DEEDS[deed]
    if where != "plan":  # only plan returns
        body = "\n".join(line for line in body.splitlines() if not line.startswith("return"))
    top = body if where == "import" else ""
    init = _indent(body, 8) if where == "init" else "        pass"
    plan = _indent(body, 8) if where == "plan" else ""
    attrs = attrs or '    name = "Hostile"\n    description = "misbehaves on purpose"\n'
    return (
        f"{ROBOT_HEAD}\n{top}\n\nclass Hostile(Robot):\n{attrs}\n"
        f"    def __init__(self):\n{init}\n\n"
        f"    def plan(self, game):\n{plan}\n        return NO_MOVE\n"
    )


def _indent(code: str, n: int) -> str:
    return "\n".join(" " * n + line for line in code.splitlines())


@dataclass(frozen=True)
class RobotCase:
    """A robot file ``stem``.py with ``source``; ``runs``: ``pick`` (a shot with it),
    ``unpicked`` (a shot without it), ``tournament``; ``named``: it must be named on stderr
    when picked; ``same``: a pick must end like the passing robot's game."""

    stem: str
    about: str
    source: str
    runs: tuple[str, ...] = ("pick",)
    named: bool = True
    same: bool = False


#: Each place a robot can misbehave, and what it does wrong there.
ROBOT_DEEDS = {
    "import": (
        "raise", "spin", "sleep", "os_exit", "sys_exit", "interrupt", "print", "alloc", "pickle",
    ),
    "init": ("raise", "spin", "os_exit", "systemexit", "print", "alloc", "spawn"),
    "plan": (
        "raise", "spin", "sleep", "os_exit", "sys_exit", "interrupt", "print", "alloc", "slow",
        "junk_text", "junk_none", "junk_int", "illegal", "list_sources", "subclass", "cheat",
        "pickle",
    ),
}  # fmt: skip
#: Deeds that need not fail (so the robot need not be named), and those that must not change
#: the game at all (it must end as the passing robot's game does).
QUIET = {"print", "spawn", "cheat", "pickle", "pass"}
HARMLESS = {"cheat", "pickle", "pass"}


def robot_cases() -> list[RobotCase]:
    """A robot file per deed and place, and a few odd files."""
    cases = []
    for where, deeds in ROBOT_DEEDS.items():
        for deed in deeds:
            runs: tuple[str, ...] = ("pick",)
            if where == "import":
                runs = ("pick", "unpicked")
            elif where == "plan" and deed in ("raise", "spin", "os_exit", "junk_text"):
                runs = ("pick", "tournament")
            source = robot_source(where, deed)
            compile(source, f"{where}_{deed}.py", "exec")  # a mistake of the probe's own
            quiet, same = deed in QUIET, deed in HARMLESS
            if where == "import" and deed == "pickle":
                # Its discovery reply is refused, so the file is listed as broken and another
                # robot plays its seat: it must be named, and the game is not the passer's.
                quiet = same = False
            cases.append(
                RobotCase(f"{where}_{deed}", f"{deed} in {where}", source, runs, not quiet, same)
            )
    big = '    name = "n" * 100000\n    description = "d" * 1000000\n'
    odd = "    name = None\n    description = 5\n    default = 'yes'\n"
    both = ("pick", "unpicked")
    cases += [
        RobotCase("syntax", "a syntax error", ROBOT_HEAD + "def (:\n", both),
        RobotCase("norobot", "no Robot subclass", ROBOT_HEAD + "X = 1\n", both),
        RobotCase("bignames", "a 1 MB description", robot_source("plan", "pass", attrs=big),
                  named=False, same=True),
        RobotCase("oddattrs", "attributes of odd types", robot_source("plan", "pass", attrs=odd),
                  named=False, same=True),
        RobotCase("basic", "a file that shadows the built-in basic",
                  robot_source("plan", "raise"), ("unpicked",)),
    ]  # fmt: skip
    return cases


def _write_robot(home: Path, stem: str, source: str) -> None:
    folder = home / "robots"
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.py").write_text(source)


def _robot_shot(robots: str) -> list[str]:
    return [
        "shot", "grab", "--out", "out.png", *SMALL, "--countries", "20", "--seed", "5",
        "--robots", robots, "--no-human-playing", "--do", "pass,pass,pass,pass",
    ]  # fmt: skip


def _status(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("status=")]
    return lines[-1] if lines else ""


def _robot_problems(
    case: RobotCase, run: str, ran: Ran, place: Place, baseline: str, passing: str
) -> list[str]:
    unpicked = run == "unpicked"
    problems = common_problems(ran, ROBOT_TIMEOUT_S, allowed=(0,) if unpicked else (0, 2))
    if len(ran.err) > OUTPUT_CAP:
        problems.append(f"{len(ran.err)} characters on stderr")
    if unpicked and ran.rc == 0 and _status(ran.out) != baseline:
        problems.append(f"changed a game without it: {_status(ran.out)!r}, not {baseline!r}")
    if run == "pick" and case.same and ran.rc == 0 and _status(ran.out) != passing:
        problems.append(f"it changed the game: {_status(ran.out)!r}, not {passing!r}")
    if not unpicked and case.named and case.stem not in ran.err.lower():
        problems.append(f"failed without being named on stderr ({last_line(ran.err)})")
    pids = place.home / "robot-pids.txt"
    if pids.exists() and str(ran.pid) in pids.read_text().split():
        problems.append("robot code ran in the game's own process")
    return problems
