"""Perft parity for the described games: every count published for the shipped games (see
the rules language's docs). CI checks each position at every depth up to the first whose
count is over :data:`NODE_CAP` (the games of :data:`PAST_CAP` to the depth it gives; where a
game's counts part from its parent game's only deeper, a position of a few pieces tells them
apart here); ``benchmarks/slow_checks.py`` checks every depth listed here, and
``benchmarks/rules_perft.py`` deeper ones. A failure prints the divide of the first differing
depth so the move that is wrong can be found."""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import read_position
from game.logic.rules.perft import divide
from game.logic.rules.state import RulesGame
from tests.deep import sized

#: The largest count CI runs to; None under benchmarks/slow_checks.py: every depth. Each
#: draughts game's 7th depth and chess's 4th from the start were most of their time (about 20
#: CPU seconds in all); their depths below it already hold captures (English, Russian and
#: Brazilian draughts part at depth 5 through them) and still tell each game from its parent
#: where CI told them apart before, and chess's Kiwipete and positions 3 to 5 keep castling,
#: en passant, promotions and mates to depth 3 or 4.
NODE_CAP = sized(100_000, None)
#: Depths CI runs past the cap: Surakarta's 4th, the first with captures (along the loops,
#: the rule that is its own). Tic-tac-toe's 7th, the first that counts the second player's
#: wins (at ply 6, the games that end there have no 7th move), was 2 of its 2.7 CPU s; CI counts
#: those wins from positions four plies in instead
#: (test_tic_tac_toe_paths_end_at_either_players_line), slow_checks.py its 7th and deeper.
PAST_CAP = {"surakarta": 4}

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
RANDOM178 = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
WOLDOUBY = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"

CASES = [
    ("tic-tac-toe", "", [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]),
    ("chess", "", [20, 400, 8902, 197281]),
    ("chess", KIWIPETE, [48, 2039, 97862]),
    ("chess", POSITION_3, [14, 191, 2812, 43238]),
    ("chess", POSITION_4, [6, 264, 9467]),
    ("chess", POSITION_5, [44, 1486, 62379]),
    ("english-draughts", "", [7, 49, 302, 1469, 7361, 36768, 179740, 845931]),
    ("russian-draughts", "", [7, 49, 302, 1469, 7482, 37986, 190146]),
    ("international-draughts", "", [9, 81, 658, 4265, 27117, 167140]),
    ("international-draughts", RANDOM178, [14, 55, 1168, 5432]),
    ("international-draughts", WOLDOUBY, [6, 12, 30, 73]),
    ("brazilian-draughts", "", [7, 49, 302, 1469, 7473, 37628, 187302]),
    # Pool checkers parts from Russian draughts at depth 8 (a man crowned only at the end;
    # test_pool_checkers_crowns_a_man_only_where_its_move_ends tells them apart in CI).
    ("pool-checkers", "", [7, 49, 302, 1469, 7482, 37986, 190146, 929896]),
    # Czech draughts parts from English draughts at depth 9 (benchmarks/rules_perft.py).
    ("czech-draughts", "", [7, 49, 302, 1469, 7361, 36768, 179740]),
    ("othello", "", [4, 12, 56, 244, 1396, 8200, 55092]),
    ("breakthrough", "", [22, 484, 11132]),
    ("gomoku", "", [225, 50400]),
    # Bashni: as Russian draughts until a capture leaves a column behind (depth 6).
    ("bashni", "", [7, 49, 302, 1469, 7482]),
    # Surakarta: the counts of the Regular Games project's test list (the same rules).
    ("surakarta", "", [16, 256, 5382, 111122]),
    # Kalah: as a Kalah written by hand in tests/test_rules_kalah.py counts.
    ("kalah", "", [6, 35, 185, 942, 4690, 23233, 114430]),
    # Nine Men's Morris: 24 * 23 * 22 * 21 placements before any mill can close.
    ("nine-mens-morris", "", [24, 552, 12144, 255024]),
]


@pytest.mark.deep
@pytest.mark.parametrize(
    ("game", "position", "counts"),
    CASES,
    ids=[f"{g}-{'start' if not p else p.split()[0][:12]}" for g, p, _ in CASES],
)
def test_perft_matches_the_published_counts(game: str, position: str, counts: list[int]) -> None:
    e = rulebook(game)
    pos = read_position(e, position) if position else e.start()
    capped = False
    for depth, want in enumerate(counts, 1):
        over = NODE_CAP is not None and want > NODE_CAP and depth > PAST_CAP.get(game, 0)
        capped = capped or over
        if capped:
            break
        got = e.perft(pos.copy(), depth)
        if got != want:
            lines = "\n".join(f"{t} {n}" for t, n in divide(e, pos, depth))
            pytest.fail(f"{game} perft({depth}) = {got}, want {want}; divide:\n{lines}")


@pytest.mark.parametrize(
    ("position", "russian", "pool"),
    [
        # White's man jumps c7 to the far row, d8. A Russian king goes on along d8-h4 over
        # f6; a pool checkers man cannot (f6 is not next to it) and is crowned on d8.
        ("W:Wb6:Bc7,f6", {"b6xd8xg5": "B:WKg5:B", "b6xd8xh4": "B:WKh4:B"}, {"b6xd8": "B:WKd8:Bf6"}),
        # Over e7 as well: the pool checkers man takes it as a man, jumping back to f6, and
        # stays a man; the Russian king may stop on any square past it.
        (
            "W:Wb6:Bc7,e7",
            {"b6xd8xf6": "B:WKf6:B", "b6xd8xg5": "B:WKg5:B", "b6xd8xh4": "B:WKh4:B"},
            {"b6xd8xf6": "B:Wf6:B"},
        ),
    ],
)
def test_pool_checkers_crowns_a_man_only_where_its_move_ends(
    position: str, russian: dict[str, str], pool: dict[str, str]
) -> None:
    """Every move, and the position after it, worked out by hand from the two rule books."""
    for game, want in (("russian-draughts", russian), ("pool-checkers", pool)):
        state = RulesGame(rulebook(game), {"position": position}).initial_state(random.Random(0))
        got = {state.action_text(a): state.apply(a).text() for a in state.legal_actions()}
        assert got == want, game


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _tic_tac_toe_paths(cells: list[str], mark: str, depth: int, ending: str = "XO") -> int:
    """Tic-tac-toe's move paths of ``depth`` from ``cells`` (squares a1, b1, c1, a2, ...),
    counted square by square: a line of a mark in ``ending`` ends a path early (it counts 0)."""
    if depth == 0:
        return 1
    if any(cells[a] in ending and cells[a] == cells[b] == cells[c] for a, b, c in LINES):
        return 0
    paths = 0
    for i, cell in enumerate(cells):
        if cell == " ":
            cells[i] = mark
            paths += _tic_tac_toe_paths(cells, "O" if mark == "X" else "X", depth - 1, ending)
            cells[i] = " "
    return paths


def test_tic_tac_toe_paths_end_at_either_players_line() -> None:
    """From positions four plies in (two marks each), three plies more: the paths through a
    line of O made at ply 6 end there, as the published 7th count (148,176) says they must.
    The description's counts equal counts made square by square, and in some of these
    positions O's lines take paths away (the check tells the rule from its absence)."""
    e = rulebook("tic-tac-toe")
    game = RulesGame(e)
    o_ended = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.initial_state(rng)
        cells = [" "] * 9
        for ply in range(4):
            move = rng.choice(list(state.legal_actions()))
            text = state.action_text(move)
            cells["abc".index(text[0]) + 3 * (int(text[1]) - 1)] = "XO"[ply % 2]
            state = state.apply(move)
        want = _tic_tac_toe_paths(cells, "X", 3)
        assert e.perft(read_position(e, state.text()), 3) == want, (state.text(), cells)
        o_ended += want < _tic_tac_toe_paths(cells, "X", 3, ending="X")
    assert o_ended >= 1


def test_perft_leaves_the_position_unchanged() -> None:
    e = rulebook("chess")
    pos = read_position(e, KIWIPETE)
    before = e.key(pos)
    assert e.perft(pos, 2) == 2039
    assert e.key(pos) == before


def test_duplicate_captures_count_once_where_the_game_merges_them() -> None:
    """In Random178 the black kings reach the same end over the same pieces by many routes:
    International draughts (merged identity) counts 14 moves; the same rules counting
    every path count more."""
    from game.logic.rules.catalogue import path_of
    from game.logic.rules.design import parse
    from game.logic.rules.rulebook import Rulebook

    merged = rulebook("international-draughts")
    text = path_of("international-draughts").read_text(encoding="utf-8")
    by_path = Rulebook(parse(text.replace("(identity from-to-captured)", "(identity path)")))
    assert merged.perft(read_position(merged, RANDOM178), 1) == 14
    assert by_path.perft(read_position(by_path, RANDOM178), 1) > 14
