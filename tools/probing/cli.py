"""``cli``: about 170 hostile command lines for every command and game, each run as a
subprocess, then the cases of :mod:`probing.cli_numbers`.

Misbehaving: a traceback, an exit status other than 0 or 2 (``play`` may say in one line that
there is no display and exit 1), no answer within 60 s, a ``--do`` item the program refused (or
that must be refused) with exit status 0, more than 100 KB on stdout, a file written outside
GAMEHALL_HOME and the ``--out``/``save-to:`` paths, processes left running after it ended.

The fixtures a command line names are made in its working folder first: ``garbage.txt``
(text), ``binary.bin`` (random bytes), ``fifo`` (a named pipe), ``folder`` (a folder),
``big.txt`` (10 MB of a transcript), ``illegal.txt`` (``a1``), ``long.txt`` (``f5`` 1000 times).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from probing.base import (
    CHEAP,
    CLI_TIMEOUT_S,
    SMALL,
    Place,
    Probe,
    Ran,
    Tally,
    clip,
    common_problems,
    last_line,
    parallel,
    snapshot,
)  # fmt: skip


def run(probe: Probe) -> Tally:
    cases = cli_cases(random.Random(f"{probe.seed}:cli"))
    indices = probe.pick(len(cases), 25)
    results = parallel(lambda i: _cli_case(probe, cases[i]), indices, probe.jobs)
    tally = Tally()
    for i, problems in zip(indices, results, strict=True):
        tally.add(i, problems)
    from probing.cli_numbers import run_numbers  # it imports this module

    run_numbers(probe, len(cases), tally)
    return tally


def _cli_case(probe: Probe, case: CliCase) -> list[str]:
    place = probe.place()
    try:
        _make_fixtures(place.cwd, case.args)
        before = snapshot(place.cwd)
        ran = probe.gamehall(case.args, place, case.timeout)
        after = snapshot(place.cwd)
        what = clip(shlex.join(case.args), 150)
        problems = cli_problems(case, ran, before, after, place)
        return [f"{what}: {p}" for p in problems]
    finally:
        probe.done(place)


# --- 1. command lines: cases and checks ------------------------------------------------------


@dataclass(frozen=True)
class CliCase:
    """One command line; ``refused``: it holds a ``--do`` item that must be refused."""

    args: tuple[str, ...]
    refused: bool = False
    timeout: float = CLI_TIMEOUT_S


FIXTURES: dict[str, Callable[[Path], object]] = {
    "garbage.txt": lambda p: p.write_text("this is not a saved game\n\x01\x02 {[("),
    "binary.bin": lambda p: p.write_bytes(random.Random(7).randbytes(4096)),
    "fifo": lambda p: os.mkfifo(p),
    "folder": lambda p: p.mkdir(),
    "big.txt": lambda p: p.write_bytes(b"f5d6c3" * (10_000_000 // 6)),
    "illegal.txt": lambda p: p.write_text("a1\n"),
    "long.txt": lambda p: p.write_text("f5" * 1000),
}


def _make_fixtures(cwd: Path, args: Sequence[str]) -> None:
    text = " ".join(args)
    for name, make in FIXTURES.items():
        if re.search(rf"(^|[\s:=/,]){re.escape(name)}($|[\s,/])", text):
            make(cwd / name)


def _shot(game: str, *extra: str, refused: bool = False, timeout: float = CLI_TIMEOUT_S) -> CliCase:
    return CliCase(
        ("shot", game, "--out", "out.png", *SMALL, *CHEAP[game], *extra), refused, timeout
    )


def _do(
    game: str, items: str, *extra: str, refused: bool = False, timeout: float = CLI_TIMEOUT_S
) -> CliCase:
    return _shot(game, "--do", items, *extra, refused=refused, timeout=timeout)


#: The time a case that waits for Reversi's computer is given: each case has a home of its own,
#: so the engine compiles afresh (about 70 s on this 2-core machine, more beside other cases).
ENGINE_COLD_S = 240.0


START = "-" * 27 + "OX------XO" + "-" * 27
BAD_TIMES = ("0", "-1", "nan", "inf", "-inf", "1e309", "1e-300", "abc", "", "0x10")
BAD_INTS = ("0", "-1", "100000000", "abc", "", "1.5", "1e3", "99999999999999999999999", " 3")
BAD_SIZES = (
    "0x0", "abc", "99999x99999", "1x1", "-160x120", "160x", "x", "160x120x3", "", "64x8192",
)  # fmt: skip


def cli_cases(rng: random.Random) -> list[CliCase]:
    """About 170 hostile command lines: about 160 written out, then 10 generated from ``rng``."""
    c: list[CliCase] = [
        CliCase(()), CliCase(("nosuch",)), CliCase(("--help",)), CliCase(("-v",)),
        CliCase(("shot",)), CliCase(("shot", "river")), CliCase(("solve",)),
        CliCase(("solve", "grab")), CliCase(("bench",)), CliCase(("bench", "river")),
        CliCase(("tournament", "nosuch")), CliCase(("play", "nosuch")),
        CliCase(("shot", "grab", "--help")), CliCase(("shot", "\udcff", "--out", "out.png")),
        CliCase(("shot", "river", "--out", "out.png", "--do", "x" * 100_000)),
        CliCase(("play", "river", "--size")), CliCase(("shot", "river", "--out")),
    ]  # fmt: skip
    # play: no display here, so one line and exit status 1 (or 2 for a bad flag)
    c += [CliCase(("play", *a)) for a in (
        (), ("river",), ("reversi",), ("grab",), ("menu",), ("river", "--size", "0x0"),
        ("reversi", "--load", "garbage.txt"), ("reversi", "--load", "fifo"),
        ("grab", "--countries", "100000000"), ("reversi", "--time", "nan"),
    )]  # fmt: skip
    c += [_shot("river", "--size", s) for s in BAD_SIZES[:6]]
    c += [
        CliCase(("shot", "river", "--out", out, *SMALL))
        for out in (".", "nosuch/out.png", "/dev/full", "fifo", "out.txt")
    ]
    c += [_shot("reversi", "--time", t) for t in BAD_TIMES[1:6]]
    c += [_shot("reversi", "--load", f) for f in (
        "garbage.txt", "binary.bin", "missing.txt", "folder", "fifo", "big.txt",
        "illegal.txt", "long.txt",
    )]  # fmt: skip
    c += [_shot("reversi", *a) for a in (("--black", "nosuch"), ("--time-per-move", "3601"))]
    c += [_shot("reversi", "--black", "master", "--white", "master", "--do", "wait,wait",
                timeout=ENGINE_COLD_S)]  # fmt: skip
    c += [_shot("river", *a) for a in (
        ("--priests", "201"), ("--devils", "nan"), ("--capacity", "0"), ("--capacity", "1"),
        ("--priests", "0", "--devils", "0"),
        ("--priests", "200", "--devils", "200", "--capacity", "12", "--do", "solve"),
    )]  # fmt: skip
    c += [_shot("grab", *a) for a in (
        ("--countries", "100000000"), ("--countries", "9"), ("--countries", "777"),
        ("--robots", "nosuch"), ("--robots", ""),
        ("--robots", ",".join(["basic"] * 16)), ("--robots", "x" * 1000), ("--seed", "-1"),
        ("--seed", "18446744073709551616"), ("--distribution", "nosuch"),
        ("--attack-factor", "0"), ("--attack-factor", "nan"), ("--armies-in-biggest", "1e309"),
        ("--countries", "10", "--mountains-percent", "50"), ("--robot-memory-mb", "0"),
        ("--no-human-playing", "--robots", "basic"),
    )]  # fmt: skip
    # --do items the scene must refuse: exit status 2, never 0
    c += [_do("reversi", d, refused=True) for d in (
        "a1", "f5,f5", "move:zz", "goto:-1", "goto:99999", "goto:abc",
        "load-from:missing.txt", "load-from:folder", "load-from:garbage.txt",
    )]  # fmt: skip
    c += [_do("river", d, refused=True) for d in (
        "click:nosuch", "board:dragon", "unboard:priest", "move:fly",
    )]  # fmt: skip
    c += [_do("grab", d, refused=True) for d in (
        "country:99999", "country:abc", "move:attack 99999>1", "move:attack 1>1",
    )]  # fmt: skip
    c += [_do("menu", d, refused=True) for d in ("play:nosuch",)]
    # --do lists that are odd but may be fine
    c += [_do(g, d) for g, d in (
        ("river", "nosuch"), ("river", ",,,"), ("river", ",".join(["undo"] * 50)),
        ("river", ",".join(["hint", "next"] * 10)), ("river", "overlay,overlay,overlay"),
        ("river", ",".join(["priests+"] * 250)), ("grab", ",".join(["countries+"] * 100)),
        ("reversi", "save-to:saved.txt"), ("reversi", "save-to:nosuch/x.txt"),
        ("menu", "quit"), ("menu", "river,menu,reversi,menu,grab"),
        ("grab", "options,countries+,apply"),
    )]  # fmt: skip
    c += [_do("reversi", ",".join(["hint", "next"] * 30), timeout=ENGINE_COLD_S)]
    # solve
    c += [CliCase(("solve", "river", *a)) for a in (
        ("--priests", "200", "--devils", "200", "--capacity", "12"), ("--capacity", "1"),
        ("--priests", "0", "--devils", "0"), ("--priests", "4", "--devils", "4"),
        ("--devils", "-1"),
    )]  # fmt: skip
    c += [CliCase(("solve", "reversi", *a)) for a in (
        (), (START + " X",), (START + " X", "--exact", "--time", "1"), (START[:63] + " X",),
        (START.replace("O", "Q") + " X",), (START + " Z",), (START,),
        ("X" * 64 + " O",), ("-" * 64 + " X",), ("X" * 63 + "- O",), (START + " X", "--all"),
        ("X" * 27 + "O" + "X" * 26 + "-" * 10 + " O", "--exact"), (START + " X", "junk"),
    )]  # fmt: skip
    c += [CliCase(("solve", "reversi", START + " X", "--time", t)) for t in BAD_TIMES[:5]]
    # bench
    c += [CliCase(("bench", "render", *a)) for a in (
        ("--frames", "0"), ("--frames", "-1"),
        ("--frames", "1000000000", *SMALL, "--scene", "river"), ("--size", "0x0"),
        ("--size", "99999x99999"), ("--scene", "nosuch"),
        ("--scene", "river", "--frames", "2", *SMALL),
    )]  # fmt: skip
    c += [CliCase(("bench", "reversi", "--perft-depth", d)) for d in ("0", "-1", "1000", "abc")]
    c += [CliCase(("bench", "grab", "--strength", *a)) for a in (
        ("--games", "0"), ("--jobs", "0"), ("--games", "-1"),
    )]  # fmt: skip
    # tournament
    t_river = ("tournament", "river")
    t_grab = ("tournament", "grab", "--countries", "20")
    c += [CliCase((*t_river, *a)) for a in (
        ("--agents", "nosuch"), ("--agents", "solver,solver"),
        ("--agents", "solver", "--games", "0"),
        ("--agents", "solver", "--games", "1000000000"), ("--agents", "solver", "--jobs", "0"),
        ("--agents", "solver", "--seed", "18446744073709551616"),
        ("--agents", "solver", "--max-steps", "0"), ("--agents", "solver", "--max-steps", "1"),
        ("--agents", "solver", "--scheduler", "tcp://127.0.0.1:1"),
        ("--agents", "solver", "--scheduler", "nosuch"),
    )]  # fmt: skip
    c += [CliCase(("tournament", "reversi", *a)) for a in (
        ("--agents", "beginner,nosuch"), ("--agents", ""),
        *(("--agents", "beginner,beginner", "--games", "2", "--time", t) for t in BAD_TIMES[2:4]),
    )]  # fmt: skip
    c += [CliCase((*t_grab, *a)) for a in (
        ("--agents", "basic"), ("--agents", "basic,basic", "--countries", "9"),
        ("--agents", ",".join(["basic"] * 16)), ("--agents", "strategic,basic", "--games", "2"),
        ("--agents", "basic,basic", "--human-playing", "--games", "2"),
        ("--agents", "basic,basic", "--games", "2", "--jobs", "1000"),
    )]  # fmt: skip
    c += _generated_cli(rng, 10)
    return c


#: For generated lines: the flags of each command and game that take a value.
GENERATED_FLAGS = {
    ("shot", "river"): "--priests --devils --capacity --size --do",
    ("shot", "reversi"): "--black --white --time --time-per-move --load --do",
    ("shot", "grab"): "--countries --robots --distribution --mountains-percent --seed "
    "--armies-in-biggest --growth-factor --protection-factor --attack-factor "
    "--attack-benefit-factor --robot-memory-mb --do",
    ("shot", "menu"): "--size --do",
    ("solve", "river"): "--priests --devils --capacity",
    ("solve", "reversi"): "--time",
    ("tournament", "river"): "--games --seed --time --max-steps --priests",
    ("tournament", "reversi"): "--games --seed --time --max-steps --jobs",
    ("tournament", "grab"): "--games --seed --max-steps --countries --attack-factor",
}
DO_ITEMS = {
    "river": ("hint", "next", "solve", "undo", "redo", "new", "boat", "board:priest",
              "unboard:devil", "click:devil2", "priests+", "devils-", "capacity+", "wait"),
    "reversi": ("d3", "c4", "a1", "hint", "next", "undo", "redo", "swap", "goto:1", "pass",
                "black", "white", "undo-all", "redo-all", "wait"),
    "grab": ("country:3", "next", "hint", "pass", "undo", "redo", "new", "replay", "options",
             "apply", "countries+", "robots-", "zoom-in", "pan-left", "info", "wait"),
    "menu": ("river", "reversi", "grab", "continue", "play:river", "menu", "wait"),
}  # fmt: skip
JUNK = ("", "-", "--", "nan", "-1", "0", "1e309", "x" * 300, "é", "1,2", "'", "%s", "\t")


def _generated_cli(rng: random.Random, n: int) -> list[CliCase]:
    values = (*BAD_INTS, *BAD_TIMES, *BAD_SIZES, *JUNK, "human", "master", "basic,simple")
    out = []
    keys = sorted(GENERATED_FLAGS)
    for _ in range(max(0, n)):
        command, game = rng.choice(keys)
        args: list[str] = [command, game]
        if command == "shot":
            args += ["--out", "out.png", *SMALL, *CHEAP[game]]
        elif command == "solve" and game == "reversi":
            args.append(START + " X")
        elif command == "tournament":
            agents = {"river": "solver", "reversi": "beginner,beginner", "grab": "basic,basic"}
            args += ["--agents", agents[game], "--games", "2", "--time", "0.05"]
            if game == "grab":
                args += ["--countries", "20"]
        flags = GENERATED_FLAGS[command, game].split()
        for flag in rng.sample(flags, min(len(flags), rng.randint(1, 2))):
            if flag == "--do":
                items = [rng.choice(DO_ITEMS[game] + JUNK[:6]) for _ in range(rng.randint(1, 8))]
                args += [flag, ",".join(items)]
            else:
                args += [flag, rng.choice(values)]
        out.append(CliCase(tuple(args)))
    return out


def cli_problems(
    case: CliCase, ran: Ran, before: dict[str, Any], after: dict[str, Any], place: Place
) -> list[str]:
    args = case.args
    command = args[0] if args else ""
    allowed = (0, 1, 2) if command == "play" else (0, 2)
    problems = common_problems(ran, case.timeout, allowed=allowed)
    if command == "play" and ran.rc == 1 and "display" not in ran.err.lower():
        problems.append(f"exit status 1 without the no-display line: {last_line(ran.err)}")
    if command == "play" and ran.rc == 0 and "--help" not in args:
        problems.append("play exited 0 with no display")
    if ran.rc == 0 and command == "shot":
        items = _do_items(args)
        refusals = [
            line for line in ran.err.splitlines() if line.startswith("gamehall shot: ")
            and any(line.startswith(f"gamehall shot: {i}: ") or f"'{i}'" in line for i in items)
        ]  # fmt: skip
        if refusals:
            problems.append(f"exit status 0 after refusing a --do item: {clip(refusals[0], 160)}")
        elif case.refused:
            problems.append("exit status 0 and no word for a --do item that must be refused")
        if "did not settle" in ran.err:
            problems.append("the animation did not settle")
    asked = [v for k, v in itertools.pairwise(args) if k == "--out"]
    asked += [m.group(1) for m in re.finditer(r"save-to:([^,]+)", " ".join(args))]
    allowed_files = set()
    for path in asked:  # the files asked for, and the folders that lead to them
        parts = Path(os.path.normpath(path)).parts
        allowed_files |= {str(Path(*parts[: i + 1])) for i in range(len(parts))}
    written = [
        name for name, stamp in after.items()
        if before.get(name) != stamp and stamp[0] >= 0 and name not in allowed_files
    ]  # fmt: skip
    written += [n for n in after if n not in before and after[n][0] < 0 and n not in allowed_files]
    if written:
        problems.append(f"wrote {', '.join(sorted(written)[:5])} in its working folder")
    stray = place.xdg_files()
    if stray:
        problems.append(f"wrote {', '.join(stray[:5])} under XDG_CONFIG_HOME/XDG_DATA_HOME")
    return problems


def _do_items(args: Sequence[str]) -> list[str]:
    items: list[str] = []
    for i, arg in enumerate(args[:-1]):
        if arg == "--do":
            text = args[i + 1]
            items += [s.strip() for s in re.split(r",(?!\s*\d)", text) if s.strip()]
    return items
