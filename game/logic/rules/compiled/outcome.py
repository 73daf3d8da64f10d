"""The end of a game compiled whole: the outcome with the draw counters, the position hash that
repetition counts, and the counters a driver keeps from move to move.

Written into each design's module (after the attack test, before the move programs):

- ``outcome(b, turn, lf, lt, n, quiet, plies, hist, nh)``: the first end condition that holds,
  in the description's order, as one of :data:`RESULTS` (0: the game goes on), exactly as
  :meth:`~game.logic.rules.ends.Ends.outcome` answers; ``n``: the legal moves (a pass
  counts one), ``quiet``/``plies``: the counters (:func:`quiet_after` keeps the first, the
  plies played the second), ``hist[:nh]``: the hashes of the positions since the last move
  that cannot be undone, this one last (:func:`keep`). No legal move and no end that says
  more: a draw.
- ``winner(b, turn, result)``: the player who won by ``result`` (-1: none, a draw).
- ``poshash(b, turn, out, n)``: a 64-bit hash of what the Python back end's ``key`` holds:
  the board, each attribute that no program can read any more set as ``pieces_key`` sets it
  (tables from :func:`~game.logic.rules.keys.key_tables`), and the turn; a Zobrist hash,
  ``HZ[position, code]`` and ``HTURN[turn]`` drawn from numpy's ``RandomState`` seeded with
  :data:`SEED`. Where a program reads the last move, two positions that differ only there
  are the same when they allow the same moves (``Ends.occurrences``): the hash then holds,
  instead of the last move, a hash of the set of the legal moves (from, to, changes) among
  ``out[:n]`` whose program reads it (``READS_LAST``; en passant in chess): ``out[:n]``
  must hold every legal move of those programs and no illegal one (the legal moves do).
- ``quiet_after(row, undo, quiet)``: the quiet-move counter after the move ``row`` was
  applied (``undo``: what it replaced), 0 after a capture or a move of a type the
  ``quiet-moves`` end names; ``keep(b, turn, row, out, n, hist, nh)``: after ``row``, the
  new position's hash pushed (the history cleared first after a capture, a drop or a pass),
  the new ``nh``. ``hist`` must have room for one more.

A driver per ply: ``apply``; ``turn = NEXT[turn]``; ``lf, lt = row[0], row[1]``;
``quiet = quiet_after(row, undo, quiet)``; ``plies += 1``; ``n = legal(...)`` into ``out``;
``nh = keep(b, turn, row, out, n, hist, nh)``; ``outcome(...)``.
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.compiled.ends import EndWriter, ended_source
from game.logic.rules.compiled.hands import hand_cells
from game.logic.rules.design import Design
from game.logic.rules.ends import walk
from game.logic.rules.keys import key_tables
from game.logic.rules.read_ends import OUTCOMES
from game.logic.rules.sexpr import Form

__all__ = ["RESULTS", "SEED", "UNSURE", "outcome_source"]

#: What ``outcome`` returns: 0 while the game goes on, else 1 + the index of the outcome word;
#: UNSURE where only the Python back end can say (a perpetual check: whether every move of
#: the cycle gave check is read from the positions of the history).
RESULTS: Final = ("", *OUTCOMES)
UNSURE: Final = -1

#: The seed of the hash's random table (numpy's ``RandomState``, the same on every machine).
SEED: Final = 29

#: The kernels of the hash, each written only where the design needs it: ``mix`` where a
#: program reads the last move, ``canonical`` where an attribute counts only while a piece
#: that reads it stands.
_MIX: Final = '''
@njit("int64(int64)", cache=True)
def mix(x):
    """The bits of ``x`` spread over the whole word (multiplications that wrap)."""
    x = (x ^ (x >> 31)) * 7046029254386353131
    x = (x ^ (x >> 29)) * 4658895280553007687
    return x ^ (x >> 32)
'''

_CANONICAL: Final = '''
@njit("int64[::1](int64[::1])", cache=True)
def canonical(b):
    """Per code, the code the key writes for it on this board (``pieces_key``)."""
    final = np.arange(NCODES)
    present = np.zeros(NCODES, dtype=np.bool_)
    for k in range(NPOS):
        present[b[k]] = True
    for v in range(NCODES):
        if present[v] and WN[v] > 0:
            bits = 0
            for j in range(WN[v]):
                live = False
                for y in range(NCODES):
                    if present[y] and WLIVE[v, j, y]:
                        live = True
                        break
                if not live:
                    bits |= WBIT[v, j]
            if bits != 0:
                final[CANON[v]] = WCODE[v, bits]
    return final
'''

#: The board's part of ``poshash``: plain, through CANON, through ``canonical``.
_BOARD: Final = {
    "plain": "h ^= HZ[k, b[k]]",
    "canon": "h ^= HZ[k, CANON[b[k]]]",
    "watched": "h ^= HZ[k, final[CANON[b[k]]]]",
    # (a count, not a code: an odd multiple of the position's number, one for each count)
    "counts": "h ^= HZ[k, 0] * (2 * b[k] + 1)",
}

_LAST: Final = """
    s = 0
    for i in range(n):
        row = out[i]
        if row[2] >= 0 and READS_LAST[row[2]]:
            x = mix(row[0] + 3)
            x = mix(x ^ row[1])
            for j in range(2 * row[4]):
                x = mix(x + row[HEAD + j])
            s += x
    h ^= mix(s)"""

_COUNTERS: Final = """
@njit("int64(int64[::1], int64[::1], int64)", cache=True)
def quiet_after(row, undo, quiet):
    if QUIET_LIMIT == 0:
        return 0
    if row[3] > 0:
        return 0
    if row[0] >= 0 and row[2] >= 0 and row[4] > 0:
        moving = undo[0]
        if moving != 0 and (QUIET_MASK >> TYP[moving]) & 1:
            return 0
    return quiet + 1


@njit("int64(int64[::1], int64, int64[::1], int64[:, ::1], int64, int64[::1], int64)", cache=True)
def keep(b, turn, row, out, n, hist, nh):
    if not REPEATS:
        return 0
    if (row[3] > 0 or row[2] < 0 or row[0] < 0) and not TO_HAND:
        nh = 0
    hist[nh] = poshash(b, turn, out, n)
    return nh + 1


@njit("int64(int64[::1], int64, int64)", cache=True)
def winner(b, turn, result):
    if result == 1:
        return MOVER[turn]
    if result == 2:
        return 1 - MOVER[turn]
    if result != 4:
        return -1
    return COUNT_WINNER(b)
"""

#: Who wins by ``count``: the player with more pieces on the board, or more counters in
#: their parts of the score and keep zones; -1 when even.
_COUNT_WINNER: Final = """
@njit("int64(int64[::1])", cache=True)
def count_winner(b):
    counts = np.zeros(2, dtype=np.int64)
    for k in range(NPOS):
        v = b[k]
        if COUNTERS:
            for who in range(2):
                if SCORE >= 0 and ZONE[SCORE, who, k]:
                    counts[who] += v
                if KEEP >= 0 and ZONE[KEEP, who, k]:
                    counts[who] += v
        elif v != 0:
            counts[OWN[v]] += 1
    if counts[0] == counts[1]:
        return -1
    return 0 if counts[0] > counts[1] else 1
"""


def _kernels(design: Design, tables: Any, reads_last: bool) -> list[str]:
    """``mix`` and ``canonical`` where needed, ``poshash``, the counters' kernels, ``winner``."""
    watched = tables is not None and bool(tables[1])
    board = "watched" if watched else "canon" if tables is not None else "plain"
    board = "counts" if design.counters else board
    lines = _MIX.splitlines() if reads_last else []
    lines += _CANONICAL.splitlines() if watched else []
    lines += ["", "", '@njit("int64(int64[::1], int64, int64[:, ::1], int64)", cache=True)']
    lines += ["def poshash(b, turn, out, n):", "    h = HTURN[turn]"]
    lines += ["    final = canonical(b)"] if watched else []
    lines += ["    for k in range(NPOS):", "        if b[k] != 0:", f"            {_BOARD[board]}"]
    if hand_cells(design):  # the pieces in hand: a count per cell after the board
        lines += [
            "    for k in range(HAND_CELLS):",
            "        h ^= HHAND[k] * (2 * b[NPOS + k] + 1)",
        ]
    if design.stacks:  # the columns under the tops: a number per position (stacks.py)
        lines += [
            "    for k in range(STACK_CELLS):",
            "        if b[STACK0 + k] != 0:",
            "            h ^= HSTACK[k] * (2 * b[STACK0 + k] + 1)",
        ]
    lines += [*(_LAST.splitlines()[1:] if reads_last else []), "    return h", ""]
    counts = any(end.outcome == "count" for end in design.ends)
    if counts:
        lines += _COUNT_WINNER.splitlines()
    text = _COUNTERS.replace("COUNT_WINNER(b)", "count_winner(b)" if counts else "-1")
    return [*lines, *text.splitlines()]


#: The signature of ``outcome``.
OUTCOME: Final = "int64(int64[::1], int64, int64, int64, int64, int64, int64, int64[::1], int64)"


def outcome_source(design: Design, zones: list[str], compiled: Any) -> list[str]:
    """The end conditions' tables and scans, ``ended`` (perft's view), the hash tables and
    kernels above, and ``outcome``."""
    writer = EndWriter(design, zones)
    writer.used |= {"count_of", "in_check"}  # (the search's module reads them too)
    ended = ended_source(writer)
    tests: list[tuple[str, int]] = []
    for end in design.ends:
        cond = end.condition
        if isinstance(cond, Form) and cond.head == "perpetual-check":  # (the count reached)
            count = int(cond.items[1].value)  # type: ignore[union-attr]
            tests.append((f"{writer.call('repeats', 'hist, nh')} >= {count}", UNSURE))
        else:
            tests.append((writer.cond(cond, perft=False), RESULTS.index(end.outcome)))
    last = ("last-to", "last-from")
    reads_last = [
        any(isinstance(node, tree.Is) and node.word in last for node in tree.walk(program.tree))
        for piece in design.pieces
        for program in piece.programs
    ]
    tables = key_tables(design, compiled)
    lines = [*writer.tables(), *ended, *_hash_tables(design, zones, compiled, tables, reads_last)]
    lines += _kernels(design, tables, any(reads_last))
    lines += ["", "", f'@njit("{OUTCOME}", cache=True)']
    lines.append("def outcome(b, turn, lf, lt, n, quiet, plies, hist, nh):")
    lines.append("    player = PLAYER[turn]")
    lines.append("    mover = MOVER[turn]  # who made the last move (turns.py)")
    for test, code in tests:
        if test != "False":
            lines += [f"    if {test}:", f"        return {code}"]
    lines += [f"    return {RESULTS.index('draw')} if n == 0 else 0", "", ""]
    return lines


def _hash_tables(
    design: Design, zones: list[str], compiled: Any, tables: Any, reads_last: list[bool]
) -> list[str]:
    codes = compiled.codes
    canon, watched = tables if tables is not None else (list(range(codes)), {})
    most = max((len(pairs) for pairs in watched.values()), default=0) or 1
    wn = [len(watched.get(v, ())) for v in range(codes)]
    live = [[[False] * codes for _ in range(most)] for _ in range(codes)]
    bit = [[0] * most for _ in range(codes)]
    for v, pairs in watched.items():
        for j, (readers, b) in enumerate(pairs):
            bit[v][j] = b
            for y in readers:
                live[v][j][y] = True
    attrs = 1 << len(design.attributes)
    with_bits = [
        [
            compiled.code(compiled.owner[v], compiled.kind_of[v], compiled.attrs[canon[v]] | m)
            if v
            else 0
            for m in range(attrs)
        ]
        for v in range(codes)
    ]
    quiet_limit, quiet_mask, repeats = 0, 0, False
    for end in design.ends:
        for cond in walk(end.condition):
            if isinstance(cond, Form) and cond.head == "quiet-moves":
                quiet_limit = int(cond[1].value)  # type: ignore[union-attr]
                for word in cond.items[2:]:
                    quiet_mask |= 1 << design.type_index(str(word.value))  # type: ignore[union-attr]
            repeats = repeats or (
                isinstance(cond, Form) and cond.head in ("repetition", "perpetual-check")
            )
    steps = len(design.turn_order)
    score = zones.index(design.score_zone) if design.score_zone in zones else -1
    keep = zones.index(design.keep_zone) if design.keep_zone in zones else -1
    return [
        f"NCODES = {codes}",
        f"_RS = np.random.RandomState({SEED})",
        "_LOW, _HIGH = np.iinfo(np.int64).min, np.iinfo(np.int64).max",
        "HZ = _RS.randint(_LOW, _HIGH, size=(NPOS, NCODES), dtype=np.int64)",
        f"HTURN = _RS.randint(_LOW, _HIGH, size={steps}, dtype=np.int64)",
        f"HHAND = _RS.randint(_LOW, _HIGH, size={max(1, hand_cells(design))}, dtype=np.int64)",
        f"CANON = np.array({canon!r}, dtype=np.int64)",
        f"WN = np.array({wn!r}, dtype=np.int64)",
        f"WLIVE = np.array({live!r}, dtype=np.bool_)",
        f"WBIT = np.array({bit!r}, dtype=np.int64)",
        f"WCODE = np.array({with_bits!r}, dtype=np.int64)",
        f"READS_LAST = np.array({[*reads_last, False]!r}, dtype=np.bool_)",
        f"QUIET_LIMIT = {quiet_limit}",
        f"QUIET_MASK = {quiet_mask}",
        f"REPEATS = {repeats}",
        f"TO_HAND = {design.captures_to_hand}",
        f"COUNTERS = {design.counters}",
        f"SCORE = {score}",
        f"KEEP = {keep}",
        *(["HSTACK = _RS.randint(_LOW, _HIGH, size=NPOS, dtype=np.int64) | 1"] * design.stacks),
    ]
