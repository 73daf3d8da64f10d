"""Check (a royal piece must never be left where an opponent's move could take it), tested
against its definition: every move of the opponent generated forward, looking for one that
captures the royal piece. The rulebook answers instead by walking the opponent's programs
backwards from the royal piece where that is exact (see game.logic.rules.attacks), running
the rest forward, and probing again only what a move changed; these tests compare it with
the definition on random positions of every shipped game, each piece type made royal in turn,
and on positions where a walk backwards from the king tests a condition in the wrong place
(a xiangqi horse blocked beside its start, a soldier's move allowed across the river)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from game.logic.rules.catalogue import design, rulebook, shipped
from game.logic.rules.design import Design, parse
from game.logic.rules.notation import move_texts, read_position
from game.logic.rules.rulebook import DescribedPosition, Rulebook
from tests.deep import sized

CANNONS = Path(__file__).parent / "data" / "cannons.txt"


def captures_by(e: Rulebook, pos: DescribedPosition, by: int) -> list[tuple[int, ...]]:
    """The captured positions of every move ``by`` could make here: each program of each of
    its pieces run forward, a capture that goes on followed to its end, and drops from hand."""
    b, c = pos.board, e.c
    found: list[tuple[int, ...]] = []
    for f, v in enumerate(b):
        if not v or (c.owner[v] != by and c.kind_of[v] not in e.shared):
            continue
        gen = c.gen[c.kind_of[v]][by]
        if gen is None:
            continue
        out: list[Any] = []
        gen(b, f, out, pos.last_from, pos.last_to, (), v)
        for to, cap, eff, mc, pid, partial in out:
            found.append(cap)
            if partial is not None:
                lf, lt = pos.last_from, pos.last_to
                chains = e._chains(b, by, f, to, cap, eff, mc, pid, partial, lf, lt)
                found.extend(m[1] for m in chains)
    for t, row in enumerate(c.drops):
        drop = row[by]
        if drop is None or (e.limited_hands and not pos.hands[by][t]):
            continue
        for f in range(e.n):
            out = []
            drop(b, f, out, pos.last_from, pos.last_to, (), c.code(by, t))
            found.extend(r[1] for r in out)
    return found


def legal_by_definition(e: Rulebook, pos: DescribedPosition) -> list[Any]:
    """The moves after which no move of the opponent captures a royal piece of the mover."""
    player = e.player(pos)
    enemy = (player + 1) % e.players
    safe = []
    for move in e.pseudo(pos):
        after = pos.copy()
        e.make(after, move)
        kings = e.royal_squares(after.board, player)
        if not any(k in caps for caps in captures_by(e, after, enemy) for k in kings):
            safe.append(move)
    return safe


def playout_positions(e: Rulebook, seed: int, games: int, plies: int) -> list[DescribedPosition]:
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        pos = e.start()
        for _ in range(plies):
            seen.append(pos.copy())
            moves = e.legal(pos)
            if not moves or e.outcome(pos, moves) is not None:
                break
            e.make(pos, rng.choice(moves))
    return seen


def royal(d: Design, kind: int) -> Design:
    """``d`` with piece type ``kind`` royal (and no other)."""
    pieces = tuple(dataclasses.replace(p, royal=(t == kind)) for t, p in enumerate(d.pieces))
    return dataclasses.replace(d, pieces=pieces)


GAMES = [g for g in shipped() if not design(g).counters]
#: The piece types made royal in turn, at most (each a rulebook compiled: shogi's 14 types
#: cost ten CPU seconds); spread over the game's types, every one under the deep checks.
MOST_KINDS = sized(6, 64)


@pytest.mark.parametrize("game", GAMES)
def test_the_check_test_finds_what_the_opponents_moves_capture(game: str) -> None:
    """For each piece type made royal, on positions of random games: the check test says a
    piece of that type is attacked exactly when some move of the opponent captures it."""
    played = rulebook(game)
    positions = playout_positions(played, seed=11, games=4, plies=40)
    compared = 0
    kinds = range(len(played.design.pieces))
    for kind in kinds if len(kinds) <= MOST_KINDS else kinds[:: -(-len(kinds) // MOST_KINDS)]:
        e = Rulebook(royal(played.design, kind))
        for pos in positions[::3]:
            e.hands_now = pos.hands
            for by in range(e.players):
                caps = captures_by(e, pos, by)
                for square, v in enumerate(pos.board):
                    if not v or e.c.kind_of[v] != kind or e.c.owner[v] == by:
                        continue
                    want = any(square in cap for cap in caps)
                    got = e.attacked(pos.board, square, by, pos.last_from, pos.last_to)
                    assert got == want, (
                        f"{game}, {e.design.pieces[kind].name} on {e.design.board.names[square]}"
                        f" attacked by player {by}: {got}, by the moves: {want}"
                    )
                    compared += 1
    assert compared > 20


@pytest.mark.parametrize("game", ["chess", "xiangqi"])
def test_the_legal_moves_are_those_that_leave_no_royal_piece_capturable(game: str) -> None:
    e = rulebook(game)
    positions = playout_positions(e, seed=5, games=6, plies=80)
    assert len(positions) > 200
    for pos in positions[::2]:
        assert e.legal(pos) == legal_by_definition(e, pos)


def test_a_move_that_uncovers_a_horse_on_the_king_is_illegal() -> None:
    """The horse on d3 reaches c1 through d2, where the cannon stands: the cannon may not
    leave. Walking the horse's move backwards from the king tested the blocking point
    beside the king (c2, empty) and let the cannon go."""
    e = Rulebook(parse(CANNONS.read_text(encoding="utf-8"), "cannons.txt"))
    pos = read_position(e, "A: King c1, Cannon d2 / B: King e5, Horse d3 / A to move")
    assert sorted(move_texts(e, pos, e.legal(pos))) == ["c1-b1", "c1-c2", "c1-d1"]
    assert e.legal(pos) == legal_by_definition(e, pos)


def test_a_soldier_gives_check_sideways_once_across_the_river() -> None:
    """The soldier's sideways step is allowed where the soldier stands across the river;
    walking it backwards from the general asked that of the general's square."""
    e = rulebook("xiangqi")
    # A red soldier on d9 beside the black general on e9.
    assert e.in_check(read_position(e, "9/3Pk4/9/9/9/9/9/9/9/3K5 b"))
    # A black soldier on d1 beside the red general on e1.
    assert e.in_check(read_position(e, "3k5/9/9/9/9/9/9/9/9/3pK4 w"))
    # A black soldier on d5 (across) and the red general far away: no check.
    assert not e.in_check(read_position(e, "3k5/9/9/9/9/3p5/9/9/9/4K4 w"))


def test_probing_what_changed_gives_the_moves_of_probing_everything() -> None:
    """The shortcut (probe again only the programs that read a changed position) against
    probing every program after every move."""
    for text, name in ((None, "chess"), (CANNONS.read_text(encoding="utf-8"), "cannons")):
        d = design(name) if text is None else parse(text, f"{name}.txt")
        fast, full = Rulebook(d), Rulebook(d)
        assert fast.c.readers is not None  # the shortcut is in play
        full.c.readers = None
        for pos in playout_positions(fast, seed=7, games=10, plies=80):
            assert fast.legal(pos) == full.legal(pos)


def test_a_probe_that_reads_past_its_path_is_always_probed_in_full() -> None:
    # A piece that captures only when the position behind it is empty reads a position it
    # never stands on: its probe cannot say what it depends on.
    text = CANNONS.read_text(encoding="utf-8").replace(
        "(piece King (royal)",
        "(piece Guard (moves (move strike n (verify (next s empty)) (verify enemy) add)))\n"
        "(piece King (royal)",
    )
    assert Rulebook(parse(text, "guard.txt")).c.readers is None


def test_each_program_is_asked_the_cheapest_exact_way() -> None:
    """Chess: pawn pushes, en passant and castling cannot take a king (left out); every
    other program is walked backwards. A draughts man's capture goes on, so it is run
    forward."""
    e = rulebook("chess")
    modes = dict(
        zip(
            [
                f"{e.design.pieces[t].name} {pr.name}"
                for t, p in enumerate(e.design.pieces)
                for pr in p.programs
            ],
            e.c.check_modes,
            strict=True,
        )
    )
    assert modes["Pawn step"] == modes["Pawn en-passant-left"] == "none"
    assert modes["King castle-kingside"] == "none"
    assert modes["Pawn capture-left"] == modes["Knight jump"] == "probe"
    man = Rulebook(royal(design("english-draughts"), 1))
    assert "fallback" in man.c.check_modes
    assert man.slow == [True, True]
