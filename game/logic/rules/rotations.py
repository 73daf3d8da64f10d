"""Turning part of the board as part of a move: ``(rotate ZONE clockwise)`` and ``(rotate
ZONE anticlockwise)`` turn the pieces of a square zone a quarter turn about its centre, as
the board is drawn (Pentago's quadrants).

A drop that rotates places its piece first and turns the zone after, the placed piece with
it: the move's effects set every position of the zone that a piece turns onto, in an order
that tells the turn (positions ascending for clockwise, descending for anticlockwise), and
its last effect is what ends on the drop's position. Its text is the drop's position, the
zone and ``cw`` or ``ccw`` (``b5 nw cw``), read back from that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules import tree
from game.logic.rules.sexpr import Form
from game.logic.rules.words import arg, err, word_of

if TYPE_CHECKING:
    from game.logic.rules.board import Board
    from game.logic.rules.design import Design
    from game.logic.rules.rulebook import Move, Rulebook

__all__ = [
    "TURNS",
    "RotationWriter",
    "check_rotate",
    "quarter_turn",
    "quarter_turns",
    "rotation_text",
]

#: The turns a ``rotate`` names, and the word its move's text shows for each.
TURNS: Final = {"clockwise": "cw", "anticlockwise": "ccw"}


def quarter_turn(board: Board, zone: Sequence[int], clockwise: bool) -> list[tuple[int, int]]:
    """``(to, from)`` for each position of ``zone`` whose piece a quarter turn moves, in the
    order the move's effects list them; ValueError when the zone does not look the same
    turned a quarter (not a square block)."""
    xy = board.xy
    if not zone:
        raise ValueError("the zone is empty")
    cx = sum(xy[p][0] for p in zone) / len(zone)
    cy = sum(xy[p][1] for p in zone) / len(zone)
    at = {(round(xy[p][0], 6), round(xy[p][1], 6)): p for p in zone}
    pairs = []
    for p in zone:
        dx, dy = xy[p][0] - cx, xy[p][1] - cy
        # Clockwise as drawn (y grows up): (dx, dy) goes to (dy, -dx).
        to = (cx + dy, cy - dx) if clockwise else (cx - dy, cy + dx)
        q = at.get((round(to[0], 6), round(to[1], 6)))
        if q is None:
            raise ValueError("its positions do not make a square block")
        if q != p:
            pairs.append((q, p))
    return sorted(pairs, reverse=not clockwise)


def check_rotate(reader: Any, item: Form) -> None:
    """Refuse a ``(rotate ZONE TURN)`` whose zone is unknown or cannot turn a quarter, or
    whose turn is not ``clockwise`` or ``anticlockwise``."""
    zone_item, turn_item = arg(item, 2, 2)
    name = reader._zone_name(zone_item)
    if word_of(turn_item) not in TURNS:
        raise err(turn_item, "(rotate ZONE clockwise) or (rotate ZONE anticlockwise)")
    for part in reader.board.zones[name]:
        try:
            quarter_turn(reader.board, sorted(part), True)
        except ValueError as e:
            raise err(zone_item, f"the zone {name!r} cannot turn a quarter: {e}") from None


class RotationWriter:
    """The writer's part for ``rotate``: the zone's positions turned on the board as it will
    be after the move so far (the moving piece on the cursor), the cursor's new content
    becoming the piece the move puts there."""

    design: Design
    player: int
    ns: dict[str, Any]

    if TYPE_CHECKING:

        def fresh(self) -> int: ...

        def emit(self, indent: int, text: str) -> None: ...

    def rotate(self, node: tree.Rotate, indent: int) -> None:
        board = self.design.board
        part = sorted(board.zones[node.zone][self.player])
        pairs = quarter_turn(board, part, node.turn == "clockwise")
        k = self.fresh()
        source = list(range(len(board.names)))
        for to, frm in pairs:
            source[to] = frm
        self.ns[f"ROT{k}"] = tuple(pairs)
        self.ns[f"RSRC{k}"] = tuple(source)
        self.emit(indent, "_g = dict(eff); _g[c] = mc")
        self.emit(indent, f"eff = eff + tuple((_d, _g.get(_s, b[_s])) for _d, _s in ROT{k})")
        self.emit(indent, f"mc = _g.get(RSRC{k}[c], b[RSRC{k}[c]])")


def rotation_text(rulebook: Rulebook, move: Move) -> str:
    """The turns a drop makes, as text after its position (`` nw cw``), or ""."""
    return "".join(text for text, _ in _turns(rulebook, move))


def quarter_turns(rulebook: Rulebook, move: Move) -> list[tuple[int, int]]:
    """``(to, from)`` for each position whose piece the move's turns carry (what the window
    shows turning), [] for a move that turns nothing."""
    return [pair for _, pairs in _turns(rulebook, move) for pair in pairs]


def _turns(rulebook: Rulebook, move: Move) -> list[tuple[str, list[tuple[int, int]]]]:
    """The text and the ``(to, from)`` pairs of each turn the move makes, read from the order
    of its effects."""
    table = rulebook.__dict__.get("_rotations")
    if table is None:
        table = rulebook.__dict__["_rotations"] = _rotations(rulebook.design)
    if not table:
        return []
    spots = tuple(p for p, _ in move[2])
    found = []
    for pairs, text in table:
        seq = tuple(to for to, _ in pairs)
        n = len(seq)
        if any(spots[i : i + n] == seq for i in range(len(spots) - n + 1)):
            found.append((text, pairs))
    return found


def _rotations(design: Design) -> list[tuple[list[tuple[int, int]], str]]:
    """Each turn the programs make: its ``(to, from)`` pairs in the order its effects list
    them, and its text."""
    seen: dict[tuple[tuple[int, int], ...], str] = {}
    for piece in design.pieces:
        for program in piece.programs:
            for node in tree.walk(program.tree):
                if isinstance(node, tree.Rotate):
                    for part in design.board.zones[node.zone]:
                        pairs = quarter_turn(design.board, sorted(part), node.turn == "clockwise")
                        seen[tuple(pairs)] = f" {node.zone} {TURNS[node.turn]}"
    return [(list(pairs), text) for pairs, text in seen.items()]
