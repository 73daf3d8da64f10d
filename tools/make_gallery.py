"""Render the README's gallery: every main scene in a small window (800x600), mid-game.

Run ``python tools/make_gallery.py [NAME ...]`` after a visual change; it writes
``docs/gallery/*.png`` (only the NAMEs given, else all) with ``gamehall shot`` (headless), one
picture per line of :data:`SHOTS`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GALLERY = ROOT / "docs" / "gallery"
SIZE = "800x600"

#: (picture name, game, the commands played before the picture)
SHOTS: tuple[tuple[str, str, str], ...] = (
    ("menu", "menu", "group:Connection and alignment"),
    ("river", "river", "board:priest,board:devil,boat,hint"),
    ("reversi", "reversi", "f5,d6,c3,hint"),
    ("grab", "grab", "next,hint"),
    ("clue", "clue", ""),
    ("chess", "chess", "move:e2-e4,move:e7-e5,move:g1-f3,hint"),
    ("english-draughts", "english-draughts", "move:11-15,move:23-19,hint"),
    ("hex", "hex", "move:f6,move:e7,move:g5,move:d6"),
    ("kalah", "kalah", "move:s3,move:s6"),
)


def main(names: list[str]) -> int:
    unknown = set(names) - {name for name, _game, _do in SHOTS}
    if unknown:
        print(f"make_gallery: no picture named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    GALLERY.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name, game, commands in SHOTS:
        if names and name not in names:
            continue
        out = GALLERY / f"{name}.png"
        argv = [sys.executable, "-m", "game", "shot", game, "--size", SIZE, "--out", str(out)]
        if game == "grab":
            argv += ["--seed", "5"]
        if commands:
            argv += ["--do", commands]
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode:
            failed += 1
            print(f"{name}: {done.stderr.strip()}", file=sys.stderr)
        else:
            print(f"docs/gallery/{name}.png")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
