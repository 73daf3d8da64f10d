"""Cluedo's table: where every card and token lies for a game state, and the tweens that
take the table from one state to the next.

:func:`layout` says where things are: each seat's token (its colour, a glow on the seat to
play) with its hand before it (the viewer's face up and larger, the others' backs), the
envelope in the middle, the suggestion being answered laid out before the suggester, a grey
token before each seat that passed, and the card that refuted it on its way to the
suggester: face up only when the viewer is the suggester or the refuter. When the game is
over every hand and the envelope's three cards lie face up.

:class:`Table` keeps one node per :class:`Place` by name. A place that moved is tweened there
(lifted, turned and set down when it turns over); a new one comes in from where it starts
(the suggestion's cards from the suggester, the shown card from the refuter, the envelope's
cards out of the envelope) after its delay, so a suggestion plays out in order: the three
cards, each pass, then the answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyrr

from game.controllers.clue_faces import BACK, CardFaceLayer
from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.engine.tweens import Call, MoveTo, Parallel, RotateTo, Sequence, TweenManager, Wait
from game.logic.clue.events import Accusation, Suggestion
from game.logic.clue.rules import ClueState

__all__ = ["SEAT_COLORS", "Place", "Ring", "Table", "layout", "seat_places", "suggestion_places"]

SEAT_COLORS = (
    (0.95, 0.80, 0.30, 1.0), (0.85, 0.45, 0.85, 1.0), (0.35, 0.80, 0.85, 1.0),
    (0.95, 0.55, 0.25, 1.0), (0.60, 0.85, 0.35, 1.0), (0.75, 0.75, 0.95, 1.0),
)  # fmt: skip
#: The card node's thickness: a card turned face down is raised by it to lie on the cloth.
THICK = 0.026
LIFT = 0.6  # how high a card rises to turn over
MOVE = 0.45  # seconds for a card to travel
STEP = 0.4  # seconds between the answers of a suggestion
#: The row of a suggestion's cards, in front of the envelope: its depth and card spacing.
ROW_Z, ROW_STEP = 0.98, 1.15


@dataclass(frozen=True)
class Place:
    """Where one node lies: its prototype, position, turn about the vertical, whether a card
    is face up and which face it shows (:data:`BACK` when the viewer may not see it), its
    size, colour, where it comes from when new, after how long, and its label."""

    name: str
    prototype: str
    position: tuple[float, float, float]
    yaw: float = 0.0
    face_up: bool = True
    face: int = BACK
    scale: float = 1.0
    color: tuple[float, float, float, float] | None = None
    source: tuple[float, float, float] | None = None
    delay: float = 0.0
    label: str = ""
    glow: float = 0.0


@dataclass(frozen=True)
class Ring:
    """The seats around the table: how many, and the scene's numbers (``radius_x``,
    ``radius_z``, ``card_step``, ``card_rest``)."""

    seats: int
    numbers: dict[str, float]

    @property
    def step(self) -> float:
        return self.numbers["card_step"]

    @property
    def rest(self) -> float:
        return self.numbers["card_rest"]

    def at(self, seat: int, reach: float) -> tuple[float, float, float]:
        """A point on the way from the middle to ``seat`` (1: its hand) as (x, yaw, z), the
        yaw facing a card to that seat."""
        angle = math.pi / 2 + 2 * math.pi * seat / self.seats
        yaw = math.atan2(math.cos(angle), math.sin(angle))
        rx, rz = self.numbers["radius_x"], self.numbers["radius_z"]
        return rx * reach * math.cos(angle), yaw, rz * reach * math.sin(angle)


def layout(
    state: ClueState, viewer: int | None, names: list[str], numbers: dict[str, float]
) -> list[Place]:
    """Every node of the table for ``state`` as ``viewer`` sees it (None: nobody's hand)."""
    ring = Ring(state.rules.seats, numbers)
    over = state.is_terminal()
    hands = [
        list(hand) if seat == viewer or over else [BACK] * len(hand)
        for seat, hand in enumerate(state.hands)
    ]
    places = seat_places(ring, hands, viewer, names, state.out(), state.current_player())
    places.append(Place("envelope", "envelope", (0.0, 0.01, -0.2),
                        color=(0.55, 0.44, 0.25, 1.0) if over else None))  # fmt: skip
    if over:
        for i, card in enumerate(state.envelope):
            places.append(
                Place(f"envelope-{i}", "card", ((i - 1) * ring.step * 1.3, ring.rest, 1.05),
                      face=card, scale=1.25, source=(0.0, 0.2, -0.2), delay=0.2 * i)
            )  # fmt: skip
    shown = _on_table(state)
    if shown is not None:
        places += suggestion_places(ring, shown[0], shown[1], viewer, names)
    return places


def seat_places(
    ring: Ring,
    hands: list[list[int]],
    viewer: int | None,
    names: list[str],
    out: frozenset[int] = frozenset(),
    to_play: int = -1,
) -> list[Place]:
    """Each seat's token and its hand (:data:`BACK` for a card not seen): the viewer's face
    up and larger, the others face down unless all their cards are known."""
    places: list[Place] = []
    for seat in range(ring.seats):
        x, yaw, z = ring.at(seat, 1.0)
        hand = hands[seat] if seat < len(hands) else []
        label = names[seat]
        if seat != viewer:
            label += f" · {len(hand)} cards"
        if seat in out:
            label += " · out"
        places.append(
            Place(f"seat-{seat}", "seat", (x * 1.35, 0.1, z * 1.35), color=SEAT_COLORS[seat],
                  label=label, glow=0.6 if seat == to_play else 0.0)
        )  # fmt: skip
        scale = 1.45 if seat == viewer else 1.0
        gap = ring.step * scale * 1.08
        for i, card in enumerate(hand):
            offset = (i - (len(hand) - 1) / 2) * gap
            places.append(
                Place(f"hand-{seat}-{i}", "card",
                      (x + offset * math.cos(yaw), ring.rest, z - offset * math.sin(yaw)), yaw,
                      face_up=card != BACK, face=card, scale=scale)
            )  # fmt: skip
    return places


def suggestion_places(
    ring: Ring, index: int, event: Suggestion, viewer: int | None, names: list[str]
) -> list[Place]:
    """A suggestion on the table: its three cards in a row before the envelope (they come
    from the suggester), a token at each seat that passed, and the card that refuted it at
    the end of the row (it comes from the refuter), face up when the viewer is the suggester
    or the refuter and knows the card. ``index`` tells one suggestion's nodes from the next's.
    """
    start = ring.at(event.seat, 1.0)
    rest = ring.rest
    places = [
        Place(f"named-{index}-{i}", "card", ((i - 1) * ROW_STEP, rest, ROW_Z), face=card,
              scale=1.2, source=(start[0], LIFT, start[2]))
        for i, card in enumerate(event.cards)
    ]  # fmt: skip
    for k, p in enumerate(event.passed):
        px, _, pz = ring.at(p, 0.7)
        places.append(
            Place(f"pass-{index}-{p}", "pass", (px, 0.06, pz), delay=STEP * (k + 1),
                  source=(px, 1.2, pz), label="passed")
        )  # fmt: skip
    if event.refuter is not None:
        ax, _, az = ring.at(event.refuter, 1.0)
        seen = viewer in (event.seat, event.refuter) and event.shown is not None
        places.append(
            Place(f"shown-{index}", "card", (2.1 * ROW_STEP, rest, ROW_Z), 0.0,
                  face_up=seen, face=event.shown if seen and event.shown is not None else BACK,
                  scale=1.2, source=(ax, LIFT, az), delay=STEP * (len(event.passed) + 1),
                  label=f"shown by {names[event.refuter]}")
        )  # fmt: skip
    return places


class Table:
    """The table's nodes in ``scene``, moved by ``tweens``; card faces drawn by ``faces``."""

    def __init__(self, scene: Scene, tweens: TweenManager, faces: CardFaceLayer | None) -> None:
        self.scene = scene
        self.tweens = tweens
        self.faces = faces
        self.places: dict[str, Place] = {}
        self.nodes: dict[str, Node] = {}

    def show(self, places: list[Place], animate: bool = True) -> None:
        """Bring the table to ``places``: remove what is gone, move what moved, bring in
        what is new (all at once when ``animate`` is False)."""
        wanted = {p.name: p for p in places}
        for name in [n for n in self.nodes if n not in wanted]:
            self.scene.remove(name)
            del self.nodes[name]
            del self.places[name]
        # A batch of new places waits only for other new places: when the suggestion's
        # cards are already down, the answer comes at once.
        fresh = [p for p in places if p.name not in self.nodes]
        first = min((p.delay for p in fresh), default=0.0)
        for place in places:
            node = self.nodes.get(place.name)
            if node is None:
                node = self._spawn(place)
                self._enter(node, place, place.delay - first if animate else None)
            else:
                self._move(node, self.places[place.name], place, animate)
            self.places[place.name] = place
        if self.faces is not None:
            self.faces.cards = [
                (self.nodes[p.name], p.face) for p in places if p.prototype == "card"
            ]

    def labels(self) -> list[tuple[str, Any]]:
        """World labels: each seat's name by its token, "passed" over a pass token."""
        out = []
        for place in self.places.values():
            if not place.label:
                continue
            node = self.nodes[place.name]
            if node.hidden:
                continue
            x, y, z = (float(v) for v in node.position)
            if place.prototype == "seat":
                # Below the seats on the near side, above the others: never on the cloth.
                z += 0.7 if z > 0.5 else -0.7
            elif place.prototype == "card":
                z += 0.75 * place.scale
            else:
                z += 0.4
            out.append((place.label, np.array([x, y + 0.3, z], dtype="f4")))
        return out

    def place_of(self, node: Node | None) -> Place | None:
        return self.places.get(node.name) if node is not None else None

    # -- inside -----------------------------------------------------------------------------

    def _spawn(self, place: Place) -> Node:
        extra: dict[str, Any] = {"position": list(_rest(place))}
        if place.color is not None:
            extra["color"] = list(place.color)
        node = self.scene.spawn(place.prototype, place.name, **extra)
        node.rotation = _turn(place)
        if place.scale != 1.0:
            node.scale = node.scale * np.float32(place.scale)
        node.highlight = place.glow
        node.pickable = place.prototype == "card"
        self.nodes[place.name] = node
        return node

    def _enter(self, node: Node, place: Place, delay: float | None) -> None:
        if delay is None or place.source is None:
            return
        target = np.array(_rest(place), dtype="f4")
        node.position = np.array(place.source, dtype="f4")
        node.hidden = True
        lifted = target + np.array([0.0, LIFT if place.prototype == "card" else 0.0, 0.0], "f4")

        def appear() -> None:
            node.hidden = False

        self.tweens.run(
            Sequence(Wait(max(delay, 0.0)), Call(appear), MoveTo(node, lifted, duration=MOVE),
                     MoveTo(node, target, duration=0.15))
        )  # fmt: skip

    def _move(self, node: Node, old: Place, new: Place, animate: bool) -> None:
        node.highlight = new.glow
        if new.color is not None and old.color != new.color:
            node.material.color = new.color
        target = np.array(_rest(new), dtype="f4")
        turn = _turn(new)
        if not animate:  # also ends what a cancelled tween left half done
            node.position, node.rotation, node.hidden = target, turn, False
            return
        if old.position == new.position and old.face_up == new.face_up and old.yaw == new.yaw:
            return
        if old.face_up != new.face_up:
            up = np.asarray(node.position, dtype="f4") + np.array([0.0, LIFT, 0.0], "f4")
            self.tweens.run(
                Sequence(MoveTo(node, up, duration=0.2), RotateTo(node, turn, duration=0.35),
                         MoveTo(node, target, duration=0.2))
            )  # fmt: skip
        else:
            self.tweens.run(
                Parallel(MoveTo(node, target, duration=MOVE), RotateTo(node, turn, duration=MOVE))
            )


def _on_table(state: ClueState) -> tuple[int, Suggestion] | None:
    """The suggestion lying on the table and its place in the log (the one being answered
    counts as the next event); none once an accusation follows it."""
    if state.asking is not None:
        ask = state.asking
        return len(state.log), Suggestion(ask.seat, ask.cards, ask.passed)
    if not state.log or isinstance(state.log[-1], Accusation):
        return None
    for index in range(len(state.log) - 1, -1, -1):
        event = state.log[index]
        if isinstance(event, Suggestion):
            return index, event
    return None


def _rest(place: Place) -> tuple[float, float, float]:
    """The node's position: a card face down is raised by its thickness."""
    x, y, z = place.position
    if place.prototype == "card" and not place.face_up:
        y += THICK * place.scale
    return x, y, z


def _turn(place: Place) -> Any:
    yaw = quat_from_axis_angle((0.0, 1.0, 0.0), place.yaw)
    if place.prototype != "card" or place.face_up:
        return yaw
    flip = quat_from_axis_angle((0.0, 0.0, 1.0), math.pi)
    return np.asarray(pyrr.quaternion.cross(yaw, flip), dtype="f4")
