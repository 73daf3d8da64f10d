"""Moves of more than one piece, and pieces put on the board, in move programs: ``from``,
``to``, ``relay``, ``add-copy``, ``(go PLACE)`` and ``(put PIECE [OWNER [PLACE]])``.

A program that uses ``from``, ``to``, ``relay``, ``add-copy`` or ``(go from)``/``(go to)``
(a *relaying* program) keeps three more names while it runs: ``fr``, the position the moving
piece comes from (-1: from the hand), ``tt``, the position ``to`` marked (-1: none), and
``ld``, the positions pieces have landed on in this move, and ``t0`` and ``m0``, where the
first of them landed and as what piece. Every piece that lands is written into the move's
effects as it lands; the piece that the move's ``add`` places lands last, and the move's path
ends where the first piece landed (castling is the king's move). A
relaying program's effects begin by putting back the piece at the start (the move's first
effect empties it), so that the moving piece leaves its position only when it lands.
Programs that do not relay are written as before: none of this costs them anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from game.logic.rules import tree

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = [
    "OWNERS", "PIECES", "PLACES", "RELAY_STATE", "RELAY_WORDS", "RelayWriter", "allowed", "relays"
]  # fmt: skip

#: The statements without arguments that make a program relaying.
RELAY_WORDS: Final = frozenset({"from", "to", "relay", "add-copy"})
#: The names a relaying design's programs keep (and a choice saves): see the module's text.
RELAY_STATE: Final = ("fr", "tt", "ld", "t0", "m0")
#: The places ``go`` takes besides a position's name.
PLACES: Final = ("from", "to", "last-from", "last-to")
#: The words ``put`` takes for its piece besides a type, and for its owner besides a player.
PIECES: Final = ("same", "moving", "none")
OWNERS: Final = ("mover", "same", "other")


def relays(body: Sequence[tree.Stmt]) -> bool:
    """Whether a program's statements relay (see the module's text)."""
    for n in tree.walk(body):
        if isinstance(n, tree.Act) and n.word in RELAY_WORDS:
            return True
        if isinstance(n, tree.Jump) and n.place in ("from", "to"):
            return True
    return False


def allowed(design: Design, node: tree.ProgramNode, field: str) -> tuple[str, ...]:
    """The words field ``field`` of a ``go`` or ``put`` node may hold."""
    board = design.board
    if isinstance(node, tree.Jump):
        return (*PLACES, *board.names)
    if field == "piece":
        return (*(p.name for p in design.pieces), *PIECES)
    if field == "owner":
        return (*OWNERS, *design.players)
    return ("here", *board.directions, *board.names)


class RelayWriter:
    """The lines of the relaying statements, ``go`` and ``put`` (a mixin of
    :class:`~game.logic.rules.writer.ProgramWriter`)."""

    design: Design
    player: int
    players: int
    relaying: bool
    known_empty: bool
    mark_empty: bool

    if TYPE_CHECKING:

        def emit(self, indent: int, text: str) -> None: ...

        def fail(self, indent: int, fail: list[str]) -> None: ...

        def link(self, word: str) -> str: ...

        def pid_text(self) -> str: ...

    def relay_start(self, indent: int, drop: bool, body: Sequence[tree.Stmt]) -> None:
        """A program's first lines in a design that relays: where the moving piece comes
        from; a relaying move program puts its piece back first (see the module's text)."""
        self.relaying = relays(body)
        self.emit(indent, f"fr = {'-1' if drop else 'f'}; tt = -1; ld = (); t0 = -1; m0 = 0")
        if self.relaying and not drop:
            self.emit(indent, "eff = ((f, b[f]),)")

    def relay_word(self, word: str, indent: int, fail: list[str]) -> None:
        """``from``, ``to``, ``relay`` (``add-copy`` is an ``add``: :meth:`relay_add`)."""
        self.known_empty = self.mark_empty = False
        if word == "to":
            self.emit(indent, "tt = c")
            return
        if word == "relay":
            self.land(indent, "tt if tt >= 0 else c", True)
            self.emit(indent, "eff = _e; tt = -1")
        self.emit(indent, "if not b[c]:")
        self.fail(indent + 1, fail)
        self.emit(indent, "fr = c; mc = b[c]")

    def land(self, indent: int, where: str, placed: bool) -> None:
        """``_d``: where the moving piece lands; ``_e``: the effects with it gone from where it
        came (unless a piece landed there), and placed (``placed``); an enemy piece there is
        taken."""
        self.emit(indent, f"_d = {where}")
        self.emit(indent, "_e = eff + ((fr, 0),) if fr >= 0 and fr not in ld else eff")
        if placed:
            self.emit(indent, "_e = _e + ((_d, mc),)")
            self.emit(indent, f"if b[_d] and OWN[b[_d]] != {self.player} and _d not in ld:")
            self.emit(indent + 1, "cap = cap + (_d,)")
            self.emit(indent, "ld = ld + (_d,)")
            self.emit(indent, "if t0 < 0:")  # the first piece to land: the move's path ends there
            self.emit(indent + 1, "t0 = _d; m0 = mc")

    def relay_add(self, indent: int, partial: str, copy: bool) -> None:
        """``add`` (``copy``: ``add-copy``, the piece also stays) in a relaying program: the
        moving piece lands at ``to`` or the cursor, last."""
        p, pid = self.player, self.pid_text()
        self.land(indent, "tt if tt >= 0 else c", False)
        if copy:
            self.emit(indent, "_e = eff")
        self.emit(indent, "_x = b[_d]")
        self.emit(indent, "if not _x or _d == f or _d in ld:")
        self.emit(indent + 1, "_k = cap")
        self.emit(indent, "else:" if self.design.take_own else f"elif OWN[_x] != {p}:")
        self.emit(indent + 1, "_k = cap + (_d,)")
        if not self.design.take_own:
            self.emit(indent, "else:")
            self.emit(indent + 1, "_k = None")
        self.emit(indent, "if _k is not None:")
        if partial == "None":  # the move's path ends where its first piece landed
            self.emit(indent + 1, "if t0 >= 0:")
            self.emit(indent + 2, f"out.append((t0, _k, _e + ((_d, mc),), m0, {pid}, None))")
            self.emit(indent + 1, "else:")
            indent += 1
        self.emit(indent + 1, f"out.append((_d, _k, _e, mc, {pid}, {partial}))")

    def go(self, place: str, indent: int, fail: list[str]) -> None:
        self.known_empty = self.mark_empty = False
        names = self.design.board.names
        if place in names:
            self.emit(indent, f"c = {names.index(place)}")
            return
        self.emit(indent, f"c = {dict(zip(PLACES, ('fr', 'tt', 'lf', 'lt'), strict=True))[place]}")
        self.emit(indent, "if c < 0:")
        self.fail(indent + 1, fail)

    def put(self, node: tree.Put, indent: int, fail: list[str]) -> None:
        """``(put ...)``: an effect on the place's position (none where ``same`` finds it
        empty)."""
        names, n = self.design.board.names, self.players
        if node.place == "here":
            q = "c"
        elif node.place in names:
            q = str(names.index(node.place))
        else:
            q = "_q"
            self.emit(indent, f"_q = {self.link(node.place)}[c]")
            self.emit(indent, "if _q < 0:")
            self.fail(indent + 1, fail)
        types = [p.name for p in self.design.pieces]
        there = f"b[{q}]"
        if node.piece == "none":
            value = "0"
        else:
            kind = {"same": f"TYP[{there}]", "moving": "TYP[mc]"}.get(node.piece)
            kind = kind or str(types.index(node.piece))
            who = {"mover": str(self.player), "same": f"OWN[{there}]", "other": str(self.player)}
            owner = who.get(node.owner) or str(self.design.players.index(node.owner))
            value = f"1 + {owner} + {n} * {kind}"
            if node.owner == "other":  # the next player after the owner there (flip)
                value = f"FLIP[{there if node.piece == 'same' else value}]"
        if node.piece == "same" or node.owner == "same":  # nothing where nothing stands
            self.emit(indent, f"if {there}:")
            indent += 1
        self.emit(indent, f"eff = eff + (({q}, {value}),)")
