"""Reversi's registry entry: options, agents, the play flags and the solve hook."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from game.cli.options import add_option_flags, typed_options
from game.logic.options import OptionError
from game.logic.reversi import LEVELS
from game.logic.reversi.board import Position
from game.logic.reversi.game import ReversiGame
from game.logic.reversi.solver import solve
from game.logic.search.agents import BASELINES
from game.registry import Entry, UnknownAgentError
from tests.endgames import FFO40_AFTER_8, FFO40_AFTER_8_SCORE

ENTRY: Entry = importlib.import_module("game.games.reversi.entry").ENTRY


def test_the_entry_names_the_game_its_controller_and_its_picture() -> None:
    assert (ENTRY.id, ENTRY.title, ENTRY.hint_agent) == ("reversi", "Reversi", "master")
    assert ENTRY.controller == "game.games.reversi.controller:ReversiController"
    assert (Path(__file__).resolve().parents[1] / ENTRY.picture).is_file()
    assert isinstance(ENTRY.game(), ReversiGame)
    assert set(ENTRY.hooks) == {"solve", "bench"}


def test_the_options_take_a_person_or_a_level_and_a_finite_positive_time() -> None:
    assert ENTRY.options.defaults() == {
        "black": "human",
        "white": "intermediate",
        "time_per_move": 1.0,
        "animation": True,
        "animation_speed": "normal",
        "legal_marks": True,
        "last_move_mark": True,
        "theme": "classic",
    }
    assert ENTRY.options["black"].choices == ("human", *LEVELS, *BASELINES)
    for bad in ({"white": "world-champion"}, {"time_per_move": 0}, {"time_per_move": "inf"}):
        with pytest.raises(OptionError):
            ENTRY.options.validate(bad)


def test_every_level_is_an_agent_with_a_description() -> None:
    agents = ENTRY.agents()
    assert list(agents) == [*LEVELS, *BASELINES] and all(agents.values())
    agent = ENTRY.make_agent("expert", ENTRY.options.defaults())
    assert agent.name == "expert"
    with pytest.raises(UnknownAgentError, match="classic-expert"):
        ENTRY.make_agent("world-champion", {})


def _play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_option_flags(parser, ENTRY.options)
    assert ENTRY.play_arguments is not None
    ENTRY.play_arguments(parser)
    return parser


def test_play_flags_give_options_and_a_loaded_game(tmp_path: Path) -> None:
    saved = tmp_path / "game.txt"
    saved.write_text("f5d6c3\n")
    args = _play_parser().parse_args(["--white", "master", "--time", "0.5", "--load", str(saved)])
    options = ENTRY.options.validate(typed_options(ENTRY.options, args))
    assert (options["white"], options["time_per_move"]) == ("master", 0.5)
    assert ENTRY.play_overrides is not None
    assert ENTRY.play_overrides(args) == {"moves": [37, 43, 18]}
    bad = tmp_path / "bad.txt"
    bad.write_text("f5d6z9\n")
    with pytest.raises(ValueError, match=r"bad\.txt"):
        ENTRY.play_overrides(_play_parser().parse_args(["--load", str(bad)]))


def test_a_shot_seats_people_where_no_level_was_named() -> None:
    args = _play_parser().parse_args(["--white", "advanced"])
    args.command = "shot"
    assert ENTRY.play_overrides is not None
    assert ENTRY.play_overrides(args) == {"black": "human", "white": "advanced"}


def _solve(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    ENTRY.hooks["solve"].add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_solve_hook_returns_the_exact_score_and_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The hook yields its result (the CLI prints it): the score line for stdout, the
    search's figures as a note for stderr."""
    from game.hooks import Note

    position = Position.from_text(FFO40_AFTER_8)  # a few plies down FFO #40: a quick solve
    expected = solve(position, all_moves=True)
    assert expected.score == FFO40_AFTER_8_SCORE
    said = list(ENTRY.hooks["solve"].run(_solve(position.text(), "--all"), ENTRY))
    names = ",".join(f"{'ABCDEFGH'[m % 8]}{m // 8 + 1}" for m in expected.best)
    assert said[-1] == f"score={expected.score:+d} best={names}"
    assert [type(s) for s in said] == [Note, str] and said[0].text.startswith("empties=")
    assert capsys.readouterr() == ("", "")


def test_the_solve_hook_refuses_a_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    from game.cli import main
    from game.hooks import Refusal

    with pytest.raises(Refusal):
        list(ENTRY.hooks["solve"].run(_solve("XO"), ENTRY))
    assert main(["solve", "reversi", "XO"]) == 2
    assert capsys.readouterr().err.startswith("gamehall solve reversi: ")
