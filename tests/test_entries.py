"""The games' registry entries are declarations: they print nothing and hold no command's work
(that is each game's ``hooks`` module, whose hooks return their lines); what the entries
share is written once (:func:`game.registry.agent_maker`, :mod:`game.games.flags`)."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from game.games.flags import given
from game.registry import UnknownAgentError, agent_maker

GAMES = Path(__file__).resolve().parents[1] / "game" / "games"


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


@pytest.mark.parametrize("path", sorted(GAMES.glob("*/entry.py")), ids=lambda p: p.parent.name)
def test_an_entry_prints_nothing(path: Path) -> None:
    assert "print" not in _calls(path)


@pytest.mark.parametrize("path", sorted(GAMES.glob("*/hooks.py")), ids=lambda p: p.parent.name)
def test_a_hook_module_prints_nothing_either(path: Path) -> None:
    """Its hooks yield lines and notes; the CLI prints them."""
    assert "print" not in _calls(path)


def test_agent_maker_turns_the_modules_refusal_into_unknown_agent() -> None:
    make = agent_maker("game.logic.reversi.players:get_agent", "UnknownPlayerError")
    assert make("beginner", {}).name == "beginner"
    with pytest.raises(UnknownAgentError, match="nobody"):
        make("nobody", {})


def test_agent_maker_takes_a_builtin_refusal() -> None:
    make = agent_maker("game.logic.rules.agents:make_agent", "ValueError")
    with pytest.raises(UnknownAgentError, match="nobody"):
        make("nobody", {})


def test_given_keeps_what_the_command_line_set() -> None:
    args = argparse.Namespace(seed=0, watch=False, case="", assistant=True, time=None)
    assert given(args, "seed", "watch", "case", "assistant", "time", "absent") == {
        "seed": 0,
        "assistant": True,
    }
