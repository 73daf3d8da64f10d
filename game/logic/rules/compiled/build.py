"""The compiled back end of a design, built and cached: its numba module written once to a
file in the cache folder (:mod:`~game.logic.rules.compiled.cache`: under the user's cache
folder, named by the description it comes from), imported from there, its kernels compiled by
numba with ``cache=True`` beside it, so a second process neither generates the module's text
again nor compiles it: numba loads the machine code.

:func:`available` is what a search asks: the back end at once where it is built or warm (on
disk, compiled), else None while it compiles in a worker process
(:mod:`~game.logic.rules.compiled.worker`, started then), the caller playing on the Python back
end meanwhile. :func:`reason` says which back end a design plays on, for F3 and ``gamehall
rules check``; :func:`compiled_rules` builds it here and now (the CLI, tests, benchmarks).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import logging
import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from game.logic.rules.compiled import worker
from game.logic.rules.compiled.cache import (
    compiling,
    folder,
    ident,
    marker,
    prune,
    read_marker,
    stem,
    write_whole,
)
from game.logic.rules.compiled.module import VERSION, module_source
from game.logic.rules.compiled.stacks import stack_cells
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.position import DescribedPosition

__all__ = [
    "CompiledRules",
    "Unsupported",
    "available",
    "compile_in_worker",
    "compiled_rules",
    "load_module",
    "reason",
]

log = logging.getLogger(__name__)

#: The deepest perft the driver allocates move buffers for.
MAX_DEPTH = 16


@dataclass
class CompiledRules:
    """A design's compiled kernels and the buffers they work in."""

    design: Design
    module: ModuleType
    path: Path

    def __post_init__(self) -> None:
        m = self.module
        self.rows = np.zeros((MAX_DEPTH + 1, m.ROWS, m.WIDTH), dtype=np.int64)
        self.undo = np.zeros((MAX_DEPTH + 1, m.WIDTH), dtype=np.int64)
        self.cs = np.zeros(m.WIDTH, dtype=np.int64)
        self.es = np.zeros(m.WIDTH, dtype=np.int64)

    def board(self, pos: DescribedPosition) -> Any:
        """The state array of ``pos``: its board, then (where hands are counted) each
        player's pieces in hand by type, then (in a game of stacks) each position's column."""
        if self.module.HAND_CELLS:
            return np.array([*pos.board, *(x for row in pos.hands for x in row)], dtype=np.int64)
        if self.module.STACK_CELLS:
            under = stack_cells(pos.under or [()] * len(pos.board), self.module.STACK_BASE)
            return np.array([*pos.board, *under], dtype=np.int64)
        return np.array(pos.board, dtype=np.int64)

    def perft(self, pos: DescribedPosition, depth: int) -> int:
        """Move paths of length ``depth`` from ``pos`` (not changed)."""
        if not 0 <= depth <= MAX_DEPTH:
            raise ValueError(f"perft depth {depth} is outside 0..{MAX_DEPTH}")
        if depth == 0:
            return 1
        b = self.board(pos)
        n = self.module.perft(
            b, pos.turn, pos.last_from, pos.last_to, depth, self.rows, self.cs, self.es, self.undo
        )
        if n < 0:
            raise ValueError(f"a position has more than {self.module.ROWS} moves")
        return int(n)

    def playouts(
        self, pos: DescribedPosition, games: int, seed: int, limit: int
    ) -> tuple[int, tuple[int, ...]]:
        """``games`` random games from ``pos`` (not changed), each to its end (as perft reads
        ends: no draw counters) or ``limit`` plies: the plies of all, and the games each player
        won where the kernel knows the winner (games that fill the board; else zeros)."""
        self.module.seed(seed)
        wins = np.zeros(2, dtype=np.int64)
        plies = self.module.playouts(
            self.board(pos), self.state(pos), games, limit, self.rows, self.cs, self.es,
            self.undo, wins,
        )  # fmt: skip
        if plies < 0:
            raise ValueError(f"a position has more than {self.module.ROWS} moves")
        return int(plies), tuple(int(w) for w in wins)

    def playout(
        self, pos: DescribedPosition, seed: int, limit: int, *, fill: bool = False
    ) -> tuple[list[tuple[int, ...]], int]:
        """One random game from ``pos`` (not changed): its moves as (from, to, program,
        changes...) rows (a pass: program -1 and no change), and its winner (-1 where the
        kernel does not know it). ``fill``: played by filling the board (only in a module
        that has ``fill_playout``), else move by move."""
        m = self.module
        m.seed(seed)
        b, st = self.board(pos), self.state(pos)
        record = np.zeros((limit, m.WIDTH), dtype=np.int64)
        if fill:
            n = m.fill_playout(b, st, limit, record)
        else:
            n = m.playout(b, st, limit, self.rows, self.cs, self.es, self.undo, record)
        if n < 0:
            raise ValueError(f"a position has more than {m.ROWS} moves")
        rows = [tuple(int(x) for x in r[: m.HEAD + 2 * r[4]]) for r in record[:n]]
        return rows, int(st[3])

    def state(self, pos: DescribedPosition) -> Any:
        """The playout kernels' (turn, last from, last to, winner) of ``pos``."""
        return np.array([pos.turn, pos.last_from, pos.last_to, -1], dtype=np.int64)

    def legal_rows(self, pos: DescribedPosition) -> list[tuple[int, ...]]:
        """The legal moves of ``pos`` as (from, to, program, changes...) rows."""
        b = self.board(pos)
        out = self.rows[0]
        n = self.module.legal(
            b, pos.turn, pos.last_from, pos.last_to, out, self.cs, self.es, self.undo[0]
        )
        return [tuple(int(x) for x in out[i, : 5 + 2 * out[i, 4]]) for i in range(n)]


def compiled_rules(design: Design, report: Callable[[float], None] | None = None) -> CompiledRules:
    """The compiled back end of ``design``, built here (compiled the first time: a minute for
    chess; ``report(fraction)`` says how far as each function compiles); raises
    :class:`Unsupported` (naming the form) when the design needs what it does not express yet.
    A module on disk is imported as it is: its text is generated only the first time."""
    where = folder()
    name = stem(design)
    if name:
        refused = read_marker(name, "refused")
        if refused is not None:
            raise Unsupported(refused)
    path = where / f"{name}.py"
    if not name or not path.is_file():
        try:
            source = module_source(design)
        except Unsupported as why:
            if name:
                write_whole(marker(name, "refused"), str(why))
            raise
        # (a design made another way than from a description is named by its text)
        name, path, written = _file(f"rules_{ident(design.id)}", source, name)
        if written:
            prune(where)
    with compiling(name):  # one process compiles it; one beside it waits, then loads it
        module = _imported(name, path, report)
    # Used now: kept by prune(). (Not the module's own stamp: numba's index is keyed by it.)
    write_whole(marker(name, "ready"), "")
    return CompiledRules(design, module, path)


def load_module(prefix: str, source: str) -> ModuleType:
    """The module of generated ``source`` (one that imports a design's rules module, such as
    its search), imported from a file in the cache folder named ``prefix`` and the digest of
    the text, written only when missing (numba's index is keyed by the file's stamp)."""
    name, path, _written = _file(prefix, source)
    with compiling(name):
        return _imported(name, path, None)


def _file(prefix: str, source: str, name: str = "") -> tuple[str, Path, bool]:
    """The module file of generated ``source`` in the cache folder: named ``name``, else
    ``prefix`` and the digest of the text; written only when missing or different (numba's
    index is keyed by the file's stamp); and whether it was written now."""
    if not name:
        digest = hashlib.sha256(f"{VERSION}\0{source}".encode()).hexdigest()[:20]
        name = f"{prefix}_{digest}"
    path = folder() / f"{name}.py"
    if path.is_file() and path.read_text(encoding="utf-8") == source:
        return name, path, False
    write_whole(path, source)
    return name, path, True


#: Each design's compiled back end, or the reason it has none, as built in this process.
_BUILT: dict[int, tuple[Design, CompiledRules | None, str]] = {}


def available(
    design: Design, *, wait: bool = False, report: Callable[[float], None] | None = None
) -> CompiledRules | None:
    """``design``'s compiled back end, or None where the design needs what the back end does
    not express (:func:`reason` says what). Built once in this process: at once when it is
    warm (compiled before: numba loads it); otherwise, unless ``wait``, None for now while it
    compiles in a worker process (started here; the caller plays on the Python back end and
    asks again later); with ``wait`` it compiles here, ``report(fraction)`` told how far."""
    found = _BUILT.get(id(design))
    if found is not None and found[0] is design:
        return found[1]
    name = stem(design)
    try:
        waits = name and not wait and not marker(name, "ready").is_file()
        if waits and read_marker(name, "refused") is None:
            worker.start(design, name)
            return None
        found = (design, compiled_rules(design, report), "compiled")
    except Unsupported as why:
        found = (design, None, f"python: {why}")
    except Exception as exc:  # numba's, the folder's: the game plays on, on the Python back end
        log.warning("the compiled back end of %s failed: %s", design.id, exc)
        found = (design, None, f"python: the compile failed ({exc})")
    _BUILT[id(design)] = found
    return found[1]


def reason(design: Design, *, decide: bool = False) -> str:
    """The back end ``design`` plays on: "compiled", or "python: " and the reason (the form
    the generator cannot express, or that it is compiling now or not compiled yet). It
    compiles nothing; with ``decide`` a design nothing is known of yet has its module written
    (or its refusal noted), so that the reason is the generator's."""
    found = _BUILT.get(id(design))
    if found is not None and found[0] is design:
        return found[2]
    name = stem(design)
    if not name:
        return "python: not compiled (the design was not read from a description)"
    try:
        said = worker.standing(name)
        if said is None and decide and not marker(name, "py").is_file():
            try:
                write_whole(marker(name, "py"), module_source(design))
            except Unsupported as why:
                write_whole(marker(name, "refused"), str(why))
            said = worker.standing(name)
    except OSError as exc:
        return f"python: the compiled modules' folder cannot be used ({exc.strerror or exc})"
    return said or "python: not compiled yet"


def compile_in_worker(name: str, then: Callable[[CompiledRules], object] | None = None) -> int:
    """In the process :func:`worker.start` starts: compile the module ``name`` of the design
    pickled beside it, noting the progress, then ``then(rules)`` (the search's module); the
    exit status (1: it failed, ``STEM.failed`` says why). The design's file, the progress and
    the lock go at the end."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)  # the window's frames and the searches come first
    try:
        design = pickle.loads(marker(name, "design").read_bytes())
        rules = compiled_rules(design, worker.reporter(name))
        if then is not None:
            then(rules)
    except Unsupported:
        return 0  # noted beside it (STEM.refused)
    except Exception as exc:
        write_whole(marker(name, "failed"), f"{type(exc).__name__}: {exc}")
        log.error("compiling %s failed: %s", name, exc)
        return 1
    finally:
        for kind in ("design", "progress", "lock"):
            marker(name, kind).unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            if not marker(name, "log").stat().st_size:  # nothing went wrong: no log to keep
                marker(name, "log").unlink()
    return 0


def _imported(name: str, path: Path, report: Callable[[float], None] | None) -> ModuleType:
    """The module at ``path`` imported as ``name``, ``report`` told how many of its functions
    have compiled (each compiles as the module defines it; none when numba loads them)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    # numba's cached machine code finds its module's globals by the module's name.
    sys.modules[name] = module
    total = path.read_text(encoding="utf-8").count('njit("')  # each typed function, at once
    if report is None or not total:
        spec.loader.exec_module(module)
        return module
    from numba.core import event  # here: this module is read where numba is not (F3)

    counted = _Counted(name, total, report)
    methods = {"on_start": lambda _self, _ev: None, "on_end": lambda _self, ev: counted(ev)}
    with event.install_listener("numba:compile", type("Counter", (event.Listener,), methods)()):
        spec.loader.exec_module(module)
    return module


class _Counted:
    """Called at the end of each numba compile (``numba.core.event``): ``report(done /
    total)`` each time one more of the module ``name``'s functions has compiled (numba's own
    helpers compiling meanwhile do not count)."""

    def __init__(self, name: str, total: int, report: Callable[[float], None]) -> None:
        self.name, self.total, self.report = name, total, report
        self.done: set[int] = set()

    def __call__(self, ev: Any) -> None:
        dispatcher = ev.data.get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", None)
        if module == self.name and id(dispatcher) not in self.done:
            self.done.add(id(dispatcher))
            self.report(min(1.0, len(self.done) / self.total))
