"""Every shipped game on the compiled back end against the Python back end, or the reason it
stays on Python.

A game that compiles is played in seeded random games, both back ends side by side: at every
position the legal moves (from, to, program, captures, changes in order), the outcome with
its draw counters (``Rulebook.outcome``), perft's view of the ends, and the winner; after every
move the board, turn, last move and counters. The moves chosen often undo the mover's move
before last (so positions repeat), and some games start with the quiet-move counter near its
limit, so repetition and quiet-move draws are reached too. A game that does not compile must
give the reason :data:`REASONS` lists: the list shrinks as the back end grows, and a game that
stops compiling fails here.

CI compiles tic-tac-toe and breakthrough (numba, a few seconds each); GAMEHALL_DEEP_CHECKS=1
plays every game that compiles, longer (chess and xiangqi compile for about a minute cold).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from game.logic.rules.catalogue import design, rulebook, shipped
from game.logic.rules.compiled.build import CompiledRules, compiled_rules
from game.logic.rules.compiled.module import module_source
from game.logic.rules.compiled.play import CompiledPlay
from game.logic.rules.compiled.stacks import stack_cells
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.position import DescribedPosition, Move
from game.logic.rules.rulebook import Rulebook
from tests.deep import sized

#: Why each game that does not compile stays on Python (the generator's first refusal).
REASONS = {
    "banqi": "the rule face_down",
    "ur": "the rule dice",
    "chaturaji": "the rule dice",
    "go": "the rule groups",
    "barrage": "the rule concealed",
    "backgammon": "the rule dice",
}
#: The parameters a game is played with here (smaller boards: Python's moves are slow).
VALUES = {"hex": {"side": 5}, "gomoku": {"width": 7, "height": 7, "k": 4}}
#: (games, plies at most) per compiled game played here.
PLAYED = sized(
    {"breakthrough": (2, 60)},
    {
        "tic-tac-toe": (50, 9),
        "gomoku": (12, 49),
        "breakthrough": (20, 200),
        "othello": (16, 70),
        "hex": (20, 25),
        "lines-of-action": (16, 300),
        "chess": (20, 400),
        "xiangqi": (12, 400),
        "neutron": (12, 200),
        "surakarta": (8, 300),
        "nine-mens-morris": (8, 300),
        "kalah": (12, 300),
        "oware": (8, 400),
        "english-draughts": (12, 300),
        "international-draughts": (4, 300),
        "russian-draughts": (4, 300),
        "pentago": (16, 36),
        "italian-draughts": (6, 300),
        "bashni": (6, 300),
    },
)


def _reason(game: str) -> str:
    try:
        module_source(design(game))  # (generating text only: no rulebook, no numba)
    except Unsupported as why:
        return str(why)
    return "compiled"


@pytest.mark.parametrize("game", shipped())
def test_every_game_compiles_or_says_why(game: str) -> None:
    assert _reason(game) == REASONS.get(game, "compiled")


@pytest.mark.deep
@pytest.mark.parametrize("game", sorted(PLAYED))
def test_compiled_games_play_as_python(game: str) -> None:
    e = rulebook(game, VALUES.get(game))
    rules = compiled_rules(e.design)
    games, plies = PLAYED[game]
    ends = set()
    for seed in range(games):
        ends.add(_play(e, rules, random.Random(f"{game}-{seed}"), plies, near=seed % 2 == 1))
    assert ends - {None}, f"no game of {game} reached its end"


def _play(
    e: Rulebook, rules: CompiledRules, rng: random.Random, plies: int, near: bool
) -> str | None:
    """One seeded game on both back ends; the outcome it ended with (None: still going)."""
    pos = e.start()
    if near and e.quiet_limit:
        pos.quiet = e.quiet_limit - rng.randrange(1, 8)
    play = CompiledPlay(rules, pos, e)
    boards = [tuple(pos.board)]
    # Each position's hash and what makes it the same position for the Python back end.
    seen: set[tuple[int, object]] = set()
    for _ in range(plies + 1):
        moves = e.legal(pos)
        rows = play.rows()
        npos = len(pos.board)
        assert [_row_move(r, npos) for r in rows] == [_move(m) for m in moves]
        same = (e.key(pos)[0], frozenset(m[:3] for m in moves) if e.uses_last else ())
        seen.add((int(play.m.poshash(play.b, play.turn, play.out, play.n)), same))
        hashes, positions = (len({x[i] for x in seen}) for i in (0, 1))
        assert hashes == positions == len(seen), "the hash tells positions apart as keys do"
        outcome = e.outcome(pos, moves)
        assert play.outcome() == outcome
        assert play.ended() == (e.outcome(pos, moves, perft=True) is not None)
        returns = e.returns(pos, outcome)
        assert play.winner() == (returns.index(1.0) if 1.0 in returns else -1)
        if outcome is not None:
            return outcome
        i = _choose(e, pos, moves, boards, rng, near)
        e.make(pos, moves[i])
        play.play(i)
        boards.append(tuple(pos.board))
        hands = [x for row in pos.hands for x in row] if rules.module.HAND_CELLS else []
        columns = stack_cells(pos.under, rules.module.STACK_BASE) if pos.under else []
        assert play.b.tolist() == [*pos.board, *hands, *columns], (
            "the board, then the hands where they are counted, the columns in a game of stacks"
        )
        state = (play.turn, play.lf, play.lt, play.quiet, play.plies)
        assert state == (pos.turn, pos.last_from, pos.last_to, pos.quiet, pos.plies)
    return None


def _choose(
    e: Rulebook,
    pos: DescribedPosition,
    moves: list[Move],
    boards: list,
    rng: random.Random,
    quiet: bool,
) -> int:
    """A move at random; half the time, where one exists, one that brings back the board of
    four plies before (the mover undoing their last move, so positions repeat); with
    ``quiet``, else most of the time one that leaves the quiet-move counter running."""
    if len(boards) >= 4 and rng.random() < 0.5:
        for i in _kept(e, pos, moves, lambda: tuple(pos.board) == boards[-4]):
            return i
    if quiet and rng.random() < 0.8:
        kept = _kept(e, pos, moves, lambda: pos.quiet > 0)
        if kept:
            return rng.choice(kept)
    return rng.randrange(len(moves))


def _kept(
    e: Rulebook, pos: DescribedPosition, moves: list[Move], test: Callable[[], bool]
) -> list[int]:
    """The indices of the moves after which ``test`` holds."""
    found = []
    for i, move in enumerate(moves):
        saved = e.make(pos, move)
        if test():
            found.append(i)
        e.unmake(pos, saved)
    return found


def _row_move(r: tuple[int, ...], npos: int) -> tuple[object, ...]:
    """A row as (from, to) (from -1: a drop; None: a pass), program, captures, the changes on
    the board's ``npos`` positions (a hand's cells after them change too: the state compares
    them)."""
    ends = (r[0], r[1]) if r[2] >= 0 else None
    changes = tuple((c, v) for c, v in zip(r[5::2], r[6::2], strict=True) if c < npos)
    return (ends, r[2], r[3], changes)


def _move(m: tuple) -> tuple[object, ...]:
    """A move as :func:`_row_move` shows a row (a game of stacks' changes without the
    columns: the rows change those in cells after the board)."""
    path, caps, effects, pid = m
    ends = (path[0] if len(path) > 1 else -1, path[-1]) if path else None
    return (ends, pid, len(caps), tuple((e[0], e[1]) for e in effects))
