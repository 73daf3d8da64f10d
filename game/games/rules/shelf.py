"""Pieces in hand and piece letters for a board whose pieces are lettered tokens (shogi's
pentagons, ``(shape pentagon)``): every token carries its ``(letter ..)`` (``P``, ``+P``),
and each player's pieces in hand stand on a shelf beside the board, one token a type with
its count, the first player's at the right of its near side, the second player's at the
left of the far side, as shogi players keep them. A token is picked like a piece on the board
(its node's ``hand`` tag: owner and type), to be dropped on a square clicked next
(:mod:`game.games.rules.hand_pick`).

:class:`Shelf` adds and removes the shelf's nodes in the board view's scene; its
:meth:`Shelf.labels` are the letters and counts the HUD writes over them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.scene import Node
from game.games.rules.look import piece_meshes, stacks_of
from game.logic.rules.design import Design

if TYPE_CHECKING:
    from game.games.rules.view import BoardView

__all__ = ["TOKEN", "Shelf", "lettered", "turned_half"]

#: The shape whose pieces carry their letter.
TOKEN = "pentagon"
#: A half turn about the vertical axis (a quaternion): the second player's tokens point
#: the other way.
HALF_TURN = np.array([0.0, 1.0, 0.0, 0.0], dtype="f4")


def lettered(design: Design) -> bool:
    """Whether the game's pieces are lettered tokens."""
    return any(TOKEN in piece.shapes for piece in design.pieces)


def turned_half(owner: int, turned: bool) -> bool:
    """Whether ``owner``'s token points away from the first player's side as the board is
    seen: the second player's, unless the board is turned round."""
    return (owner == 1) != turned


class Shelf:
    """The pieces in hand of a board view's game; nothing for a game without them."""

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.design = view.design
        self.nodes: list[Node] = []
        #: (text, position in the board's units, height) of each token on the shelf.
        self._slots: list[tuple[str, int, tuple[float, float]]] = []
        self._letters = {piece.name: piece.letter or piece.name[0] for piece in view.design.pieces}
        # On the board only tokens carry their letter: a piece drawn by its model needs none.
        self._tokens = {piece.name for piece in view.design.pieces if TOKEN in piece.shapes}

    def show(self, state: Any) -> None:
        """The shelf as ``state`` has it: a token for each type a player holds."""
        view = self.view
        for node in self.nodes:
            view._remove(node.name)
        self.nodes, self._slots = [], []
        hands: list[dict[str, int]] = getattr(state, "hands", lambda: [])()
        lo = view.xy.min(axis=0) - view.step / 2
        hi = view.xy.max(axis=0) + view.step / 2
        watcher = view.watcher if self.design.concealed is not None else None
        for owner, hand in enumerate(hands[:2]):
            if watcher is not None and owner != watcher and hand:  # concealed: a count only
                hand = {"?": sum(hand.values())}
            at = self.design.board.look.hand_at
            if at and watcher is None:  # on the board: a pile on the player's position
                self._pile(owner, at[owner], hand)
                continue
            for k, (name, count) in enumerate(hand.items()):
                if owner == 0:
                    x, y = float(hi[0]) + 1.5 * view.step, float(lo[1]) + (k + 0.5) * view.step
                else:
                    x, y = float(lo[0]) - 1.5 * view.step, float(hi[1]) - (k + 0.5) * view.step
                mesh = piece_meshes(self.design, [(owner, name)])[0][0]
                node = view._spawn("piece", mesh=mesh)
                node.material.color = (*view.colour(owner), 1.0)
                node.scale = np.full(3, view.cell * 0.9, dtype="f4")
                node.position = view.world_xy(x, y)
                if turned_half(owner, view.turned):
                    node.rotation = HALF_TURN.copy()
                node.pickable = True  # a click picks the piece up to drop it
                node.tags["hand"] = (owner, name)
                self.nodes.append(node)
                text = self._letters.get(name, "?") + (f" x{count}" if count > 1 else "")
                self._slots.append((text, owner, (x, y)))

    def _pile(self, owner: int, position: int, hand: dict[str, int]) -> None:
        """``owner``'s pieces in hand one on another on ``position`` (``(hand-at ZONE)``:
        Backgammon's checkers on the bar)."""
        view = self.view
        height = 0.0
        for name, count in hand.items():
            mesh = piece_meshes(self.design, [(owner, name)])[0][0]
            for _ in range(count):
                node = view._spawn("piece", mesh=mesh)
                node.material.color = (*view.colour(owner), 1.0)
                node.scale = np.full(3, view.cell, dtype="f4")
                node.position = view.world(position, height)
                node.pickable = True
                node.tags["hand"] = (owner, name)
                self.nodes.append(node)
                height += view.mesh_height(mesh) * view.cell

    def light(self, held: tuple[int, str] | None, hover: tuple[int, str] | None = None) -> None:
        """Light the token ``held`` (owner, type name) picked up, and a little the token
        ``hover`` under the mouse; dim the rest."""
        for node in self.nodes:
            token = node.tags.get("hand")
            node.highlight = 0.7 if token == held else 0.3 if token == hover else 0.0

    def labels(self, state: Any) -> list[tuple[str, np.ndarray]]:
        """Each token's letter over it: on the board and on the shelf (with the count); none
        on a token the watcher cannot see (another's concealed piece)."""
        view = self.view
        out: list[tuple[str, np.ndarray]] = []
        lift = 0.2 * view.cell
        for position, stack in stacks_of(state, view.watcher).items():
            _owner, name = stack[-1]
            if name in self._tokens:
                out.append((self._letters[name], view.world(position, lift)))
        for text, _owner, (x, y) in self._slots:
            out.append((text, view.world_xy(x, y, lift)))
        return out
