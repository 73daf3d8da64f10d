"""benchmarks/reversi_edax.py without Edax: the all-zero evaluation file, the message when
Edax is missing, reading Edax's result lines, and the random 24-empty positions."""

from __future__ import annotations

import doctest
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import reversi_edax
from reversi_edax import (
    EdaxResult,
    main,
    parse_edax_line,
    parse_edax_output,
    random_positions,
    write_zero_eval,
    zero_eval_bytes,
)

from game.logic.reversi.board import PASS

# Standard output of Edax 4.6 (``-solve FILE -level 60 -n-tasks 1 -eval-file ZERO``) on
# FFO #40-#44, as captured; the version banner goes to its standard error.
EDAX_FFO_40_44 = """\
 # | depth|score|       time   |  nodes (N)  |   N/s    | principal variation
---+------+-----+--------------+-------------+----------+---------------------
  1|   20   +38        0:00.376      21000788   55853160 a2 B1 c1 PA b6 C7 a7
  2|   22   +00        0:02.768      93176680   33662095 h4 A3 a2 G6 g5 G7 f8
  3|   22   +06        0:01.735      78218098   45082477 g2 H1 c2 G1 f1 D2 b2
  4|   23   -12        0:03.191     126810268   39739977 C7 h4 H5 b8 B7 a8 A7
  5|   23   -14        0:04.368     151852328   34764727 B8 g5 D2 a3 B7 a8 A7
---+------+-----+--------------+-------------+----------+---------------------
p40-44.obf: 471058162 nodes in  0:12.438 (cpu =  0:12.379) (37872501 nodes/s).
"""


def test_zero_eval_file_is_the_header_then_zero_weights(tmp_path: Path) -> None:
    path = write_zero_eval(tmp_path)
    assert path == tmp_path / "data" / "eval.dat"
    data = path.read_bytes()
    assert data == zero_eval_bytes()
    assert len(data) == 5 * 4 + 8 + 2 * 114_364 * 61 == 13_952_436
    assert struct.unpack("<5Id", data[:28]) == (0x45444158, 0x4556414C, 4, 6, 0, 0.0)
    assert data[:8] == b"XADELAVE"  # "EDAX", "EVAL" as little-endian words
    assert not any(data[28:])


@pytest.mark.parametrize("argv", [[], ["--ffo", "40"], ["--zero", "unused"]])
def test_missing_edax_says_what_to_set_and_exits_2(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("EDAX", raising=False)
    monkeypatch.delenv("EDAX_EVAL", raising=False)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("EDAX is not set:")
    assert "make build CC=gcc ARCH=native OS=linux" in err
    assert err.count("\n") == 1


def test_wrong_edax_or_missing_eval_names_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EDAX", str(tmp_path / "no-such-edax"))
    monkeypatch.delenv("EDAX_EVAL", raising=False)
    assert main([]) == 2
    assert "is not an executable file" in capsys.readouterr().err

    binary = tmp_path / "edax"
    binary.write_text("#!/bin/sh\nexit 1\n")
    binary.chmod(0o755)
    monkeypatch.setenv("EDAX", str(binary))
    assert main([]) == 2
    assert capsys.readouterr().err.startswith("EDAX_EVAL is not set:")

    monkeypatch.setenv("EDAX_EVAL", str(tmp_path / "missing.dat"))
    assert main([]) == 2
    assert "is not a file" in capsys.readouterr().err


def test_edax_result_lines_are_read_and_the_rest_ignored() -> None:
    results = parse_edax_output(EDAX_FFO_40_44)
    assert [r.number for r in results] == [1, 2, 3, 4, 5]
    assert [r.score for r in results] == [38, 0, 6, -12, -14]
    assert [r.depth for r in results] == [20, 22, 22, 23, 23]
    assert all(r.selectivity == 100 for r in results)
    assert results[0] == EdaxResult(
        1, 20, 100, 38, 0.376, 21000788, ("a2", "B1", "c1", "PA", "b6", "C7", "a7")
    )
    assert [r.nodes for r in results][1:] == [93176680, 78218098, 126810268, 151852328]
    assert sum(r.nodes for r in results) == 471058162
    assert results[4].seconds == pytest.approx(4.368)


def test_edax_line_variants_from_its_format() -> None:
    # Longer clocks ("H:MM:SS.mmm"), a bound mark, a selective depth, and no nodes per second
    # (printed blank when the time is zero): the shapes Edax's result printer can produce.
    long = parse_edax_line(" 12|   26   +16     1:02:03.250    9876543210   2652689 E1 b4")
    assert long is not None and long.seconds == pytest.approx(3723.25) and long.number == 12
    assert long.nodes == 9876543210 and long.score == 16
    bounded = parse_edax_line("  3|   24  <-08        0:00.120        123456   1028800 d3")
    assert bounded is not None and bounded.score == -8
    selective = parse_edax_line("  4|24@73%  +04        0:00.050         10000    200000 c4")
    assert selective is not None and (selective.depth, selective.selectivity) == (24, 73)
    instant = parse_edax_line("  5|    1   +64        0:00.000            12            h8")
    assert instant is not None and instant.nodes == 12 and instant.pv == ("h8",)
    for other in EDAX_FFO_40_44.splitlines()[:2] + EDAX_FFO_40_44.splitlines()[-2:]:
        assert parse_edax_line(other) is None


def test_random_positions_are_reproducible_with_24_empties_and_a_move() -> None:
    first = random_positions(4, seed=1)
    assert first == random_positions(4, seed=1)
    assert first != random_positions(4, seed=2)
    assert len(set(p.key() for p in first)) == 4
    for position in first:
        assert position.empties == 24
        moves = position.legal_moves()
        assert moves and moves != [PASS]


def test_doctests() -> None:
    assert doctest.testmod(reversi_edax).failed == 0
