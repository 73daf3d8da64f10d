"""``cases``: Cluedo case files and the assistant's console (``gamehall clue --console
--assistant``), and the window's assistant loading them (``shot clue --assistant --case``).

The cases: ``why CARD HOLDER`` with a holder in digits Python's ``isdigit`` takes and ``int``
does not (``²``, ``⁵``), in other scripts (Arabic-Indic, full-width, mathematical), ``1_0``
and huge numbers, each followed by an event and ``save``; a 1 MB line typed or in a case file;
a case file of 2,000 events; seats and hands in odd digits; a named pipe, a folder and random
bytes to ``load``; ``--case FILE`` given to the console and the window: loaded at the start,
saved to.

Misbehaving: a traceback, ``internal error``, an exit status other than 0 (the console; the
window's shot may exit 2 naming a bad file), no end within the time limit, more than 100 KB of
output or a line over 1 KB (an error quotes a short excerpt), an event typed before or after a
bad line missing from the file saved after it, 2,000 events not open within 5 s (the window:
5 s more than the same shot with a three-event case file), a ``--case`` file not loaded or
not saved to.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    OUTPUT_CAP,
    ROOT,
    Place,
    Probe,
    Ran,
    Tally,
    clip,
    common_problems,
    execute,
)

CONSOLE = ("clue", "--console", "--assistant")
TIMEOUT_S = 30.0
OPEN_S = 5.0
LINE_CAP = 1000
HEADER = """# gamehall clue case file
deck classic
seats 4
dealer 3
me 0
hand Miss Scarlett, Colonel Mustard, Candlestick, Kitchen, Ballroom
"""
EVENTS = (
    "suggest 1: Plum, Rope, Hall; passed 2; showed 3",
    "suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Rope",
    "accuse 2: Plum, Dagger, Study; wrong",
)
EXAMPLE = HEADER + "\n".join(EVENTS) + "\n"
MANY = HEADER + "\n".join(EVENTS[:2] * 1000) + "\n"
LONG_LINE = HEADER + "suggest 1: " + "x" * 1_000_000 + "\n"
SHOT = ("shot", "clue", "--assistant", "--out", "out.png", "--size", "320x240", "--case")
ODD_HOLDERS = ("²", "⁵", "٣", "３", "𝟙", "১", "1_0", "99999999999999999999", "-1", " 1", "1e3")


@dataclass(frozen=True)
class CaseCase:
    """A run: ``argv`` after the command, ``stdin`` typed, ``files`` made in the working
    folder first; ``saved``: a file that must hold this many events afterwards;
    ``window``: a shot, timed against the shot with the example case file."""

    name: str
    argv: tuple[str, ...]
    stdin: str | None = None
    files: tuple[tuple[str, str], ...] = ()
    saved: tuple[str, int] | None = None
    window: bool = False
    timed: bool = False


def case_cases() -> list[CaseCase]:
    """About 30 cases: the console first, then the window."""
    typed = HEADER.split("\n", 1)[1]  # the header as typed (no comment line)
    cases = [
        CaseCase(
            f"why Rope {holder!r}",
            CONSOLE,
            stdin=f"{typed}{EVENTS[0]}\nwhy Rope {holder}\n{EVENTS[1]}\nsave saved.txt\nquit\n",
            saved=("saved.txt", 2),
        )
        for holder in ODD_HOLDERS
    ]
    cases += [
        CaseCase("a 1 MB line typed", CONSOLE,
                 stdin=f"{typed}{EVENTS[0]}\n{'why ' + 'x' * 1_000_000}\n{EVENTS[1]}\n"
                 "save saved.txt\nquit\n", saved=("saved.txt", 2)),
        CaseCase("suggest by seat ١", CONSOLE,
                 stdin=f"{typed}suggest ١: Plum, Rope, Hall; passed 2; showed 3\n{EVENTS[0]}\n"
                 "save saved.txt\nquit\n", saved=("saved.txt", 1)),
        CaseCase("seats ４ typed", CONSOLE, stdin="deck classic\nseats ４\nquit\n"),
        CaseCase("load a case file with a 1 MB line", CONSOLE,
                 stdin="load long.txt\nquit\n", files=(("long.txt", LONG_LINE),)),
        CaseCase("load 2,000 events", CONSOLE, stdin="load many.txt\nsave saved.txt\nquit\n",
                 files=(("many.txt", MANY),), saved=("saved.txt", 2000), timed=True),
        CaseCase("load a named pipe", CONSOLE, stdin="load <fifo>\nquit\n"),
        CaseCase("load a folder", CONSOLE, stdin="load .\nquit\n"),
        CaseCase("load /dev/zero", CONSOLE, stdin="load /dev/zero\nquit\n"),
        CaseCase("load seats in full-width digits", CONSOLE, stdin="load odd.txt\nquit\n",
                 files=(("odd.txt", HEADER.replace("seats 4", "seats ４")),)),
        CaseCase("load hands in Arabic-Indic digits", CONSOLE, stdin="load odd.txt\nquit\n",
                 files=(("odd.txt", HEADER.replace("dealer 3", "hands ٥ ٥ ٤ ٤")),)),
        CaseCase("--case loaded and saved to by the console", (*CONSOLE, "--case", "case.txt"),
                 stdin=f"{EVENTS[0]}\nquit\n", files=(("case.txt", EXAMPLE),),
                 saved=("case.txt", 4)),
        CaseCase("--case a new file for the console", (*CONSOLE, "--case", "new.txt"),
                 stdin=f"{typed}{EVENTS[0]}\nquit\n", saved=("new.txt", 1)),
    ]  # fmt: skip
    shot = SHOT
    cases += [
        CaseCase("the window loads and saves --case", (*shot, "case.txt", "--do", "save"),
                 files=(("case.txt", EXAMPLE),), saved=("case.txt", 3), window=True),
        CaseCase("the window opens 2,000 events", (*shot, "many.txt"),
                 files=(("many.txt", MANY),), window=True, timed=True),
        CaseCase("the window opens a 1 MB line", (*shot, "long.txt"),
                 files=(("long.txt", LONG_LINE),), window=True, timed=True),
        CaseCase("the window opens /dev/zero", (*shot, "/dev/zero"), window=True),
        CaseCase("the window opens random bytes", (*shot, "bytes.txt"),
                 files=(("bytes.txt", "\x00\x01\udcff" * 1000),), window=True),
    ]  # fmt: skip
    return cases


def run(probe: Probe) -> Tally:
    cases = case_cases()
    indices = probe.pick(len(cases), 8)
    baseline = None
    if any(cases[i].window and cases[i].timed for i in indices):
        base = CaseCase("the example", (*SHOT, "case.txt"), files=(("case.txt", EXAMPLE),))
        place = probe.place()
        try:
            baseline = _run(probe, base, place).seconds
        finally:
            probe.done(place)
    return probe.cases(lambda i: _case(probe, cases[i], baseline), indices)


def _run(probe: Probe, case: CaseCase, place: Place) -> Ran:
    for name, text in case.files:
        (place.cwd / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    stdin = case.stdin
    if stdin is not None and "<fifo>" in stdin:
        (place.cwd / "fifo").unlink(missing_ok=True)
        os.mkfifo(place.cwd / "fifo")
        stdin = stdin.replace("<fifo>", "fifo")
    return execute(
        [*probe.command, *case.argv], env=place.env(probe.base_env), cwd=place.cwd,
        timeout=TIMEOUT_S, stdin=stdin.encode() if stdin is not None else None,
    )  # fmt: skip


def _case(probe: Probe, case: CaseCase, baseline: float | None) -> list[str]:
    place = probe.place()
    try:
        ran = _run(probe, case, place)
        what = f"{case.name}: {clip(shlex.join(case.argv), 100)}"
        return [f"{what}: {p}" for p in case_problems(case, ran, place.cwd, baseline)]
    finally:
        probe.done(place)


def case_problems(case: CaseCase, ran: Ran, cwd: Path, baseline: float | None) -> list[str]:
    problems = common_problems(ran, TIMEOUT_S, allowed=(0, 2) if case.window else (0,))
    if len(ran.err) > OUTPUT_CAP:
        problems.append(f"{len(ran.err)} characters on stderr")
    for stream in (ran.out, ran.err):
        long = [line for line in stream.splitlines() if len(line) > LINE_CAP]
        if long:
            problems.append(f"a line of {len(long[0])} characters: {clip(long[0], 80)}")
            break
    if case.timed and ran.rc is not None:
        took = ran.seconds - (baseline or 0.0) if case.window else ran.seconds
        if took > OPEN_S:
            problems.append(f"took {took:.1f} s to open (more than {OPEN_S:g} s)")
    if case.saved is not None and ran.rc is not None:
        name, events = case.saved
        problems += _saved_problems(cwd / name, events)
    return problems


def _saved_problems(path: Path, events: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from game.logic.clue.record import loads  # the working tree's

    if not path.is_file():
        return [f"{path.name} was not saved"]
    try:
        view = loads(path.read_text("utf-8"))
    except (ValueError, OSError) as exc:
        return [f"{path.name} does not load: {clip(str(exc), 120)}"]
    if len(view.events) != events:
        return [f"{path.name} holds {len(view.events)} events, not {events}"]
    return []
