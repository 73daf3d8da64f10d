"""Issue 29's strength runs: the default level on the compiled search against today's (the same
level on the Python search, :mod:`game.logic.rules.search`), against a random mover and, for
chess, against Stockfish at its lowest skill. Each pairing plays seeded openings (a few random
plies), each opening twice with the colours swapped; a game that runs past ``--plies`` is a
draw. Prints each game's result and the score (a win 1, a draw 1/2) of the new level.

    .venv/bin/python benchmarks/compiled_strength.py --game breakthrough --games 20 --time 0.3
    .venv/bin/python benchmarks/compiled_strength.py --game chess --games 100 --time 1   # issue
    .venv/bin/python benchmarks/compiled_strength.py --game chess --stockfish --games 10

``--nodes N`` bounds the new level by positions instead of time (the old one keeps the time).
Stockfish (Debian's ``stockfish``, found on PATH or given with ``--engine``) is spoken to in
UCI over a pipe, ``Skill Level`` 0, the same time a move.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Limits, Stop  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.compiled.build import available  # noqa: E402
from game.logic.rules.compiled.searcher import searcher_for  # noqa: E402
from game.logic.rules.levels import LEVELS, LevelAgent  # noqa: E402
from game.logic.rules.notation import coordinate_text  # noqa: E402
from game.logic.rules.position import Move  # noqa: E402
from game.logic.rules.state import RulesGame, RulesState  # noqa: E402


def opening(game: RulesGame, seed: int, plies: int) -> RulesState:
    rng = random.Random(seed)
    state = game.initial_state(random.Random(seed))
    assert isinstance(state, RulesState)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
    return state


class RandomMover:
    name = "random"

    def choose(self, state: RulesState, limits: Limits, rng: random.Random, stop: Stop) -> Any:
        return rng.choice(list(state.legal_actions()))


class Stockfish:
    """Stockfish over UCI at skill 0; the position is sent as the moves from the start."""

    name = "stockfish-0"

    def __init__(self, engine: str, seconds: float) -> None:
        self.proc = subprocess.Popen(
            [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.ms = max(1, int(seconds * 1000))
        #: the game's moves so far, in UCI text (set by :func:`play` before each choice)
        self.line: list[str] = []
        self.send("uci", "uciok")
        self.send("setoption name Skill Level value 0")
        self.send("isready", "readyok")

    def send(self, line: str, until: str | None = None) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        if until is None:
            return ""
        while True:
            got = self.proc.stdout.readline()
            if not got:
                raise RuntimeError("stockfish stopped")
            if got.startswith(until):
                return got.strip()

    def choose(self, state: RulesState, limits: Limits, rng: random.Random, stop: Stop) -> Any:
        self.send("position startpos moves " + " ".join(self.line))
        answer = self.send(f"go movetime {self.ms}", "bestmove").split()[1]
        for move in state.legal_actions():
            if uci(state, move) == answer:
                return move
        raise RuntimeError(f"stockfish's {answer} is not legal here")

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=5)


def uci(state: RulesState, move: Move) -> str:
    """A chess move as python-chess writes it (from, to, the piece a pawn becomes)."""
    return coordinate_text(state.rulebook, state.pos, move)


def play(
    start: RulesState,
    agents: list[Any],
    limits: list[Limits],
    max_plies: int,
    seed: int,
    line: list[str],
    moves: list[str],
) -> float:
    """The first player's result (1, 1/2, 0) of a game from ``start`` (reached by ``line``
    in chess); ``moves`` gets the game's moves as text."""
    state = start
    rng = random.Random(seed)
    moves.clear()
    for _ in range(max_plies):
        if state.is_terminal():
            break
        seat = state.current_player()
        if isinstance(agents[seat], Stockfish):
            agents[seat].line = line
        move = agents[seat].choose(state, limits[seat], rng, Stop())
        moves.append(state.describe(move))
        if state.rulebook.design.id == "chess":
            line = [*line, uci(state, move)]
        state = state.apply(move)
    if not state.is_terminal():
        return 0.5
    first = state.returns()[0]
    return 1.0 if first > 0 else (0.0 if first < 0 else 0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="breakthrough")
    parser.add_argument("--games", type=int, default=10, help="games per opponent (even)")
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move")
    parser.add_argument("--nodes", type=int, help="positions a move for the new level")
    parser.add_argument("--opening", type=int, default=4, help="random plies to start")
    parser.add_argument("--plies", type=int, default=300, help="plies before a draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the games not won")
    parser.add_argument("--against", default="python,random", help="python, random")
    parser.add_argument("--stockfish", action="store_true", help="chess: against Stockfish 0")
    parser.add_argument("--engine", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    e = rulebook(args.game)
    game = RulesGame(e, {})
    made = time.perf_counter()
    if available(e.design, wait=True) is None or searcher_for(e.design) is None:
        sys.exit(f"{args.game} has no compiled search: {e.design.id} stays on Python")
    print(f"# {args.game}: compiled search ready in {time.perf_counter() - made:.1f} s")
    new = LevelAgent(LEVELS["master"])
    mine = Limits(nodes=args.nodes) if args.nodes else Limits(time=args.time)
    opponents: list[tuple[Any, Limits]] = []
    for name in args.against.split(","):
        if name == "python":
            opponents.append((LevelAgent(LEVELS["master"], compiled=False), Limits(time=args.time)))
        elif name == "random":
            opponents.append((RandomMover(), Limits()))
    if args.stockfish:
        opponents = [(Stockfish(args.engine, args.time), Limits())]
    for other, theirs in opponents:
        label = "python" if isinstance(other, LevelAgent) else other.name
        score = 0.0
        played = 0
        wins = draws = 0
        started = time.perf_counter()
        for k in range(args.games):
            seed = args.seed * 1000 + k // 2
            start = opening(game, seed, args.opening)
            line = _uci_line(game, seed, args.opening) if args.game == "chess" else []
            new_first = k % 2 == 0
            agents = [new, other] if new_first else [other, new]
            limits = [mine, theirs] if new_first else [theirs, mine]
            played_moves: list[str] = []
            first = play(start, agents, limits, args.plies, seed, line, played_moves)
            result = first if new_first else 1.0 - first
            score += result
            played += 1
            wins += result == 1.0
            draws += result == 0.5
            side = e.design.players[0 if new_first else 1]
            print(f"game {k + 1}: opening {seed} new level as {side}: {result}", flush=True)
            if args.show and result < 1.0:
                print("  moves after the opening: " + " ".join(played_moves), flush=True)
        spent = time.perf_counter() - started
        print(
            f"{args.game} new level vs {label}: {score}/{played} ({100 * score / played:.0f}%), "
            f"{wins} won, {draws} drawn, {played - wins - draws} lost; "
            f"{args.time} s a move{f', new level {args.nodes} nodes' if args.nodes else ''}; "
            f"{spent:.0f} s"
        )
        if isinstance(other, Stockfish):
            other.close()


def _uci_line(game: RulesGame, seed: int, plies: int) -> list[str]:
    """The opening's moves in UCI text, replayed as :func:`opening` draws them."""
    rng = random.Random(seed)
    state = game.initial_state(random.Random(seed))
    assert isinstance(state, RulesState)
    out = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(list(state.legal_actions()))
        out.append(uci(state, move))
        state = state.apply(move)
    return out


if __name__ == "__main__":
    main()
