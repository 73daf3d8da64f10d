"""Reversi pattern evaluation: indices against a plain reference, symmetry, the shipped weights,
the data generator's seed and the fit (tools/reversi_data.py, tools/reversi_fit.py)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from game.logic.reversi import patterns as pat
from game.logic.reversi.board import Color, Position
from game.logic.reversi.kernels import stable_discs
from game.logic.reversi.players import PLAYERS, get_player
from game.logic.reversi.pvs import evaluate_leaf

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def random_position(rng: random.Random, plies: int) -> Position:
    position = Position.start()
    for _ in range(plies):
        if position.is_terminal():
            break
        position = position.apply(rng.choice(position.legal_moves()))
    return position


def transform(board: int, g: int) -> int:
    """``board`` under the ``g``-th symmetry of :func:`patterns.symmetries`."""
    f = pat.symmetries()[g]
    out = 0
    for sq in range(64):
        if board >> sq & 1:
            r, c = f(sq // 8, sq % 8)
            out |= 1 << (r * 8 + c)
    return out


def reference_indices(mine: int, theirs: int) -> list[int]:
    """Plain Python: each instance's base-3 number (1 mine, 2 theirs) plus its family offset."""
    offsets = [0]
    for _, base in pat.FAMILIES:
        offsets.append(offsets[-1] + 3 ** len(base))
    out = []
    for family, squares in pat.INSTANCES:
        value = 0
        for d, sq in enumerate(squares):
            digit = 1 if mine >> sq & 1 else 2 if theirs >> sq & 1 else 0
            value += digit * 3**d
        out.append(offsets[family] + value)
    return out


POSITIONS = [
    random_position(random.Random(seed), plies) for seed in range(6) for plies in (9, 30, 52)
]


def _square_neighbours(sq: int) -> int:
    r, c = divmod(sq, 8)
    out = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                out |= 1 << ((r + dr) * 8 + c + dc)
    return out


NEIGHBOURS = [_square_neighbours(sq) for sq in range(64)]


def _neighbours(board: int) -> int:
    """Squares next to (in the 8 directions) a square of ``board``."""
    out = 0
    for sq in range(64):
        if board >> sq & 1:
            out |= NEIGHBOURS[sq]
    return out


def reference_scalars(mine: int, theirs: int) -> list[int]:
    """Plain Python: the whole-board terms of ``pat.SCALARS`` for the side to move."""

    def count(board: int) -> int:
        return board.bit_count()

    def moves(a: int, b: int) -> int:
        return Position(a, b, Color.BLACK).move_mask()

    full = 0xFFFF_FFFF_FFFF_FFFF
    occupied = mine | theirs
    empty = full & ~occupied
    empties = count(empty)
    corners = 0x8100000000000081
    edges = 0x7E8181818181817E
    mp, mo = moves(mine, theirs), moves(theirs, mine)
    near_empty = _neighbours(empty)
    x_squares = c_squares = 0
    for corner, x, c1, c2 in ((0, 9, 1, 8), (7, 14, 6, 15), (56, 49, 57, 48), (63, 54, 62, 55)):
        if not occupied >> corner & 1:
            for sq, is_x in ((x, True), (c1, False), (c2, False)):
                diff = (theirs >> sq & 1) - (mine >> sq & 1)
                if is_x:
                    x_squares += diff
                else:
                    c_squares += diff
    stable = 0
    if occupied & corners or empties < 24:
        p, o = np.uint64(mine), np.uint64(theirs)
        stable = count(int(stable_discs(p, o))) - count(int(stable_discs(o, p)))
    values = {
        "mobility": count(mp) - count(mo),
        "mobility_ratio": 100 * (count(mp) - count(mo)) // (count(mp) + count(mo) + 2),
        "corner_access": count(mp & corners) - count(mo & corners),
        "potential_mobility": count(_neighbours(theirs) & empty) - count(_neighbours(mine) & empty),
        "frontier": count(theirs & near_empty) - count(mine & near_empty),
        "corners": count(mine & corners) - count(theirs & corners),
        "x_squares": x_squares,
        "c_squares": c_squares,
        "edges": count(mine & edges) - count(theirs & edges),
        "stable": stable,
        "discs": count(mine) - count(theirs),
        "parity": 1 if empties % 2 else -1,
        "tempo": 1,
    }
    return [values[name] for name in pat.SCALARS]


def reference_evaluation(mine: int, theirs: int, table: np.ndarray) -> int:
    """Plain Python: the weights at each instance's entry, plus the weighted scalar terms."""
    empties = 64 - (mine | theirs).bit_count()
    row = table[min(empties // pat.PHASE_STEP, pat.N_PHASES - 1)]
    total = sum(int(row[i]) for i in reference_indices(mine, theirs))
    scalar_base = pat.TABLE_SIZE - len(pat.SCALARS)
    for i, value in enumerate(reference_scalars(mine, theirs)):
        total += value * int(row[scalar_base + i])
    return total


def many_positions() -> list[tuple[int, int]]:
    """Every position of 40 random games, then 1200 random boards of every density."""
    rng = random.Random(14)
    out = []
    for _ in range(40):
        position = Position.start()
        while not position.is_terminal():
            out.append((position.mine, position.theirs))
            position = position.apply(rng.choice(position.legal_moves()))
        out.append((position.mine, position.theirs))
    for _ in range(1200):
        fill = rng.random()
        mine = theirs = 0
        for sq in range(64):
            if rng.random() < fill:
                if rng.random() < 0.5:
                    mine |= 1 << sq
                else:
                    theirs |= 1 << sq
        out.append((mine, theirs))
    return out


def test_indices_and_evaluation_match_a_plain_reference_on_many_positions() -> None:
    positions = many_positions()
    assert len(positions) > 3000
    phases = {pat.phase_of(64 - (m | t).bit_count()) for m, t in positions}
    assert phases == set(range(pat.N_PHASES))
    rng = np.random.default_rng(14)
    tables = [
        pat.load_weights(),
        rng.integers(-32768, 32768, (pat.N_PHASES, pat.TABLE_SIZE)).astype(np.int16),
    ]
    for mine, theirs in positions:
        expected = reference_indices(mine, theirs)
        assert pat.pattern_indices(mine, theirs).tolist() == expected
        assert pat.scalar_features(mine, theirs).tolist() == reference_scalars(mine, theirs)
        for table in tables:
            got = pat.evaluate_bits(np.uint64(mine), np.uint64(theirs), table)
            assert got == reference_evaluation(mine, theirs, table)


def test_the_families_make_46_instances_on_their_own_squares() -> None:
    assert pat.N_PATTERNS == 46
    counts = {name: 0 for name, _ in pat.FAMILIES}
    for family, squares in pat.INSTANCES:
        counts[pat.FAMILIES[family][0]] += 1
        assert len(set(squares)) == len(squares) == len(pat.FAMILIES[family][1])
    assert counts["edge_x"] == 4 and counts["corner_2x5"] == 8 and counts["diag_8"] == 2


@pytest.mark.parametrize("position", POSITIONS)
def test_indices_match_a_plain_reference(position: Position) -> None:
    got = pat.pattern_indices(position.mine, position.theirs)
    assert got.tolist() == reference_indices(position.mine, position.theirs)
    idx, sc = pat.batch_features(
        np.array([position.mine], dtype=np.uint64), np.array([position.theirs], dtype=np.uint64)
    )
    assert idx[0].tolist() == pat.CANONICAL[got].tolist()
    assert sc[0].tolist() == pat.scalar_features(position.mine, position.theirs).tolist()


def test_mirror_images_and_rotations_evaluate_the_same() -> None:
    rng = np.random.default_rng(0)
    raw = rng.integers(-500, 500, (pat.N_PHASES, pat.TABLE_SIZE)).astype(np.int16)
    tables = [pat.expand_weights(raw), pat.load_weights()]
    for position in POSITIONS:
        for table in tables:
            values = {
                pat.evaluate_bits(
                    np.uint64(transform(position.mine, g)),
                    np.uint64(transform(position.theirs, g)),
                    table,
                )
                for g in range(8)
            }
            assert len(values) == 1


def test_the_shipped_weights_load_small_and_sane() -> None:
    path = ROOT / "game" / "logic" / "reversi" / "data" / pat.WEIGHTS_FILE
    assert path.stat().st_size < 2_000_000
    table = pat.load_weights()
    assert table.shape == (pat.N_PHASES, pat.TABLE_SIZE)
    assert table.dtype == np.int16
    assert np.abs(table).max() > 0
    # scores stay within the disc range; the start (never in the data: its games begin with
    # random plies) near even
    for position in POSITIONS:
        assert abs(pat.evaluate(position)) < 64
    start = Position.start()
    assert abs(pat.evaluate(start)) < 10
    w = pat.load_weights()
    assert evaluate_leaf(np.uint64(start.mine), np.uint64(start.theirs), w) == round(
        pat.evaluate(start) * 100
    )
    with pytest.raises(ValueError, match="shape"):
        pat.expand_weights(np.zeros((3, 4), dtype=np.int16))


def test_grandmaster_is_registered_and_plays_legal_moves() -> None:
    assert "grandmaster" in PLAYERS
    player = get_player("grandmaster")
    for position in POSITIONS[:4]:
        if position.is_terminal():
            continue
        choice = player.choose(position, depth=3, rng=random.Random(0))
        assert choice.move in position.legal_moves()


def test_the_data_generator_replays_from_its_seed() -> None:
    data_tool = _tool("reversi_data")
    a = data_tool.generate(2, seed=3, depth=2, exact_empties=8, wander=0.3)
    b = data_tool.generate(2, seed=3, depth=2, exact_empties=8, wander=0.3)
    for key in ("mine", "theirs", "score", "exact", "game"):
        assert np.array_equal(a[key], b[key])
    assert a["exact"].any() and (~a["exact"]).any()
    assert np.all(a["mine"] & a["theirs"] == 0)
    # a solved label is the solver's score: check the last exact position of the first game
    from game.logic.reversi.solver import solve

    i = int(np.flatnonzero(a["exact"])[-1])
    position = Position(
        black=int(a["mine"][i]), white=int(a["theirs"][i]), to_move=Position.start().to_move
    )
    assert solve(position).score == a["score"][i]


def test_the_fit_recovers_known_weights() -> None:
    fit_tool = _tool("reversi_fit")
    rng = np.random.default_rng(4)
    size, n, k = 30, 3000, 4
    truth = rng.normal(0, 3, size)
    cols = np.stack([rng.choice(size, k, replace=False) for _ in range(n)])
    vals = rng.normal(0, 1, (n, k))
    y = (truth[cols] * vals).sum(axis=1)
    w = fit_tool.fit_sparse(cols, vals, y, np.ones(n), size, np.full(size, 1e-6), 200)
    assert np.allclose(w, truth, atol=1e-3)
