"""Pieces in hand for drops: a ZRF set-up's ``(PIECE off N)`` gives a player N pieces of a
type to drop. A type with drops that no player has an ``off`` count of drops without limit
(Chess Go's stones beside its counted pieces); a type some player has a count of is counted
for every player (none where the set-up gives none: Genesis Chess's variant, where White
drops its army and Black's stands on the board). The engine counts the pieces in hand of
every type once any is counted, so each uncounted type with drops is given
:data:`UNLIMITED` pieces in hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.logic.rules.sexpr import Atom, Form, Item

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["UNLIMITED", "uncounted_drops"]

#: Pieces in hand standing for a supply without limit (more than any game drops).
UNLIMITED = 1000


def uncounted_drops(tr: Translation, setup: Form) -> dict[str, list[Form]]:
    """By ZRF player name, the ``(in-hand TYPE UNLIMITED)`` forms for the types with drops
    that no player of the ``(board-setup ...)`` has an ``off`` count of; none where it counts
    no piece at all (the engine then drops without limit)."""
    counted = {
        group.head
        for side in setup.args
        if isinstance(side, Form)
        for group in side.args
        if isinstance(group, Form) and any(_is(a, "off") for a in group.args)
    }
    if not counted:
        return {}
    dropping = [
        name
        for piece in tr.parts.get("piece", [])
        for name in [_name(piece)]
        if name and any(isinstance(p, Form) and p.head == "drops" for p in piece.args)
    ]
    where = (setup.line, setup.column, setup.source)
    made = [
        Form(
            (Atom("in-hand", *where), Atom(tr.name(kind), *where), Atom(UNLIMITED, *where)), *where
        )
        for kind in dict.fromkeys(dropping)
        if kind not in counted
    ]
    return {player: list(made) for player in tr.players} if made else {}


def _is(item: Item, word: str) -> bool:
    return isinstance(item, Atom) and item.value == word


def _name(piece: Form) -> str:
    found: list[Item] = [
        p[1] for p in piece.args if isinstance(p, Form) and p.head == "name" and len(p) > 1
    ]
    return str(found[-1].value) if found and isinstance(found[-1], Atom) else ""
