"""The commands on a Zillions file (``.zrf``): ``rules variants``, ``rules perft|check`` with
``--variant``, the entry of ``shot``, ``play`` and ``tournament``, ZRF's drop notation
(``O*b2``), the help screen's texts, and one line (file, line, column) for a bad file, a bad
include or a variant out of range. The files are our own, in tests/data/zrf/ (``steps.zrf`` includes
``steps-moves.zrf``); their counts are worked out by hand in the comments."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook_for_zrf
from game.logic.rules.sexpr import DescriptionError
from tests.test_cli import gamehall

DATA = Path(__file__).resolve().parent / "data" / "zrf"
STEPS = DATA / "steps.zrf"


def _include(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _steps(variant: int = 0):  # type: ignore[no-untyped-def]
    return rulebook_for_zrf(STEPS.read_text(encoding="utf-8"), str(STEPS), variant, _include)


def test_variants_lists_each_game_of_the_file_by_index(tmp_path: Path) -> None:
    r = gamehall("rules", "variants", str(STEPS), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["0 Steps", "1 Steps with a Stone"]


@pytest.mark.parametrize(
    ("variant", "depth", "nodes"),
    [
        # White's Men on a1 and c1 step n, e or w: a1-a2 a1-b1 c1-c2 c1-b1. Black's (n is s
        # for Black) answer with 3, 4, 3 and 4 moves.
        (0, 1, 4),
        (0, 2, 14),
        # The variant adds a Stone in hand to drop on any empty square: 4 steps + 5 drops,
        # then Black's steps and drops on the squares left (a1-a2: 3 + 5).
        (1, 1, 9),
        (1, 2, 70),
    ],
)
def test_perft_of_a_variant_ends_with_the_counts_line(
    tmp_path: Path, variant: int, depth: int, nodes: int
) -> None:
    r = gamehall("rules", "perft", str(STEPS), str(depth), "--variant", str(variant), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].startswith(f"depth={depth} nodes={nodes} seconds=")


def test_divide_writes_moves_as_paths_and_drops_as_letter_star_position(tmp_path: Path) -> None:
    r = gamehall("rules", "perft", str(STEPS), "2", "--variant", "1", "--divide", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = dict(line.rsplit(" ", 1) for line in r.stdout.splitlines()[:-1])
    assert lines == {
        "a1-a2": "8", "a1-b1": "9", "c1-c2": "8", "c1-b1": "9",
        "O*a2": "7", "O*b3": "6", "O*b2": "8", "O*b1": "8", "O*c2": "7",
    }  # fmt: skip


def test_a_drop_is_read_back_in_zrf_notation() -> None:
    from game.logic.rules.state import RulesGame

    state = RulesGame(_steps(1)).initial_state(__import__("random").Random(0))
    after = state.apply(state.parse_action("O*b2"))
    assert [p for p in after.pieces() if p[2] == "Stone"] == [(4, 0, "Stone")]


def test_check_names_the_variants_game(tmp_path: Path) -> None:
    r = gamehall("rules", "check", str(STEPS), "--variant", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("zrf-steps-1: Steps with a Stone; 9 positions, 2 piece types")


def test_the_help_screen_shows_the_files_texts() -> None:
    from game.games.rules.texts import AboutHelp

    about = _steps().design.about
    assert about.startswith("Step a Man forward or sideways onto an empty square.")
    assert "History: Written for Gamehall's tests." in about
    assert "Strategy: Block the other side's Men." in about
    shown = AboutHelp()
    shown.design = replace(_steps().design, about=about.replace(" empty", " \\empty"))
    assert shown.help_intro() == [
        "Step a Man forward or sideways onto an",  # a backslash: Zillions' line break
        "empty square.",
        "History: Written for Gamehall's tests.",
        "Strategy: Block the other side's Men.",
    ]


def test_the_rulebook_is_made_again_from_what_was_read(tmp_path: Path) -> None:
    """A worker process makes the rulebook from ``origin``: the text and the included files
    as read, with no file opened again."""
    made = _steps(1)
    maker, args = made.origin
    copy = tmp_path / "steps.zrf"
    copy.write_bytes(STEPS.read_bytes())  # no steps-moves.zrf beside this one
    again = pickle.loads(pickle.dumps(maker))(*pickle.loads(pickle.dumps(args)))
    assert again.perft(again.start(), 2) == made.perft(made.start(), 2) == 70
    assert again.design.id == made.design.id == "zrf-steps-1"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["rules", "perft", "broken.zrf", "1"], "broken.zrf:8:31: the move form (frobnicate"),
        (["rules", "check", "broken.zrf"], "broken.zrf:8:31: the move form (frobnicate"),
        (["rules", "variants", "missing.zrf"], "missing.zrf: no such file"),
        (
            ["rules", "perft", "steps.zrf", "1", "--variant", "2"],
            "steps.zrf: the file has 2 games: variant 0 to 1",
        ),
        (["rules", "perft", "chess", "1", "--variant", "1"], "only a .zrf file has variants"),
        (["rules", "variants", "chess"], "chess is not a .zrf file"),
        (["rules", "perft", "lonely.zrf", "1"], "lonely.zrf:1:1: cannot read the included file"),
        (["rules", "perft", "away.zrf", "1"], "the included file '../steps-moves.zrf' is not"),
        (
            ["shot", "steps.zrf", "--variant", "3", "--out", "x.png"],
            "the file has 2 games: variant 0 to 1",
        ),
        (["shot", "chess", "--variant", "1", "--out", "x.png"], "chess is not a .zrf file"),
        (["shot", "broken.zrf", "--out", "x.png"], "broken.zrf:8:31: the move form"),
    ],
)
def test_a_bad_file_or_variant_is_one_line(tmp_path: Path, argv: list[str], said: str) -> None:
    for name in ("steps.zrf", "steps-moves.zrf", "broken.zrf"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    (tmp_path / "lonely.zrf").write_text('(include "nothing-here.zrf")\n', encoding="utf-8")
    (tmp_path / "away.zrf").write_text('(include "../steps-moves.zrf")\n', encoding="utf-8")
    r = gamehall(*argv, cwd=tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1 and said in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_windows_1252_file_is_read(tmp_path: Path) -> None:
    text = STEPS.read_text(encoding="utf-8").replace('"Steps"', '"Steps \u00e0 la carte"', 1)
    (tmp_path / "steps.zrf").write_bytes(text.encode("cp1252"))
    (tmp_path / "steps-moves.zrf").write_bytes((DATA / "steps-moves.zrf").read_bytes())
    r = gamehall("rules", "variants", "steps.zrf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "0 Steps \u00e0 la carte"


def test_play_and_shot_take_the_variant_as_their_game(tmp_path: Path) -> None:
    from game.cli import parse

    args = parse(["shot", str(STEPS), "--variant", "1", "--out", str(tmp_path / "x.png")])
    assert args.entry.id == "zrf-steps-1" and args.entry.title == "Steps with a Stone"
    overrides = args.entry.play_overrides(args)
    assert (overrides["description"], overrides["variant"]) == (STEPS, 1)
    args = parse(["play", str(STEPS)])
    assert args.entry.id == "zrf-steps"
    assert "variant" not in args.entry.play_overrides(args)
    entry = parse(["tournament", str(STEPS), "--variant", "1"]).entry
    assert entry.id == "zrf-steps-1"
    again = pickle.loads(pickle.dumps(entry))  # a tournament's worker reads the file again
    assert (again.id, again.title) == ("zrf-steps-1", "Steps with a Stone")
    assert again.play_overrides(args)["variant"] == 1


@pytest.mark.gl
def test_shot_plays_a_drop_and_a_step_of_the_variant(tmp_path: Path) -> None:
    out = tmp_path / "steps.png"
    r = gamehall(
        "shot", str(STEPS), "--variant", "1", "--out", str(out), "--size", "320x240",
        "--do", "move:O*b2,move:a3-b3,undo,redo,hint,help", cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "game=zrf-steps-1 moves=2" in r.stdout.splitlines()[-1]


def test_a_bad_description_error_names_the_zrf_place() -> None:
    text = (DATA / "broken.zrf").read_text(encoding="utf-8")
    with pytest.raises(DescriptionError) as caught:
        rulebook_for_zrf(text, "broken.zrf")
    assert (caught.value.line, caught.value.column) == (8, 31)


#: Our own language: one type of piece to drop, its drops written as the letter and ``*``.
LETTERED = """
(game lettered)
(title "Lettered drops")
(players X O)
(board (grid (columns a b) (rows 1 2)) (directions (n 0 1)))
(piece Mark (letter "M") (drops (move place (verify empty) add)))
(notation (drops FORMAT))
(end (draw full))
"""


@pytest.mark.parametrize(
    ("form", "first"), [("letter", "M*a1"), ("position", "a1")]
)  # fmt: skip
def test_notation_drops_letter_writes_every_drop_with_the_piece(form: str, first: str) -> None:
    from game.logic.rules.catalogue import rulebook_for_text
    from game.logic.rules.state import RulesGame

    made = rulebook_for_text(LETTERED.replace("FORMAT", form), "lettered.txt")
    state = RulesGame(made).initial_state(__import__("random").Random(0))
    assert state.texts()[0] == first
    assert state.parse_action(first) == state.legal_actions()[0]


def test_notation_drops_takes_position_or_letter() -> None:
    from game.logic.rules.catalogue import rulebook_for_text

    with pytest.raises(
        DescriptionError, match=r"lettered.txt:7:18: drop formats: position, letter"
    ):
        rulebook_for_text(LETTERED.replace("FORMAT", "star"), "lettered.txt")
