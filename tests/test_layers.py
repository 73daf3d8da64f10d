"""The layers import only downwards: the logic (rules, searches, state graphs) knows nothing of
windows, rendering or the application, and the engine (window, renderer, HUD, director) knows
nothing of the games, the registry or the settings that sit above it. Every import in a
module counts, those inside functions too (a lazy import is still a dependency).

Within one package (a game's window side, a game's logic, the hall, the engine, the command
line) the modules import one another without a circle: a circle means two modules that can only
be read, changed or tested together. Here an import under ``if TYPE_CHECKING:`` does not count,
since it names types only and never runs."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"

#: What sits above the engine: the application (settings, registry, sessions, command line)
#: and the games.
APPLICATION = (
    "game.cli",
    "game.games",
    "game.hall",
    "game.hooks",
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
    # The server runs headless: it plays the games through the registry and their logic,
    # never their windows, and the command line calls it, not the other way round.
    "server": ("game.cli", "game.engine", "game.games", "game.hall", *GRAPHICS),
}


def import_statements(
    path: Path, root: Path = GAME.parent, *, types_too: bool = True
) -> list[tuple[str, tuple[str, ...]]]:
    """The imports of ``path`` (a file under ``root``), at its top or inside a function, as
    (absolute module name, names taken from it): ``import a.b`` is ``("a.b", ())``, ``from
    . import x`` in package ``p`` is ``("p", ("x",))``. With ``types_too=False`` the imports
    under ``if TYPE_CHECKING:`` are left out."""
    tree = _parsed(path.read_text(encoding="utf-8"), str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    if path.name == "__init__.py":  # its relative imports start from the package itself
        package = ".".join(path.relative_to(root).parts[:-1])
    skipped = set() if types_too else _types_only(tree)
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in _statements(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.append((name, tuple(alias.name for alias in node.names)))
    return found


def imports_of(path: Path, root: Path = GAME.parent) -> set[str]:
    """Every module ``path`` (a file under ``root``) imports, at its top or inside a
    function, by its absolute name (with each name it takes, which may be a module)."""
    found: set[str] = set()
    for name, taken in import_statements(path, root):
        found.add(name)
        found.update(f"{name}.{t}" for t in taken)
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


#: The packages whose modules must not import one another in a circle: each game's window
#: side and logic, the hall, the engine, the command line, and the packages inside them.
CIRCLE_FREE = ("games", "logic", "hall", "engine", "cli", "server")


def circles_in(package: Path, root: Path = GAME.parent) -> list[list[str]]:
    """The import circles among the modules of ``package`` (a folder under ``root``): each
    strongly connected component of more than one module in the graph of their imports, as
    sorted module names (``__init__`` for the package's own module). Imports under ``if
    TYPE_CHECKING:`` do not count; an import of a subpackage does not either (it is another
    package)."""
    name = ".".join(package.relative_to(root).parts)
    modules = {p.stem: p for p in package.glob("*.py")}

    def target(imported: str) -> str | None:
        if imported == name:
            return "__init__" if "__init__" in modules else None
        if not imported.startswith(name + "."):
            return None
        head = imported[len(name) + 1 :].split(".")[0]
        if head in modules:
            return head
        # a name the package's own module defines (``from game.cli import main``)
        return None if (package / head).is_dir() else "__init__"

    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for imported, taken in import_statements(path, root, types_too=False):
            if imported == name and taken:  # ``from . import x``: x is a module or a name
                ends = {target(f"{name}.{t}") for t in taken}
            else:
                ends = {target(imported)}
            graph[module].update(e for e in ends if e is not None and e != module)
    reach = {m: _reachable(graph, m) for m in graph}
    circles = {frozenset({m} | {n for n in reach[m] if m in reach[n]}) for m in graph}
    return sorted(sorted(c) for c in circles if len(c) > 1)


def circle_free_packages() -> list[Path]:
    return sorted(
        init.parent for layer in CIRCLE_FREE for init in (GAME / layer).rglob("__init__.py")
    )


@pytest.mark.parametrize(
    "package", circle_free_packages(), ids=lambda p: str(p.relative_to(GAME.parent))
)
def test_the_modules_of_a_package_import_one_another_without_a_circle(package: Path) -> None:
    assert circles_in(package) == []


def test_the_circle_check_sees_lazy_imports_and_leaves_type_only_ones(tmp_path) -> None:
    """The check itself: a lazy import closing a loop is a circle, through three modules too
    and through the package's own module; an import under ``if TYPE_CHECKING:`` is not."""
    package = tmp_path / "game" / "games" / "toy"
    package.mkdir(parents=True)
    files = {
        "__init__.py": "from .entry import ENTRY\n",
        "entry.py": "from game.games.toy.controller import Controller\nENTRY = 1\n",
        "controller.py": "class Controller:\n    def f(self):\n        from . import panel\n",
        "panel.py": "from .commands import step\n",
        "commands.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .entry import ENTRY\n"
            "def step():\n    from .controller import Controller\n"
        ),
        "texts.py": (
            "import typing\nif typing.TYPE_CHECKING:\n    from game.games.toy import ENTRY\n"
        ),
        "look.py": "def hint():\n    from game.games.toy import ENTRY\n",
    }
    for file, text in files.items():
        (package / file).write_text(text)
    assert circles_in(package, tmp_path) == [["commands", "controller", "panel"]]
    (package / "entry.py").write_text("from game.games.toy.look import hint\n")
    assert circles_in(package, tmp_path) == [
        ["__init__", "entry", "look"],
        ["commands", "controller", "panel"],
    ]


@functools.cache
def _parsed(text: str, filename: str) -> ast.Module:
    """The tree of one module's text, parsed once for every check that reads it."""
    return ast.parse(text, filename=filename)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in graph[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _types_only(tree: ast.Module) -> set[int]:
    """The ids of every node under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    found: set[int] = set()
    for node in _statements(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            found.update(id(inner) for stmt in node.body for inner in _statements(stmt))
    return found


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every statement inside it, at any depth (the bodies of functions,
    classes, branches, loops, ``with``, ``try`` and ``match``), where an import can be: the
    expressions, which hold none, are not walked (they were four nodes in five)."""
    todo = [node]
    while todo:
        here = todo.pop()
        yield here
        for _field, value in ast.iter_fields(here):
            if isinstance(value, list):
                todo.extend(
                    v for v in value if isinstance(v, (ast.stmt, ast.excepthandler, ast.match_case))
                )
