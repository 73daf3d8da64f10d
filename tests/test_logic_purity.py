"""The logic layer imports no window, GL, engine or controller code, in a fresh interpreter."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.waiting import HANG_S

ROOT = Path(__file__).resolve().parents[1]
LOGIC = ROOT / "game" / "logic"
FORBIDDEN = (
    "pyglet",
    "moderngl",
    "imgui_bundle",
    "OpenGL",
    "game.engine",
    "game.games",
    "game.hall",
    "game.cli",
)
ALLOWED_THIRD_PARTY = {"numpy", "numba"}
#: Standard modules that belong to the floors above: the command line's parser (a game's
#: options become flags in game.cli.options, from the schema the logic declares).
ABOVE_THE_LOGIC = {"argparse"}

PROBE = """
import importlib, json, pkgutil, sys
import game.logic
names = ["game.logic"]
for info in pkgutil.walk_packages(game.logic.__path__, "game.logic."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({"imported": names, "loaded": sorted(sys.modules)}))
"""


def test_logic_modules_load_no_forbidden_module() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    expected = {"game.logic." + path.stem for path in LOGIC.glob("*.py") if path.stem != "__init__"}
    assert expected <= set(report["imported"])
    assert {"game.logic.search", "game.logic.river.game"} <= set(report["imported"])
    bad = [
        name
        for name in report["loaded"]
        if any(name == prefix or name.startswith(prefix + ".") for prefix in FORBIDDEN)
    ]
    assert bad == []


def test_logic_sources_import_only_the_standard_library() -> None:
    """A static check too, so an import hidden in a function is caught; the command line's
    parser is not the logic's either."""
    allowed = (set(sys.stdlib_module_names) - ABOVE_THE_LOGIC) | ALLOWED_THIRD_PARTY
    offences = []
    for path in sorted(LOGIC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue  # relative imports stay inside the package
            for name in names:
                top = name.split(".")[0]
                inside = name == "game.logic" or name.startswith("game.logic.")
                if not inside and top not in allowed:
                    offences.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert offences == []
