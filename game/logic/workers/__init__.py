"""Every process the game spawns to work for it: one worker module for all of them.

- :mod:`~game.logic.workers.process`: one spawned worker process and the game's end of its
  pipe (start, send, wait for an answer with a time limit and a check between polls, read it
  with a size limit and, for strangers' processes, as plain data only, end it); every user
  below starts its processes through it.
- :mod:`~game.logic.workers.pool`: an agent thinking in a worker process of a small pool,
  so the window keeps drawing (:class:`~game.logic.workers.pool.WorkerAgent`).
- :mod:`~game.logic.workers.jail` (with ``jail_fork``, ``jail_linux``, ``jail_reads`` and
  ``confine``): a worker that runs strangers' code (MasterGrab robots and their discovery),
  walled in before that code is imported.

The tournament's pool (:mod:`game.logic.tournament_pool`) and the robot sandbox
(:mod:`game.logic.grab.sandbox`, :mod:`game.logic.grab.discovery`) use them.
"""
