"""The one scene base (issue 26): every game's controller is a GameScene whose shared keys
(H N U Y R) run through the base's one declaration, and the Director calls a controller's
hooks as methods with defaults, never looking them up by name."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from game import registry
from game.engine.commands import CommandTable
from game.engine.controller import SceneController, Status
from game.hall.scene import CONTROLS, GameScene
from game.registry import MemorySession

ENGINE = Path(__file__).resolve().parents[1] / "game" / "engine"


def _controllers() -> list[tuple[str, Any]]:
    """One controller of each kind a registered game opens (the described games share one
    kind: the first stands for them; Cluedo opens a game or, with ``assistant``, the
    assistant), made without a window."""
    made: list[tuple[str, Any]] = []
    kinds: set[str] = set()
    for entry in registry.all_entries():
        if entry.controller in kinds:
            continue
        kinds.add(entry.controller)
        session = MemorySession()
        session.game = entry.id  # type: ignore[attr-defined]  # as a Session names its game
        factory = entry.controller_class()
        made.append((entry.id, factory(session)))
        if entry.id == "clue":
            made.append(("clue assistant", factory(MemorySession(), assistant=True)))
    return made


def test_every_game_controller_is_a_game_scene_answering_the_shared_keys() -> None:
    made = _controllers()
    assert len(made) >= 6  # river, reversi, a described game, grab, Cluedo, its assistant
    for game, controller in made:
        assert isinstance(controller, GameScene), game
        assert isinstance(controller, SceneController), game
        table = controller.commands()
        keys = table.keys()
        for name, (key, _) in CONTROLS.items():
            assert keys.get(key) == name, f"{game}: {key} runs {keys.get(key)!r}, not {name!r}"
            method = {"next": "next_step", "new": "new_game"}.get(name, name)
            heard: list[str] = []
            # The key runs the scene's method of that name, whatever the game put around it.
            setattr(controller, method, lambda name=name, heard=heard: heard.append(name))
            table[name].run()
            delattr(controller, method)
            assert heard == [name], f"{game}: {key} did not run {method}"


class _Plain(GameScene):
    name = title = "plain"

    def __init__(self) -> None:
        self.restarts = 0
        self.progress = False

    def restart(self) -> None:
        self.restarts += 1

    def in_progress(self) -> bool:
        return self.progress

    def commands(self) -> CommandTable:
        return CommandTable([self.control(n, _shown(n)) for n in CONTROLS])

    def status(self) -> Status:
        return Status(self.title, banner=self.message, tone=self.tone)


def _shown(name: str) -> Any:
    from game.hall.scene import Control

    return Control(name.title(), f"the {name} control")


def test_new_game_asks_once_while_a_game_is_in_progress_and_forgets_after_a_while() -> None:
    scene = _Plain()
    scene.commands().run("new")
    assert scene.restarts == 1  # nothing to lose: at once
    scene.progress = True
    scene.commands().run("new")
    assert scene.restarts == 1 and scene.asking and "R again" in scene.message
    scene.commands().run("new")
    assert scene.restarts == 2 and not scene.asking
    scene.commands().run("new")
    scene.clock += 10.0  # too late: the second press asks again
    scene.commands().run("new")
    assert scene.restarts == 2 and scene.asking
    with pytest.raises(ValueError, match="Nothing to undo"):
        scene.commands().run("undo")  # a control the game does not override refuses


def test_the_engine_looks_no_controller_hook_up_by_name() -> None:
    """No getattr/hasattr on a controller in game/engine: a hook the Director calls is a
    method of SceneController with a default."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "getattr(" not in text and "hasattr(" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and node.args
                and "controller" in ast.unparse(node.args[0])
            ):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    assert not found, found


def test_a_controller_without_hooks_answers_through_the_defaults() -> None:
    """Every hook the Director calls exists on the base and answers 'not taken'."""
    bare = _Plain()
    assert bare.on_drag(1.0, 2.0, 3.0, 4.0, 1, 0) is False
    assert bare.on_scroll(1.0, 2.0, 1.0) is False
    assert bare.on_escape() is False and bare.toggle_help() is False
    assert bare.typing() is False and bare.preparing() is False
    assert bare.sheet() is None and bare.tooltip() is None
    assert bare.world_labels() == [] and bare.help_intro() == []
    assert bare.on_pick(None) is None and bare.idle()
    bare.on_text("d3")
    bare.on_hover(None)
    bare.update(0.1)
    with pytest.raises(ValueError):
        bare.play(object())


def test_a_ray_meets_a_level_plane_ahead_of_it_only() -> None:
    import numpy as np

    from game.engine.picking import ray_at_height

    down = (np.array([1.0, 5.0, -2.0]), np.array([0.5, -1.0, 0.25]))
    assert np.allclose(ray_at_height(down, 1.0), [3.0, 1.0, -1.0])  # 4 steps down
    assert ray_at_height(down, 6.0) is None  # the plane is behind the ray
    level = (np.array([0.0, 1.0, 0.0]), np.array([1.0, 0.0, 0.0]))
    assert ray_at_height(level, 0.0) is None and ray_at_height(None, 0.0) is None
