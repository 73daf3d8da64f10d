"""Reversi players: every level plays legal moves, the classic AI matches a plain port of the
article's program, and the compiled players reload from numba's cache. (Tournaments, Reversi's
among them, are tested in tests/test_tournament.py.)"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.logic.reversi.board import PASS, Color, Position
from game.logic.reversi.classic import CLASSIC_LEVELS, MAX_RANK, ClassicLevel, classic_move
from game.logic.reversi.players import (
    PLAYERS,
    Choice,
    UnknownPlayerError,
    get_player,
    warm_up,
)
from game.logic.reversi.solver import SearchCancelled
from tests.test_reversi_search import must_pass_position
from tests.waiting import HANG_S
from tests.warm_kernels import wait_until_warm

ROOT = Path(__file__).resolve().parents[1]


def random_position(rng: random.Random, plies: int) -> Position:
    while True:
        position = Position.start()
        for _ in range(plies):
            if position.is_terminal():
                break
            position = position.apply(rng.choice(position.legal_moves()))
        if not position.is_terminal():
            return position


# Black C4 and E5, white D4 and E4: F4 takes every white disc and wins 64-0; E3 does not.
WIPEOUT = Position(black=1 << 26 | 1 << 36, white=1 << 27 | 1 << 28, to_move=Color.BLACK)
F4 = 29


# --------------------------------------------------------------------------- the registry


def test_the_registry_holds_our_levels_and_the_classic_ones() -> None:
    from game.logic.reversi import LEVELS

    assert list(PLAYERS) == list(LEVELS)
    for name, player in PLAYERS.items():
        assert player.name == name
        assert player.description


def test_warm_up_readies_the_kernels() -> None:
    from game.logic.reversi import kernels

    warm_up()
    # Compiled (or loaded from the cache) for the types a real move uses.
    assert kernels.perft.signatures and kernels.legal_moves.signatures


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownPlayerError, match="master") as info:
        get_player("world-champion")
    assert isinstance(info.value, ValueError)
    assert "classic-expert" in str(info.value)


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_player_plays_legal_moves(name: str) -> None:
    player = get_player(name)
    rng = random.Random(1)
    positions = [Position.start(), random_position(rng, 20), random_position(rng, 50)]
    for position in positions:
        choice = player.choose(position, time_limit=0.05, rng=random.Random(2))
        assert isinstance(choice, Choice)
        assert choice.move in position.legal_moves()
    forced = must_pass_position(random.Random(5))
    assert player.choose(forced, time_limit=0.05, rng=rng).move == PASS


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_player_takes_a_game_ending_win(name: str) -> None:
    assert len(WIPEOUT.legal_moves()) > 1
    choice = get_player(name).choose(WIPEOUT, time_limit=0.05, rng=random.Random(0))
    assert choice.move == F4


def test_players_refuse_a_finished_game_and_honour_stop() -> None:
    over = Position(black=(1 << 64) - 1, white=0, to_move=Color.WHITE)
    for name in ("master", "classic-expert"):
        with pytest.raises(ValueError, match="over"):
            get_player(name).choose(over)
        with pytest.raises(SearchCancelled):
            get_player(name).choose(Position.start(), stop=np.ones(1, dtype=np.uint8))


def test_noisy_levels_replay_from_their_seed() -> None:
    position = random_position(random.Random(3), 12)
    beginner = get_player("beginner")
    first = [beginner.choose(position, rng=random.Random(s)).move for s in range(8)]
    again = [beginner.choose(position, rng=random.Random(s)).move for s in range(8)]
    assert first == again


# --------------------------------------------------------------------------- the classic AI


def _grid(position: Position) -> list[list[int]]:
    """The original's board: -1 black, 0 empty, 1 white, indexed [row][col]."""
    return [
        [
            -1
            if position.black >> (r * 8 + c) & 1
            else 1
            if position.white >> (r * 8 + c) & 1
            else 0
            for c in range(8)
        ]
        for r in range(8)
    ]


def _outflankable(squares: list[list[int]], safe: list[list[bool]], row: int, col: int) -> bool:
    """The original's IsOutflankable, line by line."""
    color = squares[row][col]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        space = [False, False]
        unsafe = [False, False]
        for side, sign in enumerate((-1, 1)):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < 8 and 0 <= c < 8 and not space[side]:
                if squares[r][c] == 0:
                    space[side] = True
                elif squares[r][c] != color or not safe[r][c]:
                    unsafe[side] = True
                r, c = r + sign * dr, c + sign * dc
        if (space[0] and space[1]) or (space[0] and unsafe[1]) or (unsafe[0] and space[1]):
            return True
    return False


def _counts(position: Position) -> dict[str, int]:
    squares = _grid(position)
    safe = [[False] * 8 for _ in range(8)]
    changed = True
    while changed:
        changed = False
        for r in range(8):
            for c in range(8):
                if squares[r][c] and not safe[r][c] and not _outflankable(squares, safe, r, c):
                    safe[r][c] = True
                    changed = True
    counts = {"bf": 0, "wf": 0, "bs": 0, "ws": 0}
    for r in range(8):
        for c in range(8):
            if not squares[r][c]:
                continue
            frontier = any(
                0 <= r + dr < 8 and 0 <= c + dc < 8 and squares[r + dr][c + dc] == 0
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
            )
            key = "b" if squares[r][c] == -1 else "w"
            counts[key + "f"] += frontier
            counts[key + "s"] += safe[r][c]
    return counts


def _reference_move_rank(
    position: Position, move: int, depth: int, horizon: int, w: ClassicLevel
) -> int:
    """The original GetBestMove's rank of one move, without pruning (White's point of view)."""
    color = 1 if position.to_move is Color.WHITE else -1
    my_moves = len(position.legal_moves())
    child = position.apply(move)
    score = child.white.bit_count() - child.black.bit_count()
    forfeit, end = 0, False
    replies = child.legal_moves()
    their = 0 if replies in ([PASS], []) else len(replies)
    if their == 0:
        forfeit = color
        if replies == [PASS]:
            child = child.apply(PASS)  # the same colour moves again, one level deeper
        else:
            end = True
    if end:
        return MAX_RANK + score if score > 0 else -MAX_RANK + score if score < 0 else 0
    if depth == horizon:
        k = _counts(child)
        return (
            w.forfeit * forfeit
            + w.frontier * (k["bf"] - k["wf"])
            + w.mobility * color * (my_moves - their)
            + w.stability * (k["ws"] - k["bs"])
            + score
        )
    rank = _reference_best(child, depth + 1, horizon, w)
    if forfeit and abs(rank) < MAX_RANK:
        rank += w.forfeit * forfeit
    return rank


def _reference_best(position: Position, depth: int, horizon: int, w: ClassicLevel) -> int:
    color = 1 if position.to_move is Color.WHITE else -1
    ranks = [_reference_move_rank(position, m, depth, horizon, w) for m in position.legal_moves()]
    return max(ranks) if color == 1 else min(ranks)


@pytest.mark.parametrize("seed", range(8))
def test_classic_agrees_with_a_plain_port_of_the_original(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, rng.choice((8, 20, 30, 44, 54)))
    if position.legal_moves() == [PASS]:
        position = position.apply(PASS)
    weights = list(CLASSIC_LEVELS.values())[seed % 4]
    level = ClassicLevel(
        "test",
        2,
        weights.forfeit,
        weights.frontier,
        weights.mobility,
        weights.stability,
        exhaustive_empties=7,
    )
    color = 1 if position.to_move is Color.WHITE else -1
    horizon = position.empties if position.empties <= 7 else 2
    ranks = {
        m: _reference_move_rank(position, m, 1, horizon, level) for m in position.legal_moves()
    }
    best = max(ranks.values()) if color == 1 else min(ranks.values())
    move, score, _ = classic_move(position, level, random.Random(seed))
    assert ranks[move] == best
    value = best - MAX_RANK if best > MAX_RANK else best + MAX_RANK if best < -MAX_RANK else best
    assert score == value * color


def test_classic_levels_use_the_original_depths_and_weights() -> None:
    expected = {
        "classic-beginner": (3, 2, 1, 0, 3, 6),
        "classic-intermediate": (4, 3, 1, 0, 5, 7),
        "classic-advanced": (5, 7, 2, 1, 10, 8),
        "classic-expert": (6, 35, 10, 5, 50, 9),
    }
    for name, (depth, forfeit, frontier, mobility, stability, exhaustive) in expected.items():
        level = CLASSIC_LEVELS[name]
        assert (
            level.depth,
            level.forfeit,
            level.frontier,
            level.mobility,
            level.stability,
            level.exhaustive_empties,
        ) == (depth, forfeit, frontier, mobility, stability, exhaustive)


def test_classic_ties_are_broken_by_the_random_scan_start() -> None:
    # The four first moves are symmetric: every one ranks the same.
    moves = {
        classic_move(Position.start(), CLASSIC_LEVELS["classic-beginner"], random.Random(s))[0]
        for s in range(40)
    }
    assert moves == set(Position.start().legal_moves())


# --------------------------------------------------------------------------- the numba cache


def test_compiled_players_reload_from_the_numba_cache() -> None:
    """A fresh interpreter loads the compiled search from disk and plays (a recursive function
    with two cached specialisations once crashed exactly there)."""
    script = (
        "from game.logic.contract import Limits\n"
        "from game.logic.match import Match\n"
        "from game.logic.reversi.game import ReversiGame\n"
        "from game.logic.reversi.players import make_agent\n"
        "agents = [make_agent('classic-expert'), make_agent('advanced')]\n"
        "match = Match(ReversiGame(), agents, seed=0, limits=Limits(time=0.01))\n"
        "match.run()\n"
        "print(match.over, match.state.disc_count())\n"
        # The solver's layers are copies of one template: each must load from the cache too
        # (a closure over another kernel would compile again in every process).
        "import numpy as np\n"
        "from game.logic.reversi import endgame, kernels\n"
        "p, o = np.uint64(0xFFFF0000000000F0), np.uint64(0x0000FFFFFFFFFF00)\n"
        "kernels._solve4(p, o, -64, 64, 0 | 1 << 6 | 2 << 12 | 3 << 18)  # squares A1..D1\n"
        "endgame._eval3(p, o, -9999, 9999, endgame.load_weights())\n"
        "print(*(len(f.stats.cache_hits) for f in (kernels._solve4, endgame._eval3)))\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    wait_until_warm()  # the program loads the kernels the run's warm-up compiles
    # A second interpreter only where the first compiled a layer (a cache without it): the
    # first one to find both layers in the cache shows what is checked.
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=HANG_S,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("True "), done.stdout  # the game was played to its end
        if done.stdout.splitlines()[-1] == "1 1":
            break
    assert done.stdout.splitlines()[-1] == "1 1", done.stdout  # the layers were loaded
