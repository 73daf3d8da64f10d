"""Reversi (Othello): bitboard rules, perft, search, exact endgame solver and players."""

#: The computer players, weakest first: ours, then the seed's classic minimax levels.
LEVELS = (
    "beginner",
    "intermediate",
    "advanced",
    "expert",
    "master",
    "classic-beginner",
    "classic-intermediate",
    "classic-advanced",
    "classic-expert",
)
