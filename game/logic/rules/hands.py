"""Pieces in hand taken from captures, and moves that may not mate (shogi).

``(rules (captures-to-hand))``: a captured piece goes to the hand of the player who took it,
as the type it was promoted from (the type whose move programs ``(promote ...)`` to it; a
type no program promotes to stays itself), and the player drops it later with that type's
``(drops ...)`` programs, one piece from the hand each time. ``(rules (no-mate KIND...))``:
a move of these types may not leave the opponent with no legal move while in check
(shogi's rule against mating with a dropped pawn).

``(setup (P (in-hand PIECE unlimited)))``: P drops PIECE without limit though other hands are
counted (a ZRF file's drops where the player has no ``off`` count while others do); the
hand shows none and a drop takes nothing from it.

:class:`HandRules` holds what the rulebook needs for them; it costs nothing in a game that
states neither rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.logic.rules.compile import PROGRAM
from game.logic.rules.demotion import base_types
from game.logic.rules.position import DescribedPosition, Move

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["HandRules"]


class HandRules:
    """The hands' bookkeeping for one rulebook: where captured pieces go, which moves may
    not mate."""

    def __init__(self, rulebook: Rulebook) -> None:
        design = rulebook.design
        self.rulebook = rulebook
        self.to_hand = design.captures_to_hand
        self.base = base_types(design) if self.to_hand else []
        programs = rulebook.c.programs
        self.no_mate = frozenset(
            i for i, program in enumerate(programs) if program[2] in design.no_mate
        )
        #: (player, type) pairs that drop without limit: ``(in-hand PIECE unlimited)``.
        self.endless = frozenset(
            (p, t) for p, row in design.hands.items() for t, n in row.items() if n < 0
        )

    def counted(self, player: int, kind: int) -> bool:
        """Whether ``player``'s drops of ``kind`` come from a counted hand (not unlimited)."""
        return (player, kind) not in self.endless

    def make(self, pos: DescribedPosition, move: Move, undo: tuple[Any, ...]) -> None:
        """Change the hands for ``move`` just made on ``pos`` (whose board ``undo`` held
        before): a dropped piece leaves the mover's hand, captured pieces join it."""
        _path, caps, _effects, pid = move
        rb = self.rulebook
        player = pos.mover
        program = rb.c.programs[pid & PROGRAM]
        dropped = program[3]
        if not dropped and not (caps and self.to_hand):
            return
        hands = list(pos.hands)
        row = list(hands[player])
        if dropped and (player, program[0]) not in self.endless:
            row[program[0]] -= 1
        if caps and self.to_hand:
            kind_of, base = rb.c.kind_of, self.base
            seen = set()
            for p, v, *_ in undo:
                if p in caps and v and p not in seen:
                    seen.add(p)
                    row[base[kind_of[v]]] += 1
        hands[player] = tuple(row)
        pos.hands = tuple(hands)

    def allowed(self, pos: DescribedPosition, moves: list[Move]) -> list[Move]:
        """``moves`` less those of a ``no-mate`` type that mate: after one, the opponent is
        in check and has no legal move. A drop only adds a piece, so it checks only when
        that piece attacks an enemy royal piece: the others are kept without playing them."""
        rb = self.rulebook
        c = rb.c
        enemy = (rb.player(pos) + 1) % rb.players
        royal = set(rb.royal_squares(pos.board, enemy))
        out = []
        for move in moves:
            path, _caps, effects, pid = move
            if pid < 0 or pid & PROGRAM not in self.no_mate:
                out.append(move)
                continue
            if len(path) == 1:  # a drop: does the dropped piece attack a royal piece?
                b, at, piece = pos.board, path[0], effects[-1][1]
                gen = c.gen[c.kind_of[piece]][c.owner[piece]]
                raw: list[Any] = []
                b[at] = piece
                try:
                    if gen is not None:
                        gen(b, at, raw, pos.last_from, pos.last_to, (), piece)
                finally:
                    b[at] = 0
                if not any(royal.intersection(r[1]) for r in raw):
                    out.append(move)
                    continue
            saved = rb.make(pos, move)
            try:
                mates = rb.in_check(pos) and not rb._has_moves(pos)
            finally:
                rb.unmake(pos, saved)
            if not mates:
                out.append(move)
        return out
