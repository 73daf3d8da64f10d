"""Random playouts, compiled: games played on from a position with moves drawn uniformly at
random until an end that perft reads holds (the draw counters left out) or a ply cap.

Two kernels, chosen from what the description says:

- ``playout``, for every game: the pseudo-legal moves, one drawn at random and tested for the
  royal pieces' safety, drawn again without putting back while it fails (so uniform among the
  legal moves); apply; the compiled ends. The royal pieces' squares are kept as the moves are
  applied (from each row's changes, so a row of several captures or a promotion is no special
  case) instead of looked for on the board at every test.
- ``fill_playout``, for a game whose every move puts a stone on an empty position and whose
  only end is a connection (:func:`fill_shape`, Hex): a move drawn at random among the empty
  positions is a position drawn without putting back, so the game is the empty positions in a
  random order, handed out in turn; the chains are kept in a union-find as the stones land
  (with a node for each zone of each player), so the test "joined?" after each stone costs a
  few lookups. It stops at the first stone that joins, as the moves one by one would.

``playouts`` plays many games from one position in one call (the winners counted where the
kernel knows them: the connection games); ``seed`` seeds numba's generator they draw from.
``playout`` and ``playouts`` are the module's only functions without a signature: they compile
at their first call (from Python, with arrays and integers: one typing), so a module that no
one plays random games on (the window, the search, perft) does not pay for them, about a
sixth of its first compile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.logic.rules import tree
from game.logic.rules.compiled.fill_search import search_source
from game.logic.rules.compiled.statements import HEAD
from game.logic.rules.design import Design
from game.logic.rules.sexpr import Atom, Form

__all__ = ["FillShape", "fill_shape", "playout_source"]


@dataclass(frozen=True)
class FillShape:
    """A game played by filling the board (see the module docstring): the piece code each
    player puts down, the connection's two zones (indices into the module's ``ZONE``), and
    whether joining them wins (else loses) for the player who joins."""

    codes: tuple[int, ...]
    first: int
    second: int
    wins: bool


def fill_shape(design: Design, zones: list[str]) -> FillShape | None:
    """The fill shape of ``design`` when it has one: two players, one piece type whose only
    program is a drop of ``(verify empty) add``, no royal pieces and no passing, and one end,
    a win or a loss by ``(connects A B)``; else None."""
    drop = (tree.Verify(tree.Is("empty")), tree.Act("add"))
    if len(design.players) != 2 or len(design.pieces) != 1 or design.royal:
        return None
    programs = design.pieces[0].programs
    if design.pass_when_stuck or not programs:
        return None
    if any(not p.drop or tuple(p.tree) != drop for p in programs):
        return None
    if len(design.ends) != 1 or design.ends[0].outcome not in ("win", "loss"):
        return None
    cond = design.ends[0].condition
    if not isinstance(cond, Form) or cond.head != "connects" or len(cond.args) != 2:
        return None
    names = [str(a.value) for a in cond.args if isinstance(a, Atom)]
    if len(names) != 2 or any(name not in zones for name in names):
        return None
    # The codes pseudo's drops put down: type 0, each player's.
    wins = design.ends[0].outcome == "win"
    return FillShape((1, 2), zones.index(names[0]), zones.index(names[1]), wins)


def playout_source(design: Design, zones: list[str]) -> list[str]:
    """The playout kernels of ``design``'s module (after its ``legal`` and ``ended``)."""
    shape = fill_shape(design, zones)
    lines = _PLAYOUT.splitlines()
    if shape is None:
        lines += ["FILL = False", *_BATCH.format(play=_ROWS_PLAY).splitlines()]
        return lines
    lines += [
        "FILL = True",
        f"FILL_CODE = np.array({list(shape.codes)!r}, dtype=np.int64)",
        f"FILL_FIRST = {shape.first}",
        f"FILL_SECOND = {shape.second}",
        f"FILL_WINS = {shape.wins}",
        *_FILL.splitlines(),
        *_BATCH.format(play=_FILL_PLAY).splitlines(),
        *search_source(),
    ]
    return lines


_PLAYOUT: Final = f'''

@njit("void(int64)", cache=True)
def seed(value):
    """Seed the generator the random playouts draw from."""
    np.random.seed(value)


@njit("void(int64[::1], int64[:, ::1], int64[::1])", cache=True)
def royal_squares(b, rq, nr):
    """Each player's royal pieces' positions into ``rq[player, :nr[player]]``."""
    nr[:] = 0
    for k in range(NPOS):
        v = b[k]
        if v != 0 and ROYAL[v]:
            p = OWN[v]
            rq[p, nr[p]] = k
            nr[p] += 1


@njit("void(int64[::1], int64[::1], int64[:, ::1], int64[::1])", cache=True)
def royal_moved(b, row, rq, nr):
    """``rq`` after the move ``row`` (applied to ``b``): a listed position that no longer holds
    its player's royal piece is struck off, and each change that puts one down is listed."""
    for p in range(rq.shape[0]):
        i = 0
        while i < nr[p]:
            v = b[rq[p, i]]
            if v != 0 and ROYAL[v] and OWN[v] == p:
                i += 1
            else:
                nr[p] -= 1
                rq[p, i] = rq[p, nr[p]]
    for j in range(row[4]):
        c = row[{HEAD} + 2 * j]
        v = row[{HEAD} + 2 * j + 1]
        if v != 0 and ROYAL[v] and b[c] == v:
            p = OWN[v]
            listed = False
            for i in range(nr[p]):
                listed = listed or rq[p, i] == c
            if not listed:
                rq[p, nr[p]] = c
                nr[p] += 1


@njit("boolean(int64[::1], int64[::1], int64, int64[::1], int64[:, ::1], int64[::1])", cache=True)
def safe_at(b, row, player, undo, rq, nr):
    """Whether the move ``row`` leaves none of ``player``'s royal pieces attacked, with their
    positions before it in ``rq``: after it they stand there still or where the row puts one."""
    apply(b, row, undo)
    ok = True
    for i in range(nr[player]):
        k = rq[player, i]
        v = b[k]
        if v != 0 and ROYAL[v] and OWN[v] == player:
            if attacked(b, k, 1 - player, row[0], row[1], 0):
                ok = False
                break
    if ok:
        for j in range(row[4]):
            c = row[{HEAD} + 2 * j]
            v = row[{HEAD} + 2 * j + 1]
            if v != 0 and ROYAL[v] and OWN[v] == player and b[c] == v:
                if attacked(b, c, 1 - player, row[0], row[1], 0):
                    ok = False
                    break
    unapply(b, row, undo)
    return ok


@njit(cache=True)  # (compiled at its first call: most processes never play one)
def playout(b, st, limit, rows, cs, es, undo, record):
    """A game played on from ``b`` (changed) and ``st`` = (turn, last from, last to, winner),
    left as the game ends, with moves drawn uniformly at random until one of the end conditions
    perft reads holds or ``limit`` plies; the plies played, -1 when a position has more moves
    than a row buffer holds. The winner is left -1 (the ends say who wins). The moves played
    go into ``record``'s rows while it has rows (a pass as a row of program -1)."""
    turn = st[0]
    lf = st[1]
    lt = st[2]
    st[3] = -1
    out = rows[0]
    rq = np.empty((2, NPOS), dtype=np.int64)
    nr = np.zeros(2, dtype=np.int64)
    if ROYAL_ANY:
        royal_squares(b, rq, nr)
    played = limit
    for ply in range(limit):
        player = PLAYER[turn]
        n = by_kind(out, pseudo(b, player, lf, lt, out, cs, es), turn)
        if n > out.shape[0]:
            return -1
        chosen = -1
        while n > 0:
            i = np.random.randint(n)
            if (not ROYAL_ANY or safe_at(b, out[i], player, undo[0], rq, nr)) and (
                not NO_MATE_ANY or not mates(b, turn, out[i], cs, es)
            ):
                chosen = i
                break
            n -= 1
            out[i, :] = out[n]
        passes = (
            chosen < 0
            and PASS_WHEN_STUCK
            and moves(b, NEXT[turn], lf, lt, out, cs, es, undo[0]) > 0
        )
        if chosen < 0 and not passes or ended(b, turn, lf, lt, 1 if chosen >= 0 or passes else 0):
            played = ply
            break
        if ply < record.shape[0]:
            if chosen < 0:
                record[ply, :] = 0
                record[ply, 0] = lf
                record[ply, 1] = lt
                record[ply, 2] = -1
            else:
                record[ply, :] = out[chosen]
        if chosen < 0:
            turn = NEXT[turn]
            continue  # a pass: the last move's ends stay
        row = out[chosen]
        turn = turn_after(turn, row[2])
        apply(b, row, undo[0])
        if ROYAL_ANY:
            royal_moved(b, row, rq, nr)
        lf = row[0]
        lt = row[1]
    st[0] = turn
    st[1] = lf
    st[2] = lt
    return played
'''

_FILL: Final = f'''

@njit("int64(int64[::1], int64)", cache=True)
def take(cells, m):
    """One of ``cells[:m]`` drawn at random, the last of them moved into its place."""
    i = np.random.randint(m)
    p = cells[i]
    cells[i] = cells[m - 1]
    return p


@njit("int64(int64[::1], int64)", cache=True)
def chain(parent, p):
    """The root of ``p``'s chain (halving the path on the way)."""
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@njit("void(int64[::1], int64[::1], int64)", cache=True)
def stone_joins(b, parent, p):
    """The stone on ``p`` joined to its owner's stones beside it, and to its owner's node of
    each zone of the connection it stands in (nodes NPOS + 2 * player and the next)."""
    who = OWN[b[p]]
    for d in range(L.shape[0]):
        q = L[d, p]
        if q >= 0 and b[q] != 0 and OWN[b[q]] == who:
            parent[chain(parent, q)] = chain(parent, p)
    if ZONE[FILL_FIRST, who, p]:
        parent[chain(parent, NPOS + 2 * who)] = chain(parent, p)
    if ZONE[FILL_SECOND, who, p]:
        parent[chain(parent, NPOS + 2 * who + 1)] = chain(parent, p)


@njit("int64(int64[::1], int64[::1], int64[::1], int64[::1])", cache=True)
def fill_start(b, parent, free, st):
    """The union-find of ``b``'s chains into ``parent``, its empty positions into ``free``;
    their number, or -1 when the connection holds already (``st``'s winner set)."""
    for k in range(parent.shape[0]):
        parent[k] = k
    nfree = 0
    for p in range(NPOS):
        if b[p] != 0:
            stone_joins(b, parent, p)
        elif not OFF[p]:
            free[nfree] = p
            nfree += 1
    for who in range(2):
        if chain(parent, NPOS + 2 * who) == chain(parent, NPOS + 2 * who + 1):
            st[3] = who if FILL_WINS else 1 - who
            return -1
    return nfree


@njit("int64(int64[::1], int64[::1], int64, int64[:, ::1])", cache=True)
def fill_playout(b, st, limit, record):
    """``playout`` for a game that fills the board (see the module docstring): the empty
    positions drawn in a random order, stones handed out in turn, until one joins its
    player's zones (``st``'s winner: that player when joining wins, the other when it loses;
    -1 when the board fills first or ``limit`` plies pass)."""
    parent = np.empty(NPOS + 4, dtype=np.int64)
    free = np.empty(NPOS, dtype=np.int64)
    turn = st[0]
    st[3] = -1
    nfree = fill_start(b, parent, free, st)
    if nfree < 0:
        return 0
    ply = 0
    p = st[2]
    while ply < limit and nfree > 0:
        p = take(free, nfree)
        nfree -= 1
        who = PLAYER[turn]
        b[p] = FILL_CODE[who]
        if ply < record.shape[0]:
            record[ply, :] = 0
            record[ply, 0] = -1
            record[ply, 1] = p
            record[ply, 4] = 1
            record[ply, {HEAD}] = p
            record[ply, {HEAD + 1}] = FILL_CODE[who]
        stone_joins(b, parent, p)
        ply += 1
        turn = NEXT[turn]
        if chain(parent, NPOS + 2 * who) == chain(parent, NPOS + 2 * who + 1):
            st[3] = who if FILL_WINS else 1 - who
            break
    st[0] = turn
    if ply:
        st[1] = -1
        st[2] = p
    return ply
'''

#: How one game of ``playouts`` is played: move by move, or by filling the board.
_ROWS_PLAY: Final = "playout(b, st, limit, rows, cs, es, undo, record)"
_FILL_PLAY: Final = "fill_playout(b, st, limit, record)"

_BATCH: Final = '''

@njit(cache=True)  # (compiled at its first call, as playout)
def playouts(b0, st0, games, limit, rows, cs, es, undo, wins):
    """``games`` random games from ``b0`` and ``st0`` (both left as they are): the plies of
    all, -1 when a position has more moves than a row buffer holds; each game's winner, where
    the kernel knows it, counted in ``wins``."""
    b = np.empty_like(b0)
    st = np.empty_like(st0)
    record = np.zeros((0, 1), dtype=np.int64)
    total = 0
    for _ in range(games):
        b[:] = b0
        st[:] = st0
        n = {play}
        if n < 0:
            return -1
        total += n
        if st[3] >= 0:
            wins[st[3]] += 1
    return total
'''
