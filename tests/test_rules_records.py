"""Game records of the described games against readers we did not write: a seeded chess
game's PGN read by python-chess, draughts PDN equal to what pydraughts read
(``tests/data/records``, made by ``tools/pdn_reference.py``), Hex's SGF against a small parse
written here; every variation loads back, and a bad record is one line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.records import (
    GameRecordError,
    check_record,
    end_of,
    graft,
    read_record,
    write_record,
)
from tests.records_sample import sample_record, sample_text

DATA = Path(__file__).parent / "data" / "records"


def test_a_seeded_chess_game_as_pgn_reads_back_in_python_chess() -> None:
    chess_pgn = pytest.importorskip("chess.pgn")
    record = sample_record("chess", 5, 60)
    text = write_record(rulebook("chess"), record)
    game = chess_pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert game.end().board().fen() == end_of(rulebook("chess"), record).text()
    # The variation is there too, and python-chess plays it to the same position.
    ours = [line for line in record.lines()][1]
    node = game
    for move in ours:
        node = next(v for v in node.variations if v.san() == move.text.rstrip("+#"))
    assert len(list(record.lines())) == 2
    board = node.board()
    assert board.fen().split()[0] == _end_of_line("chess", ours).split()[0]


def _end_of_line(game: str, line: list) -> str:  # type: ignore[type-arg]
    from game.logic.rules.state import RulesState

    book = rulebook(game)
    state = RulesState(book, book.start())
    for node in line:
        state = state.apply(state.parse_action(node.text))
    return state.text()


def _reference() -> list[tuple[str, int, int, int, str]]:
    out = []
    for row in (DATA / "pdn_reference.txt").read_text(encoding="utf-8").splitlines():
        if row.startswith("#") or not row.strip():
            continue
        head, moves, fen = (part.strip() for part in row.split(";"))
        game, seed, plies = head.split()
        out.append((game, int(seed), int(plies), int(moves), fen))
    return out


@pytest.mark.parametrize("game,seed,plies,moves,fen", _reference())
def test_draughts_pdn_is_the_file_pydraughts_read(game, seed, plies, moves, fen) -> None:
    text = sample_text(game, seed, plies)
    assert text == (DATA / f"{game}-{seed}.pdn").read_text(encoding="utf-8")
    record = sample_record(game, seed, plies)
    assert len(record.main_line()) == moves
    assert _pieces(end_of(rulebook(game), record).text()) == _pieces(fen)


def _pieces(fen: str) -> tuple[str, frozenset[str], frozenset[str]]:
    """A PDN FEN as the side to move and each colour's pieces (the order of squares aside)."""
    side, *parts = fen.split(":")
    colours = {part[0]: frozenset(p for p in part[1:].split(",") if p) for part in parts}
    return side, colours.get("W", frozenset()), colours.get("B", frozenset())


def _sgf_lines(text: str) -> list[list[tuple[str, str]]]:
    """Every line of an SGF tree as (colour, point) moves: a parse of its own (brackets,
    semicolons and the B and W properties only), not the one under test."""
    tokens = re.findall(r"\(|\)|;|[A-Z]+(?:\[(?:[^\]\\]|\\.)*\])+", text)
    lines: list[list[tuple[str, str]]] = []

    def walk(i: int, line: list[tuple[str, str]]) -> int:
        # from just after a '(' to just after its ')'
        ended = False
        while tokens[i] != ")":
            token = tokens[i]
            if token == "(":
                ended = True
                i = walk(i + 1, list(line))
                continue
            found = re.fullmatch(r"([BW])\[([a-z]*)\]", token)
            if found:
                line.append((found.group(1), found.group(2)))
            i += 1
        if not ended:
            lines.append(line)
        return i + 1

    walk(1, [])
    return lines


def _named(point: str, side: int) -> str:
    return f"{point[0]}{side - (ord(point[1]) - 97)}"


def test_a_committed_hex_sgf_reads_as_a_parse_of_its_own_reads_it() -> None:
    text = (DATA / "hex-5.sgf").read_text(encoding="utf-8")
    record = read_record(text, "hex-5.sgf")
    assert (record.game, record.parameters) == ("hex", {"side": 5})
    record = check_record(rulebook("hex", {"side": 5}), record)
    ours = [[(("B", "W")[n.seat], n.text) for n in line] for line in record.lines()]
    theirs = [[(c, _named(p, 5)) for c, p in line] for line in _sgf_lines(text)]
    assert ours == theirs
    assert len(ours) == 3


def test_hex_sgf_written_is_read_the_same_by_both_parses() -> None:
    record = sample_record("hex", 3, 30)
    book = rulebook("hex")
    text = write_record(book, record)
    assert text.startswith("(;FF[4]GM[11]SZ[11]")
    theirs = [[(c, _named(p, 11)) for c, p in line] for line in _sgf_lines(text)]
    ours = [[(("B", "W")[n.seat], n.text) for n in line] for line in record.lines()]
    assert ours == theirs and len(ours) == 2
    again = check_record(book, read_record(text))
    assert write_record(book, again) == text


@pytest.mark.parametrize("game", ["kalah", "othello", "nine-mens-morris", "xiangqi", "bashni"])
def test_a_plain_record_with_two_variations_loads_back_with_every_branch(game) -> None:
    book = rulebook(game)
    record = sample_record(game, 9, 24)
    record.seed = 9
    # A third line: the second variation, at the first move.
    first = record.moves[0]
    from game.logic.rules.state import RulesState

    start = RulesState(book, book.start())
    other = next(m for m in start.legal_actions() if start.action_text(m) != first.text)
    graft(record.moves, [(0, start.action_text(other))])
    record = check_record(book, record)
    text = write_record(book, record)
    assert f'[Game "{game}"]' in text and '[Seed "9"]' in text
    back = check_record(book, read_record(text))
    assert [[n.text for n in line] for line in back.lines()] == [
        [n.text for n in line] for line in record.lines()
    ]
    assert len(list(back.lines())) == 3
    assert write_record(book, back) == text


def test_a_record_from_elsewhere_is_written_as_the_game_writes_it() -> None:
    book = rulebook("english-draughts")
    record = check_record(book, read_record('[GameType "21"]\n1. 11-15 22-18 2. 15x22 *'))
    assert [n.text for n in record.main_line()] == ["11-15", "22-18", "15x22"]


@pytest.mark.parametrize(
    "text,words",
    [
        ("1. e4 (", "never closed"),
        ("1. e4 e5 )", "closes no variation"),
        ("( 1. e4 )", "before any move"),
        ("1. e4 e5 2. Ke3", "move 2 (Ke3)"),
        ('[Game "kalah"]\n1. s1', "a game of kalah, not chess"),
        ('[GameType "99"]\n1. 11-15', "GameType 99"),
        ("(;GM[11]SZ[5];B[aa", "never closed"),
        ("(;GM[42];B[aa])", "GM[42]"),
        ('[Event "x"\n1. e4', "a tag is"),
    ],
)
def test_a_bad_record_is_one_line_naming_what_is_wrong(text, words) -> None:
    with pytest.raises(GameRecordError) as caught:
        check_record(rulebook("chess"), read_record(text, "game.pgn"), "game.pgn")
    message = str(caught.value)
    assert words in message and "\n" not in message and message.startswith("game.pgn")


def test_rules_record_on_the_command_line_checks_and_writes_again(tmp_path, capsys) -> None:
    from game.cli import main

    path = tmp_path / "game.pdn"
    path.write_text((DATA / "english-draughts-7.pdn").read_text(encoding="utf-8"))
    out = tmp_path / "again.pdn"
    assert main(["rules", "record", str(path), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "game=english-draughts format=pdn lines=2 moves=40" in said.out
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    path.write_text("1. e4 e5 2. Ke3\n")
    assert main(["rules", "record", str(path)]) == 2
    said = capsys.readouterr()
    assert "move 2 (Ke3)" in said.err and said.err.count("\n") == 1
