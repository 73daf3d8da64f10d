"""MasterGrab: the scene controller.

The map is a render layer (:mod:`game.controllers.grab_view`): extruded tiles in the owners'
colours, taller the more armies they hold, mountains as grey rock, the army number and a
capacity bar over every country, and rings for what happened this round. The world wraps:
panning past an edge shows the other side, drawn as another copy of the map.

A click on an enemy country attacks it with every own country next to it; a click on an own
country gathers into it (spec 6.4). Hovering shows the neighbours and, over an enemy, what an
attack would do. After the human's move the robots play in a worker thread (a user's robot
may take up to its budget), then arrows show every robot move, also across the wrap.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from game.controllers.grab_mesh import PIXELS_PER_UNIT, build_map_mesh
from game.controllers.grab_view import Arrow, GrabLayer, Sprite
from game.engine.controller import Button, Status, Tone, UnknownActionError
from game.engine.scene import Scene, load_scene
from game.logic.grab.match import CountryState, GrabMatch
from game.logic.grab.options import (
    PRESETS,
    Distribution,
    GrabOptions,
    random_options,
)
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import NO_MOVE, GrabMoveError, GrabState, Move, MoveKind
from game.resources import asset_path

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.engine.scene import Node
    from game.logic.grab.robot import RobotRegistry

log = logging.getLogger(__name__)

#: The original's player colours (spec 2.1): index 0 is the human.
COLOURS = [0xFF6060, 0xFFFF30, 0x80EF80, 0x80EFEF, 0x8080EF, 0xEF80EF, 0xE0E070, 0xE0E0E0,
           0xCF8080, 0xCFFF30, 0x80BF80, 0x80BFEF, 0x8080BF, 0xEF80BF, 0xA0E070,
           0xA0A0E0]  # fmt: skip
MOUNTAIN_COLOUR = (0.42, 0.41, 0.43)
AUTOPLAY = [0.0, 0.1, 0.2, 0.5, 1.0, 2.0]  # seconds a round; 0: off (Next by hand)
LAND_HEIGHT = 0.18
ARMY_HEIGHT = 0.55  # extra height of a country holding the biggest capacity
LABEL_SCALE = 0.42  # world units per em
MIN_MAP = (1280, 720)
PIXELS_PER_COUNTRY = 1280 * 720 / 140
CONFIRM_SECONDS = 3.0
ZOOM_LIMITS = (8.0, 90.0)
VIEW_DIR = np.array([0.0, 21.0, 14.9], dtype="f4") / np.linalg.norm([0.0, 21.0, 14.9])

HELP = (
    "Conquer every country. Click an enemy country to attack it with all your countries next "
    "to it: you win when (your armies - 1 each) x the attack factor reach its armies. Click "
    "your own country to gather armies into it from your neighbours (those facing enemies keep "
    "some back). Armies grow after every move up to a country's capacity (the bar; a bold "
    "number is nearly full). The map has no edges. Arrows: WASD or the arrow keys pan, +/- "
    "zoom. Rings: taken (big), attacked, moved (small); white rings mark the cheapest targets."
)


def player_colour(player: int, human_playing: bool) -> tuple[float, float, float]:
    """The player's colour (0..1): robots-only games start at the first robot colour."""
    value = COLOURS[(player if human_playing else player + 1) % len(COLOURS)]
    return ((value >> 16) / 255.0, ((value >> 8) & 255) / 255.0, (value & 255) / 255.0)


def map_size(countries: int) -> tuple[int, int]:
    """A 16:9 map with about as many pixels per country as the original's default game."""
    area = countries * PIXELS_PER_COUNTRY
    width = max(MIN_MAP[0], round(math.sqrt(area * 16 / 9)))
    height = max(MIN_MAP[1], round(width * 9 / 16))
    return width, height


class GrabController:
    """Scene controller and UserActions for MasterGrab."""

    name = "grab"
    title = "MasterGrab"

    def __init__(
        self,
        *,
        options: GrabOptions | None = None,
        seed: int | None = None,
        size: tuple[int, int] | None = None,
        countries: int | None = None,
        registry: RobotRegistry | None = None,
        on_options: Callable[[GrabOptions], None] | None = None,
        on_result: Callable[[GrabMatch], str] | None = None,
    ) -> None:
        self.options = options or GrabOptions()
        self.pending = self.options  # what the options panel edits; Apply starts a game
        self.seed = seed if seed is not None else random.randrange(1 << 30)
        self.size_override = size
        self.countries_override = countries
        self.registry = registry
        self.on_options = on_options
        self.on_result = on_result
        self.director: Director | None = None
        self.scene: Scene | None = None
        self.layer: GrabLayer | None = None
        self.match: GrabMatch | None = None
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grab-robots")
        self.future: Future[Any] | None = None
        self.hover: int | None = None
        self.hint_move: Move | None = None
        self.message = ""
        self.tone = Tone.INFO
        self.info = "ranking"  # what the left panel shows: ranking, trace, help or none
        self.show_options = False
        self.autoplay = 0
        self._next_tick = 0.0
        self._time = 0.0
        self._armed: tuple[str, float] | None = None
        self._arrows: list[tuple[int, list[int], int, str]] = []  # player, sources, target, how
        self._heights: np.ndarray = np.zeros(0, dtype="f4")
        self._camera_goal = np.zeros(3, dtype="f4")
        self._distance = 26.0
        self._distance_goal = 26.0
        self.recorded = False
        self._dirty = True
        self._preset = -1
        self._colours = np.zeros((0, 3), dtype="f4")
        self._target_heights = np.zeros(0, dtype="f4")

    # -- SceneController ------------------------------------------------------------------

    def enter(self, director: Director) -> Scene:
        self.director = director
        self.scene = load_scene(asset_path("scenes", "grab.toml"))
        self._new_match(self.options, self.seed)
        return self.scene

    def exit(self) -> None:
        if self.future is not None:
            self.future.cancel()
        self.executor.shutdown(wait=True, cancel_futures=True)
        if self.match is not None:
            self.match.close()
        if self.layer is not None and self.scene is not None:
            self.scene.layers.remove(self.layer)
            self.layer.release()
            self.layer = None
        self.director = None

    def update(self, dt: float) -> None:
        self._time += dt
        self._collect()
        self._move_camera(dt)
        if (
            self.autoplay
            and self.match is not None
            and not self.match.options.human_playing
            and not self.match.finished
            and self.future is None
            and self._time >= self._next_tick
        ):
            self._next_tick = self._time + AUTOPLAY[self.autoplay]
            self._start_robots("next")
        if self._dirty:
            self._refresh()
        else:
            self._ease_heights(dt)

    def idle(self) -> bool:
        return self.future is None and (
            not self.autoplay or self.match is None or self.match.finished
        )

    def actions(self) -> list[str]:
        return ["country:N (click country N)", "move:TEXT (e.g. move:attack 3,5>12)", "next",
                "hint", "replay", "new", "apply", "autoplay", "info", "help", "options",
                "pan-left", "pan-right", "pan-up", "pan-down", "zoom-in", "zoom-out",
                "countries+", "countries-", "robots+", "robots-", "robot-type", "human",
                "distribution", "mountains+", "mountains-", "armies+", "armies-", "growth+",
                "growth-", "protection+", "protection-", "attack+", "attack-", "benefit+",
                "benefit-", "random", "preset", "defaults"]  # fmt: skip

    def keys(self) -> dict[str, str]:
        return {"H": "hint", "N": "next", "R": "replay", "I": "info", "O": "options",
                "F1": "help", "P": "autoplay", "LEFT": "pan-left", "A": "pan-left",
                "RIGHT": "pan-right", "D": "pan-right", "UP": "pan-up", "W": "pan-up",
                "DOWN": "pan-down", "S": "pan-down", "PLUS": "zoom-in", "EQUAL": "zoom-in",
                "NUM_ADD": "zoom-in", "MINUS": "zoom-out", "NUM_SUBTRACT": "zoom-out"}  # fmt: skip

    def buttons(self) -> list[Button]:
        match = self.match

        def ready() -> bool:
            return self.future is None and match is not None and not match.finished

        robots_only = match is not None and not match.options.human_playing
        main = [
            Button("Next", "next", "N", lambda: ready() and not self.autoplay),
            Button("Hint", "hint", "H", lambda: ready() and self._human_turn()),
            Button("Replay", "replay", "R", lambda: self.future is None),
            Button("New game", "new", "", lambda: self.future is None),
        ]
        if robots_only:
            speed = "off" if not self.autoplay else f"{AUTOPLAY[self.autoplay]:g} s"
            main.append(Button(f"Autoplay: {speed}", "autoplay", "P"))
        main += [
            Button(f"Info: {self.info}", "info", "I"),
            Button("Options", "options", "O"),
        ]
        if not self.show_options:
            return main
        p = self.pending
        robots = ", ".join(sorted(set(p.robots)))
        rows = [
            (f"Countries {p.countries} −", "countries-"), ("+", "countries+"),
            (f"Robots {len(p.robots)} −", "robots-"), ("+", "robots+"),
            (f"Mountains {p.mountains_percent}% −", "mountains-"), ("+", "mountains+"),
            (f"Biggest {p.armies_in_biggest:g} −", "armies-"), ("+", "armies+"),
            (f"Growth {p.growth_factor:.2f} −", "growth-"), ("+", "growth+"),
            (f"Protection {p.protection_factor:.2f} −", "protection-"), ("+", "protection+"),
            (f"Attack {p.attack_factor:.2f} −", "attack-"), ("+", "attack+"),
            (f"Benefit {p.attack_benefit_factor:.2f} −", "benefit-"), ("+", "benefit+"),
            (f"Robots: {robots}", "robot-type"),
            ("You play" if p.human_playing else "Robots only", "human"),
            (f"Map: {p.distribution.value}", "distribution"),
            (f"Random: {'on' if p.random_options else 'off'}", "random"),
            ("Preset", "preset"), ("Defaults", "defaults"),
        ]  # fmt: skip
        options = [Button(label, action, group="options") for label, action in rows]
        main.append(Button("Apply", "apply", "", lambda: self.future is None))
        return main + options

    def status(self) -> Status:
        return Status(self.title, self._counter(), self.message, self.tone, self._panel_text())

    def status_line(self) -> str:
        match = self.match
        if match is None:
            return "status=none"
        state = match.state
        if not match.finished:
            status = "playing"
        elif match.winner is None or (match.options.human_playing and match.winner != 0):
            status = "lost" if match.options.human_playing else "finished"
        else:
            status = "won" if match.options.human_playing else "finished"
        mine = len(state.countries_of(0))
        winner = "none" if match.winner is None else str(match.winner)
        return (
            f"status={status} moves={state.turn} player0_countries={mine} "
            f"winner={winner} countries={state.board.countries} seed={match.seed}"
        )

    def on_hover(self, node: Node | None) -> None:
        country = self._country_under_mouse()
        if country == self.hover:
            return
        self.hover = country
        self._dirty = True
        self._preview()

    def on_pick(self, node: Node | None) -> None:
        country = self._country_under_mouse()
        if country is None:
            return
        if self.director is not None:
            self.director.perform(f"country:{country}")
        else:
            self.perform(f"country:{country}")

    def perform(self, action: str) -> None:
        text = action.strip()
        low = text.lower()
        simple: dict[str, Callable[[], None]] = {
            "next": self.next, "hint": self.hint, "replay": lambda: self.replay(),
            "new": lambda: self.new_game(), "apply": self.apply, "autoplay": self.cycle_autoplay,
            "info": self.cycle_info, "help": self.toggle_help, "options": self.toggle_options,
            "pan-left": lambda: self.pan(-1, 0), "pan-right": lambda: self.pan(1, 0),
            "pan-up": lambda: self.pan(0, -1), "pan-down": lambda: self.pan(0, 1),
            "zoom-in": lambda: self.zoom(0.8), "zoom-out": lambda: self.zoom(1.25),
        }  # fmt: skip
        if low in simple:
            simple[low]()
        elif low.startswith("country:"):
            try:
                country = int(low[8:])
            except ValueError:
                raise UnknownActionError(f"country needs a number, not {text[8:]!r}") from None
            self.click_country(country)
        elif low.startswith("move:"):
            self.play(Move.parse(text[5:]))
        elif low.rstrip("+-") in _OPTION_STEPS or low in _OPTION_TOGGLES:
            self.change_option(low)
        else:
            raise UnknownActionError(
                f"unknown action {action!r} for grab; try one of " + ", ".join(self.actions())
            )

    # -- UserActions ----------------------------------------------------------------------

    def click_country(self, country: int) -> None:
        """Spec 6.4: attack an enemy country with every own neighbour, or gather into an own
        country from every own neighbour."""
        match = self._require_turn()
        state = match.state
        if not 0 <= country < state.board.countries:
            raise GrabMoveError(f"there is no country {country}")
        owner = state.owners[country]
        if owner == MOUNTAIN:
            raise GrabMoveError("mountains cannot be attacked or owned")
        own = tuple(n for n in state.board.neighbours[country] if state.owners[n] == 0)
        if owner == 0:
            self.play(Move(MoveKind.GATHER, country, own))
        elif not own:
            raise GrabMoveError(
                f"none of your countries borders country {country} ({match.names[owner]}'s)"
            )
        else:
            self.play(Move(MoveKind.ATTACK, country, own))

    def play(self, move: Move) -> None:
        """The human's move, then the robots' (in the worker)."""
        match = self._require_turn()
        before = match.state
        result = match.play_human(move)  # raises GrabMoveError: nothing changed
        self.hint_move = None
        self._arrows = []
        self._add_arrow(0, move, result.success)
        self._say(_describe(match, before, move, result.success), Tone.INFO)
        self._dirty = True
        self._start_robots("robots")

    def next(self) -> None:
        """Next: with a human, skip the turn and let the robots move; robots only: a round."""
        match = self._require_ready()
        if match.options.human_playing:
            if not self._human_turn():
                raise GrabMoveError("the robots are still moving")
            match.play_human(NO_MOVE)
            self._arrows = []
            self.hint_move = None
            self._start_robots("robots")
        else:
            self._arrows = []
            self._start_robots("next")

    def hint(self) -> None:
        """The move our strategic robot would play for you, drawn on the map."""
        match = self._require_turn()
        from game.logic.grab.robot import RobotGame
        from game.logic.grab.robots.strategic import StrategicRobot

        move = StrategicRobot().plan(RobotGame(match.state, 0))
        self.hint_move = move
        self._dirty = True
        if move.kind is MoveKind.NONE:
            self._say("Hint: wait this turn (Next) and let your armies grow", Tone.HINT)
        else:
            self._say("Hint: " + _describe_plan(match, move), Tone.HINT)

    def replay(self, confirmed: bool = False) -> None:
        """The same map and the same starting armies again (asks once while a game runs)."""
        match = self._require_idle()
        if not confirmed and not self._confirm("replay", match):
            return
        match.replay()
        self._after_restart("Replay: the same map and armies again.")

    def new_game(self, confirmed: bool = False) -> None:
        match = self._require_idle()
        if not confirmed and not self._confirm("new", match):
            return
        options = self.options
        if options.random_options:
            options = random_options(options, random.Random())
        self._new_match(options, random.randrange(1 << 30))

    def apply(self) -> None:
        """Start a new game with the options panel's values."""
        self._require_idle()
        self.options = self.pending
        if self.on_options is not None:
            self.on_options(self.options)
        options = self.options
        if options.random_options:
            options = random_options(options, random.Random())
        self._new_match(options, random.randrange(1 << 30))
        self.show_options = False

    def cycle_autoplay(self) -> None:
        if self.match is None or self.match.options.human_playing:
            raise GrabMoveError("autoplay is for games the robots play alone")
        self.autoplay = (self.autoplay + 1) % len(AUTOPLAY)
        self._next_tick = self._time

    def cycle_info(self) -> None:
        order = ["ranking", "trace", "none"]
        self.info = (
            order[(order.index(self.info) + 1) % len(order)] if self.info in order else "ranking"
        )

    def toggle_help(self) -> None:
        self.info = "ranking" if self.info == "help" else "help"

    def toggle_options(self) -> None:
        self.show_options = not self.show_options
        self.pending = self.options

    def change_option(self, action: str) -> None:
        """One step of an option in the panel; a value out of range is refused with why."""
        p = self.pending
        if action in _OPTION_TOGGLES:
            self.pending = _OPTION_TOGGLES[action](p, self)
        else:
            name, sign = action[:-1], 1 if action.endswith("+") else -1
            field, step, kind = _OPTION_STEPS[name]
            if field == "robots":
                count = len(p.robots) + sign
                robots = ((*p.robots, p.robots[-1]))[:count] if count > 0 else ()
                self.pending = replace(p, robots=robots)
            else:
                value = getattr(p, field) + sign * step
                value = round(value) if kind is int else round(value, 2)
                self.pending = replace(p, **{field: value})
        self.show_options = True

    def pan(self, dx: int, dz: int) -> None:
        step = self._distance * 0.3
        self._camera_goal = self._camera_goal + np.array([dx * step, 0.0, dz * step], "f4")

    def zoom(self, factor: float) -> None:
        self._distance_goal = float(np.clip(self._distance_goal * factor, *ZOOM_LIMITS))

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        match = self.match
        if match is None:
            return
        o = match.options
        imgui.text(f"seed {match.seed}   map {match.map.width}x{match.map.height}")
        imgui.text(
            f"countries {match.state.board.countries}  mountains {len(match.map.mountains)}  "
            f"players {o.players}  distribution {o.distribution.value}"
        )
        imgui.text(
            f"AF {o.attack_factor:.2f}  PF {o.protection_factor:.2f}  "
            f"ABF {o.attack_benefit_factor:.2f}  AGF {o.growth_factor:.2f}  "
            f"biggest {o.armies_in_biggest:g}"
        )
        if self.layer is not None:
            mesh = self.layer.mesh
            imgui.text(
                f"mesh {mesh.triangles} triangles, cells {mesh.cells.shape[1]}x"
                f"{mesh.cells.shape[0]} ({mesh.step} px), copies drawn {self.layer.copies_drawn}"
            )
        imgui.separator()
        imgui.text("robot thinking (median / max ms)")
        for player, times in sorted(match.thinking.items()):
            if times:
                ordered = sorted(times)
                imgui.text(
                    f"  {match.names[player]} ({match.robot_types[player]}): "
                    f"{ordered[len(ordered) // 2] * 1000:.2f} / {ordered[-1] * 1000:.2f}"
                    f"  over {len(times)} moves"
                )
        imgui.separator()
        imgui.text("last results")
        for line in self._trace_lines():
            imgui.text("  " + line)
        for line in match.messages[-5:]:
            imgui.text_colored(imgui.ImVec4(1.0, 0.6, 0.3, 1.0), line)

    # -- the game ---------------------------------------------------------------------------

    def _new_match(self, options: GrabOptions, seed: int) -> None:
        size = self.size_override or map_size(self.countries_override or options.countries)
        match = GrabMatch(
            options,
            seed,
            width=size[0],
            height=size[1],
            countries=self.countries_override,
            registry=self.registry,
        )
        if self.match is not None:
            self.match.close()
        self.match = match
        self.seed = seed
        self.hover = None
        self._build_layer()
        self._after_restart(self._opening_text())

    def _after_restart(self, text: str) -> None:
        self._arrows = []
        self.hint_move = None
        self.recorded = False
        self._say(text, Tone.INFO)
        self._dirty = True
        self._heights = np.zeros(0, dtype="f4")
        match = self.match
        if match is not None and not match.options.human_playing and self.autoplay:
            self._next_tick = self._time + 0.5

    def _opening_text(self) -> str:
        match = self.match
        assert match is not None
        if match.options.human_playing:
            return (
                "You are red. Click an enemy country next to yours to attack it, or one of "
                "yours to gather armies into it."
            )
        return "The robots play alone: press Next for a round, or Autoplay."

    def _start_robots(self, what: str) -> None:
        match = self.match
        assert match is not None
        if match.finished:
            self._finish()
            return
        call = match.play_robots if what == "robots" else match.next
        self.future = self.executor.submit(call)

    def _collect(self) -> None:
        future = self.future
        if future is None or not future.done():
            return
        self.future = None
        match = self.match
        assert match is not None
        try:
            reports = future.result()
        except Exception as exc:  # a bug in a robot runner: say so, keep the game
            log.exception("robots failed")
            self._say(f"The robots could not move: {exc}", Tone.WARN)
            return
        if not match.options.human_playing:
            self._arrows = []
        for report in reports:
            if report.error is None:
                result = match.state.results[report.player]
                self._add_arrow(report.player, report.move, result.success)
        failures = [r.error for r in reports if r.error]
        self._dirty = True
        if match.finished:
            self._finish()
        elif failures:
            self._say(failures[-1], Tone.WARN)
        else:
            self._say(self._round_summary(reports), Tone.INFO)

    def _finish(self) -> None:
        match = self.match
        assert match is not None
        if match.options.human_playing:
            won = match.winner == 0
            text = "You WON: every country is yours!" if won else "You LOST: no country left."
            tone = Tone.WON if won else Tone.LOST
        else:
            name = match.names[match.winner] if match.winner is not None else "nobody"
            text, tone = f"{name} won.", Tone.WON
        if self.on_result is not None and not self.recorded:
            self.recorded = True
            extra = self.on_result(match)
            if extra:
                text += " " + extra
        self.autoplay = 0
        self._say(text + " Press New game or Replay.", tone)

    def _round_summary(self, reports: list[Any]) -> str:
        match = self.match
        assert match is not None
        won = sum(
            1
            for r in reports
            if r.error is None
            and r.move.kind is MoveKind.ATTACK
            and match.state.results[r.player].success
        )
        lost_by_you = sum(
            1
            for r in reports
            if r.error is None
            and r.move.kind is MoveKind.ATTACK
            and match.state.results[r.player].success
            and match.state.results[r.player].defender == 0
            and match.options.human_playing
        )
        text = f"Round {match.state.turn // match.state.board.players}: "
        text += f"{won} conquest{'s' if won != 1 else ''}"
        if lost_by_you:
            text += f", {lost_by_you} of them yours"
        return text + ". Your move." if match.options.human_playing else text + "."

    # -- checks -----------------------------------------------------------------------------

    def _human_turn(self) -> bool:
        match = self.match
        return (
            match is not None
            and self.future is None
            and not match.finished
            and match.options.human_playing
            and match.human_to_move
        )

    def _require_turn(self) -> GrabMatch:
        match = self._require_ready()
        if not match.options.human_playing:
            raise GrabMoveError("the robots play this game alone; press Next or Autoplay")
        if not match.human_to_move:
            raise GrabMoveError("wait: the robots are moving")
        return match

    def _require_ready(self) -> GrabMatch:
        match = self._require_idle()
        if match.finished:
            raise GrabMoveError("the game is over: press New game or Replay")
        return match

    def _require_idle(self) -> GrabMatch:
        if self.match is None:
            raise GrabMoveError("no game yet")
        if self.future is not None:
            raise GrabMoveError("wait: the robots are moving")
        return self.match

    def _confirm(self, action: str, match: GrabMatch) -> bool:
        """A game in progress is only thrown away by a second press within a few seconds."""
        if match.finished or match.state.turn == 0:
            return True
        if self._armed is not None and self._armed[0] == action and self._time < self._armed[1]:
            self._armed = None
            return True
        self._armed = (action, self._time + CONFIRM_SECONDS)
        word = "Replay" if action == "replay" else "New game"
        self._say(f"Press {word} again to leave this game.", Tone.WARN)
        return False

    # -- drawing ----------------------------------------------------------------------------

    def _build_layer(self) -> None:
        assert self.director is not None and self.scene is not None and self.match is not None
        if self.layer is not None:
            self.scene.layers.remove(self.layer)
            self.layer.release()
        grab_map = self.match.map
        mesh = build_map_mesh(grab_map.owner, grab_map.centres)
        self.layer = GrabLayer(self.director.ctx, mesh, grab_map.countries)
        self.scene.layers.append(self.layer)
        # The camera looks at the middle of the map from a distance that shows about the
        # original's default map (140 countries) whatever the map's size.
        width = min(mesh.width, MIN_MAP[0] / PIXELS_PER_UNIT)
        self._distance = self._distance_goal = float(np.clip(width * 0.8, *ZOOM_LIMITS))
        self._camera_goal = np.array([mesh.width / 2, 0.0, mesh.depth / 2], dtype="f4")
        self._place_camera(self._camera_goal, self._distance)

    def _place_camera(self, target: np.ndarray, distance: float) -> None:
        assert self.scene is not None
        cam = self.scene.camera
        cam.target = np.asarray(target, dtype="f4")
        cam.eye = cam.target + VIEW_DIR * distance

    def _move_camera(self, dt: float) -> None:
        if self.scene is None or self.layer is None:
            return
        cam = self.scene.camera
        ease = 1.0 - math.exp(-dt * 10.0)
        target = cam.target + (self._camera_goal - cam.target) * ease
        distance = self._distance + (self._distance_goal - self._distance) * ease
        if np.allclose(target, cam.target, atol=1e-4) and abs(distance - self._distance) < 1e-4:
            return
        self._distance = distance
        # Keep the camera over the first copy of the map: the copies are identical, so the
        # jump is invisible, and numbers never grow large.
        w, d = self.layer.mesh.width, self.layer.mesh.depth
        shift = np.array([math.floor(target[0] / w) * w, 0.0, math.floor(target[2] / d) * d])
        target = target - shift
        self._camera_goal = self._camera_goal - shift.astype("f4")
        self._place_camera(target, distance)
        self._dirty = True

    def _country_under_mouse(self) -> int | None:
        director = self.director
        if director is None or director.ray is None or self.layer is None or self.match is None:
            return None
        origin, direction = director.ray
        if abs(float(direction[1])) < 1e-6:
            return None
        t = (LAND_HEIGHT + 0.1 - float(origin[1])) / float(direction[1])
        if t <= 0:
            return None
        point = origin + direction * t
        country = self.layer.mesh.country_at(float(point[0]), float(point[2]))
        return None if country in self.match.map.mountains else country

    def _refresh(self) -> None:
        """Colours, heights, numbers, rings and arrows from the match (after any change)."""
        self._dirty = False
        match, layer = self.match, self.layer
        if match is None or layer is None:
            return
        state = match.state
        board = state.board
        human = match.options.human_playing
        n = board.countries
        owners = np.array(state.owners)
        armies = np.array(state.armies, dtype="f4")
        capacity = np.array(board.capacity, dtype="f4")
        land = owners != MOUNTAIN
        palette = np.array([player_colour(p, human) for p in range(board.players)], "f4")
        colours = np.empty((n, 3), dtype="f4")
        colours[land] = palette[owners[land]]
        colours[~land] = MOUNTAIN_COLOUR
        # Spec 6.2: three shades, lighter for fewer armies.
        top = max(1.0, float(np.floor(armies[land]).max()) if land.any() else 1.0)
        delta = (top + 1) / 3
        shade = np.maximum(2 - np.floor(armies / delta), 0)
        lighten = (shade * 0.11)[:, None]
        colours = colours + (1.0 - colours) * lighten
        colours[~land] = MOUNTAIN_COLOUR
        biggest = float(capacity.max()) or 1.0
        heights = LAND_HEIGHT + ARMY_HEIGHT * np.minimum(armies / biggest, 1.6)
        ids = np.arange(n)
        heights[~land] = 0.95 + 0.35 * ((ids[~land] * 0.618) % 1.0)
        hover = self.hover
        if hover is not None and owners[hover] != MOUNTAIN:
            neighbours = list(board.neighbours[hover])
            colours[neighbours] = colours[neighbours] * 0.75 + 0.25
            colours[hover] = colours[hover] * 0.6 + 0.4
            heights[hover] += 0.12
        self._target_heights = heights.astype("f4")
        if len(self._heights) != n:
            self._heights = self._target_heights.copy()
        self._colours = colours.astype("f4")
        layer.set_countries(self._colours, self._heights)
        layer.set_sprites(self._sprites(state, heights))
        layer.set_arrows(self._arrow_shapes())

    def _ease_heights(self, dt: float) -> None:
        if self.layer is None or len(self._heights) == 0:
            return
        gap = self._target_heights - self._heights
        if float(np.abs(gap).max()) < 1e-3:
            return
        self._heights = self._heights + gap * (1.0 - math.exp(-dt * 8.0))
        self.layer.set_countries(self._colours, self._heights)

    def _sprites(self, state: GrabState, heights: np.ndarray) -> list[Sprite]:
        match = self.match
        layer = self.layer
        assert match is not None and layer is not None
        human = match.options.human_playing
        sprites: list[Sprite] = []
        adv = layer.atlas.advance
        ring_colour: dict[CountryState, Callable[[int], tuple[float, float, float, float]]] = {
            CountryState.MOVED: lambda c: (*player_colour(state.owners[c], human), 1.0),
            CountryState.ATTACKED: lambda c: (*player_colour(state.owners[c], human), 1.0),
            CountryState.TAKEN: lambda c: (
                *player_colour(match.previous_owners[c], human),
                1.0,
            ),
            CountryState.CHEAP: lambda c: (1.0, 1.0, 1.0, 0.85),
        }
        ring_size = {
            CountryState.MOVED: 1.1,
            CountryState.ATTACKED: 1.45,
            CountryState.TAKEN: 1.8,
            CountryState.CHEAP: 1.3,
        }
        hint_target = self.hint_move.target if self.hint_move is not None else -1
        for c, owner in enumerate(state.owners):
            if owner == MOUNTAIN:
                continue
            x, z = (v / PIXELS_PER_UNIT for v in match.map.centres[c])
            anchor = (x, float(heights[c]) + 0.02, z)
            armies = state.armies[c]
            capacity = state.board.capacity[c]
            text = str(int(armies))
            full = armies > 0.9 * capacity
            prefix = "b" if full else ""
            scale = LABEL_SCALE * (1.15 if c == self.hover else 1.0)
            for i, ch in enumerate(text):
                dx = (i - (len(text) - 1) / 2) * adv
                sprites.append(Sprite(anchor, prefix + ch, dx, 0.55, scale, (1.0, 1.0, 1.0, 1.0)))
            # The capacity bar: a dark track, filled to armies / capacity (gold when full).
            fill = min(1.0, armies / capacity) if capacity > 0 else 1.0
            track = (0.12, 0.12, 0.14, 0.85)
            sprites.append(Sprite(anchor, "block", 0.0, -0.1, scale, track, 0.8, 0.14))
            if fill > 0:
                colour = (1.0, 0.8, 0.25, 1.0) if armies >= capacity else (0.97, 0.97, 0.97, 1.0)
                left = -0.8 * 1.2 / 2 * (1 - fill)  # the cell is 1.2 em wide: keep it left-aligned
                sprites.append(Sprite(anchor, "block", left, -0.1, scale, colour, 0.8 * fill, 0.14))
            country_state = match.country_states[c]
            if country_state in ring_size:
                sprites.append(
                    Sprite(
                        anchor,
                        "ring",
                        0.0,
                        0.35,
                        LABEL_SCALE * ring_size[country_state],
                        ring_colour[country_state](c),
                    )
                )
            if c == hint_target:
                sprites.append(
                    Sprite(anchor, "ring", 0.0, 0.35, LABEL_SCALE * 2.1, (1.0, 0.85, 0.25, 1.0))
                )
        return sprites

    def _add_arrow(self, player: int, move: Move, success: bool) -> None:
        if move.kind is MoveKind.NONE or not move.sources:
            return
        how = "move" if move.kind is MoveKind.GATHER else ("won" if success else "lost")
        self._arrows.append((player, list(move.sources), move.target, how))

    def _arrow_shapes(self) -> list[Arrow]:
        match = self.match
        assert match is not None
        human = match.options.human_playing
        outline = {
            "won": (0.0, 0.0, 0.0, 0.75),
            "lost": (1.0, 1.0, 1.0, 0.85),
            "move": (0.45, 0.45, 0.45, 0.8),
        }
        shapes = []
        for player, sources, target, how in self._arrows:
            fill = (*player_colour(player, human), 1.0)
            for source in sources:
                shapes.append(self._arrow(source, target, fill, outline[how]))
        if self.hint_move is not None and self.hint_move.kind is not MoveKind.NONE:
            for source in self.hint_move.sources:
                shapes.append(
                    self._arrow(
                        source, self.hint_move.target, (1.0, 0.85, 0.25, 1.0), (0.3, 0.2, 0.0, 0.9)
                    )
                )
        return shapes

    def _arrow(
        self,
        source: int,
        target: int,
        fill: tuple[float, float, float, float],
        outline: tuple[float, float, float, float],
    ) -> Arrow:
        """From the source's centre to the target's by the shortest way round the torus: an
        arrow across the wrap pokes out of this copy of the map into the next one."""
        match = self.match
        assert match is not None
        w, h = match.map.width, match.map.height
        sx, sy = match.map.centres[source]
        tx, ty = match.map.centres[target]
        dx = (tx - sx + w // 2) % w - w // 2
        dy = (ty - sy + h // 2) % h - h // 2
        u = PIXELS_PER_UNIT
        return Arrow((sx / u, sy / u), ((sx + dx) / u, (sy + dy) / u), fill, outline)

    # -- texts ------------------------------------------------------------------------------

    def _counter(self) -> str:
        match = self.match
        if match is None:
            return ""
        state = match.state
        rnd = state.turn // state.board.players + 1
        if match.options.human_playing:
            mine = len(state.countries_of(0))
            land = state.board.countries - len(state.board.mountains)
            turn = "your move" if self._human_turn() else "robots moving"
            if match.finished:
                turn = "game over"
            return f"Round {rnd}   you own {mine} of {land} countries   {turn}"
        speed = f"   autoplay {AUTOPLAY[self.autoplay]:g} s" if self.autoplay else ""
        return f"Round {rnd}   {match.options.players} robots{speed}"

    def _panel_text(self) -> str:
        match = self.match
        if match is None or self.info == "none":
            return ""
        if self.info == "help":
            return HELP
        if self.info == "trace":
            return "\n".join(self._trace_lines()) or "No moves yet."
        lines = []
        for s in match.statistics():
            lines.append(
                f"{s.rank}. {match.names[s.player]:<7} {s.size_percent:5.1f}% land  "
                f"{s.countries:>3} countries  {s.armies:>4} armies"
            )
        return "\n".join(lines)

    def _trace_lines(self) -> list[str]:
        match = self.match
        assert match is not None
        lines = []
        for result in match.state.results:
            name = match.names[result.player]
            if result.kind is MoveKind.NONE:
                action = "none"
            elif result.kind is MoveKind.GATHER:
                action = "moves"
            else:
                action = "wins" if result.success else "loses"
            if result.is_error:
                lines.append(f"{name}: {action} error")
                continue
            if result.kind is MoveKind.NONE:
                lines.append(f"{name}: none")
                continue
            to = f"{result.before[0]}→{result.after[0]}" if result.before else ""
            sources = ", ".join(
                f"{b}→{a}" for b, a in zip(result.before[1:], result.after[1:], strict=False)
            )
            defender = (
                f" vs {match.names[result.defender]}" if result.kind is MoveKind.ATTACK else ""
            )
            lines.append(f"{name}{defender}: {action} {result.target} {to} from {sources}")
        return lines

    def _preview(self) -> None:
        """Over an enemy country on your turn: what an attack would do; over yours: a gather."""
        match = self.match
        country = self.hover
        if match is None or country is None or not self._human_turn():
            return
        state = match.state
        own = tuple(n for n in state.board.neighbours[country] if state.owners[n] == 0)
        owner = state.owners[country]
        if owner == 0:
            move = Move(MoveKind.GATHER, country, own)
        elif own:
            move = Move(MoveKind.ATTACK, country, own)
        else:
            self._say(
                f"Country {country} ({match.names[owner]}, {int(state.armies[country])} armies): "
                "none of yours borders it.",
                Tone.INFO,
            )
            return
        try:
            after = state.apply(move)
        except GrabMoveError:
            return
        result = after.results[0]
        if move.kind is MoveKind.GATHER:
            gained = result.after[0] - result.before[0]
            self._say(
                f"Gather into {country}: +{gained} armies from {len(own)} of your countries.",
                Tone.INFO,
            )
            return
        strength = sum(max(0.0, state.armies[s] - 1) for s in own if state.armies[s] >= 1)
        strength *= state.board.attack_factor
        defence = state.armies[country]
        if result.success:
            self._say(
                f"Attack {country} ({match.names[owner]}): {strength:.1f} against "
                f"{defence:.1f}: you win, with {sum(result.after):d} armies after the split.",
                Tone.HINT,
            )
        else:
            self._say(
                f"Attack {country} ({match.names[owner]}): {strength:.1f} against "
                f"{defence:.1f}: you lose; it keeps {result.after[0]}.",
                Tone.WARN,
            )

    def _say(self, text: str, tone: Tone) -> None:
        self.message, self.tone = text, tone


def _describe(match: GrabMatch, before: GrabState, move: Move, success: bool) -> str:
    if move.kind is MoveKind.NONE:
        return "You wait."
    if move.kind is MoveKind.GATHER:
        return f"You gather into country {move.target}."
    owner = match.names[before.owners[move.target]]
    if success:
        return f"You take country {move.target} from {owner}."
    return f"Your attack on country {move.target} ({owner}) fails."


def _describe_plan(match: GrabMatch, move: Move) -> str:
    state = match.state
    if move.kind is MoveKind.GATHER:
        return f"gather into country {move.target} from {len(move.sources)} of your countries"
    owner = match.names[state.owners[move.target]]
    return f"attack country {move.target} ({owner}) with {len(move.sources)} of your countries"


def _toggle_human(p: GrabOptions, c: GrabController) -> GrabOptions:
    robots = p.robots
    if p.human_playing and len(robots) < 2:
        robots = robots + robots[-1:]
    return replace(p, human_playing=not p.human_playing, robots=robots)


def _cycle_distribution(p: GrabOptions, c: GrabController) -> GrabOptions:
    kinds = list(Distribution)
    return replace(p, distribution=kinds[(kinds.index(p.distribution) + 1) % len(kinds)])


def _cycle_robot_type(p: GrabOptions, c: GrabController) -> GrabOptions:
    names = ["basic", "simple", "strategic"]
    if c.registry is not None:
        names = list(c.registry.names())
    current = p.robots[0] if p.robots else names[0]
    following = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
    return replace(p, robots=(following,) * len(p.robots))


def _cycle_preset(p: GrabOptions, c: GrabController) -> GrabOptions:
    names = list(PRESETS)
    c._preset = (c._preset + 1) % len(names)
    preset = PRESETS[names[c._preset]]
    c._say(f"Preset: {names[c._preset]}. Apply starts it.", Tone.INFO)
    return replace(preset, human_playing=p.human_playing)


_OPTION_STEPS: dict[str, tuple[str, float, type]] = {
    "countries": ("countries", 10, int),
    "robots": ("robots", 1, int),
    "mountains": ("mountains_percent", 1, int),
    "armies": ("armies_in_biggest", 5.0, float),
    "growth": ("growth_factor", 0.01, float),
    "protection": ("protection_factor", 0.05, float),
    "attack": ("attack_factor", 0.05, float),
    "benefit": ("attack_benefit_factor", 0.1, float),
}
_OPTION_TOGGLES: dict[str, Callable[[GrabOptions, GrabController], GrabOptions]] = {
    "human": _toggle_human,
    "distribution": _cycle_distribution,
    "robot-type": _cycle_robot_type,
    "random": lambda p, c: replace(p, random_options=not p.random_options),
    "preset": _cycle_preset,
    "defaults": lambda p, c: replace(GrabOptions(), human_playing=p.human_playing),
}
