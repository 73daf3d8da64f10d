"""Priests and Devils: the registry entry and the window side."""
