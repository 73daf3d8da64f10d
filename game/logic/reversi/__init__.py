"""Reversi (Othello): bitboard rules, perft, search, exact endgame solver and players."""

#: The computer players' levels, weakest first: the search levels, then the classic minimax ones.
LEVELS = (
    "beginner",
    "intermediate",
    "advanced",
    "expert",
    "master",
    "grandmaster",
    "classic-beginner",
    "classic-intermediate",
    "classic-advanced",
    "classic-expert",
)
