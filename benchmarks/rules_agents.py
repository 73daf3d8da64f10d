"""Described games: the agents' sanity gates. Prints one line per gate.

    .venv/bin/python benchmarks/rules_agents.py            # 100 games a gate (about 15 min)
    .venv/bin/python benchmarks/rules_agents.py --games 20

- alpha-beta at depth 2 against random in chess, English draughts and Othello: it should win
  at least 90 % (draws count as not won);
- UCT with 1,000 playouts a move against random in tic-tac-toe: it should never lose;
- the default level's simulated games a second at Hex (side 11), from the start and from a
  position 20 stones in, with what its hint says.

Colours alternate; every game starts from the game's start and is seeded. The default level
against the plain alpha-beta (the default before the levels) is a tournament, one a game
(chess, english-draughts, othello); it should win at least 80 % (draws count as not won):

    gamehall tournament chess --agents master,alphabeta --games 100 --time 1 --seed 1

Its openings are two random plies from the seed, each played from both sides; a game ends by
the description's own rules (mate, stalemate, repetition, the fifty-move or quiet-move rule,
too little material), or at 1,000 moves, where it counts as a draw (``capped=`` says how
many).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import CHANCE, Limits, Stop, sample_chance  # noqa: E402
from game.logic.rules.agents import make_agent  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.state import RulesGame  # noqa: E402

PLY_CAP = 600


def play(
    game_id: str, agent: str, limits: Limits, games: int, cap: int = PLY_CAP, first: int = 0
) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``agent`` against random over ``games`` seeded games, the
    games numbered from ``first`` on (each number seeds its game, chance's outcomes in it, and
    picks the agent's seat, ``number`` modulo the seats, every other seat random); a game
    still going after ``cap`` actions is a draw."""
    game = RulesGame(rulebook(game_id))
    results = [0, 0, 0]
    for number in range(first, first + games):
        rng = random.Random(number)
        seat = number % game.seats
        players = [make_agent(agent if s == seat else "random") for s in range(game.seats)]
        state = game.initial_state(rng)
        for _ in range(cap):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            mover = players[state.current_player()]
            state = state.apply(mover.choose(state, limits, rng, Stop()))
        score = state.returns()[seat] if state.is_terminal() else 0.0
        results[0 if score > 0 else 1 if score == 0 else 2] += 1
    return results[0], results[1], results[2]


def hex_speed(seconds: float) -> str:
    """The default level's simulated games a second at Hex, side 11."""
    game = RulesGame(rulebook("hex"))
    rng = random.Random(5)
    lines = []
    for stones in (0, 20):
        state = game.initial_state(rng)
        for _ in range(stones):
            state = state.apply(rng.choice(list(state.legal_actions())))
        agent = make_agent("master")
        started = time.perf_counter()
        move = agent.choose(state, Limits(time=seconds), random.Random(0), Stop())
        took = time.perf_counter() - started
        games = agent.details()["games"]  # type: ignore[union-attr]
        lines.append(
            f"game=hex agent=master stones={stones} seconds={took:.2f} games={games} "
            f"playouts_per_s={games / took:.0f} hint={state.action_text(move)!r} "
            f"said={agent.explain()!r}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a gate (default 100)")
    parser.add_argument("--hex-only", action="store_true", help="only the Hex speed lines")
    args = parser.parse_args()
    print(hex_speed(2.0), flush=True)
    if args.hex_only:
        return
    gates = [
        ("chess", "alphabeta", Limits(depth=2), "win_rate>=0.90"),
        ("english-draughts", "alphabeta", Limits(depth=2), "win_rate>=0.90"),
        ("othello", "alphabeta", Limits(depth=2), "win_rate>=0.90"),
        ("tic-tac-toe", "uct", Limits(nodes=1000), "losses=0"),
    ]
    for game_id, agent, limits, target in gates:
        started = time.perf_counter()
        wins, draws, losses = play(game_id, agent, limits, args.games)
        print(
            f"game={game_id} agent={agent} against=random games={args.games} wins={wins} "
            f"draws={draws} losses={losses} win_rate={wins / args.games:.2f} target={target} "
            f"seconds={time.perf_counter() - started:.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
