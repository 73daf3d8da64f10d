"""Won draughts endings the default computer must convert, not draw: two kings against a king
in the double corner, three kings against two, two kings against a king and a man.

``master`` plays the side ahead, bounded by positions; the plain alpha-beta defends with a
smaller budget, its ties broken by a seeded generator. Both are deterministic, so each game
is the same on every run and machine. Before the search counted a repeat as a draw and the
evaluation knew the double corner for a refuge, master shuffled its kings in these endings
and drew by the quiet-move rule, or took three times as long to win.

Master plays on both searches: the Python one and the compiled one (which must see the game's
earlier positions to avoid a repetition it would draw by, and the quiet moves left). The
compiled one plays with GAMEHALL_DEEP_CHECKS=1: its English draughts search module costs some
20 CPU seconds cold, and CI checks the compiled search on breakthrough
(tests/test_rules_compiled_search.py)."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import available
from game.logic.rules.compiled.searcher import searcher_for
from game.logic.rules.levels import COMPILED_SEARCH_ENV
from game.logic.rules.state import RulesGame, RulesState
from tests.deep import sized

#: Plies (both sides' moves) the side ahead is given to win: half the description's
#: quiet-move limit (80), so a win found by luck near the draw does not pass.
PLIES: int = 40


def play_out(position: str, nodes: int, defender_nodes: int) -> tuple[RulesState, int, int]:
    """Master (to move in ``position``) against alpha-beta until the game ends or
    :data:`PLIES` pass; the last state, the side ahead and the plies played."""
    state = RulesGame(rulebook("english-draughts"), {"position": position}).initial_state(
        random.Random(0)
    )
    assert isinstance(state, RulesState)
    strong = state.current_player()
    agents = {strong: make_agent("master"), 1 - strong: make_agent("alphabeta")}
    plies = 0
    while not state.is_terminal() and plies < PLIES:
        player = state.current_player()
        limits = Limits(nodes=nodes if player == strong else defender_nodes)
        state = state.apply(agents[player].choose(state, limits, random.Random(plies), Stop()))
        plies += 1
    return state, strong, plies


@pytest.fixture(params=sized(["python"], ["python", "compiled"]))
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which search master plays on (the compiled one built here: English's rules and search
    compile in some 20 CPU seconds when not cached)."""
    if request.param == "compiled":
        design = rulebook("english-draughts").design
        assert available(design, wait=True) is not None, "English draughts compiles"
        assert searcher_for(design) is not None, "its search compiles"
    monkeypatch.setenv(COMPILED_SEARCH_ENV, "1" if request.param == "compiled" else "0")
    return str(request.param)


@pytest.mark.deep
@pytest.mark.parametrize(
    ("position", "nodes", "defender"),
    [
        # Two kings against a king in the double corner (1-5): it must be driven out.
        ("W:WK18,K19:BK1", 2000, 500),
        # Three kings against two, both in the double corner.
        ("W:WK14,K23,K27:BK1,K5", 2000, 500),
        # Two kings against a king in the double corner and a man on the edge.
        ("W:WK15,K27:BK1,12", 3000, 1000),
    ],
)
def test_master_wins_the_won_draughts_ending(
    search: str, position: str, nodes: int, defender: int
) -> None:
    state, strong, plies = play_out(position, nodes, defender)
    assert state.is_terminal(), f"{search}: not won after {plies} plies: {state.text()}"
    returns = state.returns()
    assert returns[strong] > returns[1 - strong], (state.outcome(), state.text())


def test_refuges_are_the_double_corners() -> None:
    """Found from the board's links, not named: on the English board the two double corners
    (1 and 5, 28 and 32); the single corners (4, 29) and the other edge squares are not."""
    from game.logic.rules.evaluation import Judge

    e = rulebook("english-draughts")
    names = e.design.board.names
    assert sorted(int(names[p]) for p in Judge(e).refuges) == [1, 5, 28, 32]
