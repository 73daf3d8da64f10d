"""MasterGrab: map generation, robot and game speed, and (optionally) the strategic robot's
strength against three basic robots and one against one.

    python benchmarks/grab.py                        # speed lines only (about half a minute)
    python benchmarks/grab.py --strength             # + 200 games strategic vs 3 basic
    python benchmarks/grab.py --strength --games 40 --jobs 2 --seed 1
    python benchmarks/grab.py --one-on-one --games 400 --seed 7   # strategic vs basic

Prints, one line per figure (the speed lines are
:func:`game.logic.grab.bench.speed_lines`, which ``gamehall bench grab`` prints too)::

    mapgen countries=140 size=1280x720 seconds=...     (target <= 0.3)
    mapgen countries=1000 size=3840x2160 seconds=...   (target <= 3)
    robot=basic countries=140 median_ms=...            (target <= 5)
    robot=strategic countries=140 median_ms=...        (target <= 20)
    game robots=4 countries=140 seconds=... rounds=... (target <= 2)

and with ``--strength`` the tournament lines, ``winrates=strategic:0.xx,basic:0.xx`` last
(target: strategic >= 0.50; par is 0.25), and with ``--one-on-one`` the same lines for
strategic against one basic robot (target: strategic >= 0.60; par is 0.50). Progress goes to
stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game import registry  # noqa: E402
from game.logic.grab.bench import speed_lines  # noqa: E402
from game.logic.grab.tournament import DUEL_ROBOTS, strength_tournament  # noqa: E402
from game.logic.tournament import PlayedGame  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strength", action="store_true", help="also play the tournament")
    parser.add_argument(
        "--one-on-one", action="store_true", help="also play strategic against one basic robot"
    )
    parser.add_argument("--games", type=int, default=200, help="tournament games (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the tournament")
    parser.add_argument("--seed", type=int, default=0, help="seed of the maps")
    args = parser.parse_args(argv)
    tty = sys.stderr.isatty()

    def progress(done: int, total: int, record: PlayedGame) -> None:
        if tty:
            print(
                f"\r{done}/{total} games, last won by {','.join(record.winners) or 'nobody'}"
                f" in {record.steps} moves   ",
                end="" if done < total else "\n",
                file=sys.stderr,
                flush=True,
            )

    for line in speed_lines(args.seed):
        print(line, flush=True)
    if args.strength:
        result = strength_tournament(
            registry.get("grab"), args.games, jobs=args.jobs, seed=args.seed, progress=progress
        )
        for line in result.lines():
            print(line, flush=True)
    if args.one_on_one:
        result = strength_tournament(
            registry.get("grab"),
            args.games,
            jobs=args.jobs,
            seed=args.seed,
            progress=progress,
            robots=DUEL_ROBOTS,
        )
        for line in result.lines():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
