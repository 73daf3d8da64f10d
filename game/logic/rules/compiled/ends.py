"""The end conditions compiled: each ``(end ...)`` condition as one numba expression over the
state, and the board scans they call (written into a module only where a condition uses them).

Two functions read them:

- ``ended(b, turn, lf, lt, n)`` (:func:`ended_source`): whether one of the conditions holds
  in a position whose legal moves number ``n``, the draw counters (repetition, quiet moves,
  plies) left out as the Python back end's perft leaves them
  (:meth:`~game.logic.rules.ends.Ends.outcome` with ``perft``);
- ``outcome(b, turn, lf, lt, n, quiet, plies, hist, nh)`` (:mod:`.outcome`): the whole answer,
  the counters included.

A head this writer does not know raises
:class:`~game.logic.rules.compiled.statements.Unsupported`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Final

from game.logic.rules.board_ends import _rows
from game.logic.rules.compiled.hands import hand_cells
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.rulebook import _opposites
from game.logic.rules.sexpr import Atom, Form, Item

__all__ = ["COUNTERS", "EndWriter", "ended_source"]

#: The heads perft never reads (the Python back end's ``_holds`` answers False for them
#: when counting).
COUNTERS: Final = ("repetition", "perpetual-check", "quiet-moves", "plies")

#: The scans the conditions call, by name: each a loop over the board (types as a bit mask).
_HELPERS: Final = {
    "in_check": """
@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def in_check(b, player, lf, lt):
    for k in range(NPOS):
        v = b[k]
        if v != 0 and ROYAL[v] and OWN[v] == player and attacked(b, k, 1 - player, lf, lt, 0):
            return True
    return False
""",
    "reached": """
@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def reached(b, z, whose, kind):
    for k in range(NPOS):
        v = b[k]
        if v == 0 or not ZONE[z, whose, k] or (OWN[v] != whose and not SHARED[TYP[v]]):
            continue
        if kind < 0 or TYP[v] == kind:
            return True
    return False
""",
    "count_of": '''
@njit("int64(int64[::1], int64, int64)", cache=True)
def count_of(b, owner, mask):
    """The pieces of the types in ``mask`` on the board (``owner`` < 0: anyone's)."""
    total = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and (owner < 0 or OWN[v] == owner) and (mask >> TYP[v]) & 1:
            total += 1
    return total
''',
    "any_of": '''
@njit("boolean(int64[::1], int64, int64)", cache=True)
def any_of(b, owner, mask):
    """Whether a piece of the types in ``mask`` stands on the board (``owner`` < 0: anyone's):
    the first found answers, where a count reads the whole board."""
    for k in range(NPOS):
        v = b[k]
        if v != 0 and (owner < 0 or OWN[v] == owner) and (mask >> TYP[v]) & 1:
            return True
    return False
''',
    "flood": '''
@njit("int64(int64[::1], int64, int64, int64, int64)", cache=True, inline="always")
def flood(b, start, who, za, zb):
    """A fill of ``who``'s pieces joined to ``start`` (one of them) through the board's links
    in every direction: with zones (``za`` >= 0), 1 as soon as it has reached ``who``'s part
    of both ``za`` and ``zb``, else 0; without, how many pieces it reached."""
    seen = np.zeros(NPOS, dtype=np.bool_)
    todo = np.empty(NPOS, dtype=np.int64)
    todo[0] = start
    seen[start] = True
    top = 1
    found = 1
    hit_a = False
    hit_b = False
    while top > 0:
        top -= 1
        p = todo[top]
        if za >= 0:
            hit_a = hit_a or ZONE[za, who, p]
            hit_b = hit_b or ZONE[zb, who, p]
            if hit_a and hit_b:
                return 1
        for d in range(L.shape[0]):
            q = L[d, p]
            if q >= 0 and not seen[q] and b[q] != 0 and OWN[b[q]] == who:
                seen[q] = True
                todo[top] = q
                top += 1
                found += 1
    return 0 if za >= 0 else found
''',
    "connects": '''
@njit("boolean(int64[::1], int64, int64, int64)", cache=True)
def connects(b, lt, za, zb):
    """Whether the stones of the last one placed's owner that touch it reach both that
    owner's part of zone ``za`` and of zone ``zb``."""
    if lt < 0 or b[lt] == 0:
        return False
    return flood(b, lt, OWN[b[lt]], za, zb) == 1
''',
    "connected": '''
@njit("boolean(int64[::1], int64)", cache=True)
def connected(b, who):
    """Whether ``who`` has pieces and they all touch as one group through the board's links."""
    start = -1
    total = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and OWN[v] == who:
            total += 1
            if start < 0:
                start = k
    if start < 0:
        return False
    return flood(b, start, who, -1, -1) == total
''',
    "line": '''
@njit("boolean(int64[::1], int64, int64)", cache=True)
def line(b, at, need):
    """Whether the piece just placed at ``at`` stands in a row of ``need`` or more of the same
    piece along a direction and its opposite (OPP: -1 where none)."""
    if at < 0 or b[at] == 0:
        return False
    v = b[at]
    for d in range(L.shape[0]):
        e = OPP[d]
        if 0 <= e < d:
            continue
        run = 1
        q = L[d, at]
        while q >= 0 and q != at and b[q] == v:
            run += 1
            q = L[d, q]
        if e >= 0:
            q = L[e, at]
            while q >= 0 and q != at and b[q] == v:
                run += 1
                q = L[e, q]
        if run >= need:
            return True
    return False
''',
    "row_of": '''
@njit("boolean(int64[::1], Array(int64, 2, 'C', readonly=True), int64)", cache=True)
def row_of(b, rows, who):
    """Whether every position of one of ``rows`` holds a piece of ``who``'s."""
    for r in range(rows.shape[0]):
        whole = True
        for k in range(rows.shape[1]):
            v = b[rows[r, k]]
            if v == 0 or OWN[v] != who:
                whole = False
                break
        if whole:
            return True
    return False
''',
    "score": '''
@njit("int64(int64[::1], int64, int64)", cache=True)
def score(b, who, z):
    """``who``'s score: the counters in their part of zone ``z`` in a game of counters (``z``
    >= 0), else their pieces on the board."""
    total = 0
    for k in range(NPOS):
        if z >= 0:
            if ZONE[z, who, k]:
                total += b[k]
        elif b[k] != 0 and OWN[b[k]] == who:
            total += 1
    return total
''',
    "zone_empty": '''
@njit("boolean(int64[::1], int64)", cache=True)
def zone_empty(b, z):
    """Whether some player's part of zone ``z`` holds nothing."""
    for who in range(ZONE.shape[1]):
        empty = True
        for k in range(NPOS):
            if ZONE[z, who, k] and b[k] != 0:
                empty = False
                break
        if empty:
            return True
    return False
''',
    "one_colour": """
@njit("boolean(int64[::1], int64)", cache=True)
def one_colour(b, mask):
    seen = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and (mask >> TYP[v]) & 1:
            seen |= 1 << DARK[k]
    return seen != 3
""",
    "repeats": '''
@njit("int64(int64[::1], int64)", cache=True)
def repeats(hist, nh):
    """How often the position (the last hash of ``hist[:nh]``) stands in its history."""
    if nh == 0:
        return 0
    now = hist[nh - 1]
    found = 0
    for i in range(nh):
        if hist[i] == now:
            found += 1
    return found
''',
}


def ended_source(writer: EndWriter) -> list[str]:
    """``ended`` (always False for a design with no end), written by ``writer``."""
    tests = [writer.cond(end.condition, perft=True) for end in writer.design.ends]
    lines = ['@njit("boolean(int64[::1], int64, int64, int64, int64)", cache=True)']
    lines.append("def ended(b, turn, lf, lt, n):")
    lines.append("    player = PLAYER[turn]")
    lines.append("    mover = MOVER[turn]  # who made the last move (turns.py)")
    lines += [f"    if {test}:\n        return True" for test in tests if test != "False"]
    return [*lines, "    return False", "", ""]


#: The conditions that read no board: no legal move, always, never (no pieces in hand here).
_PLAIN: Final = {"stuck": "n == 0", "true": "True", "in-hand": "False"}


class EndWriter:
    """Writes end conditions as numba expressions over ``b``, ``player`` (to move), ``mover``
    (who moved last), ``lt``, ``n`` (the legal moves) and, outside perft, ``quiet``,
    ``plies`` and the hashes ``hist[:nh]``; notes the scans and tables they call."""

    def __init__(self, design: Design, zones: list[str]) -> None:
        if len(design.players) != 2:
            raise Unsupported(f"end conditions of {len(design.players)} players")
        self.design = design
        self.zones = zones
        self.every = (1 << len(design.pieces)) - 1
        self.used: set[str] = set()
        #: The rows of N positions that ``row-of`` looks for, by N.
        self.rows: dict[int, list[tuple[int, ...]]] = {}
        self.opposite = _opposites(design.board.links)
        self.hands = bool(design.hands) or design.captures_to_hand

    def mask(self, words: list[str]) -> int:
        out = 0
        for word in words:
            out |= 1 << self.design.type_index(word)
        return out or self.every

    def call(self, name: str, args: str) -> str:
        self.used.add(name)
        if name in ("connects", "connected"):
            self.used.add("flood")
        return f"{name}({args})"

    def tables(self) -> list[str]:
        """The tables and scans used so far (call after writing every condition)."""
        lines = [f"OPP = np.array({self.opposite!r}, dtype=np.int64)"]
        for need, rows in sorted(self.rows.items()):
            shape = f".reshape({len(rows)}, {need})"
            flat = [p for row in rows for p in row]
            lines.append(f"ROWS{need} = np.array({flat!r}, dtype=np.int64){shape}")
        for name, text in _HELPERS.items():  # in the table's order (in_check first)
            if name in self.used:
                lines += [*text.splitlines(), ""]
        return [*lines, ""]

    def cond(self, item: Item, perft: bool) -> str:
        """``item`` as an expression; with ``perft`` the draw counters read False."""
        head = item.head if isinstance(item, Form) else str(item.value)
        args = item.args if isinstance(item, Form) else ()
        words = [str(a.value) for a in args if isinstance(a, Atom)]
        theirs = bool(words) and words[-1] == "theirs"
        # The player an end about "the player who moved" asks about (theirs: the other one).
        who = "player" if theirs else "mover"
        if head in COUNTERS and (perft or head != "perpetual-check"):
            if perft:
                return "False"
            counter = {"quiet-moves": "quiet", "plies": "plies"}.get(head)
            held = counter or self.call("repeats", "hist, nh")
            return f"{held} >= {int(words[0])}"
        counted = hand_cells(self.design) > 0
        if self.hands and (
            head == "in-hand" or (head in ("none-left", "pieces-below") and not counted)
        ):
            raise Unsupported(f"the end condition ({head} ...) with pieces in hand")
        if head in _PLAIN or (head == "both-stuck" and self.design.pass_when_stuck):
            # (both stuck: a player with no move passes while the other has one)
            return _PLAIN.get(head, "n == 0")
        if head == "check":
            return self.call("in_check", "b, player, lf, lt")
        if head == "and":
            return "(" + " and ".join(f"({self.cond(a, perft)})" for a in args) + ")"
        if head == "not":
            return f"not ({self.cond(args[0], perft)})"
        if head == "full":
            return f"{self.call('count_of', f'b, -1, {self.every}')} == NPOS"
        if head == "reached":
            whose = "mover" if len(words) < 3 else "1 - mover"
            kind = self.design.type_index(words[1]) if len(words) > 1 else -1
            return self.call("reached", f"b, {self.zones.index(words[0])}, {whose}, {kind}")
        if head == "none-left":  # (none on the board, and no piece of any type in hand)
            hand = " and in_hand(b, player) == 0" if hand_cells(self.design) else ""
            return f"not {self.call('any_of', f'b, player, {self.mask(words)}')}{hand}"
        if head == "pieces-below":  # (on the board and in hand)
            hand = " + in_hand(b, player)" if hand_cells(self.design) else ""
            count = self.call("count_of", f"b, player, {self.every}")
            return f"{count}{hand} < {int(words[0])}"
        if head == "only":
            return f"not {self.call('any_of', f'b, -1, {self.every & ~self.mask(words)}')}"
        if head == "at-most":
            return f"{self.call('count_of', f'b, -1, {self.mask(words[1:])}')} <= {int(words[0])}"
        if head == "one-colour":
            return self.call("one_colour", f"b, {self.mask(words)}")
        if head == "connects":
            first, second = (self.zones.index(w) for w in words[:2])
            return self.call("connects", f"b, lt, {first}, {second}")
        if head == "connected":
            return self.call("connected", f"b, {who}")
        if head == "line":
            return self.call("line", f"b, lt, {int(words[0])}")
        if head == "row-of":
            need = int(words[0])
            self.rows[need] = _rows(_Lines(self.design, self.opposite), need)
            self.used.add("row_of")
            return f"row_of(b, ROWS{need}, {who})"
        if head == "score-at-least":
            zone = self.design.score_zone if self.design.counters else ""
            z = self.zones.index(zone) if zone in self.zones else -1
            return f"{self.call('score', f'b, {who}, {z}')} >= {int(words[0])}"
        if head == "zone-empty":
            return self.call("zone_empty", f"b, {self.zones.index(words[0])}")
        if head in ("to-move", "moved"):
            chosen = [i for i, name in enumerate(self.design.players) if name in words]
            return f"{'player' if head == 'to-move' else 'mover'} in {(*chosen, -9)!r}"
        if head in ("exactly", "total"):
            kinds = words[1:-1] if theirs else words[1:]
            owner = "-1" if head == "total" else who
            count = self.call("count_of", f"b, {owner}, {self.mask(kinds)}")
            return f"{count} == {int(words[0])}"
        raise Unsupported(f"the end condition ({head} ...)")


class _Lines(SimpleNamespace):
    """What :func:`~game.logic.rules.board_ends._rows` reads of a rulebook: the design, each
    direction's opposite and the board's size (it caches its answer in ``__dict__``)."""

    def __init__(self, design: Design, opposite: list[int]) -> None:
        super().__init__(design=design, opposite=opposite, n=len(design.board.names))
