"""How a ZRF game looks (game.logic.zrf.look): the board's kind, checks, lines and tints,
the pieces' shapes and the players' colours that the translation writes, on small ZRF files
of our own (tests/data/zrf/look-*.zrf) and a few of the corpus (../shared/zrf/, when it is
beside the checkout); the forms ``(checkered ...)`` and ``(tint ...)`` in our own language;
and a rendered ZRF board whose positions all land inside the window."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest

from game.logic.rules.design import Design, parse
from game.logic.rules.sexpr import DescriptionError
from game.logic.zrf.load import decode, design

DATA = Path(__file__).parent / "data" / "zrf"
#: The corpus beside the checkout (another folder where ZRF_CORPUS names one).
CORPUS = Path(
    os.environ.get("ZRF_CORPUS") or Path(__file__).resolve().parent.parent.parent / "shared" / "zrf"
)


def _ours(name: str) -> Design:
    path = DATA / name
    return design(path.read_text(encoding="utf-8"), str(path))


def _corpus(relative: str, variant: int = 0) -> Design:
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip(f"the ZRF corpus is not beside the checkout ({CORPUS})")

    def include(name: str) -> str:
        return decode((path.parent / name).read_bytes())

    return design(decode(path.read_bytes()), str(path), variant, include)


def _shapes(d: Design) -> dict[str, str]:
    return {p.name: p.shape for p in d.pieces}


def _hex_colour(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


def test_chess_names_are_chess_models_and_a_piece_of_its_own_a_token() -> None:
    d = _ours("look-chess.zrf")
    assert _shapes(d) == {
        "King": "king",
        "Knight": "knight",
        "BerolinaPawn": "pawn",
        "Goblin": "pentagon",
    }
    assert d.board.kind == "square"
    assert d.board.look.checkered == 0  # a1 dark, as a chess board's
    a1, b1 = d.board.index("a1"), d.board.index("b1")
    assert a1 in d.board.dark and b1 not in d.board.dark
    white, black = d.board.look.tinted  # each side's promotion row, in its own colour
    assert {d.board.names[p] for p in white} == {"a4", "b4", "c4", "d4"}
    assert {d.board.names[p] for p in black} == {"a1", "b1", "c1", "d1"}
    assert [_hex_colour(c) for c in d.colours] == ["#ede6d1", "#292629"]


def test_draughts_men_stand_on_the_dark_squares_and_players_take_their_named_colours() -> None:
    d = _ours("look-draughts.zrf")
    assert _shapes(d) == {"Man": "man", "King": "king"}
    assert d.board.look.checkered == 1  # the men stand on b1 and d1: a1 is light
    assert {d.board.names[p] for p in d.board.dark} >= {"b1", "d1", "a4", "c4"}
    assert [_hex_colour(c) for c in d.colours] == ["#cc3329", "#ede6d1"]


def test_positions_linked_at_sixty_degrees_are_hex_cells_on_an_exact_lattice() -> None:
    d = _ours("look-hex.zrf")
    assert d.board.kind == "hex"
    xy = dict(zip(d.board.names, d.board.xy, strict=True))
    for name in ("e1", "w1", "ne", "nw", "se", "sw"):
        assert math.dist(xy["c"], xy[name]) == pytest.approx(1.0, abs=1e-3)
    assert _shapes(d) == {"Stone": "stone"}
    assert [_hex_colour(c) for c in d.colours] == ["#292629", "#ede6d1"]


def test_levels_drawn_at_the_same_pixels_are_spread_with_their_short_links_as_lines() -> None:
    d = _ours("look-levels.zrf")
    xy = dict(zip(d.board.names, d.board.xy, strict=True))
    assert len(set(d.board.xy)) == len(d.board.xy)  # no two at one spot
    assert xy["a1"][0] < xy["c1"][0] < xy["e1"][0] and xy["a1"][1] == xy["c1"][1]
    assert d.board.kind == "points"
    drawn = {frozenset((d.board.names[p], d.board.names[q])) for p, q in d.board.lines}
    assert frozenset(("a1", "a2")) in drawn and frozenset(("a1", "b1")) in drawn
    assert frozenset(("a1", "c1")) not in drawn  # a link between levels: not a line
    assert len(drawn) == 12


@pytest.mark.parametrize(
    ("relative", "kind", "checkered", "shapes"),
    [
        ("checkers/zrf/english-checkers.zrf", "square", 0, {"Man": "man", "King": "king"}),
        ("arrange/zrf/hex.zrf", "hex", -1, {"Stone": "stone"}),
        ("morris/zrf/3d-morris.zrf", "points", -1, {"Stone": "stone"}),
        ("checkers-like/zrf/bagh-chal.zrf", "points", -1, {"Goat": "pentagon"}),
        ("go/zrf/atari-go.zrf", "points", -1, {"Stone": "stone"}),
        ("shogi/zrf/heian-shogi.zrf", "square", -1, {"Gold": "pentagon"}),  # oblong cells
        ("checkers-like/zrf/camelot.zrf", "square", 0, {"Knight": "knight"}),
    ],
)
def test_corpus_boards_read_as_their_games(
    relative: str, kind: str, checkered: int, shapes: dict[str, str]
) -> None:
    d = _corpus(relative)
    assert d.board.kind == kind
    assert d.board.look.checkered == checkered
    assert shapes.items() <= _shapes(d).items()


def test_checkered_and_tint_in_our_own_language() -> None:
    text = """(game look) (players White Black)
    (board (positions (a1 0 0) (b1 1 0) (a2 0 1) (b2 1 1)) (directions (n 0 1))
           (kind square) (checkered light)
           (zone goal (White a2 b2) (Black a1 b1)) (tint goal))
    (piece Man (moves (move m n add)))
    (setup (White (Man a1)) (Black (Man b2))) (end (draw stuck))"""
    d = parse(text, "look.txt")
    assert {d.board.names[p] for p in d.board.dark} == {"b1", "a2"}
    assert [{d.board.names[p] for p in part} for part in d.board.look.tinted] == [
        {"a2", "b2"},
        {"a1", "b1"},
    ]
    plain = parse(text.replace("(checkered light)", "").replace("(tint goal)", ""), "look.txt")
    assert plain.board.dark == frozenset() and plain.board.look.tinted == ()
    with pytest.raises(DescriptionError, match=r"look.txt:3:\d+: \(checkered dark\)"):
        parse(text.replace("(checkered light)", "(checkered grey)"), "look.txt")
    with pytest.raises(DescriptionError, match="no zone 'goals'"):
        parse(text.replace("(tint goal)", "(tint goals)"), "look.txt")


@pytest.mark.parametrize("name", ["look-levels.zrf", "look-hex.zrf", "look-chess.zrf"])
def test_a_rendered_zrf_board_lands_inside_the_window(
    director: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    from game.games.rules.controller import BoardController
    from game.logic.rules import catalogue
    from game.registry import MemorySession

    made = catalogue.made_rulebook(_ours(name))
    game_id = made.design.id
    monkeypatch.setattr(catalogue, "rulebook", lambda gid, values=None: made)
    session = MemorySession({"first": "human", "second": "human", "time_per_move": 0.05})
    director.register(game_id, lambda: BoardController(session, game=game_id))
    director.switch(game_id)
    controller = director.controller
    assert isinstance(controller, BoardController) and controller.board is not None
    w, h = director.window_size()
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    for p in controller.board.playable:
        clip = vp @ [*controller.board.world(p), 1.0]
        x, y = (clip[0] / clip[3] + 1) / 2 * w, (clip[1] / clip[3] + 1) / 2 * h
        assert 0 < x < w and 0 < y < h, (name, controller.design.board.names[p], x, y)


def test_hex_sides_are_tinted_with_the_players_colours() -> None:
    """Hex's start and stop zones (its sides) take their owner's colour, as our own Hex's
    goal edges do; the corner a1 is on both players' sides."""
    d = _corpus("arrange/zrf/hex.zrf")
    red, blue = ({d.board.names[p] for p in part} for part in d.board.look.tinted)
    assert {"a1", "k1", "a11", "k11"} <= red and {"a1", "a11", "k1", "k11"} <= blue
    assert "f6" not in red | blue


def test_a_point_that_no_drawn_line_passes_through_keeps_its_dot(
    director: Any, tmp_path: Path
) -> None:
    """With ``(lines ...)`` the lines' crossings are the points; a point off every line
    (Luzhanqi's camps, a reserve) still shows as a dot, and one inside a line shows none."""
    from game.games.rules.controller import BoardController
    from game.registry import MemorySession

    path = tmp_path / "dots.txt"
    path.write_text(
        """(game dots) (players White Black)
        (board (positions (a 0 0) (b 1 0) (c 2 0) (d 1 2)) (directions (e 0 0))
               (link e (a b) (b c)) (lines (a c)))
        (piece Man (moves (move m e add)))
        (setup (White (Man a)) (Black (Man c))) (end (draw stuck))""",
        encoding="utf-8",
    )
    session = MemorySession({"first": "human", "second": "human", "time_per_move": 0.05})
    director.register("dots", lambda: BoardController(session, description=path))
    director.switch("dots")
    board = director.controller.board
    dots = [n for n in director.scene if n.name.startswith("point-")]
    assert len(dots) == 1
    assert dots[0].position.tolist() == pytest.approx(board.world(3).tolist())


def test_twelve_players_some_named_for_no_colour_each_get_a_colour_of_their_own() -> None:
    # Sovereign Chess's players: Navy, Ash and Slate are colours too; players past the free
    # colours take their second tones instead of running out.
    names = "White Black Pink Red Orange Yellow Green Cyan Navy Violet Ash Slate"
    for players in (names, "White " + " ".join(f"Side{k}" for k in range(1, 12))):
        text = (DATA / "look-draughts.zrf").read_text(encoding="utf-8")
        text = text.replace("(players Red White)", f"(players {players})")
        text = text.replace("(turn-order Red White)", f"(turn-order {players})")
        first, second = players.split()[:2]
        text = text.replace("(Red (Man", f"({first} (Man").replace("(White (Man", f"({second} (Man")
        d = design(text, "twelve.zrf")
        colours = [_hex_colour(c) for c in d.colours]
        assert len(colours) == 12 and len(set(colours)) == 12, colours
        assert colours[0] == "#ede6d1"  # White
