"""``files``: 45 damaged ``settings.toml`` and ``statistics.toml`` files, then ``shot river``,
``shot reversi`` and a small script that loads, saves and records through
``game.settings.Store`` as ``play`` does.

Misbehaving: an exit status other than 0, a traceback, a hang, a file the program complained
about without a ``*.bad-*`` copy of its original bytes, a temp file left behind, a file it
wrote that does not load cleanly.
"""

from __future__ import annotations

import json
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    CLI_TIMEOUT_S,
    ROOT,
    SMALL,
    Place,
    Probe,
    Tally,
    clip,
    common_problems,
    execute,
    parallel,
)  # fmt: skip


def run(probe: Probe) -> Tally:
    cases = file_cases()
    indices = probe.pick(len(cases), 10)
    results = parallel(lambda i: _file_case(probe, cases[i]), indices, probe.jobs)
    tally = Tally()
    for i, problems in zip(indices, results, strict=True):
        tally.add(i, problems)
    return tally


def _file_case(probe: Probe, case: FileCase) -> list[str]:
    place = probe.place()
    try:
        originals = case.make(place.home)
        problems: list[str] = []
        said = ""
        runs = (
            ("shot river", ["shot", "river", "--out", "out.png", *SMALL]),
            ("shot reversi", ["shot", "reversi", "--out", "out.png", *SMALL]),
            ("store script", None),
        )
        second: list[str] = []
        for name, argv in runs:
            if argv is None:
                ran = execute(
                    [sys.executable, "-c", STORE_SCRIPT], env=probe.store_env(place),
                    cwd=place.cwd, timeout=CLI_TIMEOUT_S,
                )  # fmt: skip
                try:
                    reply = json.loads(ran.out.strip().splitlines()[-1])
                    said += " ".join(reply["first"])
                    second = reply["second"]
                except (ValueError, IndexError, KeyError):
                    pass
            else:
                ran = probe.gamehall(argv, place, CLI_TIMEOUT_S)
            said += ran.err
            problems.extend(
                f"{name}: {p}" for p in common_problems(ran, CLI_TIMEOUT_S, allowed=(0,))
            )
            if ran.rc is None:
                break  # a hang: the next runs would hang too
        problems.extend(_aside_problems(place.home, originals, said))
        problems.extend(
            f"store script: the file it wrote does not load cleanly: {clip(m, 160)}"
            for m in second
            if any(m.startswith(f) for f in _regular(place.home))
        )
        leftovers = sorted(p.name for p in place.home.glob(".*.tmp"))
        if leftovers:
            problems.append(f"temp files left in GAMEHALL_HOME: {', '.join(leftovers)}")
        return [f"{case.name}: {p}" for p in problems]
    finally:
        probe.done(place)


def _store_env(probe: Probe, place: Place) -> dict[str, str]:
    env = place.env(probe.base_env)
    env["PYTHONPATH"] = str(ROOT)
    return env


# --- 2. damaged files -------------------------------------------------------------------------

SETTINGS = """last_game = "river"
shadows = true
show_fps = false

[window]
width = 1280
height = 720

[river]
priests = 3
devils = 3
capacity = 2

[reversi]
black = "human"
white = "intermediate"
time_per_move = 1.0

[grab]
countries = 140
robots = "basic,basic,basic"
"""
STATISTICS = """[games.river]
played = 3
won = 2
lost = 1
drawn = 0

[games.river.best]
"3/3/2" = 11

[games."reversi:master"]
played = 2
won = 0
lost = 2
"""
DIR, FIFO, LOOP, DANGLING = "<dir>", "<fifo>", "<loop>", "<dangling>"

#: What ``play`` does with the files: load both, save the options, record a result, load
#: again. Prints the messages of the first and the second load as JSON.
STORE_SCRIPT = """
import json
from game.registry import all_entries
from game.session import Session
from game.settings import Store
store = Store()
entries = {e.id: e for e in all_entries()}
settings, first = store.load_settings({k: e.options for k, e in entries.items()})
first += store.load_statistics()[1]
session = Session("river", entries["river"].options, settings, store)
session.save_options(session.options)
session.record("river", won=True, setting="3/3/2", score=11)
second = store.load_settings({k: e.options for k, e in entries.items()})[1]
second += store.load_statistics()[1]
print(json.dumps({"first": first, "second": second}))
"""


@dataclass(frozen=True)
class FileCase:
    """What ``settings.toml`` and ``statistics.toml`` hold (bytes, or DIR, FIFO, LOOP,
    DANGLING; None: no such file), and other files to put in GAMEHALL_HOME."""

    name: str
    settings: bytes | str | None = SETTINGS.encode()
    statistics: bytes | str | None = STATISTICS.encode()
    extra: tuple[tuple[str, bytes], ...] = ()

    def make(self, home: Path) -> dict[str, bytes]:
        """Write the files; returns the regular ones' bytes by name."""
        originals = {}
        for name, content in (
            ("settings.toml", self.settings),
            ("statistics.toml", self.statistics),
        ):
            path = home / name
            if content is None:
                continue
            if content == DIR:
                path.mkdir()
            elif content == FIFO:
                os.mkfifo(path)
            elif content == LOOP:
                path.symlink_to(path)
            elif content == DANGLING:
                path.symlink_to(home / "nowhere" / name)
            else:
                assert isinstance(content, bytes)
                path.write_bytes(content)
                originals[name] = content
        for name, data in self.extra:
            (home / name).write_bytes(data)
        return originals


def file_cases() -> list[FileCase]:
    s, t = SETTINGS.encode(), STATISTICS.encode()
    deep = b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    huge_junk = random.Random(5).randbytes(1 << 20) * 50
    huge_valid = b"# a comment line to make the file big\n" * (50_000_000 // 38) + s
    cases = [
        FileCase("settings truncated", settings=s[: len(s) // 2 + 3]),
        FileCase("settings binary", settings=random.Random(1).randbytes(3000)),
        FileCase("settings UTF-16", settings=SETTINGS.encode("utf-16")),
        FileCase("settings UTF-8 BOM", settings=b"\xef\xbb\xbf" + s),
        FileCase("settings 50 MB junk", settings=huge_junk),
        FileCase("settings 50 MB of comments", settings=huge_valid),
        FileCase("settings a folder", settings=DIR),
        FileCase("settings a named pipe", settings=FIFO),
        FileCase("settings a symlink loop", settings=LOOP),
        FileCase("settings a dangling symlink", settings=DANGLING),
        FileCase("settings nested 100000 deep", settings=deep),
        FileCase("settings width text", settings=s.replace(b"width = 1280", b'width = "1600"')),
        FileCase("settings shadows text", settings=s.replace(b"= true", b'= "no"')),
        FileCase("settings width nan", settings=s.replace(b"width = 1280", b"width = nan")),
        FileCase("settings width inf", settings=s.replace(b"width = 1280", b"width = inf")),
        FileCase("settings width 0", settings=s.replace(b"width = 1280", b"width = 0")),
        FileCase("settings huge width", settings=s.replace(b"1280", b"99999999999999999999999")),
        FileCase("settings unknown keys", settings=s + b"\n[window.extra]\nx = 1\n"),
        FileCase("settings unknown game", settings=s + b"\n[nosuch]\nlevel = 3\n"),
        FileCase("settings reversi black nosuch", settings=s.replace(b'"human"', b'"nosuch"')),
        FileCase("settings time_per_move nan", settings=s.replace(b"= 1.0", b"= nan")),
        FileCase("settings priests -1", settings=s.replace(b"priests = 3", b"priests = -1")),
        FileCase("settings no river solution", settings=s.replace(b"city = 2", b"city = 1")),
        FileCase("settings robots nosuch", settings=s.replace(b"basic,basic,basic", b"nosuch")),
        FileCase("settings grab countries 1e8", settings=s.replace(b"= 140", b"= 100000000")),
        FileCase("settings window not a table", settings=b"window = 5\n"),
        FileCase("settings reversi not a table", settings=b'reversi = "x"\n'),
        FileCase("settings [[river]] array", settings=b"[[river]]\npriests = 3\n"),
        FileCase("settings last_game nosuch", settings=s.replace(b'"river"', b'"nosuch"', 1)),
        FileCase("settings duplicate key", settings=s + b"\n[window]\nwidth = 5\n"),
        FileCase("settings NUL byte", settings=s[:40] + b"\x00" + s[40:]),
        FileCase("settings empty", settings=b""),
        FileCase("settings stray temp", extra=((".settings.toml.x.tmp", s[:30]),)),
        FileCase("statistics truncated", statistics=t[: len(t) // 2]),
        FileCase("statistics binary", statistics=random.Random(2).randbytes(3000)),
        FileCase("statistics won as text", statistics=t.replace(b"won = 2", b'won = "x"')),
        FileCase("statistics played -5", statistics=t.replace(b"played = 3", b"played = -5")),
        FileCase("statistics best not a table", statistics=b"[games.river]\nbest = 5\n"),
        FileCase("statistics best text", statistics=t.replace(b"= 11", b'= "x"')),
        FileCase("statistics huge int", statistics=t.replace(b"= 11", b"= 99999999999999999999")),
        FileCase("statistics won nan", statistics=t.replace(b"won = 2", b"won = nan")),
        FileCase("statistics a folder", statistics=DIR),
        FileCase("statistics a named pipe", statistics=FIFO),
        FileCase("statistics nested 100000 deep", statistics=deep),
        FileCase("statistics stray temp", extra=((".statistics.toml.y.tmp", t[:20]),)),
    ]  # fmt: skip
    return cases


def _regular(home: Path) -> list[str]:
    return [n for n in ("settings.toml", "statistics.toml") if (home / n).is_file()]


def _aside_problems(home: Path, originals: dict[str, bytes], said: str) -> list[str]:
    """A file the program complained about (or that changed) must be kept aside as
    ``NAME.bad-*`` with its original bytes."""
    problems = []
    for name, data in originals.items():
        path = home / name
        if name not in said:
            continue  # loaded without complaint: rewriting it is fine
        kept = any(
            p.is_file() and p.stat().st_size == len(data) and p.read_bytes() == data
            for p in home.glob(f"{name}.bad-*")
        )
        if not kept:
            now = "gone" if not path.exists() else "still there" if path.is_file() else "odd"
            problems.append(
                f"{name} was reported but no {name}.bad-* holds its original "
                f"{len(data)} bytes (the file is {now})"
            )
    return problems
