"""What ``gamehall`` says about itself: ``--version``, each command's help (the games it
takes, its common flags), a game's help under the name it was typed with, and one line naming
the packages to install when a system library pyglet needs is missing."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from game.cli import main
from game.registry import all_entries
from tests.waiting import HANG_S

ROOT = Path(__file__).resolve().parents[1]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, " ".join(out.split()), err


def test_version_prints_the_installed_package_version(capsys):
    status, out, err = run_main(["--version"], capsys)
    assert status == 0 and err == ""
    assert out == f"gamehall {version('gamehall')}"


#: The games each command takes, from the registry (not from the CLI's own list).
TAKES = {
    "play": [e.id for e in all_entries()],
    "shot": [e.id for e in all_entries()],
    "tournament": [e.id for e in all_entries()],
    "solve": [e.id for e in all_entries() if "solve" in e.hooks],
    "bench": [e.id for e in all_entries() if "bench" in e.hooks],
}


@pytest.mark.parametrize("command", sorted(TAKES))
def test_command_help_lists_the_games_that_take_it(capsys, command):
    status, out, _ = run_main([command, "--help"], capsys)
    assert status == 0
    listed = out.split("GAME: one of ", 1)[1].split(".", 1)[0]
    names = {n.strip() for part in listed.split(",") for n in part.split(" or ")}
    assert set(TAKES[command]) <= names, out
    others = {e.id for e in all_entries()} - set(TAKES[command])
    assert not names & others, f"{command} lists games without it: {names & others}"
    assert f"gamehall {command} GAME --help lists that game's own flags" in out


def test_tournament_help_shows_its_flags_before_a_game_is_named(capsys):
    status, out, _ = run_main(["tournament", "--help"], capsys)
    assert status == 0
    for flag in ("--agents", "--games", "--jobs", "--seed", "--time", "--scheduler", "--json"):
        assert flag in out


def test_a_game_help_is_named_as_typed_and_holds_its_flags(capsys):
    status, out, _ = run_main(["clue", "--help"], capsys)
    assert status == 0
    assert out.startswith("usage: gamehall clue [-h]") and "gamehall play" not in out
    assert "--seed" in out and "--console" in out and "[GAME]" not in out
    status, out, _ = run_main(["play", "clue", "--help"], capsys)
    assert status == 0 and out.startswith("usage: gamehall play clue [-h]")
    status, out, _ = run_main(["solve", "reversi", "--help"], capsys)
    assert status == 0 and out.startswith("usage: gamehall solve reversi [-h]")
    assert "--exact" in out and "Reversi:" in out


def test_no_help_shows_an_empty_default(capsys):
    for entry in all_entries():
        for command in ("play", "solve", "tournament"):
            if command == "solve" and command not in entry.hooks:
                continue
            status, out, _ = run_main([command, entry.id, "--help"], capsys)
            assert status == 0
            assert "(default )" not in out, f"{command} {entry.id}"
    status, out, _ = run_main(["play", "chess", "--help"], capsys)
    assert "--position STR a start position in the game's notation" in out


# -- a machine without FreeType ---------------------------------------------------------------

#: Runs ``gamehall ARGS...`` in a fresh interpreter where pyglet's loader cannot find the
#: system library named first, raising what pyglet raises then.
WITHOUT = """
import sys
import pyglet.lib

real = pyglet.lib.load_library

def load_library(*names, **kwargs):
    if names and names[0] == sys.argv[1]:
        raise ImportError(f'Library "{names[0]}" not found.')
    return real(*names, **kwargs)

pyglet.lib.load_library = load_library
from game.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.gl
@pytest.mark.parametrize(
    ("library", "command"), [("freetype", "shot"), ("fontconfig", "shot"), ("freetype", "bench")]
)
def test_a_missing_font_library_names_the_packages_to_install(tmp_path, library, command):
    out = tmp_path / "x.png"
    argv = {
        "shot": ["shot", "river", "--size", "320x200", "--out", str(out)],
        "bench": ["bench", "render", "--scene", "river", "--frames", "1", "--size", "64x64"],
    }[command]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run(
        [sys.executable, "-c", WITHOUT, library, *argv],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG_S, check=False,
    )  # fmt: skip
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in r.stderr, r.stderr
    assert lines[0].startswith(f"gamehall {command}: the system library ")
    assert "libfreetype6 fontconfig fonts-dejavu-core" in lines[0]
    assert not out.exists()


@pytest.mark.parametrize(
    ("game", "said"),
    [
        ("clue", "--games N games timed per seat count, 1..10000 (default 40)"),
        ("grab", "--jobs J --strength: games at once, 1..256 (default 2)"),
    ],
)
def test_a_count_flag_says_its_range_and_default(capsys, game, said):
    """Counts are declared by one helper (games/flags.count_flag) that writes the range and
    default into the help and refuses a number outside the range."""
    from game.games.flags import count_flag

    status, out, _ = run_main(["bench", game, "--help"], capsys)
    assert status == 0 and said in out
    parser = argparse.ArgumentParser()
    count_flag(parser, "--games", 1, 5, 2, "games")
    assert parser.parse_args([]).games == 2 and parser.parse_args(["--games", "5"]).games == 5
    with pytest.raises(SystemExit):
        parser.parse_args(["--games", "6"])
