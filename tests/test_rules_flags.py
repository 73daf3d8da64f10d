"""Named flags, position flags and ``(at POSITION COND)`` in move programs
(game/logic/rules/flags.py): counts worked out by hand, and the errors they give."""

from __future__ import annotations

import re

import pytest

from game.logic.rules.design import parse
from game.logic.rules.read_tree import statements
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError, read
from game.logic.rules.tree import text

BOARD = "(board (grid (columns a b c d e) (rows 1)) (directions (e 1 0) (w -1 0)))"

#: A stone is placed only while a1 and e1 are both empty: five places, then four after a
#: stone on b1, c1 or d1 and none after one on a1 or e1.
ENDS_FREE = f"""
(game ends-free)
(players A B)
{BOARD}
(piece stone (drops
  (move place (verify empty)
    (if (at a1 empty) (set-flag left-free))
    (if (at e1 empty) (set-flag right-free) (else (clear-flag left-free)))
    (verify (flag left-free)) add)))
(end (draw stuck))
"""

#: A walker on c1: m1 to d1 (b1 flagged on the way), m2 nowhere (b1 not flagged), m3 to d1
#: (the flag cleared), m4 to b1 in the branch that sets x, m5 to d1 (the unnamed flag and a
#: named one kept apart).
WALKER = f"""
(game walker)
(players A B)
{BOARD}
(piece walker
  (moves
    (move m1 w (set-position-flag p) e e (verify (not (position-flag p)))
      (verify (at b1 (position-flag p))) add)
    (move m2 (set-position-flag p) w (verify (position-flag p)) add)
    (move m3 (set-position-flag p) (clear-position-flag p) e
      (verify (not (at c1 (position-flag p)))) add)
    (move m4 (one-of (set-flag x) (clear-flag x)) w (verify (flag x)) add)
    (move m5 (set-flag y) (verify (not flag)) set-flag (verify flag) (verify (flag y)) e add)))
(setup (A (walker c1)))
(end (draw stuck))
"""


def test_named_flags_and_at_count_as_worked_out() -> None:
    book = Rulebook(parse(ENDS_FREE, "ends.txt"))
    assert [book.perft(book.start(), d) for d in (1, 2)] == [5, 12]


def test_position_flags_belong_to_their_position_and_branch() -> None:
    book = Rulebook(parse(WALKER, "walker.txt"))
    assert book.perft(book.start(), 1) == 4


def test_the_forms_print_back_as_read() -> None:
    said = "(set-flag a) (clear-position-flag b) (verify (and (flag a) (at c1 (position-flag b))))"
    assert text(statements(read(said, "t.txt"))) == said


#: (what the text says, what a mistake makes of it, the message with its place).
MISTAKES: tuple[tuple[str, str, str], ...] = (
    ("(at a1 empty)", "(at z9 empty)", "my.txt:7:13: no position 'z9' on the board"),
    ("(flag left-free)", "(flag)", "my.txt:9:13: (flag ...) takes 1 arg"),
    ("(set-flag right-free)", "(set-flag 3)", "my.txt:8:23: (set-flag NAME) takes the flag"),
    ("(at a1 empty)", "(at a1)", "my.txt:7:9: (at ...) takes 2 arguments"),
)


def test_mistakes_are_named_with_their_place() -> None:
    for old, new, says in MISTAKES:
        with pytest.raises(DescriptionError, match=re.escape(says)):
            Rulebook(parse(ENDS_FREE.replace(old, new, 1), "my.txt"))
