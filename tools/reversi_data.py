"""Make labelled Reversi positions for fitting the pattern evaluation, reproducibly from a seed.

    python tools/reversi_data.py --games 8000 --seed 1 --out reversi_positions.npz

Each game starts with 2 to 20 random plies (positions before the last random ply are not
kept); from there our midgame search (:func:`game.logic.reversi.search.search`, today's feature
evaluation, ``--depth`` plies, no solver) plays both sides until ``--exact`` empty squares are
left. Every position with ``--exact`` or fewer empties is solved exactly
(:func:`game.logic.reversi.solver.solve`) and labelled with its exact score; the game goes on with
a best move (or, with probability ``--wander``, a random legal one, so that the endgame positions
are varied). Every kept position before that is labelled with the exact score of the first
solved position, seen from its own side to move: the result of the search's play from there,
finished perfectly. Nothing is downloaded; the same seed and arguments give the same file.

The ``.npz`` holds ``mine``, ``theirs`` (``uint64`` bitboards, side to move first), ``score``
(``int8``, final disc difference for the side to move), ``exact`` (``bool``: solved, rather than
labelled from the game's continuation), ``game`` (``int32``) and the arguments used (``seed``,
``games``, ``depth``, ``exact_empties``, ``wander``, ``patterns``). With ``--patterns`` the
midgame search plays with the shipped pattern evaluation instead (the second round of data: the
weights are fitted on both rounds).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.logic.reversi.board import PASS, Position  # noqa: E402
from game.logic.reversi.patterns import load_weights  # noqa: E402
from game.logic.reversi.search import TranspositionTable, search  # noqa: E402
from game.logic.reversi.solver import solve  # noqa: E402

Row = tuple[int, int, int, bool]


def play_game(
    rng: random.Random,
    depth: int,
    exact_empties: int,
    wander: float,
    table: TranspositionTable,
    weights: np.ndarray[Any, Any] | None = None,
) -> list[Row]:
    """One game: ``(mine, theirs, score for mine, exact)`` for every kept position.

    ``weights``: the search's evaluation (None: the feature evaluation)."""
    position = Position.start()
    random_plies = rng.randint(2, 20)
    ply = 0
    pending: list[tuple[int, int, int]] = []  # mine, theirs, player number of the side to move
    rows: list[Row] = []
    backed_up = False
    while not position.is_terminal():
        moves = position.legal_moves()
        if moves == [PASS]:
            position = position.apply(PASS)
            continue
        if position.empties <= exact_empties:
            solution = solve(position)
            score = int(solution.score)
            rows.append((position.mine, position.theirs, score, True))
            if not backed_up:
                rows.extend(_back_up(pending, position.to_move.player, score))
                backed_up = True
            if rng.random() < wander or not solution.best:
                move = rng.choice(moves)
            else:
                move = solution.best[0]
        elif ply < random_plies:
            move = rng.choice(moves)
        else:
            pending.append((position.mine, position.theirs, position.to_move.player))
            move = search(position, depth=depth, exact_empties=0, table=table, weights=weights).move
        position = position.apply(move)
        ply += 1
    if not backed_up:  # the game ended before the solver was reached
        final = position.score()  # black's disc difference
        rows.extend((m, t, final if side == 0 else -final, False) for m, t, side in pending)
    return rows


def generate(
    games: int,
    seed: int,
    depth: int,
    exact_empties: int,
    wander: float,
    progress: bool = False,
    patterns: bool = False,
) -> dict[str, np.ndarray[Any, Any]]:
    """Play ``games`` games from ``seed`` and return the arrays of the ``.npz``.

    ``patterns``: the midgame search uses the shipped pattern evaluation instead of the
    feature one (a second round of data, played by the first round's weights)."""
    weights = load_weights() if patterns else None
    rng = random.Random(seed)
    table = TranspositionTable(1 << 16)
    mine: list[int] = []
    theirs: list[int] = []
    score: list[int] = []
    exact: list[bool] = []
    game: list[int] = []
    started = time.perf_counter()
    for g in range(games):
        table.clear()  # each game depends on the seed alone, not on the games before it
        for m, t, s, e in play_game(rng, depth, exact_empties, wander, table, weights):
            mine.append(m)
            theirs.append(t)
            score.append(s)
            exact.append(e)
            game.append(g)
        if progress and (g + 1) % 50 == 0:
            elapsed = time.perf_counter() - started
            print(
                f"\r{g + 1}/{games} games, {len(mine)} positions, {elapsed:.0f} s",
                end="",
                file=sys.stderr,
                flush=True,
            )
    if progress:
        print(file=sys.stderr)
    return {
        "mine": np.array(mine, dtype=np.uint64),
        "theirs": np.array(theirs, dtype=np.uint64),
        "score": np.array(score, dtype=np.int8),
        "exact": np.array(exact, dtype=bool),
        "game": np.array(game, dtype=np.int32),
        "seed": np.array(seed),
        "games": np.array(games),
        "depth": np.array(depth),
        "exact_empties": np.array(exact_empties),
        "wander": np.array(wander),
        "patterns": np.array(patterns),
    }


def _back_up(pending: list[tuple[int, int, int]], side: int, score: int) -> list[Row]:
    """Label the positions before the first solved one with its score, from their side."""
    return [(m, t, score if s == side else -score, False) for m, t, s in pending]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000, help="games to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random plies")
    parser.add_argument("--depth", type=int, default=4, help="plies of the midgame search")
    parser.add_argument("--exact", type=int, default=16, help="solve from this many empties")
    parser.add_argument("--wander", type=float, default=0.25, help="endgame random-move rate")
    parser.add_argument("--out", default="reversi_positions.npz", help="the .npz to write")
    parser.add_argument(
        "--patterns", action="store_true", help="play with the shipped pattern evaluation"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data = generate(
        args.games,
        args.seed,
        args.depth,
        args.exact,
        args.wander,
        progress=sys.stderr.isatty(),
        patterns=args.patterns,
    )
    np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    n = len(data["score"])
    print(
        f"data out={args.out} games={args.games} seed={args.seed} positions={n}"
        f" exact={int(data['exact'].sum())} seconds={time.perf_counter() - started:.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
