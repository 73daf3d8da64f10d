"""Reversi endgames the tests solve, with their exact answers, written out once so that no test
process solves its way down to them first (eight solves from 20 empty squares each time).

``FFO40_AFTER_8``: FFO #40 (:data:`game.logic.reversi.ffo.FFO`) after eight best moves (one of
them a pass), 13 empty squares, black to move. Along a line of best moves the exact score
stays FFO's published one, +38 for black; two moves reach it, B8 and F8. The tests that solve
it check that score, so a wrong position or a wrong solve fails them.
"""

from __future__ import annotations

FFO40_AFTER_8 = "OOXXXXXXXOXXXXXXOOXOXOOXOOXXOOXXOOXOOOXX-O-OOOOXXOO-O--X--------X"
FFO40_AFTER_8_SCORE = 38
FFO40_AFTER_8_BEST = ("B8", "F8")
