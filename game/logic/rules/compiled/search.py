"""The compiled search: negamax alpha-beta over a design's move rows, written into the
design's module as template text (numba cannot take the game's functions as arguments
cheaply, so each module holds its own copy, compiled against its own ``legal``).

- **Hash**: Zobrist keys ``ZOB[position, piece]`` (uint64 from a fixed seed), one per turn
  step (``ZTURN``) and, where a program reads the last move (en passant), per last-move end
  (``ZFROM``, ``ZTO``). ``hash_of`` computes one from scratch; ``apply_hashed`` applies a row
  and updates the hash change by change (``h ^= ZOB[c, old] ^ ZOB[c, new]``), so a row of any
  length (a draughts capture path, Othello's flips) is hashed as it is applied.
- **Search** (``search``): one iteration of the given depth (the driver in
  :mod:`~game.logic.rules.compiled.searcher` deepens, and checks time and stop between
  iterations), walked with an explicit stack of plies (numba does not cache a function that
  calls itself). Principal variation search: the first move with the full window, the others
  with a null window and again when one beats it; late quiet moves (not the root's) one ply
  shallower first.
  A transposition table (arrays the driver keeps: key, depth, bound, score, move) keyed by the
  hash; moves ordered by the table's move, captures by the victims' value less the mover's
  (MVV-LVA) and promotions, two killers a ply, then history[from, to] and what the
  middle game's piece-square table says of the move. A player in check
  searches one ply deeper. At depth 0 a quiescence search plays captures and promotions,
  standing pat on ``evaluate``, except in check or where every legal move captures (the
  draughts' compulsory captures), where every move is searched. A position met before on
  the line is a draw where the description draws by repetition. A node cap stops the search
  (``res[3]`` = 0).
- ``principal``: the line the table holds from a position, as rows.

Scores are those of :mod:`game.logic.rules.search`: ``WIN`` less the plies to a won end,
``COUNT_WIN`` plus the margin for an end decided by counting, a draw costs the searching
side :data:`~game.logic.rules.search.CONTEMPT`.
"""

from __future__ import annotations

import random
from typing import Final

from game.logic.rules.compiled.evaluation import evaluation_source
from game.logic.rules.design import Design
from game.logic.rules.keys import key_tables
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.search import CONTEMPT, COUNT_WIN, MATE_BAND, QUIESCENCE_PLIES, WIN
from game.logic.rules.sexpr import Form

__all__ = ["MAX_PLY", "TABLE_BITS", "search_source"]

#: The deepest ply the search's stack holds (iterations, extensions and quiescence together).
MAX_PLY: Final = 96
#: The transposition table holds 2 ** TABLE_BITS entries.
TABLE_BITS: Final = 20
#: The seed of the Zobrist keys: the same keys in every process, so a hash can be checked.
SEED: Final = 29

_SEARCH: Final = '''
@njit("uint64(int64, int64)", cache=True)
def cell_key(p, v):
    """The key of value ``v`` in cell ``p``: ``ZOB``'s for a piece code on the board; for a
    count (a game of counters, a hand's cells, a column's pieces as one number) an odd
    multiple of the cell's own key, one for each count."""
    if p < NPOS and not COUNTERS:
        return ZOB[p, v]
    return ZX[p] * np.uint64(2 * v + 1)


@njit("uint64(int64[::1], int64, int64, int64)", cache=True)
def hash_of(b, turn, lf, lt):
    """The position's Zobrist hash, from scratch (every cell: the board, then any hands or
    columns)."""
    h = ZTURN[turn]
    for p in range(b.shape[0]):
        if b[p] != 0:
            h ^= cell_key(p, b[p])
    if USES_LAST:
        h ^= ZFROM[lf + 1] ^ ZTO[lt + 1]
    return h


@njit("uint64(int64[::1], int64[::1], int64[::1], uint64, int64, int64, int64)", cache=True)
def apply_hashed(b, row, undo, h, turn, lf, lt):
    """Apply ``row`` (as ``apply``) from turn step ``turn`` and last move (lf, lt); the
    hash of the position after it."""
    for i in range(row[4]):
        p = row[HEAD + 2 * i]
        v = row[HEAD + 2 * i + 1]
        undo[i] = b[p]
        if b[p] != 0:
            h ^= cell_key(p, b[p])
        if v != 0:
            h ^= cell_key(p, v)
        b[p] = v
    h ^= ZTURN[turn] ^ ZTURN[NEXT[turn]]
    if USES_LAST:
        h ^= ZFROM[lf + 1] ^ ZTO[lt + 1] ^ ZFROM[row[0] + 1] ^ ZTO[row[1] + 1]
    return h


@njit("int64(int64[::1])", cache=True)
def fingerprint(row):
    """A row's identity in the table and the killers (never 0)."""
    h = np.int64(1469598103934665603)
    for i in range(HEAD + 2 * row[4]):
        h = (h ^ (row[i] + 7)) * np.int64(1099511628211)
    return h | 1


@njit("boolean(int64[::1], int64[::1])", cache=True)
def promotes(b, row):
    """Whether the row's last change leaves a piece of another type than the one that moved."""
    if row[0] < 0 or row[4] == 0:
        return False
    v = row[HEAD + 2 * row[4] - 1]
    w = b[row[0]]
    return v != 0 and w != 0 and TYP[v] != TYP[w]


@njit("int64(int64[::1], int64[::1])", cache=True)
def victims(b, row):
    """The worth of what the row takes (each position it empties, but its start)."""
    total = 0
    for i in range(row[4]):
        p = row[HEAD + 2 * i]
        if row[HEAD + 2 * i + 1] == 0 and p != row[0] and p < NPOS and b[p] != 0:
            total += VAL[b[p]]
    return total


@njit(
    "void(uint64[::1], int64[:, ::1], uint64, int64, int64, int64, int64, int64, int64)",
    cache=True,
)
def _store(tkey, tdata, h, depth, score, alpha, beta, ply, move):
    slot = np.int64(h & np.uint64(tkey.shape[0] - 1))
    if tkey[slot] == h and tdata[slot, 0] > depth:
        return
    s = score
    if s >= MATE_BAND:
        s += ply
    elif s <= -MATE_BAND:
        s -= ply
    tkey[slot] = h
    tdata[slot, 0] = depth
    tdata[slot, 1] = 2 if score <= alpha else (1 if score >= beta else 0)
    tdata[slot, 2] = s
    tdata[slot, 3] = move



@njit("uint64(uint64, int64, int64)", cache=True)
def unmoved(h, lf, lt):
    """The hash ``h`` of a position whose last move was (lf, lt), as if there had been none:
    what a repeat compares (the same pieces and turn reached by another move are a repeat,
    as the rules count one where the moves allowed are the same)."""
    if USES_LAST:
        h ^= ZFROM[lf + 1] ^ ZTO[lt + 1] ^ ZFROM[0] ^ ZTO[0]
    return h


@njit("boolean(uint64[::1], int64, uint64[::1], int64)", cache=True)
def repeated(hs, p, gh, gn):
    """Whether the position at ply ``p`` stood earlier on the line, or in the game before it
    (``gh[:gn]``); ``hs`` holds :func:`unmoved` hashes."""
    for q in range(p - 1, -1, -1):
        if hs[q] == hs[p]:
            return True
    for q in range(gn):
        if gh[q] == hs[p]:
            return True
    return False


@njit("int64(int64, int64)", cache=True)
def fading(value, quiet):
    """A judgement shrunk toward half as the quiet moves near the description's draw."""
    if QUIET_LIMIT == 0:
        return value
    span = 2 * QUIET_LIMIT
    return value * (span - min(quiet, QUIET_LIMIT)) // span


@njit("int64(int64[::1], int64, int64, int64, int64, int64, int64)", cache=True)
def terminal(b, turn, lf, lt, n, ply, root_player):
    """The score of an ended position for the side to move, NONE while the game goes on."""
    r = end_result(b, turn, lf, lt, n)
    if r == 0:
        return NONE
    if r == 1:
        return -(WIN - ply)
    if r == 2:
        return WIN - ply
    pl = PLAYER[turn]
    margin = 0
    if r == 4:
        margin = count_of(b, pl, ALL_TYPES) - count_of(b, 1 - pl, ALL_TYPES)
    if margin > 0:
        return COUNT_WIN + margin
    if margin < 0:
        return -COUNT_WIN + margin
    return -CONTEMPT if pl == root_player else CONTEMPT


@njit("UniTuple(int64, 2)(uint64[::1], int64[:, ::1], uint64, int64, int64, int64, int64)",
      cache=True)
def probe(tkey, tdata, h, d, ply, alpha, beta):
    """The table's move for the position (0: none) and its score where it settles the node
    at depth ``d`` (else NONE)."""
    slot = np.int64(h & np.uint64(tkey.shape[0] - 1))
    if tkey[slot] != h:
        return 0, NONE
    move = tdata[slot, 3]
    if ply == 0 or d <= 0 or tdata[slot, 0] < d:
        return move, NONE
    s = tdata[slot, 2]
    if s >= MATE_BAND:
        s -= ply
    elif s <= -MATE_BAND:
        s += ply
    bound = tdata[slot, 1]
    if bound == 0 or (bound == 1 and s >= beta) or (bound == 2 and s <= alpha):
        return move, s
    return move, NONE


@njit("int64(int64[::1], int64[:, ::1], int64, int64[::1], boolean)", cache=True)
def choices(b, rows, n, perm, loud):
    """The moves to search into ``perm`` (``loud``: captures and promotions only); their
    count."""
    m = 0
    for i in range(n):
        if not loud or rows[i, 3] > 0 or promotes(b, rows[i]):
            perm[m] = i
            m += 1
    return m


@njit("boolean(int64[:, ::1], int64)", cache=True)
def all_capture(rows, n):
    """Whether every one of the ``n`` moves captures (as compulsory captures make them)."""
    for i in range(n):
        if rows[i, 3] == 0:
            return False
    return n > 0


@njit("int64(int64[::1], int64[::1])", cache=True)
def place(b, row):
    """What the middle game's piece-square table says of a quiet row, for its mover."""
    if row[0] < 0 or row[4] == 0:
        return 0
    moving = b[row[0]]
    if moving == 0:
        return 0
    gain = EMG[row[1], row[HEAD + 2 * row[4] - 1]] - EMG[row[0], moving]
    return gain if OWN[moving] == 0 else -gain


@njit(
    "void(int64[::1], int64[:, ::1], int64[::1], int64[::1], int64, int64, int64[::1], "
    "int64[:, ::1])",
    cache=True,
)
def order(b, rows, perm, sc, m, ttmove, killers, hist):
    """Each move's rank: the table's move, captures by victims less mover and promotions,
    the two killers, then the history of quiet moves that cut off."""
    for k in range(m):
        row = rows[perm[k]]
        fp = fingerprint(row)
        if fp == ttmove:
            s = 1 << 60
        elif row[3] > 0 or promotes(b, row):
            mover = VAL[b[row[0]]] if row[0] >= 0 and b[row[0]] != 0 else 0
            s = (1 << 56) + victims(b, row) * 64 - mover
            if promotes(b, row):
                s += VAL[row[HEAD + 2 * row[4] - 1]] * 64
        elif fp == killers[0]:
            s = KILLER + 1
        elif fp == killers[1]:
            s = KILLER
        else:  # by history, then by what the piece-square table says of the move
            s = hist[row[0] + 1, row[1] + 1] * 1024 + 512 + max(-511, min(511, place(b, row)))
        sc[k] = s


@njit(
    "int64(int64[::1], int64, int64, int64, uint64, int64, int64[:, :, ::1], int64[::1], "
    "int64[::1], int64[:, ::1], uint64[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], "
    "int64[::1], uint64[::1], int64, int64, int64, int64[::1], int64[::1])",
    cache=True,
)
def search(b, turn, lf, lt, h0, depth, rows, cs, es, undo, tkey, tdata, killers, hist,
           noise, gh, gn, quiet0, cap, res, best_row):
    """One iteration to ``depth`` from the position (``b`` is changed: pass a copy). ``res``:
    score, the best row's index in ``rows[0]``, nodes, 1 when finished (0: the node cap
    stopped it, -1: a position had more moves than a row buffer holds); ``best_row`` gets the
    best row. ``noise[i]`` is added to the root's move i; ``gh[:gn]``: the hashes of the
    game's positions before this one that it may repeat; ``quiet0``: its quiet moves."""
    P = MAX_PLY
    al = np.zeros(P, dtype=np.int64)
    be = np.zeros(P, dtype=np.int64)
    oa = np.zeros(P, dtype=np.int64)
    best = np.zeros(P, dtype=np.int64)
    bidx = np.zeros(P, dtype=np.int64)
    dep = np.zeros(P, dtype=np.int64)
    cnt = np.zeros(P, dtype=np.int64)
    nxt = np.zeros(P, dtype=np.int64)
    cur = np.zeros(P, dtype=np.int64)
    mode = np.zeros(P, dtype=np.int64)
    quiet = np.zeros(P, dtype=np.bool_)
    check = np.zeros(P, dtype=np.bool_)
    turns = np.zeros(P, dtype=np.int64)
    lfs = np.zeros(P, dtype=np.int64)
    lts = np.zeros(P, dtype=np.int64)
    hs = np.zeros(P, dtype=np.uint64)
    qs = np.zeros(P, dtype=np.int64)
    rs = np.zeros(P, dtype=np.uint64)
    perm = np.zeros((P, rows.shape[1]), dtype=np.int64)
    sc = np.zeros((P, rows.shape[1]), dtype=np.int64)
    root_player = PLAYER[turn]
    turns[0] = turn
    lfs[0] = lf
    lts[0] = lt
    hs[0] = h0
    rs[0] = unmoved(h0, lf, lt)
    qs[0] = quiet0
    dep[0] = depth
    al[0] = -WIN - 1
    be[0] = WIN + 1
    p = 0
    state = 0  # 0: enter a node, 1: its next move, 2: return value to the parent, 3: push
    value = 0
    nodes = 0
    child_depth = 0
    child_mode = 0
    res[3] = 1
    while True:
        if state == 0:
            nodes += 1
            if nodes > cap:
                res[3] = 0
                break
            t = turns[p]
            pl = PLAYER[t]
            if REPEATS and p > 0 and repeated(rs, p, gh, gn):
                    value = -CONTEMPT if pl == root_player else CONTEMPT
                    state = 2
                    continue
            n = legal(b, t, lfs[p], lts[p], rows[p], cs, es, undo[p])
            if n > rows.shape[1]:
                res[3] = -1
                break
            value = terminal(b, t, lfs[p], lts[p], n, p, root_player)
            if value == NONE and QUIET_DRAW and qs[p] >= QUIET_LIMIT:
                value = -CONTEMPT if pl == root_player else CONTEMPT
            if value != NONE:
                state = 2
                continue
            d = dep[p]
            incheck = False
            if ROYAL_ANY:
                incheck = in_check(b, pl, lfs[p], lts[p])
            if incheck and d > 0 and p + d < P - QPLIES - 2:
                d += 1
            if p >= P - 2 or d < -QPLIES:
                value = evaluate(b, t, lfs[p], lts[p], n, rows[p + 1], cs, es, root_player)
                value = fading(value, qs[p])
                state = 2
                continue
            alpha = al[p]
            beta = be[p]
            a0 = alpha
            ttmove, value = probe(tkey, tdata, hs[p], d, p, alpha, beta)
            if value != NONE:
                state = 2
                continue
            stand = -WIN - 1
            loud = False
            if d <= 0 and not incheck and not all_capture(rows[p], n):
                stand = evaluate(b, t, lfs[p], lts[p], n, rows[p + 1], cs, es, root_player)
                stand = fading(stand, qs[p])
                if stand >= beta:
                    value = stand
                    state = 2
                    continue
                if stand > alpha:
                    alpha = stand
                loud = True
            m = choices(b, rows[p], n, perm[p], loud)
            order(b, rows[p], perm[p], sc[p], m, ttmove, killers[p], hist)
            al[p] = alpha
            be[p] = beta
            oa[p] = a0
            best[p] = stand
            bidx[p] = perm[p, 0] if m > 0 else -1
            dep[p] = d
            cnt[p] = m
            nxt[p] = 0
            check[p] = incheck
            state = 1
        elif state == 1:
            k = nxt[p]
            if k >= cnt[p]:
                if dep[p] > 0 and bidx[p] >= 0:
                    _store(tkey, tdata, hs[p], dep[p], best[p], oa[p], be[p], p,
                           fingerprint(rows[p, bidx[p]]))
                value = best[p]
                state = 2
                continue
            top = k
            for j in range(k + 1, cnt[p]):
                if sc[p, j] > sc[p, top]:
                    top = j
            if top != k:
                x = perm[p, k]
                perm[p, k] = perm[p, top]
                perm[p, top] = x
                y = sc[p, k]
                sc[p, k] = sc[p, top]
                sc[p, top] = y
            i = perm[p, k]
            cur[p] = i
            row = rows[p, i]
            child_depth = dep[p] - 1
            child_mode = 0
            if k > 0 and dep[p] > 0:
                child_mode = 1
                if p > 0 and k >= 3 and dep[p] >= 3 and not check[p] and sc[p, k] < KILLER:
                    child_mode = 2
                    child_depth = dep[p] - 2
            state = 3
        elif state == 3:
            i = cur[p]
            row = rows[p, i]
            t = turns[p]
            h = apply_hashed(b, row, undo[p], hs[p], t, lfs[p], lts[p])
            e = noise[i] if p == 0 else 0
            a = al[p] - e
            bb = be[p] - e
            same = PLAYER[NEXT[t]] == PLAYER[t]
            q = p + 1
            turns[q] = NEXT[t]
            lfs[q] = row[0]
            lts[q] = row[1]
            hs[q] = h
            rs[q] = unmoved(h, row[0], row[1])
            qs[q] = quiet_after(row, undo[p], qs[p])
            dep[q] = child_depth
            mode[q] = child_mode
            if child_mode == 0:
                al[q] = a if same else -bb
                be[q] = bb if same else -a
            else:
                al[q] = a if same else -a - 1
                be[q] = a + 1 if same else -a
            p = q
            state = 0
        else:
            if p == 0:
                break
            came = mode[p]
            p -= 1
            i = cur[p]
            row = rows[p, i]
            unapply(b, row, undo[p])
            t = turns[p]
            v = value if PLAYER[NEXT[t]] == PLAYER[t] else -value
            if p == 0:
                v += noise[i]
            alpha = al[p]
            beta = be[p]
            if came == 2 and v > alpha:
                child_depth = dep[p] - 1
                child_mode = 1
                state = 3
                continue
            if came == 1 and v > alpha and v < beta:
                child_depth = dep[p] - 1
                child_mode = 0
                state = 3
                continue
            if v > best[p]:
                best[p] = v
                bidx[p] = i
                if v > alpha:
                    al[p] = v
                    if v >= beta:
                        if row[3] == 0 and not promotes(b, row):
                            fp = fingerprint(row)
                            if killers[p, 0] != fp:
                                killers[p, 1] = killers[p, 0]
                                killers[p, 0] = fp
                            if dep[p] > 0:
                                hist[row[0] + 1, row[1] + 1] += dep[p] * dep[p]
                        if dep[p] > 0:
                            _store(tkey, tdata, hs[p], dep[p], v, oa[p], beta, p,
                                   fingerprint(row))
                        value = v
                        state = 2
                        continue
            nxt[p] += 1
            state = 1
    res[0] = value
    res[1] = bidx[0]
    res[2] = nodes
    if res[3] == 1 and bidx[0] >= 0:
        best_row[:] = rows[0, bidx[0]]
    return res[3]


@njit(
    "int64(int64[::1], int64, int64, int64, uint64[::1], int64[:, ::1], int64[:, :, ::1], "
    "int64[::1], int64[::1], int64[:, ::1], int64[:, ::1])",
    cache=True,
)
def principal(b, turn, lf, lt, tkey, tdata, rows, cs, es, undo, out):
    """The line the table holds from the position (``b`` is changed): its rows in ``out``,
    their count (stopping at a position met before on the line)."""
    mask = np.uint64(tkey.shape[0] - 1)
    seen = np.zeros(out.shape[0] + 1, dtype=np.uint64)
    h = hash_of(b, turn, lf, lt)
    k = 0
    while k < out.shape[0]:
        for j in range(k):
            if seen[j] == h:
                return k
        seen[k] = h
        slot = np.int64(h & mask)
        if tkey[slot] != h:
            return k
        n = legal(b, turn, lf, lt, rows[0], cs, es, undo[0])
        if n > rows.shape[1] or end_result(b, turn, lf, lt, n) != 0:
            return k
        found = -1
        for i in range(n):
            if fingerprint(rows[0, i]) == tdata[slot, 3]:
                found = i
                break
        if found < 0:
            return k
        row = rows[0, found]
        out[k, :] = row
        h = apply_hashed(b, row, undo[k], h, turn, lf, lt)
        lf = row[0]
        lt = row[1]
        turn = NEXT[turn]
        k += 1
    return k
'''


def search_source(design: Design, zones: list[str]) -> list[str]:
    """The evaluation, the hash keys and the search kernels of ``design``'s module."""
    lines = evaluation_source(design, zones)
    rulebook = Rulebook(design)
    codes = rulebook.c.codes
    n = rulebook.n
    rng = random.Random(SEED)

    def keys(count: int) -> list[int]:
        return [rng.getrandbits(64) for _ in range(count)]

    tables = key_tables(design, rulebook.c)
    canon = tables[0] if tables is not None else list(range(codes))
    zob = [keys(codes) for _ in range(n)]
    for row in zob:
        row[0] = 0  # an empty position adds nothing
        for v in range(codes):  # codes the game's key holds for one (the game's history's)
            row[v] = row[canon[v]]
    quiet_draw = any(
        end.outcome == "draw"
        and isinstance(end.condition, Form)
        and end.condition.head == "quiet-moves"
        for end in design.ends
    )
    lines += [
        "",
        f"ZOB = np.array({zob!r}, dtype=np.uint64)",
        f"ZTURN = np.array({keys(len(design.turn_order))!r}, dtype=np.uint64)",
        # (the cells after the board: at most a column a position and the hands)
        f"ZX = np.array({keys(2 * n + len(design.players) * len(design.pieces) + 1)!r}, "
        "dtype=np.uint64)",
        f"ZFROM = np.array({keys(n + 1)!r}, dtype=np.uint64)",
        f"ZTO = np.array({keys(n + 1)!r}, dtype=np.uint64)",
        f"USES_LAST = {rulebook.uses_last}",
        f"REPEATS = {bool(rulebook.repetition)}",
        f"QUIET_DRAW = {quiet_draw}",
        f"ALL_TYPES = {(1 << len(design.pieces)) - 1}",
        f"WIN = {WIN}",
        f"COUNT_WIN = {COUNT_WIN}",
        f"MATE_BAND = {MATE_BAND}",
        f"CONTEMPT = {CONTEMPT}",
        f"QPLIES = {QUIESCENCE_PLIES}",
        f"MAX_PLY = {MAX_PLY}",
        "KILLER = 1 << 55  # a killer's rank in the ordering; quiet moves rank below",
        "NONE = -(1 << 62)  # no score (the search's helpers: the node goes on)",
    ]
    return lines + _SEARCH.splitlines()
