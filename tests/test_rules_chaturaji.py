"""Chaturaji described as text against a small Chaturaji written here by hand from the rules
its description states (no program we did not write plays it): four players round an 8 x 8
board, two four-sided dice (2 a boat, 3 a horse, 4 an elephant, 5 the king or a pawn) thrown
before each turn and one move made for each, a die no piece can use lost, captures scored by
points and the first to 18 winning. The same moves along seeded random games played in both
side by side, and the same perft through the throws (the throw a ply, each die's move a ply)
from the start and from positions of those games."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from game.logic.contract import CHANCE, Limits, NotationError, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import read_position
from game.logic.rules.records import result_text
from game.logic.rules.state import RulesGame, RulesState
from game.logic.rules.win_numbers import win_numbers
from tests.deep import sized

#: Random games played in both Chaturajis, and the perft depth from their positions.
GAMES = sized(6, 24)
DEPTH = sized(3, 4)
#: The plies of each game at which a position is kept for perft.
KEPT = (8, 25, 45, 70)

COLUMNS = "abcdefgh"
FACES = (2, 3, 4, 5)
#: The throws of the two dice, smallest first, as the game lists them.
THROWS = [(a, b) for a in FACES for b in FACES if a <= b]
#: The piece types each throw moves, by letter.
MOVES_ON = {2: "B", 3: "H", 4: "E", 5: "KP"}
POINTS = {"P": 1, "B": 2, "H": 3, "E": 4, "K": 5}
TARGET = 18
#: Each player's forward: Red up, Blue right, Yellow down, Green left.
FORWARD = ((0, 1), (1, 0), (0, -1), (-1, 0))
ROYAL_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
HORSE_JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
BOAT_JUMPS = [(2, 2), (2, -2), (-2, 2), (-2, -2)]
ROOK_LINES = [(0, 1), (1, 0), (0, -1), (-1, 0)]

#: square (x, y) -> (owner, letter)
Board = dict[tuple[int, int], tuple[int, str]]


@dataclass
class Chaturaji:
    """A position of the hand-written game: the board, each player's points, the player to
    move and the dice the turn may still use (None: the dice are to be thrown)."""

    board: Board
    scores: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    turn: int = 0
    dice: tuple[int, ...] | None = None

    def over(self) -> bool:
        return max(self.scores) >= TARGET

    def moves(self) -> list[str]:
        """The moves the dice left allow the player (one die each), as the described game
        writes them; ``pass`` where no die moves anything."""
        assert self.dice is not None
        found = [
            text
            for (x, y), (owner, letter) in sorted(self.board.items())
            if owner == self.turn and any(letter in MOVES_ON[d] for d in self.dice)
            for text in self._piece_moves(x, y, letter)
        ]
        return found or ["pass"]

    def play(self, text: str) -> Chaturaji:
        """The position after ``text``: the same player again while the other die can be
        used, else the next player, the dice to be thrown."""
        board = dict(self.board)
        scores = list(self.scores)
        if text == "pass":
            return Chaturaji(board, scores, (self.turn + 1) % 4, None)
        assert self.dice is not None
        path, _, promoted = text.partition("=")
        start, to = (_square(t) for t in path.replace("x", "-").split("-"))
        owner, letter = board.pop(start)
        if to in board:
            scores[self.turn] += POINTS[board[to][1]]
        board[to] = (owner, promoted or letter)
        rest = list(self.dice)
        rest.remove(next(d for d in rest if letter in MOVES_ON[d]))
        again = Chaturaji(board, scores, self.turn, tuple(rest))
        if rest and again.moves() != ["pass"]:
            return again
        return Chaturaji(board, scores, (self.turn + 1) % 4, None)

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        if self.over():
            return 0
        if self.dice is None:
            return sum(
                Chaturaji(self.board, self.scores, self.turn, throw).perft(depth - 1)
                for throw in THROWS
            )
        return sum(self.play(m).perft(depth - 1) for m in self.moves())

    def _piece_moves(self, x: int, y: int, letter: str) -> list[str]:
        out: list[str] = []

        def to(nx: int, ny: int, capture_only: bool = False, quiet_only: bool = False) -> None:
            if not (0 <= nx < 8 and 0 <= ny < 8):
                return
            there = self.board.get((nx, ny))
            if there is not None and (there[0] == self.turn or quiet_only):
                return
            if there is None and capture_only:
                return
            text = _name(x, y) + ("x" if there else "-") + _name(nx, ny)
            if letter == "P" and _far_edge(self.turn, nx, ny):
                out.extend(text + "=" + new for new in "EHB")
            else:
                out.append(text)

        if letter == "P":
            fx, fy = FORWARD[self.turn]
            to(x + fx, y + fy, quiet_only=True)
            to(x + fx + fy, y + fy + fx, capture_only=True)
            to(x + fx - fy, y + fy - fx, capture_only=True)
        elif letter in "KHB":
            jumps = {"K": ROYAL_STEPS, "H": HORSE_JUMPS, "B": BOAT_JUMPS}[letter]
            for dx, dy in jumps:
                to(x + dx, y + dy)
        else:
            for dx, dy in ROOK_LINES:
                nx, ny = x + dx, y + dy
                while 0 <= nx < 8 and 0 <= ny < 8 and (nx, ny) not in self.board:
                    to(nx, ny)
                    nx, ny = nx + dx, ny + dy
                to(nx, ny)
        return out


def _square(text: str) -> tuple[int, int]:
    return COLUMNS.index(text[0]), int(text[1:]) - 1


def _name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def _far_edge(player: int, x: int, y: int) -> bool:
    return (y == 7, x == 7, y == 0, x == 0)[player]


def _start() -> Chaturaji:
    """The start, from the rules: each army in its corner, turned a quarter a player."""
    red = {"a1": "B", "b1": "H", "c1": "E", "d1": "K", "a2": "P", "b2": "P", "c2": "P", "d2": "P"}
    board: Board = {}
    for player in range(4):
        for text, letter in red.items():
            x, y = _square(text)
            for _ in range(player):  # a quarter turn clockwise: (x, y) -> (y, 7 - x)
                x, y = y, 7 - x
            board[(x, y)] = (player, letter)
    return Chaturaji(board)


def _board_of(state: RulesState) -> Board:
    design = state.rulebook.design
    return {
        _square(design.board.names[at]): (owner, design.pieces[design.type_index(kind)].letter)
        for at, owner, kind in state.pieces()
    }


def _games() -> list[tuple[RulesState, Chaturaji]]:
    """Seeded random games played in both Chaturajis, every move compared; the positions at
    :data:`KEPT` plies in both (where the dice are to be thrown, and after the throw)."""
    game = RulesGame(rulebook("chaturaji"))
    kept: list[tuple[RulesState, Chaturaji]] = []
    for seed in range(GAMES):
        rng = random.Random(seed)
        state, mine = game.initial_state(rng), _start()
        plies = 0
        seen: set[tuple[int, bool]] = set()
        while not state.is_terminal():
            assert _board_of(state) == mine.board and not mine.over()
            chance = state.current_player() == CHANCE
            if plies in KEPT and (plies, chance) not in seen:
                seen.add((plies, chance))
                kept.append((state, mine))
            if chance:
                assert mine.dice is None
                throw = rng.choice(THROWS)
                state = state.apply(state.parse_action(f"roll {throw[0]}-{throw[1]}"))
                mine = Chaturaji(mine.board, mine.scores, mine.turn, throw)
                continue
            assert state.current_player() == mine.turn
            texts = sorted(state.texts())
            assert texts == sorted(mine.moves()), (state.text(), mine.dice)
            chosen = rng.choice(texts)
            state, mine = state.apply(state.parse_action(chosen)), mine.play(chosen)
            plies += 1
        assert mine.over()
        winner = max(range(4), key=lambda p: mine.scores[p])
        assert state.returns() == tuple(1.0 if p == winner else -1 / 3 for p in range(4))
    return kept


def test_the_start_and_its_perft() -> None:
    rules = rulebook("chaturaji")
    state = RulesGame(rules).initial_state(random.Random(0))
    assert _board_of(state) == _start().board
    # Ten throws; then a move for either die: the boat's one jump (2), the horse's two (3),
    # none for the elephant shut in (4: 4-4 is a pass), the king's two steps and the four
    # pawns' (5).
    moves = {2: 1, 3: 2, 4: 0, 5: 6}
    second = sum(max(1, moves[a] + moves[b] if a != b else moves[a]) for a, b in THROWS)
    assert [rules.perft(state.pos.copy(), d) for d in (1, 2)] == [10, second]
    for depth in range(1, DEPTH + 2):
        assert rules.perft(state.pos.copy(), depth) == _start().perft(depth), depth


def test_a_throw_is_named_whole() -> None:
    """``roll 5`` names no throw of two dice: it is refused, not read as the first throw whose
    text begins with it (``roll 5-5``); a throw written whole is read."""
    state = RulesGame(rulebook("chaturaji")).initial_state(random.Random(0))
    with pytest.raises(NotationError, match="not a legal move"):
        state.parse_action("roll 5")
    assert state.action_text(state.parse_action("roll 3-5")) == "roll 3-5"


@pytest.mark.deep
def test_random_games_and_their_perft_agree_with_chaturaji_written_by_hand() -> None:
    kept = _games()
    assert len(kept) >= sized(40, 140)
    for state, mine in kept:
        for depth in range(1, DEPTH + 1):
            assert state.rulebook.perft(state.pos.copy(), depth) == mine.perft(depth), (
                state.text(),
                depth,
            )


def test_a_pawn_on_the_far_edge_becomes_the_piece_its_player_chooses() -> None:
    rules = rulebook("chaturaji")
    text = (
        "Red: Pawn c7, King d1 / Blue: King a5, Pawn b8 / Yellow: King e8 / "
        "Green: King h4 / Red to move / roll 5-5"
    )
    state = RulesState(rules, read_position(rules, text))
    assert {"c7-c8=E", "c7-c8=H", "c7-c8=B", "c7xb8=E"} <= set(state.texts())
    after = state.apply(state.parse_action("c7xb8=H"))
    assert ("b8", 0, "Horse") in [(after.design.board.names[a], o, k) for a, o, k in after.pieces()]
    assert win_numbers(rules, after.pos) == [1, 0, 0, 0]  # the window's score: a pawn, 1 point
    king = after.apply(after.parse_action("d1-d2"))  # the other 5: then Blue throws
    assert king.current_player() == CHANCE and win_numbers(rules, king.pos) == [1, 0, 0, 0]
    assert win_numbers(rulebook("chess"), rulebook("chess").start()) is None  # no such win


def test_the_level_plays_through_the_throws_for_its_own_seat() -> None:
    state = RulesGame(rulebook("chaturaji")).initial_state(random.Random(0))
    state = state.apply(state.parse_action("roll 3-5"))
    agent = make_agent("beginner")
    chosen = {state.action_text(agent.choose(state, Limits(nodes=8), random.Random(i), Stop()))
              for i in range(2)}  # fmt: skip
    assert len(chosen) == 1 and chosen <= set(state.texts())
    assert agent.explain().startswith("Red")


def test_a_record_of_four_players_claims_no_two_sided_result() -> None:
    rules = rulebook("chaturaji")
    # Red won (1) and the others lost: no 1-0 or draw describes it.
    assert result_text(rules, (1.0, -1 / 3, -1 / 3, -1 / 3)) == "*"
    assert result_text(rulebook("chess"), (1.0, -1.0)) == "1-0"
