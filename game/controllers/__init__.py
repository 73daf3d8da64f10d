"""One scene controller per game."""
