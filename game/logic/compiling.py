"""Compiling numba kernels, and saying how far it got.

An engine's kernels compile on their first call (a minute or more on a slow machine the first
time, then loaded from numba's disk cache in well under a second). :func:`compile_progress`
watches numba compile them: every numba function defined in the given modules counts once,
when its compilation ends (a function compiled because another one calls it counts too), and
``report(done / total)`` is called after each. Functions loaded from the disk cache are not
compiled, so with a full cache nothing is reported; the caller says when it is all done.

>>> import types
>>> from numba import njit
>>> module = types.ModuleType("tiny")
>>> module.double = njit(lambda x: 2 * x)
>>> module.quadruple = njit(lambda x: module.double(module.double(x)))
>>> seen = []
>>> with compile_progress([module], seen.append):
...     module.quadruple(3)
12
>>> seen
[0.5, 1.0]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

from numba.core import event
from numba.core.registry import CPUDispatcher

__all__ = ["compile_progress", "dispatchers"]


def dispatchers(modules: Iterable[ModuleType]) -> list[Any]:
    """The numba functions the modules define (by identity, each once, in module order)."""
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                found.setdefault(id(value), value)
    return list(found.values())


@contextlib.contextmanager
def compile_progress(
    modules: Iterable[ModuleType], report: Callable[[float], None] | None
) -> Iterator[None]:
    """Within the block, call ``report(fraction)`` each time one more of the modules' numba
    functions has been compiled (the fraction of them compiled so far, 0 < fraction <= 1)."""
    watched = {id(d) for d in dispatchers(modules)}
    if report is None or not watched:
        yield
        return
    listener = _Counter(watched, report)
    with event.install_listener("numba:compile", listener):
        yield


class _Counter(event.Listener):
    """Counts the watched dispatchers whose compilation ended."""

    def __init__(self, watched: set[int], report: Callable[[float], None]) -> None:
        self.watched = watched
        self.done: set[int] = set()
        self.report = report

    def on_start(self, ev: Any) -> None:
        pass

    def on_end(self, ev: Any) -> None:
        key = id(ev.data["dispatcher"])
        if key in self.watched and key not in self.done:
            self.done.add(key)
            self.report(len(self.done) / len(self.watched))
