"""Reversi on the command line: solve, tournament, shot."""

from __future__ import annotations

import pytest

from game.logic.reversi.ffo import FFO
from tests.test_cli import gamehall


def test_solve_an_endgame_exactly(tmp_path):
    ffo = FFO[40]
    r = gamehall("solve", "reversi", ffo.text, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "score=+38 best=A2"


def test_solve_all_best_moves(tmp_path):
    # A small endgame: play FFO #40's best line a few plies, then ask for every best move.
    from game.logic.reversi.board import Position
    from game.logic.reversi.solver import solve

    position = Position.from_text(FFO[40].text)
    for _ in range(6):
        position = position.apply(solve(position).best[0])
    expected = solve(position, all_moves=True)
    r = gamehall("solve", "reversi", position.text(), "--all", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = ",".join(f"{'ABCDEFGH'[m % 8]}{m // 8 + 1}" for m in expected.best)
    assert r.stdout.strip().splitlines()[-1] == f"score={expected.score:+d} best={names}"


def test_solve_a_middle_game_searches_in_time(tmp_path):
    from game.logic.reversi.board import Position

    text = Position.start().apply(37).apply(43).text()  # f5 d6
    r = gamehall("solve", "reversi", text, "--time", "0.5", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("best=") and " depth=" in last and " eval=" in last


@pytest.mark.parametrize("text", ["", "XO", "X" * 64 + " Q", "-" * 63 + "Z X"])
def test_solve_bad_positions_say_why(tmp_path, text):
    r = gamehall("solve", "reversi", text, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip() and "Traceback" not in r.stderr


def test_a_tiny_tournament(tmp_path):
    r = gamehall(
        "tournament", "reversi", "--agents", "beginner,classic-beginner", "--games", "2",
        "--time", "0.02", "--seed", "3", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    rates = dict(part.split(":") for part in last.removeprefix("winrates=").split(","))
    assert set(rates) == {"beginner", "classic-beginner"}
    assert all(0.0 <= float(v) <= 1.0 for v in rates.values())


@pytest.mark.gl
def test_shot_reversi_plays_moves_and_shows_a_hint(tmp_path):
    out = tmp_path / "reversi.png"
    r = gamehall(
        "shot",
        "reversi",
        "--do",
        "d3,c5,hint",
        "--out",
        str(out),
        "--size",
        "480x300",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == ("status=playing black=3 white=3 moves=2 to_move=X")
    assert out.read_bytes().startswith(b"\x89PNG")


@pytest.mark.gl
def test_shot_reversi_loads_a_transcript_and_refuses_a_bad_one(tmp_path):
    good = tmp_path / "game.txt"
    good.write_text("f5d6c3d3c4\n")
    r = gamehall(
        "shot",
        "reversi",
        "--load",
        str(good),
        "--out",
        str(tmp_path / "a.png"),
        "--size",
        "320x200",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert " moves=5 " in r.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("f5d6z9\n")
    r = gamehall(
        "shot",
        "reversi",
        "--load",
        str(bad),
        "--out",
        str(tmp_path / "b.png"),
        "--size",
        "320x200",
        cwd=tmp_path,
    )
    assert r.returncode == 2
    assert str(bad) in r.stderr and "Traceback" not in r.stderr
