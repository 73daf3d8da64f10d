"""The compiled evaluation's terms for winning the won ending and keeping the game alive, as
:meth:`~game.logic.rules.evaluation.Judge.evaluate` adds them: tables computed once from the
Judge when the module is written, read by one numba function the same for every game.

Written into the search's module (``evaluate`` calls it; first player's view):

- ``ending(b, material, left, to_move, moves, keeper)``: once little is left and a side is a
  unit of material ahead, its pay for each exchange (trade down when ahead); with a royal
  piece a side, for driving the enemy's to the edge and bringing its own near; without, for
  its pieces that no longer promote near the enemy's, each enemy piece shut in (a refuge,
  the double corner, counting against it) and few moves left to the enemy. Then, for the
  searching side ``keeper`` while it is not ahead, the worth of the pieces left.
"""

from __future__ import annotations

from typing import Final

from game.logic.rules.evaluation import (
    MOP_UP_CAGE,
    MOP_UP_EDGE,
    MOP_UP_LEAD,
    MOP_UP_NEAR,
    MOP_UP_REFUGE,
    MOP_UP_SQUEEZE,
    TRADE_SHARE,
    UNIT,
    Judge,
)

__all__ = ["ending_source"]

_ENDING: Final = '''
@njit("int64(int64[::1], int64, int64, int64, int64, int64)", cache=True)
def ending(b, material, left, to_move, moves, keeper):
    """The won ending's and the kept pieces' points (see the module that wrote it)."""
    total = 0
    if abs(material) >= UNIT and left * 2 < ESTART:
        strong = 0 if material > 0 else 1
        bonus = int(TRADE_SHARE * abs(material) * (ESTART - left) / ESTART)
        kings = 0
        weak_king = -1
        strong_king = -1
        for p in range(NPOS):
            v = b[p]
            if v != 0 and EROYAL[v]:
                kings += 1
                if OWN[v] == strong:
                    strong_king = p
                else:
                    weak_king = p
        if kings == 2:
            if abs(material) >= MOP_UP_LEAD and weak_king >= 0 and strong_king >= 0:
                near = ESTEPS[weak_king, strong_king]
                bonus += MOP_UP_EDGE * ECENTRE[weak_king] + MOP_UP_NEAR * (8 - near)
        elif kings == 0:
            hunters = 0
            prey = 0
            for p in range(NPOS):
                v = b[p]
                if v != 0:
                    if OWN[v] != strong:
                        prey += 1
                    elif not EPROMOTES[v]:
                        hunters += 1
            if hunters > 0 and prey > 0:
                for h in range(NPOS):
                    v = b[h]
                    if v == 0 or OWN[v] != strong or EPROMOTES[v]:
                        continue
                    d = 8
                    for q in range(NPOS):
                        w = b[q]
                        if w != 0 and OWN[w] != strong and ESTEPS[h, q] < d:
                            d = ESTEPS[h, q]
                    bonus += MOP_UP_NEAR * (8 - d)
                for q in range(NPOS):
                    w = b[q]
                    if w == 0 or OWN[w] == strong:
                        continue
                    if EREFUGE[q]:
                        bonus -= MOP_UP_REFUGE
                        continue
                    free = 0
                    for d in range(L.shape[0]):
                        r = L[d, q]
                        if r >= 0 and b[r] == 0:
                            free += 1
                    bonus += MOP_UP_CAGE * (EWIDEST - free)
                if to_move != strong:
                    bonus += MOP_UP_SQUEEZE * max(0, 8 - moves)
        total += bonus if strong == 0 else -bonus
    if keeper >= 0 and EKEEP != 0 and left != 0:
        lead = material if keeper == 0 else -material
        if lead < UNIT:
            share = min(1.0, (UNIT - lead) / UNIT)
            kept = int(EKEEP * share * math.sqrt(left / ESTART))
            total += kept if keeper == 0 else -kept
    return total
'''


def ending_source(judge: Judge) -> list[str]:
    """The tables and ``ending`` of ``judge``'s game (see the module docstring); after the
    evaluation's tables (``ESTART``)."""
    rulebook = judge.rulebook
    c = rulebook.c
    n = rulebook.n
    codes = c.codes
    steps = [[judge.steps_between(a, q) for q in range(n)] for a in range(n)]
    centre = [judge.edge_steps(p) for p in range(n)]
    promotes = [bool(v) and c.kind_of[v] in judge.promoters for v in range(codes)]
    return [
        "",
        "import math",
        "",
        f"UNIT = {UNIT}",
        f"TRADE_SHARE = {TRADE_SHARE}",
        f"MOP_UP_LEAD = {MOP_UP_LEAD}",
        f"MOP_UP_EDGE = {MOP_UP_EDGE}",
        f"MOP_UP_NEAR = {MOP_UP_NEAR}",
        f"MOP_UP_CAGE = {MOP_UP_CAGE}",
        f"MOP_UP_REFUGE = {MOP_UP_REFUGE}",
        f"MOP_UP_SQUEEZE = {MOP_UP_SQUEEZE}",
        f"EKEEP = {judge.keep}",
        f"EWIDEST = {judge.widest}",
        f"EMAT = np.array({list(judge.material)!r}, dtype=np.int64)",
        f"EROYAL = np.array({list(judge.royal_code)!r}, dtype=np.bool_)",
        f"EPROMOTES = np.array({promotes!r}, dtype=np.bool_)",
        f"EREFUGE = np.array({[p in judge.refuges for p in range(n)]!r}, dtype=np.bool_)",
        f"ESTEPS = np.array({steps!r}, dtype=np.int64).reshape(({n}, {n}))",
        f"ECENTRE = np.array({centre!r}, dtype=np.int64)",
        *_ENDING.splitlines(),
    ]
