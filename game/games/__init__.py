"""One module per game with its registry entry (``ENTRY``): options schema, agents, controller,
command-line hooks. :mod:`game.registry` imports them on first use."""
