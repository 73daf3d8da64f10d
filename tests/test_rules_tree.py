"""The typed tree the described games' compiler reads (game/logic/rules/tree.py): every
shipped program prints back as text that reads to the same tree, a tree read back plays
the published counts, and a malformed tree is refused with a clear error at its place."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.logic.rules.catalogue import design, shipped
from game.logic.rules.design import Design, parse
from game.logic.rules.read_tree import statements
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError, read
from game.logic.rules.tree import (
    Act,
    Advance,
    Counters,
    If,
    Is,
    OneOf,
    Pieces,
    ProgramNode,
    Stmt,
    Verify,
    text,
    walk,
)

SMALL = """
(game tiny)
(players A B)
(board (grid (columns a b c) (rows 1 2 3))
       (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1) (s 0 -1) (w -1 0) (sw -1 -1) (se 1 -1)))
(piece mark (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))
"""


def _reread(tree: tuple[Stmt, ...]) -> tuple[Stmt, ...]:
    return statements(read(text(tree), "reread.txt"))


def _with_trees(d: Design, change: object) -> Design:
    """``d`` with each program's tree replaced by ``change(tree)``."""
    pieces = tuple(
        replace(p, programs=tuple(replace(g, tree=change(g.tree)) for g in p.programs))  # type: ignore[operator]
        for p in d.pieces
    )
    return replace(d, pieces=pieces)


@pytest.mark.parametrize("game", shipped())
def test_every_shipped_program_prints_back_to_the_same_tree(game: str) -> None:
    for piece in design(game).pieces:
        for program in piece.programs:
            assert program.tree, program.name
            assert _reread(program.tree) == program.tree, (game, program.name)


@pytest.mark.parametrize(
    ("game", "depth", "published"),
    [("chess", 2, 400), ("english-draughts", 3, 302), ("othello", 3, 56), ("tic-tac-toe", 2, 72)],
)
def test_a_tree_read_back_from_its_text_plays_the_published_counts(
    game: str, depth: int, published: int
) -> None:
    e = Rulebook(_with_trees(design(game), _reread))
    assert e.perft(e.start(), depth) == published


def test_nodes_written_apart_are_equal_when_they_say_the_same() -> None:
    a, b = (statements(read("n (verify (enemy Pawn)) add", f"{x}.txt")) for x in "ab")
    assert a == b and hash(a) == hash(b)
    assert a[0].where is not None and a[0].where.source == "a.txt"
    kinds = [type(n).__name__ for n in walk(a)]
    assert kinds == ["Advance", "Verify", "Pieces", "Act"]


def test_a_program_that_reads_where_the_last_move_came_from_keeps_it_in_the_key() -> None:
    # A man may not step back onto the position the opponent's last move left: the same
    # pieces with another last-from have other moves, so they are another position.
    text_ = SMALL.replace(
        "(piece mark (drops (move place (verify empty) add)))",
        "(piece man (moves (move step (one-of e w) (verify empty) (verify (not last-from)) add)))"
        "\n(setup (A (man a1)) (B (man c3)))",
    ).replace("(end (win (line 3)) (draw full))", "(end (draw stuck))")
    e = Rulebook(parse(text_, "back.txt"))
    start = e.start()
    there = start.copy()
    there.last_from = e.design.board.names.index("b1")
    assert len(e.legal(start)) != len(e.legal(there))
    assert e.key(start) != e.key(there)


def _tiny_with(tree: tuple[object, ...]) -> Design:
    d = parse(SMALL, "tiny.txt")
    return _with_trees(d, lambda _: tree)


@pytest.mark.parametrize(
    ("tree", "says"),
    [
        ((Advance("sideways"),), "unknown direction 'sideways'"),
        ((Verify(Act("add")),), "a condition is needed here, not add"),
        ((Verify(Pieces("enemy", ("Dragon",))),), "unknown piece type 'Dragon'"),
        ((If(Is("empty"), "add"),), "a tuple of statements is needed"),  # type: ignore[arg-type]
        ((Act("add"), 42), "a statement is needed here, not 42"),
        ((OneOf((Verify(Is("flying")), Act("add"))),), "unknown word 'flying'"),
        ((Verify(Counters(-1)), Act("add")), "a whole number is needed, not -1"),
    ],
)
def test_a_malformed_tree_is_refused_at_the_program_that_holds_it(
    tree: tuple[object, ...], says: str
) -> None:
    with pytest.raises(DescriptionError) as caught:
        Rulebook(_tiny_with(tree))
    message = str(caught.value)
    assert says in message
    # Built in code, the nodes have no place of their own: the program's is given.
    assert message.startswith("tiny.txt:6:20:"), message


def test_a_node_read_from_a_description_is_refused_at_its_own_place() -> None:
    bad = statements(read("(verify empty)\n  (verify (friend mark)) n add", "mine.txt"))
    # The Pieces built in code has no place: the Verify read around it gives its own.
    d = _tiny_with((bad[0], replace(bad[1], cond=Pieces("friend", ("ghost",))), *bad[2:]))
    with pytest.raises(DescriptionError, match=r"^mine\.txt:2:3: unknown piece type 'ghost'"):
        Rulebook(d)


def test_every_node_class_prints_and_reads_back() -> None:
    # Every kind of statement, condition and count the language has, once.
    source = (
        "n (n e) dir add capture flip mark back set-flag again (add-partial jump) "
        "(verify (and empty (or friend enemy) (not captured))) "
        "(if last-to (promote King) (else (change-type Man))) (do w) (anywhere add) "
        "(one-of e (do w w)) (while (piece Man King) n) (repeat (minus (line-pieces n) 1) n) "
        "(repeat 2 n) (repeat thrown n) "
        "(sweep (n e) dir) (set-attr moved) (clear-attr moved) (cascade (e e) (w)) "
        "(sow n) (sow-skip n) (rotate far clockwise) (goto two) (take-to store) "
        "(verify (next n (moving Man))) (verify (exists (in-zone far))) "
        "(verify (on-board n)) (verify (attr moved)) (verify (makes-line 3)) "
        "(verify (in-line 4)) (verify (only-lines 5)) (verify (pieces-at-most 2)) "
        "(verify (counters 3)) (verify (counters-at-least 1)) "
        "(verify (or last-from attacked check flipped flag at-origin true false)) "
        "(verify (>= (+ (number rank) (tally taken theirs)) (max thrown (number rank moving)))) "
        "(set-number rank 2) (add-tally taken 1) from to relay add-copy (go a1) (go from) "
        "(put Man) (put none mover n) (set-flag f) (clear-position-flag g) "
        "(verify (or (flag f) (at a1 (position-flag g))))"
    )
    tree = statements(read(source, "all.txt"))
    classes = {type(n).__name__ for n in walk(tree)}
    kinds, todo = set(), list(ProgramNode.__subclasses__())
    while todo:  # subclasses of subclasses too (SowSkip is a Sow)
        kind = todo.pop()
        kinds.add(kind.__name__)
        todo.extend(kind.__subclasses__())
    assert classes == kinds, sorted(kinds ^ classes)
    assert statements(read(text(tree), "again.txt")) == tree
