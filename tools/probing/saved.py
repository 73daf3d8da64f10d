"""``saved`` (issue 25 items 5-7): what is already where the program saves, writers at once, a
full disk and odd homes.

The cases: at every file the program saves (Reversi's saved game through ``shot reversi --do
f5,save``, ``settings.toml``, ``statistics.toml``, a kept game, ``shot --out``, ``save-to:``,
the Cluedo console's ``save``) a symlink to a marker file, a named pipe, a character device
made with ``os.mknod`` in the case's folder (like ``/dev/full``; never the real one) and a
folder; four processes recording 25 games each into one GAMEHALL_HOME, and four saving the
options of four games through ``game.settings.Store`` at once; a 96 KB tmpfs (mounted here
when running as root) filled up under a damaged settings file, a statistics file and a saved
game; GAMEHALL_HOME set to ``~nosuchuser/x``, a file, ``/proc/gamehall``, a 5,000-character
path and others.

Misbehaving: a traceback, ``internal error``, an exit status other than 0 or 2, no end within
60 s, the marker file changed, a pipe, device or folder that is no longer one (in its place or
set aside as ``NAME.bad-*``), a game or an option lost by a concurrent writer, a 0-byte
``*.bad-*`` copy or a file that no longer loads after a full disk, a full disk not named in
what the program said.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from probing.base import (
    CLI_TIMEOUT_S,
    Place,
    Probe,
    Ran,
    Tally,
    clip,
    common_problems,
    execute,
    last_line,
)

MARKER = b"the marker: nothing may change this\n"
WRITERS = 4
GAMES_EACH = 25
HEADER = (
    "deck classic\nseats 4\ndealer 3\nme 0\n"
    "hand Scarlett, Mustard, Candlestick, Kitchen, Ballroom\n"
)
#: Saves through the game's own session: argv[1] says what (settings, statistics, kept).
SAVE_SCRIPT = """
import sys
from game.registry import all_entries
from game.session import Session
from game.settings import Store
store = Store()
entries = {e.id: e for e in all_entries()}
settings, said = store.load_settings({k: e.options for k, e in entries.items()})
session = Session("river", entries["river"].options, settings, store)
what = sys.argv[1]
if what == "settings":
    session.save_options({**session.options, "priests": 2, "devils": 2})
elif what == "statistics":
    session.record("river", won=True)
elif what == "kept":
    session.keep_match({"moves": ["boat"]})
if store.writer is not None:
    store.writer.settled()
print("done", *said)
"""
#: One of the concurrent writers: argv[1] the go file, argv[2] statistics or the game whose
#: options it saves.
WRITER_SCRIPT = """
import os, sys, time
from game.registry import all_entries
from game.session import Session
from game.settings import Store
go, what = sys.argv[1], sys.argv[2]
while not os.path.exists(go):
    time.sleep(0.001)
store = Store()
entries = {e.id: e for e in all_entries()}
schemas = {k: e.options for k, e in entries.items()}
if what == "statistics":
    settings, _ = store.load_settings(schemas)
    session = Session("river", entries["river"].options, settings, store)
    for _ in range(int(sys.argv[3])):
        session.record("river", won=True)
else:
    values = {"river": ("priests", 5), "reversi": ("time_per_move", 2.5),
              "grab": ("countries", 55), "tic-tac-toe": None}[what]
    for i in range(10):
        settings, _ = store.load_settings(schemas)
        session = Session(what, entries[what].options, settings, store)
        if values is not None:
            name, value = values
            session.save_options({**session.options, name: value})
        else:
            session.save_options(session.options)
print("done")
"""
OPTIONS = {"river": ("priests", 5), "reversi": ("time_per_move", 2.5), "grab": ("countries", 55)}


@dataclass(frozen=True)
class Target:
    """A file the program saves: ``where`` (``home`` or ``cwd``) and ``path`` below it, and
    how to make it save there: ``argv`` for gamehall, a SAVE_SCRIPT word, or stdin."""

    name: str
    where: str
    path: str
    argv: tuple[str, ...] = ()
    script: str = ""
    stdin: str | None = None


TARGETS = (
    Target("Reversi's saved game", "home", "data/reversi/saved-game.txt",
           ("shot", "reversi", "--do", "f5,save", "--out", "out.png", "--size", "160x120")),
    Target("settings", "home", "settings.toml", script="settings"),
    Target("statistics", "home", "statistics.toml", script="statistics"),
    Target("a kept game", "home", "data/games/river.toml", script="kept"),
    Target("a screenshot --out", "cwd", "shot.png",
           ("shot", "river", "--out", "shot.png", "--size", "160x120")),
    Target("save-to:", "cwd", "saved.txt",
           ("shot", "reversi", "--do", "f5,save-to:saved.txt", "--out", "out.png", "--size",
            "160x120")),
    Target("the Cluedo console's save", "cwd", "case.txt", ("clue", "--console", "--assistant"),
           stdin=HEADER + "suggest 1: Plum, Rope, Hall; passed 2; showed 3\nsave case.txt\nquit\n"),
)  # fmt: skip
THINGS = ("a symlink to a marker", "a named pipe", "a device", "a folder")
#: (Never ``~`` or ``/``: the program would write there.)
ODD_HOMES = (
    "~nosuchuser/x", "~nosuchuser", "relative/home", "/proc/gamehall", "/dev/null", "a file",
    "x" * 5000, "/dev/null/x",
)  # fmt: skip


@dataclass(frozen=True)
class SavedCase:
    """``kind``: ``at`` (``target``, ``thing``), ``writers`` (``what``: statistics or
    options), ``full`` (``what``: settings, statistics, reversi), ``home`` (``what``)."""

    kind: str
    what: str = ""
    target: Target | None = None


def saved_cases() -> list[SavedCase]:
    cases = [SavedCase("at", thing, target) for target in TARGETS for thing in THINGS]
    cases += [SavedCase("writers", w) for w in ("statistics", "options")]
    cases += [SavedCase("full", w) for w in ("settings", "statistics", "reversi")]
    cases += [SavedCase("home", h) for h in ODD_HOMES]
    return cases


def run(probe: Probe) -> Tally:
    cases = saved_cases()
    indices = probe.pick(len(cases), 10)
    run_case: dict[str, Callable[[Probe, SavedCase], list[str]]] = {
        "at": _at_case, "writers": _writers_case, "full": _full_case, "home": _home_case,
    }  # fmt: skip
    return probe.cases(lambda i: run_case[cases[i].kind](probe, cases[i]), indices)


def _save(probe: Probe, target: Target, place: Place, env: dict[str, str] | None = None) -> Ran:
    env = env or probe.store_env(place)
    if target.script:
        argv = [sys.executable, "-c", SAVE_SCRIPT, target.script]
    else:
        argv = [*probe.command, *target.argv]
    stdin = target.stdin.encode() if target.stdin is not None else None
    return execute(argv, env=env, cwd=place.cwd, timeout=CLI_TIMEOUT_S, stdin=stdin)


# --- something already where it saves -----------------------------------------------------------


def _at_case(probe: Probe, case: SavedCase) -> list[str]:
    target = case.target
    assert target is not None
    place = probe.place()
    try:
        root = place.home if target.where == "home" else place.cwd
        path = root / target.path
        path.parent.mkdir(parents=True, exist_ok=True)
        marker = place.home.parent / "marker.txt"
        marker.write_bytes(MARKER)
        if case.what == THINGS[0]:
            path.symlink_to(marker)
        elif case.what == THINGS[1]:
            os.mkfifo(path)
        elif case.what == THINGS[2]:
            try:
                os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # what /dev/full is
            except PermissionError:
                return []  # not root: no device to probe with
        else:
            path.mkdir()
            (path / "inside.txt").write_bytes(MARKER)
        ran = _save(probe, target, place)
        problems = common_problems(ran, CLI_TIMEOUT_S)
        if marker.read_bytes() != MARKER:
            problems.append("the marker file the link points at changed")
        if case.what != THINGS[0] and not _still_there(path, case.what):
            problems.append(f"{target.path} is no longer {case.what} (nor set aside as one)")
        what = f"{target.name} is {case.what}"
        return [f"{what}: {p}" for p in problems]
    finally:
        probe.done(place)


def _still_there(path: Path, thing: str) -> bool:
    """The pipe, device or folder put at ``path`` is still one there, or was set aside as
    ``NAME.bad-*`` beside it (a folder with its file unchanged)."""
    kinds = {THINGS[1]: stat.S_ISFIFO, THINGS[2]: stat.S_ISCHR, THINGS[3]: stat.S_ISDIR}
    for place in (path, *path.parent.glob(f"{path.name}.bad-*")):
        try:
            if not kinds[thing](place.lstat().st_mode):
                continue
            if thing != THINGS[3] or (place / "inside.txt").read_bytes() == MARKER:
                return True
        except OSError:
            continue
    return False


# --- writers at once ------------------------------------------------------------------------------


def _writers_case(probe: Probe, case: SavedCase) -> list[str]:
    place = probe.place()
    go = place.cwd / "go"
    procs = []
    try:
        jobs = (
            [("statistics", str(GAMES_EACH))] * WRITERS
            if case.what == "statistics"
            else [("river",), ("reversi",), ("grab",), ("tic-tac-toe",)]
        )
        for job in jobs:
            procs.append(subprocess.Popen(
                [sys.executable, "-c", WRITER_SCRIPT, str(go), *job], cwd=place.cwd,
                env=probe.store_env(place), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            ))  # fmt: skip
        time.sleep(2.0)  # let the four interpreters start and wait at the go file
        go.touch()
        problems = []
        for proc in procs:
            try:
                _, err = proc.communicate(timeout=CLI_TIMEOUT_S * 2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                problems.append("a writer did not end within 120 s")
                continue
            if proc.returncode != 0:
                problems.append(f"a writer ended with {proc.returncode}: {last_line(err.decode())}")
        problems += _count_problems(probe, place, case.what)
        return [f"{WRITERS} writers of {case.what} at once: {p}" for p in problems]
    finally:
        for proc in procs:
            with contextlib.suppress(OSError):
                proc.kill()
        probe.done(place)


COUNT_SCRIPT = """
import json
from game.registry import all_entries
from game.settings import Store
store = Store()
settings, said = store.load_settings({e.id: e.options for e in all_entries()})
stats, more = store.load_statistics()
river = stats.games.get("river")
print(json.dumps({"played": river.played if river else 0, "said": said + more,
                  "options": {g: settings.options(g) for g in ("river", "reversi", "grab")}}))
"""


def _count_problems(probe: Probe, place: Place, what: str) -> list[str]:
    ran = execute([sys.executable, "-c", COUNT_SCRIPT], env=probe.store_env(place),
                  cwd=place.cwd, timeout=CLI_TIMEOUT_S)  # fmt: skip
    try:
        found = json.loads(ran.out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [f"the files do not load: {last_line(ran.err)}"]
    problems = [f"loading: {clip(m, 120)}" for m in found["said"]]
    if what == "statistics" and found["played"] != WRITERS * GAMES_EACH:
        problems.append(f"{found['played']} of {WRITERS * GAMES_EACH} games counted")
    if what == "options":
        for game, (name, value) in OPTIONS.items():
            if found["options"].get(game, {}).get(name) != value:
                problems.append(f"{game}'s {name}={value} was lost")
    return problems


# --- a full disk ----------------------------------------------------------------------------------


def _full_case(probe: Probe, case: SavedCase) -> list[str]:
    place = probe.place()
    disk = place.home.parent / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(disk)], capture_output=True
    ).returncode == 0  # fmt: skip
    if not mounted:
        probe.done(place)
        return []  # no tmpfs to fill: not root here
    try:
        home = disk / "home"
        home.mkdir()
        env = probe.store_env(place)
        env["GAMEHALL_HOME"] = str(home)
        if case.what == "settings":
            (home / "settings.toml").write_text("[window]\nwidth = 'wide'\n" + "# x\n" * 2000)
            target = TARGETS[1]
        elif case.what == "statistics":
            (home / "statistics.toml").write_text(
                "[games.river]\nplayed = 3\nwon = 2\nlost = 1\ndrawn = 0\n"
            )
            target = TARGETS[2]
        else:
            saved = home / "data" / "reversi" / "saved-game.txt"
            saved.parent.mkdir(parents=True)
            saved.write_text("f5d6\n")
            target = TARGETS[0]
        before = {p.name: p.read_bytes() for p in home.rglob("*") if p.is_file()}
        with contextlib.suppress(OSError), (disk / "filler").open("wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        ran = _save(probe, target, place, env)
        problems = common_problems(ran, CLI_TIMEOUT_S)
        said = ran.out + ran.err
        for bad in home.rglob("*.bad-*"):
            if bad.is_file() and bad.stat().st_size == 0:
                problems.append(f"left a 0-byte {bad.name}")
        for p in home.rglob("*"):
            changed = p.is_file() and p.name in before and p.read_bytes() != before[p.name]
            if changed and case.what != "settings":
                problems.append(f"{p.name} changed on a full disk (it held what it held)")
        if not any(w in said.lower() for w in ("space", "full", "no room")):
            problems.append(f"the full disk was not named ({last_line(said)})")
        return [f"a full disk under {case.what}: {p}" for p in problems]
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
        probe.done(place)


# --- odd homes ------------------------------------------------------------------------------------


def _home_case(probe: Probe, case: SavedCase) -> list[str]:
    place = probe.place()
    try:
        home = case.what
        if home == "a file":
            (place.cwd / "a-file").write_text("not a folder\n")
            home = str(place.cwd / "a-file")
        elif home == "relative/home" or home.startswith("x"):
            home = home if home.startswith("r") else str(place.cwd / home)
        problems = []
        for target in (TARGETS[0], TARGETS[4]):
            env = probe.store_env(place)
            env["GAMEHALL_HOME"] = home
            ran = _save(probe, target, place, env)
            problems += [
                f"{clip(shlex.join(target.argv) or target.script, 50)}: {p}"
                for p in common_problems(ran, CLI_TIMEOUT_S)
            ]
        return [f"GAMEHALL_HOME={clip(case.what, 40)!r}: {p}" for p in problems]
    finally:
        probe.done(place)
