"""Reversi (Othello): bitboard rules, perft, search, exact endgame solver and players."""
