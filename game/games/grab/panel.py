"""The MasterGrab options panel: the values the next game will use, stepped by buttons.

The panel edits a copy of the options (:data:`~game.logic.grab.options.SCHEMA`'s values);
every step is checked by the schema, so a value outside its range, or a combination the game
refuses (too few countries for the players), is refused with the reason and changes nothing.
Apply starts a new game with them (the controller's ``apply``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from game.engine.commands import Command
from game.logic.grab.options import PRESETS, SCHEMA

__all__ = ["OptionsPanel"]

#: Button name -> option: the numeric options the panel steps (by the schema's step, onto its
#: grid: :meth:`~game.logic.options.Option.moved`).
STEPPED: Final[dict[str, str]] = {
    "countries": "countries",
    "mountains": "mountains_percent",
    "armies": "armies_in_biggest",
    "growth": "growth_factor",
    "protection": "protection_factor",
    "attack": "attack_factor",
    "benefit": "attack_benefit_factor",
}


class OptionsPanel:
    """The pending option values and the panel's commands; ``robot_names`` are the robot
    kinds the "Robots:" button cycles through."""

    def __init__(self, values: Mapping[str, Any], robot_names: Callable[[], Sequence[str]]):
        self.values: dict[str, Any] = SCHEMA.validate(dict(values))
        self.robot_names = robot_names
        self._preset = -1
        self.note = ""  # what the last step said beyond its value (a preset's name)

    def reset(self, values: Mapping[str, Any]) -> None:
        """Start editing ``values`` again (the options of the game being played)."""
        self.values = SCHEMA.validate(dict(values))

    def signature(self) -> tuple[Any, ...]:
        """Changes whenever a label of the panel would."""
        return tuple(self.values.values())

    def step(self, name: str, sign: int) -> None:
        """One step up (``sign`` 1) or down (-1) of a numeric option, or of the robot count;
        raises OptionError (a ValueError) with the reason when refused."""
        values = self.values
        if name == "robots":
            robots = values["robots"].split(",")
            robots = (robots + robots[-1:])[: len(robots) + sign] if sign > 0 else robots[:-1]
            self._set(robots=",".join(robots))
            return
        option = STEPPED[name]
        self._set(**{option: SCHEMA[option].moved(values[option], sign)})

    def cycle_robots(self) -> None:
        """Every robot becomes the next kind (built-ins first, then those found on disk)."""
        names = list(self.robot_names())
        current = self.values["robots"].split(",")
        first = current[0] if current else names[0]
        following = names[(names.index(first) + 1) % len(names)] if first in names else names[0]
        self._set(robots=",".join([following] * len(current)))

    def cycle_seat(self, seat: int) -> None:
        """Robot ``seat`` (0 = Robot1) becomes the next kind the registry knows."""
        names = list(self.robot_names())
        robots = self.values["robots"].split(",")
        current = robots[seat]
        robots[seat] = (
            names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        )
        self._set(robots=",".join(robots))

    def cycle_colour(self) -> None:
        """Your colour: the next of the palette (the robots take the others)."""
        self.values = SCHEMA.press(self.values, "colour")

    def cycle_speed(self) -> None:
        """How fast the robots' moves are shown: the next speed."""
        self.values = SCHEMA.press(self.values, "robot_speed")

    def toggle_human(self) -> None:
        """You play, or the robots play alone (then at least two of them)."""
        robots = self.values["robots"].split(",")
        human = not self.values["human_playing"]
        if not human and len(robots) < 2:
            robots += robots[-1:]
        self._set(human_playing=human, robots=",".join(robots))

    def cycle_distribution(self) -> None:
        self.values = SCHEMA.press(self.values, "distribution")

    def toggle_random(self) -> None:
        self.values = SCHEMA.press(self.values, "random_options")

    def next_preset(self) -> None:
        """The next of spec 2.4's presets (who plays stays)."""
        names = list(PRESETS)
        self._preset = (self._preset + 1) % len(names)
        preset = PRESETS[names[self._preset]].values()
        preset["human_playing"] = self.values["human_playing"]
        if not preset["human_playing"] and len(preset["robots"].split(",")) < 2:
            preset["robots"] += "," + preset["robots"]
        self.values = SCHEMA.validate(preset)
        self.note = f"Preset: {names[self._preset]}. Apply starts it."

    def defaults(self) -> None:
        """Spec 2.1's defaults (who plays stays)."""
        values = SCHEMA.defaults()
        values["human_playing"] = self.values["human_playing"]
        if not values["human_playing"]:
            values["robots"] += ",basic"
        self.values = SCHEMA.validate(values)

    def commands(self, opened: Callable[[], None], shown: bool) -> list[Command]:
        """The panel's buttons (in the options grid while ``shown``; runnable by name from a
        script either way). ``opened`` is called after each change (it shows the panel)."""
        group = "options" if shown else ""
        p = self.values

        def run(action: Callable[[], None]) -> Callable[[], None]:
            def go() -> None:
                self.note = ""
                action()
                opened()

            return go

        rows: list[tuple[str, str, Callable[[], None], str]] = []
        labels = {
            "countries": f"Countries {p['countries']}",
            "robots": f"Robots {len(p['robots'].split(','))}",
            "mountains": f"Mountains {p['mountains_percent']}%",
            "armies": f"Biggest {p['armies_in_biggest']:g}",
            "growth": f"Growth {p['growth_factor']:.2f}",
            "protection": f"Protection {p['protection_factor']:.2f}",
            "attack": f"Attack {p['attack_factor']:.2f}",
            "benefit": f"Benefit {p['attack_benefit_factor']:.2f}",
        }
        for name, label in labels.items():
            option = "robots" if name == "robots" else STEPPED[name]
            what = SCHEMA[option].help
            down: Callable[[], None] = functools.partial(self.step, name, -1)
            up: Callable[[], None] = functools.partial(self.step, name, +1)
            rows.append((f"{name}-", f"{label} −", run(down), f"{what}: one step down"))
            rows.append((f"{name}+", "+", run(up), f"{what}: one step up"))
        kinds = ", ".join(sorted(set(p["robots"].split(","))))
        rows += [
            ("robot-type", f"Robots: {kinds}", run(self.cycle_robots),
             "every robot becomes the next kind"),
            ("human", "You play" if p["human_playing"] else "Robots only",
             run(self.toggle_human), "you play, or the robots play alone"),
            ("distribution", f"Map: {p['distribution']}", run(self.cycle_distribution),
             SCHEMA["distribution"].help),
            ("random", f"Random: {'on' if p['random_options'] else 'off'}",
             run(self.toggle_random), SCHEMA["random_options"].help),
            ("colour", f"Colour: {p['colour']}", run(self.cycle_colour), SCHEMA["colour"].help),
            ("speed", f"Robot moves: {p['robot_speed']}", run(self.cycle_speed),
             SCHEMA["robot_speed"].help),
            ("preset", "Preset", run(self.next_preset), "the next preset configuration"),
            ("defaults", "Defaults", run(self.defaults), "every option back to its default"),
        ]  # fmt: skip
        for seat, kind in enumerate(p["robots"].split(",")):
            choose: Callable[[], None] = functools.partial(self.cycle_seat, seat)
            tip = f"Robot{seat + 1} plays as the next robot this program knows"
            rows.append((f"seat{seat + 1}", f"Robot{seat + 1}: {kind}", run(choose), tip))
        return [
            Command(name, action, label, group=group, tooltip=tip)
            for name, label, action, tip in rows
        ]

    def _set(self, **changes: Any) -> None:
        self.values = SCHEMA.validate({**self.values, **changes})
