"""Priests and Devils on the scene: where each character stands and how it gets there.

A :class:`Cast` owns the character nodes of the river scene (one per priest and devil, named
``priest1``, ``devil2``...) and the hint marks (an arrow and a ring per seat, plus one for the
boat). A game's positions are a mapping of character name to :class:`Place`: ashore on a bank
in a slot, or in a boat seat. The cast puts the nodes there at once (:meth:`Cast.snap`) or
makes the tween that walks them there (:meth:`Cast.tween`): characters walk an L path between
their bank slot and a seat, passengers ride the boat across. Slots, seats, docks and speeds
come from the ``[anchors]`` of ``scenes/river.toml``; a team bigger than the bank rows hold is
laid out closer and smaller so everyone stays on screen.
"""

from __future__ import annotations

import math
from collections.abc import Container, Mapping
from collections.abc import Sequence as Seq
from dataclasses import dataclass

import numpy as np

from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.engine.tweens import Call, MoveTo, Parallel, Sequence, Tween
from game.logic.river.game import (
    Action,
    BoardBoat,
    Cross,
    IllegalRiverActionError,
    Kind,
    RiverRules,
    Side,
    Unboard,
)

__all__ = ["Cast", "Place", "hint_targets", "kind_of", "moved", "mover", "start_places", "who"]

Places = Mapping[str, "Place"]


@dataclass(frozen=True)
class Place:
    """Where one character is: ashore on ``side`` in slot ``index``, or (``side`` None) in
    boat seat ``index``."""

    side: Side | None
    index: int

    @property
    def aboard(self) -> bool:
        return self.side is None


def kind_of(name: str) -> Kind:
    """The kind of the character called ``name`` (``priest2`` is a priest)."""
    return Kind.PRIEST if name.startswith("priest") else Kind.DEVIL


def start_places(rules: RiverRules) -> dict[str, Place]:
    """Everyone ashore on the left bank, each kind in slots 0, 1, 2... from the water."""
    return {
        _name(kind, i): Place(Side.LEFT, i)
        for kind, count in ((Kind.PRIEST, rules.priests), (Kind.DEVIL, rules.devils))
        for i in range(count)
    }


def moved(
    places: Places, action: object, side: Side, capacity: int, who_moves: str | None = None
) -> dict[str, Place]:
    """``places`` after a board or land (``action``) at the bank ``side``: ``who_moves`` (if
    it can) or :func:`who` takes the first free seat, or the first free slot of its kind.
    Any other action leaves everyone where they are."""
    new = dict(places)
    if not isinstance(action, BoardBoat | Unboard):
        return new
    aboard = isinstance(action, Unboard)
    who_moves = mover(places, action, side, who_moves)
    if aboard:
        new[who_moves] = Place(side, _free_slot(places, action.kind, side))
    else:
        taken = {p.index for p in places.values() if p.aboard}
        new[who_moves] = Place(None, min(i for i in range(capacity) if i not in taken))
    return new


def mover(places: Places, action: object, side: Side, who_moves: str | None = None) -> str:
    """Who a board or land (``action``) at the bank ``side`` moves: ``who_moves`` when it is a
    character of the action's kind that can, else :func:`who`; "" for any other action.
    Raises IllegalRiverActionError when nobody can."""
    if not isinstance(action, BoardBoat | Unboard):
        return ""
    aboard = isinstance(action, Unboard)
    if (
        who_moves
        and who_moves in places
        and kind_of(who_moves) is action.kind
        and _can_move(places[who_moves], aboard, side)
    ):
        return who_moves
    return who(places, action.kind, aboard=aboard, side=side)


def who(
    places: Places, kind: Kind, *, aboard: bool, side: Side, exclude: Container[str] = ()
) -> str:
    """Who moves for a board or land by kind: the one ashore on ``side`` nearest the water,
    or the passenger who sat down last. Raises IllegalRiverActionError when nobody can."""
    candidates = [
        (p.index, n) for n, p in places.items()
        if kind_of(n) is kind and n not in exclude and _can_move(p, aboard, side)
    ]  # fmt: skip
    if not candidates:
        where = "in the boat" if aboard else f"ashore on the {side.value} bank"
        raise IllegalRiverActionError(f"no {kind.value} {where}")
    return max(candidates)[1] if aboard else min(candidates)[1]


def hint_targets(places: Places, plan: Seq[Action], side: Side, capacity: int) -> list[str]:
    """What the hint's arrows point at for ``plan`` (the clicks of the next crossing, from
    the boat's bank ``side``): ``["boat"]`` when the first click is the crossing, else the
    character each click of the plan's first run of equal clicks moves ("board a devil"
    twice: the two devils that would board).

    Each click is played on a copy of ``places`` before the next is read, so the arrows
    stand over exactly the characters that :func:`moved` would walk: of the hinted kind,
    ashore on ``side`` for a boarding, in the boat for a landing. Raises IllegalRiverActionError
    when a click of the plan has nobody to move.

    >>> places = {"priest1": Place(Side.LEFT, 0), "devil1": Place(Side.LEFT, 0),
    ...           "devil2": Place(None, 0)}
    >>> hint_targets(places, [BoardBoat(Kind.DEVIL), Cross()], Side.LEFT, 2)
    ['devil1']
    >>> hint_targets(places, [Unboard(Kind.DEVIL), BoardBoat(Kind.PRIEST), Cross()], Side.LEFT, 2)
    ['devil2']
    >>> hint_targets(places, [Cross()], Side.LEFT, 2)
    ['boat']
    """
    if not plan:
        return []
    if isinstance(plan[0], Cross):
        return ["boat"]
    targets: list[str] = []
    current = dict(places)
    for action in plan:
        if action != plan[0]:
            break
        assert isinstance(action, BoardBoat | Unboard)
        name = who(current, action.kind, aboard=isinstance(action, Unboard), side=side)
        targets.append(name)
        current = moved(current, action, side, capacity, name)
    return targets


class Cast:
    """The characters and hint marks of one river scene, laid out for ``rules``.

    ``marks`` lists what the hint points at now (character names, or ``"boat"``).
    """

    def __init__(self, scene: Scene, rules: RiverRules) -> None:
        self.scene = scene
        self.rules = rules
        self.marks: list[str] = []
        self._fit = 1.0  # how much closer (and smaller) than the scene's spacing
        self._per_row = 1
        self._time = 0.0  # the last time and mesh boxes the marks were placed with
        self._bounds: Mapping[str, object] = {}
        self.build(rules)

    # -- nodes and layout -------------------------------------------------------------------

    def build(self, rules: RiverRules) -> None:
        """(Re)create one node per character and the hint marks for ``rules``."""
        scene = self.scene
        self.rules = rules
        self.marks = []
        for name in [n for n in scene.nodes if n.startswith(("priest", "devil", "mark"))]:
            scene.remove(name)
        per_row = int(scene.number("per_row"))
        roomy = per_row * int(scene.number("bank_rows"))  # one kind on one bank, full size
        crowd = max(rules.priests, rules.devils, 1)
        bank_fit = min(1.0, math.sqrt(roomy / crowd))
        boat_fit = min(1.0, scene.number("boat_seats") / rules.capacity)
        self._fit = min(bank_fit, boat_fit)
        self._per_row = max(per_row, math.ceil(per_row / bank_fit))
        for kind, count in ((Kind.PRIEST, rules.priests), (Kind.DEVIL, rules.devils)):
            for i in range(count):
                node = scene.spawn(kind.value, _name(kind, i))
                node.scale = (node.scale * self._fit).astype("f4")
                node.pickable = True
        for i in range(rules.capacity):  # a run of equal clicks moves at most a boatful
            scene.spawn("marker", f"mark{i}")
            scene.spawn("ring", f"mark{i}_ring")

    def snap(self, places: Places, boat_side: Side) -> None:
        """Put the boat and every character where ``places`` says, at once."""
        boat = self.scene["boat"]
        boat.position = self.dock(boat_side)
        for name, place in places.items():
            node = self.scene[name]
            node.set_parent(None, keep_world=False)
            node.highlight = 0.0
            if place.aboard:
                node.set_parent(boat, keep_world=False)
                node.position = self.seat_local(place.index)
            else:
                node.position = self.slot_position(
                    place.side or Side.LEFT, kind_of(name), place.index
                )

    def tween(self, old: Places, new: Places, boat_side: Side) -> Tween | None:
        """The tween that brings the scene from ``old`` to ``new`` with the boat docked at
        ``boat_side`` (the boat goes first if it moves); None when nothing moves."""
        boat = self.scene["boat"]
        target = self.dock(boat_side)
        moves: list[Tween] = []
        if not np.allclose(boat.position, target):
            moves.append(MoveTo(boat, target, speed=self.scene.number("boat_speed")))
        for name in sorted(new):
            if old.get(name) != new[name]:
                moves.append(self._walk(name, old[name], new[name], boat_side))
        return Parallel(*moves) if moves else None

    def dock(self, side: Side) -> np.ndarray:
        return self.scene.anchor(f"boat_{side.value}")

    def seat_local(self, seat: int) -> np.ndarray:
        """A seat's position in the boat's own space: seats spread evenly along its length."""
        c = self.rules.capacity
        step = self.scene.number("seat_step") * min(1.0, self.scene.number("boat_seats") / c)
        return np.array([(seat - (c - 1) / 2) * step, self.scene.number("seat_height"), 0.0], "f4")

    def slot_position(self, side: Side, kind: Kind, index: int) -> np.ndarray:
        """Slot ``index`` of ``kind`` on ``side``: rows of slots going inland from the water,
        priests' rows behind the path to the boat, devils' rows in front of it."""
        s = self.scene
        base = s.anchor(f"slot_{side.value}")
        inland = -1.0 if side is Side.LEFT else 1.0
        row, col = divmod(index, self._per_row)
        gap = s.number("row_gap") * self._fit
        z = s.number("priest_row_z") - row * gap
        if kind is Kind.DEVIL:
            z = s.number("devil_row_z") + row * gap
        x = base[0] + inland * col * s.number("slot_step") * self._fit
        return np.array([x, base[1], z], dtype="f4")

    # -- hint marks -------------------------------------------------------------------------

    def show_marks(self, targets: list[str]) -> None:
        """One arrow over each target character and a ring at its feet; for the boat, one
        arrow pointing into its bow (the end facing the other bank) under the passengers.
        The arrows are placed at once, so the next frame already shows them where they
        belong."""
        self.clear_marks()
        self.marks = [t for t in targets if t in self.scene.nodes][: self._mark_count()]
        for i, target in enumerate(self.marks):
            arrow, ring = self.scene[f"mark{i}"], self.scene[f"mark{i}_ring"]
            arrow.hidden = False
            ring.hidden = target == "boat"
            self.scene[target].highlight = 0.6
            arrow.tags["target"] = ring.tags["target"] = target
        self.bob_marks(self._time, self._bounds)

    def clear_marks(self) -> None:
        for name in self.marks:
            if name in self.scene.nodes:
                self.scene[name].highlight = 0.0
        self.marks = []
        for name, node in self.scene.nodes.items():
            if name.startswith("mark"):
                node.hidden = True

    def bob_marks(self, time: float, bounds: Mapping[str, object]) -> None:
        """Float each arrow over the head of its target, tip down, its tip bobbing a little
        above the head (a ring on the ground under the feet); the boat's arrow points into
        the bow. ``bounds`` maps a mesh name to its box (lowest, highest corner)."""
        self._time, self._bounds = time, bounds
        if not self.marks:
            return
        lift = self.scene.number("marker_gap") + 0.05 * (1.0 + math.sin(time * 4.0))
        for i, name in enumerate(self.marks):
            target = self.scene[name]
            arrow, ring = self.scene[f"mark{i}"], self.scene[f"mark{i}_ring"]
            box = bounds.get(target.mesh or "")
            if name == "boat":
                self._point_at_bow(arrow, target, box, lift)
                continue
            p = target.world_position()
            ring.position = np.array([p[0], p[1] + 0.02, p[2]], dtype="f4")
            top = 1.0
            if box is not None:
                top = float(box[1][1] * target.scale[1])  # type: ignore[index]
            arrow.position = np.array([p[0], p[1] + top + lift, p[2]], dtype="f4")
            arrow.rotation = _yaw(time * 2.0)

    def _point_at_bow(self, arrow: Node, boat: Node, box: object, lift: float) -> None:
        """The boat's arrow: over the water ahead of the bow (the end facing the other bank),
        its tip at the bow just above the waterline, pointing 30 degrees down into the
        hull: below the passengers' feet, so it can only mean the boat."""
        p = boat.world_position()
        ahead = 1.0 if p[0] < 0 else -1.0  # docked left: the other bank is at +x
        half = 1.5
        if box is not None:
            half = float(box[1][0] * boat.scale[0])  # type: ignore[index]
        below_feet = 0.6 * self.scene.number("seat_height")
        tip = np.array([p[0] + ahead * (half + lift), p[1] + below_feet, p[2]], "f4")
        arrow.position = tip
        # The mesh points down -Y; turned 60 degrees about Z it points 30 degrees below
        # the horizontal, back toward the boat.
        arrow.rotation = quat_from_axis_angle((0.0, 0.0, 1.0), -ahead * math.pi / 3)

    def _mark_count(self) -> int:
        return sum(1 for name in self.scene.nodes if name.startswith("mark") and "_" not in name)

    # -- inside -----------------------------------------------------------------------------

    def _walk(self, name: str, old: Place, new: Place, side: Side) -> Tween:
        """The L path: into the corridor between the rows, along it to the edge, onto a seat
        (or back the other way)."""
        node = self.scene[name]
        boat = self.scene["boat"]
        speed = self.scene.number("walk_speed")
        edge = self.scene.anchor(f"edge_{side.value}")
        kind = kind_of(name)
        if not old.aboard and new.aboard:  # bank -> seat
            slot = self.slot_position(old.side or side, kind, old.index)
            seat = (boat.world_matrix() @ np.append(self.seat_local(new.index), 1.0))[:3]
            return Sequence(
                MoveTo(node, (slot[0], slot[1], 0.0), speed=speed),
                MoveTo(node, edge, speed=speed),
                MoveTo(node, seat, speed=speed),
                Call(lambda: node.set_parent(boat)),
            )
        if old.aboard and not new.aboard:  # seat -> bank
            node.set_parent(None)
            slot = self.slot_position(new.side or side, kind, new.index)
            return Sequence(
                MoveTo(node, edge, speed=speed),
                MoveTo(node, (slot[0], slot[1], 0.0), speed=speed),
                MoveTo(node, slot, speed=speed),
            )
        if new.aboard:  # seat -> seat (after an undo or redo that kept the passenger aboard)
            return Sequence(MoveTo(node, self.seat_local(new.index), speed=speed))
        node.set_parent(None)
        slot = self.slot_position(new.side or side, kind, new.index)
        return Sequence(MoveTo(node, slot, speed=speed))


def _can_move(place: Place, aboard: bool, side: Side) -> bool:
    return place.aboard if aboard else place.side is side


def _free_slot(places: Places, kind: Kind, side: Side) -> int:
    taken = {p.index for n, p in places.items() if p.side is side and kind_of(n) is kind}
    i = 0
    while i in taken:
        i += 1
    return i


def _name(kind: Kind, i: int) -> str:
    return f"{kind.value}{i + 1}"


def _yaw(angle: float) -> np.ndarray:
    return np.array([0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)], dtype="f4")
