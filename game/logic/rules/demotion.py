"""The type a captured piece goes to a hand as, under ``(rules (captures-to-hand))``: the type
it was promoted from. Read from the move programs (the type whose programs ``(promote ...)``
to it), so a description names each promotion once; checked as the description is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.logic.rules import tree

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["base_types"]


def base_types(design: Design) -> list[int]:
    """For each piece type, the type it goes to a hand as: the type whose programs promote
    to it, else itself. Raises DescriptionError when two types promote to one."""
    base = list(range(len(design.pieces)))
    found: dict[int, str] = {}
    for t, piece in enumerate(design.pieces):
        for program in piece.programs:
            for node in tree.walk(program.tree):
                if not isinstance(node, tree.ChangeType):
                    continue
                to = design.type_index(node.type)
                if to == t:
                    continue
                if to in found and found[to] != piece.name:
                    raise program.where.error(
                        f"with (captures-to-hand), {node.type} would go to a hand as "
                        f"{found[to]} or {piece.name}: one type only may promote to it"
                    )
                found[to] = piece.name
                base[to] = t
    return base
