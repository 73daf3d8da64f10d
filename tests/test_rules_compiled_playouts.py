"""The compiled random playouts (game/logic/rules/compiled/playout.py) and the connection
games' tree search on them (compiled/fill_search.py), against the Python back end: each
playout's moves replayed in Python are legal, the game goes on until the last of them and has
ended after it with the winner the kernel gives; seeded runs repeat; Hex filled at random wins
as often for each side as Hex played move by move; the tree search finds a one-move win.
Breakthrough in CI; Hex on side 5 (its rules and tree search, some 20 CPU seconds to compile
cold) with GAMEHALL_DEEP_CHECKS=1."""

from __future__ import annotations

import random

import numpy as np
import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules import connect
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import CompiledRules, available
from game.logic.rules.compiled.fill_search import FillSearch
from game.logic.rules.compiled.playout import fill_shape
from game.logic.rules.notation import read_position
from game.logic.rules.rulebook import Move, Rulebook
from game.logic.rules.state import RulesGame, RulesState
from tests.deep import DEEP

HEX5 = {"side": 5}


def _compiled(e: Rulebook) -> CompiledRules:
    """The game's compiled back end, built (or loaded) once for every test here."""
    rules = available(e.design, wait=True)
    assert rules is not None
    return rules


def _replay(e: Rulebook, rows: list[tuple[int, ...]]) -> tuple[str | None, tuple[float, ...]]:
    """The kernel's rows played in Python from the start, each matched to the one legal
    move with the same ends, program and changes while the game has not ended; the outcome
    after the last and each player's result."""
    pos = e.start()
    for row in rows:
        moves = e.legal(pos)
        assert e.outcome(pos, moves) is None
        same = [m for m in moves if _row_of(m) == row]
        assert len(same) == 1, (row, [_row_of(m) for m in moves][:5])
        e.make(pos, same[0])
    outcome = e.outcome(pos, e.legal(pos))
    return outcome, e.returns(pos, outcome)


def _row_of(m: Move) -> tuple[int, ...]:
    path, captures, changes, program = m[0], m[1], m[2], m[3]
    start = path[0] if len(path) > 1 else -1
    pairs = [x for pair in changes for x in pair]
    return (start, path[-1], program, len(captures), len(changes), *pairs)


def test_compiled_playouts_end_where_python_says_the_game_ended() -> None:
    """Breakthrough move by move."""
    e = rulebook("breakthrough")
    rules = _compiled(e)
    for seed in range(3):
        rows, winner = rules.playout(e.start(), seed, 1000)
        outcome, results = _replay(e, rows)
        assert outcome == "win" and winner == -1  # the kernel leaves the winner to the ends
        assert results[e.design.turn_order[(len(rows) - 1) % 2]] == 1.0  # the last mover won


def test_seeded_playouts_repeat() -> None:
    e = rulebook("breakthrough")
    rules = _compiled(e)
    assert rules.playouts(e.start(), 200, 7, 1000) == rules.playouts(e.start(), 200, 7, 1000)
    assert rules.playout(e.start(), 3, 1000) == rules.playout(e.start(), 3, 1000)
    assert rules.playout(e.start(), 3, 1000) != rules.playout(e.start(), 4, 1000)


if DEEP:  # Hex's compile (see the module docstring)

    @pytest.mark.deep
    def test_filled_hex_playouts_end_where_python_says_with_their_winner() -> None:
        e = rulebook("hex", HEX5)
        rules = _compiled(e)
        for seed in range(4):
            rows, winner = rules.playout(e.start(), seed, 1000, fill=True)
            outcome, results = _replay(e, rows)
            assert outcome == "win" and results[winner] == 1.0

    @pytest.mark.deep
    def test_filling_hex_wins_as_often_as_playing_it_move_by_move() -> None:
        """Side 5 from a position: Red's share of the games won by the kernel that fills the
        board, and by the one that plays move by move (the last mover wins), 1,500 games each."""
        e = rulebook("hex", HEX5)
        rules = _compiled(e)
        m = rules.module
        assert m.FILL and fill_shape(rulebook("breakthrough").design, []) is None
        pos = read_position(e, "Red: stone c2 / Blue: stone b3 d2 / Red to move")
        games = 1500
        _plies, wins = rules.playouts(pos, games, 11, 1000)
        assert sum(wins) == games  # a full Hex board always has a winner
        m.seed(12)
        red = 0
        record = np.zeros((0, 1), dtype=np.int64)
        for _ in range(games):
            st = rules.state(pos)
            n = m.playout(
                rules.board(pos), st, 1000, rules.rows, rules.cs, rules.es, rules.undo, record
            )
            red += n % 2  # Red moves first: an odd number of plies is Red's last stone
        assert abs(wins[0] / games - red / games) < 0.06, (wins, red)

    @pytest.mark.deep
    def test_the_compiled_tree_search_finds_a_one_move_win() -> None:
        """Without the level's look for a joining stone first: Red joins rows 1 and 5 with b5 or
        c5 (the search's games after either are all won); the same games whatever room the tree's
        arrays start with."""
        e = rulebook("hex", HEX5)
        rules = _compiled(e)
        pos = read_position(e, "Red: stone c1 c2 c3 c4 / Blue: stone a2 e1 e4 d5 / Red to move")
        cells = [p for p in range(e.n) if not pos.board[p]]
        roots = []
        for room in (1, 1 << 16):  # arrays grown from the least, or room enough from the start
            rules.module.seed(5)
            search = FillSearch(
                rules.module, rules.board(pos), rules.state(pos), cells, (0.1, 1e3, 0.0), room=room
            )
            assert search.run(600, None, Stop()) == 600
            roots.append(search.root())
        (visits, wins), (same_visits, same_wins) = roots
        assert (visits == same_visits).all() and (wins == same_wins).all()
        best = int(np.argmax(visits))
        assert e.design.board.names[cells[best]] in {"b5", "c5"}
        joining = [i for i, p in enumerate(cells) if e.design.board.names[p] in {"b5", "c5"}]
        assert wins[best] == visits[best] and visits[joining].sum() > 300

    @pytest.mark.deep
    def test_the_hex_level_plays_on_the_compiled_search(monkeypatch: pytest.MonkeyPatch) -> None:
        """The computer's level in Hex (side 5) runs its games in the compiled search: as many
        as its budget, the same move and words each time."""
        searched = []

        class Counted(FillSearch):
            def run(self, games: int | None, deadline: float | None, stop: Stop | None) -> int:
                searched.append(games)
                return super().run(games, deadline, stop)

        monkeypatch.setattr(connect, "FillSearch", Counted)
        e = rulebook("hex", HEX5)
        _compiled(e)  # built before the level asks (a level does not wait for a compile)
        start = RulesGame(e, {"position": "Red: stone c3 / Blue: stone b4 / Red to move"})
        state = start.initial_state(random.Random(0))
        assert isinstance(state, RulesState)
        said = set()
        for _ in range(2):
            agent = make_agent(e.design.computer)
            move = agent.choose(state, Limits(nodes=3000), random.Random(0), Stop())
            said.add((state.action_text(move), agent.explain()))
            assert agent.details()["games"] == 3000
        assert len(said) == 1 and searched == [3000, 3000]
