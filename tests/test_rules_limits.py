"""The hard edges of the description language: characters a name or a text may not hold,
nesting Python's compiler cannot take, and moves or loop passes without end, each refused
with a line that names the form (file, line and column) instead of a crash, a hang or a
MemoryError."""

from __future__ import annotations

import pytest

from game.logic.rules.design import parse
from game.logic.rules.engine import Engine
from game.logic.rules.sexpr import DescriptionError

SMALL = """(game tiny)
(title "Tiny")
(players A B)
(board (grid (columns a b c) (rows 1 2 3))
       (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1) (s 0 -1) (w -1 0) (sw -1 -1) (se 1 -1)))
(piece mark (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))
"""


RLO = "RIGHT-TO-LEFT OVERRIDE"


def _error(text: str) -> DescriptionError:
    with pytest.raises(DescriptionError) as caught:
        Engine(parse(text, "my.txt"))
    return caught.value


# -- characters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "named"),
    [
        # The column counts code points: Ä and 😀 are one each (their UTF-8: 2 and 4 bytes).
        ("(players A B)", "(players \u00c4\U0001f600 \u03a9\u202e)", (3, 14), f"U+202E {RLO}"),
        ('(title "Tiny")', '(title "Ti\x00ny")', (2, 11), "U+0000 (a control character)"),
        ('(title "Tiny")', '(title "\u2067Tiny")', (2, 9), "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ('(title "Tiny")', '(title "Ti\u200fny")', (2, 11), "U+200F RIGHT-TO-LEFT MARK"),
        ('(title "Tiny")', '(title "Tiny\ufeff")', (2, 13), "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("(players A B)", "(players A\u00a0 B)", (3, 11), "U+00A0 NO-BREAK SPACE"),
        ("(players A B)", "(players A\x1b[2J B)", (3, 11), "U+001B (a control character)"),
    ],
)
def test_control_and_bidirectional_characters_are_named_at_their_column(
    old: str, new: str, where: tuple[int, int], named: str
) -> None:
    assert old in SMALL
    error = _error(SMALL.replace(old, new))
    assert (error.line, error.column) == where
    assert f"the character {named} is not allowed" in str(error)
    assert str(error).isprintable()  # the character itself is never written into the line


def test_joiners_and_spaces_stay_allowed_in_text() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, joined by U+200D
    text = SMALL.replace('(title "Tiny")', f'(title "Tiny\u00a0{family}")')
    assert Engine(parse(text, "my.txt")).design.title == f"Tiny\u00a0{family}"
    text = SMALL.replace("(players A B)", "(players \u00c4\U0001f600 \u03a9)")
    assert Engine(parse(text, "my.txt")).design.players == ("\u00c4\U0001f600", "\u03a9")
    # The byte order mark an editor may write first is no character of the description.
    assert Engine(parse("\ufeff" + SMALL, "my.txt")).design.title == "Tiny"
    assert _error("\ufeff" + SMALL.replace("(game tiny)", "(game tiny!)")).column == 7
