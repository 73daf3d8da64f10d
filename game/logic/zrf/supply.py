"""Which drops of a ZRF file come from a counted supply.

``(board-setup (P (PIECE off N)))`` gives P N pieces of PIECE to drop, and a player the
set-up gives no count of that piece drops none of it; a piece with ``(drops ...)`` that no
player has an ``off`` count of is dropped without limit. The engine counts every hand once
one count is given, so such a piece becomes ``(in-hand PIECE unlimited)`` for every player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from game.logic.rules.sexpr import Form

__all__ = ["uncounted"]


def uncounted(
    players: Iterable[str], pieces: Mapping[str, Form], counted: set[tuple[str, str]]
) -> dict[str, list[str]]:
    """For each player, the names of the pieces with drops that no player has an ``off``
    count of, where ``counted`` (the (player, piece) pairs given one) is not empty."""
    if not counted:
        return {}
    kinds = {name for _, name in counted}
    endless = [
        name
        for name, piece in pieces.items()
        if name not in kinds
        and any(isinstance(part, Form) and part.head == "drops" for part in piece.args)
    ]
    return {player: endless for player in players} if endless else {}
