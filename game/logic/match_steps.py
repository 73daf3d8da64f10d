"""What a :class:`~game.logic.match.Match` records and answers: a :class:`Step` of its record,
the :class:`Hint` it found for a state, and the errors it raises (:class:`MatchError` for a
request it refuses now, :class:`ReplayError` for a record that does not replay)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from game.logic.contract import GameError

__all__ = ["Hint", "MatchError", "ReplayError", "Step"]


class MatchError(GameError):
    """A request the match refuses now: a person's action on an agent's turn, no hint agent."""


class ReplayError(MatchError):
    """A record that does not replay from the match's start: a step's text names no legal
    action, or its seat is not the one to act (a damaged or foreign saved game)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the record: who acted, what, and how it went.

    ``forfeit`` is the reason the seat lost its turn (its agent raised, overran or sent an
    illegal action; ``action`` is then what it sent, or None); ``forced`` marks an action the
    game played by itself; ``seconds`` is how long the agent thought. ``detail`` is what the
    window showed of the step that the state cannot tell (the river: which of three devils
    boarded), given by the controller that played it; the rules never read it, and undo,
    redo, jumps and replays keep it with the step.
    """

    seat: int
    action: Any
    text: str
    forced: bool = False
    forfeit: str | None = None
    seconds: float = 0.0
    note: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Hint:
    """The hint agent's choice for the state with ``key``, with what it said about it."""

    key: Hashable
    action: Any
    text: str
    note: str = ""
