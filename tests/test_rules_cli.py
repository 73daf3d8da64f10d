"""``gamehall rules perft|check|list``: the last line of perft, divide, positions, parameters,
and a clear message (status 2) for what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["rules", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_ends_with_depth_nodes_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["perft", "chess", "3"], capsys)
    assert status == 0
    assert re.fullmatch(r"depth=3 nodes=8902 seconds=\d+\.\d+", out.strip().splitlines()[-1])


def test_divide_lists_each_first_move_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
    status, out, _ = _run(["perft", "chess", "2", "--position", fen, "--divide"], capsys)
    lines = out.strip().splitlines()
    assert status == 0 and len(lines) == 15  # 14 moves, then the total
    assert sum(int(line.split()[-1]) for line in lines[:-1]) == 191
    assert lines[-1].startswith("depth=2 nodes=191 ")


def test_parameters_are_set_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["perft", "hex", "3", "--set", "side=3"], capsys)
    assert status == 0 and out.startswith("depth=3 nodes=504 ")
    # Tic-tac-toe's count at depth 6, the first depth a row of 3 shortens: with gomoku's own
    # row of 5 on this board it would be 9 * 8 * 7 * 6 * 5 * 4 = 60480 (the whole tree, to
    # depth 9, cost eight times as much and tells the same).
    argv = ["perft", "gomoku", "6", "--set", "width=3", "--set", "height=3", "--set", "k=3"]
    status, out, _ = _run(argv, capsys)
    assert status == 0 and out.startswith("depth=6 nodes=54720 ")
    mine = Path(__file__).parent / "data" / "row.txt"
    status, out, _ = _run(["perft", str(mine), "4", "--set", "n=5"], capsys)
    assert status == 0 and out.startswith("depth=4 nodes=120 ")  # 5 x 4 x 3 x 2


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["perft", "hex", "2", "--set", "side=40"], "side must be from 2 to 19, not 40"),
        (["perft", "hex", "2", "--set", "width=5"], "no parameter 'width'"),
        (["perft", "hex", "2", "--set", "side"], "--set takes NAME=N"),
        (["perft", "parcheesi-deluxe", "2"], "no described game 'parcheesi-deluxe'"),
        (["perft", "chess"], "give the depth"),
        (["perft", "chess", "1", "--position", "not a fen"], "gamehall rules perft:"),
    ],
)
def test_what_is_wrong_is_named(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(argv, capsys)
    assert status == 2 and out == "" and says in err


def test_check_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["check", "kalah"], capsys)
    assert status == 0 and "Python hooks: none" in out
    status, out, _ = _run(["list"], capsys)
    assert status == 0 and re.search(r"^hex +Hex \(\d+ lines\)$", out, re.M)


@pytest.mark.parametrize("action", ["check", "perft"])
@pytest.mark.parametrize("kind", ["pipe", "device", "folder"])
def test_a_named_file_that_is_not_a_regular_one_is_refused_unread(
    action: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipe would wait for a writer for ever and /dev/zero would fill the memory: each is
    refused by the one reader of named files before anything is read."""
    import os

    if kind == "pipe":
        path = tmp_path / "game.txt"
        os.mkfifo(path)
        says = "is a named pipe, not a regular file"
    elif kind == "device":
        path = Path(os.devnull)
        says = "is a device, not a regular file"
    else:
        path = tmp_path / "folder.txt"
        path.mkdir()
        says = "is a folder, not a regular file"
    status, out, err = _run([action, str(path), *(["1"] if action == "perft" else [])], capsys)
    assert status == 2 and out == ""
    assert err.strip() == f"gamehall rules {action}: {path}: {says}"


def test_a_named_file_over_the_size_cap_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.tomlfile import MAX_FILE_BYTES

    path = tmp_path / "big.txt"
    path.write_bytes(b"(game big)\n" + b";" * MAX_FILE_BYTES)
    status, out, err = _run(["check", str(path)], capsys)
    assert status == 2 and out == "" and f"more than the {MAX_FILE_BYTES} such a file" in err


@pytest.mark.parametrize("command", [["check"], ["perft"]])
def test_a_100_kb_file_name_is_quoted_as_an_excerpt(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    name = "d/" * 50_000 + "x.txt"  # a path, so it is read as a file: too long a name
    status, out, err = _run([*command, name, *(["1"] if command == ["perft"] else [])], capsys)
    assert status == 2 and out == ""
    assert len(err) < 1_000 and "(100,005 characters)" in err and "File name too long" in err
