"""Cluedo's table: where every card and token lies for a game state, and the tweens that
take the table from one state to the next.

:func:`layout` says where things are: each seat's token at the table's edge (its colour, a
glow on the seat to play) with its hand between it and the middle (the viewer's face up and
large enough to read in a small window, the others' backs), the envelope in the middle, the
suggestion being answered in a row before it, a grey token and "passed" beside each seat
that passed, a gold one and "showed" beside the seat that answered, and the card that
refuted it at the end of the row: face up only when the viewer is the suggester or the
refuter. No label or token lies on a card. When the game is over every hand and the
envelope's three cards lie face up.

:class:`Table` keeps one node per :class:`Placement` by name. A place that moved is tweened there
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

from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.engine.tweens import Call, MoveTo, Parallel, RotateTo, Sequence, TweenManager, Wait
from game.games.clue.faces import BACK, CardFaceLayer
from game.logic.clue.events import Accusation, Suggestion
from game.logic.clue.rules import ClueState

__all__ = [
    "ENVELOPE_AT",
    "SEAT_COLORS",
    "Placement",
    "Ring",
    "Table",
    "layout",
    "pass_spot",
    "seat_places",
    "suggestion_places",
]

SEAT_COLORS = (
    (0.95, 0.80, 0.30, 1.0), (0.85, 0.45, 0.85, 1.0), (0.35, 0.80, 0.85, 1.0),
    (0.95, 0.55, 0.25, 1.0), (0.60, 0.85, 0.35, 1.0), (0.75, 0.75, 0.95, 1.0),
)  # fmt: skip
#: The card node's thickness: a card turned face down is raised by it to lie on the cloth.
THICK = 0.026
LIFT = 0.6  # how high a card rises to turn over
MOVE = 0.45  # seconds for a card to travel
STEP = 0.4  # seconds between the answers of a suggestion
#: The row of a suggestion's cards, in front of the envelope: its depth, card spacing and the
#: cards' size (large enough to read their names in a small window).
ROW_Z, ROW_STEP, ROW_SCALE = 0.2, 1.4, 1.75
#: Where the envelope lies: behind the row, towards the far seat.
ENVELOPE_AT = (0.0, 0.01, -1.25)
#: Your hand: face up at the near edge, each card up to this size, the row no wider than
#: ``VIEWER_ROOM`` (world units), its middle this far out towards your seat.
VIEWER_SCALE, VIEWER_ROOM, VIEWER_REACH = 2.0, 9.2, 0.87
#: The others' hands lie this far out from the middle towards their seats, a token and its
#: name clear of them; a seat at a side of the table has its hand moved this much towards the
#: far side, and one on your side this much outwards, leaving the near side to your hand.
HAND_REACH, HAND_SHIFT, NEAR_SHIFT = 0.8, 1.4, 0.4
#: The seats' tokens: this far out across and along (x, z) towards each seat; the nearest
#: seat's token a little less far (z), its name on its left, so that a banner of a few lines
#: over the bottom of the window leaves them clear.
TOKEN_REACH = (1.2, 1.4)
NEAR_REACH, NEAR_LABEL = 1.3, 1.0
#: A card's half-length, and how far a card of size 1 reaches from its middle (any turn).
HALF_LENGTH, CARD_REACH = 0.45, 0.55
#: A seat that passed: a grey token this far beside the seat's token along the table's edge,
#: and its "passed" further: this much, and this much more where the edge runs across.
PASS_BESIDE, PASS_LABEL = 1.05, (0.6, 0.75)
#: The token of the seat that answered a suggestion.
ANSWER_COLOUR = (0.95, 0.75, 0.25, 1.0)


@dataclass(frozen=True)
class Placement:
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
    label_offset: tuple[float, float] = (0.0, 0.4)  # where a token's label is: (dx, dz)


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

    def angle(self, seat: int) -> float:
        """Where ``seat`` sits round the table: pi/2 for seat 0 (nearest the camera)."""
        return math.pi / 2 + 2 * math.pi * seat / self.seats

    def at(self, seat: int, reach: float) -> tuple[float, float, float]:
        """A point on the way from the middle to ``seat`` (1: its hand) as (x, yaw, z), the
        yaw facing a card to that seat."""
        angle = self.angle(seat)
        yaw = math.atan2(math.cos(angle), math.sin(angle))
        rx, rz = self.numbers["radius_x"], self.numbers["radius_z"]
        return rx * reach * math.cos(angle), yaw, rz * reach * math.sin(angle)


def layout(
    state: ClueState,
    viewer: int | None,
    names: list[str],
    numbers: dict[str, float],
    *,
    reveal: bool = True,
) -> list[Placement]:
    """Every node of the table for ``state`` as ``viewer`` sees it (None: nobody's hand);
    at the end every card face up, unless ``reveal`` is False (the others' cards of a
    stand-in are made up)."""
    ring = Ring(state.rules.seats, numbers)
    over = state.is_terminal() and reveal
    hands = [
        list(hand) if seat == viewer or over else [BACK] * len(hand)
        for seat, hand in enumerate(state.hands)
    ]
    places = seat_places(ring, hands, viewer, names, state.out(), state.current_player())
    places.append(Placement("envelope", "envelope", ENVELOPE_AT,
                        color=(0.55, 0.44, 0.25, 1.0) if over else None))  # fmt: skip
    if over:
        for i, card in enumerate(state.envelope):
            places.append(
                Placement(f"envelope-{i}", "card", ((i - 1) * ROW_STEP, ring.rest, ROW_Z),
                      face=card, scale=ROW_SCALE, source=ENVELOPE_AT, delay=0.2 * i)
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
) -> list[Placement]:
    """Each seat's token (at the table's edge) and its hand (:data:`BACK` for a card not
    seen) between it and the middle: the others' face down unless all their cards are known,
    far enough in that the token and its name keep clear of them; the viewer's face up and
    large near the edge, as wide as the others' hands leave room for."""
    places: list[Placement] = []
    for seat in range(ring.seats):
        tx, tz = token_spot(ring, seat)
        label = names[seat] + (" · out" if seat in out else "")
        places.append(
            Placement(f"seat-{seat}", "seat", (tx, 0.1, tz), color=SEAT_COLORS[seat],
                  label=label, glow=0.6 if seat == to_play else 0.0)
        )  # fmt: skip
    for seat in range(ring.seats):
        if seat == viewer:
            continue
        x, yaw, z = ring.at(seat, HAND_REACH)
        sin = math.sin(ring.angle(seat))
        if abs(sin) < 0.2:  # a seat at a side of the table
            z -= HAND_SHIFT
        elif sin > 0:  # a seat on your side: its cards out of your hand's way
            x += math.copysign(NEAR_SHIFT, x)
        places += _hand(ring, seat, hands[seat] if seat < len(hands) else [], x, z, yaw, 1.0)
    if viewer is not None:
        hand = hands[viewer] if viewer < len(hands) else []
        x, yaw, z = ring.at(viewer, VIEWER_REACH)
        # As wide as the row may be where the others' cards reach down into it.
        top = z - HALF_LENGTH * VIEWER_SCALE - 0.1
        room = VIEWER_ROOM
        for place in places:
            px, _y, pz = place.position
            if place.prototype == "card" and pz + CARD_REACH > top:
                room = min(room, 2 * (abs(px) - CARD_REACH - 0.1))
        scale = min(VIEWER_SCALE, max(room, 1.0) / (max(1, len(hand)) * ring.step * 1.08))
        places += _hand(ring, viewer, hand, x, z, yaw, scale)
    return places


def _hand(
    ring: Ring, seat: int, hand: list[int], x: float, z: float, yaw: float, scale: float
) -> list[Placement]:
    """``seat``'s cards in a row across the line to its seat, centred on (x, z)."""
    gap = ring.step * scale * 1.08
    places = []
    for i, card in enumerate(hand):
        offset = (i - (len(hand) - 1) / 2) * gap
        places.append(
            Placement(f"hand-{seat}-{i}", "card",
                  (x + offset * math.cos(yaw), ring.rest, z - offset * math.sin(yaw)), yaw,
                  face_up=card != BACK, face=card, scale=scale)
        )  # fmt: skip
    return places


def suggestion_places(
    ring: Ring, index: int, event: Suggestion, viewer: int | None, names: list[str]
) -> list[Placement]:
    """A suggestion on the table: its three cards in a row before the envelope (they come
    from the suggester), a grey token and "passed" at each seat that passed, a gold one and
    "showed" at the seat that answered, and the card that refuted it at
    the end of the row (it comes from the refuter), face up when the viewer is the suggester
    or the refuter and knows the card. ``index`` tells one suggestion's nodes from the next's.
    """
    start = ring.at(event.seat, 1.0)
    rest = ring.rest
    # The named cards and the answer, centred in a row before the envelope.
    first = -1.5 * ROW_STEP if event.refuter is not None else -ROW_STEP
    places = [
        Placement(f"named-{index}-{i}", "card", (first + i * ROW_STEP, rest, ROW_Z), face=card,
              scale=ROW_SCALE, source=(start[0], LIFT, start[2]))
        for i, card in enumerate(event.cards)
    ]  # fmt: skip
    for k, p in enumerate(event.passed):
        px, _, pz = pass_spot(ring, p)
        tx, tz = _along_edge(ring, p)
        places.append(
            Placement(f"pass-{index}-{p}", "pass", (px, 0.06, pz), delay=STEP * (k + 1),
                  source=(px, 1.2, pz), label="passed",
                  label_offset=_label_along(tx, tz))
        )  # fmt: skip
    if event.refuter is not None:
        r = event.refuter
        ax, _, az = ring.at(r, 1.0)
        seen = viewer in (event.seat, r) and event.shown is not None
        delay = STEP * (len(event.passed) + 1)
        places.append(
            Placement(f"shown-{index}", "card", (first + 3 * ROW_STEP + 0.15, rest, ROW_Z), 0.0,
                  face_up=seen, face=event.shown if seen and event.shown is not None else BACK,
                  scale=ROW_SCALE, source=(ax, LIFT, az), delay=delay)
        )  # fmt: skip
        # Who answered, said at their seat as a pass is: a gold token and "showed".
        px, _, pz = pass_spot(ring, r)
        tx, tz = _along_edge(ring, r)
        places.append(
            Placement(f"answer-{index}-{r}", "pass", (px, 0.06, pz), color=ANSWER_COLOUR,
                  delay=delay, source=(px, 1.2, pz), label="showed",
                  label_offset=_label_along(tx, tz))
        )  # fmt: skip
    return places


def pass_spot(ring: Ring, seat: int) -> tuple[float, float, float]:
    """Where the grey token of a seat that passed lies: beside the seat's token, along the
    table's edge, so that no card lies under it (and its "passed" further along)."""
    x, z = token_spot(ring, seat)
    tx, tz = _along_edge(ring, seat)
    return x + PASS_BESIDE * tx, 0.06, z + PASS_BESIDE * tz


def token_spot(ring: Ring, seat: int) -> tuple[float, float]:
    """Where ``seat``'s token lies (x, z): at the table's edge, a little in from the ends of
    the long sides, so the table's picture is no wider than it must be."""
    angle = ring.angle(seat)
    along = NEAR_REACH if _nearest(ring, seat) else TOKEN_REACH[1]
    return (ring.numbers["radius_x"] * TOKEN_REACH[0] * math.cos(angle),
            ring.numbers["radius_z"] * along * math.sin(angle))  # fmt: skip


def _nearest(ring: Ring, seat: int) -> bool:
    """Whether ``seat`` sits at the near edge, facing the camera (seat 0)."""
    return seat % ring.seats == 0


def _label_along(tx: float, tz: float) -> tuple[float, float]:
    """Where the label of a token beside a seat goes, from the token: further along the
    table's edge (``tx``, ``tz``), past the token and half a word (a word is wider than
    tall, so further where the edge runs across the screen)."""
    reach = PASS_LABEL[0] + PASS_LABEL[1] * abs(tx)
    return tx * reach, tz * reach


def _along_edge(ring: Ring, seat: int) -> tuple[float, float]:
    """The unit direction along the table's edge at ``seat`` (the ellipse's tangent), the
    way towards your side of the table (or to the right, at the nearest and farthest
    seats)."""
    angle = ring.angle(seat)
    tx, tz = -ring.numbers["radius_x"] * math.sin(angle), ring.numbers["radius_z"] * math.cos(angle)
    length = math.hypot(tx, tz) or 1.0
    tx, tz = tx / length, tz / length
    if tz < -1e-9 or (abs(tz) <= 1e-9 and tx < 0):
        tx, tz = -tx, -tz
    return tx, tz


class Table:
    """The table's nodes in ``scene``, moved by ``tweens``; card faces drawn by ``faces``."""

    def __init__(self, scene: Scene, tweens: TweenManager, faces: CardFaceLayer | None) -> None:
        self.scene = scene
        self.tweens = tweens
        self.faces = faces
        self.places: dict[str, Placement] = {}
        self.nodes: dict[str, Node] = {}

    def show(self, places: list[Placement], animate: bool = True) -> None:
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
        """World labels: each seat's name by its token, and "passed" or "showed" beside the
        token of a seat's answer to a suggestion (along the table's edge)."""
        out = []
        for place in self.places.values():
            if not place.label:
                continue
            node = self.nodes[place.name]
            if node.hidden:
                continue
            x, y, z = (float(v) for v in node.position)
            if place.prototype == "seat" and place.name == "seat-0":
                x -= NEAR_LABEL  # the nearest seat's name on the token's left
            elif place.prototype == "seat":
                # Outwards: below a token on your side of the table, above the others (on
                # the far side, where the view is foreshortened, a little further, clear of
                # a "passed").
                z += 0.7 if z > 1.0 else -0.7 if z > -2.0 else -0.95
            elif place.prototype == "card":
                z += 0.75 * place.scale
            else:
                x, z = x + place.label_offset[0], z + place.label_offset[1]
            out.append((place.label, np.array([x, y + 0.3, z], dtype="f4")))
        return out

    def place_of(self, node: Node | None) -> Placement | None:
        return self.places.get(node.name) if node is not None else None

    # -- inside -----------------------------------------------------------------------------

    def _spawn(self, place: Placement) -> Node:
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

    def _enter(self, node: Node, place: Placement, delay: float | None) -> None:
        if delay is None or place.source is None:
            return
        target = np.array(_rest(place), dtype="f4")
        node.position = np.array(place.source, dtype="f4")
        node.hidden = True
        lifted = target + np.array([0.0, LIFT if place.prototype == "card" else 0.0, 0.0], "f4")

        def appear() -> None:
            node.hidden = False

        self._fly(node, Sequence(Wait(max(delay, 0.0)), Call(appear),
                                 MoveTo(node, lifted, duration=MOVE),
                                 MoveTo(node, target, duration=0.15)))  # fmt: skip

    def _move(self, node: Node, old: Placement, new: Placement, animate: bool) -> None:
        node.highlight = new.glow
        if new.color is not None and old.color != new.color:
            node.material.color = new.color
        target = np.array(_rest(new), dtype="f4")
        turn = _turn(new)
        if not animate:  # also ends what a cancelled tween left half done
            node.position, node.rotation, node.hidden = target, turn, False
            node.pickable = new.prototype == "card"
            return
        if old.position == new.position and old.face_up == new.face_up and old.yaw == new.yaw:
            return
        if old.face_up != new.face_up:
            up = np.asarray(node.position, dtype="f4") + np.array([0.0, LIFT, 0.0], "f4")
            self._fly(node, Sequence(MoveTo(node, up, duration=0.2),
                                     RotateTo(node, turn, duration=0.35),
                                     MoveTo(node, target, duration=0.2)))  # fmt: skip
        else:
            self._fly(node, Parallel(MoveTo(node, target, duration=MOVE),
                                     RotateTo(node, turn, duration=MOVE)))  # fmt: skip

    def _fly(self, node: Node, tween: Any) -> None:
        """Run ``tween`` on a node, which is not a piece of the table while it flies: the
        framing (the pieces' box, :mod:`game.engine.framing`) then never takes in a card in
        the air, so the table keeps its size as cards come, go and turn over. A card is a
        piece again when it lands."""
        node.pickable = False

        def land() -> None:
            place = self.places.get(node.name)
            node.pickable = place is not None and place.prototype == "card"

        self.tweens.run(Sequence(tween, Call(land)))


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


def _rest(place: Placement) -> tuple[float, float, float]:
    """The node's position: a card face down is raised by its thickness."""
    x, y, z = place.position
    if place.prototype == "card" and not place.face_up:
        y += THICK * place.scale
    return x, y, z


def _turn(place: Placement) -> Any:
    yaw = quat_from_axis_angle((0.0, 1.0, 0.0), place.yaw)
    if place.prototype != "card" or place.face_up:
        return yaw
    flip = quat_from_axis_angle((0.0, 0.0, 1.0), math.pi)
    return np.asarray(pyrr.quaternion.cross(yaw, flip), dtype="f4")
