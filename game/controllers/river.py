"""Priests and Devils: the scene controller (the seed's FirstController).

It turns UserActions into calls on :mod:`game.logic.river`, keeps which character stands
where (bank slots and boat seats, the seed's Position table lives in ``scenes/river.toml``) and
animates every change with timed actions: characters walk an L path between their slot and a
seat, passengers ride the boat across, and the judge speaks when the boat lands.
"""

from __future__ import annotations

import functools
import logging
import math
from collections import deque
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from game.engine.controller import Button, Status, Tone, UnknownActionError
from game.engine.scene import Node, Scene, load_scene
from game.engine.tweens import Call, MoveTo, Parallel, Sequence, Tween
from game.logic.river import (
    Board,
    Cross,
    IllegalMoveError,
    Kind,
    Outcome,
    RiverPuzzle,
    RiverSettingError,
    RiverState,
    Rules,
    Side,
    Unboard,
    parse_action,
)
from game.resources import asset_path

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.logic.river import Action as Move

log = logging.getLogger(__name__)

# Options the window offers (the logic and `gamehall solve` accept far more).
# Six of a kind fill two rows of a bank; four seats fill the boat's deck.
MAX_PER_KIND = 6
MAX_CAPACITY = 4
OPTION_LIMITS = {
    "priests": (1, MAX_PER_KIND),
    "devils": (0, MAX_PER_KIND),
    "capacity": (1, MAX_CAPACITY),
}


@dataclass(frozen=True)
class Place:
    """Where one character is: ashore on a side in slot ``index``, or in boat seat ``index``."""

    side: Side | None  # None: in the boat
    index: int

    @property
    def aboard(self) -> bool:
        return self.side is None


@dataclass(frozen=True)
class Snapshot:
    """Everything undo needs: the logic state and who stood where."""

    state: RiverState
    places: dict[str, Place]


class RiverController:
    """Scene controller and UserActions for the river crossing."""

    name = "river"
    title = "Priests and Devils"

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        on_options: Callable[[Rules], None] | None = None,
        on_result: Callable[[RiverState, bool, bool], str | None] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        RiverPuzzle.check(self.rules)
        self.puzzle = RiverPuzzle(self.rules)
        self.on_options = on_options
        self.on_result = on_result
        self.director: Director | None = None
        self.scene: Scene | None = None
        self.state = RiverState.start(self.rules)
        self.places: dict[str, Place] = {}
        self.history: list[Snapshot] = []
        self.queue: deque[Move] = deque()
        self.hint_marks: list[str] = []
        self.hint_on = False  # the hint follows the player's moves until the boat goes
        self.assisted = False  # Next step or Solve played part of this game
        self.recorded = False  # this game's result went into the statistics
        self.message = ""
        self.tone = Tone.INFO
        self.hover: Node | None = None
        self.announced = False  # the judge has spoken about the current (final) state
        self._time = 0.0

    # -- SceneController ------------------------------------------------------------------

    def enter(self, director: Director) -> Scene:
        self.director = director
        self.scene = load_scene(asset_path("scenes", "river.toml"))
        self._build_cast()
        self.restart()
        return self.scene

    def exit(self) -> None:
        self.queue.clear()
        self.director = None

    def update(self, dt: float) -> None:
        self._time += dt
        if self.queue and not self._animating() and self.state.verdict().outcome is Outcome.PLAYING:
            move = self.queue.popleft()
            try:
                self._do(move)
            except IllegalMoveError as exc:  # the plan no longer fits: stop, say why
                self.queue.clear()
                self._say(f"Stopped: {exc}", Tone.WARN)
        self._bob_marks()

    def idle(self) -> bool:
        return not self.queue

    def actions(self) -> list[str]:
        return [
            "hint", "next", "solve", "undo", "restart", "boat",
            "board:priest", "board:devil", "unboard:priest", "unboard:devil",
            "click:NAME", "priests+", "priests-", "devils+", "devils-", "capacity+", "capacity-",
        ]  # fmt: skip

    def keys(self) -> dict[str, str]:
        return {
            "H": "hint",
            "N": "next",
            "S": "solve",
            "U": "undo",
            "R": "restart",
            "SPACE": "boat",
            "G": "boat",
            "P": "board:priest",
            "D": "board:devil",
        }

    def buttons(self) -> list[Button]:
        ready = self._accepting_moves
        keys = {action: _key_label(key) for key, action in reversed(self.keys().items())}

        def button(label: str, action: str, enabled: Callable[[], bool], tip: str = "") -> Button:
            return Button(label, action, keys.get(action, ""), enabled, tooltip=tip)

        playing = lambda: self.state.verdict().outcome is Outcome.PLAYING  # noqa: E731
        main = [
            button("Go", "boat", lambda: ready() and self.state.boat.size > 0, "Row across"),
            button("Hint", "hint", playing),
            button("Next step", "next", ready),
            button("Solve", "solve", ready),
            button("Undo", "undo", lambda: bool(self.history) and not self._animating()),
            button("Restart", "restart", lambda: True),
        ]
        options = []
        for option, word in (("priests", "Priests"), ("devils", "Devils"), ("capacity", "Seats")):
            for sign, mark in (("-", "−"), ("+", "+")):
                options.append(
                    Button(
                        f"{word} {mark}",
                        f"{option}{sign}",
                        group="options",
                        enabled=functools.partial(self._option_allowed, option, sign),
                    )
                )
        return main + options

    def _option_allowed(self, option: str, sign: str) -> bool:
        low, high = OPTION_LIMITS[option]
        value = int(getattr(self.rules, option)) + (1 if sign == "+" else -1)
        return low <= value <= high

    def status(self) -> Status:
        optimum = self.puzzle.optimal_crossings()
        to_go = self.puzzle.distance(self.state)
        counter = f"Crossings {self.state.crossings}   best possible {optimum}"
        if to_go is not None and self.state.verdict().outcome is Outcome.PLAYING:
            counter += f"   ({to_go} to go)"
        r = self.rules
        help_text = (
            f"{_count(r.priests, 'priest')}, {_count(r.devils, 'devil')}, a boat for {r.capacity}."
            "  Click a character to board or land, Go to cross."
        )
        return Status(self.title, counter, self.message, self.tone, help_text)

    def status_line(self) -> str:
        v = self.state.verdict()
        return (
            f"status={v.outcome.value} crossings={self.state.crossings} "
            f"optimal={self.puzzle.optimal_crossings()}"
        )

    def on_hover(self, node: Node | None) -> None:
        if node is self.hover:
            return
        if self.hover is not None:
            self.hover.highlight = 0.0
            self._refresh_marks()
        self.hover = node
        if node is not None and self._accepting_moves():
            node.highlight = max(node.highlight, 0.35)

    def on_pick(self, node: Node | None) -> None:
        if node is None:
            return
        action = "boat" if node.name == "boat" else f"click:{node.name}"
        if self.director is not None:
            self.director.perform(action)
        else:
            self.perform(action)

    def perform(self, action: str) -> None:
        """The UserActions, by name: see :meth:`actions`."""
        text = action.strip().lower()
        simple: dict[str, Callable[[], None]] = {
            "hint": self.hint, "next": self.next_step, "solve": self.solve,
            "undo": self.undo, "restart": self.restart,
        }  # fmt: skip
        if text in simple:
            simple[text]()
        elif text.startswith("click:"):
            self.click_character(action.strip()[6:])
        elif text[:-1] in ("priests", "devils", "capacity") and text[-1] in "+-":
            self.change_option(text[:-1], 1 if text[-1] == "+" else -1)
        else:
            try:
                move = parse_action(text)
            except ValueError:
                raise UnknownActionError(
                    f"unknown action {action!r} for {self.name}; try one of "
                    + ", ".join(self.actions())
                ) from None
            self.play(move)

    # -- UserActions ----------------------------------------------------------------------

    def play(self, move: Move, who: str | None = None) -> None:
        """A move by the person: refused while anything moves or after the end."""
        self._check_input()
        self.queue.clear()
        self._do(move, who)

    def click_character(self, name: str) -> None:
        if name not in self.places:
            raise IllegalMoveError(f"there is no character named {name!r}")
        place = self.places[name]
        kind = _kind_of(name)
        if place.aboard:
            self.play(Unboard(kind), name)
        elif place.side is not self.state.boat_side:
            self._check_input()
            raise IllegalMoveError(
                f"The boat is at the {self.state.boat_side.value} bank; that {kind.value} "
                f"waits on the {place.side.value if place.side else ''} bank."
            )
        else:
            self.play(Board(kind), name)

    def hint(self) -> None:
        """Show every optimal next load, and mark who should move (never changes the state).

        The marks follow the player's boarding and landing until the boat leaves: first who
        should board or land, then the boat.
        """
        self._clear_marks()
        plan = self.puzzle.plan(self.state)
        hint = self.puzzle.hint(self.state)
        if not plan:
            if self.director is not None:
                self.director.say(f"No hint: {hint.reason}", Tone.WARN)
            return
        first = plan[0]
        if isinstance(first, Cross):
            step = "row across now"
        elif isinstance(first, Board):
            step = f"board a {first.kind.value}"
        else:
            step = f"put a {first.kind.value} ashore"
        if hint.loads:
            loads = " or ".join(str(load) for load in hint.loads)
            text = f"Hint: send {loads}; {step}. {hint.distance} crossings to go."
        else:
            text = f"Hint: {hint.reason}; {step}."
        self.hint_on = True
        self._say(text, Tone.HINT, keep=True)
        self._mark_plan(plan)

    def next_step(self) -> None:
        """Play the next optimal crossing: land or board who must, then row."""
        self._check_input()
        self._autoplay(self.puzzle.plan(self.state), "no next step")

    def solve(self) -> None:
        """Play optimal steps all the way to the win from any safe state."""
        self._check_input()
        self._autoplay(self.puzzle.solve_actions(self.state), "cannot solve from here")
        self._say("Solving: watch the optimal crossings. Undo (U) stops.", Tone.HINT, keep=True)

    def _autoplay(self, moves: list[Move], refusal: str) -> None:
        """Queue the solver's moves; update() plays each when the previous one has landed."""
        if not moves:
            raise IllegalMoveError(f"{refusal}: {self.puzzle.hint(self.state).reason}")
        self.assisted = True  # this game sets no best score
        self._clear_marks()
        self.queue = deque(moves)

    def undo(self) -> None:
        """Take back the last board, land or crossing (also after a loss).

        While Solve or Next step is playing, the first Undo stops it after the current move.
        """
        if self.queue:
            self.queue.clear()
            self._say("Stopped. Press Undo again to take moves back.", Tone.INFO, keep=True)
            return
        if self._animating():
            raise IllegalMoveError("Wait for the move to finish before undoing.")
        if not self.history:
            raise IllegalMoveError("Nothing to undo.")
        self.queue.clear()
        self._clear_marks()
        snap = self.history.pop()
        old_places = self.places
        self.state = snap.state
        self.places = dict(snap.places)
        self.announced = False
        self.message = ""
        self._animate_places(old_places, self.places)
        self._say("Undone.", Tone.INFO)

    def restart(self) -> None:
        """A fresh game with the same options; cancels everything that runs."""
        if self.director is not None:
            self.director.tweens.cancel_all()
        self.queue.clear()
        self._clear_marks()
        self.state = RiverState.start(self.rules)
        self.history.clear()
        self.places = {}
        for kind, count in ((Kind.PRIEST, self.rules.priests), (Kind.DEVIL, self.rules.devils)):
            for i in range(count):
                self.places[_name(kind, i)] = Place(Side.LEFT, i)
        self.announced = False
        self.assisted = False
        self.recorded = False
        self._snap_all()
        self._say(
            "Bring everyone across. Devils must never outnumber priests on a bank.",
            Tone.INFO,
            keep=True,
        )

    def change_option(self, option: str, delta: int) -> None:
        """Change priests, devils or seats by one; a setting with no solution is refused."""
        values = {
            "priests": self.rules.priests,
            "devils": self.rules.devils,
            "capacity": self.rules.capacity,
        }
        values[option] += delta
        low, high = OPTION_LIMITS[option]
        if not low <= values[option] <= high:
            raise RiverSettingError(f"{option} can be {low} to {high} here")
        try:
            rules = Rules(**values)
            RiverPuzzle.check(rules)
        except RiverSettingError as exc:
            raise RiverSettingError(f"Refused: {exc}") from None
        self.set_rules(rules)

    def set_rules(self, rules: Rules) -> None:
        RiverPuzzle.check(rules)
        self.rules = rules
        self.puzzle = RiverPuzzle(rules)
        if self.scene is not None:
            self._build_cast()
            self.restart()
        if self.on_options is not None:
            self.on_options(rules)
        best = self.puzzle.optimal_crossings()
        self._say(
            f"New game: {_count(rules.priests, 'priest')}, {_count(rules.devils, 'devil')}, "
            f"a boat for {rules.capacity}; {best} crossings at best.",
            Tone.INFO,
            keep=True,
        )

    # -- the debug overlay panel ----------------------------------------------------------

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        from game.engine.overlay import draw_graph

        st = self.state
        v = st.verdict()
        imgui.text(f"state  left {st.left}  boat {st.boat} at {st.boat_side.value}")
        imgui.text(f"       right {st.right}   crossings {st.crossings}")
        imgui.text(f"node   {st.crossing()}   outcome {v.outcome.value}")
        dist = self.puzzle.distance(st)
        imgui.text(f"distance to goal  {dist if dist is not None else 'unreachable'}")
        hint = self.puzzle.hint(st)
        imgui.text("optimal loads  " + (", ".join(str(x) for x in hint.loads) or "-"))
        imgui.text(f"queued steps {len(self.queue)}   undo depth {len(self.history)}")
        imgui.separator()
        graph = self.puzzle.graph
        nodes = list(graph.nodes)
        index = {n: i for i, n in enumerate(nodes)}
        r = self.rules
        pos = []
        for n in nodes:
            half = 0.0 if n.boat is Side.LEFT else 0.52
            x = half + 0.46 * (n.left_devils / max(1, r.devils))
            y = 1.0 - n.left_priests / max(1, r.priests)
            pos.append((x, y))
        edges = []
        for n in nodes:
            for _, m in graph.edges(n):
                if index[n] < index[m]:
                    edges.append((index[n], index[m]))
        current = index.get(st.crossing())
        nexts = []
        for load in hint.loads:
            nxt = st.crossing().after(load)
            if nxt in index:
                nexts.append(index[nxt])
        # Short labels keep the grid legible: the distance to the goal ("-": no way across).
        labels = [str(d) if (d := graph.distance(n)) is not None else "-" for n in nodes]
        imgui.text("state graph: left half boat left, right half boat right;")
        imgui.text("x = devils on the left bank, y = priests on the left bank;")
        imgui.text("numbers: crossings to the goal; ringed: the optimal next nodes")
        draw_graph(
            pos,
            edges,
            labels=labels,
            current=current,
            goal=[i for i, n in enumerate(nodes) if graph.is_goal(n)],
            highlight=nexts,
            size=(360, 240),
        )

    # -- internals ------------------------------------------------------------------------

    def _animating(self) -> bool:
        return self.director is not None and self.director.tweens.busy > 0

    def _accepting_moves(self) -> bool:
        return (
            not self._animating()
            and not self.queue
            and self.state.verdict().outcome is Outcome.PLAYING
        )

    def _check_input(self) -> None:
        if self.state.verdict().outcome is not Outcome.PLAYING:
            raise IllegalMoveError("The game is over: press Restart (R), or Undo (U).")
        if self._animating() or self.queue:
            raise IllegalMoveError("Wait for the move to finish.")

    def _do(self, move: Move, who: str | None = None) -> None:
        """Apply a move to the logic, then animate the scene to match it."""
        new_state = self.state.apply(move)  # raises IllegalMoveError with the reason
        before = Snapshot(self.state, dict(self.places))
        places = dict(self.places)
        if isinstance(move, Board):
            who = who or self._choose(move.kind, aboard=False)
            places[who] = Place(None, self._free_seat(places))
        elif isinstance(move, Unboard):
            who = who or self._choose(move.kind, aboard=True)
            places[who] = Place(
                self.state.boat_side, self._free_slot(places, move.kind, self.state.boat_side)
            )
        self.history.append(before)
        self.state = new_state
        follow_hint = self.hint_on and not isinstance(move, Cross)
        self._clear_marks()
        if self.hover is not None:  # the glow stays with the mouse, not with who walks away
            self.hover.highlight = 0.0
            self.hover = None
        if self.message and self.tone in (Tone.HINT, Tone.WARN, Tone.INFO) and not self.queue:
            self.message = ""
        old_places, self.places = self.places, places
        self._animate_places(old_places, places)
        if follow_hint and self.state.verdict().outcome is Outcome.PLAYING:
            self.hint()

    def _animate_places(self, old: dict[str, Place], new: dict[str, Place]) -> None:
        """Move nodes from one arrangement to another; the boat goes first if its side changed."""
        assert self.scene is not None
        boat = self.scene["boat"]
        target_boat = self._dock(self.state.boat_side)
        moves: list[Tween] = []
        if not np.allclose(boat.position, target_boat):
            moves.append(MoveTo(boat, target_boat, speed=self._speed("boat_speed")))
        for name in sorted(new):
            if old.get(name) != new[name]:
                moves.append(self._walk(name, old[name], new[name]))
        # The judge speaks when the move's animation completes (for a crossing: the landing).
        self._run(Parallel(*moves), self._judge)

    def _walk(self, name: str, old: Place, new: Place) -> Tween:
        """The L path: into the corridor between the rows, along it to the edge, onto a seat."""
        assert self.scene is not None
        node = self.scene[name]
        boat = self.scene["boat"]
        speed = self._speed("walk_speed")
        side = self.state.boat_side
        edge = self.scene.anchor(f"edge_{side.value}")
        steps: list[Tween] = []
        if not old.aboard and new.aboard:  # bank -> seat
            slot = self._slot_position(old.side or side, _kind_of(name), old.index)
            seat_world = (boat.world_matrix() @ np.append(self._seat_local(new.index), 1.0))[:3]
            steps = [
                MoveTo(node, (slot[0], slot[1], 0.0), speed=speed),
                MoveTo(node, edge, speed=speed),
                MoveTo(node, seat_world, speed=speed),
                Call(lambda: node.set_parent(boat)),
            ]
        elif old.aboard and not new.aboard:  # seat -> bank
            node.set_parent(None)
            slot = self._slot_position(new.side or side, _kind_of(name), new.index)
            steps = [
                MoveTo(node, edge, speed=speed),
                MoveTo(node, (slot[0], slot[1], 0.0), speed=speed),
                MoveTo(node, slot, speed=speed),
            ]
        elif new.aboard:  # seat -> seat (undo keeps seats, so only after odd histories)
            steps = [MoveTo(node, self._seat_local(new.index), speed=speed)]
        else:
            node.set_parent(None)
            slot = self._slot_position(new.side or side, _kind_of(name), new.index)
            steps = [MoveTo(node, slot, speed=speed)]
        return Sequence(*steps)

    def _judge(self) -> None:
        """The judge: runs when a move's animation completes; a win or loss says which bank
        and how many, once."""
        verdict = self.state.verdict()
        if verdict.outcome is Outcome.PLAYING or self.announced:
            return
        self.announced = True
        self.queue.clear()
        won = verdict.outcome is Outcome.WON
        note = None
        if self.on_result is not None and not self.recorded:  # one result per game
            self.recorded = True
            note = self.on_result(self.state, won, self.assisted)
        text = verdict.message
        if won:
            best = self.puzzle.optimal_crossings()
            text = f"You win! {text} {self.state.crossings} crossings (best possible {best})."
        else:
            text = f"Game over. {text}"
        if note:
            text += f" {note}"
        self._say(text, Tone.WON if won else Tone.LOST, keep=True)

    def _run(self, action: Tween, on_done: Callable[[], None] | None = None) -> None:
        if self.director is not None:
            self.director.tweens.run(action, on_done)
        else:  # no director (pure tests of the controller): jump to the end
            while not action.done:
                action.step(1.0)
            if on_done:
                on_done()

    def _build_cast(self) -> None:
        """(Re)create one node per character, and the hint arrows, for the current rules."""
        assert self.scene is not None
        for name in [n for n in self.scene.nodes if n.startswith(("priest", "devil", "mark"))]:
            self.scene.remove(name)
        for kind, count in ((Kind.PRIEST, self.rules.priests), (Kind.DEVIL, self.rules.devils)):
            for i in range(count):
                node = self.scene.spawn(kind.value, _name(kind, i))
                node.pickable = True
        for i in range(self.rules.capacity + 1):
            self.scene.spawn("marker", f"mark{i}")
            self.scene.spawn("ring", f"mark{i}_ring")

    def _snap_all(self) -> None:
        """Put every node where the current state says, at once (restart)."""
        assert self.scene is not None
        boat = self.scene["boat"]
        boat.position = self._dock(self.state.boat_side)
        for name, place in self.places.items():
            node = self.scene[name]
            node.set_parent(None, keep_world=False)
            node.highlight = 0.0
            if place.aboard:
                node.set_parent(boat, keep_world=False)
                node.position = self._seat_local(place.index)
            else:
                node.position = self._slot_position(
                    place.side or Side.LEFT, _kind_of(name), place.index
                )

    def _dock(self, side: Side) -> np.ndarray:
        assert self.scene is not None
        return self.scene.anchor(f"boat_{side.value}")

    def _seat_local(self, seat: int) -> np.ndarray:
        """A seat's position in the boat's own space: seats spread evenly along its length."""
        assert self.scene is not None
        c = self.rules.capacity
        x = (seat - (c - 1) / 2) * self.scene.number("seat_step")
        return np.array([x, self.scene.number("seat_height"), 0.0], dtype="f4")

    def _slot_position(self, side: Side, kind: Kind, index: int) -> np.ndarray:
        assert self.scene is not None
        s = self.scene
        per_row = int(s.number("per_row"))
        base = s.anchor(f"slot_{side.value}")
        inland = -1.0 if side is Side.LEFT else 1.0
        row, col = divmod(index, per_row)
        z = s.number("priest_row_z") - row * s.number("row_gap")
        if kind is Kind.DEVIL:
            z = s.number("devil_row_z") + row * s.number("row_gap")
        return np.array([base[0] + inland * col * s.number("slot_step"), base[1], z], dtype="f4")

    def _speed(self, key: str) -> float:
        assert self.scene is not None
        return self.scene.number(key)

    def _free_seat(self, places: dict[str, Place]) -> int:
        taken = {p.index for p in places.values() if p.aboard}
        return min(i for i in range(self.rules.capacity) if i not in taken)

    def _free_slot(self, places: dict[str, Place], kind: Kind, side: Side) -> int:
        taken = {p.index for n, p in places.items() if p.side is side and _kind_of(n) is kind}
        i = 0
        while i in taken:
            i += 1
        return i

    def _choose(self, kind: Kind, *, aboard: bool, exclude: Container[str] = ()) -> str:
        """Who moves for a board or land by kind: the one ashore nearest the water, or the
        passenger who sat down last."""
        side = self.state.boat_side
        candidates = [
            (p.index, n) for n, p in self.places.items()
            if _kind_of(n) is kind and n not in exclude
            and (p.aboard if aboard else p.side is side)
        ]  # fmt: skip
        if not candidates:
            where = "in the boat" if aboard else f"ashore on the {side.value} bank"
            raise IllegalMoveError(f"no {kind.value} {where}")
        return max(candidates)[1] if aboard else min(candidates)[1]

    def _mark_plan(self, plan: list[Move]) -> None:
        """Arrows over who should board or land next, or over the boat when it should go."""
        assert self.scene is not None
        targets: list[str] = []
        used: set[str] = set()
        for move in plan:
            if isinstance(move, Cross):
                if not targets:
                    targets.append("boat")
                break
            name = self._choose(move.kind, aboard=isinstance(move, Unboard), exclude=used)
            used.add(name)
            targets.append(name)
        self.hint_marks = targets
        self._refresh_marks()

    def _refresh_marks(self) -> None:
        """One arrow over each hinted character (or the boat) and a ring at its feet."""
        assert self.scene is not None
        for i in range(self.rules.capacity + 1):
            arrow, ring = self.scene[f"mark{i}"], self.scene[f"mark{i}_ring"]
            target = self.hint_marks[i] if i < len(self.hint_marks) else None
            arrow.hidden = target is None
            ring.hidden = target is None or target == "boat"
            if target is not None:
                self.scene[target].highlight = 0.6
                arrow.tags["target"] = ring.tags["target"] = target
        self._bob_marks()

    def _clear_marks(self) -> None:
        if self.scene is None:
            return
        for name in self.hint_marks:
            if name in self.scene.nodes:
                self.scene[name].highlight = 0.0
        self.hint_marks = []
        self.hint_on = False
        for name, node in self.scene.nodes.items():
            if name.startswith("mark"):
                node.hidden = True

    def _bob_marks(self) -> None:
        if self.scene is None or not self.hint_marks:
            return
        gap = self.scene.number("marker_gap") + 0.06 * (1.0 + math.sin(self._time * 4.0))
        bounds = self.director.bounds if self.director is not None else {}
        for name, node in self.scene.nodes.items():
            if not name.startswith("mark") or node.hidden:
                continue
            target = self.scene[node.tags["target"]]
            p = target.world_position()
            if name.endswith("_ring"):  # flat on the ground (or the deck) under the feet
                node.position = np.array([p[0], p[1] + 0.02, p[2]], dtype="f4")
                continue
            # The arrow's tip just over the target's head.
            top = 1.0
            if target.mesh in bounds:
                top = float(bounds[target.mesh][1][1] * target.scale[1])
            node.position = np.array([p[0], p[1] + top + gap, p[2]], dtype="f4")
            node.rotation = _yaw(self._time * 2.0)

    def _say(self, text: str, tone: Tone, keep: bool = False) -> None:
        """``keep``: the game's own banner, until the next message; otherwise a short toast
        over it (the banner comes back when the toast ends)."""
        if keep or self.director is None:
            self.message, self.tone = text, tone
        else:
            self.director.say(text, tone)


def _name(kind: Kind, i: int) -> str:
    return f"{kind.value}{i + 1}"


def _kind_of(name: str) -> Kind:
    return Kind.PRIEST if name.startswith("priest") else Kind.DEVIL


def _key_label(key: str) -> str:
    """How a pyglet key name is shown on a button: "SPACE" -> "Space"."""
    return key.capitalize() if len(key) > 1 else key


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _yaw(angle: float) -> np.ndarray:
    return np.array([0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)], dtype="f4")
