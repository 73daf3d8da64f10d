"""The compiled search's judgement of a position, written from the description: the tables of
the Python back end's :class:`~game.logic.rules.evaluation.Judge` (material and piece-square
values, middle game and end game, tapered by the material left; the zones a description
shuns while a prized neighbour is empty; frontier; mobility) computed once in Python when the
module is generated, so the numba code that reads them is the same for every game; and the
outcome of a finished position, from the ``(end ...)`` forms in order.

Written into the module (after the move generators, which ``evaluate`` calls for mobility):

- ``evaluate(b, turn, lf, lt, n, out, cs, es, keeper)``: the position's worth (points, 100 a
  unit of material) to the side to move, whose legal moves number ``n``; ``out``, ``cs``,
  ``es`` are scratch for counting the other side's moves; ``keeper``: the searching side
  (-1: none), paid for the pieces left while it is not ahead
  (:mod:`~game.logic.rules.compiled.endings`, with the won ending's terms);
- ``end_result(b, turn, lf, lt, n)``: 0 while the game goes on, else 1 (the last mover won),
  2 (the last mover lost), 3 (a draw), 4 (decided by counting the pieces); the draw counters
  (repetition, quiet moves, plies) are the search's to judge, as perft leaves them;
- ``VAL[code]``: what a piece is worth, for ordering captures.

Not mirrored from the Judge: pieces in hand counted as material; games of counters are not
compiled.
"""

from __future__ import annotations

from typing import Final

from game.logic.rules.compiled.endings import ending_source
from game.logic.rules.compiled.ends import EndWriter
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.evaluation import Judge
from game.logic.rules.rulebook import Rulebook

__all__ = ["END_CODES", "evaluation_source"]

#: ``end_result``'s answer for each end outcome.
END_CODES: Final = {"win": 1, "loss": 2, "draw": 3, "count": 4}

_EVALUATE: Final = '''
@njit(
    "int64(int64[::1], int64, int64, int64, int64, int64[:, ::1], int64[::1], int64[::1], "
    "int64)",
    cache=True,
)
def evaluate(b, turn, lf, lt, n, out, cs, es, keeper):
    """The worth of the position to the side to move (see the module that wrote it)."""
    player = PLAYER[turn]
    mg = 0
    eg = 0
    phase = 0
    material = 0
    for p in range(NPOS):
        v = b[p]
        if v != 0:
            mg += EMG[p, v]
            eg += EEG[p, v]
            phase += EPHASE[v]
            material += EMAT[v]
    left = min(phase, ESTART)
    total = (mg * left + eg * (ESTART - left)) // ESTART
    total += ending(b, material, left, player, n, keeper)
    for k in range(EEDGE.shape[0]):
        v = b[EEDGE[k, 0]]
        if v != 0:
            for j in range(3, EEDGE.shape[1]):
                q = EEDGE[k, j]
                if q >= 0 and b[q] == 0:
                    total += EEDGE[k, 1] if OWN[v] == 0 else EEDGE[k, 2]
                    break
    if EFRONTIER != 0:
        edge = 0
        for p in range(NPOS):
            v = b[p]
            if v != 0:
                for d in range(L.shape[0]):
                    q = L[d, p]
                    if q >= 0 and b[q] == 0:
                        edge += 1 if OWN[v] == 0 else -1
                        break
        total += EFRONTIER * edge
    mine = total if player == 0 else -total
    if EMOBILITY != 0:
        other = pseudo(b, PLAYER[NEXT[turn]], lf, lt, out, cs, es)
        mine += EMOBILITY * (n - other)
    return mine
'''


def evaluation_source(design: Design, zones: list[str]) -> list[str]:
    """The tables, ``evaluate`` and ``end_result`` of ``design`` (see the module docstring)."""
    judge = Judge(Rulebook(design))
    codes = len(judge.material)
    n = len(design.board.names)
    mg = [[judge.mg[p][v] for v in range(codes)] for p in range(n)]
    eg = [[judge.eg[p][v] for v in range(codes)] for p in range(n)]
    kinds = judge.rulebook.c.kind_of
    worth = [0] + [max(1, judge.values[kinds[v]]) for v in range(1, codes)]
    widest = max((len(near) for _at, near, _f, _s in judge.edges), default=0)
    edges = [
        [at, first, second, *near, *([-1] * (widest - len(near)))]
        for at, near, first, second in judge.edges
    ]
    lines = [
        "",
        f"EMG = np.array({mg!r}, dtype=np.int64)",
        f"EEG = np.array({eg!r}, dtype=np.int64)",
        f"EPHASE = np.array({list(judge.phase)!r}, dtype=np.int64)",
        f"ESTART = {judge.start_phase}",
        f"EEDGE = np.array({edges!r}, dtype=np.int64).reshape(({len(edges)}, {3 + widest}))",
        f"EFRONTIER = {judge.frontier}",
        f"EMOBILITY = {judge.mobility}",
        f"VAL = np.array({worth!r}, dtype=np.int64)",
        "",
    ]
    lines += ending_source(judge)
    lines += _EVALUATE.splitlines()
    writer = EndWriter(design, zones)  # (its scans are the rules module's: the same calls)
    lines += [
        "",
        "",
        '@njit("int64(int64[::1], int64, int64, int64, int64)", cache=True)',
        "def end_result(b, turn, lf, lt, n):",
        '    """How the game has ended here (0: it goes on; see the module that wrote it)."""',
        "    player = PLAYER[turn]",
        "    mover = MOVER[turn]",
    ]
    for end in design.ends:
        test = writer.cond(end.condition, perft=True)
        code = END_CODES.get(end.outcome)
        if code is None:
            raise Unsupported(f"the end outcome {end.outcome}")
        if test != "False":
            lines += [f"    if {test}:", f"        return {code}"]
    lines += ["    if n == 0:", f"        return {END_CODES['draw']}", "    return 0", ""]
    return lines
