"""Aspiration windows and ProbCut in the Reversi midgame search, and ProbCut's calibration."""

from __future__ import annotations

import importlib.util
import random
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from reversi_positions import random_position

from game.logic.reversi import search as search_module
from game.logic.reversi.board import Color, Position
from game.logic.reversi.patterns import load_weights
from game.logic.reversi.pvs import PC_BUCKET, PC_MIN_DEPTH, load_probcut
from game.logic.reversi.search import TranspositionTable, search
from game.logic.reversi.solver import SearchCancelled, solve
from tests.waiting import HANG_S

PATTERNS = load_weights()


def _load_tool() -> ModuleType:
    """tools/reversi_probcut.py imported as a module (tools/ is not a package)."""
    path = Path(__file__).resolve().parents[1] / "tools" / "reversi_probcut.py"
    spec = importlib.util.spec_from_file_location("gamehall_reversi_probcut", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


reversi_probcut = _load_tool()


def positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    return [random_position(rng, rng.randint(8, 40)) for _ in range(count)]


@pytest.mark.parametrize("patterns", [False, True])
@pytest.mark.parametrize("margin", [1, 400])
def test_aspiration_gives_the_full_window_value(
    patterns: bool, margin: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fixed depths, fresh tables: the same value and move as without aspiration; a margin of
    one hundredth makes nearly every window fail, so the re-searches are exercised too."""
    monkeypatch.setattr(search_module, "_ASPIRATION_MARGIN", margin)
    calls = 0
    aspirate = search_module._aspirate

    def counting(window, previous, ctr):  # type: ignore[no-untyped-def]
        def counted(alpha: int, beta: int) -> int:
            nonlocal calls
            calls += 1
            return int(window(alpha, beta))

        return aspirate(counted, previous, ctr)

    monkeypatch.setattr(search_module, "_aspirate", counting)
    weights = PATTERNS if patterns else None
    windows = 0
    for position in positions(5, 31):
        for depth in (4, 5, 6):
            plain = search(
                position,
                depth=depth,
                exact_empties=0,
                table=TranspositionTable(1 << 14),
                weights=weights,
            )
            aspired = search(
                position,
                depth=depth,
                exact_empties=0,
                table=TranspositionTable(1 << 14),
                weights=weights,
                aspiration=True,
            )
            assert aspired.score == plain.score
            assert aspired.depth == depth
            assert aspired.pv[0] == aspired.move
            assert aspired.move in position.legal_moves()
            windows += depth - search_module._ASPIRATION_DEPTH + 1
    if margin == 1:
        assert calls > windows  # windows failed and were searched again


def test_aspiration_does_not_centre_on_a_game_end_value() -> None:
    # Black C4 and E5, white D4 and E4: F4 wipes white out at once.
    position = Position(black=1 << 26 | 1 << 36, white=1 << 27 | 1 << 28, to_move=Color.BLACK)
    result = search(position, depth=6, exact_empties=0, aspiration=True)
    assert result.move == 29 and result.score == 64


# Today's search (before aspiration and ProbCut), depth 7, fresh 1 << 16 table: move, value in
# hundredths, nodes and principal variation, with the feature and the pattern evaluation.
PINNED = {
    (0, False): (37, 4739, 29887, [37, 38, 19, 29, 10, 60, 21]),
    (0, True): (60, 3639, 46918, [60, 61, 62, 59, 58]),
    (1, False): (32, 923, 18159, [32, 21, 44, 53, 19]),
    (1, True): (42, 2357, 18688, [42, 25, 26, 51, 38, 19, 20]),
    (2, False): (34, 1220, 11206, [34, 62, 32, 59, 25, 16]),
    (2, True): (34, 906, 23847, [34, 59, 58]),
}


@pytest.mark.parametrize(("seed", "patterns"), list(PINNED))
def test_probcut_off_searches_exactly_as_before(seed: int, patterns: bool) -> None:
    rng = random.Random(200 + seed)
    position = random_position(rng, rng.randint(12, 36))
    result = search(
        position,
        depth=7,
        exact_empties=0,
        table=TranspositionTable(1 << 16),
        weights=PATTERNS if patterns else None,
        probcut=0.0,
    )
    assert (result.move, round(result.score * 100), result.nodes, result.pv) == PINNED[
        (seed, patterns)
    ]


def test_probcut_prunes_and_plays_legal_moves() -> None:
    pruned = plain = 0
    for position in positions(4, 41):
        if position.empties <= 20:
            continue
        on = search(
            position,
            depth=8,
            exact_empties=0,
            table=TranspositionTable(1 << 16),
            weights=PATTERNS,
            probcut=1.5,
        )
        off = search(
            position,
            depth=8,
            exact_empties=0,
            table=TranspositionTable(1 << 16),
            weights=PATTERNS,
        )
        assert on.move in position.legal_moves() and on.depth == 8 and on.pv[0] == on.move
        pruned += on.nodes
        plain += off.nodes
    assert 0 < pruned < plain


def test_probcut_respects_stop_and_time(monkeypatch: pytest.MonkeyPatch) -> None:
    position = random_position(random.Random(5), 14)
    stop = np.ones(1, dtype=np.uint8)
    with pytest.raises(SearchCancelled):
        search(position, depth=30, stop=stop, exact_empties=0, weights=PATTERNS, probcut=1.5)
    # The time runs out at once (the search's timer fires as soon as it starts): the search,
    # unbounded in depth, must end by that alone with a legal move. Without a clock, so that
    # a busy machine cannot fail it; a flag set after HANG_S only ends a search that hangs.
    waits: list[float] = []

    class AtOnce(threading.Timer):
        def __init__(self, interval: float, *args: Any, **kwargs: Any) -> None:
            waits.append(interval)
            super().__init__(0.0, *args, **kwargs)

    hang = np.zeros(1, dtype=np.uint8)
    guard = threading.Timer(HANG_S, hang.__setitem__, (0, 1))
    guard.start()
    monkeypatch.setattr(search_module.threading, "Timer", AtOnce)
    try:
        result = search(
            position,
            time_limit=0.2,
            stop=hang,
            exact_empties=0,
            weights=PATTERNS,
            probcut=1.5,
            aspiration=True,
            table=TranspositionTable(1 << 16),
        )
    finally:
        guard.cancel()
    assert waits == [0.2]
    assert result.move in position.legal_moves()
    with pytest.raises(ValueError):
        search(position, depth=3, probcut=-1.0)


def test_probcut_leaves_a_search_to_the_end_exact() -> None:
    position = random_position(random.Random(17), 60 - 17)
    result = search(position, depth=17, exact_empties=0, probcut=3.0)
    solution = solve(position, all_moves=True)
    assert result.exact
    assert result.score == solution.score
    assert result.move in solution.best


def test_the_shipped_probcut_calibration_is_sane() -> None:
    table = load_probcut()
    assert table.dtype == np.float64 and table.ndim == 3 and table.shape[2] == 4
    assert table.shape[0] == 64 // PC_BUCKET
    assert table.shape[1] > 8
    calibrated = 0
    for bucket in range(table.shape[0]):
        for depth in range(table.shape[1]):
            shallow, a, b, sigma = table[bucket, depth]
            assert sigma >= 0
            if sigma > 0:
                calibrated += 1
                assert depth >= PC_MIN_DEPTH and 1 <= shallow < depth
                assert (depth - shallow) % 2 == 0
                assert 0.5 < a < 1.5 and abs(b) < 500 and 50 < sigma < 2000
    # Every depth pair is calibrated in the buckets from 20 to 59 empty squares.
    assert all(table[2:6, PC_MIN_DEPTH:, 3].flatten() > 0)
    assert calibrated >= 4 * (table.shape[1] - PC_MIN_DEPTH)


def test_the_fit_recovers_a_line_and_its_spread() -> None:
    rng = np.random.default_rng(3)
    shallow = rng.normal(0, 800, 5000)
    deep = 0.9 * shallow + 40 + rng.normal(0, 250, 5000)
    a, b, sigma = reversi_probcut.fit_line(shallow, deep)
    assert a == pytest.approx(0.9, abs=0.02)
    assert b == pytest.approx(40, abs=10)
    assert sigma == pytest.approx(250, rel=0.05)
    rows = [
        (35, [None, *([int(v)] * 2), *([int(w)] * 3)]) for v, w in zip(shallow, deep, strict=True)
    ]
    table = reversi_probcut.fit_calibration(rows, 5)
    assert table[3, 4, 0] == 2 and table[3, 4, 3] == pytest.approx(250, rel=0.05)
    assert table[2, 4, 3] == 0  # no positions there


def test_shallow_depths_keep_the_parity() -> None:
    for deep in range(PC_MIN_DEPTH, 30):
        shallow = reversi_probcut.shallow_depth(deep)
        assert 1 <= shallow < deep and (deep - shallow) % 2 == 0


def test_grandmaster_searches_selectively_and_master_does_not() -> None:
    from game.logic.reversi.players import SearchPlayer, get_player

    grandmaster = get_player("grandmaster")
    master = get_player("master")
    assert isinstance(grandmaster, SearchPlayer) and isinstance(master, SearchPlayer)
    assert grandmaster.probcut > 0 and grandmaster.aspiration
    assert master.probcut == 0 and not master.aspiration
    position = random_position(random.Random(9), 20)
    choice = grandmaster.choose(position, time_limit=0.05)
    assert choice.move in position.legal_moves()
