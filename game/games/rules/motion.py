"""The tweens that play a described game's move on the board: the piece (its whole stack)
hops from position to position along the move's path, each piece it captures sinks into the
board as it is jumped (or when the move ends, for a capture off the path, en passant), a
capture round a loop (Surakarta) glides along the loop, a dropped piece falls into place,
the pieces that change owner turn over (Othello's flips), pieces that change place by the
same move slide (castling's rook). A piece that becomes
another type (a promotion, a crowning) takes its new look when the move ends, when the view
snaps to the new state.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import numpy as np

from game.engine.tweens import Call, MoveTo, Parallel, RotateBy, Sequence, Tween, Wait
from game.games.rules.look import stacks_of
from game.games.rules.view import BoardView
from game.logic.rules.board import Board
from game.logic.rules.rotations import quarter_turns

__all__ = ["move_tween", "route"]


def move_tween(view: BoardView, before: Any, move: Any, after: Any) -> Tween | None:
    """The tween that plays ``move`` from the state ``before`` to ``after`` (None for a
    pass). Nodes of a dropped piece are added at once, above the board."""
    path, captures = tuple(move[0]), tuple(move[1])
    if not path:
        return None
    s = view.scene
    old, new = stacks_of(before, view.watcher), stacks_of(after, view.watcher)
    parts: list[Tween] = []
    ends = 0.0  # when the mover has arrived
    trail = route(view.design.board, path, set(old)) if len(path) == 2 and captures else None
    rulebook = getattr(before, "rulebook", None)
    turns = quarter_turns(rulebook, move) if rulebook is not None and len(path) == 1 else []
    if turns:  # a drop that turns part of the board (Pentago)
        return _turning(view, path[0], new, turns)
    if len(path) == 1:
        ends = _drop(view, path[0], new.get(path[0], []), parts)
    elif trail is not None:
        ends = _glide(view, trail, captures, parts)
    else:
        ends = _hops(view, path, captures, parts)
    touched = set(path) | set(captures)
    changed = [p for p in set(old) | set(new) if p not in touched and old.get(p) != new.get(p)]
    gone = [p for p in changed if p in old and p not in new]
    came = [p for p in changed if p in new and p not in old]
    for p, q in _pairs(gone, came, old, new):
        parts.append(Sequence(Wait(ends), _slide(view, p, q)))
        changed = [c for c in changed if c not in (p, q)]
    flips = [p for p in changed if p in old and p in new and _owners(old[p]) != _owners(new[p])]
    end = path[-1]
    flips.sort(key=lambda p: float(np.hypot(*(view.xy[p] - view.xy[end]))))
    stagger = s.number("flip_stagger")
    for k, p in enumerate(flips):
        parts.append(Sequence(Wait(ends + k * stagger), _flip(view, p, new[p])))
    for p in captures:
        if p not in path and not _on_path(view, path, p):
            parts.append(Sequence(Wait(ends), _sink(view, p)))
    view.hide_marks()
    return Parallel(*parts) if parts else None


# -- the pieces of a move -----------------------------------------------------------------


def _drop(
    view: BoardView, position: int, stack: list[tuple[int, str]], parts: list[Tween]
) -> float:
    s = view.scene
    lift = s.number("drop_height")
    nodes = view.place(position, stack, lift=lift)
    for nodes_old in view.pieces.get(position, []):
        nodes_old.hidden = True
    view.pieces[position] = view.pieces.get(position, []) + nodes
    duration = s.number("drop_time")
    for node in nodes:
        target = node.position - np.array([0.0, lift, 0.0], dtype="f4")
        parts.append(MoveTo(node, target, duration=duration))
    return duration


def _turning(
    view: BoardView, placed: int, new: dict[int, Any], turns: list[tuple[int, int]]
) -> Tween:
    """The marble falls on ``placed``, then every piece of the zone swings a quarter round
    its centre to where the turn takes it (``turns``: ``(to, from)`` pairs)."""
    parts: list[Tween] = []
    carried = {frm: to for to, frm in turns}
    ends = _drop(view, placed, new.get(carried.get(placed, placed), []), parts)
    ring = [view.xy[to] for to, _ in turns]
    cx, cy = (
        float(sum(x for x, _ in ring)) / len(ring),
        float(sum(y for _, y in ring)) / len(ring),
    )
    duration = view.scene.number("step_time") * 2
    for to, frm in turns:
        (fx, fy), (tx, ty) = view.xy[frm], view.xy[to]
        start = math.atan2(fy - cy, fx - cx)
        sweep = math.atan2(ty - cy, tx - cx) - start
        sweep = (sweep + math.pi) % (2 * math.pi) - math.pi  # the quarter, either way
        radius = math.hypot(fx - cx, fy - cy)
        for n in view.pieces.get(frm, []):
            height = float(n.tags.get("height", 0.0))
            steps: list[Tween] = [Wait(ends)]
            for k in range(1, 5):  # along the arc in four steps, lifted on the way
                a = start + sweep * k / 4
                lift = 0.15 * view.cell if k < 4 else 0.0
                x, y = cx + radius * math.cos(a), cy + radius * math.sin(a)
                point = view.world_xy(x, y, height + lift)
                steps.append(MoveTo(n, point, duration=duration / 4))
            parts.append(Sequence(*steps))
    view.hide_marks()
    return Parallel(*parts)


def _hops(
    view: BoardView, path: tuple[int, ...], captures: tuple[int, ...], parts: list[Tween]
) -> float:
    """The moving stack hops along ``path``; each capture it passes over sinks as it lands."""
    s = view.scene
    nodes = view.pieces.get(path[0], [])
    hop = s.number("hop_height") * view.cell
    base = s.number("step_time")
    timeline = 0.0
    per_node: list[list[Tween]] = [[] for _ in nodes]
    sunk: set[int] = set()
    for a, b in pairwise(path):
        distance = float(np.hypot(*(view.xy[b] - view.xy[a]))) / view.step
        duration = base * (0.75 + 0.25 * math.sqrt(max(distance, 1.0)))
        rise = hop * (1.0 if distance > 1.2 else 0.6)
        for k, node in enumerate(nodes):
            height = float(node.tags.get("height", 0.0))
            start, land = view.world(a, height), view.world(b, height)
            top = (start + land) / 2 + np.array([0.0, rise, 0.0], dtype="f4")
            per_node[k] += [
                MoveTo(node, top, duration=duration / 2),
                MoveTo(node, land, duration=duration / 2),
            ]
        for c in captures:
            if c not in sunk and c == b:  # taken where the mover lands (chess)
                sunk.add(c)
                parts.append(Sequence(Wait(timeline + duration * 0.3), _sink(view, c)))
        timeline += duration
        for c in captures:
            if c not in sunk and _between(view, a, b, c):  # jumped over (draughts)
                sunk.add(c)
                parts.append(Sequence(Wait(timeline), _sink(view, c)))
    for steps in per_node:
        if steps:
            parts.append(Sequence(*steps))
    return timeline


def route(board: Board, path: tuple[int, ...], occupied: set[int]) -> list[int] | None:
    """On a board whose walks turn (Surakarta's loops): the positions a capture from
    ``path[0]`` to ``path[1]`` runs through, found by walking each direction from the start, turning
    where the board turns, until a piece stands in the way; None when no walk reaches the end
    by way of a position off the board (a plain move, drawn as a hop)."""
    if not board.turns:
        return None
    start, end = path
    for d in range(len(board.links)):
        trail, c, way = [start], start, d
        while len(trail) <= 4 * len(board.names):
            c = board.links[way][c]
            if c < 0:
                break
            way = board.turns.get((way, c), way)
            trail.append(c)
            if c == end:
                if any(p in board.off_board for p in trail):
                    return trail
                break  # a step to a neighbour: no loop
            if c in occupied and c != start:
                break
    return None


def _glide(
    view: BoardView, trail: list[int], captures: tuple[int, ...], parts: list[Tween]
) -> float:
    """The moving piece glides along ``trail`` (round a loop), the piece it takes sinking as
    it arrives."""
    nodes = view.pieces.get(trail[0], [])
    lift = 0.25 * view.cell
    per_step = 0.45 * float(view.scene.number("step_time"))
    duration = per_step * float(max(1, len(trail) - 1)) ** 0.75
    step = duration / max(1, len(trail) - 1)
    for node in nodes:
        height = float(node.tags.get("height", 0.0))
        up = np.array([0.0, lift, 0.0], dtype="f4")
        steps: list[Tween] = [MoveTo(node, view.world(trail[0], height) + up, duration=step)]
        steps += [MoveTo(node, view.world(p, height) + up, duration=step) for p in trail[1:]]
        steps.append(MoveTo(node, view.world(trail[-1], height), duration=step))
        parts.append(Sequence(*steps))
    arrive = step * len(trail)
    for c in captures:
        parts.append(Sequence(Wait(arrive), _sink(view, c)))
    return float(arrive + step)


def _sink(view: BoardView, position: int) -> Tween:
    nodes = view.pieces.get(position, [])
    down = np.array([0.0, 0.6 * view.cell + 0.3, 0.0], dtype="f4")
    duration = view.scene.number("capture_time")
    moves: list[Tween] = [MoveTo(n, n.position - down, duration=duration) for n in nodes]

    def hide() -> None:
        for n in nodes:
            n.hidden = True

    return Sequence(Parallel(*moves), Call(hide)) if moves else Wait(0.0)


def _slide(view: BoardView, source: int, target: int) -> Tween:
    nodes = view.pieces.get(source, [])
    duration = view.scene.number("step_time")
    moves: list[Tween] = []
    for n in nodes:
        height = float(n.tags.get("height", 0.0))
        moves.append(MoveTo(n, view.world(target, height), duration=duration))
    return Parallel(*moves) if moves else Wait(0.0)


def _flip(view: BoardView, position: int, stack: list[tuple[int, str]]) -> Tween:
    """Lift the pieces, turn them over about the axis across the board, change their colour
    half-way, and lay them down (a symmetric disc upside down looks as it did)."""
    s = view.scene
    nodes = view.pieces.get(position, [])
    duration = s.number("flip_time")
    lift = np.array([0.0, 0.45 * view.cell, 0.0], dtype="f4")
    colours = [view.colour(owner) for owner, _ in stack]
    first: list[Tween] = []
    second: list[Tween] = []
    for k, node in enumerate(nodes):
        rest = node.position.copy()
        assert node.mesh is not None
        thick = view.mesh_height(node.mesh) * view.cell
        first.append(Parallel(RotateBy(node, (0.0, 0.0, 1.0), math.pi / 2, duration=duration / 2),
                              MoveTo(node, rest + lift, duration=duration / 2)))  # fmt: skip
        landing = rest + np.array([0.0, thick, 0.0], dtype="f4")
        second.append(Parallel(RotateBy(node, (0.0, 0.0, 1.0), math.pi / 2, duration=duration / 2),
                               MoveTo(node, landing, duration=duration / 2)))  # fmt: skip
        colour = colours[min(k, len(colours) - 1)] if colours else view.colour(-1)
        node.tags["flip_colour"] = colour

    def recolour() -> None:
        for node in nodes:
            colour = node.tags.pop("flip_colour", None)
            if colour is not None:
                node.material.color = (*colour, 1.0)

    return Sequence(Parallel(*first), Call(recolour), Parallel(*second))


# -- helpers ------------------------------------------------------------------------------


def _owners(stack: list[tuple[int, str]]) -> list[int]:
    return [owner for owner, _ in stack]


def _pairs(
    gone: list[int], came: list[int], old: dict[int, Any], new: dict[int, Any]
) -> list[tuple[int, int]]:
    """Positions emptied and filled by the same stack (a castling rook): source, target."""
    out = []
    free = list(came)
    for p in gone:
        for q in free:
            if old[p] == new[q]:
                out.append((p, q))
                free.remove(q)
                break
    return out


def _between(view: BoardView, a: int, b: int, c: int) -> bool:
    """Whether position ``c`` lies on the segment from ``a`` to ``b`` (a jumped piece)."""
    pa, pb, pc = view.xy[a], view.xy[b], view.xy[c]
    d = pb - pa
    length2 = float(d @ d)
    if length2 < 1e-12:
        return False
    t = float((pc - pa) @ d) / length2
    if not 0.0 < t < 1.0:
        return False
    closest = pa + t * d
    return float(np.hypot(*(pc - closest))) < 0.25 * view.step


def _on_path(view: BoardView, path: tuple[int, ...], c: int) -> bool:
    return any(_between(view, a, b, c) for a, b in pairwise(path))
