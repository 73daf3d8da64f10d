"""Cluedo: how often each detective wins against a table of ``article`` detectives.

    python benchmarks/clue.py                          # 2,000 games a cell (long)
    python benchmarks/clue.py --games 200 --jobs 2     # a quick look
    python benchmarks/clue.py --seats 3 --candidates full,exact-article

For every seat count and candidate it plays one candidate against N-1 opponents
(``--opponent``, default ``article``) with the shared tournament runner: seats rotated, the
same deals for every candidate (common random numbers). One line per cell::

    seats=3 candidate=full opponent=article games=2000 win_rate=0.590 ci95=... fair=0.333
        ratio=1.77 wrong_accusations=0 p_vs_exact_article=...

``wrong_certain`` counts the wrong ones made when the candidate's notebook was certain (it
must be 0; the rest were risky accusations).
``p_vs_exact_article`` is a one-sided two-proportion z-test that the candidate wins more
often than ``exact-article`` at the same table (so ``exact-article`` must be among the
candidates). ``wrong_accusations`` counts the candidate's accusations that were wrong.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game import registry  # noqa: E402
from game.logic.clue.notebook import Notebook  # noqa: E402
from game.logic.clue.rules import ActionKind  # noqa: E402
from game.logic.tournament import PlayedGame, run_tournament, wilson_interval  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="3,4,6")
    parser.add_argument("--candidates", default="exact-article,full")
    parser.add_argument("--opponent", default="article")
    args = parser.parse_args()
    entry = registry.get("clue")
    for seats in (int(s) for s in args.seats.split(",")):
        rates: dict[str, tuple[int, int]] = {}
        for candidate in args.candidates.split(","):
            agents = [candidate] + [args.opponent] * (seats - 1)
            started = time.perf_counter()
            result = run_tournament(
                entry, agents, args.games, options=entry.seat_options(agents)
                if entry.seat_options else None, seed=args.seed, jobs=args.jobs,
            )  # fmt: skip
            wins = sum(1 for g in result.games if candidate in g.winners)
            wrong_pairs = [_wrong_accusations(entry, g, candidate) for g in result.games]
            wrong_certain = sum(c for c, _ in wrong_pairs)
            wrong = sum(r for _, r in wrong_pairs) + wrong_certain
            games = len(result.games)
            rates[candidate] = (wins, games)
            low, high = wilson_interval(wins, games)
            line = (
                f"seats={seats} candidate={candidate} opponent={args.opponent} games={games} "
                f"win_rate={wins / games:.3f} ci95={low:.3f}-{high:.3f} fair={1 / seats:.3f} "
                f"ratio={wins / games * seats:.2f} wrong_accusations={wrong} "
                f"wrong_certain={wrong_certain} "
                f"seconds={time.perf_counter() - started:.0f}"
            )
            if "exact-article" in rates and candidate != "exact-article":
                line += (
                    f" p_vs_exact_article={_p_better((wins, games), rates['exact-article']):.2g}"
                )
            print(line, flush=True)
    return 0


def _wrong_accusations(entry: registry.Entry, record: PlayedGame, name: str) -> tuple[int, int]:
    """The wrong accusations the seats of agent ``name`` made, replaying the game: those made
    when its notebook was certain (a bug if any), and the risky ones."""
    game = entry.game(entry.seat_options(record.seats) if entry.seat_options else None)
    state = game.tournament_start(random.Random(record.seed))
    certain = risky = 0
    for text in record.actions:
        seat = state.current_player()
        action = state.parse_action(text)
        if action.kind is ActionKind.ACCUSE and seat >= 0 and record.seats[seat] == name:
            after = state.apply(action)
            if after.winner != seat:
                if Notebook.of(state.observation(seat)).solution() is not None:
                    certain += 1
                else:
                    risky += 1
        state = state.apply(action)
    return certain, risky


def _p_better(a: tuple[int, int], b: tuple[int, int]) -> float:
    """One-sided p-value that rate ``a`` exceeds rate ``b`` (pooled two-proportion z)."""
    (wa, na), (wb, nb) = a, b
    pooled = (wa + wb) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    if se == 0:
        return 1.0
    z = (wa / na - wb / nb) / se
    return 0.5 * math.erfc(z / math.sqrt(2))


if __name__ == "__main__":
    sys.exit(main())
