"""A person's own description file: its parameters are set whatever their names, it plays
under its own id (a copy of a shipped game too), and a loop that never moves is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.logic.rules.catalogue import path_of, rulebook_for_text
from game.logic.rules.design import parse
from game.logic.rules.sexpr import DescriptionError
from tests.test_cli import gamehall

#: A drop game whose parameter shares its name with ``shot --size`` and ``play --size``.
SIZED = """
(game sized)
(title "Sized board")
(players Black White)
(parameter size 5 3 9 "the board's side")
(board (grid (size $size $size)) (directions (n 0 1) (e 1 0) (ne 1 1) (se 1 -1)))
(piece Stone (shape stone) (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))
"""


def test_a_parameter_named_like_a_flag_is_set_with_set(tmp_path: Path) -> None:
    from game.cli import parse as parse_command_line
    from game.cli.options import typed_options

    path = tmp_path / "sized.txt"
    path.write_text(SIZED, encoding="utf-8")
    argv = ["shot", str(path), "--out", str(tmp_path / "x.png"), "--size", "640x480"]
    args = parse_command_line([*argv, "--set", "size=7"])
    assert args.size == (640, 480)  # the picture's size stays the command's
    assert typed_options(args.entry.options, args) == {"size": "7"}
    game = args.entry.game(args.entry.options.validate(typed_options(args.entry.options, args)))
    assert len(game.rulebook.design.board.names) == 49
    args = parse_command_line(argv)
    assert typed_options(args.entry.options, args) == {}  # the default board, 5 x 5
    # A parameter whose flag is free keeps it: gomoku's --k, and --set as well.
    args = parse_command_line(["play", "gomoku", "--k", "4", "--set", "width=9"])
    assert typed_options(args.entry.options, args) == {"k": "4", "width": "9"}


@pytest.mark.parametrize(
    ("item", "needle"),
    [("size", "--set takes NAME=VALUE"), ("colour=2", "--set: no option 'colour'")],
)
def test_a_bad_set_is_one_line(tmp_path: Path, item: str, needle: str) -> None:
    r = gamehall("solve", "tic-tac-toe", "--set", item, cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


@pytest.mark.gl
def test_shot_of_a_file_with_a_size_parameter_and_of_a_copy_of_chess(tmp_path: Path) -> None:
    path = tmp_path / "sized.txt"
    path.write_text(SIZED, encoding="utf-8")
    out = tmp_path / "sized.png"
    r = gamehall("shot", str(path), "--out", str(out), "--do", "c3", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "game=sized.txt moves=1" in r.stdout
    r = gamehall(
        "shot", str(path), "--out", str(out), "--size", "640x480", "--set", "size=7",
        "--do", "g7", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr  # g7 exists on the 7 x 7 board only
    copy = tmp_path / "chess.txt"
    shutil.copy(path_of("chess"), copy)
    r = gamehall("shot", str(copy), "--out", str(out), "--do", "e2-e4", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "game=chess.txt moves=1" in r.stdout


def test_a_persons_file_plays_under_its_file_name(tmp_path: Path) -> None:
    from game import registry
    from game.games.rules.entry import entry_for_file
    from game.logic.rules.catalogue import file_id

    text = path_of("chess").read_text(encoding="utf-8")
    mine = tmp_path / "my-chess.txt"
    mine.write_text(text.replace('(title "Chess")', '(title "My chess")'), encoding="utf-8")
    entry = entry_for_file(mine)
    assert (entry.id, entry.title) == ("my-chess.txt", "My chess")
    registry.add(entry, replace=True)
    assert registry.get("chess").title == "Chess"  # the shipped game is still there
    same_name = tmp_path / "chess.txt"
    same_name.write_text(text, encoding="utf-8")
    assert entry_for_file(same_name).id == "chess.txt"
    assert rulebook_for_text(text, "games/chess").design.id == "file-chess"
    assert file_id("/a b/My game!.txt") == "My-game-.txt"


def test_a_loop_that_never_moves_is_refused() -> None:
    text = """
    (game loop)
    (players A B)
    (board (grid (columns a b c) (rows 1 2 3)) (directions (n 0 1)))
    (piece Stone (drops (move place (while empty add))))
    (end (draw full))
    """
    with pytest.raises(DescriptionError, match=r"loop\.txt:5:37: this while never moves"):
        parse(text, "loop.txt")
    # A loop that steps is fine, and so is one whose step is inside a choice.
    parse(text.replace("(while empty add)", "(while empty add n)"), "loop.txt")
    parse(text.replace("(while empty add)", "(while empty (if true n) add)"), "loop.txt")
