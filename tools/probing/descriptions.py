"""``descriptions``: hostile game description files given to every command that reads one
(``rules check``, ``rules perft``, ``play``, ``shot``, ``tournament`` with one and two jobs).

The cases: files that are not descriptions (a named pipe, ``/dev/zero``, 20 MB, random bytes,
a folder, an empty file, 100,000 open parentheses); descriptions with 20 nested ``(while ...)``,
``(one-of ...)``, ``(if ...)`` or ``(repeat ...)`` forms; ``(anywhere (anywhere add))`` on a
26x26 grid and three nested ``anywhere`` on 10x10; odd characters in ``(players ...)`` and
``(title ...)`` (NUL, U+202E, emoji, a 1 MB title). Every run has a 2 GiB address-space limit.

Misbehaving: a traceback, ``internal error``, an exit status other than 0 or 2 (``play`` may
say in one line that there is no display and exit 1), no end within the time limit, more than
100 KB of output, an error line over 1 KB, exit status 0 for a file that must be refused (not
a regular file, not text, NUL or bidirectional control characters in a name or title), a
refusal of an odd name that quotes a character that is a letter.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    CLI_TIMEOUT_S,
    MEMORY_CAP,
    OUTPUT_CAP,
    ROOT,
    Probe,
    Ran,
    Tally,
    clip,
    common_problems,
    execute,
    last_line,
)

HEAVY_TIMEOUT_S = 180.0
ERROR_LINE_CAP = 1000
BASE = (ROOT / "game" / "logic" / "rules" / "games" / "tic-tac-toe.txt").read_text()
DROP = "(move place (verify empty) add)"


@dataclass(frozen=True)
class DescriptionCase:
    """One command on one file: ``name`` says which file, ``make`` writes it in the working
    folder (and returns the path to name on the command line); ``refuse``: exit status 0
    is a misbehaviour; ``odd``: characters a refusal may name (None: no such check)."""

    name: str
    command: str
    make: Callable[[Path], str]
    refuse: bool = False
    odd: str | None = None
    timeout: float = CLI_TIMEOUT_S


def _text(name: str, text: str | bytes) -> Callable[[Path], str]:
    def make(cwd: Path) -> str:
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        (cwd / name).write_bytes(data)
        return name

    return make


def _fifo(cwd: Path) -> str:
    os.mkfifo(cwd / "fifo.txt")
    return "fifo.txt"


def _folder(cwd: Path) -> str:
    (cwd / "folder.txt").mkdir()
    return "folder.txt"


def _huge(cwd: Path) -> str:
    with (cwd / "huge.txt").open("wb") as f:
        f.write(b"; a comment to make the file big\n" * (20_000_000 // 33))
        f.write(BASE.encode())
    return "huge.txt"


def _nested(head: str, n: int) -> str:
    opener = {
        "while": "(while empty n ",
        "one-of": "(one-of add ",
        "if": "(if empty ",
        "repeat": "(repeat 1 ",
    }[head]
    return BASE.replace(DROP, f"(move place (verify empty) {opener * n}add{')' * n})")


def _grid(size: int, drop: str) -> str:
    columns = " ".join(chr(97 + i) for i in range(size))
    rows = " ".join(str(i + 1) for i in range(size))
    text = BASE.replace("(columns a b c) (rows 1 2 3)", f"(columns {columns}) (rows {rows})")
    return text.replace(DROP, f"(move place (verify empty) {drop})")


def _players(names: str) -> str:
    return BASE.replace("(players X O)", f"(players {names})")


def _title(title: str) -> str:
    return BASE.replace('(title "Tic-tac-toe")', f'(title "{title}")')


def commands(path: str, *, heavy: bool = False) -> dict[str, tuple[str, ...]]:
    """Each command that reads a description, on ``path``."""
    steps = "4" if heavy else "20"
    tournament = ("tournament", path, "--agents", "random,random", "--games", "2")
    return {
        "check": ("rules", "check", path),
        "perft": ("rules", "perft", path, "1" if heavy else "2"),
        "play": ("play", path),
        "shot": ("shot", path, "--out", "out.png", "--size", "160x120"),
        "tournament": (*tournament, "--max-steps", steps, "--jobs", "1"),
        "tournament-jobs": (*tournament, "--max-steps", steps, "--jobs", "2"),
    }


def description_cases() -> list[DescriptionCase]:
    """About 90 cases: each file with each command that reads it."""
    rng = random.Random(11)
    not_descriptions: list[tuple[str, Callable[[Path], str]]] = [
        ("a named pipe", _fifo),
        ("/dev/zero", lambda cwd: "/dev/zero"),
        ("20 MB", _huge),
        ("random bytes", _text("binary.txt", rng.randbytes(4096))),
        ("a folder", _folder),
        ("an empty file", _text("empty.txt", b"")),
        ("100000 open parentheses", _text("deep.txt", "(" * 100_000)),
    ]
    cases = [
        DescriptionCase(name, command, make, refuse=True)
        for name, make in not_descriptions
        for command in commands("")
    ]
    for head in ("while", "one-of", "if", "repeat"):
        make = _text(f"nested-{head}.txt", _nested(head, 20))
        cases += [
            DescriptionCase(f"20 nested ({head} ...)", c, make)
            for c in ("check", "perft", "shot", "tournament")
        ]
    for name, text in (
        ("(anywhere (anywhere add)) on 26x26", _grid(26, "(anywhere (anywhere add))")),
        ("3 nested anywhere on 10x10", _grid(10, "(anywhere (anywhere (anywhere add)))")),
    ):
        make = _text("anywhere.txt", text)
        cases += [
            DescriptionCase(name, c, make, timeout=HEAVY_TIMEOUT_S)
            for c in ("check", "perft", "shot", "tournament")
        ]
    odd = [
        ("players Ä😀 Ω\\u202e", _players("Ä😀 Ω\u202e"), True, "😀\u202e"),
        ("players with a NUL", _players("X\x00 O"), True, "\x00"),
        ("players 😀 🙂", _players("😀 🙂"), False, "😀🙂"),
        ("title with NUL and U+202E", _title("Tic\x00tac\u202etoe"), True, "\x00\u202e"),
        ("title with U+2066", _title("Tic\u2066tac"), True, "\u2066"),
        ("a 1 MB title", _title("t" * 1_000_000), False, None),
    ]
    for name, text, refuse, chars in odd:
        make = _text("odd.txt", text)
        cases += [
            DescriptionCase(name, c, make, refuse=refuse, odd=chars)
            for c in ("check", "shot", "tournament")
        ]
    return cases


def run(probe: Probe) -> Tally:
    cases = description_cases()
    indices = probe.pick(len(cases), 16)
    return probe.cases(lambda i: _case(probe, cases[i]), indices)


def _case(probe: Probe, case: DescriptionCase) -> list[str]:
    place = probe.place()
    try:
        path = case.make(place.cwd)
        heavy = case.timeout > CLI_TIMEOUT_S
        argv = commands(path, heavy=heavy)[case.command]
        ran = execute(
            [*probe.command, *argv], env=place.env(probe.base_env), cwd=place.cwd,
            timeout=case.timeout, memory=MEMORY_CAP,
        )  # fmt: skip
        what = f"{case.name}: {clip(shlex.join(argv), 120)}"
        return [f"{what}: {p}" for p in description_problems(case, ran)]
    finally:
        probe.done(place)


def description_problems(case: DescriptionCase, ran: Ran) -> list[str]:
    play = case.command == "play"
    problems = common_problems(ran, case.timeout, allowed=(0, 1, 2) if play else (0, 2))
    if play and ran.rc == 1 and "display" not in ran.err.lower():
        problems.append(f"exit status 1 without the no-display line: {last_line(ran.err)}")
    if len(ran.err) > OUTPUT_CAP:
        problems.append(f"{len(ran.err)} characters on stderr")
    long = [line for line in ran.err.splitlines() if len(line) > ERROR_LINE_CAP]
    if long:
        problems.append(f"an error line of {len(long[0])} characters: {clip(long[0], 100)}")
    if "MemoryError" in ran.err and "internal error" not in ran.err:
        problems.append(f"ran out of memory: {last_line(ran.err)}")
    if case.refuse and ran.rc == 0 and not play:
        problems.append(f"accepted (exit status 0): {clip(ran.out.strip(), 120)!r}")
    if "\x00" in ran.out or "\x00" in ran.err:
        problems.append("printed a NUL character")
    if case.odd is not None and ran.rc == 2:
        for quoted in re.findall(r"character '(.)'", ran.err):
            if unicodedata.category(quoted)[0] in "LN":
                problems.append(f"refused the letter {quoted!r}, not one of {case.odd!r}")
    return problems
