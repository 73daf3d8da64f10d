"""Reversi (Othello) rules in pure Python: positions, moves, board text and game transcripts.

A :class:`Position` holds two Python-int bitboards and the side to move; it is the game's
state in the sense of :class:`game.logic.contract.State` (``legal_actions``, ``apply``,
``current_player``, ``returns``, ``action_text`` / ``parse_action``). Square ``sq`` is
``row * 8 + col`` with A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63, the order of the board
text (:meth:`Position.from_text`) and of :mod:`game.logic.reversi.kernels`, whose numba
kernels compute the same legal moves and flips (a test checks they agree). A move is a square or
:data:`PASS`; its text is the lower-case square name (``"d3"``) or ``"pass"``.

>>> pos = Position.start()
>>> [square_name(m) for m in pos.legal_moves()]
['d3', 'c4', 'f5', 'e6']
>>> after = pos.apply(parse_move("F5"))
>>> after.disc_count(), after.to_move
((4, 1), <Color.WHITE: 'O'>)
>>> format_transcript(parse_transcript("f5 d6 C3"))
'f5d6c3'
>>> after.action_text(after.parse_action("D6")), after.current_player()
('d6', 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from game.logic.contract import TERMINAL
from game.logic.opposed import Opposed

__all__ = [
    "PASS",
    "BoardTextError",
    "Color",
    "IllegalMoveError",
    "Move",
    "MoveTextError",
    "Position",
    "ReversiError",
    "TranscriptError",
    "format_transcript",
    "parse_action",
    "parse_move",
    "parse_transcript",
    "replay",
    "square_name",
]

Move: TypeAlias = int
"""A square 0..63 (A1 = 0, H8 = 63) or :data:`PASS`."""

PASS: Final[Move] = 64
FILES: Final = "abcdefgh"


class ReversiError(ValueError):
    """Base class for the errors of the Reversi rules."""


class IllegalMoveError(ReversiError):
    """A move that the rules do not allow in the position it was played in."""


class MoveTextError(ReversiError):
    """Text that is not a move (``"d3"`` or ``"pass"``)."""


class BoardTextError(ReversiError):
    """Board text that is not 64 squares of X / O / - followed by the side to move."""


class TranscriptError(ReversiError):
    """A game transcript that does not read or does not replay."""


class Color(Opposed):
    """A side, named by its disc letter in board text; ``other`` is the opponent. Black moves
    first."""

    BLACK = "X"
    WHITE = "O"

    @property
    def player(self) -> int:
        """The OpenSpiel player number: 0 for black, 1 for white."""
        return 0 if self is Color.BLACK else 1


def square_name(move: Move) -> str:
    """Lower-case name of a square (``"d3"``), or ``"pass"``.

    >>> square_name(0), square_name(19), square_name(63), square_name(PASS)
    ('a1', 'd3', 'h8', 'pass')
    """
    if move == PASS:
        return "pass"
    if not isinstance(move, int) or not 0 <= move < 64:
        raise MoveTextError(f"move {move!r} is neither a square 0..63 nor PASS (64)")
    return FILES[move % 8] + str(move // 8 + 1)


def parse_move(text: str) -> Move:
    """The move named by ``text``: a square such as ``"d3"`` / ``"D3"``, or ``"pass"``.

    >>> parse_move(" D3 "), parse_move("Pass")
    (19, 64)
    """
    word = text.strip().lower()
    if word == "pass":
        return PASS
    if len(word) == 2 and word[0] in FILES and word[1] in "12345678":
        return (int(word[1]) - 1) * 8 + FILES.index(word[0])
    raise MoveTextError(f"{text!r} is not a move: write a square a1..h8 or 'pass'")


parse_action = parse_move  # the name the game contract uses


@dataclass(frozen=True, slots=True)
class Position:
    """The discs of each side (bitboards, bit ``sq`` set) and the side to move."""

    black: int
    white: int
    to_move: Color

    def __post_init__(self) -> None:
        for name, board in (("black", self.black), ("white", self.white)):
            if not isinstance(board, int) or not 0 <= board <= _FULL:
                raise ReversiError(f"{name} discs {board!r} are not a 64-bit board")
        if self.black & self.white:
            clash = ", ".join(square_name(s) for s in squares(self.black & self.white))
            raise ReversiError(f"black and white discs share squares: {clash}")
        if not isinstance(self.to_move, Color):
            raise ReversiError(f"side to move {self.to_move!r} is not a Color")

    # --- construction and text ------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The standard start: d4 and e5 white, e4 and d5 black, black to move."""
        return cls(black=_bit(28) | _bit(35), white=_bit(27) | _bit(36), to_move=Color.BLACK)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read 64 squares A1..H8 row by row (X black, O white, - or . empty) and the side to
        move (X or B for black, O or W for white), with or without a space between.

        >>> Position.from_text("-" * 27 + "OX------XO" + "-" * 27 + " X") == Position.start()
        True
        """
        body = text.strip()
        if not body:
            raise BoardTextError("board text is empty: expected 64 squares and the side to move")
        board = body[:64]
        black = white = 0
        for sq, char in enumerate(board):
            if char in "Xx":
                black |= _bit(sq)
            elif char in "Oo":
                white |= _bit(sq)
            elif char not in "-.":
                raise BoardTextError(
                    f"board text has {char!r} at character {sq + 1} (square {square_name(sq)}):"
                    " squares are X, O or -"
                )
        if len(board) < 64:
            raise BoardTextError(
                f"board text has {len(board)} squares, expected 64 followed by the side to move"
            )
        side = body[64:].strip()
        if not side:
            raise BoardTextError("board text lacks the side to move after the 64 squares")
        if len(side) != 1 or side.upper() not in _SIDES:
            raise BoardTextError(
                f"side to move {side!r} after the 64 squares is not X/B (black) or O/W (white)"
            )
        return cls(black=black, white=white, to_move=_SIDES[side.upper()])

    def text(self) -> str:
        """The board text :meth:`from_text` reads: 64 squares, then X or O (no space)."""
        cells = [
            "X" if self.black >> sq & 1 else "O" if self.white >> sq & 1 else "-"
            for sq in range(64)
        ]
        return "".join(cells) + self.to_move.value

    def __str__(self) -> str:
        """An 8x8 diagram, row 1 at the top, and the side to move."""
        lines = ["  a b c d e f g h"]
        for row in range(8):
            cells = []
            for col in range(8):
                sq = row * 8 + col
                cells.append("X" if self.black >> sq & 1 else "O" if self.white >> sq & 1 else "-")
            lines.append(f"{row + 1} " + " ".join(cells))
        black, white = self.disc_count()
        if self.is_terminal():
            lines.append(f"game over, X {black} - O {white}")
        else:
            lines.append(f"{self.to_move.value} to move, X {black} - O {white}")
        return "\n".join(lines)

    # --- state queries ----------------------------------------------------------------------

    @property
    def mine(self) -> int:
        """Discs of the side to move."""
        return self.black if self.to_move is Color.BLACK else self.white

    @property
    def theirs(self) -> int:
        """Discs of the side not to move."""
        return self.white if self.to_move is Color.BLACK else self.black

    @property
    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self.black | self.white).bit_count()

    def key(self) -> tuple[int, int, str]:
        """A hashable key naming the position."""
        return (self.black, self.white, self.to_move.value)

    def move_mask(self) -> int:
        """Bitboard of the squares the side to move may play (pure Python)."""
        return _legal_mask(self.mine, self.theirs)

    def legal_moves(self) -> list[Move]:
        """Legal squares in ascending order; ``[PASS]`` when only the opponent can move, ``[]``
        when neither can (game over)."""
        mine, theirs = self.mine, self.theirs
        mask = _legal_mask(mine, theirs)
        if mask:
            return squares(mask)
        return [PASS] if _legal_mask(theirs, mine) else []

    legal_actions = legal_moves  # the logic interface's name

    def flips(self, move: Move) -> int:
        """Bitboard of the discs that ``move`` would flip (0 for PASS or an illegal square)."""
        if move == PASS:
            return 0
        _check_square(move)
        if (self.black | self.white) >> move & 1:
            return 0
        return _flips(self.mine, self.theirs, move)

    def apply(self, move: Move) -> Position:
        """The position after ``move``; :class:`IllegalMoveError` says why a move is refused."""
        mine, theirs = self.mine, self.theirs
        if move == PASS:
            if _legal_mask(mine, theirs):
                raise IllegalMoveError(
                    f"{self.to_move.value} cannot pass while it has a move"
                    f" ({', '.join(square_name(s) for s in self.legal_moves())})"
                )
            if not _legal_mask(theirs, mine):
                raise IllegalMoveError("cannot pass: the game is over")
            return Position(self.black, self.white, self.to_move.other)
        _check_square(move)
        name = square_name(move)
        if (mine | theirs) >> move & 1:
            raise IllegalMoveError(f"{name} is already taken")
        flipped = _flips(mine, theirs, move)
        if not flipped:
            if _legal_mask(mine, theirs):
                raise IllegalMoveError(f"{name} flips no disc of {self.to_move.other.value}")
            if _legal_mask(theirs, mine):
                raise IllegalMoveError(f"{name}: {self.to_move.value} has no move and must pass")
            raise IllegalMoveError(f"{name}: the game is over")
        mine |= flipped | _bit(move)
        theirs ^= flipped
        if self.to_move is Color.BLACK:
            return Position(mine, theirs, Color.WHITE)
        return Position(theirs, mine, Color.BLACK)

    def is_terminal(self) -> bool:
        """True when neither side can move."""
        return not _legal_mask(self.mine, self.theirs) and not _legal_mask(self.theirs, self.mine)

    def disc_count(self) -> tuple[int, int]:
        """Discs on the board as ``(black, white)``."""
        return self.black.bit_count(), self.white.bit_count()

    def score(self) -> int:
        """Final disc difference black minus white, the empty squares going to the winner
        (the score this position would have if the game ended now)."""
        black, white = self.disc_count()
        empty = 64 - black - white
        if black > white:
            return black - white + empty
        if black < white:
            return black - white - empty
        return 0

    def winner(self) -> Color | None:
        """The side ahead on discs (the winner once the game is over), None for a draw."""
        black, white = self.disc_count()
        return Color.BLACK if black > white else Color.WHITE if white > black else None

    def current_player(self) -> int:
        """0 when black is to move, 1 for white, :data:`~game.logic.contract.TERMINAL` once over."""
        return TERMINAL if self.is_terminal() else self.to_move.player

    def returns(self) -> tuple[float, float]:
        """``(black, white)``: 1 for the winner and -1 for the loser at game end, else 0."""
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = self.winner()
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner is Color.BLACK else (-1.0, 1.0)

    def action_text(self, move: Move) -> str:
        """The move's notation: ``"d3"`` or ``"pass"`` (:func:`square_name`)."""
        return square_name(move)

    def parse_action(self, text: str) -> Move:
        """The move ``text`` names (:func:`parse_move`); legality is :meth:`apply`'s business."""
        return parse_move(text)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Always empty: nothing in Reversi is left to chance."""
        return []

    def observation(self, seat: int) -> tuple[int, int, str]:
        """Both seats see the whole board: the :meth:`key`."""
        return self.key()


# --- transcripts -------------------------------------------------------------------------------


def format_transcript(moves: Iterable[Move]) -> str:
    """Moves as ``"f5d6c3..."``: lower-case squares, passes left out (they are implied).

    >>> format_transcript([37, 43, PASS, 18])
    'f5d6c3'
    """
    return "".join(square_name(m) for m in moves if m != PASS)


def parse_transcript(text: str, start: Position | None = None) -> list[Move]:
    """Read a transcript from ``start`` (default: the standard start), inserting the passes.

    Squares may be upper or lower case and separated by spaces, commas or nothing; an explicit
    ``pass`` is accepted where a pass is due. Every move is checked against the rules: a
    :class:`TranscriptError` gives the character position in the text and the reason.
    """
    position = Position.start() if start is None else start
    moves: list[Move] = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char.isspace() or char in ",;":
            i += 1
            continue
        if text[i : i + 4].lower() == "pass":
            word, token = text[i : i + 4], PASS
        else:
            word = text[i : i + 2]
            try:
                token = parse_move(word)
            except MoveTextError:
                raise TranscriptError(
                    f"transcript character {i + 1}: {word!r} is not a square a1..h8"
                ) from None
        if token != PASS and position.legal_moves() == [PASS]:
            moves.append(PASS)  # the implied pass
            position = position.apply(PASS)
        try:
            position = position.apply(token)
        except IllegalMoveError as error:
            ply = len(moves) + 1
            raise TranscriptError(f"transcript character {i + 1} (ply {ply}): {error}") from None
        moves.append(token)
        i += len(word)
    return moves


def replay(moves: Sequence[Move], start: Position | None = None) -> list[Position]:
    """Every position of a game: ``start`` (default: the standard start), then one per move.

    Raises :class:`IllegalMoveError` naming the ply of the first move the rules refuse.
    """
    position = Position.start() if start is None else start
    positions = [position]
    for ply, move in enumerate(moves, 1):
        try:
            position = position.apply(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"ply {ply} ({square_name(move)}): {error}") from None
        positions.append(position)
    return positions


# --- private helpers ---------------------------------------------------------------------------

_FULL: Final = (1 << 64) - 1
_NOT_A: Final = 0xFEFEFEFEFEFEFEFE
_NOT_H: Final = 0x7F7F7F7F7F7F7F7F
_SIDES: Final = {"X": Color.BLACK, "B": Color.BLACK, "O": Color.WHITE, "W": Color.WHITE}
# (shift, mask of the squares a disc may land on after the shift without wrapping a row)
_DIRECTIONS: Final = (
    (1, _NOT_A),
    (-1, _NOT_H),
    (8, _FULL),
    (-8, _FULL),
    (9, _NOT_A),
    (7, _NOT_H),
    (-7, _NOT_A),
    (-9, _NOT_H),
)


def _bit(sq: int) -> int:
    return 1 << sq


def squares(mask: int) -> list[Move]:
    """The squares of a bitboard, ascending (e.g. the discs a move flips).

    >>> squares(Position.start().flips(19))
    [27]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _check_square(move: int) -> None:
    if not isinstance(move, int) or not 0 <= move < 64:
        raise IllegalMoveError(f"move {move!r} is neither a square 0..63 nor PASS (64)")


def _shift(x: int, d: int, mask: int) -> int:
    return ((x << d) if d > 0 else (x >> -d)) & mask & _FULL


def _legal_mask(mine: int, theirs: int) -> int:
    empty = ~(mine | theirs) & _FULL
    moves = 0
    for d, mask in _DIRECTIONS:
        x = _shift(mine, d, mask) & theirs
        for _ in range(5):
            x |= _shift(x, d, mask) & theirs
        moves |= _shift(x, d, mask) & empty
    return moves


def _flips(mine: int, theirs: int, sq: int) -> int:
    flipped = 0
    for d, mask in _DIRECTIONS:
        run = 0
        x = _shift(1 << sq, d, mask)
        while x & theirs:
            run |= x
            x = _shift(x, d, mask)
        if x & mine:
            flipped |= run
    return flipped
