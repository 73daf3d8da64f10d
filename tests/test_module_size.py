"""Modules stay under about 600 lines (STYLE.md: split by responsibility): a longer one is a
sign that two concerns share a file. Compiled kernels are the exception the style names."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
#: The folders whose modules the limit holds for: the game, and the scripts beside it.
CHECKED = ("game", "tools", "benchmarks")

#: The most lines a module of the game may have.
MOST_LINES = 600
#: Modules allowed to be longer, and why (paths relative to the repository).
LONGER = {
    "game/logic/reversi/kernels.py": "compiled kernels, kept together for numba",
}


def long_modules(root: Path = GAME) -> dict[str, int]:
    """Each module under ``root`` longer than :data:`MOST_LINES`, with its line count, by its
    path relative to ``root``'s parent."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MOST_LINES:
            found[path.relative_to(root.parent).as_posix()] = count
    return found


def _every_long_module() -> dict[str, int]:
    found: dict[str, int] = {}
    for name in CHECKED:
        found.update(long_modules(ROOT / name))
    return found


def test_every_module_stays_under_the_limit() -> None:
    """Under game/, tools/ and benchmarks/ alike (a tool script grows as easily as a module)."""
    too_long = {path: n for path, n in _every_long_module().items() if path not in LONGER}
    assert too_long == {}


def test_every_allowed_exception_is_still_long() -> None:
    """An entry of :data:`LONGER` whose module got short (or went away) is dropped, so the
    list never lets a module grow back unseen."""
    assert sorted(set(LONGER) - set(_every_long_module())) == []


def test_the_count_sees_a_long_module(tmp_path) -> None:
    """The check itself: a module one line over the limit is found, one at it is not."""
    game = tmp_path / "game"
    (game / "logic").mkdir(parents=True)
    (game / "logic" / "long.py").write_text("x = 1\n" * (MOST_LINES + 1))
    (game / "short.py").write_text("x = 1\n" * MOST_LINES)
    assert long_modules(game) == {"game/logic/long.py": MOST_LINES + 1}
