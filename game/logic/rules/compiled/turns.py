"""Turn orders whose steps allow one type of move, and pieces any player moves, in the
compiled back end (Neutron: each turn moves the shared neutron, then a soldier).

``by_kind(out, n, turn)`` keeps of the ``n`` rows in ``out`` those whose program's type
(``(type ...)`` in the description) the step ``turn`` of the turn order allows, as the
Python back end's ``pseudo`` does before anything else looks at them. ``MOVER[turn]`` is
the player who made the last move when ``turn`` is to move (the ends read it): the player of
the steps that lead to ``turn``, which must agree (at the first step: the player before).
Walks that turn (Surakarta's circuits: ``(turn DIR NEW POSITION)``): a step along a
direction that may turn goes along the direction the walk has now, a local ``_v<d>`` of the
program (starting as the player's ``d``), which ``TURN[direction, position]`` changes where
the walk arrives at a turn, as the Python back end's ``TURNS`` does.

A shared piece (``(shared)``) runs the mover's programs; its moves are compiled only where
each lands on a position its program has seen empty, since the adders ask whether a piece
on the landing is a friend of the moving piece's owner (for a shared piece: no one).
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.compile import Compiled
from game.logic.rules.design import Design

__all__ = ["turn_refusal", "turning", "turning_step", "turns_source"]

_BY_KIND: Final = '''

@njit("int64(int64[:, ::1], int64, int64)", cache=True)
def by_kind(out, n, turn):
    """Of the ``n`` rows of ``out``, those of the move type step ``turn`` allows."""
    if not KINDS_ANY or STEP_KIND[turn] == -1 or n > out.shape[0]:
        return n
    kept = 0
    for i in range(n):
        if out[i, 2] >= 0 and KIND_OF[out[i, 2] & PROGRAM_BITS] == STEP_KIND[turn]:
            if kept != i:
                out[kept, :] = out[i]
            kept += 1
    return kept

'''


def turns_source(design: Design, compiled: Compiled) -> list[str]:
    """The turn tables (``MOVER``, ``SHARED``, the move types) and ``by_kind``."""
    steps = len(design.turn_order)
    players = len(design.players)
    nexts = [s + 1 if s + 1 < steps else design.repeat_from for s in range(steps)]
    mover = []
    for s in range(steps):
        before = {design.turn_order[t] for t in range(steps) if nexts[t] == s}
        if s == 0:
            mover.append((design.turn_order[0] - 1) % players)
        else:
            mover.append(before.pop() if len(before) == 1 else -1)
    kinds = sorted({program[2] for program in compiled.programs})
    step_kinds = design.turn_kinds or ("",) * steps
    board = design.board
    turn = [[board.turns.get((d, x), d) for x in range(len(board.names))] for d in
            range(len(board.directions))]  # fmt: skip
    lines = [
        f"TURN = np.array({turn!r}, dtype=np.int64)",
        f"MOVER = np.array({mover!r}, dtype=np.int64)",
        f"SHARED = np.array({[bool(p.shared) for p in design.pieces]!r}, dtype=np.bool_)",
        f"KINDS_ANY = {any(step_kinds)}",
        f"KIND_OF = np.array({[kinds.index(p[2]) for p in compiled.programs] or [0]!r}, "
        "dtype=np.int64)",
        "STEP_KIND = np.array("
        f"{[kinds.index(k) if k in kinds else (-1 if not k else -2) for k in step_kinds]!r}, "
        "dtype=np.int64)",
        "PROGRAM_BITS = (1 << 20) - 1",
    ]
    return lines + _BY_KIND.splitlines()


def turn_refusal(design: Design) -> str | None:
    """What this module cannot compile in ``design`` (None: nothing): a step that two
    players' steps lead to (whose last move it was is then known only by playing), a
    shared piece's move that may land on a piece."""
    steps = len(design.turn_order)
    nexts = [s + 1 if s + 1 < steps else design.repeat_from for s in range(steps)]
    for s in range(1, steps):
        if len({design.turn_order[t] for t in range(steps) if nexts[t] == s}) > 1:
            return "a turn order step that two players' steps lead to"
    board = design.board
    for d in turning(design):
        if len({row[d] for row in board.symmetry}) > 1:
            return "a walk that turns along a direction the players see differently"
        for piece in design.pieces:
            for program in piece.programs:
                if any(isinstance(n, tree.OneOf | tree.Anywhere) for n in tree.walk(program.tree)):
                    return "a choice in a walk that may turn"
    for piece in design.pieces:
        if piece.shared and not all(_lands_empty(list(p.tree)) for p in piece.programs):
            return f"a move of the shared {piece.name} onto a position not known empty"
    return None


def turning(design: Design) -> set[int]:
    """The directions (indices of the description's words) whose walks may turn."""
    board = design.board
    turns = {d for d, _ in board.turns}
    return {
        d for d in range(len(board.directions)) if any(row[d] in turns for row in board.symmetry)
    }


def turning_step(writer: Any, d: int, indent: int, fail: list[str]) -> None:
    """A step along direction ``d`` whose walk may turn (see the module docstring)."""
    writer.turned.add(d)
    writer.emit(indent, f"c = L[_v{d}, c]")
    writer.emit(indent, "if c < 0:")
    writer.fail(indent + 1, fail)
    writer.emit(indent, f"_v{d} = TURN[_v{d}, c]")


def _lands_empty(body: list[tree.Stmt]) -> bool:
    """Whether every ``add`` of ``body`` lands where the program has just seen an empty
    position: after ``(verify empty)``, with only steps along ``d`` guarded by
    ``(while (next d empty) d)`` since."""
    known = False
    for node in body:
        match node:
            case tree.Verify(cond=tree.Is(word="empty")):
                known = True
            case tree.Advance():
                known = False
            case tree.While(cond=tree.Next(direction=d, cond=tree.Is(word="empty")), body=inner):
                if inner != (tree.Advance(d),):
                    return False
            case tree.Act(word="add"):
                if not known:
                    return False
            case tree.Verify():
                pass
            case _:
                return False
    return True
