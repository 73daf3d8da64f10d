"""The FFO endgame test positions #40-#59 (Gunnar Andersson's suite) with exact answers.

Each board is 64 characters A1..H8 row by row (X black, O white, - empty) and the side to
move; with it come the number of empty squares, the exact final disc difference for the side
to move (empties to the winner) and every move reaching it.
"""

from __future__ import annotations

from typing import NamedTuple


class FfoPosition(NamedTuple):
    number: int
    board: str
    to_move: str  # "X" or "O"
    empties: int
    score: int
    best: tuple[str, ...]  # upper-case squares, e.g. ("G3", "C7")

    @property
    def text(self) -> str:
        """The board text the CLI and ``Position.from_text`` read: board, a space, side."""
        return f"{self.board} {self.to_move}"


FFO: dict[int, FfoPosition] = {
    p.number: p
    for p in (
        FfoPosition(
            40,
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            "X",
            20,
            38,
            ("A2",),
        ),
        FfoPosition(
            41,
            "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-",
            "X",
            22,
            0,
            ("H4",),
        ),
        FfoPosition(
            42,
            "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--",
            "X",
            22,
            6,
            ("G2",),
        ),
        FfoPosition(
            43,
            "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-",
            "O",
            23,
            -12,
            ("G3", "C7"),
        ),
        FfoPosition(
            44,
            "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--",
            "O",
            23,
            -14,
            ("D2", "B8"),
        ),
        FfoPosition(
            45,
            "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO--",
            "X",
            24,
            6,
            ("B2",),
        ),
        FfoPosition(
            46,
            "---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-",
            "X",
            24,
            -8,
            ("B3",),
        ),
        FfoPosition(
            47,
            "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX--",
            "O",
            25,
            4,
            ("G2",),
        ),
        FfoPosition(
            48,
            "-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX-",
            "O",
            25,
            28,
            ("F6",),
        ),
        FfoPosition(
            49,
            "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O---",
            "X",
            26,
            16,
            ("E1",),
        ),
        FfoPosition(
            50,
            "----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O--",
            "X",
            26,
            10,
            ("D8",),
        ),
        FfoPosition(
            51,
            "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO--",
            "O",
            27,
            6,
            ("E2", "A3"),
        ),
        FfoPosition(
            52,
            "---X-------OX--X--XOOXXXXXXOXXXXXXXOOXXXXXXOOOXX--XO---X--------",
            "O",
            27,
            0,
            ("A3",),
        ),
        FfoPosition(
            53,
            "----OO-----OOO---XXXXOOO--XXOOXO-XXXXXOO--OOOXOO--X-OX-O-----X--",
            "X",
            28,
            -2,
            ("D8",),
        ),
        FfoPosition(
            54,
            "--OOO---XXOO----XXXXOOOOXXXXOX--XXXOXX--XXOOO------OOO-----O----",
            "X",
            28,
            -2,
            ("C7",),
        ),
        FfoPosition(
            55,
            "--------X-X------XXXXOOOOOXOXX--OOOXXXX-OOXXXX--O-OOOX-----OO---",
            "O",
            29,
            0,
            ("G6", "B7", "E2", "G4"),
        ),
        FfoPosition(
            56,
            "--XXXXX---XXXX---OOOXX---OOXOX---OXXXXX-OOOOOXO----OXX----------",
            "O",
            29,
            2,
            ("H5",),
        ),
        FfoPosition(
            57,
            "-------------------XXOOO--XXXOOO--XXOXOO-OOOXXXO--OXOO-O-OOOOO--",
            "X",
            30,
            -10,
            ("A6",),
        ),
        FfoPosition(
            58,
            "--XOOO----OOO----OOOXOO--OOOOXO--OXOXXX-OOXXXX----X-XX----------",
            "X",
            30,
            4,
            ("G1",),
        ),
        FfoPosition(
            59,
            "-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X",
            "X",
            34,
            64,
            ("H4", "G8", "E8"),
        ),
    )
}
