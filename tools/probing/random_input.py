"""``input``: 506 sequences of 50 random actions (commands, keys, typed text, clicks, moves in
notation, legal and not, waits, undo/redo spam, resizes, frames) on a headless Director,
starting in each game and the menu; run in worker processes.

Half of them wait for the scene to settle after each action, the others act in the middle of
animations and thinking. Misbehaving: an exception (in the scene or a thread, or an error
logged), a match whose record does not replay to its states, a rule broken (Reversi: discs
appear one per move and never vanish; river: crossings counted, nothing after the end;
MasterGrab: see :mod:`probing.games`), a status line that disagrees with the match, a scene
that does not settle within 60 s.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from probing.base import (
    ErrorWatch,
    Probe,
    Tally,
    clip,
    describe,
)  # fmt: skip
from probing.games import grab_problem

INPUT_TIMEOUT_S = 180.0
SETTLE_S = 60.0
INPUT_SCENES = ("river", "reversi", "grab", "menu")
#: The options every input sequence starts with: quick computer moves, small maps.
INPUT_OPTIONS: dict[str, dict[str, Any]] = {
    "reversi": {"time_per_move": 0.05},
    "grab": {"countries": 30},
}


def run(probe: Probe) -> Tally:
    steps = 20 if probe.quick else 50
    indices = probe.pick(506, 24)
    # One lane more than --jobs: a scene waiting for a thinking thread leaves a core idle.
    lanes = probe.jobs + 1
    return probe.workers("input", indices, ["--steps", str(steps)], INPUT_TIMEOUT_S, lanes)


# --- 5. input ------------------------------------------------------------------------------------


def worker(args: argparse.Namespace) -> Callable[[int], list[str]]:
    from game.engine.window import configure_pyglet

    configure_pyglet(headless=True)
    from game.cli.play import build_director

    watch = ErrorWatch()
    folder = Path(tempfile.mkdtemp(prefix="input-", dir=os.getcwd()))
    (folder / "garbage.txt").write_text("not a game {[(")
    state: dict[str, Any] = {"director": None}

    def run(index: int) -> list[str]:
        if state["director"] is None:
            state["director"] = build_director(headless=True, size=(320, 240))
        director = state["director"]
        scene = INPUT_SCENES[index % len(INPUT_SCENES)]
        where = f"input {scene} seed {args.seed}"
        try:
            problems = input_sequence(director, index, args.seed, args.steps, watch, folder)
        except Exception as exc:  # the set-up itself failed
            problems = [f"setting up: {describe(exc)}"]
        if problems:
            try:
                director.close()
            except Exception as exc:
                problems.append(f"closing the Director: {describe(exc)}")
            state["director"] = None
        return [f"{where}: {p}" for p in problems]

    return run


@dataclass
class Act:
    """One input action: how it reads in a report, and what it does."""

    text: str
    run: Callable[[], object]


def input_sequence(
    director: Any, index: int, seed: int, steps: int, watch: ErrorWatch, folder: Path
) -> list[str]:
    """Play one sequence on ``director``; its problems (the first ends it). Half the
    sequences of each scene are patient: each action waits until the scene has settled, so
    play goes deeper; the others hurry, acting in the middle of animations and thinking."""
    from game.cli.play import make_sessions, register_games
    from game.settings import Settings

    rng = random.Random(f"{seed}:input:{index}")
    patient = (index // len(INPUT_SCENES)) % 2 == 1
    register_games(director, make_sessions(Settings(), None, INPUT_OPTIONS))
    if director.overlay.visible:
        director.overlay.toggle()
    director.show_help = False
    director.last_game = None  # the menu's Continue must not depend on an earlier sequence
    director.on_resize(320, 240)
    director.switch(INPUT_SCENES[index % len(INPUT_SCENES)])
    watch.take()
    checker = Consistency()
    done: list[str] = []
    for step in range(steps + 1):
        last = step == steps
        act = (
            Act("(settle at the end)", lambda: None) if last else choose_act(rng, director, folder)
        )
        done.append(act.text)
        try:
            act.run()
            if (patient or last) and not settle(director):
                return [f"did not settle within {SETTLE_S:g} s after: {_recent(done)}"]
            problem = watch.take() or checker.check(director)
            if last and not problem:
                director.capture()
                problem = watch.take() or status_problem(director)
        except Exception as exc:
            problem = f"raised {describe(exc)}"
        if problem:
            return [f"step {step} ({clip(act.text, 60)}; before: {_recent(done)}): {problem}"]
    return []


def settle(d: Any) -> bool:
    """Run the scene until nothing moves or thinks; False after SETTLE_S seconds. Like
    ``Director.settle`` in frames of 0.1 s, but it sleeps 10 ms a frame while only a thread
    works, since every frame costs a HUD update. While an engine is being readied (each lane's
    home is fresh, so Reversi's engine compiles: a minute or more) the 60 s start after it."""
    deadline = time.monotonic() + SETTLE_S
    while d.busy():
        if _readying():
            deadline = time.monotonic() + SETTLE_S
        if time.monotonic() > deadline:
            return False
        if not d.tweens.busy:
            time.sleep(0.01)
        d.update(0.1)
    d.update(0.1)
    return True


def _readying() -> bool:
    """Whether a thinking worker is readying an engine in this process."""
    from game.logic.workers import pool

    return any(not prep.done.is_set() for prep in list(pool._PREPARATIONS.values()))


def _recent(done: list[str]) -> str:
    return clip(" | ".join(done[-6:]), 200)


SIZES = ((320, 240), (64, 48), (1, 1), (800, 600), (1280, 200), (200, 900), (0, 0), (640, 400))
KEYS_EXTRA = ("F1", "F3", "A", "Z", "_0", "_9", "BACKSPACE", "TAB", "DELETE")
TEXTS = ("d3", "c", "4", "h8", "z9", "\r", "é", " ", "f5d6", "a")
NOTATION = ("d3", "a1", "pass", "boat", "board:priest", "unboard:devil", "none", "attack 3,5>12",
            "gather 1>2", "attack 99999>1", "", "zz", "-1", "board:dragon")  # fmt: skip


def choose_act(rng: random.Random, d: Any, folder: Path) -> Act:
    """A random input action on the current scene."""
    from pyglet.window import key, mouse

    table = d.commands()
    commands = list(table) if table is not None else []
    w, h = d.window_size()
    r = rng.random()
    if r < 0.25 and commands:
        command = rng.choice(commands)
        text = command.name
        if command.parse is not None:
            text = f"{command.name}:{_argument(rng, command.name, d, folder)}"
        if rng.random() < 0.05:
            text = rng.choice(("help", "overlay", "menu", "nosuch", text + ":junk"))
        return Act(f"perform {text}", lambda: d.perform(text))
    if r < 0.35:
        names = [*(table.keys() if table is not None else ()), *KEYS_EXTRA]
        if rng.random() < 0.03:  # Esc leaves the game; F12 writes a file: now and then
            names = ["ESCAPE", "F12"]
        name = rng.choice(names)
        symbol = getattr(key, name, None)
        if symbol is None:
            return Act(f"key {name} (none)", lambda: None)
        return Act(f"key {name}", lambda: d.on_key_press(symbol, 0))
    if r < 0.39:
        text = rng.choice(TEXTS)
        return Act(f"text {text!r}", lambda: d.on_text(text))
    if r < 0.54:
        x, y = rng.uniform(-5, w + 5), rng.uniform(-5, h + 5)
        button = rng.choice((mouse.LEFT, mouse.LEFT, mouse.LEFT, mouse.RIGHT))

        def click() -> None:
            d.on_mouse_motion(x, y, 0, 0)
            d.click(x, y, button)

        return Act(f"click {x:.0f},{y:.0f} button {button}", click)
    if r < 0.72:
        return _notation_act(rng, d)
    if r < 0.84:
        seconds = rng.choice((1 / 60, 0.1, 0.5, 1.0, 3.0))
        # Frames of MAX_DT (0.1 s), as a slow machine has them: fewer HUD updates to pay for.
        return Act(f"wait {seconds:.2f}", lambda: d.advance(seconds, dt=0.1))
    if r < 0.90:
        spam = [rng.choice(("undo", "redo")) for _ in range(rng.randint(2, 12))]

        def run_spam() -> None:
            for name in spam:
                d.perform(name)

        return Act(f"spam {','.join(spam)}", run_spam)
    if r < 0.95:
        size = rng.choice(SIZES)
        return Act(f"resize {size[0]}x{size[1]}", lambda: d.on_resize(*size))
    if r < 0.97:
        return Act("frame", d.capture)
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    return Act(f"hover {x:.0f},{y:.0f}", lambda: d.on_mouse_motion(x, y, 0, 0))


def _argument(rng: random.Random, name: str, d: Any, folder: Path) -> str:
    if name == "goto":
        return rng.choice((str(rng.randint(-3, 70)), "abc", "1e9", "99999999999999999999"))
    if name in ("save-to", "load-from"):
        return str(rng.choice((
            folder / "saved.txt", folder / "missing.txt", folder / "garbage.txt", folder,
            folder / "nosuch" / "x.txt",
        )))  # fmt: skip
    if name == "country":
        return rng.choice((str(rng.randint(-2, 250)), "abc", ""))
    if name == "move":
        return _notation_text(rng, d)
    if name == "click":
        return rng.choice(("priest1", "devil2", "boat", "priest9", "nosuch"))
    if name in ("board", "unboard"):
        return rng.choice(("priest", "devil", "dragon"))
    if name == "play":
        return rng.choice(("river", "reversi", "grab", "menu", "nosuch"))
    return rng.choice(("x", "1", "-1"))


def _notation_text(rng: random.Random, d: Any) -> str:
    match = getattr(d.controller, "match", None)
    if match is not None and rng.random() < 0.75:
        legal = list(match.state.legal_actions())
        if legal:
            return str(match.state.action_text(rng.choice(legal)))
    return rng.choice(NOTATION)


def _notation_act(rng: random.Random, d: Any) -> Act:
    text = _notation_text(rng, d)

    def play() -> None:
        match = getattr(d.controller, "match", None)
        if match is None:
            return
        try:
            action = match.state.parse_action(text)
        except ValueError:
            return  # refused, as gamehall shot refuses it
        d.play(action)

    return Act(f"move {text!r}", play)


class Consistency:
    """Checks a scene's match after each action: every step of its record replays to the
    state after it (each transition checked once), and the game's rules hold."""

    def __init__(self) -> None:
        self.checked: dict[tuple[int, int, int], tuple[Any, Any, Any]] = {}

    def check(self, d: Any) -> str | None:
        controller = d.controller
        if controller is None:
            return "no scene"
        controller.status_line()
        match = getattr(controller, "match", None)
        if match is None:
            return None
        record = match.full_record
        if not 0 <= match.cursor <= len(record):
            return f"cursor {match.cursor} outside a record of {len(record)}"
        for i, step in enumerate(record):
            before, after = match.state_at(i), match.state_at(i + 1)
            k = (id(before), id(step), id(after))
            if k in self.checked:
                continue
            self.checked[k] = (before, step, after)
            problem = transition_problem(match.game, before, step, after)
            if problem:
                return f"step {i + 1} of the record ({clip(step.text, 40)}): {problem}"
        return None


def transition_problem(game: Any, before: Any, step: Any, after: Any) -> str | None:
    """What is wrong with ``before`` --step--> ``after``, or None."""
    if before.is_terminal():
        return "a step after the end of the game"
    if step.forfeit is None:
        expected = before.apply(step.action)
        text = before.action_text(step.action)
        if text != step.text:
            return f"recorded as {step.text!r} but written {text!r}"
        if before.parse_action(text) != step.action:
            return f"{text!r} does not read back as the action it names"
        action = step.action
    else:
        expected = game.forfeit(before, step.action, step.forfeit)
        action = None
    if expected.key() != after.key():
        gives, holds = clip(repr(expected.key()), 80), clip(repr(after.key()), 80)
        return f"replaying it gives {gives}, the match holds {holds}"
    return rule_problem(before, action, after, forfeit=step.forfeit is not None)


def rule_problem(before: Any, action: Any, after: Any, *, forfeit: bool = False) -> str | None:
    kind = type(before).__name__
    if kind == "GrabState":
        return grab_problem(before, action, after, forfeit=forfeit)
    if kind == "Position":  # Reversi
        placed = (before.black | before.white) & ~(after.black | after.white)
        if placed:
            return "a disc vanished"
        gained = (after.black | after.white).bit_count() - (before.black | before.white).bit_count()
        if gained != (0 if action == 64 or forfeit else 1):
            return f"{gained} discs appeared with one move"
        return None
    if kind == "RiverState":
        from game.logic.river.rules import Outcome, Side
        from game.logic.river.state import Cross

        crossed = 1 if isinstance(action, Cross) else 0
        if after.crossings != before.crossings + crossed:
            return f"crossings went from {before.crossings} to {after.crossings}"
        for side in Side:
            counts = after.counts(side)
            if 0 < counts.priests < counts.devils and after.outcome() is not Outcome.LOST:
                return f"devils outnumber priests on the {side.value} bank, and it is not lost"
    return None


def status_problem(d: Any) -> str | None:
    """The status line agrees with the match (checked once the scene has settled)."""
    controller = d.controller
    match = getattr(controller, "match", None)
    if match is None:
        return None
    line = controller.status_line()
    fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
    state = match.state
    kind = type(state).__name__
    if kind == "Position":
        black, white = state.disc_count()
        if (fields.get("black"), fields.get("white")) != (str(black), str(white)):
            return f"status line {line!r} but the match has {black}-{white}"
    if kind == "RiverState" and fields.get("status") != state.outcome().value:
        return f"status line {line!r} but the match is {state.outcome().value}"
    return None
