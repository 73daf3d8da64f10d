"""The compiled search (game/logic/rules/compiled/search.py and its driver) on breakthrough,
which compiles in seconds: its hash kept change by change equals the hash from scratch, its
score equals a plain negamax (with the same quiescence) over the same evaluation, it finds a
forced win and stops the one loss, and a level that plays on it says how deep it looked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import available
from game.logic.rules.compiled.search import QUIESCENCE_PLIES
from game.logic.rules.compiled.searcher import CompiledSearch, move_key, searcher_for
from game.logic.rules.levels import COMPILED_SEARCH_ENV, level_agent
from game.logic.rules.position import DescribedPosition
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.search import WIN
from game.logic.rules.state import RulesGame, RulesState

GAME = "breakthrough"


@pytest.fixture(scope="module")
def engine() -> tuple[Rulebook, CompiledSearch]:
    e = rulebook(GAME)
    assert available(e.design, wait=True) is not None, "breakthrough's rules compile"
    search = searcher_for(e.design)
    assert search is not None, "breakthrough's search compiles"
    return e, search


def random_positions(
    e: Rulebook, count: int, seed: int, plies: tuple[int, int] = (2, 40)
) -> list[DescribedPosition]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = e.start()
        for _ in range(rng.randrange(*plies)):
            moves = e.legal(pos)
            if e.outcome(pos, moves) is not None:
                break
            e.make(pos, rng.choice(moves))
        if e.outcome(pos, e.legal(pos)) is None:
            out.append(pos)
    return out


def test_compiled_hash_kept_move_by_move_equals_the_hash_from_scratch(
    engine: tuple[Rulebook, CompiledSearch],
) -> None:
    e, search = engine
    m = search.module
    undo = search.undo[0]
    for pos in random_positions(e, 6, 1):
        b = search.rules.board(pos)
        start = b.copy()
        h = m.hash_of(b, pos.turn, pos.last_from, pos.last_to)
        rows = search.rules.legal_rows(pos)
        assert rows
        after = set()
        for row in rows:
            r = search.rows[0, 0]
            r[: len(row)] = row
            kept = m.apply_hashed(b, r, undo, h, pos.turn, pos.last_from, pos.last_to)
            assert kept == m.hash_of(b, m.NEXT[pos.turn], row[0], row[1])
            after.add(int(kept))
            m.unapply(b, r, undo)
            assert (b == start).all()
        assert len(after) == len(rows)  # every move leads somewhere else
        assert m.hash_of(b, pos.turn, pos.last_from, pos.last_to) == h


def test_compiled_evaluation_equals_the_judges_for_each_searching_side(
    engine: tuple[Rulebook, CompiledSearch],
) -> None:
    """Late positions too, where one side is ahead: the won ending's terms (trading down,
    hunting the enemy's pieces) and the searching side's kept pieces count as in the Judge."""
    from game.logic.rules.evaluation import Judge

    e, search = engine
    m = search.module
    judge = Judge(e)
    rng = random.Random(7)
    positions = random_positions(e, 6, 5, (10, 60))
    for pos in random_positions(e, 10, 6, (4, 20)):  # thinned: a few pieces a side, uneven
        for player, keep in ((0, rng.randrange(1, 7)), (1, rng.randrange(1, 4))):
            mine = [p for p, v in enumerate(pos.board) if v and e.c.owner[v] == player]
            for p in rng.sample(mine, max(0, len(mine) - keep)):
                pos.board[p] = 0
        if e.outcome(pos, e.legal(pos)) is None:
            positions.append(pos)
    ending = 0
    for pos in positions:
        moves = e.legal(pos)
        b = search.rules.board(pos)
        n = m.legal(b, pos.turn, pos.last_from, pos.last_to, search.rows[0], search.cs, search.es,
                    search.undo[0])  # fmt: skip
        assert n == len(moves)
        for keeper in (-1, 0, 1):
            scratch = (search.rows[1], search.cs, search.es)
            got = m.evaluate(b, pos.turn, pos.last_from, pos.last_to, n, *scratch, keeper)
            assert got == judge.evaluate(pos, moves, keeper), (keeper, pos.board)
        material = sum(int(m.EMAT[v]) for v in b)
        left = min(sum(int(m.EPHASE[v]) for v in b), m.ESTART)
        ending += m.ending(b, material, left, e.player(pos), n, -1) != 0
    assert ending >= 3, "the won ending's terms were met"


def negamax(
    search: CompiledSearch, b: Any, turn: int, lf: int, lt: int, depth: int, ply: int, root: int
) -> int:
    """The search's value by brute force: every move to ``depth``, then captures only
    (standing pat on the evaluation, judged for the searching side ``root``, unless every
    move captures) as the kernel does."""
    m = search.module
    out = search.rows[ply]
    n = m.legal(b, turn, lf, lt, out, search.cs, search.es, search.undo[ply])
    ended = m.end_result(b, turn, lf, lt, n)
    if ended == 1:
        return -(WIN - ply)
    if ended == 2:
        return WIN - ply
    assert ended == 0, "breakthrough ends by a win"
    rows = [out[i].copy() for i in range(n)]
    scratch = (search.cs, search.es)
    best = -WIN - 1
    if depth <= 0:
        if depth < -QUIESCENCE_PLIES:
            return int(m.evaluate(b, turn, lf, lt, n, search.rows[ply + 1], *scratch, root))
        if not all(r[3] > 0 for r in rows):
            best = int(m.evaluate(b, turn, lf, lt, n, search.rows[ply + 1], *scratch, root))
            rows = [r for r in rows if r[3] > 0]
    for row in rows:
        m.apply(b, row, search.undo[ply])
        value = -negamax(search, b, m.NEXT[turn], row[0], row[1], depth - 1, ply + 1, root)
        m.unapply(b, row, search.undo[ply])
        best = max(best, value)
    return best


@pytest.mark.parametrize("depth", [1, 2])
def test_compiled_search_scores_as_a_plain_negamax(
    engine: tuple[Rulebook, CompiledSearch], depth: int
) -> None:
    e, search = engine
    # Early positions: a few pawns in contact (a brute-force quiescence is exponential).
    for pos in random_positions(e, 3, 10 + depth, (6, 14)):
        found = search.run(pos, depth=depth)
        b = search.rules.board(pos)
        assert found.depth == depth
        root = e.player(pos)
        assert found.score == negamax(
            search, b, pos.turn, pos.last_from, pos.last_to, depth, 0, root
        )


def position(e: Rulebook, white: list[str], black: list[str], turn: int) -> DescribedPosition:
    pos = e.start()
    names = e.design.board.names
    pos.board = [0] * len(names)
    for player, squares in ((0, white), (1, black)):
        for name in squares:
            pos.board[names.index(name)] = e.c.code(player, 0)
    pos.turn = turn
    return pos


def test_compiled_search_finds_the_forced_win_and_stops_the_loss(
    engine: tuple[Rulebook, CompiledSearch],
) -> None:
    e, search = engine
    names = e.design.board.names
    # White walks e6-e7-e8 (or takes on the way): won in three plies, whatever Black does.
    win = position(e, ["e6", "a1"], ["h8", "h7"], 0)
    found = search.run(win, depth=4)
    assert found.score == WIN - 3
    assert names[found.row[1]] == "e7" or names[found.row[1]] in ("d7", "f7")
    assert len(found.pv) == 3
    # Black's pawn on d2 reaches row 1 next move unless taken: c1xd2 is the only move that
    # does not lose (the capture on g7 wins a pawn and the game).
    loss = position(e, ["c1", "f6", "a4"], ["d2", "g7", "h8"], 0)
    found = search.run(loss, depth=3)
    assert (names[found.row[0]], names[found.row[1]]) == ("c1", "d2")
    assert found.score > -WIN // 2


def test_compiled_level_moves_legally_and_tells_depth_positions_and_line(
    engine: tuple[Rulebook, CompiledSearch], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(COMPILED_SEARCH_ENV, "1")
    e, _search = engine
    state = RulesGame(e, {}).initial_state(random.Random(0))
    assert isinstance(state, RulesState)
    for name, limits in (("master", Limits(depth=3)), ("beginner", Limits())):
        agent = level_agent(name)
        assert agent is not None
        move = agent.choose(state, limits, random.Random(0), Stop())
        assert move_key(move) in {move_key(m) for m in state.legal_actions()}
        details = agent.details()
        assert details["depth"] == (3 if name == "master" else 1)
        assert details["nodes"] > 0
        assert details["pv"].split()[0] == state.action_text(move)
        assert "search" in agent.explain() or "look" in agent.explain()
