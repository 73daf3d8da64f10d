"""Compiling numba kernels, and saying how far it got.

An engine's kernels compile on their first call (a minute or more on a slow machine the first
time, then loaded from numba's disk cache in well under a second). :func:`compile_progress`
watches numba compile them: every numba function defined in the given modules counts once,
when it has machine code (a function compiled because another one calls it counts too), and
``report(done / total)`` is called after each compilation that adds some. A function that is
always inlined (``inline="always"``) is never compiled on its own and does not count, nor do
those left out. Functions loaded from the disk cache are not compiled, so with a full cache
nothing is reported; the caller says when it is all done.

:func:`cache_by_package_path` files that disk cache by a module's place in the package
(``game/logic/reversi``) and the digest of its folder's sources rather than by the folder the
package is installed in, so that a new virtual environment or a fresh clone of the same code
loads the kernels instead of compiling them again.

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
import functools
import hashlib
import logging
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

from numba.core import caching, config, event
from numba.core.registry import CPUDispatcher

__all__ = ["cache_by_package_path", "compile_progress", "dispatchers", "kernel_copy"]

log = logging.getLogger(__name__)

#: The folder of the ``game`` package; its modules' kernels are cached by their path in it.
PACKAGE = Path(__file__).resolve().parents[1]
#: The folder under ``NUMBA_CACHE_DIR`` that holds them.
CACHE_FOLDER = "gamehall-kernels"

# numba's names for its cache classes (older releases had them with a leading underscore).
_IMPL = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
_USER = getattr(caching, "UserProvidedCacheLocator", None) or getattr(
    caching, "_UserProvidedCacheLocator", None
)


def cache_by_package_path() -> bool:
    """Make numba file the cached machine code of this package's functions by their
    source, not by where the package is installed: in
    ``NUMBA_CACHE_DIR/gamehall-kernels/game/logic/reversi-<digest>``, where the digest is
    that of every module in the function's folder (:func:`folder_digest`). Numba names the
    folder after the absolute path of the source instead, so every new virtual environment,
    and every clone a test run starts from, compiled every kernel again (a minute or more).
    Code that differs in any module of the folder gets a folder of its own, so two versions
    compiling at once (two clones' test runs sharing a cache) never write into one folder,
    and a function calling another module's kernel never loads machine code built with an
    older one. Folders of other digests unused for :data:`KEEP_DAYS` days are removed.

    Call it before the module's ``@njit(cache=True)`` functions are defined; calling it
    again does nothing. False (logged) when this numba lays its cache out differently, and
    numba's own folders are used."""
    if (
        _IMPL is None
        or _USER is None
        or not isinstance(getattr(_IMPL, "_locator_classes", None), list)
    ):
        log.info("numba's cache is laid out differently here; its own folders are kept")
        return False
    if _PackagePathLocator not in _IMPL._locator_classes:
        _IMPL._locator_classes.insert(0, _PackagePathLocator)
    return True


#: Cache folders of other versions of a module folder are removed after this many days unused.
KEEP_DAYS = 30


@functools.cache
def folder_digest(folder: Path) -> str:
    """A digest of the contents of every ``.py`` file in ``folder`` (not its subfolders)."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def _kernel_folder(source_folder: Path) -> str:
    """The cache folder of the functions of ``source_folder`` (made, and marked as used
    now); other versions' folders beside it that no run used for :data:`KEEP_DAYS` days go."""
    where = source_folder.relative_to(PACKAGE.parent)
    parent = Path(_cache_dir(), CACHE_FOLDER, *where.parent.parts)
    folder = parent / f"{where.name}-{folder_digest(source_folder)}"
    folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    old = time.time() - KEEP_DAYS * 86400
    for other in parent.glob(f"{where.name}-*"):
        with contextlib.suppress(OSError):
            if other != folder and other.is_dir() and other.stat().st_mtime < old:
                shutil.rmtree(other)
    return str(folder)


def _cache_dir() -> str:
    """numba's ``NUMBA_CACHE_DIR`` ("" when unset)."""
    return str(getattr(config, "CACHE_DIR", "") or "")


class _PackagePathLocator(_USER or object):  # type: ignore[misc]
    """Numba's locator for a function in a file of this package when ``NUMBA_CACHE_DIR`` is
    set: the cache folder is the file's folder relative to the package's parent, with the
    digest of that folder's modules, under :data:`CACHE_FOLDER`."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)
        self._cache_path = _kernel_folder(Path(py_file).resolve().parent)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if not _cache_dir() or not Path(py_file).resolve().is_relative_to(PACKAGE):
            return None
        return super().from_function(py_func, py_file)


def kernel_copy(template: Callable[..., Any], name: str, **names: Any) -> FunctionType:
    """A copy of the plain function ``template`` named ``name`` (for numba to compile on its
    own), reading ``names`` as globals over its module's globals as they are now.

    It makes one kernel template serve several kernels that differ in a constant or in the
    kernel they call. Not a closure: numba keys a closure's disk cache by the pickle of its
    cells, and a compiled function's pickle differs in every process, so a closure over
    another kernel would compile again in every process. The copy gets its own disk cache
    file from its name.

    >>> def scale(x):
    ...     return x * FACTOR
    >>> kernel_copy(scale, "triple", FACTOR=3)(2)
    6
    """
    if not isinstance(template, FunctionType):
        raise TypeError(f"a kernel template is a plain function, not {template!r}")
    function = FunctionType(template.__code__, dict(template.__globals__, **names), name)
    function.__qualname__ = name
    function.__doc__ = template.__doc__
    return function


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
