"""The end conditions that perft reads, compiled: ``ended(b, turn, lf, lt, n)`` says whether one
of the description's end conditions holds in a position whose legal moves number ``n``, the
draw counters (repetition, quiet moves, plies) left out as the Python back end's perft leaves
them (:meth:`~game.logic.rules.ends.Ends.outcome` with ``perft``).

Written from the ``(end ...)`` forms in order; a head this writer does not know raises
:class:`~game.logic.rules.compiled.statements.Unsupported`.
"""

from __future__ import annotations

from typing import Final

from game.logic.rules.compiled.hands import hand_cells
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.sexpr import Atom, Form, Item

__all__ = ["ends_source"]

#: The heads perft never reads (the Python back end's ``_holds`` answers False for them
#: when counting).
_COUNTERS: Final = ("repetition", "perpetual-check", "quiet-moves", "plies")

#: The helpers the conditions call: each a loop over the board (types as a bit mask).
_HELPERS: Final = '''
@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def in_check(b, player, lf, lt):
    for k in range(NPOS):
        v = b[k]
        if v != 0 and ROYAL[v] and OWN[v] == player and attacked(b, k, 1 - player, lf, lt, 0):
            return True
    return False


@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def reached(b, z, whose, kind):
    for k in range(NPOS):
        v = b[k]
        if v == 0 or not ZONE[z, whose, k] or (OWN[v] != whose and not SHARED[TYP[v]]):
            continue
        if kind < 0 or TYP[v] == kind:
            return True
    return False


@njit("int64(int64[::1], int64, int64)", cache=True)
def count_of(b, owner, mask):
    """The pieces of the types in ``mask`` on the board (``owner`` < 0: anyone's)."""
    total = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and (owner < 0 or OWN[v] == owner) and (mask >> TYP[v]) & 1:
            total += 1
    return total


@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def connects(b, lt, za, zb):
    """Whether the stones of the last one placed's owner that touch it reach both that
    owner's part of zone ``za`` and of zone ``zb`` (a flood fill over every direction)."""
    if lt < 0 or b[lt] == 0:
        return False
    who = OWN[b[lt]]
    seen = np.zeros(NPOS, dtype=np.bool_)
    todo = np.empty(NPOS, dtype=np.int64)
    todo[0] = lt
    seen[lt] = True
    top = 1
    hit_a = False
    hit_b = False
    while top > 0:
        top -= 1
        p = todo[top]
        hit_a = hit_a or ZONE[za, who, p]
        hit_b = hit_b or ZONE[zb, who, p]
        for d in range(L.shape[0]):
            q = L[d, p]
            if q >= 0 and not seen[q] and b[q] != 0 and OWN[b[q]] == who:
                seen[q] = True
                todo[top] = q
                top += 1
    return hit_a and hit_b


@njit("boolean(int64[::1], int64)", cache=True)
def one_colour(b, mask):
    seen = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and (mask >> TYP[v]) & 1:
            seen |= 1 << DARK[k]
    return seen != 3
'''


def ends_source(design: Design, zones: list[str]) -> list[str]:
    """The helpers and ``ended``; a design with no end has ``ended`` always False."""
    every = (1 << len(design.pieces)) - 1
    writer = _EndWriter(design, zones, every)
    tests = [writer.cond(end.condition) for end in design.ends]
    lines = [*_HELPERS.splitlines(), "", ""]
    lines.append('@njit("boolean(int64[::1], int64, int64, int64, int64)", cache=True)')
    lines.append("def ended(b, turn, lf, lt, n):")
    lines.append("    player = PLAYER[turn]")
    lines.append("    mover = MOVER[turn]  # who made the last move (turns.py)")
    lines += [f"    if {test}:\n        return True" for test in tests if test != "False"]
    lines.append("    return False")
    return lines


class _EndWriter:
    def __init__(self, design: Design, zones: list[str], every: int) -> None:
        self.design = design
        self.zones = zones
        self.every = every

    def mask(self, words: list[str]) -> int:
        out = 0
        for word in words:
            out |= 1 << self.design.type_index(word)
        return out or self.every

    def cond(self, item: Item) -> str:
        head = item.head if isinstance(item, Form) else str(item.value)
        args = item.args if isinstance(item, Form) else ()
        words = [str(a.value) for a in args if isinstance(a, Atom)]
        if head in _COUNTERS:
            return "False"
        if head == "stuck":
            return "n == 0"
        if head == "both-stuck" and self.design.pass_when_stuck:
            return "n == 0"  # (a player with no move passes while the other has one)
        if head == "check":
            return "in_check(b, player, lf, lt)"
        if head == "and":
            return " and ".join(f"({self.cond(a)})" for a in args)
        if head == "not":
            return f"not ({self.cond(args[0])})"
        if head == "pieces-below":  # (on the board and in hand)
            hand = " + in_hand(b, player)" if hand_cells(self.design) else ""
            return f"count_of(b, player, {self.every}){hand} < {int(words[0])}"
        if head == "score-at-least":  # the last mover's score (with theirs: the other's)
            who = "1 - mover" if len(words) > 1 else "mover"
            if not self.design.counters:
                return f"count_of(b, {who}, {self.every}) >= {int(words[0])}"
            if self.design.score_zone not in self.zones:
                return "False"
            z = self.zones.index(self.design.score_zone)
            return f"zone_sum(b, {z}, {who}) >= {int(words[0])}"
        if head == "zone-empty":  # (counters.py writes zone_empty where an end asks it)
            return f"zone_empty(b, {self.zones.index(words[0])})"
        if head == "full":
            return f"count_of(b, -1, {self.every}) == NPOS"
        if head == "reached":
            whose = "mover" if len(words) < 3 else "1 - mover"
            kind = self.design.type_index(words[1]) if len(words) > 1 else -1
            return f"reached(b, {self.zones.index(words[0])}, {whose}, {kind})"
        if head == "none-left":  # (none on the board, and no piece of any type in hand)
            hand = " and in_hand(b, player) == 0" if hand_cells(self.design) else ""
            return f"count_of(b, player, {self.mask(words)}) == 0{hand}"
        if head == "only":
            return f"count_of(b, -1, {self.every & ~self.mask(words)}) == 0"
        if head == "at-most":
            return f"count_of(b, -1, {self.mask(words[1:])}) <= {int(words[0])}"
        if head == "connects":
            first, second = (self.zones.index(w) for w in words[:2])
            return f"connects(b, lt, {first}, {second})"
        if head == "one-colour":
            return f"one_colour(b, {self.mask(words)})"
        raise Unsupported(f"the end condition ({head} ...)")
