"""The compiled back end of a design, built and cached: its numba module written once to a
file named by the digest of its text (the design and the generator's version decide that
text), imported from there, its kernels compiled by numba with ``cache=True`` beside it, so a
second process loads the machine code instead of compiling it.

Not used by the window or the CLI yet: :func:`compiled_rules` builds it for the games whose
forms it expresses (else :class:`Unsupported`); ``benchmarks/compiled_perft.py`` measures it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from game.logic.rules.compiled.module import VERSION, module_source
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.position import DescribedPosition

__all__ = [
    "CompiledRules",
    "Unsupported",
    "available",
    "cache_folder",
    "compiled_rules",
    "load_module",
    "reason",
]

#: The deepest perft the driver allocates move buffers for.
MAX_DEPTH = 16


def cache_folder() -> Path:
    """Where the generated modules are kept: ``GAMEHALL_COMPILED_DIR`` if set, else
    ``compiled-rules`` under numba's cache folder, else under the user's cache folder."""
    named = os.environ.get("GAMEHALL_COMPILED_DIR")
    if named:
        return Path(named)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        return Path(numba_dir) / "compiled-rules"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamehall" / "compiled-rules"


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

    def playouts(self, pos: DescribedPosition, games: int, seed: int, limit: int) -> int:
        """The plies of ``games`` random games from ``pos`` (not changed), each to its end (as
        perft reads ends: no draw counters) or ``limit`` plies."""
        self.module.seed(seed)
        plies = 0
        for _ in range(games):
            played = self.module.playout(
                self.board(pos), pos.turn, pos.last_from, pos.last_to, limit, self.rows,
                self.cs, self.es, self.undo,
            )  # fmt: skip
            if played < 0:
                raise ValueError(f"a position has more than {self.module.ROWS} moves")
            plies += played
        return plies

    def legal_rows(self, pos: DescribedPosition) -> list[tuple[int, ...]]:
        """The legal moves of ``pos`` as (from, to, program, changes...) rows."""
        b = self.board(pos)
        out = self.rows[0]
        n = self.module.legal(
            b, pos.turn, pos.last_from, pos.last_to, out, self.cs, self.es, self.undo[0]
        )
        return [tuple(int(x) for x in out[i, : 5 + 2 * out[i, 4]]) for i in range(n)]


def compiled_rules(design: Design) -> CompiledRules:
    """The compiled back end of ``design``; raises :class:`Unsupported` (naming the form)
    when the design needs what it does not express yet."""
    module, path = load_module(f"rules_{_ident(design.id)}", module_source(design))
    return CompiledRules(design, module, path)


def load_module(prefix: str, source: str) -> tuple[ModuleType, Path]:
    """The module of generated ``source``, imported from a file in :func:`cache_folder`
    named ``prefix`` and the digest of the text (written only when missing or changed)."""
    digest = hashlib.sha256(f"{VERSION}\0{source}".encode()).hexdigest()[:20]
    folder = cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{prefix}_{digest}"
    path = folder / f"{name}.py"
    if not path.is_file() or path.read_text(encoding="utf-8") != source:
        # Written whole under another name, then renamed: a reader never sees half a file.
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=folder, suffix=".tmp", delete=False
        ) as handle:
            handle.write(source)
        os.replace(handle.name, path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    # numba's cached machine code finds its module's globals by the module's name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module, path


#: Each design's compiled back end, or the reason it has none, as built in this process.
_BUILT: dict[int, tuple[Design, CompiledRules | None, str]] = {}


def available(design: Design) -> CompiledRules | None:
    """``design``'s compiled back end, built once in this process; None where the design
    needs what the back end does not express (:func:`reason` says what)."""
    found = _BUILT.get(id(design))
    if found is None or found[0] is not design:
        try:
            found = (design, compiled_rules(design), "compiled")
        except Unsupported as why:
            found = (design, None, f"python: {why}")
        _BUILT[id(design)] = found
    return found[1]


def reason(design: Design) -> str:
    """The back end ``design`` plays on: "compiled", or "python: " and the reason."""
    available(design)
    return _BUILT[id(design)][2]


def _ident(word: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in word)
