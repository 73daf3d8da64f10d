"""The described games: the registry entry and the window side of every game read from a
description."""
