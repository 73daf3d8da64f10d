"""Cluedo: the registry entry, the window side and the terminal front end."""
