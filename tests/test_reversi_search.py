"""The Reversi midgame search and evaluation: values, exactness, limits, cancellation, table."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from reversi_positions import random_position

from game.logic.reversi.board import PASS, Color, Position
from game.logic.reversi.evaluation import FEATURES, evaluate, explain, feature_vector
from game.logic.reversi.search import WIN, SearchResult, TranspositionTable, search
from game.logic.reversi.solver import SearchCancelled, solve
from tests.waiting import HANG_S

EVAL_CAP = WIN - 10_000


def must_pass_position(rng: random.Random) -> Position:
    """The first position of a random game where the side to move must pass."""
    while True:
        position = Position.start()
        while not position.is_terminal():
            moves = position.legal_moves()
            if moves == [PASS]:
                return position
            position = position.apply(rng.choice(moves))


def reference_value(position: Position, depth: int) -> int:
    """Plain negamax (no pruning, no table) in the search's internal units."""
    moves = position.legal_moves()
    if not moves:
        diff = position.score() if position.to_move is Color.BLACK else -position.score()
        return 0 if diff == 0 else (WIN if diff > 0 else -WIN) + 100 * diff
    if depth == 0:
        return max(-EVAL_CAP, min(EVAL_CAP, round(evaluate(position) * 100)))
    if moves == [PASS]:
        return -reference_value(position.apply(PASS), depth)
    return max(-reference_value(position.apply(m), depth - 1) for m in moves)


def as_discs(value: int) -> float:
    if abs(value) >= EVAL_CAP:
        return float(value - WIN if value > 0 else value + WIN) / 100
    return value / 100


@pytest.mark.parametrize("seed", range(6))
def test_fixed_depth_value_equals_plain_negamax(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, rng.randint(4, 50))
    depth = 1 + seed % 3
    result = search(position, depth=depth, exact_empties=0, table=TranspositionTable(1 << 12))
    assert result.depth == depth
    assert result.score == pytest.approx(as_discs(reference_value(position, depth)))
    assert result.move in position.legal_moves()
    assert result.pv[0] == result.move


@pytest.mark.parametrize("seed", range(4))
def test_deep_enough_search_is_exact_and_matches_the_solver(seed: int) -> None:
    rng = random.Random(100 + seed)
    position = random_position(rng, 60 - 9)
    result = search(position, depth=20, exact_empties=0)
    solution = solve(position, all_moves=True)
    assert result.exact
    assert result.score == solution.score
    assert result.move in solution.best


def test_solver_takes_over_with_few_empties() -> None:
    position = Position.from_text(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
    )  # FFO #40: A2 wins by 38
    result = search(position, exact_empties=20)
    assert result.exact
    assert result.score == 38
    assert result.move == 8  # A2
    assert result.depth == 20


def test_a_forced_wipeout_is_found() -> None:
    # Black C4 and E5, white D4 and E4: F4 flips both white discs and ends the game.
    position = Position(black=1 << 26 | 1 << 36, white=1 << 27 | 1 << 28, to_move=Color.BLACK)
    assert len(position.legal_moves()) > 1
    result = search(position, depth=3, exact_empties=0)
    assert result.move == 29  # F4
    assert result.score == 64


def test_iterative_deepening_respects_the_depth_limit() -> None:
    seen: list[SearchResult] = []
    result = search(Position.start(), depth=5, exact_empties=0, on_iteration=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4, 5]
    assert result.depth == 5
    assert result is seen[-1]
    assert not result.exact


def test_time_limit_returns_a_legal_move() -> None:
    position = random_position(random.Random(7), 20)
    result = search(position, time_limit=0.05)
    assert result.move in position.legal_moves()
    assert result.depth >= 1


def test_a_tiny_node_budget_still_gives_a_legal_move() -> None:
    position = random_position(random.Random(8), 16)
    result = search(position, depth=30, node_limit=1, exact_empties=0)
    assert result.move in position.legal_moves()


def test_stop_set_before_the_search_cancels_it() -> None:
    stop = np.ones(1, dtype=np.uint8)
    with pytest.raises(SearchCancelled):
        search(Position.start(), depth=30, stop=stop, exact_empties=0)


def test_stop_from_another_thread_cancels_the_search() -> None:
    # Depth 40 from 12 plies would run for hours: only the flag can end it.
    stop = np.zeros(1, dtype=np.uint8)
    timer = threading.Timer(0.2, stop.__setitem__, (0, 1))
    timer.start()
    try:
        with pytest.raises(SearchCancelled):
            search(random_position(random.Random(3), 12), depth=40, stop=stop, exact_empties=0)
    finally:
        timer.cancel()


def test_search_runs_without_the_gil() -> None:
    """While a search runs in a worker thread, the main thread keeps running Python code."""
    from game.logic.reversi import pvs as pvs_module

    assert pvs_module.pvs.targetoptions.get("nogil") is True
    position = random_position(random.Random(4), 14)
    stop = np.zeros(1, dtype=np.uint8)
    deep = threading.Event()
    errors: list[BaseException] = []

    def on_iteration(result: SearchResult) -> None:
        if result.depth >= 7:
            deep.set()  # from here on one iteration takes a while

    def work() -> None:
        try:
            search(
                position,
                depth=40,
                stop=stop,
                exact_empties=0,
                on_iteration=on_iteration,
                table=TranspositionTable(1 << 16),
            )
        except SearchCancelled:
            pass
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            deep.set()

    thread = threading.Thread(target=work)
    thread.start()
    assert deep.wait(HANG_S)
    # A fixed amount of Python work: with the search holding the lock it could only finish
    # after the search, which never ends by itself (depth 40) until the watchdog stops it.
    watchdog = threading.Timer(HANG_S, lambda: stop.__setitem__(0, 1))  # a hang guard
    watchdog.start()
    try:
        ticks = sum(1 for _ in range(200_000))
        alive = thread.is_alive()
    finally:
        watchdog.cancel()
    stop[0] = 1
    thread.join(HANG_S)
    assert not thread.is_alive() and not errors
    assert ticks == 200_000 and alive, "the main thread ran while the search was still going"


def test_the_table_makes_a_repeated_search_cheaper() -> None:
    position = random_position(random.Random(11), 16)
    table = TranspositionTable(1 << 16)
    first = search(position, depth=7, exact_empties=0, table=table)
    again = search(position, depth=7, exact_empties=0, table=table)
    assert again.nodes < first.nodes
    assert again.tt_hits > 0
    assert again.move == first.move and again.score == first.score


def test_a_forced_pass_is_searched_from_the_other_side() -> None:
    position = must_pass_position(random.Random(5))
    result = search(position, depth=3, exact_empties=0)
    assert result.move == PASS
    assert result.pv[0] == PASS


def test_bad_arguments_are_refused() -> None:
    start = Position.start()
    with pytest.raises(ValueError, match="depth"):
        search(start, depth=0)
    with pytest.raises(ValueError, match="time_limit"):
        search(start, time_limit=0)
    with pytest.raises(ValueError, match="stop"):
        search(start, stop=np.zeros(2, dtype=np.uint8))
    over = Position(black=(1 << 64) - 1, white=0, to_move=Color.WHITE)
    with pytest.raises(ValueError, match="over"):
        search(over, depth=1)


def _mirror(board: int) -> int:
    """Reflect a bitboard left-right (A file <-> H file)."""
    out = 0
    for sq in range(64):
        if board >> sq & 1:
            out |= 1 << (sq // 8 * 8 + 7 - sq % 8)
    return out


def _transpose(board: int) -> int:
    out = 0
    for sq in range(64):
        if board >> sq & 1:
            out |= 1 << (sq % 8 * 8 + sq // 8)
    return out


@pytest.mark.parametrize("seed", range(5))
def test_evaluation_is_the_same_under_board_symmetries(seed: int) -> None:
    position = random_position(random.Random(seed), 10 + 8 * seed)
    value = evaluate(position)
    for transform in (_mirror, _transpose):
        image = Position(transform(position.black), transform(position.white), position.to_move)
        assert evaluate(image) == value


def test_explain_lists_every_feature_and_adds_up() -> None:
    position = random_position(random.Random(2), 24)
    terms = explain(position)
    assert set(FEATURES) <= set(terms)
    assert terms["empties"] == position.empties
    assert sum(terms[name] for name in FEATURES) == pytest.approx(terms["total"], abs=0.2)
    assert terms["total"] == evaluate(position)
    raw = feature_vector(position.mine, position.theirs)
    assert raw.shape == (len(FEATURES) + 1,) and raw[-1] == position.empties
