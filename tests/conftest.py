"""Shared fixtures: a private GAMEHALL_HOME and the shipped games only for every test, and one
headless Director a test process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.engine.window import configure_pyglet

# Every in-process window in the tests is pyglet's headless (EGL) one; set before any test
# module imports pyglet.window. The real-window test runs the game in a subprocess.
configure_pyglet(headless=True)


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings, statistics and screenshots of a test go to its own temporary folder."""
    home = tmp_path / "gamehall-home"
    monkeypatch.setenv("GAMEHALL_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def _shipped_games_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from the shipped games: one that a test registers (a person's
    description file read in this process, as ``gamehall play FILE`` does) is forgotten
    after it, whatever runs next in this process (the tests run in parallel, in any order).
    The registry is rebuilt from the imported entry modules on first use (microseconds)."""
    from game import registry

    monkeypatch.setattr(registry, "_ENTRIES", None)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """GAMEHALL_HOME is the test's temporary folder itself (the settings tests look in it)."""
    monkeypatch.setenv("GAMEHALL_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="session")
def _one_director() -> Iterator[object]:
    """One headless Director (pyglet's EGL window, Mesa) a test process."""
    from game.cli.play import build_director

    d = build_director(headless=True, size=(640, 400))
    assert d.ctx.error == "GL_NO_ERROR"
    yield d
    d.close()


@pytest.fixture
def director(_one_director: object) -> Iterator[object]:
    """The shared Director with its window's context current: a test that opened and closed a
    Director of its own left pyglet with no current context, and shapes made then failed.
    The games registered on it are put back afterwards: a test that registers its own
    (a Reversi between two people, a Cluedo of six) leaves the next test, whichever it is in
    a shuffled order, the window's own games."""
    from game.engine.director import Director

    assert isinstance(_one_director, Director)
    _one_director.window.switch_to()
    factories = dict(_one_director.factories)
    yield _one_director
    _one_director.factories.clear()
    _one_director.factories.update(factories)


@pytest.fixture
def river(director: object) -> object:
    """A fresh river game (3 priests, 3 devils, a boat for 2) on the shared Director."""
    from game.engine.director import Director

    assert isinstance(director, Director)
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("river")
    return director.controller
