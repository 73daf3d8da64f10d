"""The ``cli`` category's cases from issue 25 item 11 (numbered after the other command lines):
limits past every cap, a 100 KB argument, and numbers in digits ``int()`` takes but the
stricter checker refuses.

The cases: ``--time 9223372036854775808`` to ``shot``, ``solve`` and ``tournament``; a 100 KB
argument in a game's place, a flag's value, an agent list, a ``--do`` list and a file name;
``٣`` (Arabic-Indic), ``３`` (full-width) and ``1_0`` in every numeric flag of every command.

Misbehaving (beyond the other command lines' checks): a run that does not end within 60 s
(every limit is capped), an error line over 1 KB (a bad argument is quoted short), an odd
number accepted (exit status 0) or refused other than with exit status 2.
"""

from __future__ import annotations

import shlex

from probing.base import SMALL, Probe, Tally, clip, snapshot
from probing.cli import START, CliCase, cli_problems

HUGE = "9223372036854775808"
BIG = "7" * 100_000
ODD = ("٣", "３", "1_0")
LINE_CAP = 1000
#: Each numeric flag: the command line before it, and what the number stands for (so a digit
#: string of the right size is in range: the digits say 3 or 10).
NUMERIC: tuple[tuple[tuple[str, ...], str], ...] = (
    (("shot", "river", "--out", "out.png", *SMALL), "--priests"),
    (("shot", "river", "--out", "out.png", *SMALL), "--devils"),
    (("shot", "river", "--out", "out.png", *SMALL), "--capacity"),
    (("shot", "grab", "--out", "out.png", *SMALL), "--countries"),
    (("shot", "grab", "--out", "out.png", *SMALL, "--countries", "20"), "--seed"),
    (("shot", "grab", "--out", "out.png", *SMALL, "--countries", "20"), "--mountains-percent"),
    (("shot", "reversi", "--out", "out.png", *SMALL), "--time-per-move"),
    (("shot", "clue", "--out", "out.png", *SMALL), "--seats"),
    (("shot", "clue", "--out", "out.png", *SMALL), "--round-cap"),
    (("shot", "river", "--out", "out.png", *SMALL), "--scale"),
    (("solve", "reversi", START + " X"), "--time"),
    (("tournament", "river", "--agents", "solver"), "--games"),
    (("tournament", "river", "--agents", "solver"), "--seed"),
    (("tournament", "river", "--agents", "solver"), "--max-steps"),
    (("tournament", "river", "--agents", "solver", "--games", "2"), "--jobs"),
    (("tournament", "reversi", "--agents", "beginner,beginner", "--games", "2"), "--time"),
    (("bench", "reversi"), "--perft-depth"),
    (("bench", "render", "--scene", "river", *SMALL), "--frames"),
)


def number_cases() -> list[tuple[CliCase, bool]]:
    """Each case, and whether it must be refused with exit status 2."""
    cases: list[tuple[CliCase, bool]] = [
        (CliCase(("shot", "reversi", "--out", "out.png", *SMALL, "--time", HUGE)), False),
        (CliCase(("solve", "reversi", START + " X", "--time", HUGE)), False),
        (CliCase(("tournament", "reversi", "--agents", "beginner,beginner", "--games", "1",
                  "--time", HUGE)), False),
        (CliCase(("tournament", "river", "--agents", "solver", "--max-steps", HUGE)), False),
        (CliCase(("shot", BIG, "--out", "out.png")), True),
        (CliCase(("shot", "river", "--out", "out.png", *SMALL, "--priests", BIG)), True),
        (CliCase(("tournament", "grab", "--agents", "basic," * 20_000 + "basic")), True),
        (CliCase(("shot", "river", "--out", "out.png", *SMALL, "--do", "x," * 50_000)), False),
        (CliCase(("rules", "check", "d" * 100_000 + ".txt")), True),
        (CliCase(("tournament", "river", "--agents", "solver", "--seed", BIG)), False),
    ]  # fmt: skip
    for before, flag in NUMERIC:
        for odd in ODD:
            value = odd
            if flag == "--seats":
                value = odd.replace("٣", "٤").replace("３", "４")
            cases.append((CliCase((*before, flag, value)), True))
    cases += [(CliCase(("shot", "river", "--out", "out.png", "--size", f"{o}60x120")), True)
              for o in ("١", "１")]  # fmt: skip
    cases += [(CliCase(("rules", "perft", "tic-tac-toe", o)), True) for o in ODD]
    return cases


def run_numbers(probe: Probe, offset: int, tally: Tally) -> None:
    """Add these cases, numbered from ``offset``, to ``tally``."""
    cases = number_cases()
    indices = probe.pick(len(cases), 8, offset=offset)
    found = probe.cases(lambda i: _case(probe, *cases[i]), indices)
    tally.tried += found.tried
    tally.misbehaved += found.misbehaved
    for line in found.lines:
        number, _, rest = line.partition(" ")
        tally.lines.append(f"#{int(number[1:]) + offset} {rest}")


def _case(probe: Probe, case: CliCase, refuse: bool) -> list[str]:
    place = probe.place()
    try:
        before = snapshot(place.cwd)
        ran = probe.gamehall(case.args, place, case.timeout)
        problems = cli_problems(case, ran, before, snapshot(place.cwd), place)
        long = [line for line in ran.err.splitlines() if len(line) > LINE_CAP]
        if long:
            problems.append(f"an error line of {len(long[0])} characters")
        if refuse and ran.rc == 0:
            problems.append("accepted (exit status 0)")
        what = clip(shlex.join(case.args), 150)
        return [f"{what}: {p}" for p in problems]
    finally:
        probe.done(place)
