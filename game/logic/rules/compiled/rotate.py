"""``(rotate ZONE clockwise|anticlockwise)`` in the compiled back end: a quarter turn of a
zone (:mod:`game.logic.rules.rotations`), written as extra changes of the move.

The turn reads the board as the move so far leaves it (the extra changes made before it, the
moving piece on the cursor) and appends, for each position a piece turns onto, that position
and the piece turned onto it, in the order the Python back end lists them; the cursor's new
content becomes the moving piece. The pairs are tables per player (a zone may differ between
players), written with the program functions' helpers.
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.design import Design
from game.logic.rules.rotations import quarter_turn

__all__ = ["rotate_statement", "rotation_changes"]

#: The piece at ``s`` on the board as the move so far leaves it: the moving piece ``mc`` on
#: the cursor ``c``, else the last of the first ``n0`` extra changes ``es`` made there, else
#: the board.
_TURNED: Final = """
@njit("int64(int64[::1], int64, int64, int64[::1], int64, int64)", cache=True)
def turned_at(b, c, mc, es, n0, s):
    if s == c:
        return mc
    for i in range(n0 - 1, -1, -1):
        if es[2 * i] == s:
            return es[2 * i + 1]
    return b[s]


"""


def _pairs(design: Design, node: tree.Rotate) -> list[list[tuple[int, int]]]:
    """Each player's ``(to, from)`` pairs of the turn ``node`` makes."""
    board = design.board
    return [
        quarter_turn(board, sorted(part), node.turn == "clockwise")
        for part in board.zones[node.zone]
    ]


def rotation_changes(design: Design, body: Any) -> int:
    """The most changes the turns in ``body`` (a program's tree) add to one move, every turn
    counted; -1 when a turn stands in a loop or a sweep (no bound known here)."""
    total = 0
    for node in tree.walk(body):
        if isinstance(node, tree.While | tree.Repeat | tree.Sweep) and any(
            isinstance(n, tree.Rotate) for n in tree.walk(node.body)
        ):
            return -1
        if isinstance(node, tree.Rotate):
            total += max(len(pairs) for pairs in _pairs(design, node))
    return total


def rotate_statement(writer: Any, node: tree.Rotate, indent: int) -> None:
    """The lines of one turn at ``indent`` (its tables among ``writer.helpers``: each
    player's pairs, padded to the longest, and their count); the path's count of extra
    changes grows by the longest (unknown inside a loop)."""
    pairs = _pairs(writer.design, node)
    width = max(len(p) for p in pairs)
    if not any(line.startswith("def turned_at(") for line in writer.helpers):
        writer.helpers += _TURNED.splitlines()
    k = writer.fresh()
    npos = len(writer.design.board.names)
    sources = []
    for player_pairs in pairs:
        source = list(range(npos))
        for to, frm in player_pairs:
            source[to] = frm
        sources.append(source)
    rows = [[list(pair) for pair in p] + [[0, 0]] * (width - len(p)) for p in pairs]
    writer.helpers += [
        f"ROT{k} = np.array({rows!r}, dtype=np.int64).reshape({len(pairs)}, {width}, 2)",
        f"RN{k} = np.array({[len(p) for p in pairs]!r}, dtype=np.int64)",
        f"RSRC{k} = np.array({sources!r}, dtype=np.int64)",
        "",
    ]
    writer.emit(indent, f"_rn{k} = neff")
    writer.emit(indent, f"_rm{k} = turned_at(b, c, mc, es, _rn{k}, RSRC{k}[p, c])")
    writer.emit(indent, f"for _ri{k} in range(RN{k}[p]):")
    writer.emit(indent + 1, f"_rt{k} = ROT{k}[p, _ri{k}, 0]; _rs{k} = ROT{k}[p, _ri{k}, 1]")
    writer.emit(indent + 1, f"es[2 * neff] = _rt{k}")
    writer.emit(indent + 1, f"es[2 * neff + 1] = turned_at(b, c, mc, es, _rn{k}, _rs{k})")
    writer.emit(indent + 1, "neff += 1")
    writer.emit(indent, f"mc = _rm{k}")
    writer.extra = -1 if writer.extra < 0 or writer.looping else writer.extra + width
