"""Games of counters in the compiled back end (``(rules (counters))``: Kalah): a board cell
holds a number of counters, not a piece; a move sows them, takes them to a store, and may
give its player another move (``again``).

While a program runs, the counts it has changed are (position, count) pairs in the scratch
array ``es`` (``neff`` of them, in the order each position was first changed, as the Python
back end's dict keeps them), read through ``hget`` and changed through ``hset``; the move's
row is those pairs: from -1 and to the position sown from (the Python back end's one-step
path), its program id with :data:`~game.logic.rules.writer.AGAIN` set for ``again``.
``turn_after`` gives the turn after a row: the same player's after ``again``.

Also here, since Oware's grand slam is what uses it: the move's flag (``set-flag``, the
condition ``flag``), a local of the program, as the Python back end's ``fl``.
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.design import Design
from game.logic.rules.writer import AGAIN

__all__ = [
    "counter_cond",
    "counter_refusal",
    "counter_statement",
    "counter_width",
    "counters_source",
    "move_state",
    "pieces_test",
]

#: The statements a program of counters may hold here (a choice would have to keep ``ag``).
_REFUSED: Final = (tree.OneOf, tree.Anywhere, tree.Sweep, tree.Cascade)
#: A choice would have to keep the flag too.
_FLAG_REFUSED: Final = (tree.OneOf, tree.Anywhere)

_HELPERS: Final = '''

@njit("int64(int64[::1], int64[::1], int64, int64)", cache=True)
def hget(b, es, neff, c):
    """The counters on ``c`` as the move so far leaves them."""
    for i in range(neff):
        if es[2 * i] == c:
            return es[2 * i + 1]
    return b[c]


@njit("int64(int64[::1], int64, int64, int64)", cache=True)
def hset(es, neff, c, v):
    """``c`` holds ``v`` counters; the new count of changed positions."""
    for i in range(neff):
        if es[2 * i] == c:
            es[2 * i + 1] = v
            return neff
    es[2 * neff] = c
    es[2 * neff + 1] = v
    return neff + 1


@njit("int64(int64[:, ::1], int64, int64, int64, int64[::1], int64, int64)", cache=True)
def add_counts(out, n, f, pid, es, neff, ag):
    """The move so far as a row of ``out``: the changed counts."""
    if n >= out.shape[0]:
        return n + 1
    row = out[n]
    row[0] = -1
    row[1] = f
    row[2] = pid | (AGAIN if ag else 0)
    row[3] = 0
    row[4] = neff
    for i in range(2 * neff):
        row[HEAD + i] = es[i]
    return n + 1

'''

_TURN_AFTER: Final = '''

@njit("int64(int64, int64)", cache=True)
def turn_after(turn, pid):
    """The turn after a move of program ``pid`` made at ``turn``."""
    if AGAIN_ANY and pid >= 0 and pid & AGAIN:
        return turn
    return NEXT[turn]

'''


#: A sowing: every counter on the cursor's position, one a position along ``step`` (passing
#: over the position sown from where ``skip`` is 1); the sowing fails off the board.
_SOW: Final = """_sn{k} = hget(b, es, neff, c); neff = hset(es, neff, c, 0); _sb{k} = False
_so{k} = c if {skip} else -2  # (no position)
for _si{k} in range(_sn{k}):
    c = L[{step}, c]
    c = L[{step}, c] if c == _so{k} else c
    if c < 0:
        _sb{k} = True; break
    neff = hset(es, neff, c, hget(b, es, neff, c) + 1)
if _sb{k}:"""


def counters_source(design: Design) -> list[str]:
    """``turn_after`` (every module), and in a game of counters the tables and helpers above
    (after the hands' and before the probes and programs)."""
    again = design.counters and any(
        n == tree.Act("again")
        for piece in design.pieces
        for program in piece.programs
        for n in tree.walk(program.tree)
    )
    lines = [f"AGAIN = {AGAIN}", f"AGAIN_ANY = {again}", *_TURN_AFTER.splitlines()]
    if not design.counters:
        return lines
    zones = list(design.board.zones)
    first = [
        [min(design.board.zones[z][p], default=-1) for p in range(len(design.players))]
        for z in zones
    ] or [[-1] * len(design.players)]
    lines.append(f"TAKE_TO = np.array({first!r}, dtype=np.int64)")
    return lines + _HELPERS.splitlines()


def move_state(design: Design) -> str:
    """What a program's run starts with beyond the cursor and the move so far: ``ag`` (no
    extra move yet) in a game of counters, ``fl`` (no flag) where a program sets one."""
    flags = any(
        n == tree.Act("set-flag")
        for piece in design.pieces
        for program in piece.programs
        for n in tree.walk(program.tree)
    )
    return ("; ag = False" if design.counters else "") + ("; fl = 0" if flags else "")


def counter_width(design: Design) -> int:
    """The columns of a move row in a game of counters: every position may change."""
    return 5 + 2 * len(design.board.names) if design.counters else 0


def pieces_test(design: Design) -> list[str]:
    """``pseudo``'s test of a position before running its programs: the player's pieces
    (type ``t``), or in a game of counters any position holding some (type 0)."""
    if design.counters:
        return ["        if v == 0:", "            continue", "        t = 0"]
    if any(p.shared for p in design.pieces):  # (turns.py: a shared piece is the mover's)
        return [
            "        if v == 0 or (OWN[v] != player and not SHARED[TYP[v]]):",
            "            continue",
            "        t = TYP[v]",
        ]
    return ["        if v == 0 or OWN[v] != player:", "            continue", "        t = TYP[v]"]


def counter_cond(cond: tree.Cond, counting: bool) -> str | None:
    """``(counters N)``, and ``empty`` in a game of counters (as the move leaves it)."""
    match cond:
        case tree.Counters(n=n, at_least=at_least):
            return f"hget(b, es, neff, c) {'>=' if at_least else '=='} {n}"
        case tree.Is(word="empty") if counting:
            return "hget(b, es, neff, c) == 0"
        case tree.Is(word="flag"):
            return "(fl & 1) != 0"
    return None


def counter_statement(writer: Any, node: tree.Stmt, indent: int, fail: list[str]) -> bool:
    """Write ``node`` if it is a statement of counters (sow, sow-skip, take-to, again, the
    add of a game of counters); whether it was."""
    match node:
        case tree.Sow(direction=d):
            k, step = writer.fresh(), writer.step(d)
            skip = isinstance(node, tree.SowSkip)  # passing over where they were taken
            lines = _SOW.format(k=k, step=step, skip=int(skip)).splitlines()
            for line in lines:
                writer.emit(indent + (len(line) - len(line.lstrip())) // 4, line.strip())
            writer.fail(indent + 1, fail)
        case tree.TakeTo(zone=zone):
            writer.emit(indent, f"_t = TAKE_TO[{writer.zones.index(zone)}, p]")
            writer.emit(indent, "if _t < 0:")
            writer.fail(indent + 1, fail)
            writer.emit(
                indent, "neff = hset(es, neff, _t, hget(b, es, neff, _t) + hget(b, es, neff, c))"
            )
            writer.emit(indent, "neff = hset(es, neff, c, 0)")
        case tree.Act(word="again"):
            writer.emit(indent, "ag = True")
        case tree.Act(word="set-flag"):
            writer.emit(indent, "fl = fl | 1")
        case tree.Act(word="add") if writer.design.counters:
            writer.emit(indent, "n = add_counts(out, n, f, pid, es, neff, ag)")
        case _:
            return False
    return True


def counter_refusal(design: Design) -> str | None:
    """What a game of counters uses that this module does not write (None: nothing)."""
    again = any(
        n == tree.Act("again") for piece in design.pieces for pr in piece.programs
        for n in tree.walk(pr.tree)
    )  # fmt: skip
    if again and any(
        word in str(end.condition)
        for end in design.ends
        for word in ("(score-at-least", "(reached")
    ):
        return "an end that asks who moved last where a move may play again"
    for piece in design.pieces:
        for program in piece.programs:
            nodes = list(tree.walk(program.tree))
            for node in nodes:
                if design.counters and isinstance(node, _REFUSED):
                    return f"{tree.shown(node)} in a game of counters"
                if tree.Act("set-flag") in nodes and isinstance(node, _FLAG_REFUSED):
                    return f"{tree.shown(node)} in a program that sets a flag"
    return None
