"""Gamehall: thinking games in a real 3D window."""

__version__ = "0.1.0"
