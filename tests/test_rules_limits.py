"""The hard edges of the description language: characters a name or a text may not hold,
nesting Python's compiler cannot take, and moves or loop passes without end, each refused
with a line that names the form (file, line and column) instead of a crash, a hang or a
MemoryError."""

from __future__ import annotations

import pytest

from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
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
        Rulebook(parse(text, "my.txt"))
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
    assert Rulebook(parse(text, "my.txt")).design.title == f"Tiny\u00a0{family}"
    text = SMALL.replace("(players A B)", "(players \u00c4\U0001f600 \u03a9)")
    assert Rulebook(parse(text, "my.txt")).design.players == ("\u00c4\U0001f600", "\u03a9")
    # The byte order mark an editor may write first is no character of the description.
    assert Rulebook(parse("\ufeff" + SMALL, "my.txt")).design.title == "Tiny"
    assert _error("\ufeff" + SMALL.replace("(game tiny)", "(game tiny!)")).column == 7


# -- nesting --------------------------------------------------------------------------------


def _nested(head: str, depth: int) -> str:
    """A drop program of ``depth`` forms ``head`` one inside another, each stepping north."""
    body = "add"
    for _ in range(depth):
        body = f"(while empty {body} n)" if head == "while" else f"(one-of {body} (do n add))"
    return SMALL.replace("(move place (verify empty) add)", f"(move place {body})")


@pytest.mark.parametrize("head", ["while", "one-of"])
def test_loops_and_choices_nested_past_the_limit_are_named(head: str) -> None:
    """Twenty nested forms passed Python's 20 nested loops: a SyntaxError from its compiler
    (a traceback from shot and play, 'internal error' from rules check)."""
    from game.logic.rules.limits import MAX_NESTING

    text = _nested(head, 20)
    error = _error(text)
    # The 17th form from the outside is the first past the limit: its line and column.
    line = text.splitlines()[error.line - 1]
    assert line[error.column - 1 :].startswith(f"({head} ")
    assert line[: error.column - 1].count(f"({head} ") == MAX_NESTING
    assert f"({head} ...) stands inside {MAX_NESTING} other loops and choices" in str(error)
    assert str(error).startswith(f"my.txt:{error.line}:{error.column}: ")
    # At the limit the game compiles and plays.
    game = Rulebook(parse(_nested(head, MAX_NESTING), "my.txt"))
    assert game.perft(game.start(), 1) > 0


def test_a_choice_holds_the_statements_after_it() -> None:
    """Choices one after another nest too: each one-of holds the rest of the program."""
    body = " ".join(["(one-of (do n) (do e))"] * 20) + " add"
    text = SMALL.replace("(move place (verify empty) add)", f"(move place {body})")
    assert "stands inside 16 other loops and choices" in str(_error(text))


# -- moves and passes -----------------------------------------------------------------------


def _big(program: str, side: int = 26) -> str:
    return SMALL.replace("(columns a b c) (rows 1 2 3)", f"(size {side} {side})").replace(
        "(move place (verify empty) add)", f"(move place {program})"
    )


def test_moves_past_the_cap_stop_at_the_cap_naming_the_form() -> None:
    """(anywhere (anywhere add)) on 26 x 26 makes 676 ** 3 drops (309 million): it grew to
    3.8 GB and ended in MemoryError. The generated loops count as they add and stop at the
    cap, naming the inner anywhere (line 6, column 42), as the file is read."""
    from game.logic.rules.catalogue import rulebook_for_text
    from game.logic.rules.limits import MAX_MOVES, RulesError

    text = _big("(anywhere (anywhere add))")
    with pytest.raises(RulesError) as caught:
        rulebook_for_text(text, "my.txt")
    assert str(caught.value) == (
        f"my.txt:6:42: (anywhere ...) makes more than {MAX_MOVES} moves in one position, "
        "the most a position may have; choose among fewer places"
    )


def test_moves_past_the_cap_without_a_loop_name_the_program() -> None:
    """Eighty adds in one program, at each of 676 positions: no loop of the program counts
    them, so the position's generation does, after each program run."""
    from game.logic.rules.limits import MAX_MOVES, RulesError

    game = Rulebook(parse(_big("(one-of " + "add " * 80 + ")"), "my.txt"))
    with pytest.raises(
        RulesError,
        match=f"my.txt:6:20: \\(move place ...\\) of mark makes more than {MAX_MOVES} moves",
    ):
        game.legal(game.start())


def test_passes_of_inner_loops_past_the_cap_name_the_loop() -> None:
    """Loops in loops that add nothing still take time: 676 x 676 passes from one drop."""
    from game.logic.rules.limits import MAX_PASSES, RulesError

    game = Rulebook(parse(_big("(anywhere (anywhere (verify false) add))"), "my.txt"))
    with pytest.raises(RulesError) as caught:
        game.legal(game.start())
    assert str(caught.value).startswith(
        f"my.txt:6:42: (anywhere ...) goes round more than {MAX_PASSES} times inside other loops"
    )


def test_an_exists_inside_an_exists_is_refused() -> None:
    """Each exists looks at every position: nested k deep they looked n ** k times for an
    answer one gives (a 26 x 26 board, five deep: 10 ** 14 looks for every drop)."""
    cond = "empty"
    for _ in range(5):
        cond = f"(exists {cond})"
    error = _error(SMALL.replace("(verify empty)", f"(verify {cond})"))
    assert str(error).startswith("my.txt:6:48: (exists ...) inside (exists ...) reads the same")
    # Beside each other they are one look each.
    both = "(verify (and (exists empty) (exists (not empty))))"
    game = Rulebook(parse(SMALL.replace("(verify empty)", both), "my.txt"))
    assert game.legal(game.start()) == []  # the empty board has no piece yet


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "(players A B)",
            "(players " + "A" * 65 + " B)",
            "3:10: a word of 65 characters; at most 64",
        ),
        (
            '(title "Tiny")',
            '(title "' + "T" * 81 + '")',
            "2:8: a title of 81 characters; at most 80",
        ),
        ('(title "Tiny")', '(title "  ")', "2:8: the title is empty"),
    ],
)
def test_names_and_titles_have_a_length_that_shows_whole(old: str, new: str, says: str) -> None:
    """A 900 KB player name was taken as it was, for every message and button to show."""
    error = _error(SMALL.replace(old, new))
    assert str(error) == f"my.txt:{says}"


def test_a_condition_reading_the_whole_board_in_a_loop_counts_its_positions() -> None:
    """(only-lines 3) at each of 676 positions of an anywhere, in a drop at each of 676:
    3 x 10 ** 8 looks, 16 s for one position's moves (and a window reading the file again
    froze that long). Each pass counts the 676 positions it may read."""
    from game.logic.rules.limits import MAX_PASSES, RulesError

    text = _big("(anywhere (verify (only-lines 3)) (verify false) add)")
    game = Rulebook(parse(text, "my.txt"))
    with pytest.raises(RulesError) as caught:
        game.legal(game.start())
    assert str(caught.value).startswith(
        f"my.txt:6:50: (only-lines ...) reads the whole board at each pass of the loop around "
        f"it: more than {MAX_PASSES} positions"
    )
    # Once, outside a loop, it costs one look at the board: the game plays.
    game = Rulebook(parse(_big("(verify (only-lines 3)) (verify empty) add"), "my.txt"))
    assert len(game.legal(game.start())) == 26 * 26
