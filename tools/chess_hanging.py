"""Chess positions in which a move loses material at once, judged by python-chess, for the
test that the computer never leaves a piece to be taken (tests/test_rules_levels.py).

    .venv/bin/python tools/chess_hanging.py > tests/data/chess_hanging.txt

Positions come from seeded games in which each side plays a random move among those that do
not lose material at once (so the games look like play, not like random moves). A position
is kept when:

- the side to move is not in check and has nothing to take for profit, and nothing of its
  own can be taken for profit (a quiet position: the test is about the move, not about what
  stands attacked already);
- no move mates at once;
- at least one move *hangs material*: after it, the opponent wins at least two pawns' worth
  by captures on one square (a brute-force search of every legal capture sequence on that
  square, each side free to stop), counting what the move itself took; a move that gives
  check is not counted as one (a check may win more than it gives);
- at least one move loses nothing.

Each line: the FEN, then `|` and the hanging moves (UCI), then `|` and each one's loss in
pawns. Piece values: pawn 1, knight 3, bishop 3, rook 5, queen 9.
"""

from __future__ import annotations

import random
import sys

import chess

VALUES = {
    chess.PAWN: 1,
    chess.KNIGHT: 3,
    chess.BISHOP: 3,
    chess.ROOK: 5,
    chess.QUEEN: 9,
    chess.KING: 0,
}
POSITIONS = 50
SEED = 24


def taken_value(board: chess.Board, move: chess.Move) -> int:
    """What ``move`` takes (a pawn for en passant) plus what a promotion adds."""
    value = 0
    if board.is_en_passant(move):
        value = 1
    else:
        piece = board.piece_at(move.to_square)
        if piece is not None:
            value = VALUES[piece.piece_type]
    if move.promotion:
        value += VALUES[move.promotion] - 1
    return value


def exchange(board: chess.Board, square: int) -> int:
    """The most the side to move wins by capturing on ``square`` and recapturing there, each
    side free to stop (every legal capture sequence on the square is tried)."""
    best = 0
    for move in list(board.legal_moves):
        if move.to_square != square or not board.is_capture(move):
            continue
        gain = taken_value(board, move)
        board.push(move)
        gain -= exchange(board, square)
        board.pop()
        best = max(best, gain)
    return best


def threat(board: chess.Board) -> int:
    """The most the side to move wins on one square holding a piece of the other side."""
    enemy = not board.turn
    return max(
        (exchange(board, sq) for sq, piece in board.piece_map().items() if piece.color == enemy),
        default=0,
    )


def net(board: chess.Board, move: chess.Move) -> int:
    """Material the mover wins (negative: loses) with ``move`` by the opponent's best
    one-square exchange after it."""
    gain = taken_value(board, move)
    board.push(move)
    loss = threat(board)
    board.pop()
    return gain - loss


def quiet(board: chess.Board) -> bool:
    if board.is_check():
        return False
    if any(board.is_capture(m) and net(board, m) > 0 for m in board.legal_moves):
        return False  # something to take for profit
    board.push(chess.Move.null())
    attacked = threat(board)
    board.pop()
    return attacked == 0


def mates_at_once(board: chess.Board) -> bool:
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def play_move(board: chess.Board, rng: random.Random) -> chess.Move:
    moves = list(board.legal_moves)
    sound = [m for m in moves if net(board, m) >= 0]
    return rng.choice(sound or moves)


def positions(count: int, seed: int) -> list[tuple[str, list[tuple[str, int]]]]:
    rng = random.Random(seed)
    found: list[tuple[str, list[tuple[str, int]]]] = []
    seen: set[str] = set()
    while len(found) < count:
        board = chess.Board()
        kept = 0
        for ply in range(70):
            if board.is_game_over():
                break
            if ply >= 10 and kept < 2 and quiet(board) and not mates_at_once(board):
                hanging = []
                safe = 0
                for move in board.legal_moves:
                    value = net(board, move)
                    if value <= -2 and not board.gives_check(move):
                        hanging.append((move.uci(), -value))
                    elif value >= 0:
                        safe += 1
                fen = board.fen()
                if hanging and safe and fen not in seen and rng.random() < 0.3:
                    seen.add(fen)
                    found.append((fen, sorted(hanging)))
                    kept += 1
                    if len(found) >= count:
                        break
            board.push(play_move(board, rng))
    return found


def main() -> None:
    out = sys.stdout
    out.write(
        "# Chess positions where a move hangs material (tools/chess_hanging.py, seed "
        f"{SEED}): FEN | hanging moves (UCI) | pawns each loses\n"
    )
    for fen, hanging in positions(POSITIONS, SEED):
        moves = " ".join(m for m, _ in hanging)
        losses = " ".join(str(v) for _, v in hanging)
        out.write(f"{fen} | {moves} | {losses}\n")


if __name__ == "__main__":
    main()
