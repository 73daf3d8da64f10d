"""The wheel ``pip install .`` builds holds every file the game reads, and building it warns
of nothing: setuptools warns that a folder of data it does not know as a package "would be
ignored" (it still ships it today, and has said it will stop)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.waiting import HANG_S

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
#: What the build reads: the project file, the README (the long description), the code and
#: the asset folders that ship as game.data.* (pyproject's package-dir).
SOURCES = ("pyproject.toml", "README.md", "game", *PROJECT["package-dir"].values())

BUILD = """
import sys
from setuptools import build_meta
print(build_meta.build_wheel(sys.argv[1]))
"""


def _files(folder: Path) -> list[Path]:
    return [
        p
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".nbi", ".nbc")
    ]


def _folder(package: str) -> str:
    """Where ``package``'s files are in the checkout: under the package-dir of its longest
    prefix there (game.data.scenes.cards: scenes/cards), else its own path."""
    parts = package.split(".")
    for n in range(len(parts), 0, -1):
        mapped = PROJECT["package-dir"].get(".".join(parts[:n]))
        if mapped is not None:
            return "/".join([mapped, *parts[n:]])
    return "/".join(parts)


def test_the_wheel_holds_every_file_of_the_game_and_builds_without_warnings(tmp_path):
    # Built from a copy: setuptools writes build/ and *.egg-info beside the sources.
    source = tmp_path / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            skip = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / name, source / name, ignore=skip)
        else:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path / "dist"
    out.mkdir()
    r = subprocess.run(
        [sys.executable, "-W", "default", "-c", BUILD, str(out)],
        cwd=source, capture_output=True, text=True, timeout=HANG_S, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    log = r.stdout + r.stderr
    assert "would be ignored" not in log, log[log.find("would be ignored") - 2000 :][:3000]
    wheel = out / r.stdout.strip().splitlines()[-1]
    held = set(zipfile.ZipFile(wheel).namelist())

    expected = {p.relative_to(ROOT).as_posix() for p in _files(ROOT / "game")}
    for package, patterns in PROJECT["package-data"].items():
        target = package.replace(".", "/")
        folder = ROOT / _folder(package)
        for pattern in patterns:
            found = folder.glob(pattern)
            expected |= {f"{target}/{p.relative_to(folder).as_posix()}" for p in found}
    missing = sorted(expected - held)
    assert missing == [], f"{len(missing)} files are not in the wheel: {missing[:20]}"
    # The files the code reads through importlib.resources, named outright.
    for name in (
        "game/logic/reversi/data/patterns.npz",
        "game/logic/reversi/data/probcut.npz",
        "game/logic/rules/games/chess.txt",
        "game/logic/clue/decks.toml",
        "game/data/scenes/river.toml",
        "game/data/scenes/cards/chess.png",
        "game/py.typed",
    ):
        assert name in held, name
