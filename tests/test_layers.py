"""The layers import only downwards: the logic (rules, searches, state graphs) knows nothing of
windows, rendering or the application, and the engine (window, renderer, HUD, director) knows
nothing of the games, the registry or the settings that sit above it. Every import in a
module counts, those inside functions too (a lazy import is still a dependency)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"

#: What sits above the engine: the application (settings, registry, sessions, command line)
#: and the games.
APPLICATION = (
    "game.cli",
    "game.games",
    "game.hall",
    "game.kept",
    "game.places",
    "game.registry",
    "game.session",
    "game.settings",
    "game.userfiles",
    "game.window_place",
)
#: Libraries of the window and of rendering.
GRAPHICS = ("pyglet", "moderngl", "glcontext", "imgui_bundle", "pyrr")

FORBIDDEN = {
    "logic": ("game.engine", *APPLICATION, *GRAPHICS),
    "engine": APPLICATION,
    # The command line sits on top: it parses and dispatches to the games' hooks, which
    # return what it prints; nothing below calls back up into it.
    "games": ("game.cli",),
    "hall": ("game.cli", "game.games"),
}


def imports_of(path: Path, root: Path = GAME.parent) -> set[str]:
    """Every module ``path`` (a file under ``root``) imports, at its top or inside a
    function, by its absolute name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def offending(layer: str) -> list[str]:
    bad = []
    for path in sorted((GAME / layer).rglob("*.py")):
        for name in sorted(imports_of(path)):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(GAME.parent)} imports {name}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    assert offending(layer) == []


def test_the_check_sees_imports_inside_functions_and_relative_ones(tmp_path) -> None:
    """The check itself: a lazy import of the registry in an engine module is found, and a
    relative one is named absolutely."""
    engine = tmp_path / "game" / "engine"
    engine.mkdir(parents=True)
    (engine / "lazy.py").write_text(
        "def f():\n    from game.registry import all_entries\n    from . import hud\n"
        "    from ..settings import Settings\n"
    )
    found = imports_of(engine / "lazy.py", tmp_path)
    assert {"game.registry", "game.engine.hud", "game.settings"} <= found
