"""The description language: what it accepts, and the errors it gives (file, line, column,
and what is wrong) for what it does not."""

from __future__ import annotations

import pytest

from game.logic.rules.catalogue import design, rulebook, shipped
from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError

SMALL = """
(game tiny)
(players A B)
(board (grid (columns a b c) (rows 1 2 3))
       (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1) (s 0 -1) (w -1 0) (sw -1 -1) (se 1 -1)))
(piece mark (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))
"""


def _error(text: str) -> DescriptionError:
    with pytest.raises(DescriptionError) as caught:
        Rulebook(parse(text, "my.txt"))
    return caught.value


def test_a_small_description_makes_a_game() -> None:
    e = Rulebook(parse(SMALL, "tiny.txt"))
    assert e.perft(e.start(), 2) == 72


@pytest.mark.parametrize(
    ("change", "where", "says"),
    [
        (("(rows 1 2 3)", "(rows 1 2 3"), (4, 1), "never closed"),
        (("(verify empty)", "(verify emty)"), (6, 40), "unknown condition 'emty'"),
        (("(line 3)", "(line x)"), (7, 17), "expected a whole number"),
        (("(piece mark", "(piece mark (shape blob)"), (6, 20), "unknown shape 'blob'"),
        (("(game tiny)", "(game Tiny!)"), (2, 7), "lower-case"),
        (("add)))", "jump)))"), (6, 47), "unknown statement 'jump'"),
        (("(end (win (line 3)) (draw full))", ""), (), "has no (end ...)"),
        (("(players A B)", "(players A B C D E F G H I J K L M)"), (3, 1), "not 13"),
    ],
)
def test_errors_name_the_line_and_column(
    change: tuple[str, str], where: tuple[int, ...], says: str
) -> None:
    old, new = change
    assert old in SMALL
    error = _error(SMALL.replace(old, new, 1))
    assert says in str(error)
    assert str(error).startswith("my.txt:" + "".join(f"{n}:" for n in where))
    if where:
        assert (error.line, error.column)[: len(where)] == where


def test_a_macro_with_the_wrong_number_of_arguments_is_named() -> None:
    text = SMALL.replace(
        "(piece mark (drops (move place (verify empty) add)))",
        "(define (put d) (verify empty) add)\n(piece mark (drops (move place (put))))",
    )
    error = _error(text)
    assert "macro 'put' takes 1 arguments, not 0" in str(error)


BOAT = """
(game boat)
(players A B)
(board (grid (columns a b c d e) (rows 1 2 3 4 5))
       (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1) (s 0 -1) (w -1 0) (sw -1 -1) (se 1 -1)))
(define (jump x y) x y (verify (not friend)) add)
(piece Boat (moves (move boat (one-of (jump ne ne) (jump nw nw)))))
(setup (A (Boat c1)) (B (Boat c5)))
(end (win stuck))
"""


def test_a_macro_of_several_statements_is_one_alternative_of_one_of() -> None:
    """Each call is one way through the one-of: two steps and a landing, not three ways of
    one statement each (which would add the boat where it stands)."""
    from game.logic.rules.notation import move_texts

    e = Rulebook(parse(BOAT, "boat.txt"))
    pos = e.start()
    assert sorted(move_texts(e, pos, e.legal(pos))) == ["c1-a3", "c1-e3"]


def test_a_loop_that_never_moves_is_refused_and_one_going_round_fails() -> None:
    text = SMALL.replace("(verify empty) add", "(verify empty) (while empty mark) add")
    with pytest.raises(DescriptionError, match=r"loop\.txt:6:47: this while never moves"):
        parse(text, "loop.txt")
    text = SMALL.replace("(verify empty) add", "(verify empty) (while empty n s) add")
    e = Rulebook(parse(text, "loop.txt"))
    assert e.legal(e.start()) == []  # back and forth for ever: it fails instead of hanging


def test_a_loop_that_comes_round_adds_each_move_once() -> None:
    """A loop that steps and comes back (north then south) adds its move on the first pass
    and fails when it stands again where a pass began: it added the same drop once a pass,
    27 times, until its cap."""
    for body in ("(while empty add n s)", "(while empty add e w) add"):
        text = SMALL.replace("(verify empty) add", f"(verify empty) {body}")
        e = Rulebook(parse(text, "loop.txt"))
        moves = e.legal(e.start())
        assert len(moves) == 9, body  # one drop on each of the nine points
        assert len({str(m) for m in moves}) == 9


def test_every_shipped_description_is_short_and_lists_its_hooks() -> None:
    for game_id in shipped():
        d = design(game_id)
        limit = 200 if game_id == "chess" else 150
        assert d.lines <= limit, f"{game_id}: {d.lines} lines"
        assert not d.hooks, f"{game_id} uses Python hooks {d.hooks}: list them in the docs"
        assert d.about, f"{game_id} says nothing about its rules"


def test_generated_code_holds_no_word_of_the_description() -> None:
    """The compiled generators are built from integers and table names only."""
    source = rulebook("chess").c.source
    for word in ("Pawn", "Queen", "castle", "last-rank", "moved"):
        assert word not in source


def test_a_mill_takes_a_man_not_in_a_mill() -> None:
    """Nine Men's Morris: closing a mill takes an enemy man, never one standing in a mill
    while another is free; the move's text names the man taken."""
    from game.logic.rules.notation import move_texts, read_position

    e = rulebook("nine-mens-morris")
    pos = read_position(e, "White: Man a1 d1 b2 / Black: Man a7 d7 g7 f4 / White to move")
    pos.hands = ((0,), (0,))
    moves = e.legal(pos)
    texts = move_texts(e, pos, moves)
    closing = [t for t in texts if t.startswith("b2-") and "x" in t]
    assert closing, texts
    # a7 d7 g7 is a mill; f4 is free, so only f4 may be taken.
    assert all(t.endswith("xf4") for t in closing), closing


def test_a_surakarta_capture_must_pass_a_loop() -> None:
    """a2 and c2 share a line, but a capture needs a loop on the way: with b1 blocked every
    route from a2 through a loop is shut; with b1 empty the long way round (through four
    loops) reaches c2."""
    from game.logic.rules.notation import read_position

    e = rulebook("surakarta")
    index = e.design.board.index
    blocked = read_position(e, "Black: Stone a2 b1 / White: Stone c2 / Black to move")
    assert not [m for m in e.legal(blocked) if m[1] and m[0][0] == index("a2")]
    open_ = read_position(e, "Black: Stone a2 / White: Stone c2 / Black to move")
    captures = [m for m in e.legal(open_) if m[1]]
    assert [(m[0], m[1]) for m in captures] == [((index("a2"), index("c2")), (index("c2"),))]


def test_a_bashni_capture_takes_the_top_piece_under_the_capturing_column() -> None:
    from game.logic.rules.notation import move_texts, position_text, read_position
    from game.logic.rules.state import RulesState

    e = rulebook("bashni")
    pos = read_position(e, "White: Man c3 / Black: Man d4[mM], Man f6 / White to move")
    moves = e.legal(pos)
    assert move_texts(e, pos, moves) == ["c3xe5xg7"]
    e.make(pos, moves[0])
    # d4 keeps its lower pieces, now a white column; the mover carries both tops under it.
    assert position_text(e, pos) == "White: Man d4[m] g7[mm] / Black:  / Black to move"
    state = RulesState(e, pos)
    assert (27, [(1, "Man"), (1, "Man"), (0, "Man")]) in state.stacks()
    assert state.is_terminal() and state.returns() == (1.0, -1.0)


def test_moves_that_read_alike_are_told_apart() -> None:
    """Each promotion choice names its piece, each text reads back to its own move."""
    from game.logic.rules.notation import move_texts, parse_move, read_position

    e = rulebook("chess")
    pos = read_position(e, "8/P7/8/8/8/8/8/k6K w - - 0 1")
    moves = e.legal(pos)
    texts = move_texts(e, pos, moves)
    promotions = sorted(t for t in texts if t.startswith("a7-a8"))
    assert promotions == ["a7-a8=B", "a7-a8=N", "a7-a8=Q", "a7-a8=R"]
    assert len(set(texts)) == len(texts)
    for move, text in zip(moves, texts, strict=True):
        assert parse_move(e, pos, moves, texts, text) == move


def test_a_placement_that_closes_a_mill_removes_the_man_it_takes() -> None:
    from game.logic.rules.notation import move_texts, read_position

    e = rulebook("nine-mens-morris")
    pos = read_position(e, "White: Man a1 d1 / Black: Man a7 b6 / White to move")
    pos.hands = ((5,), (5,))
    moves = e.legal(pos)
    texts = move_texts(e, pos, moves)
    index = e.design.board.index
    take = moves[texts.index("g1 xa7")]
    e.make(pos, take)
    assert pos.board[index("a7")] == 0 and pos.board[index("g1")] != 0
    assert pos.hands == ((4,), (5,))


def test_the_long_form_names_the_piece_and_the_move() -> None:
    import random

    from game.logic.rules.state import RulesGame

    state = RulesGame(rulebook("chess")).initial_state(random.Random(0))
    assert state.describe(state.parse_action("e2-e4")) == "Pawn double-step e2-e4"
    assert state.describe(state.parse_action("g1-f3")) == "Knight jump g1-f3"


def test_parameters_set_a_board_and_a_line() -> None:
    """Gomoku as an m,n,k-game: 3 x 3 with three in a row is tic-tac-toe's tree."""
    from game import registry
    from game.logic.rules.catalogue import rulebook as rulebook_with

    small = rulebook_with("gomoku", {"width": 3, "height": 3, "k": 3})
    assert [small.perft(small.start(), d) for d in (1, 2, 5)] == [9, 72, 15120]
    assert len(rulebook("gomoku").design.board.names) == 225
    entry = registry.get("gomoku")
    assert {"width", "height", "k"} <= set(entry.options.names())
    game = entry.game({"width": 4, "height": 4, "k": 3})
    assert len(game.rulebook.design.board.names) == 16  # type: ignore[attr-defined]


def test_parameter_mistakes_are_named() -> None:
    text = SMALL.replace("(line 3)", "(line $k)")
    assert "no parameter 'k'" in str(_error(text))
    declared = '(parameter k 3 3 5 "in a row")\n' + text
    assert Rulebook(parse(declared, "k.txt", {"k": 4})).design.values == {"k": 4}
    with pytest.raises(DescriptionError, match="k must be from 3 to 5, not 9"):
        parse(declared, "k.txt", {"k": 9})
    with pytest.raises(DescriptionError, match="other than"):
        parse("(parameter first 1 1 2)\n" + SMALL, "p.txt")


def test_neutron_turns_move_the_neutron_then_a_soldier() -> None:
    """The turn order gives each step a move type; the neutron is anyone's to move; it wins
    for the player whose home row it reaches, whoever moved it there."""
    import random

    from game.logic.rules.state import RulesGame

    state = RulesGame(rulebook("neutron")).initial_state(random.Random(0))
    assert all(t.startswith(("a1", "b1", "c1", "d1", "e1")) for t in state.texts())
    state = state.apply(state.parse_action("a1-a4"))
    assert state.current_player() == 1 and all(t.startswith("c3") for t in state.texts())
    assert ("c3-a1" in state.texts()) and ("c3-c4" in state.texts())
    lost = state.apply(state.parse_action("c3-a1"))  # Black takes it to White's home row
    assert lost.is_terminal() and lost.returns() == (1.0, -1.0)
    state = state.apply(state.parse_action("c3-c4"))
    assert state.current_player() == 1  # Black's soldier now
    assert all(not t.startswith("c4") for t in state.texts())
    assert next(p for p in state.pieces() if p[2] == "Neutron")[1] == -1


def test_unmake_puts_back_every_field_that_make_saves() -> None:
    """What make saves besides the board (rulebook._SAVED_FIELDS) and what unmake assigns
    back are written in two places: each field comes back from its own place in the tuple."""
    from game.logic.rules import rulebook as module

    e = rulebook("chess")
    pos = e.start()
    marks = tuple(object() for _ in module._SAVED_FIELDS)
    e.unmake(pos, ([], marks))
    assert [getattr(pos, name) for name in module._SAVED_FIELDS] == list(marks)
    pos = e.start()
    before = [getattr(pos, name) for name in module._SAVED_FIELDS]
    e.unmake(pos, e.make(pos, e.legal(pos)[0]))
    assert [getattr(pos, name) for name in module._SAVED_FIELDS] == before
