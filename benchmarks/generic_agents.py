"""The plain alpha-beta and UCT (MCTS) on described games: CPU seconds for a fixed amount of
work, the move chosen and what the agent says. Prints one line per case.

    .venv/bin/python benchmarks/generic_agents.py

Alpha-beta searches chess and English draughts from their starts (and Othello) to a fixed
depth; UCT runs a fixed number of playouts at tic-tac-toe and Hex (side 5). The work is the
same on every run (bounded by depth or playouts, never by the clock), so the seconds compare
two versions of the code on one machine; ``uct`` is the older name of ``mcts``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Limits, Stop, explain  # noqa: E402
from game.logic.rules.agents import make_agent  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.state import RulesGame  # noqa: E402

CASES = (
    ("chess", {}, "alphabeta", Limits(depth=3)),
    ("english-draughts", {}, "alphabeta", Limits(depth=6)),
    ("othello", {}, "alphabeta", Limits(depth=4)),
    ("tic-tac-toe", {}, "uct", Limits(nodes=3000)),
    ("hex", {"side": 5}, "uct", Limits(nodes=1000)),
)


def main() -> int:
    for game_id, values, name, limits in CASES:
        state = RulesGame(rulebook(game_id, values) if values else rulebook(game_id)).initial_state(
            random.Random(0)
        )
        agent = make_agent(name)
        started = time.process_time()
        move = agent.choose(state, limits, random.Random(0), Stop())
        took = time.process_time() - started
        print(
            f"game={game_id} agent={name} limits={limits} cpu_s={took:.2f} "
            f"move={state.action_text(move)!r} said={explain(agent)!r}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
