"""Compiling numba kernels, and saying how far it got.

An engine's kernels compile on their first call (a minute or more on a slow machine the first
time, then loaded from numba's disk cache in well under a second). :func:`compile_progress`
watches numba compile them: every numba function defined in the given modules counts once,
when it has machine code (a function compiled because another one calls it counts too), and
``report(done / total)`` is called after each compilation that adds some. A function that is
always inlined (``inline="always"``) is never compiled on its own and does not count, nor do
those left out. Functions loaded from the disk cache are not compiled, so with a full cache
nothing is reported; the caller says when it is all done.

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
    """The numba functions the modules define that compile on their own (by identity, each
    once, in module order): the always-inlined ones are left out."""
    found: dict[int, Any] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.targetoptions.get("inline") != "always":
                found.setdefault(id(value), value)
    return list(found.values())


@contextlib.contextmanager
def compile_progress(
    modules: Iterable[ModuleType],
    report: Callable[[float], None] | None,
    leave_out: Iterable[Any] = (),
) -> Iterator[None]:
    """Within the block, call ``report(fraction)`` each time one more of the modules' numba
    functions (but those in ``leave_out``) has been compiled: the fraction of them compiled so
    far, 0 < fraction <= 1."""
    left = {id(d) for d in leave_out}
    watched = [d for d in dispatchers(modules) if id(d) not in left]
    if report is None or not watched:
        yield
        return
    listener = _Counter(watched, report)
    with event.install_listener("numba:compile", listener):
        yield


class _Counter(event.Listener):
    """After each compilation, the fraction of the watched dispatchers that have machine code
    (numba compiles some callees without an event of their own: they count when they have)."""

    def __init__(self, watched: list[Any], report: Callable[[float], None]) -> None:
        self.watched = watched
        self.done = 0
        self.report = report

    def on_start(self, ev: Any) -> None:
        pass

    def on_end(self, ev: Any) -> None:
        done = sum(1 for d in self.watched if d.overloads)
        if done > self.done:
            self.done = done
            self.report(done / len(self.watched))
