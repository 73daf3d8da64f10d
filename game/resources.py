"""Where the shipped assets (shaders, models, scenes, sounds) live.

In a source checkout they sit at the top of the repository; in an installed wheel they are the
data packages ``game.data.shaders``, ``game.data.models``, ``game.data.scenes`` and
``game.data.sounds``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

AssetKind = Literal["shaders", "models", "scenes", "sounds"]


def asset_dir(kind: AssetKind) -> Path:
    """Return the folder that holds the assets of one kind."""
    source = Path(__file__).resolve().parent.parent / kind
    if source.is_dir() and (source.parent / "pyproject.toml").is_file():
        return source
    return Path(__file__).resolve().parent / "data" / kind


def asset_path(kind: AssetKind, name: str) -> Path:
    """Return the path of one asset file; raise FileNotFoundError naming it when missing."""
    path = asset_dir(kind) / name
    if not path.is_file():
        raise FileNotFoundError(f"asset not found: {kind}/{name} (looked in {path.parent})")
    return path
