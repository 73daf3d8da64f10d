"""The game server: matches of every registered game over WebSocket JSON, kept in a database.

:mod:`~game.server.protocol` reads and writes the messages, :mod:`~game.server.views` says
what each recipient may see, :mod:`~game.server.store` keeps the matches,
:mod:`~game.server.host` plays them (no sockets) and :mod:`~game.server.serve` is the
WebSocket server around the host (``gamehall serve``). The server never imports the window.
"""
