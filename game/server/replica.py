"""The replica: a client's copy of a public match of a server.

:class:`Replica` starts the game from the match's ``start_seed``
(``entry.game(options).initial_state(Random(start_seed))``, as the server does) and applies
every step's text the server sent, read back by the state's own ``parse_action``. It never
applies an action the server did not send; a step it cannot read raises
:class:`ReplicaError` and changes nothing (the client then asks for a snapshot).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

__all__ = ["Replica", "ReplicaError"]


class ReplicaError(ValueError):
    """A step the replica cannot follow: no text, or text the state does not read."""


class Replica:
    """A public match's state rebuilt on this side: ``entry.game(options)`` started from
    ``Random(start_seed)``, each step's text applied in order (see the module docstring)."""

    def __init__(self, entry: Any, options: Mapping[str, Any], start_seed: int) -> None:
        self.entry = entry
        self.game = entry.game(options)
        self.state: Any = self.game.initial_state(random.Random(start_seed))
        self.ply = 0

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> Replica | None:
        """The replica of a snapshot's match, or None when the match hides what a replica
        would need (no ``start_seed``) or this side does not know its game. Raises
        :class:`ReplicaError` when the record does not replay."""
        seed = snapshot.get("start_seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            return None
        from game.registry import UnknownGameError, get

        try:
            entry = get(str(snapshot.get("game")))
        except UnknownGameError:
            return None
        try:
            replica = cls(entry, snapshot.get("options") or {}, seed)
        except ValueError as exc:
            raise ReplicaError(f"the match's start does not build here: {exc}") from None
        for step in snapshot.get("record") or ():
            replica.apply(step)
        return replica

    def apply(self, step: Mapping[str, Any]) -> None:
        """Apply one step of the record (``{seat, text}``); raises :class:`ReplicaError`
        and keeps the state when the text is missing or does not name a legal action."""
        text = step.get("text")
        if not isinstance(text, str):
            raise ReplicaError(f"step {self.ply + 1} came without its text")
        try:
            state = self.state.apply(self.state.parse_action(text))
        except (ValueError, TypeError, KeyError) as exc:
            raise ReplicaError(f"step {self.ply + 1} ({text!r}) does not apply: {exc}") from None
        self.state = state
        self.ply += 1
