"""Described games: perft at the deeper ("nightly") depths, each checked against its
published count. Prints one line per case and ``failures=N`` last (exit status 1 if any).

    .venv/bin/python benchmarks/rules_perft.py           # the nightly set (about 10 minutes)
    .venv/bin/python benchmarks/rules_perft.py --only othello
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.notation import read_position  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
NIGHTLY = [
    ("chess", "", 5, 4_865_609),
    ("chess", KIWIPETE, 4, 4_085_603),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, 674_624),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422_333),
    ("chess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2_103_487),
    ("english-draughts", "", 10, 18_391_564),
    ("russian-draughts", "", 9, 4_570_586),
    ("international-draughts", "", 8, 6_483_961),
    ("international-draughts", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,"
     "37,38", 8, 6_269),
    ("pool-checkers", "", 9, 4_570_534),
    ("czech-draughts", "", 9, 3_963_671),
    ("czech-draughts", "", 10, 18_368_918),
    ("othello", "", 9, 3_005_288),
    ("surakarta", "", 5, 2_572_484),
    ("breakthrough", "", 4, 256_036),
    ("xiangqi", "", 4, 3_290_240),
    ("xiangqi", "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w", 5, 933_096),
    ("lines-of-action", "", 4, 1_563_208),
    ("italian-draughts", "", 6, 36_473),  # pydraughts 0.6.7 (tools/italian_reference.py)
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one game's cases")
    args = parser.parse_args()
    failures = 0
    for game, position, depth, want in NIGHTLY:
        if args.only and game != args.only:
            continue
        e = rulebook(game)
        pos = read_position(e, position) if position else e.start()
        started = time.perf_counter()
        got = e.perft(pos, depth)
        seconds = time.perf_counter() - started
        ok = got == want
        failures += not ok
        where = "start" if not position else position.split()[0][:16]
        print(
            f"game={game} position={where} depth={depth} nodes={got} want={want} "
            f"{'ok' if ok else 'WRONG'} seconds={seconds:.1f}",
            flush=True,
        )
    print(f"failures={failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
