"""The games' registry entries are declarations: they print nothing and hold no command's work
(that is each game's ``hooks`` module, whose hooks return their lines); what the entries
share is written once: what every entry would say alike follows from conventions
(:class:`game.registry.Entry`), the flags from :mod:`game.games.flags`."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from game.games.flags import given, shot_seats
from game.hooks import CliHook
from game.logic.options import OptionsSchema
from game.registry import Entry, UnknownAgentError, all_entries, get

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


@pytest.mark.parametrize("game", ["river", "reversi", "clue", "tic-tac-toe"])
def test_a_roster_turns_the_modules_refusal_into_unknown_agent(game: str) -> None:
    entry = get(game)
    assert entry.hint_agent in entry.agents()
    assert entry.make_agent(entry.hint_agent, entry.options.validate({})) is not None
    with pytest.raises(UnknownAgentError, match="nobody"):
        entry.make_agent("nobody", {})


def test_an_entry_takes_its_id_and_title_from_its_game_class() -> None:
    from game.logic.river.game import RiverGame

    entry = get("river")
    assert entry.make_game is RiverGame
    assert (entry.id, entry.title) == (RiverGame.id, RiverGame.title)


def test_the_conventions_fill_in_what_an_entry_leaves_out() -> None:
    river = get("river")
    assert river.controller == "game.games.river.controller:RiverController"
    assert river.picture == "scenes/cards/river.png"
    assert list(river.hooks) == ["solve"]
    assert river.play_arguments is None and river.console is None
    clue = get("clue")
    assert list(clue.hooks) == ["bench"]
    assert clue.console is not None and clue.play_overrides is not None
    described = get("tic-tac-toe")
    assert described.controller == "game.games.rules.controller:BoardController"
    assert described.picture == "scenes/cards/tic-tac-toe.png"
    assert list(described.hooks) == ["bench", "solve"]


def _plain(**fields: object) -> Entry:
    """An entry of a game with no package under game/games."""
    return Entry(  # type: ignore[arg-type]
        **{
            "id": "nowhere",
            "title": "Nowhere",
            "summary": "a test's game",
            "options": OptionsSchema(()),
            "make_game": lambda options: None,
            "roster": "game.logic.river.roster",
            "hint_agent": "solver",
            "controller": "tests.test_entries:Nothing",
            **fields,
        }
    )


def test_an_entry_without_a_package_has_what_it_says() -> None:
    entry = _plain(picture="")
    assert entry.hooks == {} and entry.play_arguments is None
    assert entry.controller == "tests.test_entries:Nothing" and entry.picture == ""


def test_an_entry_needs_its_agents() -> None:
    with pytest.raises(ValueError, match="roster"):
        _plain(roster="")


def test_every_command_is_marked_in_its_games_hooks_module() -> None:
    """The hooks an entry offers are the ``@hook`` functions of its package's module."""
    for entry in all_entries():
        for name, command in entry.hooks.items():
            assert isinstance(command, CliHook)
            assert command.run.__name__ == name
            assert command.run.__module__ == f"game.games.{entry.package or entry.id}.hooks"


def test_given_keeps_what_the_command_line_set() -> None:
    args = argparse.Namespace(seed=0, watch=False, case="", assistant=True, time=None)
    assert given(args, "seed", "watch", "case", "assistant", "time", "absent") == {
        "seed": 0,
        "assistant": True,
    }


def test_shot_seats_puts_a_person_where_the_command_line_named_nobody() -> None:
    shot = argparse.Namespace(command="shot", black="master", white=None)
    assert shot_seats(shot, "human", "black", "white") == {"black": "master", "white": "human"}
    play = argparse.Namespace(command="play", black=None, white=None)
    assert shot_seats(play, "human", "black", "white") == {}


@pytest.mark.parametrize("game", [e.id for e in all_entries()])
def test_a_games_commands_travel_to_a_worker_process(game: str) -> None:
    """An entry not in the registry (a test's own, or one the registry has made again) goes
    to a tournament's worker processes with its fields, its commands among them: a command
    made by ``@hook`` goes as its module's name for it and comes back the same hook."""
    import pickle

    for name, command in get(game).hooks.items():
        back = pickle.loads(pickle.dumps(command, pickle.HIGHEST_PROTOCOL))
        assert back is command, name
