"""ZRF's players read by the ZRF reader: a puzzle of one player, a random player (``?Coin``),
and the player lists and turns it refuses, on small ZRF files of our own
(``tests/data/zrf/``) whose counts are worked out by hand, and the corpus's peg solitaire
against ``perft.tsv`` where the corpus sits beside the checkout."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from game.logic.contract import CHANCE, sample_chance
from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame
from game.logic.zrf.lexer import decode
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "zrf"


def _rulebook(name: str, text: str | None = None, variant: int = 0) -> Rulebook:
    path = DATA / name
    return made_rulebook(design(text or decode(path.read_bytes()), str(path), variant, None))


def test_a_puzzle_of_one_player_loads_and_moves_every_turn() -> None:
    rulebook = _rulebook("tiny-slide.zrf")
    assert rulebook.design.players == ("You",)
    # The hole's walks on 3 x 2: from a corner 2 ways, from b1 or b2 three.
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3, 4)] == [3, 7, 17, 41]
    state = RulesGame(rulebook).initial_state(random.Random(0))
    rng = random.Random(2)
    for _ in range(200):
        assert state.current_player() == 0
        state = state.apply(rng.choice(list(state.legal_actions())))


def test_a_random_player_chooses_by_chance_and_each_outcome_counts() -> None:
    rulebook = _rulebook("coin-race.zrf")
    assert rulebook.design.random_players == (2,)
    assert rulebook.design.players == ("White", "Black", "Coin")  # ?Coin, its ? dropped
    # ?Coin drops on 3, then 2, then 1 empty cells; each Man has its one step; then the
    # tray is full and ?Coin, with no move, ends the game.
    counts = [rulebook.perft(rulebook.start(), k) for k in range(1, 8)]
    assert counts == [3, 3, 6, 6, 6, 6, 0]
    state = RulesGame(rulebook).initial_state(random.Random(0))
    assert state.current_player() == CHANCE
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    rng = random.Random(1)
    while not state.is_terminal():
        chance = state.current_player() == CHANCE
        state = state.apply(
            sample_chance(state, rng) if chance else rng.choice(list(state.legal_actions()))
        )
    assert state.outcome() == "draw"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "(players White Black ?Coin)",
            "(players A B C D E F G H I J K L ?Coin)",
            r"coin-race.zrf:5:3: 13 players: the engine plays games of 1 to 12",
        ),
        (
            "(players White Black ?Coin)",
            "(players ?Coin)",
            r"coin-race.zrf:5:3: every player is random",
        ),
    ],
)
def test_players_the_engine_cannot_play_are_refused_with_their_place(
    old: str, new: str, message: str
) -> None:
    text = decode((DATA / "coin-race.zrf").read_bytes())
    assert old in text
    with pytest.raises(DescriptionError, match=message):
        _rulebook("coin-race.zrf", text.replace(old, new))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the ZRF corpus is not beside the checkout")
def test_peg_solitaire_counts_as_perft_tsv_says() -> None:
    wanted: dict[int, int] = {}
    with open(CORPUS / "perft.tsv", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            ours = (row["zrf_path"], row["variant_index"]) == ("solitaire/zrf/british.zrf", "0")
            if ours and row["status"] == "ok" and int(row["depth"]) <= 3:
                wanted[int(row["depth"])] = int(row["nodes"])
    path = CORPUS / "solitaire" / "zrf" / "british.zrf"
    rulebook = made_rulebook(design(decode(path.read_bytes()), str(path), 0, None))
    assert rulebook.design.players and len(rulebook.design.players) == 1
    assert wanted and {d: rulebook.perft(rulebook.start(), d) for d in wanted} == wanted


def test_a_turn_of_a_move_type_no_piece_has_offers_no_move() -> None:
    text = decode((DATA / "coin-race.zrf").read_bytes())
    text = text.replace("(turn-order ?Coin White ?Coin Black)", "(turn-order (White setup) Black)")
    rulebook = _rulebook("coin-race.zrf", text)
    assert rulebook.perft(rulebook.start(), 1) == 0
    moving = text.replace("(turn-order (White setup) Black)", "(turn-order Black (White setup))")
    rulebook = _rulebook("coin-race.zrf", moving)
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2)] == [1, 0]


def test_a_variant_written_before_the_game_takes_the_games_players() -> None:
    text = decode((DATA / "tiny-slide.zrf").read_bytes())
    before = '(variant (title "Two tiles") (board-setup (You (Red a1) (Tile b1 c2))))\n'
    at = text.index("(game")
    rulebook = _rulebook("tiny-slide.zrf", text[:at] + before + text[at:], 0)
    assert rulebook.design.players == ("You",)
    # Holes at a2, b2 and c1: Red a1 up; b1 up or right; c2 down or left.
    assert rulebook.perft(rulebook.start(), 1) == 5


def test_a_turn_in_which_one_player_moves_anothers_pieces() -> None:
    text = decode((DATA / "coin-race.zrf").read_bytes())
    turns = "(turn-order ?Coin White ?Coin Black)"
    # ?Coin moves White's man (its one step, by chance), drops a Pip (3 ways), Black steps.
    rulebook = _rulebook(
        "coin-race.zrf", text.replace(turns, "(turn-order (?Coin White) ?Coin Black)")
    )
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3)] == [1, 3, 3]
    state = RulesGame(rulebook).initial_state(random.Random(0))
    assert state.current_player() == CHANCE and state.texts() == ["a1-b1"]
    # White moves Black's man: White to choose, Black's step the move.
    rulebook = _rulebook("coin-race.zrf", text.replace(turns, "(turn-order (White Black) Black)"))
    state = RulesGame(rulebook).initial_state(random.Random(0))
    assert state.current_player() == 0 and state.texts() == ["a2-b2"]


def test_the_hints_search_solves_a_zrf_puzzle_by_its_goal_in_the_fewest_moves() -> None:
    from game.logic.rules.puzzle import solve

    text = decode((DATA / "tiny-slide.zrf").read_bytes())
    goal = "  (win-condition (You) (absolute-config Red (b2)))\n"
    at = text.rindex(")")
    rulebook = _rulebook("tiny-slide.zrf", text[:at] + goal + text[at:])
    pos = rulebook.start()
    found = solve(rulebook, pos, 10_000)
    # Red (a1) needs five slides at least to reach the hole's square b2: b1-b2, a1-b1 (Red),
    # a2-a1, b2-a2, b1-b2 (Red); the breadth-first search finds a line of that length.
    assert len(found.moves) == 5
    for move in found.moves:
        rulebook.make(pos, move)
    red = rulebook.design.type_index("Red")
    assert rulebook.c.kind_of[pos.board[rulebook.design.board.index("b2")]] == red
